/* SPDX-License-Identifier: MIT */
/* A book held open, framed: an update steps the flip to the host's time (its events derived),
 * readies the frame's pose, spread and zoom, makes the view (and the stream, for the first
 * viewport's width) and streams the pages it shows; the frame is then recorded into the host's
 * target or drawn into the book's own image. What the book shows, for the host's state, is read
 * here too: the layout's slide to a page alone runs on the frames' clock. */
#include "open_frame.h"

#include "../gpu/offscreen.h"
#include "../shaders/shared.h"
#include "camera.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A search's matches highlighted on the side as it is drawn (book/search.h). The search is made
 * before it is read here or not at all: a book's search is never destroyed before its stream. */
static void stream_mark(void *user, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                        const PageRegion *region)
{
    BookOpen *b = user;
    BookSearch *search = __atomic_load_n(&b->search, __ATOMIC_ACQUIRE);
    if (search)
        book_search_mark(search, side, rgba, width, height, region);
    BookSelection *selection = __atomic_load_n(&b->selection, __ATOMIC_ACQUIRE);
    if (selection)
        book_selection_mark(selection, side, rgba, width, height, region);
}

static void stream_warn(void *user, int side, const char *line)
{
    BookOpen *b = user;
    book_events_error(&b->events, side + 1, line);
}

static void stream_ready(void *user, int side)
{
    BookOpen *b = user;
    book_events_push(&b->events, BOOK_EVENT_PAGE_READY)->page = side + 1;
}

static bool stream_stopped(void *user)
{
    const BookOpen *b = user;
    return b->stop && b->stop(b->stop_user);
}

/* --- state ----------------------------------------------------------------------------------- */

/* layout.alone at `time`: eased in and out (smootherstep) from where it was to where it goes. */
static float alone_at(const BookOpen *b, double time)
{
    double u = (time - b->alone.since) / BOOK_READER_SLIDE_TIME;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    float e = (float)(u * u * u * (u * (6.0 * u - 15.0) + 10.0));
    return b->alone.from + (b->alone.to - b->alone.from) * e;
}

void book_open_state(const BookOpen *b, BookOpenState *out)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    GpuQuality tier = b->view_made                     ? b->view.renderer.quality
                      : b->quality != GPU_QUALITY_AUTO ? b->quality
                      : b->gpu->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? GPU_QUALITY_LOW
                                                                                : GPU_QUALITY_HIGH;
    BookOpenState s = {.single = b->width && book_one_page(&b->layout, b->width, b->height),
                       .streaming = b->stream && book_stream_busy(b->stream),
                       .pages_ready = b->stream && book_stream_news(b->stream),
                       .quality = tier,
                       .turning = view.turning,
                       .held = view.phase == MESH_FLIP_DRAGGING,
                       .progress = view.turning ? view.progress : 0.0f,
                       .moving = view.phase == MESH_FLIP_SETTLING ||
                                 view.phase == MESH_FLIP_FADING ||
                                 (view.phase == MESH_FLIP_IDLE && view.lift > 0.0f) ||
                                 book_zoom_moving(&b->zoom, b->seen_time) ||
                                 b->zoom_rounded || /* the next frame draws it exactly */
                                 book_reader_sliding(&b->reader, &view, b->seen_time) ||
                                 alone_at(b, b->seen_time) != b->alone.to,
                       .bound_right = b->layout.rtl,
                       .drawing = b->ink.drawing + 1,
                       .page = book_reader_page(&b->reader, &view),
                       .hold = b->held.on,
                       .hold_progress = b->held.on ? b->held.progress : 0.0f};
    if (s.page > b->pages)
        s.page = 0; /* closed on a last leaf's blank back */
    book_events_spread_pages(b->pages, b->layout.rtl, view.spread, &s.left, &s.right);
    /* the turns queued behind a settling leaf count (thumbing through); a drag's end is the
     * hand's, so a held leaf heads where it would land if let go now */
    int heading = view.heading;
    if (heading == view.spread && view.turning && view.completing)
        heading += view.direction == MESH_FLIP_FORWARD ? 1 : -1;
    book_events_spread_pages(b->pages, b->layout.rtl, heading, &s.heading_left, &s.heading_right);
    *out = s;
}

/* --- frames ---------------------------------------------------------------------------------- */

/* A finished frame's stage times (book/view.c hands them on), kept for the host. */
static void took_times(void *user, const BookViewTimes *times)
{
    BookOpen *b = user;
    b->times = *times;
    b->times_valid = true;
}

