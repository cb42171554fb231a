/* SPDX-License-Identifier: MIT */
#include "headless.h"
#include "say.h"

#include "frame_log.h"
#include "input.h"
#include "library_book.h"
#include "library_notebook.h"
#include "output.h"
#include "picture.h"
#include "trace_apply.h"
#include "signals.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reference tier draws the picture this many times as large and scales it down. */
#define SUPERSAMPLE 2

int app_headless_write(const AppOptions *opts, uint32_t width, uint32_t height, const uint8_t *rgba,
                       const pagecurl_leaf *leaf)
{
    char message[512];
    if (opts->screenshot) {
        if (!app_picture_write(opts->screenshot, width, height, rgba, message, sizeof message)) {
            app_say(stderr, "%s", message);
            return 1;
        }
        app_say(stdout, "screenshot written to %s", opts->screenshot);
    }
    if (opts->export_obj) {
        if (!leaf || !app_output_obj(opts->export_obj, leaf, message, sizeof message)) {
            app_say(stderr, "%s", leaf ? message : "the leaf's mesh was not read back");
            return 1;
        }
        app_say(stdout, "the turning leaf's mesh written to %s", opts->export_obj);
    }
    return 0;
}

/* A run: the options (--backward and the page settled by the book), the library's context and
 * book, the notebook, and the picture: drawn at `scale` times the size asked. */
typedef struct Run {
    AppOptions opts;
    const AppTrace *trace;
    pagecurl_context *ctx;
    pagecurl_book *book;
    AppLibraryNotebook notebook;
    pagecurl_render_desc render;
    uint32_t scale;
    uint8_t *drawn, *scaled; /* the picture as drawn; scaled down to the size asked */
    size_t next;             /* the trace's first event not given to the book yet */
    AppTraceClick click;     /* its clicks on links (app/trace_apply.h): the window's */
    uint32_t frames, shown;  /* frames to play; drawn */
    AppFrameLog frame_log;   /* PAGECURL_FRAME_LOG's frame times (app/frame_log.h) */
} Run;

static bool stop_asked(void *user)
{
    (void)user;
    return app_signals_caught() != 0;
}

/* The messages the book sent (a page that cannot be drawn), said; whether its ink changed. */
static bool drain_events(pagecurl_book *book)
{
    bool inked = false;
    pagecurl_event e;
    while (pagecurl_book_poll_event(book, &e)) {
        if (e.type == PAGECURL_EVENT_ERROR)
            app_say(stderr, "warning: %s", e.message);
        inked = inked || e.type == PAGECURL_EVENT_INK_CHANGED;
    }
    return inked;
}

/* The context: the library's own device. 0, or the exit status (said). */
static int make_context(Run *run)
{
    const AppOptions *o = &run->opts;
    pagecurl_error err;
    run->ctx =
        pagecurl_context_create(&(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc),
                                                         .validation = o->validation,
                                                         .gpu_assisted = o->gpu_assisted,
                                                         .prefer_index = o->device >= 0,
                                                         .device_index = o->device},
                                &err);
    if (!run->ctx) {
        app_say(stderr, "%s", err.message);
        return app_library_status(&err);
    }
    pagecurl_context_faults(run->ctx, &o->faults.library);
    return 0;
}

/* The book the options name, streamed for the picture's width (and its zoom). 0, or the exit
 * status (said). */
static int open_book(Run *run)
{
    const AppOptions *o = &run->opts;
    pagecurl_error err;
    /* the pages drawn at the density shown: --zoom Z shows them Z times as large, and a
     * supersampled picture is shown at the size asked */
    float detail = fmaxf(o->zoom, 1.0f) / (float)run->scale;
    pagecurl_book_desc desc = app_library_book_desc(o);
    desc.wait_for_pages = true;
    desc.page_detail = detail;
    /* a replay is the window's session: the reader's presses and keys */
    desc.thumb_through = run->trace != NULL;
    desc.stop = stop_asked;
    run->book = pagecurl_book_create(run->ctx, &desc, &err);
    if (run->book && o->fit_width) {
        /* --fit width shows a page as wide as the picture: its pages drawn that dense, known once
         * the book has their shape (at rest a page fills 95 % of the picture's limiting side; as
         * a spread's half, at most twice as dense as asked), so it is made again for it */
        double across =
            0.95 * fmin(0.5 * o->width, o->height / pagecurl_book_page_height(run->book));
        float fit = (float)fmin(o->width / fmax(across, 1.0), 8.0);
        if (fit > 1.0f) {
            pagecurl_book_destroy(run->book);
            desc.page_detail = fit / (float)run->scale;
            run->book = pagecurl_book_create(run->ctx, &desc, &err);
        }
    }
    if (!run->book) {
        /* the book names the file; the program names the flag that gave it */
        app_say(stderr, "%s%s", o->book ? "--book " : "", err.message);
        return app_library_status(&err);
    }
    /* the command line has checked it is in range */
    pagecurl_book_set_hold_radius(run->book, o->radius);
    return 0;
}

