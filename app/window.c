#include "window.h"
#include "say.h"

#include "../gpu/overlay.h"
#include "../gpu/swapchain.h"
#include "../book/book.h"
#include "../book/camera.h"
#include "../pages/content.h"
#include "frame_budget.h"
#include "../book/ink_texture.h"
#include "headless.h"
#include "../book/view.h"
#include "window_input.h"
#include "hud.h"
#include "input.h"
#include "where.h"
#include "screenshot.h"
#include "signals.h"

#include <SDL.h>
#include <SDL_vulkan.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_FAULT_ENV  "PAGECURL_FAULT"
#define WINDOW_FAULT_KIND "acquire"

/* PAGECURL_FAULT's acquire:N into *at (0 when the value is unset or names another kind of fault);
 * false when it names this kind and N is not a decimal number from 1 to UINT32_MAX. */
static bool fault_parse(const char *spec, uint32_t *at)
{
    *at = 0;
    size_t kind = strlen(WINDOW_FAULT_KIND);
    if (!spec || strncmp(spec, WINDOW_FAULT_KIND, kind) != 0)
        return true;
    const char *p = spec + kind, *digits = p + 1;
    if (*p != ':')
        return false;
    uint64_t n = 0;
    for (p = digits; *p >= '0' && *p <= '9' && n <= UINT32_MAX; p++)
        n = n * 10 + (uint64_t)(*p - '0');
    if (p == digits || *p || n == 0 || n > UINT32_MAX)
        return false;
    *at = (uint32_t)n;
    return true;
}

