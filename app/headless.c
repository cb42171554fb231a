#include "headless.h"
#include "say.h"

#include "../pages/content.h"
#include "../book/ink_texture.h"
#include "output.h"
#include "picture.h"
#include "signals.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int app_headless_write(const GpuContext *ctx, const AppPage *page, const AppOptions *opts,
                       uint32_t width, uint32_t height, const uint8_t *rgba)
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
        gpu_buffer_invalidate(ctx, &page->gpu.readback);
        if (!app_output_obj(opts->export_obj, &page->grid, page->gpu.readback.mapped, message,
                            sizeof message)) {
            app_say(stderr, "%s", message);
            return 1;
        }
        app_say(stdout, "page mesh written to %s", opts->export_obj);
    }
    return 0;
}

/* Where each frame's pose comes from: a fixed pose, a replayed trace, or else the script. */
typedef struct PoseSource {
    const AppTurn *fixed;
    AppSpread spread; /* a fixed pose's or the script's */
    const AppTrace *trace;
    MeshFlip flip;  /* the replay's book */
    AppZoom zoom;   /* and its view's zoom */
    MeshInk *ink;   /* where its strokes go */
    size_t next;    /* the trace's first event not applied yet */
    bool moving;    /* the replay's book moved in the last frame or is held mid-turn */
    uint32_t drawn; /* frames rendered (a replay's idle ones are skipped) */
} PoseSource;

static void source_pose(PoseSource *src, const AppPage *page, const AppOptions *opts, uint32_t f,
                        uint32_t frames, CurlParams *pose, AppSpread *spread)
{
    if (src->trace) {
        /* fixed simulation step: the events due by this frame's time, then the animation */
        double t = f / APP_REPLAY_HZ;
        while (src->next < src->trace->count && src->trace->events[src->next].time <= t)
            app_book_input(&src->flip, &src->zoom, src->ink, &src->trace->events[src->next++],
                           opts->width, opts->height, page);
        bool moved = mesh_flip_step(&src->flip, t);
        MeshFlipView view = mesh_flip_view_at(&src->flip, t);
        /* the view eases back too, and a zoom eases or a flick's pan coasts */
        src->moving = moved || view.turning || view.lift > 0.0f || app_zoom_moving(&src->zoom, t);
        *pose = app_book_pose(&view, page);
        *spread = app_book_spread(&view);
        spread->zoom = app_book_zoom_view(&src->zoom, &view, page, opts->width, opts->height, t);
        return;
    }
    AppTurn turn = src->fixed ? *src->fixed : app_input_scripted(f, frames, opts->grab);
    *pose = app_book_turn_pose(&src->spread, turn.t, turn.g, page);
    if (opts->radius > 0.0f)
        app_book_pose_radius(pose, opts->radius, page);
    *spread = src->spread;
    spread->progress = turn.t;
    if (opts->reduced_motion) { /* the turn's cross-fade at t: no leaf posed, the view still */
        *pose = app_book_turn_pose(&src->spread, 0.0f, turn.g, page);
        app_book_spread_fading(spread, turn.t);
    }
    if (opts->zoom > 1.0f) { /* --zoom about --zoom-at's pixel, kept within the fitted pages */
        AppZoomRect fit = app_book_fit_rect(spread, page, opts->width, opts->height);
        float x = opts->has_zoom_at ? ((float)opts->zoom_at[0] + 0.5f) / (float)opts->width : 0.5f;
        float y = opts->has_zoom_at ? ((float)opts->zoom_at[1] + 0.5f) / (float)opts->height : 0.5f;
        AppZoom zoom;
        app_zoom_init(&zoom);
        app_zoom_set(&zoom, opts->zoom, x, y, 0.0, &fit);
        spread->zoom = app_zoom_at(&zoom, 0.0, &fit);
    }
}

/* --frames-out's name for frame f. */
static void frame_path(const char *dir, uint32_t f, char *path, size_t size)
{
    snprintf(path, size, "%s/frame-%04u.png", dir, f);
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
        frame_path(dir, f, path, sizeof path);
        if (lstat(path, &st) == 0) {
            app_say(stderr, "--frames-out: %s exists; give a folder without frames", path);
            return false;
        }
    }
    return true;
}