/* The spread a posed turn opens: --page's, else the first with a leaf to turn (forward: spread 0;
 * backward: spread 2, whose left-hand leaf turns back). */
static int first_spread(const AppOptions *o)
{
    return o->page ? (int)(o->page / 2) : o->backward ? 2 : 0;
}

/* A posed turn turns a leaf of the spread it opens: one must be there. The flat picture
 * (--curl 0) of a spread with no right-hand leaf (the book's end) is its left-hand leaf's, lying
 * where it is: the same picture. Returns 0, or 2 (said). */
static int check_turn(Run *run)
{
    AppOptions *o = &run->opts;
    int leaves = (pagecurl_book_page_count(run->book) + 1) / 2;
    if (o->has_curl && o->curl == 0.0f && !o->backward && o->page && (int)(o->page / 2) >= leaves)
        o->backward = true;
    int spread = first_spread(o);
    /* backward, leaf spread - 1 turns back; forward, leaf spread turns over */
    if (run->trace || (o->backward ? spread >= 1 && spread <= leaves : spread < leaves))
        return 0;
    if (o->page) /* named as the reader typed it: a label may be another page's number */
        app_say(stderr, "--page %s: the spread holding it has no %s-hand leaf to turn %s",
                o->page_text ? o->page_text : "?", o->backward ? "left" : "right",
                o->backward ? "back" : "(try --backward)");
    else
        app_say(stderr, "--backward: the book has %d leaf(s), no left-hand leaf to turn back",
                leaves);
    return 2;
}

/* The book opened at the posed turn's spread (a replay starts at the first), on --page's page
 * itself: the one-page layout shows it. */
static void open_at_spread(Run *run)
{
    if (run->trace)
        return;
    int spread = first_spread(&run->opts), pages = pagecurl_book_page_count(run->book);
    int page = 2 * spread > pages ? pages : 2 * spread; /* spread s shows page 2s on its left */
    if (run->opts.page)
        page = (int)run->opts.page;
    if (page >= 1)
        pagecurl_book_go_to(run->book, page);
}

/* The trace's events due by time t given to the book (app_trace_apply). */
static void feed_trace(Run *run, double t)
{
    const AppTrace *trace = run->trace;
    for (; run->next < trace->count && trace->events[run->next].time <= t; run->next++)
        app_trace_apply(run->book, &run->click, &trace->events[run->next], run->render.width,
                        run->render.height);
}

/* The frame before the next one worth drawing: while a replay's book is still and its next event
 * (or its end) is further off, the frames between would all be the same picture. */
static uint32_t skip_idle(const Run *run, uint32_t f)
{
    pagecurl_state s = {.size = sizeof s};
    pagecurl_book_state(run->book, &s);
    if (!run->trace || s.moving || s.turning)
        return f;
    const AppTrace *trace = run->trace;
    double due = run->next < trace->count ? trace->events[run->next].time * APP_REPLAY_HZ
                                          : (double)run->frames;
    uint32_t before = due >= run->frames ? run->frames - 1 : (uint32_t)due;
    return before > f + 1 ? before - 1 : f;
}

/* Frame f's pose: a fixed one, a replay's events due by then, or the script's. */
static void pose(Run *run, uint32_t f)
{
    const AppOptions *o = &run->opts;
    if (run->trace) {
        feed_trace(run, f / APP_REPLAY_HZ);
        return;
    }
    AppTurn turn =
        o->has_curl ? (AppTurn){o->curl, o->grab} : app_input_scripted(f, run->frames, o->grab);
    pagecurl_book_hold(run->book, turn.t, turn.g, o->backward);
}

/* --frames-out DIR is a folder that holds none of the names the frames will take: they are
 * written into it, never over a file that is there. */
static bool frames_out_ready(const char *dir, uint32_t frames)
{
    struct stat st;
    const char *why = stat(dir, &st) != 0    ? strerror(errno)
                      : !S_ISDIR(st.st_mode) ? "not a folder"
                                             : NULL;
    if (why) {
        app_say(stderr, "--frames-out %s: %s", dir, why);
        return false;
    }
    char path[4096];
    for (uint32_t f = 0; f < frames; f++) {
        app_output_frame_path(dir, f, path, sizeof path);
        if (lstat(path, &st) == 0) {
            app_say(stderr, "--frames-out: %s exists; give a folder without frames", path);
            return false;
        }
    }
    return true;
}

