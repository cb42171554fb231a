#include "cli.h"

#include "../mesh/grid.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest image we accept at the command line; the device may allow less (runtime error). */
#define CLI_MAX_IMAGE_SIDE 16384u
#define CLI_MAX_FRAMES     100000000u
#define CLI_MAX_DEVICE     1023

static const char USAGE[] =
    "usage: pagecurl [--headless] [--grid NXxNY] [--size WxH] [--curl T] [--grab G]\n"
    "                [--backward] [--radius R] [--frames N] [--screenshot FILE.png]\n"
    "                [--export-obj FILE.obj]\n"
    "                [--device INDEX] [--list-devices] [--validation] [--help] [--version]\n"
    "       pagecurl --bench [--grid NXxNY | --grids 64,256,1024,...] [--frames N] [--warmup N]\n"
    "                [--json FILE] [--csv FILE] [--size WxH] [--device INDEX] [--validation]\n"
    "\n"
    "  --headless          render offscreen, no window (automatic without a display)\n"
    "  --grid NXxNY        page mesh vertices across x along the spine (default 64x90)\n"
    "  --size WxH          image size in pixels (default 1280x720)\n"
    "  --curl T            fix the pose at progress T of the turn, 0 flat .. 1 turned\n"
    "  --grab G            grab height on the free edge, 0 bottom corner .. 1 top (default 0.25)\n"
    "  --backward          the turn goes back: the left page's leaf turns onto the right\n"
    "  --radius R          roll radius in page widths (0.005..0.5) instead of the pose's own\n"
    "  --frames N          frames to play (headless default: a scripted turn of 120)\n"
    "  --screenshot FILE   write the last frame as a PNG of --size\n"
    "  --export-obj FILE   write the last frame's page, as read back from the GPU, as OBJ\n"
    "  --device INDEX      use this device (see --list-devices)\n"
    "  --list-devices      list Vulkan devices and exit\n"
    "  --validation        Khronos validation + synchronization validation; any message fails\n"
    "                      (--validation=gpu-assisted: GPU-assisted validation instead)\n"
    "  --deform gpu|cpu    where the curl is evaluated: deform.comp (default) or the CPU, whose\n"
    "                      positions are uploaded each frame (see --staging)\n"
    "  --normals PATH      two-pass (the seed's passes), fused (one tiled kernel) or\n"
    "                      fused-deform (that kernel also curls the page; needs --deform gpu);\n"
    "                      default: the fastest measured\n"
    "  --pack gpu|staging  who writes the AoS vertex of the two passes: vertex_normals (default)\n"
    "                      or the CPU from SoA read back, then uploaded (the seed's way)\n"
    "  --staging MODE      CPU-written data: auto (in place where memory is device-local and\n"
    "                      host-visible, default), always (staging buffer + copy) or never\n"
    "  --msaa 1|4          samples per pixel (default 4 where the device renders them)\n"
    "  --present-mode M    fifo (vsync, default), mailbox or immediate; unsupported: fifo\n"
    "  --record FILE       write the window's input events as a trace (README: Input traces)\n"
    "  --replay FILE       play a trace back, at a fixed 60 Hz step, in a window or headless\n"
    "  --notebook FILE     load the ink from FILE (JSON; a new file is fine), save it on exit\n"
    "  --bench             benchmark: per-stage GPU times of a scripted turn (implies --headless)\n"
    "  --grids LIST        benchmark sweep: sizes N (for NxN) or NXxNY, comma-separated\n"
    "  --warmup N          benchmark frames before timing starts (default 20)\n"
    "  --json FILE         benchmark results as JSON\n"
    "  --csv FILE          benchmark: one row per frame with each stage's ms\n";

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

static bool parse_pair(const char *s, uint32_t lo, uint32_t hi, uint32_t *a, uint32_t *b)
{
    const char *e;
    if (!parse_u32(s, &e, lo, hi, a) || (*e != 'x' && *e != 'X'))
        return false;
    return parse_u32(e + 1, NULL, lo, hi, b);
}

