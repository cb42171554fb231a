#include "cli.h"

#include "../mesh/grid.h"
#include "picture.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest image we accept at the command line; the device may allow less (runtime error). */
#define CLI_MAX_IMAGE_SIDE 16384u
#define CLI_MAX_FRAMES     100000000u
#define CLI_MAX_DEVICE     1023u

/* What a run is: each option says in which of these it applies. */
enum {
    MODE_WINDOW = 1,   /* the default where there is a display */
    MODE_HEADLESS = 2, /* --headless (or no display) */
    MODE_BENCH = 4,    /* --bench */
    MODE_ALL = MODE_WINDOW | MODE_HEADLESS | MODE_BENCH,
    MODE_SHOWN = MODE_WINDOW | MODE_HEADLESS, /* the runs that draw the book */
};

/* How a refused mode is named: "it does not apply ..." */
static const char *const MODE_NAMES[] = {
    [MODE_WINDOW] = "in a window",
    [MODE_HEADLESS] = "to a headless run (--headless)",
    [MODE_BENCH] = "to the benchmark (--bench)",
};

/* The --help listing's sections, in order. */
typedef enum CliGroup {
    GROUP_SHOW,
    GROUP_WINDOW,
    GROUP_HEADLESS,
    GROUP_COMPUTE,
    GROUP_BENCH,
    GROUP_DIAGNOSTICS,
    GROUP_COUNT
} CliGroup;

static const char *const GROUP_TITLES[GROUP_COUNT] = {
    "What to show", "Window", "Headless output", "Compute paths", "Benchmark", "Diagnostics",
};

typedef enum CliValue {
    VALUE_NONE,     /* a switch */
    VALUE_REQUIRED, /* --flag VALUE or --flag=VALUE */
    VALUE_OPTIONAL, /* a switch that also takes --flag=VALUE */
} CliValue;

/* Sets the option's field from `value` (NULL for a switch); false when the value is malformed. */
typedef bool (*CliParse)(const char *value, AppOptions *o, void *field);

typedef struct CliOption {
    const char *flag, *alias;
    const char *metavar; /* the value's name in --help; NULL for a switch */
    CliValue value;
    CliParse parse;
    size_t field; /* offsetof(AppOptions, ...) */
    CliGroup group;
    unsigned modes;      /* where it applies; elsewhere it is refused */
    const char *purpose; /* why it is refused elsewhere: "--x <purpose>; it does not apply ..." */
    const char *expect;  /* after "--x 'value': expected " */
    const char *help;    /* --help's description; '\n' continues it on another line */
} CliOption;

/* Whole-string unsigned decimal in [lo, hi]; rejects signs, blanks, trailing text. */
static bool parse_u32(const char *s, const char **end, uint32_t lo, uint32_t hi, uint32_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    if (errno || v < lo || v > hi)
        return false;
    if (end)
        *end = e;
    else if (*e)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "AxB", or "N" for NxN where `square` allows it. */
static bool parse_pair(const char *s, uint32_t lo, uint32_t hi, bool square, uint32_t *a,
                       uint32_t *b)
{
    const char *e;
    if (!parse_u32(s, &e, lo, hi, a))
        return false;
    if (*e == '\0' && square) {
        *b = *a;
        return true;
    }
    return (*e == 'x' || *e == 'X') && parse_u32(e + 1, NULL, lo, hi, b);
}

static bool parse_real(const char *s, double lo, double hi, float *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *e;
    double v = strtod(s, &e);
    if (errno || *e || !isfinite(v) || v < lo || v > hi)
        return false;
    *out = (float)v;
    return true;
}

/* The index of `value` in the NULL-terminated `names`. */
static bool pick(const char *value, const char *const *names, int *out)
{
    for (int k = 0; names[k]; k++) {
        if (!strcmp(value, names[k])) {
            *out = k;
            return true;
        }
    }
    return false;
}

static bool set_true(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(bool *)field = true;
    return value == NULL;
}

static bool set_validation(const char *value, AppOptions *o, void *field)
{
    o->gpu_assisted = value != NULL;
    *(bool *)field = true;
    return !value || !strcmp(value, "gpu-assisted");
}

static bool set_bench(const char *value, AppOptions *o, void *field)
{
    o->headless = true; /* the benchmark renders offscreen */
    return set_true(value, o, field);
}

static bool set_file(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(const char **)field = value;
    return *value != '\0';
}

static bool set_picture(const char *value, AppOptions *o, void *field)
{
    return set_file(value, o, field) && app_picture_format(value) != APP_PICTURE_NONE;
}

static bool set_grid(const char *value, AppOptions *o, void *field)
{
    (void)field;
    return parse_pair(value, 2, MESH_GRID_MAX_SIDE, true, &o->nx, &o->ny);
}

static bool set_size(const char *value, AppOptions *o, void *field)
{
    (void)field;
    return parse_pair(value, 1, CLI_MAX_IMAGE_SIDE, false, &o->width, &o->height);
}

/* "64,256,48x90": squares or NXxNY pairs; no empty items. */
static bool set_grids(const char *s, AppOptions *o, void *field)
{
    (void)field;
    o->grid_count = 0;
    while (*s) {
        if (o->grid_count == APP_MAX_GRIDS)
            return false;
        const char *e;
        uint32_t *g = o->grids[o->grid_count];
        if (!parse_u32(s, &e, 2, MESH_GRID_MAX_SIDE, &g[0]))
            return false;
        g[1] = g[0];
        if ((*e == 'x' || *e == 'X') && !parse_u32(e + 1, &e, 2, MESH_GRID_MAX_SIDE, &g[1]))
            return false;
        o->grid_count++;
        if (*e == ',' && e[1])
            s = e + 1;
        else if (*e == '\0')
            s = e;
        else
            return false;
    }
    return o->grid_count > 0;
}

static bool set_unit(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, 0.0, 1.0, field);
}

