/* SPDX-License-Identifier: MIT */
#include "view.h"

#include "../mesh/parallel.h"
#include "../mesh/split.h"
#include "page_renderer.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

static bool slot_create(const GpuContext *ctx, bool hosted, bool timed, uint32_t index,
                        BookFrameSlot *out, GpuError *err)
{
    return gpu_frame_create(ctx, index, hosted, &out->frame, err) &&
           (!timed || gpu_timer_create(ctx, &out->timer, err));
}

/* After its frame is done (slots_wait). */
static void slot_destroy(const GpuContext *ctx, BookFrameSlot *slot)
{
    gpu_frame_destroy(ctx, &slot->frame);
    gpu_timer_destroy(ctx, &slot->timer);
    gpu_buffer_destroy(ctx, &slot->split);
    memset(slot, 0, sizeof *slot);
}

/* Blocks until every slot's frame is done (before reading results or freeing resources). */
static bool slots_wait(const GpuContext *ctx, BookView *view, GpuError *err)
{
    bool ok = true;
    for (uint32_t i = 0; i < GPU_FRAMES_IN_FLIGHT; i++)
        ok = gpu_frame_wait(ctx, &view->slots[i].frame, err) && ok;
    return ok;
}

void book_view_destroy(const GpuContext *ctx, BookView *view)
{
    GpuError ignored;
    slots_wait(ctx, view, &ignored); /* what is in flight may use any slot's objects */
    for (uint32_t i = 0; i < GPU_FRAMES_IN_FLIGHT; i++)
        slot_destroy(ctx, &view->slots[i]);
    mesh_split_scratch_destroy(&view->split_scratch);
    gpu_offscreen_destroy(ctx, &view->offscreen);
    book_ink_texture_free(&view->ink);
    gpu_renderer_destroy(ctx, &view->renderer);
    memset(view, 0, sizeof *view);
}

static bool renderer_create(const GpuContext *ctx, const BookViewDesc *desc, BookView *out,
                            GpuError *err)
{
    GpuRendererDesc rdesc = desc->renderer;
    bool offscreen = desc->kind == BOOK_VIEW_OFFSCREEN || desc->kind == BOOK_VIEW_HOSTED;
    if (offscreen)
        rdesc.color_format = rdesc.color_format ? rdesc.color_format : GPU_OFFSCREEN_FORMAT;
    float aspect = out->leaf->grid.height / out->leaf->grid.width;
    int leaves = desc->leaves ? desc->leaves : BOOK_LEAVES;
    bool textures =
        desc->book
            ? book_stream_textures(desc->book, ctx, &rdesc, &out->renderer, &out->ink, err)
            : book_renderer_create(ctx, &rdesc, leaves, aspect, &out->renderer, err) &&
                  (book_ink_texture_init(&out->ink, out->renderer.ink.layers,
                                         out->renderer.ink.width, out->renderer.ink.height) ||
                   gpu_error_set(err, "out of memory for the ink's coverage"));
    VkExtent2D extent = {desc->width, desc->height};
    if (!textures ||
        (offscreen && !gpu_offscreen_create(ctx, extent, &out->renderer, &out->offscreen, err)))
        return false;
    if (offscreen)
        gpu_renderer_prepare(ctx, &out->renderer, extent);
    return true;
}

bool book_view_create(const GpuContext *ctx, const BookViewDesc *desc, BookLeaf *leaf,
                      BookView *out, GpuError *err)
{
    *out = (BookView){.kind = desc->kind,
                      .leaf = leaf,
                      .book = desc->book,
                      .width = desc->width,
                      .height = desc->height,
                      .timed = desc->timed,
                      .record = desc->record ? desc->record : gpu_chain_record,
                      .record_user = desc->record_user};
    bool ok = desc->kind == BOOK_VIEW_COMPUTE || renderer_create(ctx, desc, out, err);
    for (uint32_t i = 0; ok && i < GPU_FRAMES_IN_FLIGHT; i++)
        ok = slot_create(ctx, desc->kind == BOOK_VIEW_HOSTED, desc->timed, i, &out->slots[i], err);
    if (!ok)
        book_view_destroy(ctx, out);
    return ok;
}

