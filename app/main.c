/* pagecurl: a page-curl demo on Vulkan. The table of contents: parse the command line, pick the
 * mode (window where there is a display, headless otherwise, or the benchmark), run it, and turn
 * validation findings into the exit status. Headless mode is a client of libpagecurl's public
 * header (app/headless.c); the benchmark compares the engine's kernel paths through its own
 * headers, as the window does until it too is a client of the header.
 * Exit status: 0 success, 1 runtime failure, 2 bad usage. */
#include "bench.h"
#include "say.h"
#include "../book/book.h"
#include "../book/book_stream.h"
#include "cli.h"
#include "headless.h"
#include "notebook.h"
#include "../book/page.h"
#include "../pages/page_labels.h"
#include "output.h"
#include "report.h"
#include "signals.h"
#include "trace.h"
#ifdef PAGECURL_HAVE_SDL
#include "window.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* Benchmark mode: measure, print the table, write the files. Returns the exit status. */
static int run_bench(const GpuContext *ctx, const AppOptions *opts)
{
    BenchReport *report = malloc(sizeof *report);
    if (!report) {
        app_say(stderr, "out of memory");
        return 1;
    }
    int status = app_bench_run(ctx, opts, report);
    app_report_table(stdout, report);
    char message[512];
    /* Even a failed run writes what it measured. */
    if (opts->json && !app_report_json(opts->json, report, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    }
    if (opts->csv && !app_report_csv(opts->csv, report, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    }
    app_bench_free(report);
    free(report);
    return status;
}

#ifdef PAGECURL_HAVE_SDL
/* The page the options ask for, shown in the window. Returns the exit status. */
static int run_window(const GpuContext *ctx, const AppOptions *opts, AppWindow *window,
                      AppBookStream *book, const AppTrace *trace, MeshInk *ink,
                      AppNotebook *notebook)
{
    const AppBookSource *source = app_book_stream_source(book);
    GpuError err = {0};
    AppPage page = {0};
    AppPageDesc desc = {
        .nx = opts->nx,
        .ny = opts->ny,
        .readback = opts->export_obj != NULL,
        .aspect = app_book_source_builtin(source) ? 0.0f : app_book_source_aspect(source),
        .rtl = app_binds_right(opts->binding, app_book_source_right_to_left(source)),
        .hard_cover = opts->hard_cover,
        .layout = opts->layout};
    int status = 1;
    if (!app_page_create(ctx, &desc, &page, &err))
        app_say(stderr, "%s", err.message);
    else
        status = app_window_run(window, ctx, &page, book, opts, trace, ink, notebook);
    app_page_destroy(ctx, &page);
    return status;
}

/* Whether writing `path` would write into the book (app_output_check_book's question). */
static bool source_holds(const void *book, const char *path)
{
    return app_book_source_holds(book, path);
}

static void say_warning(void *user, int page, const char *line)
{
    (void)user, (void)page;
    app_say(stderr, "%s", line);
}

static bool signal_caught(void *user)
{
    (void)user;
    return app_signals_caught();
}

/* The book the options name (a path that is none, a page it lacks: refused), streamed; --page
 * read as the book's label or number (opts->page). Returns 0, or the exit status with nothing
 * left to free. */
static int load_book(AppOptions *opts, AppBookStream **book)
{
    char message[512];
    AppBookSource *source;
    int refused = app_book_source_open(opts->book, &source, message, sizeof message);
    /* the source names the file; the program names the flag that gave it */
    const char *flag = refused && opts->book ? "--book " : "";
    int pages = refused ? 0 : app_book_source_pages(source);
    if (!refused && opts->page_text) {
        int page = app_book_source_find_page(source, opts->page_text);
        opts->page = (uint32_t)page;
        char label[APP_PAGE_LABEL_MAX];
        if (page)
            app_book_source_page_label(source, page - 1, label, sizeof label);
        /* a number where the book labels its pages otherwise: said, since the reader may have
         * meant a printed page the book does not have */
        if (page && label[0] && strcasecmp(label, opts->page_text))
            app_say(stderr,
                    "note: --page %s: no page is labelled so; page %d of the book, "
                    "labelled %s",
                    opts->page_text, page, label);
        if (!page)
            refused = 2, snprintf(message, sizeof message,
                                  "--page %s: the book has no page labelled or numbered so (it "
                                  "has %d page(s))",
                                  opts->page_text, pages);
    }
    if (refused)
        app_book_source_close(source);
    /* pages drawn at the density shown: --zoom Z shows them Z times as large */
    else if (!(*book = app_book_stream_create(
                   source, (uint32_t)lrintf((float)opts->width * fmaxf(opts->zoom, 1.0f)), message,
                   sizeof message)))
        refused = 1; /* the source went with it */
    else
        app_book_stream_set_hooks(
            *book, &(AppBookStreamHooks){.warn = say_warning, .stopped = signal_caught});
    if (refused)
        app_say(stderr, "%s%s", flag, message);
    return refused;
}

/* What a window's run reads before anything starts: the book, and the notebook, taken for
 * writing (its ink is saved as it is made) and bound to the book. Returns 0, or the exit status
 * with nothing left to free. */
static int load_inputs(AppOptions *opts, AppBookStream **book, MeshInk *ink, AppNotebook *notebook)
{
    char message[512];
    int refused = load_book(opts, book);
    if (refused)
        return refused;
    const AppBookSource *bound = app_book_stream_source(*book);
    refused = app_output_check_book(opts, source_holds, bound, app_book_source_name(bound), message,
                                    sizeof message);
    if (refused) {
        app_say(stderr, "%s", message);
        app_book_stream_destroy(*book);
        return refused;
    }
    if (!mesh_ink_init(ink, app_book_source_pages(bound))) {
        app_say(stderr, "out of memory");
        app_book_stream_destroy(*book);
        return 1;
    }
    int opened = app_notebook_open(notebook, opts->notebook,
                                   (AppNotebookBook){app_book_source_name(bound),
                                                     app_book_source_pages(bound),
                                                     app_book_source_id(bound)},
                                   ink, message, sizeof message);
    if (opened) {
        app_say(stderr, "%s", message);
        mesh_ink_free(ink);
        app_book_stream_destroy(*book);
        return opened;
    }
    return 0;
}
#endif

/* A run's end, whatever ended it: a signal or a validation finding turns success into failure.
 * Returns the exit status. */
static int end_run(int status, const GpuMessages *messages)
{
    int caught = app_signals_caught();
    if (caught) {
        app_say(stderr, "stopped by %s", app_signals_name(caught));
        if (status == 0)
            status = 128 + caught;
    }
    uint32_t findings = messages->warnings + messages->errors;
    if (findings) {
        app_say(stderr, "validation reported %u error(s) and %u warning(s)", messages->errors,
                messages->warnings);
        if (status == 0)
            status = 1;
    }
    return status;
}

/* The device the options ask for, its validation messages counted in `messages`. */
static GpuContextDesc context_desc(const AppOptions *opts, GpuMessages *messages)
{
    return (GpuContextDesc){.validation = opts->validation,
                            .gpu_assisted = opts->gpu_assisted,
                            .device_index = opts->device,
                            .messages = messages};
}

/* The benchmark: its own context (the kernels' compiler figures asked for). Returns the exit
 * status. */
static int bench_mode(const AppOptions *opts)
{
    GpuMessages messages = {0};
    GpuContextDesc desc = context_desc(opts, &messages);
    desc.pipeline_statistics = true;
    GpuContext ctx;
    GpuError err = {0};
    bool made = gpu_context_create(&desc, &ctx, &err);
    app_signals_defer(); /* a signal from here asks the measuring loop to stop */
    int status;
    if (!made) {
        app_say(stderr, "%s", err.message);
        status = err.usage ? 2 : 1;
    } else {
        status = run_bench(&ctx, opts);
    }
    gpu_context_destroy(&ctx);
    return end_run(status, &messages);
}

/* The window where one can open, else headless. Returns the exit status. */
static int shown_mode(AppOptions *opts, const AppTrace *trace)
{
    char why[768] = "";
#ifdef PAGECURL_HAVE_SDL
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if (opts->headless)
        return app_headless_main(opts, trace, why);
    if ((!x11 || !*x11) && (!wayland || !*wayland)) {
        snprintf(why, sizeof why, "no display (DISPLAY and WAYLAND_DISPLAY unset)");
        return app_headless_main(opts, trace, why);
    }
    /* the book and the notebook before a window opens: a bad one never opens it */
    MeshInk ink;
    AppNotebook notebook;
    AppBookStream *book = NULL;
    int loaded = load_inputs(opts, &book, &ink, &notebook);
    if (loaded)
        return loaded;
    AppWindow window = {0};
    if (!app_window_open(opts, &window, why, sizeof why)) {
        app_notebook_close(&notebook);
        app_book_stream_destroy(book);
        mesh_ink_free(&ink);
        return app_headless_main(opts, trace, why);
    }
    /* a reader's notebook reopens where they were, unless --page says */
    if (!opts->page_text && !opts->replay && notebook.at)
        opts->page = (uint32_t)notebook.at;
    /* lavapipe (Mesa's llvmpipe; Debian 12 ships 22.3) can free a scene's fence while one of its
     * rasteriser threads is still signalling it, which hangs or crashes the process: a window on
     * a busy machine meets it within hours (docs/testing.md, Soak). Without rasteriser threads it
     * cannot happen, so a window runs without them unless the user set a count. Other drivers
     * ignore the variable; it must be set before the driver starts. */
    setenv("LP_NUM_THREADS", "0", 0);
    GpuMessages messages = {0};
    GpuContextDesc desc = context_desc(opts, &messages);
    desc.instance_extensions = window.extensions;
    desc.instance_extension_count = window.extension_count;
    desc.create_surface = app_window_create_surface;
    desc.surface_user = &window;
    int status = 1;
    GpuContext ctx;
    GpuError err = {0};
    bool made = gpu_context_create(&desc, &ctx, &err);
    /* From here the run may hold what must be saved: a signal asks the loops to stop. */
    app_signals_defer();
    if (!made) {
        app_say(stderr, "%s", err.message);
        status = err.usage ? 2 : 1;
    } else {
        status = run_window(&ctx, opts, &window, book, trace, &ink, &notebook);
    }
    gpu_context_destroy(&ctx);
    app_window_close(&window);
    /* whatever ended it (a failed output, a lost device, a signal), the ink is kept */
    if (!app_notebook_keep(&notebook, &ink, true) && status == 0)
        status = 1;
    else if (notebook.wrote && notebook.saved == ink.revision)
        app_say(stdout, "%zu stroke(s) written to %s", mesh_ink_stroke_count(&ink), opts->notebook);
    app_notebook_close(&notebook);
    app_book_stream_destroy(book); /* after the notebook's last save: it names the book */
    mesh_ink_free(&ink);
    return end_run(status, &messages);
#else
    if (!opts->headless)
        snprintf(why, sizeof why, "built without the window mode (PAGECURL_SDL=OFF)");
    return app_headless_main(opts, trace, why);
#endif
}

int main(int argc, char **argv)
{
    AppOptions opts;
    char message[512];
    switch (app_cli_parse(argc, argv, &opts, message, sizeof message)) {
    case APP_CLI_EXIT_OK:
        return 0;
    case APP_CLI_USAGE:
        app_say(stderr, "%s", message);
        return 2;
    case APP_CLI_RUN:
        break;
    }

    /* Before SDL starts: it leaves handlers it finds in place. Until the device is made, a signal
     * ends the program at once (nothing of the user's is held yet). */
    app_signals_install();
    GpuError err = {0};
    if (opts.list_devices) {
        if (gpu_context_list_devices(stdout, &err))
            return 0;
        app_say(stderr, "%s", err.message);
        return 1;
    }

    /* Every path, before anything starts: two outputs on one file are bad usage, an output that
     * cannot be written (a missing folder) is refused before a window opens. */
    int checked = app_output_check(&opts, message, sizeof message);
    if (checked) {
        app_say(stderr, "%s", message);
        return checked;
    }
    /* the trace to replay: a malformed one is bad usage */
    AppTrace replay = {0};
    if (opts.replay && !app_trace_load(opts.replay, &replay, message, sizeof message)) {
        app_say(stderr, "%s", message);
        return 2;
    }
    int status = opts.bench ? bench_mode(&opts) : shown_mode(&opts, opts.replay ? &replay : NULL);
    app_trace_free(&replay);
    return status;
}