static bool set_curl(const char *value, AppOptions *o, void *field)
{
    o->has_curl = true;
    return set_unit(value, o, field);
}

static bool set_radius(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, APP_RADIUS_MIN, APP_RADIUS_MAX, field);
}

static bool set_frames(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_u32(value, NULL, 1, CLI_MAX_FRAMES, field);
}

static bool set_warmup(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_u32(value, NULL, 0, CLI_MAX_FRAMES, field);
}

static bool set_device(const char *value, AppOptions *o, void *field)
{
    (void)o;
    uint32_t d;
    if (!parse_u32(value, NULL, 0, CLI_MAX_DEVICE, &d))
        return false;
    *(int *)field = (int)d;
    return true;
}

static bool set_deform(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(bool *)field = !strcmp(value, "cpu");
    return *(bool *)field || !strcmp(value, "gpu");
}

static bool set_normals(const char *value, AppOptions *o, void *field)
{
    (void)o;
    int k; /* GpuNormalsPath: 0 is "the fastest", then these */
    if (!pick(value, (const char *const[]){"two-pass", "fused", "fused-deform", NULL}, &k))
        return false;
    *(int *)field = k + 1;
    return true;
}

static bool set_pack(const char *value, AppOptions *o, void *field)
{
    (void)o; /* GpuPackPath's order */
    return pick(value, (const char *const[]){"gpu", "staging", NULL}, field);
}

static bool set_staging(const char *value, AppOptions *o, void *field)
{
    (void)o; /* GpuStaging's order */
    return pick(value, (const char *const[]){"auto", "always", "never", NULL}, field);
}

static bool set_msaa(const char *value, AppOptions *o, void *field)
{
    (void)o;
    uint32_t *samples = field;
    return parse_u32(value, NULL, 1, 4, samples) && (*samples == 1 || *samples == 4);
}

static bool set_present_mode(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return pick(value, (const char *const[]){"fifo", "mailbox", "immediate", NULL}, field);
}

#define F(name) offsetof(AppOptions, name)