bool app_window_open(const AppOptions *opts, AppWindow *out, char *message, size_t size)
{
    *out = (AppWindow){0};
    const char *fault = getenv(WINDOW_FAULT_ENV);
    if (!fault_parse(fault, &out->fault_acquire))
        snprintf(out->fault_refused, sizeof out->fault_refused,
                 WINDOW_FAULT_ENV "=%.60s: want " WINDOW_FAULT_KIND
                                  ":N, N a whole number from 1 to %" PRIu32,
                 fault, UINT32_MAX);
    /* app/signals.c's handlers stop the loop and save; SDL's would only queue an SDL_QUIT */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(message, size, "no display (%s)", SDL_GetError());
        return false;
    }
    out->sdl_started = true;
    out->window = SDL_CreateWindow(
        "pagecurl", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, (int)opts->width,
        (int)opts->height, SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    unsigned count = APP_WINDOW_MAX_EXTENSIONS;
    if (!out->window || !SDL_Vulkan_GetInstanceExtensions(out->window, &count, out->extensions)) {
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

VkExtent2D app_window_drawable_size(const AppWindow *win)
{
    int w = 0, h = 0;
    SDL_Vulkan_GetDrawableSize(win->window, &w, &h); /* pixels, not points: HiDPI-correct */
    if (SDL_GetWindowFlags(win->window) & SDL_WINDOW_MINIMIZED)
        w = h = 0;
    return (VkExtent2D){(uint32_t)w, (uint32_t)h};
}

/* Frames whose motion is remembered until their GPU times come back: twice the frames in flight,
 * as the times of a slot's last frame arrive while its next is being drawn. */
#define WINDOW_MOVING_RING (2 * GPU_FRAMES_IN_FLIGHT)

/* A test hook, not a user option: with --quality auto, start at the high tier on any device (a
 * GPU's start, on lavapipe) and take this many milliseconds as the frame budget, so that the
 * window's step down can be tested. */
#define WINDOW_STEP_BUDGET_ENV "PAGECURL_STEP_BUDGET_MS"

/* A save says so in the window for this long (F12/P's file, a notebook that failed). */
#define WINDOW_TOAST_SECONDS 2.5

/* What the loop owns besides the page. */
typedef struct WindowGpu {
    AppView view; /* the swapchain's, timed for the HUD */
    GpuOverlay overlay;
    AppHud hud;
    AppScreenshot shot;
    bool stale; /* the swapchain must be rebuilt before the next frame */
    bool redo;  /* the last frame was given up or not shown (out of date): draw it again */
    /* PAGECURL_FAULT=acquire:N (AppWindow.fault_acquire) */
    uint32_t fault_at; /* the acquire that starts reporting out of date; 0: none */
    uint64_t acquires; /* acquires so far */
    bool faulting;     /* reporting out of date until the swapchain is rebuilt */
    AppFrameBudget budget;
    int refresh_hz; /* the display's, 0 when it does not say */
    bool step_due;  /* the budget was missed: step down before the next frame */
    bool forced;    /* the budget is the test hook's */
    /* whether the leaf moved in each of the last frames drawn, by frame number */
    bool moving[WINDOW_MOVING_RING];
    char title[APP_WHERE_MAX + 64]; /* the window's, as last set */
    double toast_until;             /* hud.toast shows until then (the session's clock) */
    bool notebook_failed;           /* the toast has said the notebook could not be saved */
    AppPageField field;             /* G: go to a page */
    const AppBookSource *source;    /* the book's pages: the field looks in them */
    bool field_skip;                /* the G that opened the field is no text of it */
} WindowGpu;

static void window_gpu_destroy(const GpuContext *ctx, WindowGpu *w)
{
    gpu_frames_wait(ctx, w->view.frames, &(GpuError){0});
    gpu_overlay_destroy(ctx, &w->overlay);
    app_screenshot_destroy(ctx, &w->shot);
    app_view_destroy(ctx, &w->view);
}

/* A finished frame's stage times: to the HUD, in the stages' order, and their sum (the frame's
 * GPU time) to the budget when the leaf moved in it. */
static void frame_times(void *user, const AppViewTimes *times)
{
    WindowGpu *w = user;
    double ms[GPU_STAGE_COUNT], gpu_ms = 0.0;
    const char *names[GPU_STAGE_COUNT];
    uint32_t n = 0;
    for (int s = 0; s < GPU_STAGE_COUNT; s++)
        if (times->ran[s]) {
            ms[n] = times->ms[s], names[n++] = gpu_stage_name(s);
            gpu_ms += times->ms[s];
        }
    app_hud_stages(&w->hud, ms, names, n);
    if (app_frame_budget_add(&w->budget, gpu_ms, w->moving[times->frame % WINDOW_MOVING_RING]))
        w->step_due = true;
}

/* Whether the leaf the frame shows has moved since the frame before: a turn settling, a drag
 * whose pointer moved. A held leaf standing still is not motion a frame can miss. */
static bool leaf_moved(const MeshFlipView *shown, const MeshFlipView *before)
{
    return shown->turning &&
           (!before->turning || shown->turning_leaf != before->turning_leaf ||
            shown->pointer[0] != before->pointer[0] || shown->pointer[1] != before->pointer[1]);
}

/* The low tier from the next frame on, once the budget was missed: the renderer's tier parts and
 * the swapchain's targets made anew; the pages, the ink and the turn stay. Said once, with why. */
static bool step_down(const GpuContext *ctx, WindowGpu *w, GpuError *err)
{
    w->step_due = false;
    if (!app_view_set_quality(ctx, &w->view, GPU_QUALITY_LOW, err))
        return false;
    w->stale = true;
    w->hud.quality = gpu_quality_name(w->view.renderer.quality);
    char hz[32];
    snprintf(hz, sizeof hz, "%d Hz%s",
             w->refresh_hz > 0 ? w->refresh_hz : APP_FRAME_BUDGET_DEFAULT_HZ,
             w->refresh_hz > 0 ? "" : ", assumed");
    /* the HUD's line short enough for a small window; stderr's says where the budget came from */
    snprintf(w->hud.note, sizeof w->hud.note,
             "stepped down: GPU %.1f ms a moving frame (median of %d) > %.3g ms budget (%s)",
             w->budget.median_ms, APP_FRAME_BUDGET_FRAMES, w->budget.budget_ms,
             w->forced ? "test" : hz);
    fprintf(stderr,
            "pagecurl: stepped down to low quality: the GPU took %.1f ms a moving frame (median "
            "of the last %d), over the %.3g ms budget (%s)\n",
            w->budget.median_ms, APP_FRAME_BUDGET_FRAMES, w->budget.budget_ms,
            w->forced ? "set by " WINDOW_STEP_BUDGET_ENV : hz);
    return true;
}

/* The title and the HUD say where the reader is and which mode the pointer is in: "pagecurl:
 * 4-5 / 16", with ", ink (I: turn pages)" in ink mode. The pages are those of the spread the
 * book is heading to (a turn's, and the turns queued behind it), so that the title answers a key
 * at once and, thumbing through, counts the presses rather than lagging the leaves in the air;
 * at rest it is the spread shown. SDL is told only when the title changes. */
static void show_where(const AppWindow *win, const AppPage *page, const AppBookStream *book,
                       const AppSession *session, WindowGpu *w)
{
    VkExtent2D size = app_window_drawable_size(win);
    MeshFlipView view = mesh_flip_view(&session->flip);
    app_where_line(app_book_stream_source(book), view.heading,
                   app_book_one_page(page, size.width, size.height), w->hud.where,
                   sizeof w->hud.where);
    w->hud.ink_mode = session->ink_mode;
    char title[sizeof w->title];
    snprintf(title, sizeof title, "pagecurl: %s%s", w->hud.where,
             session->ink_mode ? ", ink (I: turn pages)" : "");
    if (strcmp(title, w->title)) {
        SDL_SetWindowTitle(win->window, title);
        memcpy(w->title, title, sizeof title);
    }
}

/* Handles one event; false when the user asked to quit. */
/* The page field's share of the events while it is open: text, Backspace, Tab, Enter (the book
 * opens at the page, as a trace's goto), Escape (closes it); it takes every key. False for an
 * event that is not its own. */
static bool field_event(const SDL_Event *e, const AppWindow *win, const AppPage *page,
                        AppSession *session, WindowGpu *w, double now)
{
    AppPageField *f = &w->field;
    if (e->type == SDL_TEXTINPUT) {
        bool opener = w->field_skip && (!strcmp(e->text.text, "g") || !strcmp(e->text.text, "G"));
        w->field_skip = false;
        if (!opener)
            app_page_field_type(f, w->source, e->text.text);
        return true;
    }
    if (e->type != SDL_KEYDOWN)
        return false;
    SDL_Keycode key = e->key.keysym.sym;
    if (key == SDLK_F11 || key == SDLK_F12)
        return false; /* fullscreen and the screenshot still work */
    if (key != SDLK_g)
        w->field_skip = false;
    if (key == SDLK_ESCAPE) {
        app_page_field_close(f);
    } else if (key == SDLK_BACKSPACE) {
        app_page_field_erase(f, w->source);
    } else if (key == SDLK_TAB) {
        app_page_field_next(f, w->source);
    } else if ((key == SDLK_RETURN || key == SDLK_KP_ENTER) && f->page) {
        AppTraceEvent go = {
            .time = now, .device = APP_TRACE_KEY, .action = APP_TRACE_GOTO, .page = f->page};
        app_page_field_close(f);
        if (!session->replay)
            app_session_apply(app_window_drawable_size(win), page, session, &go);
    }
    return true;
}

static bool handle_event(const SDL_Event *e, const AppWindow *win, const AppPage *page,
                         AppSession *session, WindowGpu *w, double now)
{
    if (e->type == SDL_QUIT)
        return false;
    if (w->field.open && field_event(e, win, page, session, w, now)) {
        if (w->field.open)
            app_page_field_text(&w->field, w->source, w->hud.field, sizeof w->hud.field);
        else
            w->hud.field[0] = '\0';
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_ESCAPE)
        return false;
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_g && !e->key.repeat &&
        !session->replay) {
        app_page_field_open(&w->field);
        w->field_skip = true;
        app_page_field_text(&w->field, w->source, w->hud.field, sizeof w->hud.field);
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_h) {
        w->hud.shown = !w->hud.shown;
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_i && !e->key.repeat) {
        session->ink_mode = !session->ink_mode;
        return true;
    }
    if (e->type == SDL_KEYDOWN && !e->key.repeat &&
        (e->key.keysym.sym == SDLK_F12 || e->key.keysym.sym == SDLK_p)) {
        session->want_shot = true;
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_F11) {
        bool full = SDL_GetWindowFlags(win->window) & SDL_WINDOW_FULLSCREEN_DESKTOP;
        SDL_SetWindowFullscreen(win->window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
        w->stale = true; /* the size-changed event follows; rebuild in any case */
        return true;
    }
    if (e->type == SDL_WINDOWEVENT) {
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
            e->window.event == SDL_WINDOWEVENT_RESTORED)
            w->stale = true;
        return true;
    }
    AppTraceEvent inputs[APP_SESSION_MAX_EVENTS];
    int n = session->replay ? 0 : app_session_trace_events(e, win->window, session, now, inputs);
    for (int i = 0; i < n; i++) {
        const AppTraceEvent *input = &inputs[i];
        session->input_ms = e->common.timestamp ? e->common.timestamp : SDL_GetTicks64();
        if (input->action == APP_TRACE_MOVE && input->device != APP_TRACE_INK) {
            session->move = *input, session->move_due = true; /* ink keeps every point */
            continue;
        }
        VkExtent2D size = app_window_drawable_size(win);
        app_session_apply_move(size, page, session);
        app_session_apply(size, page, session, input);
    }
    return true;
}

/* The HUD over the frame: drawn into the swapchain image before it is presented. */
static void draw_hud(const GpuContext *ctx, const AppPage *page, const AppSpread *spread,
                     const CurlParams *pose, WindowGpu *w, const GpuFrame *frame,
                     const GpuRenderTarget *target)
{
    const float margin = 8.0f;
    AppCameraBook camera =
        app_book_camera(spread, pose, page, target->extent.width, target->extent.height);
    float scale =
        app_hud_scale(&w->hud, &camera, target->extent.width, target->extent.height, margin);
    uint32_t quads = app_hud_quads(&w->hud, gpu_overlay_vertices(&w->overlay, frame->slot),
                                   (size_t)GPU_OVERLAY_MAX_QUADS * 4 * PC_OVERLAY_VERTEX_BYTES);
    gpu_overlay_record(ctx, frame->cmd, &w->overlay, frame->slot, target, quads, scale, margin,
                       margin);
}

/* What one frame adds to the picture: a copy for a screenshot, the page's vertices for OBJ. */
typedef struct DrawExtras {
    bool shot, vertices;
} DrawExtras;

/* One frame's window side, for app_view_frame's hooks. */
typedef struct WindowFrame {
    const GpuContext *ctx;
    const AppPage *page;
    WindowGpu *w;
    DrawExtras extras;
    AppSpread spread; /* as drawn: the HUD keeps clear of the book where the camera shows it */
    CurlParams pose;
    uint32_t index; /* the swapchain image acquired */
} WindowFrame;

/* The next image, unless PAGECURL_FAULT says this acquire finds the swapchain out of date. */
static VkResult acquire_image(const GpuContext *ctx, WindowGpu *w, uint32_t slot, uint32_t *index)
{
    w->acquires++;
    if (w->fault_at && w->acquires == w->fault_at) {
        w->faulting = true;
        app_say(stderr, WINDOW_FAULT_ENV ": acquire %" PRIu64 " reports the swapchain out of date",
                w->acquires);
    }
    if (w->faulting)
        return VK_ERROR_OUT_OF_DATE_KHR; /* as a driver does: no image, no semaphore signalled */
    return gpu_swapchain_acquire(ctx, &w->view.swapchain, slot, index);
}

static bool acquire(void *user, const GpuFrame *frame, AppViewTarget *out, GpuError *err)
{
    WindowFrame *wf = user;
    GpuSwapchain *sc = &wf->w->view.swapchain;
    VkResult r = acquire_image(wf->ctx, wf->w, frame->slot, &wf->index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        wf->w->stale = wf->w->redo = true;
        out->skip = true;
        return true;
    }
    if (r < 0)
        return gpu_error_set(err, "vkAcquireNextImageKHR failed: %s", gpu_result_name(r));
    out->target = gpu_swapchain_target(sc, wf->index);
    out->wait = sc->acquired[frame->slot];
    out->wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    out->signal = sc->render_done[wf->index];
    return true;
}

static bool finish(void *user, const GpuFrame *frame, const AppViewTarget *target, GpuError *err)
{
    WindowFrame *wf = user;
    WindowGpu *w = wf->w;
    if (w->hud.shown || w->hud.field[0] || w->hud.toast[0])
        draw_hud(wf->ctx, wf->page, &wf->spread, &wf->pose, w, frame, &target->target);
    if (wf->extras.shot &&
        !app_screenshot_record(wf->ctx, frame->cmd, &w->shot, &w->view.swapchain, wf->index, err))
        return false;
    gpu_swapchain_record_present(frame->cmd, &w->view.swapchain, wf->index);
    return true;
}

/* One frame to the swapchain. False only on a failure worth stopping for. */
static bool draw(const AppWindow *win, const GpuContext *ctx, AppPage *page, WindowGpu *w,
                 const MeshFlipView *view, const AppZoomView *zoom, const MeshInk *ink,
                 DrawExtras extras, GpuError *err)
{
    w->shot.taken = false;
    w->redo = false;
    VkExtent2D size = app_window_drawable_size(win);
    if (size.width == 0 || size.height == 0)
        return true; /* minimised: nothing to draw into */
    GpuSwapchain *sc = &w->view.swapchain;
    if (w->stale || !sc->swapchain) {
        if (!gpu_swapchain_rebuild(ctx, size, &w->view.renderer, sc, err))
            return false;
        if (sc->swapchain && sc->writable)
            gpu_renderer_prepare(ctx, &w->view.renderer, sc->extent);
        w->stale = w->faulting = false;
        if (!sc->swapchain)
            return true;
    }
    WindowFrame wf = {.ctx = ctx,
                      .page = page,
                      .w = w,
                      .extras = extras,
                      .spread = app_book_spread(view),
                      .pose = app_book_pose(view, page)};
    wf.spread.zoom = *zoom;
    AppViewHooks hooks = {.user = &wf, .acquire = acquire, .finish = finish};
    AppViewFrame frame = {
        /* the turning leaf, posed so that its grabbed point lies under the pointer */
        .pose = wf.pose, .spread = wf.spread, .ink = ink, .readback_vertices = extras.vertices,
        .hooks = &hooks,
    };
    AppViewHost host;
    if (!app_view_frame(ctx, &w->view, &frame, &host, err))
        return false;
    if (host.skipped)
        return true;
    VkResult r = gpu_swapchain_present(ctx, sc, wf.index);
    VkExtent2D now = app_window_drawable_size(win);
    bool resized = now.width != sc->extent.width || now.height != sc->extent.height;
    /* out of date must be rebuilt; suboptimal only when the size really changed (a rebuild for
     * a mere transform hint would stall every frame on some compositors) */
    if (r == VK_ERROR_OUT_OF_DATE_KHR)
        w->stale = w->redo = true; /* the image may never have been shown */
    else if (r == VK_SUBOPTIMAL_KHR && resized)
        w->stale = true;
    else if (r < 0)
        return gpu_error_set(err, "vkQueuePresentKHR failed: %s", gpu_result_name(r));
    return true;
}

/* A step of the zoom (a key, a double-click, a wheel's notch) waits a moment for the pages in
 * view to be drawn at the density it shows, so that its first frame is sharp: on a slow device
 * the magnified frame and then the sharp one would take two frames' time. A page slower to draw
 * than the wait shows magnified until it is drawn. */
#define WINDOW_DETAIL_HOLD 0.08
static void hold_for_detail(AppPage *page, AppBookStream *book, WindowGpu *w,
                            const MeshFlipView *view, const AppZoomView *zoom)
{
    AppViewFrame frame = {.pose = app_book_pose(view, page), .spread = app_book_spread(view)};
    frame.spread.zoom = *zoom;
    app_view_want_detail(&w->view, &frame, w->view.swapchain.extent);
    app_book_stream_detail_now(book, WINDOW_DETAIL_HOLD);
}

/* --screenshot / --export-obj on the way out: the view shown last, drawn once more (and shown)
 * with its pixels and the turning leaf's vertices read back. Returns the exit status. */
static int write_exit_files(const AppWindow *win, const GpuContext *ctx, AppPage *page,
                            WindowGpu *w, const MeshFlipView *view, const AppZoomView *zoom,
                            const MeshInk *ink, const AppOptions *opts)
{
    GpuError err = {0};
    DrawExtras extras = {.shot = opts->screenshot != NULL, .vertices = opts->export_obj != NULL};
    uint64_t before = w->view.frame_number;
    /* a swapchain found out of date is rebuilt by the next attempt */
    for (int attempt = 0; attempt < 3 && w->view.frame_number == before; attempt++)
        if (!draw(win, ctx, page, w, view, zoom, ink, extras, &err) ||
            !app_view_wait(ctx, &w->view, &err)) {
            app_say(stderr, "%s", err.message);
            return 1;
        }
    if (w->view.frame_number == before || (opts->screenshot && !w->shot.taken)) {
        app_say(stderr, "nothing written: the window %s",
                w->view.frame_number == before ? "shows nothing (minimised)"
                                               : "images cannot be read back");
        return 1;
    }
    char message[256];
    uint8_t *rgba = opts->screenshot ? app_screenshot_rgba(ctx, &w->shot, &w->view.swapchain,
                                                           message, sizeof message)
                                     : NULL;
    if (opts->screenshot && !rgba) {
        app_say(stderr, "cannot write %s: %s", opts->screenshot, message);
        return 1;
    }
    /* the leaf as the last frame read it back (after its fence) */
    pagecurl_leaf leaf = {.size = sizeof leaf,
                          .columns = page->grid.nx,
                          .rows = page->grid.ny,
                          .width = page->grid.width,
                          .height = page->grid.height,
                          .vertex_count = (uint32_t)page->grid.vertex_count,
                          .triangle_count = (uint32_t)page->grid.triangle_count,
                          .vertices = page->gpu.readback.mapped,
                          .indices = page->grid.indices};
    if (opts->export_obj)
        gpu_buffer_invalidate(ctx, &page->gpu.readback);
    int status =
        app_headless_write(opts, w->view.swapchain.extent.width, w->view.swapchain.extent.height,
                           rgba, opts->export_obj ? &leaf : NULL);
    free(rgba);
    return status;
}

static double elapsed_ms(uint64_t from, uint64_t to)
{
    return (double)(to - from) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

/* How far ahead of the clock a moving frame is posed: the time from posing a frame to its present
 * returning, smoothed over the last few turning frames, at most this (a stall is not a period). */
#define WINDOW_LEAD_MAX       0.1
#define WINDOW_LEAD_SMOOTHING 0.25

static void lead_update(double *lead, double seconds)
{
    double s = seconds < WINDOW_LEAD_MAX ? seconds : WINDOW_LEAD_MAX;
    *lead += WINDOW_LEAD_SMOOTHING * (s - *lead);
}

/* The first frames show the book at rest as the start of a turn, its leaf still flat: lavapipe
 * then builds the turning frame's draw states and first touches its memory (some 60 ms at
 * 320x200) before anyone presses a key, instead of on the first turn's first frame. */
static MeshFlipView warm_view(const MeshFlip *flip, double now)
{
    MeshFlip warm = *flip;
    if (!mesh_flip_next(&warm, now) && !mesh_flip_prev(&warm, now))
        return mesh_flip_view(flip);
    return mesh_flip_view(&warm);
}

/* The view on the swapchain (timed for the HUD), with the ink drawn so far, and the overlay. */
static bool window_gpu_create(const AppWindow *win, const GpuContext *ctx, const AppOptions *opts,
                              AppPage *page, AppBookStream *book, const MeshInk *ink, WindowGpu *w,
                              GpuError *err)
{
    w->hud.device = ctx->props.deviceName;
    w->source = app_book_stream_source(book);
    w->field.match = -1;
    w->fault_at = win->fault_acquire;
    SDL_DisplayMode display;
    w->refresh_hz = SDL_GetWindowDisplayMode(win->window, &display) == 0 ? display.refresh_rate : 0;
    const char *forced = getenv(WINDOW_STEP_BUDGET_ENV);
    double forced_ms = forced ? strtod(forced, NULL) : 0.0;
    bool test_start = opts->quality == GPU_QUALITY_AUTO && forced_ms > 0.0;
    w->forced = test_start;
    AppViewDesc desc = {
        .kind = APP_VIEW_SWAPCHAIN,
        .renderer = {.color_format = gpu_swapchain_pick_format(ctx),
                     .quality = test_start ? GPU_QUALITY_HIGH : opts->quality,
                     .max_samples = opts->msaa,
                     .show_through = opts->show_through},
        .timed = true,
        .stage_times = true, /* the HUD shows each stage */
        .book = book,
    };
    if (!app_view_create(ctx, &desc, page, &w->view, err) ||
        !app_ink_texture_upload(&w->view.ink, ink, ctx, &w->view.renderer.ink, err) ||
        !gpu_overlay_create(ctx, w->view.renderer.color_format, &w->overlay, err))
        return false;
    w->hud.quality = gpu_quality_name(w->view.renderer.quality);
    w->budget =
        app_frame_budget_init(test_start ? forced_ms : app_frame_budget_ms(w->refresh_hz),
                              app_frame_budget_applies(opts->quality, w->view.renderer.quality));
    w->view.on_times = frame_times;
    w->view.times_user = w;
    static const VkPresentModeKHR modes[] = {VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
                                             VK_PRESENT_MODE_IMMEDIATE_KHR};
    VkPresentModeKHR *mode = &w->view.swapchain.present_mode;
    *mode = gpu_swapchain_pick_present_mode(ctx, modes[opts->present_mode]);
    if (*mode != modes[opts->present_mode])
        app_say(stderr, "the window cannot present that way here; using fifo (vsync)");
    return true;
}

int app_window_run(AppWindow *win, const GpuContext *ctx, AppPage *page, AppBookStream *book,
                   const AppOptions *opts, const AppTrace *replay, MeshInk *ink,
                   AppNotebook *notebook)
{
    if (win->fault_refused[0]) {
        app_say(stderr, "%s", win->fault_refused);
        return 2;
    }
    GpuError err = {0};
    WindowGpu w = {0};
    AppSession session = {.replay = replay,
                          .sharp_ms = -1.0,
                          .ink = ink,
                          .right_bound = page->desc.rtl,
                          .start = (double)SDL_GetTicks64() / 1000.0};
    app_book_init_reader(&session.flip, page, app_book_source_pages(app_book_stream_source(book)),
                         app_book_first_spread(opts->page, false), opts->reduced_motion);
    app_zoom_init(&session.zoom);
    bool ok = window_gpu_create(win, ctx, opts, page, book, ink, &w, &err);
    /* the HUD's frame time runs from the end of the frame before, or from waking up */
    uint64_t since = SDL_GetPerformanceCounter();
    bool running = ok, redraw = true, zoomed = false;
    uint32_t frames = 0;
    /* A turning frame shows the flip as it will be when presented, not as it was when posed: the
     * first frame after a key press then shows the leaf lifting, where the spring (from rest) has
     * not moved yet. The state machine itself stays on the real clock (input times are never
     * clamped to a time looked ahead at); a replay keeps its fixed clock. Kept across idle spells:
     * a turn's first frame is posed by the frames of the turns before it. */
    double lead = 1.0 / 60.0;
    double posed_at = 0.0; /* never before the last frame's moment, when the lead shrinks fast */
    MeshFlipView last_shown = {0};
    double clock = 0.0;         /* the loop's latest moment: the exit's frame shows the view then */
    uint64_t details_shown = 0; /* the stream's details uploaded by the last frame shown */
    while (running && ok) {
        SDL_Event e;
        /* A replay runs on its own clock; otherwise, with nothing moving and no frame count to
         * reach, sleep until something happens. */
        double replay_end = replay && replay->count
                                ? replay->events[replay->count - 1].time + APP_REPLAY_TAIL
                                : 0.0;
        double sim = frames / APP_REPLAY_HZ;
        bool replaying = replay && sim <= replay_end;
        /* a replay without --frames ends with its trace (and its tail), as headless: it takes no
         * input of its own to go on with */
        if (replay && !opts->frames && !replaying && frames >= GPU_FRAMES_IN_FLIGHT)
            running = false;
        MeshFlipView before = mesh_flip_view_at(&session.flip, app_session_seconds(&session));
        bool idle = !redraw && !opts->frames && !replaying && !before.turning &&
                    !(before.lift > 0.0f) && /* the view still eases back to rest */
                    !app_zoom_moving(&session.zoom, app_session_seconds(&session));
        /* a bounded wait: a stop signal is seen within 0.1 s, and a page or a sharper view the
         * stream is drawing within a few milliseconds of being done */
        if (idle && SDL_WaitEventTimeout(&e, app_book_stream_busy(book) ? 4 : 100)) {
            since = SDL_GetPerformanceCounter();
            running =
                handle_event(&e, win, page, &session, &w, app_session_event_time(&e, &session));
            redraw = true;
        }
        while (running && SDL_PollEvent(&e)) {
            running =
                handle_event(&e, win, page, &session, &w, app_session_event_time(&e, &session));
            redraw = true;
        }
        app_session_apply_move(app_window_drawable_size(win), page, &session);
        running = running && !app_signals_caught();
        double now = replay ? sim : app_session_seconds(&session);
        clock = now;
        app_session_replay_until(&session, app_window_drawable_size(win), page, now);
        bool moved = mesh_flip_step(&session.flip, now);
        redraw |= moved || replaying;
        MeshFlipView view = mesh_flip_view_at(&session.flip, now);
        show_where(win, page, book, &session, &w);
        redraw |= view.turning;     /* a held page is drawn every frame, moved or not */
        redraw |= view.lift > 0.0f; /* the view eases back to rest */
        bool zooming = app_zoom_moving(&session.zoom, now); /* a flick coasts, a zoom eases */
        redraw |= zooming || zoomed; /* and once more where it comes to rest (book/zoom.c) */
        zoomed = zooming;
        /* pages drawn, to show; a frame while they are still being drawn would show nothing new
         * and take the cores from the drawing */
        redraw |= app_book_stream_news(book);
        /* the notebook keeps the reader's place: the spread the book heads for */
        int pages = app_book_source_pages(app_book_stream_source(book));
        notebook->at = view.heading > 0 ? (2 * view.heading < pages ? 2 * view.heading : pages) : 1;
        app_notebook_keep(notebook, session.ink, false);
        if (notebook->failed && !w.notebook_failed) {
            w.notebook_failed = true;
            snprintf(w.hud.toast, sizeof w.hud.toast,
                     "the notebook could not be saved (see the terminal)");
            w.toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
        }
        if (w.hud.toast[0] && now >= w.toast_until) {
            w.hud.toast[0] = '\0';
            redraw = true;
        }
        if (replaying && !moved && !view.turning && !(view.lift > 0.0f) && !zooming) {
            /* nothing moves until the next event (or the end): its frames would all be alike */
            double due =
                session.next < replay->count ? replay->events[session.next].time : replay_end;
            if (due * APP_REPLAY_HZ > frames + 1.0)
                frames = (uint32_t)(due * APP_REPLAY_HZ) - 1;
        }
        if (!running || (!redraw && !opts->frames))
            continue;
        uint64_t drawn = w.view.frame_number, posed = SDL_GetPerformanceCounter();
        posed_at = now + lead > posed_at ? now + lead : posed_at;
        MeshFlipView shown = replay ? view
                             : frames < GPU_FRAMES_IN_FLIGHT && !view.turning
                                 ? warm_view(&session.flip, now)
                                 : mesh_flip_view_at(&session.flip, posed_at);
        VkExtent2D size = app_window_drawable_size(win);
        AppZoomView zoom = app_book_zoom_view(&session.zoom, &shown, page, size.width, size.height,
                                              replay ? now : posed_at);
        if (session.zoom_step && !shown.turning && w.view.swapchain.swapchain)
            hold_for_detail(page, book, &w, &shown, &zoom);
        session.zoom_step = false;
        /* the warm-up frames build lavapipe's draw states: no motion the user watches */
        w.moving[w.view.frame_number % WINDOW_MOVING_RING] =
            frames >= GPU_FRAMES_IN_FLIGHT && leaf_moved(&shown, &last_shown);
        ok = (!w.step_due || step_down(ctx, &w, &err)) &&
             draw(win, ctx, page, &w, &shown, &zoom, session.ink,
                  (DrawExtras){.shot = session.want_shot}, &err);
        last_shown = shown;
        if (ok && w.view.frame_number != drawn) {
            uint64_t details = app_book_stream_details(book);
            app_session_sharp(&session, details != details_shown);
            details_shown = details;
            if (view.turning)
                lead_update(&lead, elapsed_ms(posed, SDL_GetPerformanceCounter()) / 1000.0);
            double latency = app_session_shown(&session, moved);
            if (latency >= 0.0)
                app_hud_latency(&w.hud, latency);
            uint64_t now_tick = SDL_GetPerformanceCounter();
            app_hud_frame(&w.hud, elapsed_ms(since, now_tick));
            since = now_tick;
            if (session.want_shot && (ok = app_view_wait(ctx, &w.view, &err))) {
                app_screenshot_save(ctx, &w.shot, &w.view.swapchain, opts->screenshot, w.hud.toast,
                                    sizeof w.hud.toast);
                w.toast_until = now + WINDOW_TOAST_SECONDS;
            }
            session.want_shot = false;
        }
        /* the book as it is after the warm-up; a frame given up is drawn again */
        redraw = frames < GPU_FRAMES_IN_FLIGHT || w.redo;
        frames++;
        if (opts->frames && frames >= opts->frames)
            running = false;
    }
    int status = 0;
    if (!ok) {
        app_say(stderr, "%s", err.message);
        status = 1;
    } else if ((opts->screenshot || opts->export_obj) && !app_signals_caught()) {
        MeshFlipView view = mesh_flip_view_at(&session.flip, clock);
        VkExtent2D size = app_window_drawable_size(win);
        AppZoomView zoom =
            app_book_zoom_view(&session.zoom, &view, page, size.width, size.height, clock);
        status = write_exit_files(win, ctx, page, &w, &view, &zoom, session.ink, opts);
    }
    uint64_t shown = w.view.frame_number; /* the view forgets it when destroyed */
    window_gpu_destroy(ctx, &w);
    char message[512];
    /* the trace is the user's input: kept whatever ended the session */
    if (opts->record && !app_trace_save(opts->record, &session.record, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    } else if (opts->record) {
        app_say(stdout, "%zu input events written to %s", session.record.count, opts->record);
    }
    app_trace_free(&session.record);
    app_session_summary(&session, shown);
    return status;
}
