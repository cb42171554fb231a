#include "window.h"

#include "../gpu/swapchain.h"
#include "camera.h"
#include "headless.h"
#include "input.h"

#include <SDL.h>
#include <SDL_vulkan.h>
#include <stdio.h>

bool app_window_open(const AppOptions *opts, AppWindow *out, char *message, size_t size)
{
    *out = (AppWindow){0};
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(message, size, "no display (%s)", SDL_GetError());
        return false;
    }
    out->sdl_started = true;
    out->window = SDL_CreateWindow("pagecurl", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   (int)opts->width, (int)opts->height,
                                   SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE |
                                       SDL_WINDOW_ALLOW_HIGHDPI);
    unsigned count = APP_WINDOW_MAX_EXTENSIONS;
    if (!out->window ||
        !SDL_Vulkan_GetInstanceExtensions(out->window, &count, out->extensions)) {
        snprintf(message, size, "no Vulkan window (%s)", SDL_GetError());
        app_window_close(out);
        return false;
    }
    out->extension_count = count;
    return true;
}

void app_window_close(AppWindow *win)
{
    if (win->window)
        SDL_DestroyWindow(win->window);
    if (win->sdl_started)
        SDL_Quit();
    *win = (AppWindow){0};
}

bool app_window_create_surface(void *user, VkInstance instance, VkSurfaceKHR *out)
{
    AppWindow *win = user;
    return SDL_Vulkan_CreateSurface(win->window, instance, out) == SDL_TRUE;
}

static VkExtent2D drawable_size(const AppWindow *win)
{
    int w = 0, h = 0;
    SDL_Vulkan_GetDrawableSize(win->window, &w, &h); /* pixels, not points: HiDPI-correct */
    if (SDL_GetWindowFlags(win->window) & SDL_WINDOW_MINIMIZED)
        w = h = 0;
    return (VkExtent2D){(uint32_t)w, (uint32_t)h};
}

/* What the loop owns besides the page. */
typedef struct WindowGpu {
    GpuSwapchain swapchain;
    GpuRenderer renderer;
    GpuFrame frames[GPU_FRAMES_IN_FLIGHT];
    uint64_t frame_number;
    bool stale; /* the swapchain must be rebuilt before the next frame */
} WindowGpu;

static void window_gpu_destroy(const GpuContext *ctx, WindowGpu *w)
{
    gpu_frames_destroy(ctx, w->frames);
    gpu_renderer_destroy(ctx, &w->renderer);
    gpu_swapchain_destroy(ctx, &w->swapchain);
}

/* Handles one event; false when the user asked to quit. */
static bool handle_event(const SDL_Event *e, const AppWindow *win, AppDrag *drag, WindowGpu *w)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(win->window, &ww, &wh); /* mouse coordinates are in window points */
    switch (e->type) {
    case SDL_QUIT:
        return false;
    case SDL_KEYDOWN:
        return e->key.keysym.sym != SDLK_ESCAPE;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT)
            app_drag_press(drag, (float)e->button.x / (float)ww, (float)e->button.y / (float)wh);
        return true;
    case SDL_MOUSEMOTION:
        app_drag_move(drag, (float)e->motion.x / (float)ww);
        return true;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            app_drag_release(drag);
        return true;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
            e->window.event == SDL_WINDOWEVENT_RESTORED)
            w->stale = true;
        return true;
    default:
        return true;
    }
}

/* One frame to the swapchain. False only on a failure worth stopping for. */
static bool draw(const AppWindow *win, const GpuContext *ctx, AppPage *page, WindowGpu *w,
                 AppTurn turn, GpuError *err)
{
    VkExtent2D size = drawable_size(win);
    if (size.width == 0 || size.height == 0)
        return true; /* minimised: nothing to draw into */
    if (w->stale || !w->swapchain.swapchain) {
        if (!gpu_swapchain_rebuild(ctx, size, w->renderer.depth_format, &w->swapchain, err))
            return false;
        w->stale = false;
        if (!w->swapchain.swapchain)
            return true;
    }
    GpuFrame *frame = &w->frames[w->frame_number % GPU_FRAMES_IN_FLIGHT];
    if (!gpu_frame_begin(ctx, frame, err)) /* waits for the frame before the previous one */
        return false;
    uint32_t index;
    VkResult r = gpu_swapchain_acquire(ctx, &w->swapchain, frame->slot, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        w->stale = true;
        return true;
    }
    if (r < 0)
        return gpu_error_set(err, "vkAcquireNextImageKHR failed: %s", gpu_result_name(r));
    CurlParams pose = mesh_curl_pose(turn.t, turn.g, page->grid.width, page->grid.height);
    app_page_deform(page, &pose, frame->slot);
    GpuRenderTarget target = gpu_swapchain_target(&w->swapchain, index);
    PcDrawPush push = app_camera_draw_push(target.extent.width, target.extent.height,
                                           page->grid.width, page->grid.height);
    GpuFrameWork work = app_page_work(page);
    work.renderer = &w->renderer;
    work.target = &target;
    work.draw = &push;
    gpu_frame_record(ctx, frame, &work);
    gpu_swapchain_record_present(frame->cmd, &w->swapchain, index);
    if (!gpu_frame_submit(ctx, frame, w->swapchain.acquired[frame->slot],
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          w->swapchain.render_done[index], err))
        return false;
    w->frame_number++;
    r = gpu_swapchain_present(ctx, &w->swapchain, index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
        w->stale = true;
    else if (r < 0)
        return gpu_error_set(err, "vkQueuePresentKHR failed: %s", gpu_result_name(r));
    return true;
}

int app_window_run(AppWindow *win, const GpuContext *ctx, AppPage *page, const AppOptions *opts)
{
    GpuError err = {0};
    WindowGpu w = {0};
    AppDrag drag = {.turn = {opts->has_curl ? opts->curl : 0.0f, opts->grab}};
    drag.target = drag.turn.t;
    bool ok = gpu_renderer_create(ctx, gpu_swapchain_pick_format(ctx), &w.renderer, &err) &&
              gpu_frames_create(ctx, w.frames, &err);
    bool running = ok, redraw = true;
    uint32_t frames = 0;
    uint64_t last = SDL_GetTicks64();
    while (running && ok) {
        SDL_Event e;
        /* Nothing moves and no frame count to reach: sleep until something happens. */
        bool idle = !redraw && !opts->frames && !drag.dragging && drag.turn.t == drag.target;
        if (idle && SDL_WaitEvent(&e)) {
            running = handle_event(&e, win, &drag, &w);
            redraw = true;
        }
        while (running && SDL_PollEvent(&e)) {
            running = handle_event(&e, win, &drag, &w);
            redraw = true;
        }
        uint64_t now = SDL_GetTicks64();
        redraw |= app_drag_step(&drag, (float)(now - last) / 1000.0f);
        last = now;
        if (!running || (!redraw && !opts->frames))
            continue;
        ok = draw(win, ctx, page, &w, drag.turn, &err);
        redraw = false;
        if (opts->frames && ++frames >= opts->frames)
            running = false;
    }
    int status = 0;
    if (!ok) {
        fprintf(stderr, "pagecurl: %s\n", err.message);
        status = 1;
    }
    gpu_frames_wait(ctx, w.frames, &err);
    window_gpu_destroy(ctx, &w);
    if (status == 0)
        status = app_headless_capture(ctx, page, opts, drag.turn);
    return status;
}