/* Every option. --help lists them in this order within each group. */
static const CliOption OPTIONS[] = {
    /* what to show */
    {"--size", NULL, "WxH", VALUE_REQUIRED, set_size, 0, GROUP_SHOW, MODE_ALL, NULL,
     "WxH with each side in 1..16384", "window or image size in pixels (default 1280x720)"},
    {"--grid", NULL, "NXxNY", VALUE_REQUIRED, set_grid, 0, GROUP_SHOW, MODE_ALL, NULL,
     "NXxNY or N (for NxN) with each side in 2..16384",
     "page mesh: NX vertices across, NY along the spine; N alone is NxN\n(default 64x90)"},
    {"--msaa", NULL, "1|4", VALUE_REQUIRED, set_msaa, F(msaa), GROUP_SHOW, MODE_ALL, NULL,
     "1 or 4 (samples per pixel)", "samples per pixel (default 4 where the device can)"},
    {"--notebook", NULL, "FILE", VALUE_REQUIRED, set_file, F(notebook), GROUP_SHOW, MODE_SHOWN,
     "keeps the ink drawn on the pages", "a file name",
     "the ink: loaded at start (a new file is fine), saved on exit if it changed"},
    {"--replay", NULL, "FILE", VALUE_REQUIRED, set_file, F(replay), GROUP_SHOW, MODE_SHOWN,
     "plays recorded input on the book", "a file name",
     "play an input trace back (60 steps a second), in a window or headless"},
    {"--frames", NULL, "N", VALUE_REQUIRED, set_frames, F(frames), GROUP_SHOW, MODE_ALL, NULL,
     "an integer in 1..100000000",
     "frames to play, then stop (headless default: a turn of 120 frames)"},
    {"--screenshot", NULL, "FILE", VALUE_REQUIRED, set_picture, F(screenshot), GROUP_SHOW,
     MODE_SHOWN, "writes a picture of the book", "a file name ending in .png, .jpg or .jpeg",
     "on exit, the last frame as FILE: .png, or .jpg/.jpeg (JPEG quality 90);\nin a window, "
     "what the window showed last"},
    {"--export-obj", NULL, "FILE", VALUE_REQUIRED, set_file, F(export_obj), GROUP_SHOW, MODE_SHOWN,
     "writes the turning leaf's mesh", "a file name",
     "on exit, the turning leaf's mesh of the last frame, read back from the\nGPU, as OBJ"},
    /* window */
    {"--record", NULL, "FILE", VALUE_REQUIRED, set_file, F(record), GROUP_WINDOW, MODE_WINDOW,
     "writes the window's input", "a file name",
     "write the window's input (turns, keys, ink) as a trace, on exit"},
    {"--present-mode", NULL, "MODE", VALUE_REQUIRED, set_present_mode, F(present_mode),
     GROUP_WINDOW, MODE_WINDOW, "picks how the window presents", "fifo, mailbox or immediate",
     "fifo (vsync, default), mailbox or immediate; one the screen lacks: fifo"},
    /* headless output */
    {"--headless", NULL, NULL, VALUE_NONE, set_true, F(headless), GROUP_HEADLESS, MODE_HEADLESS,
     NULL, NULL, "render offscreen, no window (chosen, with a note, without a display)"},
    {"--curl", NULL, "T", VALUE_REQUIRED, set_curl, F(curl), GROUP_HEADLESS, MODE_HEADLESS,
     "fixes the pose of a headless render", "a number in [0, 1]",
     "fix the pose at progress T of the turn: 0 flat .. 1 turned (one frame)"},
    {"--grab", NULL, "G", VALUE_REQUIRED, set_unit, F(grab), GROUP_HEADLESS, MODE_HEADLESS,
     "places the headless turn's grab", "a number in [0, 1]",
     "where the free edge is held: 0 bottom corner .. 1 top (default 0.25)"},
    {"--backward", NULL, NULL, VALUE_NONE, set_true, F(backward), GROUP_HEADLESS, MODE_HEADLESS,
     "turns the headless turn back", NULL,
     "the headless turn goes back: a left page turns over to the right"},
    {"--radius", NULL, "R", VALUE_REQUIRED, set_radius, F(radius), GROUP_HEADLESS, MODE_HEADLESS,
     "shapes the headless turn's roll", "a number in [0.005, 0.5]",
     "roll radius in page widths (0.005..0.5) instead of the pose's own"},
    {"--frames-out", NULL, "DIR", VALUE_REQUIRED, set_file, F(frames_out), GROUP_HEADLESS,
     MODE_HEADLESS, "writes every headless frame", "an existing folder",
     "every frame as DIR/frame-0000.png, frame-0001.png, ... (DIR must exist)"},
    /* compute paths */
    {"--deform", NULL, "gpu|cpu", VALUE_REQUIRED, set_deform, F(cpu_deform), GROUP_COMPUTE,
     MODE_ALL, NULL, "gpu or cpu",
     "where the page is curled: a compute shader (default) or the CPU, whose\npositions are "
     "uploaded every frame (see --staging)"},
    {"--normals", NULL, "PATH", VALUE_REQUIRED, set_normals, F(normals), GROUP_COMPUTE, MODE_ALL,
     NULL, "two-pass, fused or fused-deform",
     "two-pass (face normals, then vertex normals), fused (one tiled kernel) or\nfused-deform "
     "(that kernel also curls the page; needs --deform gpu);\ndefault: the fastest measured"},
    {"--pack", NULL, "gpu|staging", VALUE_REQUIRED, set_pack, F(pack), GROUP_COMPUTE, MODE_ALL,
     NULL, "gpu or staging",
     "who interleaves the two-pass vertices: the GPU (default), or the CPU from\npositions and "
     "normals read back, then uploaded (needs --normals two-pass)"},
    {"--staging", NULL, "MODE", VALUE_REQUIRED, set_staging, F(staging), GROUP_COMPUTE, MODE_ALL,
     NULL, "auto, always or never",
     "CPU-written data: auto (in place where memory is both device-local and\nhost-visible, "
     "default), always (a staging buffer and a copy) or never"},
    /* benchmark */
    {"--bench", NULL, NULL, VALUE_NONE, set_bench, F(bench), GROUP_BENCH, MODE_BENCH, NULL, NULL,
     "per-stage GPU times of a scripted turn (renders offscreen, no window)"},
    {"--grids", NULL, "LIST", VALUE_REQUIRED, set_grids, 0, GROUP_BENCH, MODE_BENCH,
     "sweeps the benchmark's sizes",
     "up to 16 comma-separated sizes N or NXxNY, each side in 2..16384",
     "sizes to sweep, comma-separated: N (for NxN) or NXxNY"},
    {"--warmup", NULL, "N", VALUE_REQUIRED, set_warmup, F(warmup), GROUP_BENCH, MODE_BENCH,
     "sets the benchmark's untimed frames", "an integer in 0..100000000",
     "frames before timing starts (default 20)"},
    {"--json", NULL, "FILE", VALUE_REQUIRED, set_file, F(json), GROUP_BENCH, MODE_BENCH,
     "writes the benchmark's results", "a file name", "the results as JSON"},
    {"--csv", NULL, "FILE", VALUE_REQUIRED, set_file, F(csv), GROUP_BENCH, MODE_BENCH,
     "writes the benchmark's frame times", "a file name",
     "one row per frame with each stage's milliseconds"},
    /* diagnostics */
    {"--device", NULL, "INDEX", VALUE_REQUIRED, set_device, F(device), GROUP_DIAGNOSTICS, MODE_ALL,
     NULL, "a device index (see --list-devices)",
     "use this device (see --list-devices; default: discrete, integrated, CPU)"},
    {"--list-devices", NULL, NULL, VALUE_NONE, set_true, F(list_devices), GROUP_DIAGNOSTICS, 0,
     NULL, NULL, "list the Vulkan devices and exit"},
    {"--validation", NULL, NULL, VALUE_OPTIONAL, set_validation, F(validation), GROUP_DIAGNOSTICS,
     MODE_ALL, NULL, "no value but =gpu-assisted",
     "the Khronos validation layer; any message fails the run\n(--validation=gpu-assisted: "
     "GPU-assisted validation instead)"},
    {"--help", "-h", NULL, VALUE_NONE, NULL, 0, GROUP_DIAGNOSTICS, 0, NULL, NULL,
     "this text, and exit"},
    {"--version", NULL, NULL, VALUE_NONE, NULL, 0, GROUP_DIAGNOSTICS, 0, NULL, NULL,
     "the version, and exit"},
};
#define OPTION_COUNT (sizeof OPTIONS / sizeof OPTIONS[0])