static bool make_view(BookOpen *b, BookViewKind kind, uint32_t width, uint32_t height,
                      GpuError *err)
{
    const GpuContext *ctx = b->gpu;
    if (kind == BOOK_VIEW_HOSTED && b->target_format) {
        VkFormatProperties props;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, b->target_format, &props);
        VkFormatFeatureFlags need =
            VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
        if ((props.optimalTilingFeatures & need) != need)
            return gpu_error_set(err, "target_format %d: the device cannot draw and blend in it",
                                 (int)b->target_format);
    }
    if (b->view_made) {
        /* a new size: the host's frames may still read the old image */
        if (!gpu_queue_idle(ctx, err))
            return false;
        return book_view_resize(ctx, &b->view, width, height, err);
    }
    /* the pages are drawn for the width the first viewport shows a page at, as the program
     * draws them for its window's or image's: half of it for a spread, or as wide as the page
     * is where its height fills the view (a landscape view's spread: at 1920x1080 a page is
     * shown 793 px wide, and 960-texel layers held 13 of their 101 MB for no pixel at rest; the
     * detail draws what is zoomed); for one page, all of it (a portrait view's: drawn at half
     * its width, its print showed magnified), or as wide as its height allows */
    if (!b->stream && !b->source)
        return gpu_error_set(err, "the book's pages could not be streamed (out of memory)");
    if (!b->stream) {
        char message[512];
        bool one = book_one_page(&b->layout, width, height);
        float page_width = fminf(one ? (float)width : 0.5f * (float)width,
                                 (float)height / pages_book_source_aspect(b->source));
        b->stream = book_stream_create(b->source, (uint32_t)lrintf(page_width * b->page_detail),
                                       message, sizeof message);
        b->source = NULL; /* the stream's now, made or not */
        if (!b->stream)
            return gpu_error_set(err, "%s", message);
        book_stream_set_hooks(b->stream, &(BookStreamHooks){.user = b,
                                                            .warn = stream_warn,
                                                            .ready = stream_ready,
                                                            .stopped = stream_stopped,
                                                            .mark = stream_mark});
        if (b->page_seconds != 0.0f) /* below 0: none */
            book_stream_set_page_limit(b->stream, b->page_seconds);
        if (b->first_wait_ms)
            book_stream_set_first_wait(b->stream, b->first_wait_ms / 1000.0);
        book_stream_prime(b->stream, &b->spread); /* drawn while the view is made */
    }
    BookViewDesc desc = {
        .kind = kind,
        .width = width,
        .height = height,
        .timed = b->timed,
        .book = b->stream,
        .renderer = {.quality = b->quality,
                     .max_samples = b->max_samples,
                     .samples = b->target_samples,
                     /* a host's frames in its targets' format, copied in (0: the view's own) */
                     .color_format = kind == BOOK_VIEW_HOSTED ? b->target_format : 0,
                     /* the pipelines match the host's pass's depth (0: the device's) */
                     .depth_format = kind == BOOK_VIEW_HOSTED ? b->target_depth_format : 0,
                     .shadow_size = gpu_shadow_size(width, height),
                     .show_through = b->show_through},
    };
    if (!book_view_create(ctx, &desc, &b->leaf, &b->view, err))
        return false;
    b->view_made = true;
    b->view.on_times = took_times;
    b->view.times_user = b;
    return book_view_ink_upload(ctx, &b->view, &b->ink, err);
}

/* A posed leaf (book_open_hold) at an end of its turn lies flat on one side; in the one-page
 * layout at rest on the other side's page that side is not drawn (book/book.c), nor is the leaf:
 * else its edge shows past the spine in the view's margin. */
static bool held_beside(const BookOpen *b)
{
    float t = b->held.progress, a = b->layout.left_page;
    bool right = b->held.backward ? t >= 1.0f : t <= 0.0f;
    bool left = b->held.backward ? t <= 0.0f : t >= 1.0f;
    return b->width && book_one_page(&b->layout, b->width, b->height) &&
           ((right && a >= 1.0f) || (left && a <= 0.0f));
}

/* The auto layout's page alone (book_alone) for the spread of `view` at `time`, from the
 * pages' shapes known (layout.print): aimed afresh only while no leaf turns (a turn ends in the
 * framing it began in, then goes on to its spread's), and at once (`cut`) before the book is
 * first framed or with reduced motion. */
static void follow_alone(BookOpen *b, const MeshFlipView *view, double time, bool cut)
{
    if (!view->turning && b->width) {
        float aspect = b->leaf.grid.height / b->leaf.grid.width;
        float want = book_alone(&b->layout, aspect, b->width, b->height) ? 1.0f : 0.0f;
        if (want != b->alone.to) {
            b->alone.from = alone_at(b, time);
            b->alone.to = want, b->alone.since = time;
        }
    }
    if (cut || view->reduced_motion)
        b->alone.from = b->alone.to;
    b->layout.alone = alone_at(b, time);
}