/* Hands on the stage times of the frame a slot last ran, once its fence has signalled. */
static void collect(const GpuContext *ctx, BookView *view, uint32_t slot)
{
    BookFrameSlot *s = &view->slots[slot];
    if (!s->stamped)
        return;
    s->stamped = false;
    GpuTimerStage stages[GPU_TIMER_MAX];
    uint32_t n = gpu_timer_read(ctx, &s->timer, stages);
    if (n == 0) /* a frame the host dropped: its timestamps never came */
        return;
    BookViewTimes times = {.frame = s->stamped_frame};
    for (uint32_t i = 0; i < n; i++) {
        times.ms[stages[i].tag] = stages[i].ms;
        times.ran[stages[i].tag] = true;
    }
    if (view->on_times)
        view->on_times(view->times_user, &times);
}

bool book_view_wait(const GpuContext *ctx, BookView *view, GpuError *err)
{
    if (!slots_wait(ctx, view, err))
        return false;
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        collect(ctx, view, slot);
    return true;
}

/* The staging pack's interleave across the cores, as the CPU deform's loop (mesh/parallel.c). */
static void parallel_for(size_t n, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx)
{
    mesh_parallel_for(n, mesh_parallel_threads(), fn, ctx);
}

/* The sides a frame draws, for the stream's detail: told at once, so that a window that goes idle
 * after this frame still sees the stream busy with what the frame showed wants. */
static void remember_sides(BookView *view, const BookDraws *book, VkExtent2D extent)
{
    memcpy(view->sides, book->sides, sizeof view->sides);
    view->side_count = book->side_count;
    view->sides_extent = extent;
    if (view->book && view->kind != BOOK_VIEW_OFFSCREEN)
        book_stream_want_detail(view->book, view->sides, view->side_count, extent.width,
                                extent.height);
}

void book_view_want_detail(BookView *view, const BookViewFrame *desc, VkExtent2D extent)
{
    if (!view->book || view->kind == BOOK_VIEW_COMPUTE)
        return;
    BookDraws book = {0};
    book_draws(&desc->spread, &desc->pose, view->leaf, &desc->layout, &view->renderer, extent.width,
               extent.height, &book);
    remember_sides(view, &book, extent);
}

/* The recipe of the frame's commands (false: they are not to be kept): an offscreen or a host's
 * view's, whose chain runs on the device alone and whose renderer records the same commands for
 * the same draws (gpu_renderer_recipe). A window's frame draws into the image acquired and the
 * HUD. */
static bool recipe_of(const BookView *view, const BookViewFrame *desc, const GpuChainFrame *work,
                      uint32_t slot, BookViewRecipe *out)
{
    memset(out, 0, sizeof *out);
    const BookLeaf *leaf = view->leaf;
    if (view->kind == BOOK_VIEW_COMPUTE || leaf->path->cpu_deform || leaf->path->host_stage ||
        !gpu_renderer_recipe(&view->renderer, work->target, work->draws, work->draw_count, slot,
                             &out->render))
        return false;
    out->valid = true;
    out->leaf = leaf;
    out->made = leaf->made;
    out->readback_vertices = desc->readback_vertices;
    out->readback_pixels = desc->readback_pixels;
    out->target_generation = desc->target_generation;
    /* the host's image and view are named by handles that a remade one may reuse: kept only
     * while the host's generation says they are the same objects */
    return !(view->kind == BOOK_VIEW_HOSTED && view->direct && desc->target_generation == 0);
}

/* Whether the slot's last commands are the frame's (its recipe in `recipe`, kept where `keep`):
 * then only the draws' values are written for them; else the slot's are to be recorded anew. */
static bool reuse(BookView *view, uint32_t slot, const BookViewFrame *desc,
                  const GpuChainFrame *work, BookViewRecipe *recipe, bool *keep)
{
    *keep = recipe_of(view, desc, work, slot, recipe);
    if (*keep && !memcmp(&view->slots[slot].kept, recipe, sizeof *recipe)) {
        gpu_renderer_write_draws(&view->renderer, slot, work->draws, work->draw_count,
                                 work->target->extent);
        view->resubmitted++;
        return true;
    }
    view->slots[slot].kept.valid = false; /* its commands are recorded over */
    view->recorded++;
    return false;
}