/* Pairs that do not go together, whatever the mode: the second named cannot join the first. */
static const struct {
    const char *flag, *with, *why;
} CONFLICTS[] = {
    {"--replay", "--curl", "the trace poses the book"},
    {"--replay", "--grab", "the trace poses the book"},
    {"--replay", "--backward", "the trace turns the pages"},
    {"--replay", "--radius", "the trace poses the book"},
    {"--replay", "--record", "a replay takes no input to record"},
    {"--grids", "--grid", "give one or the other"},
};

static const char CONTROLS[] =
    "Window controls:\n"
    "  left button drag    hold a page and turn it; let go past the spine (or flick) to turn\n"
    "  Right/Left arrow    turn the next / previous page (also Page Down / Page Up)\n"
    "  Home / End          open the book at its first / last spread\n"
    "  right button drag   draw ink on a page, flat or curling\n"
    "  I                   ink mode: the left button and fingers draw too (I again: turn)\n"
    "  Ctrl+Z              take back the last stroke\n"
    "  Delete              clear the page side under the pointer\n"
    "  H                   heads-up display: frame time, frames/s, GPU stage times, device\n"
    "  F12 or P            screenshot: the window as it is, to a new pagecurl-NNNN.png\n"
    "  F11                 fullscreen on / off\n"
    "  Escape              quit\n";