/* The pixels just read back at the size asked: the view's own, or a supersampled view's scaled
 * down into `scaled` (opts' width x height x 4 bytes). NULL (said) where they cannot be. */
static const uint8_t *shown_pixels(const GpuContext *ctx, const AppView *view,
                                   const AppOptions *opts, uint8_t *scaled)
{
    gpu_buffer_invalidate(ctx, &view->offscreen.pixels);
    const uint8_t *pixels = view->offscreen.pixels.mapped;
    if (view->width == opts->width && view->height == opts->height)
        return pixels;
    if (!app_picture_shrink(pixels, view->width, view->height, scaled, opts->width, opts->height)) {
        app_say(stderr, "out of memory to scale the %ux%u picture down", view->width, view->height);
        return NULL;
    }
    return scaled;
}

/* Writes the frame just read back as --frames-out's frame f. */
static bool write_frame(const GpuContext *ctx, const AppView *view, const AppOptions *opts,
                        uint8_t *scaled, const char *dir, uint32_t f)
{
    char path[4096], message[512];
    frame_path(dir, f, path, sizeof path);
    const uint8_t *pixels = shown_pixels(ctx, view, opts, scaled);
    if (!pixels)
        return false;
    if (!app_picture_claim(path)) {
        app_say(stderr, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    if (!app_picture_write(path, opts->width, opts->height, pixels, message, sizeof message)) {
        unlink(path);
        app_say(stderr, "%s", message);
        return false;
    }
    return true;
}

/* The frame before the next one worth drawing: while a replay's book is still and its next event
 * (or its end) is further off, the frames between would all be the same picture. */
static uint32_t skip_idle(const PoseSource *src, uint32_t f, uint32_t frames)
{
    if (!src->trace || src->moving)
        return f;
    double due = src->next < src->trace->count ? src->trace->events[src->next].time * APP_REPLAY_HZ
                                               : (double)frames;
    uint32_t before = due >= frames ? frames - 1 : (uint32_t)due;
    return before > f + 1 ? before - 1 : f;
}

/* Renders `frames` frames posed by `src`, with the strokes of `ink` (NULL: none), saving them to
 * `notebook` (NULL: none) as they are made; reads back the last, or every frame for --frames-out.
 * A run of several frames says how far it is on a terminal. */
static int render_frames(const GpuContext *ctx, AppPage *page, AppBookStream *book,
                         const AppOptions *opts, uint32_t frames, PoseSource *src,
                         const MeshInk *ink, AppNotebook *notebook)
{
    GpuError err = {0};
    AppView view;
    /* the reference tier draws the picture larger and scales it down (supersampling) */
    uint32_t scale = opts->quality == GPU_QUALITY_REFERENCE ? GPU_QUALITY_REFERENCE_SCALE : 1;
    uint8_t *scaled = NULL;
    uint32_t most = ctx->props.limits.maxImageDimension2D;
    if (scale > 1 && (opts->width > most / scale || opts->height > most / scale)) {
        app_say(stderr,
                "--quality reference draws the picture %u times as large, and %ux%u is larger "
                "than the device allows (%u a side): ask for at most %u a side",
                scale, opts->width * scale, opts->height * scale, most, most / scale);
        return 1;
    }
    if (scale > 1 && !(scaled = malloc((size_t)opts->width * opts->height * 4))) {
        app_say(stderr, "out of memory for a %ux%u picture", opts->width, opts->height);
        return 1;
    }
    AppViewDesc desc = {
        .kind = APP_VIEW_OFFSCREEN,
        .width = opts->width * scale,
        .height = opts->height * scale,
        .book = book,
        .renderer = {.quality = opts->quality,
                     .max_samples = opts->msaa,
                     .shadow_size = gpu_shadow_size(opts->width, opts->height),
                     .show_through = opts->show_through},
    };
    if (!app_view_create(ctx, &desc, page, &view, &err) ||
        !app_ink_texture_upload(&view.ink, ink, ctx, &view.renderer.ink, &err)) {
        app_say(stderr, "%s", err.message);
        free(scaled);
        return 1;
    }
    bool progress = frames > 1 && isatty(STDERR_FILENO);
    bool ok = true, written = true;
    for (uint32_t f = 0; f < frames && ok && written && !app_signals_caught(); f++) {
        bool last = f + 1 == frames;
        AppViewFrame frame = {.ink = ink,
                              .readback_pixels = last || opts->frames_out,
                              .readback_vertices = last && opts->export_obj};
        source_pose(src, page, opts, f, frames, &frame.pose, &frame.spread);
        ok = app_view_frame(ctx, &view, &frame, NULL, &err);
        src->drawn++;
        if (notebook && ink)
            app_notebook_keep(notebook, ink, false);
        if (ok && opts->frames_out) /* one read-back buffer: each frame waits for its copy */
            ok = app_view_wait(ctx, &view, &err) &&
                 (written = write_frame(ctx, &view, opts, scaled, opts->frames_out, f));
        /* --frames-out wants every frame; otherwise a still replay skips to its next event */
        uint32_t next = opts->frames_out ? f : skip_idle(src, f, frames);
        if (progress && (next != f || f % 16 == 0 || last))
            fprintf(stderr, "\rpagecurl: frame %u of %u", next + 1, frames);
        f = next;
    }
    if (progress)
        fputc('\n', stderr);
    ok = ok && written && app_view_wait(ctx, &view, &err);
    int status = 1;
    if (!ok && written)
        app_say(stderr, "%s", err.message);
    else if (ok && app_signals_caught())
        status = 0; /* stopped: the pose asked for was never reached, so nothing is written */
    else if (ok) {
        const uint8_t *pixels = shown_pixels(ctx, &view, opts, scaled);
        status =
            pixels ? app_headless_write(ctx, page, opts, opts->width, opts->height, pixels) : 1;
    }
    app_view_destroy(ctx, &view);
    free(scaled);
    return status;
}

int app_headless_run(const GpuContext *ctx, AppPage *page, AppBookStream *book,
                     const AppOptions *opts, const AppTrace *replay, MeshInk *ink,
                     AppNotebook *notebook)
{
    uint32_t frames = opts->frames ? opts->frames : (opts->has_curl ? 1 : APP_SCRIPTED_FRAMES);
    AppTurn fixed = {opts->curl, opts->grab};
    int leaves = app_book_stream_leaves(book);
    PoseSource src = {.fixed = opts->has_curl ? &fixed : NULL,
                      .spread =
                          app_book_spread_at(app_book_first_spread(opts->page, opts->backward),
                                             leaves, opts->backward)};
    if (replay) {
        src = (PoseSource){.trace = replay, .ink = ink};
        app_zoom_init(&src.zoom);
        app_book_init_reader(&src.flip, page, app_book_source_pages(app_book_stream_source(book)),
                             0, opts->reduced_motion);
        double end =
            (replay->count ? replay->events[replay->count - 1].time : 0.0) + APP_REPLAY_TAIL;
        if (!opts->frames)
            frames = (uint32_t)ceil(end * APP_REPLAY_HZ) + 1;
    }
    if (opts->frames_out && !frames_out_ready(opts->frames_out, frames))
        return 1;
    int status = render_frames(ctx, page, book, opts, frames, &src, ink, notebook);
    if (status == 0 && app_signals_caught())
        return status;
    if (status == 0 && opts->frames_out)
        app_say(stdout, "%u frame(s) written to %s/frame-*.png", src.drawn, opts->frames_out);
    else if (status == 0 && !opts->screenshot && !opts->export_obj)
        app_say(stdout,
                "rendered %u headless frame(s) of a %ux%u page on %s; nothing written (use "
                "--screenshot, --export-obj or --frames-out)",
                src.drawn, page->grid.nx, page->grid.ny, ctx->props.deviceName);
    return status;
}