/* The picture just drawn at the size asked: as drawn, or a supersampled one scaled down. NULL
 * (said) where it cannot be. */
static const uint8_t *shown_pixels(Run *run)
{
    const AppOptions *o = &run->opts;
    if (run->scale == 1)
        return run->drawn;
    if (!app_picture_shrink(run->drawn, run->render.width, run->render.height, run->scaled,
                            o->width, o->height)) {
        app_say(stderr, "out of memory to scale the %ux%u picture down", run->render.width,
                run->render.height);
        return NULL;
    }
    return run->scaled;
}

/* Writes the frame just read back as --frames-out's frame f. */
static bool write_frame(Run *run, uint32_t f)
{
    char path[4096], message[512];
    app_output_frame_path(run->opts.frames_out, f, path, sizeof path);
    const uint8_t *pixels = shown_pixels(run);
    if (!pixels)
        return false;
    if (!app_picture_claim(path)) {
        app_say(stderr, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    if (!app_picture_write(path, run->opts.width, run->opts.height, pixels, message,
                           sizeof message)) {
        unlink(path);
        app_say(stderr, "%s", message);
        return false;
    }
    return true;
}

/* The picture's buffers, at the size the tier draws. 0, or the exit status (said). */
static int make_pictures(Run *run)
{
    const AppOptions *o = &run->opts;
    pagecurl_limits limits = {.size = sizeof limits};
    pagecurl_context_limits(run->ctx, &limits);
    uint32_t most = limits.max_target_side, s = run->scale;
    if (s > 1 && (o->width > most / s || o->height > most / s)) {
        app_say(stderr,
                "--quality reference draws the picture %u times as large, and %ux%u is larger "
                "than the device allows (%u a side): ask for at most %u a side",
                s, o->width * s, o->height * s, most, most / s);
        return 1;
    }
    run->render = (pagecurl_render_desc){
        .size = sizeof run->render, .width = o->width * s, .height = o->height * s};
    run->drawn = malloc((size_t)run->render.width * run->render.height * 4);
    run->scaled = s > 1 ? malloc((size_t)o->width * o->height * 4) : NULL;
    if (!run->drawn || (s > 1 && !run->scaled)) {
        app_say(stderr, "out of memory for a %ux%u picture", run->render.width, run->render.height);
        return 1;
    }
    return 0;
}

/* Plays the frames, reading back the last (every one, for --frames-out), and writes the files.
 * A run of several frames says how far it is on a terminal. Returns the exit status. */
static int play(Run *run)
{
    const AppOptions *o = &run->opts;
    pagecurl_error err = {0};
    bool progress = run->frames > 1 && isatty(STDERR_FILENO);
    bool ok = true, written = true;
    /* a replay's first events find the picture they point at, as a window's do */
    if (run->trace)
        ok = pagecurl_book_render(run->book, 0.0, &run->render, NULL, &err);
    if (o->zoom > 1.0f) { /* --zoom about --zoom-at's pixel, kept within the fitted pages */
        ok = ok && pagecurl_book_render(run->book, 0.0, &run->render, NULL, &err);
        /* the output pixel's centre (the image's centre by default), in the picture drawn */
        double s = run->scale;
        double x = (o->has_zoom_at ? o->zoom_at[0] + 0.5 : 0.5 * o->width) * s - 0.5;
        double y = (o->has_zoom_at ? o->zoom_at[1] + 0.5 : 0.5 * o->height) * s - 0.5;
        if (ok)
            pagecurl_book_set_zoom(run->book, o->zoom, x, y, 0.0);
    }
    if (o->fit_width) { /* the right-hand page's width, its head at the top */
        ok = ok && pagecurl_book_render(run->book, 0.0, &run->render, NULL, &err);
        if (ok)
            pagecurl_book_fit(run->book, PAGECURL_FIT_WIDTH, NAN, NAN, 0.0);
    }
    for (uint32_t f = 0; f < run->frames && ok && written && !app_signals_caught(); f++) {
        bool last = f + 1 == run->frames;
        pose(run, f);
        run->render.read_leaf = last && o->export_obj;
        bool read = last || o->frames_out;
        ok = pagecurl_book_render(run->book, run->trace ? f / APP_REPLAY_HZ : 0.0, &run->render,
                                  read ? run->drawn : NULL, &err);
        run->shown++;
        app_frame_log_frame(&run->frame_log);
        if (drain_events(run->book))
            app_library_notebook_keep(&run->notebook, run->book, false);
        if (ok && o->frames_out)
            written = write_frame(run, f);
        /* --frames-out wants every frame; otherwise a still replay skips to its next event */
        uint32_t next = o->frames_out ? f : skip_idle(run, f);
        if (progress && (next != f || f % 16 == 0 || last))
            fprintf(stderr, "\rpagecurl: frame %u of %u", next + 1, run->frames);
        f = next;
    }
    if (progress)
        fputc('\n', stderr);
    if (!ok && written) {
        app_say(stderr, "%s", err.message);
        return 1;
    }
    if (!ok || !written)
        return 1;
    if (app_signals_caught())
        return 0; /* stopped: the pose asked for was never reached, so nothing is written */
    const uint8_t *pixels = shown_pixels(run);
    pagecurl_leaf leaf = {.size = sizeof leaf};
    bool has_leaf = pagecurl_book_leaf(run->book, &leaf);
    return pixels ? app_headless_write(o, o->width, o->height, pixels, has_leaf ? &leaf : NULL) : 1;
}

int app_headless_main(const AppOptions *opts, const AppTrace *replay, const char *why)
{
    Run run = {.opts = *opts, .trace = replay, .notebook = {.notebook = {.lock_fd = -1}}};
    run.scale = opts->quality == GPU_QUALITY_REFERENCE ? SUPERSAMPLE : 1;
    int status = make_context(&run);
    if (status)
        return status;
    char message[512] = "";
    /* Reading the book (a PDF MuPDF reads to its end to repair it: minutes for a file of
     * gigabytes) holds nothing of the user's: a signal still ends the run at once. */
    status = open_book(&run);
    if (!status && opts->list_links) { /* the listing alone: no picture, no notebook */
        status = app_library_list_links(run.book, opts->list_links);
        status = app_library_notebook_end(&run.notebook, run.book, NULL, status);
        return app_library_finish(run.ctx, status);
    }
    if (!status)
        status = app_library_find_page(run.book, &run.opts);
    if (!status)
        status = app_library_find_text(run.book, &run.opts);
    if (!status && opts->text_page) /* printed, nothing drawn */
        return app_library_finish(run.ctx,
                                  app_library_notebook_end(&run.notebook, run.book, NULL,
                                                           app_library_print_text(run.book, opts)));
    if (!status)
        status = app_library_check_outputs(run.book, &run.opts);
    if (!status)
        app_library_note_damage(run.book);
    /* From here the run may hold what must be saved (a notebook it makes is removed again at its
     * end): a signal asks the loops to stop, and gives up the notebook's reading. */
    app_signals_defer();
    if (!status) {
        status = app_library_notebook_open(&run.notebook, run.opts.notebook, run.book, message,
                                           sizeof message);
        if (!status)
            status = app_library_notebook_replayable(&run.notebook, run.opts.notebook, replay,
                                                     opts->replay, message, sizeof message);
        if (status && message[0])
            app_say(stderr, "%s", message);
    }
    if (!status && opts->window_only) {
        app_say(stderr, "%s needs a window, and there is none: %s", opts->window_only,
                why ? why : "");
        status = 1;
    }
    if (!status)
        status = check_turn(&run);
    run.frames = opts->frames ? opts->frames : (opts->has_curl ? 1 : APP_SCRIPTED_FRAMES);
    if (!status && replay) {
        double end =
            (replay->count ? replay->events[replay->count - 1].time : 0.0) + APP_REPLAY_TAIL;
        if (!opts->frames)
            run.frames = (uint32_t)ceil(end * APP_REPLAY_HZ) + 1;
    }
    if (!status && opts->frames_out && !frames_out_ready(opts->frames_out, run.frames))
        status = 1;
    if (!status && why && why[0]) /* the run's inputs are good: it runs */
        app_say(stderr, "%s; running headless", why);
    if (!status)
        status = make_pictures(&run);
    if (!status && !app_frame_log_open(&run.frame_log, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    }
    if (!status) {
        open_at_spread(&run);
        status = play(&run);
        if (!app_frame_log_close(&run.frame_log, message, sizeof message)) {
            app_say(stderr, "%s", message);
            status = status ? status : 1;
        }
        bool stopped = app_signals_caught() != 0;
        if (status == 0 && !stopped && opts->frames_out)
            app_say(stdout, "%u frame(s) written to %s/frame-*.png", run.shown, opts->frames_out);
        else if (status == 0 && !stopped && !opts->screenshot && !opts->export_obj) {
            pagecurl_limits limits = {.size = sizeof limits};
            pagecurl_context_limits(run.ctx, &limits);
            app_say(stdout,
                    "rendered %u headless frame(s) of a %ux%u page on %s; nothing written (use "
                    "--screenshot, --export-obj or --frames-out)",
                    run.shown, opts->nx, opts->ny, limits.device_name);
        }
    }
    status = app_library_notebook_end(&run.notebook, run.book, opts->notebook, status);
    free(run.drawn);
    free(run.scaled);
    return app_library_finish(run.ctx, status);
}