/* "--flag VALUE" as a usage line shows it. */
static int option_form(const CliOption *opt, char *out, size_t size)
{
    if (opt->value == VALUE_OPTIONAL)
        return snprintf(out, size, "%s[=gpu-assisted]", opt->flag);
    return opt->metavar ? snprintf(out, size, "%s %s", opt->flag, opt->metavar)
                        : snprintf(out, size, "%s", opt->flag);
}

/* Appends "[--flag VALUE]" for every option whose modes are exactly `modes`, wrapping lines. */
static void usage_items(FILE *f, unsigned modes, const char *lead, int *column)
{
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const CliOption *opt = &OPTIONS[i];
        if (opt->modes != modes || (lead && !strcmp(opt->flag, lead)) || !opt->parse)
            continue;
        char form[64];
        int len = option_form(opt, form, sizeof form) + 3;
        if (*column + len > 98) {
            fputs("\n               ", f);
            *column = 15;
        }
        *column += fprintf(f, " [%s]", form);
    }
}

/* One usage line: the mode's lead flag, its own options, then those shared with other modes. */
static void usage_line(FILE *f, const char *first, const char *lead, unsigned mode)
{
    int column = fprintf(f, "%s pagecurl%s%s", first, lead ? " " : "", lead ? lead : "");
    static const unsigned shared[] = {MODE_WINDOW | MODE_HEADLESS, MODE_ALL};
    usage_items(f, mode, lead, &column);
    for (size_t k = 0; k < sizeof shared / sizeof shared[0]; k++)
        if (shared[k] & mode)
            usage_items(f, shared[k], lead, &column);
    fputc('\n', f);
}

void app_cli_usage(FILE *f)
{
    usage_line(f, "usage:", NULL, MODE_WINDOW);
    usage_line(f, "      ", "--headless", MODE_HEADLESS);
    usage_line(f, "      ", "--bench", MODE_BENCH);
    fputs("       pagecurl --list-devices | --help | --version\n"
          "Without a display the window's form runs headless (and says so).\n",
          f);
    for (int g = 0; g < GROUP_COUNT; g++) {
        fprintf(f, "\n%s:\n", GROUP_TITLES[g]);
        for (size_t i = 0; i < OPTION_COUNT; i++) {
            const CliOption *opt = &OPTIONS[i];
            if (opt->group != (CliGroup)g)
                continue;
            char form[64];
            option_form(opt, form, sizeof form);
            const char *help = opt->help;
            fprintf(f, "  %-22s", form);
            if (strlen(form) > 22)
                fprintf(f, "\n  %-22s", "");
            for (const char *nl; (nl = strchr(help, '\n')); help = nl + 1)
                fprintf(f, " %.*s\n  %-22s", (int)(nl - help), help, "");
            fprintf(f, " %s\n", help);
        }
    }
    fprintf(f, "\n%s", CONTROLS);
}

static AppCliResult usage(char *message, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static AppCliResult usage(char *message, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
    return APP_CLI_USAGE;
}

static const CliOption *find_option(const char *flag)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (!strcmp(flag, OPTIONS[i].flag) || (OPTIONS[i].alias && !strcmp(flag, OPTIONS[i].alias)))
            return &OPTIONS[i];
    return NULL;
}

static size_t index_of(const char *flag)
{
    return (size_t)(find_option(flag) - OPTIONS);
}

/* An argument that is not an option, answered with the option it most likely lacks. */
static AppCliResult unexpected(const char *arg, char *message, size_t size)
{
    static const struct {
        const char *ext, *flag;
    } guesses[] = {{".png", "--screenshot"}, {".jpg", "--screenshot"}, {".jpeg", "--screenshot"},
                   {".obj", "--export-obj"}, {".trace", "--replay"},   {".json", "--notebook"}};
    const char *dot = strrchr(arg, '.');
    for (size_t k = 0; dot && k < sizeof guesses / sizeof guesses[0]; k++)
        if (!strcmp(dot, guesses[k].ext))
            return usage(message, size, "unexpected argument '%s' (did you mean %s %s?)", arg,
                         guesses[k].flag, arg);
    return usage(message, size, "unexpected argument '%s' (options start with --; see --help)",
                 arg);
}