/* What the split needs of the leaf's draw `d` seen in a target of `extent`. */
static MeshSplitView split_view(const GpuDraw *d, VkExtent2D extent)
{
    MeshSplitView v = {.pixels = {0.5f * (float)extent.width, 0.5f * (float)extent.height},
                       .thickness = PC_PAPER_THICKNESS * d->push.page.v[0]};
    memcpy(v.clip, d->push.view_proj.m, sizeof v.clip);
    /* the eye: the point the view sends to clip w = 0 on its axis, as page.vert finds it */
    mat4 m, inv;
    memcpy(m, d->push.view_proj.m, sizeof m);
    glm_mat4_inv(m, inv);
    vec4 eye;
    glm_mat4_mulv(inv, (vec4){0.0f, 0.0f, 1.0f, 0.0f}, eye);
    for (int k = 0; k < 3; k++) {
        v.eye[k] = eye[k] / eye[3];
        v.scale[k] = fabsf(d->push.model.v[k]);
    }
    return v;
}

/* Whether the view splits its turning leaf: the low tier on a software rasteriser only. The split
 * saves a rasteriser that shades every pixel in software the outline's shader where no outline
 * pixel lies; a GPU shades those cells for less than the CPU's time to find them (an H100: 0.09
 * ms of its 0.44 against 0.3-0.5 ms of the host's, BENCHMARKS.md). */
static bool splits(const BookView *view)
{
    return (gpu_renderer_tier_bits(&view->renderer) & PC_TIER_EDGE_AA) && view->renderer.software;
}

/* The low tier's turning leaf in `book` split by the pose and the view (mesh/split.h) into the
 * slot's index buffer, which no frame in flight reads: its cells that hold none of the outline's
 * pixels are drawn by a cheaper shader, and not again in the edge round (gpu/renderer_record.c).
 * A board, or a pose with no flat cell, is drawn whole. The buffers follow the leaf's grid: a leaf
 * regridded only after the view's frames are done (book_view_wait) lets them be made anew. */
static bool split_leaf(const GpuContext *ctx, BookView *view, const CurlParams *pose, uint32_t slot,
                       VkExtent2D extent, BookDraws *book, GpuError *err)
{
    if (!splits(view))
        return true;
    const MeshGrid *grid = &view->leaf->grid;
    size_t n = grid->triangle_count * 3;
    for (uint32_t i = 0; i < book->count; i++) {
        GpuDraw *d = &book->draws[i];
        uint32_t flags = (uint32_t)d->push.frame.v[3] % PC_FRAME_HEIGHT;
        if (!d->casts_shadow || d->index_count != n || (flags & PC_FRAME_BOARD))
            continue;
        if (view->split_indices != n) {
            mesh_split_scratch_destroy(&view->split_scratch);
            for (uint32_t s = 0; s < GPU_FRAMES_IN_FLIGHT; s++) {
                gpu_buffer_destroy(ctx, &view->slots[s].split);
                GpuBufferDesc desc = {.size = n * sizeof(uint32_t),
                                      .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                                      .memory = GPU_MEMORY_UPLOAD,
                                      .label = "leaf split"};
                if (!gpu_buffer_create(ctx, &desc, &view->slots[s].split, err)) {
                    view->split_indices = 0;
                    return false;
                }
            }
            if (!mesh_split_scratch_create(grid, &view->split_scratch)) {
                view->split_indices = 0;
                return gpu_error_set(err, "out of host memory for the turning leaf's split");
            }
            view->split_indices = n;
        }
        MeshSplitView seen = split_view(d, extent);
        view->split_scratch.unmerged = view->split_unmerged;
        MeshSplit split = mesh_split_plain(grid, pose, view->split_by_pose ? NULL : &seen,
                                           &view->split_scratch, view->slots[slot].split.mapped);
        view->rolled_plain += view->split_scratch.rolled;
        if (split.plain) {
            d->split = view->slots[slot].split.buffer;
            d->split_plain = (uint32_t)split.plain, d->split_count = (uint32_t)split.count;
        }
    }
    return true;
}

/* What a frame works out before its slot is free (book_view_frame): its draws and its curl
 * table. */
typedef struct Ahead {
    BookDraws book;
    CurlSegments curl;
} Ahead;

