/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include "cli_options.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* How a refused mode is named: "it does not apply ..." */
static const char *const MODE_NAMES[] = {
    [MODE_WINDOW] = "in a window",
    [MODE_HEADLESS] = "to a headless run (--headless)",
    [MODE_BENCH] = "to the benchmark (--bench)",
};

static const char REFERENCE_REFUSAL[] =
    "--quality reference draws one picture slowly, for comparison: it needs --headless";

static const char *const GROUP_TITLES[GROUP_COUNT] = {
    "What to show", "Window", "Headless output", "Compute paths", "Benchmark", "Diagnostics",
};

/* Pairs that do not go together, whatever the mode: the second named cannot join the first. */
static const struct {
    const char *flag, *with, *why;
} CONFLICTS[] = {
    {"--replay", "--curl", "the trace poses the book"},
    {"--replay", "--grab", "the trace poses the book"},
    {"--replay", "--backward", "the trace turns the pages"},
    {"--replay", "--radius", "the trace poses the book"},
    {"--replay", "--record", "a replay takes no input to record"},
    {"--replay", "--page", "the trace starts at the first spread"},
    {"--replay", "--find", "the trace starts at the first spread"},
    {"--replay", "--zoom", "the trace zooms the book"},
    {"--replay", "--zoom-at", "the trace zooms the book"},
    {"--replay", "--no-remember", "a replay keeps no place"},
    {"--replay", "--fit", "the trace zooms the book"},
    {"--fit", "--zoom", "give one or the other"},
    {"--fit", "--zoom-at", "--zoom-at places --zoom"},
    {"--reduced-motion", "--grab", "a cross-fade holds no leaf"},
    {"--reduced-motion", "--radius", "a cross-fade curls no leaf"},
    {"--reduced-motion", "--export-obj", "a cross-fade curls no leaf"},
    {"--grids", "--grid", "give one or the other"},
    {"--rtl", "--ltr", "a book binds on one side"},
    {"--text", "--screenshot", "--text prints a page's text and draws nothing"},
    {"--text", "--frames-out", "--text prints a page's text and draws nothing"},
    {"--text", "--export-obj", "--text prints a page's text and draws nothing"},
    {"--text", "--replay", "--text prints a page's text and plays nothing"},
    {"--text", "--find", "--text names its page"},
    {"--text", "--page", "--text names its page"},
    {"--text", "--notebook", "--text prints a page's text and draws no ink"},
    {"--text", "--curl", "--text prints a page's text and draws nothing"},
    {"--text", "--zoom", "--text prints a page's text and draws nothing"},
};

static const char CONTROLS[] =
    "Window controls:\n"
    "  left button drag    hold a page and turn it; let go past the spine (or flick) to turn\n"
    "  Right/Left arrow    turn the next / previous page (bound on the right: Left / Right;\n"
    "                      Page Down / Page Up always);\n"
    "                      pressed again or held while a page turns, the turns queue\n"
    "  Home / End          open the book at its first / last spread\n"
    "  G                   go to a page: its number, its label (iv) or part of a title in the\n"
    "                      PDF's outline (Tab: the next); below it the book's contents: Up/Down\n"
    "                      choose, typing filters; Enter goes, Escape closes\n"
    "  / or Ctrl+F         find text in a PDF: Enter the next match, Shift+Enter the previous;\n"
    "                      Escape closes, then n / N the next / previous\n"
    "  click on a link     follow it (a PDF's; the pointer is a hand over one); an address is\n"
    "                      shown, Ctrl+click opens it (xdg-open: http, https, mailto)\n"
    "  Backspace, Alt+Left back along the links followed; Alt+Right forward again\n"
    "  Shift+drag          select a page's text (Shift+double-click: a word); Ctrl+C copies it\n"
    "  right button drag   draw ink on a page, flat or curling (kept without --notebook too)\n"
    "  I                   ink mode: the left button and fingers draw too (I again: turn)\n"
    "  Ctrl+Z              take back the last stroke or clear\n"
    "  Delete              clear the page side under the pointer\n"
    "  H                   heads-up display: frame time, frames/s, GPU stage times, device\n"
    "  F12 or P            screenshot: the window as it is, to a new pagecurl-NNNN.png\n"
    "  Ctrl+wheel, pinch   zoom 1x..8x about the pointer; + - zoom (about the pointer, else\n"
    "                      the page's centre), double-click toggles 2.5x; zoomed in, a drag\n"
    "                      pans (off a page's outer edge)\n"
    "  W / Z or 0          fit the page's width (the page under the pointer) / the page\n"
    "  wheel, Space, Down  zoomed in or fitted to width: scroll down (Shift+Space, Up, k:\n"
    "  j, Up, k            up); past the page's foot on to the next page, zoom kept\n"
    "  F11                 fullscreen on / off\n"
    "  Escape              close the G or / field, else clear the selection, else hide the\n"
    "                      HUD, else leave the zoom, else quit\n"
    "  Ctrl+Q              quit\n";