/* "64,256,48x90": squares or NXxNY pairs; no empty items. */
static bool parse_grids(const char *s, AppOptions *o)
{
    o->grid_count = 0;
    while (*s) {
        if (o->grid_count == APP_MAX_GRIDS)
            return false;
        const char *e;
        uint32_t *g = o->grids[o->grid_count];
        if (!parse_u32(s, &e, 2, MESH_GRID_MAX_SIDE, &g[0]))
            return false;
        g[1] = g[0];
        if (*e == 'x' || *e == 'X') {
            if (!parse_u32(e + 1, &e, 2, MESH_GRID_MAX_SIDE, &g[1]))
                return false;
        }
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

static bool parse_unit(const char *s, float *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *e;
    double v = strtod(s, &e);
    if (errno || *e || !isfinite(v) || v < 0.0 || v > 1.0)
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
    bool has_grid = false, has_warmup = false;
    message[0] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        /* --flag=value and --flag value both work. */
        char flag[32];
        const char *value = NULL;
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len >= sizeof flag)
            return usage(message, size, "unknown option '%s' (see --help)", arg);
        memcpy(flag, arg, len);
        flag[len] = '\0';
        if (eq)
            value = eq + 1;

        bool takes_value = true;
        if (!strcmp(flag, "--help") || !strcmp(flag, "-h")) {
            fputs(USAGE, stdout);
            return APP_CLI_EXIT_OK;
        } else if (!strcmp(flag, "--version")) {
            printf("pagecurl %s\n", PAGECURL_VERSION);
            return APP_CLI_EXIT_OK;
        } else if (!strcmp(flag, "--headless") || !strcmp(flag, "--list-devices") ||
                   !strcmp(flag, "--validation") || !strcmp(flag, "--bench") ||
                   !strcmp(flag, "--backward")) {
            takes_value = false;
            if (!strcmp(flag, "--validation") && value && !strcmp(value, "gpu-assisted"))
                o->gpu_assisted = true;
            else if (value)
                return usage(message, size, "%s takes no value%s", flag,
                             strcmp(flag, "--validation") ? "" : " but =gpu-assisted");
            if (!strcmp(flag, "--headless"))
                o->headless = true;
            else if (!strcmp(flag, "--list-devices"))
                o->list_devices = true;
            else if (!strcmp(flag, "--bench"))
                o->bench = o->headless = true;
            else if (!strcmp(flag, "--backward"))
                o->backward = true;
            else
                o->validation = true;
        } else if (strcmp(flag, "--grid") && strcmp(flag, "--size") && strcmp(flag, "--curl") &&
                   strcmp(flag, "--grab") && strcmp(flag, "--frames") && strcmp(flag, "--radius") &&
                   strcmp(flag, "--screenshot") && strcmp(flag, "--export-obj") &&
                   strcmp(flag, "--device") && strcmp(flag, "--grids") &&
                   strcmp(flag, "--warmup") && strcmp(flag, "--json") && strcmp(flag, "--csv") &&
                   strcmp(flag, "--deform") && strcmp(flag, "--normals") &&
                   strcmp(flag, "--pack") && strcmp(flag, "--staging") && strcmp(flag, "--msaa") &&
                   strcmp(flag, "--record") && strcmp(flag, "--replay") &&
                   strcmp(flag, "--notebook") && strcmp(flag, "--present-mode")) {
            return usage(message, size, "unknown option '%s' (see --help)", arg);
        }
        if (!takes_value)
            continue;
        if (!value) {
            if (i + 1 >= argc)
                return usage(message, size, "%s needs a value", flag);
            value = argv[++i];
        }

        if (!strcmp(flag, "--grid")) {
            if (!parse_pair(value, 2, MESH_GRID_MAX_SIDE, &o->nx, &o->ny))
                return usage(message, size, "--grid '%s': expected NXxNY with each side in 2..%u",
                             value, MESH_GRID_MAX_SIDE);
            has_grid = true;
        } else if (!strcmp(flag, "--grids")) {
            if (!parse_grids(value, o))
                return usage(message, size,
                             "--grids '%s': expected up to %d comma-separated sizes N or NXxNY, "
                             "each side in 2..%u",
                             value, APP_MAX_GRIDS, MESH_GRID_MAX_SIDE);
        } else if (!strcmp(flag, "--present-mode")) {
            static const char *const modes[] = {"fifo", "mailbox", "immediate"};
            o->present_mode = -1;
            for (int m = 0; m < 3; m++)
                if (!strcmp(value, modes[m]))
                    o->present_mode = m;
            if (o->present_mode < 0)
                return usage(message, size,
                             "--present-mode '%s': expected fifo, mailbox or immediate", value);
        } else if (!strcmp(flag, "--deform")) {
            if (strcmp(value, "gpu") && strcmp(value, "cpu"))
                return usage(message, size, "--deform '%s': expected gpu or cpu", value);
            o->cpu_deform = !strcmp(value, "cpu");
        } else if (!strcmp(flag, "--normals")) {
            /* the order of GpuNormalsPath after its default */
            static const char *const paths[] = {"two-pass", "fused", "fused-deform"};
            o->normals = 0;
            for (int p = 0; p < 3; p++)
                if (!strcmp(value, paths[p]))
                    o->normals = p + 1;
            if (!o->normals)
                return usage(message, size,
                             "--normals '%s': expected two-pass, fused or fused-deform", value);
        } else if (!strcmp(flag, "--pack")) {
            /* the order of GpuPackPath */
            if (!pick(value, (const char *const[]){"gpu", "staging", NULL}, &o->pack))
                return usage(message, size, "--pack '%s': expected gpu or staging", value);
        } else if (!strcmp(flag, "--msaa")) {
            if (strcmp(value, "1") && strcmp(value, "4"))
                return usage(message, size, "--msaa '%s': expected 1 or 4 (samples per pixel)",
                             value);
            o->msaa = (uint32_t)atoi(value);
        } else if (!strcmp(flag, "--staging")) {
            /* the order of GpuStaging */
            if (!pick(value, (const char *const[]){"auto", "always", "never", NULL}, &o->staging))
                return usage(message, size, "--staging '%s': expected auto, always or never",
                             value);
        } else if (!strcmp(flag, "--warmup")) {
            if (!parse_u32(value, NULL, 0, CLI_MAX_FRAMES, &o->warmup))
                return usage(message, size, "--warmup '%s': expected an integer in 0..%u", value,
                             CLI_MAX_FRAMES);
            has_warmup = true;
        } else if (!strcmp(flag, "--size")) {
            if (!parse_pair(value, 1, CLI_MAX_IMAGE_SIDE, &o->width, &o->height))
                return usage(message, size, "--size '%s': expected WxH with each side in 1..%u",
                             value, CLI_MAX_IMAGE_SIDE);
        } else if (!strcmp(flag, "--curl")) {
            if (!parse_unit(value, &o->curl))
                return usage(message, size, "--curl '%s': expected a number in [0, 1]", value);
            o->has_curl = true;
        } else if (!strcmp(flag, "--grab")) {
            if (!parse_unit(value, &o->grab))
                return usage(message, size, "--grab '%s': expected a number in [0, 1]", value);
        } else if (!strcmp(flag, "--radius")) {
            char *e;
            errno = 0;
            double r = strtod(value, &e);
            if (errno || *e || !*value || !isfinite(r) || r < APP_RADIUS_MIN || r > APP_RADIUS_MAX)
                return usage(message, size, "--radius '%s': expected a number in [%g, %g]", value,
                             APP_RADIUS_MIN, APP_RADIUS_MAX);
            o->radius = (float)r;
        } else if (!strcmp(flag, "--frames")) {
            if (!parse_u32(value, NULL, 1, CLI_MAX_FRAMES, &o->frames))
                return usage(message, size, "--frames '%s': expected an integer in 1..%u", value,
                             CLI_MAX_FRAMES);
        } else if (!strcmp(flag, "--device")) {
            uint32_t d;
            if (!parse_u32(value, NULL, 0, CLI_MAX_DEVICE, &d))
                return usage(message, size,
                             "--device '%s': expected a device index (see "
                             "--list-devices)",
                             value);
            o->device = (int)d;
        } else if (!*value) {
            return usage(message, size, "%s needs a file name", flag);
        } else if (!strcmp(flag, "--screenshot")) {
            o->screenshot = value;
        } else if (!strcmp(flag, "--export-obj")) {
            o->export_obj = value;
        } else if (!strcmp(flag, "--json")) {
            o->json = value;
        } else if (!strcmp(flag, "--record")) {
            o->record = value;
        } else if (!strcmp(flag, "--replay")) {
            o->replay = value;
        } else if (!strcmp(flag, "--notebook")) {
            o->notebook = value;
        } else {
            o->csv = value;
        }
    }
    if (!o->bench && (o->grid_count || has_warmup || o->json || o->csv))
        return usage(message, size, "--grids, --warmup, --json and --csv need --bench");
    if (o->notebook && o->bench)
        return usage(message, size, "--notebook cannot go with --bench (it draws no pages)");
    if (o->replay && (o->has_curl || o->bench))
        return usage(message, size,
                     "--replay drives the pose: it cannot go with --curl or "
                     "--bench");
    if ((o->backward || o->radius > 0.0f) && (o->replay || o->bench))
        return usage(message, size,
                     "--%s shapes the scripted or fixed turn: it cannot go with "
                     "--replay or --bench",
                     o->backward ? "backward" : "radius");
    if (o->cpu_deform && o->normals == 3)
        return usage(message, size,
                     "--normals fused-deform curls the page on the GPU: it "
                     "cannot go with --deform cpu");
    if (o->pack == 1 && o->normals > 1)
        return usage(message, size,
                     "--pack staging interleaves the two-pass normals on the CPU: "
                     "it needs --normals two-pass");
    if (o->pack == 1)
        o->normals = 1; /* the staging pack is a way to finish the two passes */
    if (o->bench && has_grid && o->grid_count)
        return usage(message, size, "--grid and --grids: give one or the other");
    if (o->grid_count == 0) {
        o->grids[0][0] = o->nx;
        o->grids[0][1] = o->ny;
        o->grid_count = 1;
    }
    return APP_CLI_RUN;
}