/* The ink made full (gpu_renderer_ink_full) once the book has a stroke to show, and the coverage
 * with it: its layers keep the pages they show, their strokes drawn again at the new size by the
 * next sync. */
static bool ink_ready(const GpuContext *ctx, BookView *view, const MeshInk *ink, GpuError *err)
{
    GpuRenderer *r = &view->renderer;
    if (!ink || !ink->points || (r->ink.width == r->ink_width && r->ink.height == r->ink_height))
        return true;
    BookInkTexture grown;
    if (!book_ink_texture_init(&grown, view->ink.layers, r->ink_width, r->ink_height))
        return gpu_error_set(err, "out of memory for the ink's coverage");
    if (!gpu_renderer_ink_full(ctx, r, err)) {
        book_ink_texture_free(&grown);
        return false;
    }
    memcpy(grown.side, view->ink.side, view->ink.layers * sizeof *grown.side);
    book_ink_texture_free(&view->ink);
    view->ink = grown;
    return true;
}

bool book_view_ink_upload(const GpuContext *ctx, BookView *view, const MeshInk *ink, GpuError *err)
{
    return ink_ready(ctx, view, ink, err) &&
           book_ink_texture_upload(&view->ink, ink, ctx, &view->renderer.ink, err);
}

/* A frame's commands, assembled alike for both back ends: book_view_frame submits them itself,
 * book_view_record has a host's command buffer execute them. Into the free `slot` (its fence
 * reset, where it has one) for `target`: the ink's changes, the pose's host side, the draws
 * (`ahead`: worked out with the curl table before the slot's wait; NULL: here), the leaf's split;
 * then the chain and what the frame reads back recorded (a host's secondary ended; the view's own
 * is ended by its submission), or, where the slot's last commands are the frame's (`recipe`, which
 * the back end keeps once they are submitted or executed: slot_done), only the draws' values
 * written for them. `pass_draws` (optional) gets the frame's draws, for a host's pass to draw
 * (book_view_draw). A host's view does not make its ink full here (that may wait: its update does,
 * book_view_stream), and runs no stage on the host (book_view_record refuses one). */
static bool assemble(const GpuContext *ctx, BookView *view, BookFrameSlot *slot,
                     const BookViewFrame *desc, const GpuRenderTarget *target, const Ahead *ahead,
                     BookViewHost *host, BookViewRecipe *recipe, BookDraws *pass_draws,
                     GpuError *err)
{
    GpuFrame *frame = &slot->frame;
    BookLeaf *leaf = view->leaf;
    bool draws = view->kind != BOOK_VIEW_COMPUTE, hosted = view->kind == BOOK_VIEW_HOSTED;
    /* The ink's changes go before the chain's host stages, so that every kind of view stages them
     * at the same point of the frame. */
    if (draws && !hosted && !ink_ready(ctx, view, desc->ink, err))
        return false;
    /* a host's ink is made full by its update (book_view_stream), which may wait: a stroke begun
     * since shows from the next frame */
    if (draws && (!hosted || view->renderer.ink.width == view->renderer.ink_width))
        book_ink_texture_update(&view->ink, desc->ink, &view->renderer.ink, frame->slot);
    /* a CPU deform in place writes the planes every frame in flight reads */
    if (leaf->path->cpu_deform && leaf->gpu.in_place && !slots_wait(ctx, view, err))
        return false;
    book_leaf_prepare(leaf, &desc->pose, ahead ? &ahead->curl : NULL, frame->slot, &host->deform);
    /* the draws worked out ahead are read in place but where the split marks them */
    bool split = draws && splits(view);
    const BookDraws *book = ahead ? &ahead->book : NULL;
    BookDraws here;
    if (!book || split) {
        if (book)
            here = *book;
        else if (draws)
            book_draws(&desc->spread, &desc->pose, leaf, &desc->layout, &view->renderer,
                       target->extent.width, target->extent.height, &here);
        else
            here = (BookDraws){0};
        book = &here;
    }
    if (split && !split_leaf(ctx, view, &desc->pose, frame->slot, target->extent, &here, err))
        return false;
    remember_sides(view, book, target->extent);
    GpuChainFrame work = {
        .leaf = &leaf->gpu,
        .slot = frame->slot,
        .readback_vertices = desc->readback_vertices,
        .renderer = draws ? &view->renderer : NULL,
        .target = target,
        .draws = book->draws,
        .draw_count = book->count,
        .timer = view->timed ? &slot->timer : NULL,
        .record = view->record,
        .record_user = view->record_user,
        .u = leaf->grid.u,
        .v = leaf->grid.v,
        .parallel_for = parallel_for,
    };
    if (pass_draws)
        *pass_draws = *book;
    bool keep;
    if (reuse(view, frame->slot, desc, &work, recipe, &keep))
        return true;
    host->recorded = true;
    if (!gpu_frame_start(ctx, frame, keep, err) ||
        !gpu_frame_record(ctx, frame, &leaf->chain, &work, &host->pack, err))
        return false;
    if (desc->readback_pixels && view->kind == BOOK_VIEW_OFFSCREEN)
        gpu_offscreen_record_readback(ctx, frame->cmd, &view->offscreen);
    return !hosted || gpu_frame_end(ctx, frame, err);
}