/* The book at `time` (a time that is not finite: where it was), its events derived, and the
 * frame's pose and spread readied. */
static void step(BookOpen *b, double time)
{
    if (isfinite(time))
        mesh_flip_step(&b->flip, time), b->seen_time = time;
    MeshFlipView now = mesh_flip_view_at(&b->flip, b->seen_time);
    book_events_derive(&b->events, &b->flip, &now, &b->ink, b->pages, b->layout.rtl);
    b->seen = now;
    /* the frame shows the book at its moment on the screen (BookOpen.lead); input and
     * events stay on the clock */
    double shown = b->seen_time;
    if (b->lead > 0.0) {
        shown = b->seen_time + b->lead > b->posed_at ? b->seen_time + b->lead : b->posed_at;
        b->posed_at = shown;
    }
    MeshFlipView view = mesh_flip_view_at(&b->flip, shown);
    book_reader_follow(&b->reader, &view, shown);
    b->layout.left_page = book_reader_left_page(&b->reader, &view, shown);
    if (b->held.on && !view.turning) {
        int leaves = (b->pages + 1) / 2;
        b->spread = book_spread_at(view.spread, leaves, b->held.backward);
        b->pose = book_turn_pose(&b->spread, b->held.progress, b->held.grab, &b->leaf, &b->layout);
        if (b->hold_radius > 0.0f)
            book_pose_radius(&b->pose, b->hold_radius, &b->leaf);
        b->spread.progress = b->held.progress; /* the camera widens with it, as in --curl */
        if (view.reduced_motion) { /* the cross-fade at that point, as --curl --reduced-motion */
            b->pose = book_turn_pose(&b->spread, 0.0f, b->held.grab, &b->leaf, &b->layout);
            book_spread_fading(&b->spread, b->held.progress);
        } else if (held_beside(b)) {
            b->spread.turning = false;
        }
    } else {
        b->spread = book_spread(&view);
        b->pose = book_pose(&view, &b->leaf, &b->layout);
    }
    if (b->stream) /* the shapes of the pages drawn so far */
        book_stream_prints(b->stream, &b->spread, &b->layout);
    b->alone.at = shown;
    follow_alone(b, &view, shown, !b->alone.shown);
    if (!b->held.on) /* a turn from a zoomed view has landed: the zoom comes back */
        book_settle_zoom(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, shown);
    BookZoomView exact =
        book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, shown);
    /* A pan on its way (the view moved since the frame before, at the same scale, and not
     * BOOK_ZOOM_PAN_REST ago) is drawn on whole pixels: the renderer then moves the last frame's
     * picture instead of drawing it anew (gpu/renderer.h, GpuStillCache). Once it has rested that
     * long the view is drawn exactly, and the book moves until then. */
    bool panned = !exact.hosted && exact.scale == b->zoom_exact.scale &&
                  book_zoom_enlarged(&exact) &&
                  (exact.x != b->zoom_exact.x || exact.y != b->zoom_exact.y);
    if (panned)
        b->panned_at = shown;
    else if (exact.hosted || exact.scale != b->zoom_exact.scale || !book_zoom_enlarged(&exact))
        b->panned_at = -INFINITY; /* a zoom of another scale is no pan */
    b->zoom_exact = exact;
    exact.scaling = book_zoom_easing(&b->zoom, shown);
    b->spread.zoom = exact;
    b->zoom_rounded = shown - b->panned_at < BOOK_ZOOM_PAN_REST && b->width && b->height;
    if (b->zoom_rounded) {
        BookSpread spread = book_spread(&view);
        BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &b->layout, b->width, b->height);
        b->spread.zoom = book_zoom_whole_pixels(exact, b->width, b->height, &fit);
    }
}

/* The tier book_open_set_quality asked for, taken by the view made before it. */
static bool requalify(BookOpen *b, GpuError *err)
{
    if (!b->quality_asked)
        return true;
    b->quality_asked = false;
    return book_view_set_quality(b->gpu, &b->view, b->quality, err);
}

/* The view for a frame of `kind` at `size` (drawable's checks passed): made, or made anew for
 * another size, and drawing by the tier last asked for. */
