/* pagecurl: a page-curl demo on Vulkan. The table of contents: parse the command line, pick the
 * mode (window where there is a display, headless otherwise), make the GPU context and the page,
 * run, and turn validation findings into the exit status.
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

/* True when a window was opened; otherwise `why` says why not (empty when --headless asked). */
static bool open_window(const AppOptions *opts, void *window, char *why, size_t size)
{
    why[0] = '\0';
    if (opts->headless)
        return false;
#ifdef PAGECURL_HAVE_SDL
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if ((!x11 || !*x11) && (!wayland || !*wayland)) {
        snprintf(why, size, "no display (DISPLAY and WAYLAND_DISPLAY unset)");
        return false;
    }
    return app_window_open(opts, window, why, size);
#else
    (void)window;
    snprintf(why, size, "built without the window mode (PAGECURL_SDL=OFF)");
    return false;
#endif
}

/* The page the options ask for, shown in the window (NULL: headless). Returns the exit status. */
static int run_page(const GpuContext *ctx, const AppOptions *opts, void *window,
                    AppBookStream *book, const AppTrace *trace, MeshInk *ink, AppNotebook *notebook)
{
    const AppBookSource *source = app_book_stream_source(book);
    (void)window; /* without SDL, always headless */
    GpuError err = {0};
    AppPage page = {0};
    AppPageDesc desc = {
        .nx = opts->nx,
        .ny = opts->ny,
        .readback = opts->export_obj != NULL,
        .cpu_deform = opts->cpu_deform,
        .normals = opts->normals,
        .pack = opts->pack,
        .staging = opts->staging,
        .aspect = app_book_source_builtin(source) ? 0.0f : app_book_source_aspect(source),
        .rtl = app_binds_right(opts->binding, app_book_source_right_to_left(source)),
        .hard_cover = opts->hard_cover,
        .layout = opts->layout};
    int status = 1;
    if (!app_page_create(ctx, &desc, &page, &err))
        app_say(stderr, "%s", err.message);
#ifdef PAGECURL_HAVE_SDL
    else if (window)
        status = app_window_run(window, ctx, &page, book, opts, trace, ink, notebook);
#endif
    else
        status = app_headless_run(ctx, &page, book, opts, trace, ink, notebook);
    app_page_destroy(ctx, &page);
    return status;
}

/* The book is never an output: a file the options write (an output, the notebook, a frame of
 * --frames-out) that is the book, a page of it or a new page in its folder
 * (app_book_source_holds) is bad usage: 2 with the one line; 0 otherwise. */
static int check_book_outputs(const AppOptions *opts, const AppBookSource *book, char *message,
                              size_t size)
{
    char frame[4096] = "";
    if (opts->frames_out)
        snprintf(frame, sizeof frame, "%s/frame-0001.png", opts->frames_out);
    const struct {
        const char *flag, *path, *shown;
    } files[] = {
        {"--screenshot", opts->screenshot, opts->screenshot},
        {"--export-obj", opts->export_obj, opts->export_obj},
        {"--json", opts->json, opts->json},
        {"--csv", opts->csv, opts->csv},
        {"--record", opts->record, opts->record},
        {"--notebook", opts->notebook, opts->notebook},
        {"--frames-out", opts->frames_out ? frame : NULL, opts->frames_out},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i].path && app_book_source_holds(book, files[i].path)) {
            snprintf(message, size,
                     "%s %s: that would write into the book being read (%s); write elsewhere",
                     files[i].flag, files[i].shown, app_book_source_name(book));
            return 2;
        }
    return 0;
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

/* What a run reads before anything starts: the trace to replay (a malformed one is bad usage),
 * the book, and the notebook, taken for writing (its ink is saved as it is made) and bound to
 * the book. Returns 0, or the exit status with nothing left to free. */
static int load_inputs(AppOptions *opts, AppTrace *replay, AppBookStream **book, MeshInk *ink,
                       AppNotebook *notebook)
{
    char message[512];
    if (opts->replay && !app_trace_load(opts->replay, replay, message, sizeof message)) {
        app_say(stderr, "%s", message);
        return 2;
    }
    int refused = load_book(opts, book);
    if (refused) {
        app_trace_free(replay);
        return refused;
    }
    const AppBookSource *bound = app_book_stream_source(*book);
    refused = check_book_outputs(opts, bound, message, sizeof message);
    if (refused) {
        app_say(stderr, "%s", message);
        app_book_stream_destroy(*book);
        app_trace_free(replay);
        return refused;
    }
    if (!mesh_ink_init(ink, app_book_source_pages(bound))) {
        app_say(stderr, "out of memory");
        app_book_stream_destroy(*book);
        app_trace_free(replay);
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
        app_trace_free(replay);
        return opened;
    }
    return 0;
}

/* A headless pose turns a leaf of the spread it opens (--page's, or the first with one to turn):
 * one must be there, whether --page is given or not. The flat picture (--curl 0) of a spread with
 * no right-hand leaf (the book's end) is its left-hand leaf's, lying where it is: the same
 * picture. Returns 0, or 2 with one line saying why. */