/* The slot's frame submitted or handed to the host: its commands' recipe kept, and its timer's
 * stamps read once the frame is done (collect). */
static void slot_done(BookView *view, BookFrameSlot *slot, const BookViewRecipe *recipe)
{
    slot->kept = *recipe;
    slot->stamped = view->timed;
    slot->stamped_frame = view->frame_number++;
}

/* The spread's pages into the pool's layers, and the spread told where they are. With `wait` the
 * frame waits for its pages (what a headless run writes is never paper), and ink layers given to
 * other pages get all of their strokes at once, as before the first frame; a window shows paper
 * until a page is drawn. */
bool book_view_stream(const GpuContext *ctx, BookView *view, const MeshInk *ink, BookSpread *spread,
                      bool wait, GpuError *err)
{
    if (!view->book || view->kind == BOOK_VIEW_COMPUTE)
        return true;
    if (!ink_ready(ctx, view, ink, err))
        return false;
    bool assigned = false;
    /* a run that waits for its pages wants its details itself (book_view_frame) */
    if (!wait)
        book_stream_want_detail(view->book, view->sides, view->side_count, view->sides_extent.width,
                                view->sides_extent.height);
    if (!book_stream_update(view->book, ctx, &view->renderer, &view->ink, spread, wait,
                            wait ? &assigned : NULL, err))
        return false;
    /* the layers given to other pages: their old strokes cleared and the new pages' drawn,
     * through the ink's upload ring, which the frames in flight do not use (no idle, no wait:
     * issue 53's steady state) */
    if (!assigned || !book_ink_texture_pending(&view->ink, ink))
        return true;
    return book_view_ink_upload(ctx, view, ink, err);
}

/* An offscreen view's sides at rest, in a picture read back, shown from details drawn for it
 * (their texels its pixels: the print as the source draws it at the scale shown, not a layer's
 * mip levels between two sizes), as a window's are once it holds still: wanted, and waited for
 * (at most this many seconds; a page past its time is given up sooner, and then its layer shows).
 * Only for a picture read back: a headless run's frames before its last (a replay's camera
 * settling by a hundredth of a pixel a frame) would each draw their pages again. */
#define VIEW_DETAIL_WAIT 120.0

static bool detail_at_rest(const GpuContext *ctx, BookView *view, const BookViewFrame *desc,
                           BookSpread *spread, GpuError *err)
{
    VkExtent2D extent = gpu_offscreen_target(&view->offscreen).extent;
    BookDraws book;
    book_draws(spread, &desc->pose, view->leaf, &desc->layout, &view->renderer, extent.width,
               extent.height, &book);
    if (!book.side_count || !book_stream_want_detail(view->book, book.sides, book.side_count,
                                                     extent.width, extent.height))
        return true;
    book_stream_detail_now(view->book, VIEW_DETAIL_WAIT);
    return book_view_stream(ctx, view, desc->ink, spread, true, err);
}