static bool ready_view(BookOpen *b, BookViewKind kind, VkExtent2D size, GpuError *err)
{
    if ((!b->view_made || size.width != b->width || size.height != b->height) &&
        !make_view(b, kind, size.width, size.height, err))
        return false;
    b->width = size.width, b->height = size.height;
    return requalify(b, err);
}

static void redraw_side(void *user, int side)
{
    book_stream_redraw(user, side);
}

/* The pages whose search marks changed since the last frame are drawn again (shown as they were
 * until then), so that a count that finds matches on a page in view highlights them there. */
static void redraw_marked(BookOpen *b)
{
    if (b->search && b->stream)
        book_search_take_changed(b->search, redraw_side, b->stream);
    if (b->selection && b->stream)
        book_selection_take_changed(b->selection, redraw_side, b->stream);
}

bool book_open_update(BookOpen *b, double time, BookViewTarget how, VkExtent2D size,
                      VkExtent2D depth, GpuError *err)
{
    if (!ready_view(b, BOOK_VIEW_HOSTED, size, err) ||
        !book_view_host_target(b->gpu, &b->view, how, depth, err))
        return false;
    step(b, time);
    b->alone.shown = true;
    b->recorded_slot = 0;
    b->view.pass_ready = false; /* a frame readied for the host's pass is drawn before this */
    if (b->detail_hold > 0.0) { /* the pages this frame shows, drawn for it while it waits */
        BookViewFrame shown = {.pose = b->pose, .spread = b->spread, .layout = b->layout};
        book_view_want_detail(&b->view, &shown, size);
        book_stream_detail_now(b->stream, b->detail_hold);
        b->detail_hold = 0.0;
    }
    redraw_marked(b);
    if (!book_view_stream(b->gpu, &b->view, &b->ink, &b->spread, b->wait_for_pages, err))
        return false;
    if (b->stream) /* the pages just uploaded framed at their shapes in this frame */
        book_stream_prints(b->stream, &b->spread, &b->layout);
    return true;
}

/* A target drawn straight into, after the book's pass: in its final layout, the pass's writes
 * made available to whatever the host does next. */
static void drawn_straight(const GpuContext *ctx, VkCommandBuffer cmd, const BookTarget *t)
{
    GpuImageBarrier after = {
        .image = t->image,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .new_layout = t->final_layout ? t->final_layout : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .dst_access = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
    };
    gpu_barriers(ctx, cmd, NULL, &after, 1);
}

void book_open_record_copy(BookOpen *b, VkCommandBuffer cmd, const BookTarget *t)
{
    const GpuContext *ctx = b->gpu;
    gpu_label_begin(ctx, cmd, "pagecurl second target");
    gpu_offscreen_record_blit(ctx, cmd, &b->view.offscreen,
                              &(GpuBlitTarget){.image = t->image,
                                               .format = t->format,
                                               .offset = t->offset,
                                               .extent = t->size,
                                               .layout = t->layout,
                                               .final_layout = t->final_layout,
                                               .src_stage = t->src_stage,
                                               .src_access = t->src_access});
    gpu_label_end(ctx, cmd);
}

bool book_open_record(BookOpen *b, VkCommandBuffer cmd, uint32_t slot, const BookTarget *t,
                      GpuError *err)
{
    const GpuContext *ctx = b->gpu;
    bool direct = t->view != VK_NULL_HANDLE;
    /* a leaf asked for is read by this frame alone: one buffer, read once the host has waited */
    bool read = b->read_leaf_next && b->leaf.desc.readback;
    BookViewFrame frame = {.pose = b->pose,
                           .spread = b->spread,
                           .layout = b->layout,
                           .ink = &b->ink,
                           .readback_vertices = read,
                           .target_generation = direct ? t->generation : 0,
                           .background_set = t->background_set};
    memcpy(frame.background.float32, t->background, sizeof t->background);
    b->read_leaf_next = false;
    b->leaf_read = b->leaf_read || read;
    bool recorded;
    gpu_label_begin(ctx, cmd, "pagecurl");
    if (direct) {
        /* the host's layout and last use met in its own command buffer, so that the slot's
         * commands start from the same layout whatever the host's */
        GpuImageBarrier before = {
            .image = t->image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = t->layout,
            .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .src_stage = t->src_stage ? t->src_stage : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .src_access = t->src_stage ? t->src_access : VK_ACCESS_2_MEMORY_WRITE_BIT,
            .dst_stage =
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
            .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
        };
        GpuRenderTarget straight = {
            .color = t->image,
            .color_view = t->view,
            .extent = t->size,
            .offset = t->offset,
            .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .color_src_stage =
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
            .copy_in = !t->keep, /* the image takes copies (the header asks it without keep) */
            .keep = t->keep,
        };
        gpu_barriers(ctx, cmd, NULL, &before, 1);
        recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, &straight, err);
        if (recorded)
            drawn_straight(ctx, cmd, t);
    } else if (t->in_pass) {
        /* what comes before the host's pass; book_open_draw draws in it */
        GpuRenderTarget pass = {.extent = t->size, .offset = t->offset, .in_pass = true};
        recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, &pass, err);
    } else if ((recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, NULL, err))) {
        gpu_offscreen_record_blit(ctx, cmd, &b->view.offscreen,
                                  &(GpuBlitTarget){.image = t->image,
                                                   .format = t->format,
                                                   .offset = t->offset,
                                                   .layout = t->layout,
                                                   .final_layout = t->final_layout,
                                                   .src_stage = t->src_stage,
                                                   .src_access = t->src_access});
    }
    gpu_label_end(ctx, cmd);
    if (!recorded)
        return false;
    b->recorded_slot = slot + 1; /* a second target may copy it */
    return true;
}