static int check_turn(AppOptions *opts, bool windowed, const AppBookStream *book)
{
    int leaves = app_book_stream_leaves(book);
    if (opts->has_curl && opts->curl == 0.0f && !opts->backward && opts->page &&
        app_book_first_spread(opts->page, false) >= leaves)
        opts->backward = true;
    int spread = app_book_first_spread(opts->page, opts->backward);
    /* backward, leaf spread - 1 turns back; forward, leaf spread turns over */
    if (windowed || opts->bench || opts->replay ||
        (opts->backward ? spread >= 1 && spread <= leaves : spread < leaves))
        return 0;
    if (opts->page) /* named as the reader typed it: a label may be another page's number */
        app_say(stderr, "--page %s: the spread holding it has no %s-hand leaf to turn %s",
                opts->page_text ? opts->page_text : "?", opts->backward ? "left" : "right",
                opts->backward ? "back" : "(try --backward)");
    else
        app_say(stderr, "--backward: the book has %d leaf(s), no left-hand leaf to turn back",
                leaves);
    return 2;
}

/* The end of a run that loaded its inputs: whatever ended it (a failed output, a lost device, a
 * signal), the ink is kept; a signal or a validation finding turns success into failure.
 * Returns the exit status. */
static int end_run(int status, const AppOptions *opts, AppTrace *replay, AppBookStream *book,
                   MeshInk *ink, AppNotebook *notebook, const GpuMessages *messages)
{
    app_trace_free(replay);
    if (!app_notebook_keep(notebook, ink, true) && status == 0)
        status = 1;
    else if (notebook->wrote && notebook->saved == ink->revision)
        app_say(stdout, "%zu stroke(s) written to %s", mesh_ink_stroke_count(ink), opts->notebook);
    app_notebook_close(notebook);
    app_book_stream_destroy(book); /* after the notebook's last save: it names the book */
    mesh_ink_free(ink);
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
    AppTrace replay = {0};
    MeshInk ink;
    AppNotebook notebook;
    AppBookStream *book = NULL;
    int loaded = load_inputs(&opts, &replay, &book, &ink, &notebook);
    if (loaded)
        return loaded;
    const AppTrace *trace = opts.replay ? &replay : NULL;

#ifdef PAGECURL_HAVE_SDL
    AppWindow window = {0};
#else
    int window = 0;
#endif
    char why[768];
    bool windowed = open_window(&opts, &window, why, sizeof why);
    int refused = 0;
    if (!windowed && opts.window_only) {
        app_say(stderr, "%s needs a window, and there is none: %s", opts.window_only, why);
        refused = 1;
    } else {
        refused = check_turn(&opts, windowed, book);
    }
    if (refused) {
        app_notebook_close(&notebook);
        app_book_stream_destroy(book);
        mesh_ink_free(&ink);
        app_trace_free(&replay);
        return refused;
    }
    if (!windowed && why[0])
        app_say(stderr, "%s; running headless", why);
    /* a reader's notebook reopens where they were: in the window, unless --page says */
    if (windowed && !opts.page_text && !opts.replay && notebook.at)
        opts.page = (uint32_t)notebook.at;
    /* lavapipe (Mesa's llvmpipe; Debian 12 ships 22.3) can free a scene's fence while one of its
     * rasteriser threads is still signalling it, which hangs or crashes the process: a window on
     * a busy machine meets it within hours (docs/testing.md, Soak). Without rasteriser threads it
     * cannot happen, so a window runs without them unless the user set a count. Other drivers
     * ignore the variable; it must be set before the driver starts. */
    if (windowed)
        setenv("LP_NUM_THREADS", "0", 0);
    GpuMessages messages = {0};
    GpuContextDesc desc = {
        .validation = opts.validation,
        .gpu_assisted = opts.gpu_assisted,
        .device_index = opts.device,
        .messages = &messages,
        .pipeline_statistics = opts.bench, /* the report shows each kernel's compiler figures */
    };
#ifdef PAGECURL_HAVE_SDL
    if (windowed) {
        desc.instance_extensions = window.extensions;
        desc.instance_extension_count = window.extension_count;
        desc.create_surface = app_window_create_surface;
        desc.surface_user = &window;
    }
#endif

    int status = 1;
    GpuContext ctx;
    bool made = gpu_context_create(&desc, &ctx, &err);
    /* From here the run may hold what must be saved: a signal asks the loops to stop. */
    app_signals_defer();
    if (!made) {
        app_say(stderr, "%s", err.message);
        status = err.usage ? 2 : 1;
    } else if (opts.bench) {
        status = run_bench(&ctx, &opts);
    } else {
        status = run_page(&ctx, &opts, windowed ? &window : NULL, book, trace, &ink, &notebook);
    }
    gpu_context_destroy(&ctx);
#ifdef PAGECURL_HAVE_SDL
    app_window_close(&window);
#endif

    return end_run(status, &opts, &replay, book, &ink, &notebook, &messages);
}