/* "--flag VALUE" as a usage line shows it. */
static int option_form(const CliOption *opt, char *out, size_t size)
{
    if (opt->value == VALUE_OPTIONAL)
        return snprintf(out, size, "%s[%s]", opt->flag, opt->metavar);
    return opt->metavar ? snprintf(out, size, "%s %s", opt->flag, opt->metavar)
                        : snprintf(out, size, "%s", opt->flag);
}

/* Appends "[--flag VALUE]" for every option whose modes are exactly `modes`, wrapping lines. */
static void usage_items(FILE *f, unsigned modes, const char *lead, int *column)
{
    for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++) {
        const CliOption *opt = &APP_CLI_OPTIONS[i];
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

/* One usage line: the mode's lead flag, its own options, then those shared with other modes, and
 * the book as a bare path where the mode shows one. */
static void usage_line(FILE *f, const char *first, const char *lead, unsigned mode)
{
    int column = fprintf(f, "%s pagecurl%s%s", first, lead ? " " : "", lead ? lead : "");
    static const unsigned shared[] = {MODE_WINDOW | MODE_HEADLESS, MODE_ALL};
    usage_items(f, mode, lead, &column);
    for (size_t k = 0; k < sizeof shared / sizeof shared[0]; k++)
        if (shared[k] & mode)
            usage_items(f, shared[k], lead, &column);
    if (mode & MODE_SHOWN)
        fputs(column + 7 > 98 ? "\n                [BOOK]" : " [BOOK]", f);
    fputc('\n', f);
}

void app_cli_usage(FILE *f)
{
    usage_line(f, "usage:", NULL, MODE_WINDOW);
    usage_line(f, "      ", "--headless", MODE_HEADLESS);
    usage_line(f, "      ", "--bench", MODE_BENCH);
    fputs("       pagecurl --list-devices | --help | --version\n"
          "BOOK, the one argument that is not an option, is the same as --book BOOK.\n"
          "Without a display the window's form runs headless (and says so).\n",
          f);
    for (int g = 0; g < GROUP_COUNT; g++) {
        fprintf(f, "\n%s:\n", GROUP_TITLES[g]);
        for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++) {
            const CliOption *opt = &APP_CLI_OPTIONS[i];
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
    for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++)
        if (!strcmp(flag, APP_CLI_OPTIONS[i].flag) ||
            (APP_CLI_OPTIONS[i].alias && !strcmp(flag, APP_CLI_OPTIONS[i].alias)))
            return &APP_CLI_OPTIONS[i];
    return NULL;
}

static size_t index_of(const char *flag)
{
    return (size_t)(find_option(flag) - APP_CLI_OPTIONS);
}

/* A bare argument that cannot be the book (a picture, a mesh, a trace or a notebook is never one:
 * a book is a folder or a PDF), answered with the option it most likely lacks; APP_CLI_RUN for
 * one that may be the book. */
static AppCliResult not_a_book(const char *arg, char *message, size_t size)
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
    if (!*arg)
        return usage(message, size, "an empty argument (a book's path is never empty; see --help)");
    return APP_CLI_RUN;
}

/* A headless run's flag in a run that did not ask for one: it runs headless where no window can
 * open (no display), so the flag is kept for then and refused where a window opens
 * (app_cli_window_refusal). The first such flag is the one named. */
static void defer_to_headless(AppOptions *o, const char *flag)
{
    if (!o->headless_only)
        o->headless_only = flag;
}

/* Flags that do not go with the mode, or with each other, or with the values given. */
static AppCliResult check_combinations(AppOptions *o, const bool *seen, char *message, size_t size)
{
    unsigned mode = o->bench ? MODE_BENCH : o->headless ? MODE_HEADLESS : MODE_WINDOW;
    if (o->list_links) { /* a listing of the book's: what else it takes says which book */
        static const char *const takes[] = {"--list-links", "--book", "--headless", "--device",
                                            "--validation"};
        for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++) {
            bool taken = false;
            for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++)
                taken = taken || !strcmp(APP_CLI_OPTIONS[i].flag, takes[k]);
            if (seen[i] && !taken)
                return usage(message, size,
                             "--list-links prints a page's links and exits: it takes no %s",
                             APP_CLI_OPTIONS[i].flag);
        }
    }
    if (o->list_devices) {
        for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++)
            if (seen[i] && APP_CLI_OPTIONS[i].modes)
                return usage(message, size,
                             "--list-devices lists the devices and exits: it takes no %s",
                             APP_CLI_OPTIONS[i].flag);
    }
    for (size_t k = 0; k < sizeof CONFLICTS / sizeof CONFLICTS[0]; k++)
        if (seen[index_of(CONFLICTS[k].flag)] && seen[index_of(CONFLICTS[k].with)])
            return usage(message, size, "%s cannot go with %s: %s", CONFLICTS[k].with,
                         CONFLICTS[k].flag, CONFLICTS[k].why);
    for (size_t i = 0; i < APP_CLI_OPTION_COUNT; i++) {
        const CliOption *opt = &APP_CLI_OPTIONS[i];
        if (!seen[i] || !opt->purpose || (opt->modes & mode))
            continue;
        if (mode == MODE_WINDOW && (opt->modes & MODE_HEADLESS)) {
            defer_to_headless(o, opt->flag);
            continue;
        }
        return usage(message, size, "%s %s; it does not apply %s%s", opt->flag, opt->purpose,
                     MODE_NAMES[mode], opt->modes == MODE_BENCH ? "; add --bench" : "");
    }
    if (o->quality == GPU_QUALITY_REFERENCE && mode == MODE_WINDOW)
        defer_to_headless(o, "--quality");
    else if (o->quality == GPU_QUALITY_REFERENCE && mode != MODE_HEADLESS)
        return usage(message, size, "%s", REFERENCE_REFUSAL);
    if (seen[index_of("--font-size")] && !o->book)
        return usage(message, size,
                     "--font-size sets a book's text size: it needs --book (an EPUB or FB2; the "
                     "built-in book's pages are its own)");
    if (seen[index_of("--zoom-at")] && !seen[index_of("--zoom")])
        return usage(message, size, "--zoom-at places the zoom: it needs --zoom Z");
    if (o->has_zoom_at && (o->zoom_at[0] >= o->width || o->zoom_at[1] >= o->height))
        return usage(message, size, "--zoom-at %u,%u: outside the %ux%u image (0..%u, 0..%u)",
                     o->zoom_at[0], o->zoom_at[1], o->width, o->height, o->width - 1,
                     o->height - 1);
    const char *why;
    if (!gpu_path_find(o->normals, o->pack, o->cpu_deform, &why)) /* a row of the table */
        return usage(message, size, "%s", why);
    return APP_CLI_RUN;
}