bool book_open_draw(BookOpen *b, VkCommandBuffer cmd, uint32_t slot, GpuError *err)
{
    const GpuContext *ctx = b->gpu;
    gpu_label_begin(ctx, cmd, "pagecurl in the host's pass");
    bool drawn = book_view_draw(ctx, &b->view, cmd, slot, err);
    gpu_label_end(ctx, cmd);
    return drawn;
}

bool book_open_render(BookOpen *b, double time, VkExtent2D size, uint8_t *rgba, bool read_leaf,
                      GpuError *err)
{
    const GpuContext *ctx = b->gpu;
    if (!ready_view(b, BOOK_VIEW_OFFSCREEN, size, err))
        return false;
    b->leaf_read = false;
    step(b, time);
    redraw_marked(b);
    if (!b->alone.shown && b->stream) {
        /* the first picture frames its pages at their shapes (the auto layout's page alone): its
         * pages drawn before its step is taken again, as its frame would wait for them anyway */
        if (!book_view_stream(ctx, &b->view, &b->ink, &b->spread, true, err))
            return false;
        book_stream_prints(b->stream, &b->spread, &b->layout);
        MeshFlipView view = mesh_flip_view_at(&b->flip, b->alone.at);
        follow_alone(b, &view, b->alone.at, true);
        if (b->held.on && !view.reduced_motion && held_beside(b)) /* now one page */
            b->spread.turning = false;
    }
    b->alone.shown = true;
    BookViewFrame frame = {.pose = b->pose,
                           .spread = b->spread,
                           .layout = b->layout,
                           .ink = &b->ink,
                           .readback_pixels = rgba != NULL,
                           .readback_vertices = read_leaf};
    /* one read-back buffer a view: a frame read waits for its copy */
    bool waits = rgba || read_leaf;
    if (!book_view_frame(ctx, &b->view, &frame, NULL, err) ||
        (waits && !book_view_wait(ctx, &b->view, err)))
        return false;
    if (rgba) {
        gpu_buffer_invalidate(ctx, &b->view.offscreen.pixels);
        memcpy(rgba, b->view.offscreen.pixels.mapped, (size_t)size.width * size.height * 4);
    }
    if (read_leaf) {
        gpu_buffer_invalidate(ctx, &b->leaf.gpu.readback);
        b->leaf_read = true;
    }
    return true;
}

const float *book_open_leaf_vertices(const BookOpen *b)
{
    if (!b->leaf_read)
        return NULL;
    /* a host's frame read it: the host has waited for it, the buffer is read here */
    if (b->view_made && b->view.kind == BOOK_VIEW_HOSTED)
        gpu_buffer_invalidate(b->gpu, &b->leaf.gpu.readback);
    return b->leaf.gpu.readback.mapped;
}

uint32_t book_open_head_row(const BookOpen *b)
{
    if (!b->width || !b->height)
        return 0;
    BookCameraBook book =
        book_camera(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height);
    PcDrawPush push = book_camera_draw_push(b->width, b->height, &book);
    const float *m = push.view_proj.m; /* column-major */
    float x = 0.5f * (book.lo + book.hi) * book.width, y = book.height;
    float cy = m[1] * x + m[5] * y + m[13], cw = m[3] * x + m[7] * y + m[15];
    float row = cw > 0.0f ? 0.5f * (cy / cw + 1.0f) * (float)b->height : 0.0f;
    float first = ceilf(row - 0.5f); /* rows are sampled at their centres */
    return first <= 0.0f ? 0u : first >= (float)b->height ? b->height : (uint32_t)first;
}