/* Flags that do not go with the mode, or with each other, or with the values given. */
static AppCliResult check_combinations(const AppOptions *o, const bool *seen, char *message,
                                       size_t size)
{
    unsigned mode = o->bench ? MODE_BENCH : o->headless ? MODE_HEADLESS : MODE_WINDOW;
    if (o->list_devices) {
        for (size_t i = 0; i < OPTION_COUNT; i++)
            if (seen[i] && OPTIONS[i].modes)
                return usage(message, size,
                             "--list-devices lists the devices and exits: it takes no %s",
                             OPTIONS[i].flag);
    }
    for (size_t k = 0; k < sizeof CONFLICTS / sizeof CONFLICTS[0]; k++)
        if (seen[index_of(CONFLICTS[k].flag)] && seen[index_of(CONFLICTS[k].with)])
            return usage(message, size, "%s cannot go with %s: %s", CONFLICTS[k].with,
                         CONFLICTS[k].flag, CONFLICTS[k].why);
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const CliOption *opt = &OPTIONS[i];
        if (!seen[i] || !opt->purpose || (opt->modes & mode))
            continue;
        const char *hint = opt->modes == MODE_BENCH      ? " (add --bench)"
                           : opt->modes == MODE_HEADLESS ? " (add --headless)"
                                                         : "";
        return usage(message, size, "%s %s; it does not apply %s%s", opt->flag, opt->purpose,
                     MODE_NAMES[mode], hint);
    }
    if (o->cpu_deform && o->normals == 3)
        return usage(message, size,
                     "--normals fused-deform curls the page on the GPU: it cannot go with "
                     "--deform cpu");
    if (o->pack == 1 && o->normals > 1)
        return usage(message, size,
                     "--pack staging interleaves the two-pass normals on the CPU: it needs "
                     "--normals two-pass");
    return APP_CLI_RUN;
}

AppCliResult app_cli_parse(int argc, char **argv, AppOptions *o, char *message, size_t size)
{
    *o = (AppOptions){.nx = 64,
                      .ny = 90,
                      .width = 1280,
                      .height = 720,
                      .grab = 0.25f,
                      .device = -1,
                      .warmup = APP_BENCH_WARMUP,
                      .argc = argc,
                      .argv = argv};
    bool seen[OPTION_COUNT] = {0};
    message[0] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-')
            return unexpected(arg, message, size);
        /* --flag=value and --flag value both work. */
        char flag[32];
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const CliOption *opt = NULL;
        if (len < sizeof flag) {
            memcpy(flag, arg, len);
            flag[len] = '\0';
            opt = find_option(flag);
        }
        if (!opt)
            return usage(message, size, "unknown option '%s' (see --help)", arg);
        const char *value = eq ? eq + 1 : NULL;
        if (!opt->parse) {
            if (!strcmp(opt->flag, "--help"))
                app_cli_usage(stdout);
            else
                printf("pagecurl %s\n", PAGECURL_VERSION);
            return APP_CLI_EXIT_OK;
        }
        if (opt->value == VALUE_NONE && value)
            return usage(message, size, "%s takes no value", opt->flag);
        if (opt->value == VALUE_REQUIRED && !value) {
            if (i + 1 >= argc)
                return usage(message, size, "%s needs a value", opt->flag);
            value = argv[++i];
        }
        if (!opt->parse(value, o, (char *)o + opt->field))
            return usage(message, size, "%s '%s': expected %s", opt->flag, value ? value : "",
                         opt->expect);
        seen[opt - OPTIONS] = true;
    }
    AppCliResult result = check_combinations(o, seen, message, size);
    if (result != APP_CLI_RUN)
        return result;
    if (o->pack == 1)
        o->normals = 1; /* the staging pack is a way to finish the two passes */
    if (o->grid_count == 0) {
        o->grids[0][0] = o->nx;
        o->grids[0][1] = o->ny;
        o->grid_count = 1;
    }
    return APP_CLI_RUN;
}