bool book_view_frame(const GpuContext *ctx, BookView *view, const BookViewFrame *desc,
                     BookViewHost *host, GpuError *err)
{
    BookViewHost spent = {0};
    BookViewFrame streamed = *desc;
    /* the pages' streaming is the frame's CPU work too (its waits for pages are not: asleep) */
    double cpu_stream = gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
    if (!book_view_stream(ctx, view, desc->ink, &streamed.spread, view->kind == BOOK_VIEW_OFFSCREEN,
                          err))
        return false;
    if (view->book) /* the pages just uploaded framed at their shapes in this frame */
        book_stream_prints(view->book, &streamed.spread, &streamed.layout);
    if (view->book && view->kind == BOOK_VIEW_OFFSCREEN && desc->readback_pixels &&
        !detail_at_rest(ctx, view, &streamed, &streamed.spread, err))
        return false;
    cpu_stream = gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu_stream;
    desc = &streamed;
    /* An offscreen view's target is known before its slot is free: the frame's draws (the
     * camera's fit and the pages' placements, work for the CPU alone) are worked out while the
     * device still runs the slot's last frame, not after the wait, when a host that slept in it
     * runs cold (on the H200's host every step after a wait of a millisecond took 2-3 times its
     * least). The CPU's own work is this and what follows the wait: a driver may spin in it. */
    Ahead early;
    bool ahead = view->kind == BOOK_VIEW_OFFSCREEN;
    double cpu_ahead = 0.0, wall_ahead = 0.0;
    if (ahead) {
        cpu_ahead = gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID);
        wall_ahead = gpu_clock_ms(CLOCK_MONOTONIC);
        VkExtent2D extent = gpu_offscreen_target(&view->offscreen).extent;
        book_draws(&desc->spread, &desc->pose, view->leaf, &desc->layout, &view->renderer,
                   extent.width, extent.height, &early.book);
        if (!view->leaf->path->cpu_deform)
            mesh_curl_segments(&desc->pose, &early.curl);
        cpu_ahead = gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu_ahead;
        wall_ahead = gpu_clock_ms(CLOCK_MONOTONIC) - wall_ahead;
    }
    BookFrameSlot *slot = &view->slots[view->frame_number % GPU_FRAMES_IN_FLIGHT];
    GpuFrame *frame = &slot->frame;
    if (!gpu_frame_wait(ctx, frame, err)) /* the frame the slot ran last */
        return false;
    double cpu0 = gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID), wall0 = gpu_clock_ms(CLOCK_MONOTONIC);
    collect(ctx, view, frame->slot);
    GpuRenderTarget target = {0};
    if (view->kind == BOOK_VIEW_OFFSCREEN)
        target = gpu_offscreen_target(&view->offscreen);
    BookViewRecipe recipe;
    if (!gpu_frame_reset(ctx, frame, err) ||
        !assemble(ctx, view, slot, desc, &target, ahead ? &early : NULL, &spent, &recipe, NULL,
                  err) ||
        !gpu_frame_submit(ctx, frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err)) {
        gpu_frame_abandon(ctx, frame, VK_NULL_HANDLE, 0); /* the fence signals again */
        return false;
    }
    slot_done(view, slot, &recipe);
    spent.cpu = cpu_stream + cpu_ahead + gpu_clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    spent.wall = wall_ahead + gpu_clock_ms(CLOCK_MONOTONIC) - wall0;
    if (host)
        *host = spent;
    return true;
}

/* The view's offscreen made anew for its size, tier and target: its own image, or only the depth
 * for a host's images drawn straight into. Nothing in flight may use the old one. */
static bool offscreen_remake(const GpuContext *ctx, BookView *view, GpuError *err)
{
    gpu_offscreen_destroy(ctx, &view->offscreen);
    view->pass_ready = false;
    VkExtent2D extent = {view->width, view->height};
    if (view->in_pass) /* the host's rendering has all the frame draws into */
        return true;
    if (view->direct ? !gpu_offscreen_create_depth(ctx, view->direct_extent, &view->renderer,
                                                   &view->offscreen, err)
                     : !gpu_offscreen_create(ctx, extent, &view->renderer, &view->offscreen, err))
        return false;
    gpu_renderer_prepare(ctx, &view->renderer, extent);
    return true;
}

