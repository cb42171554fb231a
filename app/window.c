#include "window.h"

#include "../gpu/swapchain.h"
#include "book.h"
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

/* Window point (SDL's mouse units) -> the book's plane, through the camera of the last frame. */
static bool to_page(const AppWindow *win, const AppPage *page, int px, int py, float *x, float *y)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(win->window, &ww, &wh);
    VkExtent2D size = drawable_size(win);
    if (size.width == 0 || size.height == 0 || ww <= 0 || wh <= 0)
        return false;
    /* HiDPI: the drawable has more pixels than the window has points */
    float sx = (float)size.width / (float)ww, sy = (float)size.height / (float)wh;
    return app_camera_unproject(size.width, size.height, page->grid.width, page->grid.height,
                                (float)px * sx, (float)py * sy, x, y);
}

/* Handles one event; false when the user asked to quit. */
static bool handle_event(const SDL_Event *e, const AppWindow *win, const AppPage *page,
                         MeshFlip *flip, WindowGpu *w, double now)
{
    float x, y;
    switch (e->type) {
    case SDL_QUIT:
        return false;
    case SDL_KEYDOWN:
        switch (e->key.keysym.sym) {
        case SDLK_ESCAPE:
            return false;
        case SDLK_RIGHT:
        case SDLK_PAGEDOWN:
            mesh_flip_next(flip, now);
            return true;
        case SDLK_LEFT:
        case SDLK_PAGEUP:
            mesh_flip_prev(flip, now);
            return true;
        default:
            return true;
        }
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT && to_page(win, page, e->button.x, e->button.y,
                                                           &x, &y))
            mesh_flip_press(flip, x, y, now);
        return true;
    case SDL_MOUSEMOTION:
        if (to_page(win, page, e->motion.x, e->motion.y, &x, &y))
            mesh_flip_move(flip, x, y, now);
        return true;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT)
            mesh_flip_release(flip, now);
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
                 const MeshFlipView *view, GpuError *err)
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
    /* the turning leaf, posed so that its grabbed point lies under the pointer */
    MeshVec2 grab = {view->grab[0], view->grab[1]}, pointer = {view->pointer[0], view->pointer[1]};
    CurlParams pose = mesh_curl_drag(grab, pointer, page->grid.width, page->grid.height);
    app_page_deform(page, &pose, frame->slot);
    GpuRenderTarget target = gpu_swapchain_target(&w->swapchain, index);
    AppSpread spread = app_book_spread(view);
    AppBookDraws draws;
    app_book_draws(&spread, page, &w->renderer, target.extent.width, target.extent.height,
                   &draws);
    GpuFrameWork work = app_page_work(page);
    work.renderer = &w->renderer;
    work.target = &target;
    work.draws = draws.draws;
    work.draw_count = draws.count;
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

static double seconds(void)
{
    return (double)SDL_GetTicks64() / 1000.0;
}

int app_window_run(AppWindow *win, const GpuContext *ctx, AppPage *page, const AppOptions *opts)
{
    GpuError err = {0};
    WindowGpu w = {0};
    MeshFlip flip;
    mesh_flip_init(&flip, &(MeshFlipDesc){.width = page->grid.width,
                                          .height = page->grid.height,
                                          .page_count = APP_WINDOW_LEAVES});
    bool ok = gpu_renderer_create(ctx, gpu_swapchain_pick_format(ctx), &w.renderer, &err) &&
              gpu_frames_create(ctx, w.frames, &err);
    bool running = ok, redraw = true;
    uint32_t frames = 0;
    while (running && ok) {
        SDL_Event e;
        /* Nothing moves and no frame count to reach: sleep until something happens. */
        bool idle = !redraw && !opts->frames && !mesh_flip_view(&flip).turning;
        if (idle && SDL_WaitEvent(&e)) {
            running = handle_event(&e, win, page, &flip, &w, seconds());
            redraw = true;
        }
        while (running && SDL_PollEvent(&e)) {
            running = handle_event(&e, win, page, &flip, &w, seconds());
            redraw = true;
        }
        redraw |= mesh_flip_step(&flip, seconds());
        MeshFlipView view = mesh_flip_view(&flip);
        redraw |= view.turning; /* a held page is drawn every frame, moved or not */
        if (!running || (!redraw && !opts->frames))
            continue;
        ok = draw(win, ctx, page, &w, &view, &err);
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
    /* --screenshot / --export-obj: the pose --curl and --grab name, as headless would draw it */
    if (status == 0)
        status = app_headless_capture(ctx, page, opts, (AppTurn){opts->curl, opts->grab});
    return status;
}
