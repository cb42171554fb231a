#include "headless.h"

#include "../gpu/offscreen.h"
#include "book.h"
#include "output.h"

#include <stdio.h>

/* What an offscreen run owns besides the page. */
typedef struct Offscreen {
    GpuRenderer renderer;
    GpuOffscreen target;
    GpuFrame frames[GPU_FRAMES_IN_FLIGHT];
} Offscreen;

static void offscreen_destroy(const GpuContext *ctx, Offscreen *off)
{
    gpu_frames_destroy(ctx, off->frames);
    gpu_offscreen_destroy(ctx, &off->target);
    gpu_renderer_destroy(ctx, &off->renderer);
}

static bool offscreen_create(const GpuContext *ctx, const AppOptions *opts, Offscreen *off,
                             GpuError *err)
{
    *off = (Offscreen){0};
    VkExtent2D extent = {opts->width, opts->height};
    if (gpu_renderer_create(ctx, GPU_OFFSCREEN_FORMAT, &off->renderer, err) &&
        gpu_offscreen_create(ctx, extent, off->renderer.depth_format, &off->target, err) &&
        gpu_frames_create(ctx, off->frames, err))
        return true;
    offscreen_destroy(ctx, off);
    return false;
}

static int write_outputs(const GpuContext *ctx, const AppPage *page, const Offscreen *off,
                         const AppOptions *opts)
{
    char message[512];
    if (opts->screenshot) {
        gpu_buffer_invalidate(ctx, &off->target.pixels);
        if (!app_output_png(opts->screenshot, opts->width, opts->height, off->target.pixels.mapped,
                            message, sizeof message)) {
            fprintf(stderr, "pagecurl: %s\n", message);
            return 1;
        }
        printf("pagecurl: screenshot written to %s\n", opts->screenshot);
    }
    if (opts->export_obj) {
        gpu_buffer_invalidate(ctx, &page->gpu.readback);
        if (!app_output_obj(opts->export_obj, &page->grid, page->gpu.readback.mapped, message,
                            sizeof message)) {
            fprintf(stderr, "pagecurl: %s\n", message);
            return 1;
        }
        printf("pagecurl: page mesh written to %s\n", opts->export_obj);
    }
    return 0;
}

/* Renders `frames` frames, each at `fixed` or else the scripted turn; reads back the last. */
static int render_frames(const GpuContext *ctx, AppPage *page, const AppOptions *opts,
                         uint32_t frames, const AppTurn *fixed)
{
    GpuError err = {0};
    Offscreen off;
    if (!offscreen_create(ctx, opts, &off, &err)) {
        fprintf(stderr, "pagecurl: %s\n", err.message);
        return 1;
    }
    GpuRenderTarget target = gpu_offscreen_target(&off.target);
    AppBookDraws draws;
    app_book_draws(&APP_SPREAD_FIRST_TURN, page, &off.renderer, opts->width, opts->height, &draws);
    bool ok = true;
    for (uint32_t f = 0; f < frames && ok; f++) {
        AppTurn turn = fixed ? *fixed : app_input_scripted(f, frames, opts->grab);
        CurlParams pose = mesh_curl_pose(turn.t, turn.g, page->grid.width, page->grid.height);
        bool last = f + 1 == frames;
        GpuFrame *frame = &off.frames[f % GPU_FRAMES_IN_FLIGHT];
        ok = gpu_frame_begin(ctx, frame, &err);
        if (!ok)
            break;
        app_page_deform(page, &pose, frame->slot);
        GpuFrameWork work = app_page_work(page);
        work.readback_vertices = last && opts->export_obj;
        work.renderer = &off.renderer;
        work.target = &target;
        work.draws = draws.draws;
        work.draw_count = draws.count;
        gpu_frame_record(ctx, frame, &work);
        if (last)
            gpu_offscreen_record_readback(ctx, frame->cmd, &off.target);
        ok = gpu_frame_submit(ctx, frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, &err);
    }
    ok = ok && gpu_frames_wait(ctx, off.frames, &err);
    int status = 1;
    if (!ok)
        fprintf(stderr, "pagecurl: %s\n", err.message);
    else
        status = write_outputs(ctx, page, &off, opts);
    offscreen_destroy(ctx, &off);
    return status;
}

int app_headless_run(const GpuContext *ctx, AppPage *page, const AppOptions *opts)
{
    uint32_t frames = opts->frames ? opts->frames : (opts->has_curl ? 1 : APP_SCRIPTED_FRAMES);
    AppTurn fixed = {opts->curl, opts->grab};
    int status = render_frames(ctx, page, opts, frames, opts->has_curl ? &fixed : NULL);
    if (status == 0 && !opts->screenshot && !opts->export_obj)
        printf("pagecurl: rendered %u headless frame(s) of a %ux%u page on %s; nothing written "
               "(use --screenshot / --export-obj)\n",
               frames, page->grid.nx, page->grid.ny, ctx->props.deviceName);
    return status;
}

int app_headless_capture(const GpuContext *ctx, AppPage *page, const AppOptions *opts,
                         AppTurn turn)
{
    if (!opts->screenshot && !opts->export_obj)
        return 0;
    return render_frames(ctx, page, opts, 1, &turn);
}