bool book_view_set_quality(const GpuContext *ctx, BookView *view, GpuQuality quality, GpuError *err)
{
    /* a hosted view's frames are the host's: the queue idle is the only sign they are done */
    bool idle =
        view->kind == BOOK_VIEW_HOSTED ? gpu_queue_idle(ctx, err) : book_view_wait(ctx, view, err);
    if (!idle || !gpu_renderer_set_quality(ctx, &view->renderer, quality, err))
        return false;
    /* the image drawn into has the tier's samples: made anew */
    if (view->kind != BOOK_VIEW_OFFSCREEN && view->kind != BOOK_VIEW_HOSTED)
        return true;
    return offscreen_remake(ctx, view, err);
}

bool book_view_host_target(const GpuContext *ctx, BookView *view, BookViewTarget how,
                           VkExtent2D extent, GpuError *err)
{
    if (view->kind != BOOK_VIEW_HOSTED)
        return gpu_error_set(err, "only a hosted view draws into a host's images");
    bool direct = how == BOOK_VIEW_TARGET_DIRECT, in_pass = how == BOOK_VIEW_TARGET_PASS;
    if (direct == view->direct && in_pass == view->in_pass &&
        (!direct || (extent.width == view->direct_extent.width &&
                     extent.height == view->direct_extent.height)))
        return true;
    if (!gpu_queue_idle(ctx, err)) /* the host's frames may still use the old depth or image */
        return false;
    view->direct = direct;
    view->in_pass = in_pass;
    view->direct_extent = direct ? extent : (VkExtent2D){0, 0};
    return offscreen_remake(ctx, view, err);
}

bool book_view_resize(const GpuContext *ctx, BookView *view, uint32_t width, uint32_t height,
                      GpuError *err)
{
    view->width = width, view->height = height;
    return offscreen_remake(ctx, view, err);
}

bool book_view_draw(const GpuContext *ctx, BookView *view, VkCommandBuffer cmd, uint32_t slot,
                    GpuError *err)
{
    if (!view->in_pass || !view->pass_ready || view->pass_slot != slot)
        return gpu_error_set(err, "no frame of this slot recorded for the host's pass");
    gpu_renderer_record_pass(ctx, cmd, &view->renderer, &view->pass_target, view->pass_draws.draws,
                             view->pass_draws.count, slot);
    view->pass_ready = false; /* drawn once: the next is the next frame's */
    return true;
}

bool book_view_record(const GpuContext *ctx, BookView *view, VkCommandBuffer cmd, uint32_t slot,
                      const BookViewFrame *desc, const GpuRenderTarget *direct, GpuError *err)
{
    const BookLeaf *leaf = view->leaf;
    if (view->kind != BOOK_VIEW_HOSTED || leaf->path->cpu_deform)
        return gpu_error_set(err, "a host's frame is drawn by a hosted view with the GPU's curl");
    if (leaf->path->host_stage)
        return gpu_error_set(err, "a host's frame cannot run a stage on the host (--pack staging)");
    bool in_pass = direct && direct->in_pass;
    if (!direct != !(view->direct || view->in_pass) || in_pass != view->in_pass)
        return gpu_error_set(err, "the host's target is not the one the view was readied for");
    /* the host records a slot again only once the device has finished its last frame: that
     * frame's times are there to read */
    collect(ctx, view, slot);
    view->pass_ready = false;
    GpuRenderTarget target = gpu_offscreen_target(&view->offscreen);
    /* the host's copy out of the image (a blit) is the last use of an earlier frame's colour */
    target.color_src_stage |= VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT;
    if (direct) {
        target = *direct;
        target.depth = view->offscreen.depth.image, target.depth_view = view->offscreen.depth.view;
    }
    target.background_set = desc->background_set;
    target.background = desc->background;
    /* the commands in the slot's secondary command buffer, recorded once while their recipe
     * holds (as an offscreen view's frames), executed by the host's */
    BookFrameSlot *s = &view->slots[slot];
    BookViewHost spent = {0};
    BookViewRecipe recipe;
    if (!assemble(ctx, view, s, desc, &target, NULL, &spent, &recipe,
                  in_pass ? &view->pass_draws : NULL, err))
        return false;
    ctx->vk.vkCmdExecuteCommands(cmd, 1, &s->frame.cmd);
    if (in_pass) { /* drawn by book_view_draw, in the host's rendering */
        view->pass_target = target;
        view->pass_slot = slot;
        view->pass_ready = true;
    }
    slot_done(view, s, &recipe);
    return true;
}