AppCliResult app_cli_parse(int argc, char **argv, AppOptions *o, char *message, size_t size)
{
    *o = (AppOptions){.nx = 64,
                      .ny = 90,
                      .width = 1280,
                      .height = 720,
                      .grab = 0.25f,
                      .show_through = 0.5f, /* GPU_SHOW_THROUGH_PAPER */
                      .device = -1,
                      .warmup = APP_BENCH_WARMUP,
                      .repeat = 1,
                      .argc = argc,
                      .argv = argv};
    bool seen[APP_CLI_MAX_OPTIONS] = {0};
    const char *bare = NULL; /* the book, named as every viewer takes it */
    message[0] = '\0';
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-') {
            if (not_a_book(arg, message, size) != APP_CLI_RUN)
                return APP_CLI_USAGE;
            if (bare)
                return usage(message, size,
                             "two bare arguments, '%s' and '%s': pagecurl shows one book (BOOK or "
                             "--book BOOK)",
                             bare, arg);
            bare = arg;
            continue;
        }
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
        if (opt->value == VALUE_NONE && value) /* --help=1 as --headless=1 */
            return usage(message, size, "%s takes no value", opt->flag);
        if (!opt->parse) {
            if (!strcmp(opt->flag, "--help"))
                app_cli_usage(stdout);
            else
                printf("pagecurl %s\n", PAGECURL_VERSION);
            return APP_CLI_EXIT_OK;
        }
        if (opt->value == VALUE_REQUIRED && !value) {
            if (i + 1 >= argc)
                return usage(message, size, "%s needs a value", opt->flag);
            value = argv[++i];
        }
        if (!opt->parse(value, o, (char *)o + opt->field))
            return usage(message, size, "%s '%s': expected %s", opt->flag, value ? value : "",
                         opt->expect);
        seen[opt - APP_CLI_OPTIONS] = true;
        /* --no-remember asks for what a run without a window does anyway (it keeps no place) */
        if (opt->modes == MODE_WINDOW && !o->window_only && strcmp(opt->flag, "--no-remember"))
            o->window_only = opt->flag;
    }
    if (bare) {
        size_t book = index_of("--book");
        if (seen[book])
            return usage(message, size,
                         "'%s' and --book %s: pagecurl shows one book (BOOK or --book BOOK)", bare,
                         o->book);
        if (o->bench || o->list_devices)
            return usage(message, size, "a book ('%s') does not go with %s", bare,
                         o->bench ? "--bench: the benchmark shows none" : "--list-devices");
        o->book = bare;
        seen[book] = true;
    }
    AppCliResult result = check_combinations(o, seen, message, size);
    if (result != APP_CLI_RUN)
        return result;
    if (o->grid_count == 0) {
        o->grids[0][0] = o->nx;
        o->grids[0][1] = o->ny;
        o->grid_count = 1;
    }
    return APP_CLI_RUN;
}

bool app_cli_window_refusal(const AppOptions *o, char *message, size_t size)
{
    if (!o->headless_only || o->headless || o->bench)
        return false;
    const CliOption *opt = find_option(o->headless_only);
    if (!strcmp(o->headless_only, "--quality"))
        usage(message, size, "%s", REFERENCE_REFUSAL);
    else
        usage(message, size, "%s %s; it does not apply %s; add --headless", opt->flag, opt->purpose,
              MODE_NAMES[MODE_WINDOW]);
    return true;
}
