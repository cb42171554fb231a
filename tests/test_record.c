/* SPDX-License-Identifier: MIT */
/* Commands recorded once (book/view.c): an offscreen view at the high tier records a slot's frame
 * once and submits it again while only the values in its buffers change (the pose in the curl
 * table, the camera and the apex in the draw table), and every frame is the same, byte for byte,
 * as the frame drawn by a fresh view. A change of what is drawn (another spread, ink drawn, a
 * frame without its pixels read back, the page made again) records anew; the low tier, whose
 * commands change with the leaf, records every frame. Offscreen on lavapipe with the validation
 * layer (any message fails).
 * And the steady state of a host's book (issue 53): once its first frames, a turn and a zoom are
 * drawn, ten turns that stream new pages in (the layers of an inked page among them given to
 * others), a zoom in and out with its pages drawn in detail, and the frames between, make no queue
 * idle, wait for no submission, allocate no device memory and make no pipeline (counted on the
 * library's context: book/pagecurl_internal.h).
 * usage: test_record [--no-validation] */
#include "../book/book.h"
#include "../book/leaf.h"
#include "../book/pagecurl_internal.h"
#include "../book/pagecurl_program.h"
#include "../book/view.h"
#include "check.h"
#include "pdf_file.h"
#include "view_turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Frame f of a turn: the leaf further along at each. */
static float turn_at(int f)
{
    return 0.15f + 0.07f * (float)f;
}

/* The same frame drawn by a fresh view: equal to `pixels`. */
static void same_as_fresh(CheckState *s, const GpuContext *ctx, BookLeaf *leaf, BookSpread spread,
                          float t, const MeshInk *ink, const uint8_t *pixels, const char *what)
{
    GpuError err = {0};
    BookView fresh;
    uint8_t *b = malloc(VIEW_TURN_BYTES);
    bool ok = b && view_turn_create(ctx, leaf, GPU_QUALITY_HIGH, &fresh, &err);
    if (ok) {
        ok = view_turn_frame(ctx, &fresh, spread, t, 0.25f, ink, b, &err);
        book_view_destroy(ctx, &fresh);
    }
    CHECK(s, ok, "a fresh view's frame: %s", err.message);
    if (ok)
        view_turn_same(s, pixels, b, what);
    free(b);
}

/* A host's frame: the hosted view's commands executed by a command buffer of the test's, with the
 * pixels read back after them. */
typedef struct HostedFrame {
    BookView *view;
    BookViewFrame frame;
    uint32_t slot;
    bool ok;
    GpuError err;
} HostedFrame;

static void record_hosted(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    HostedFrame *h = user;
    h->ok = book_view_record(ctx, h->view, cmd, h->slot, &h->frame, NULL, &h->err);
    gpu_offscreen_record_readback(ctx, cmd, &h->view->offscreen);
}

/* A host's frames (libpagecurl's pagecurl_book_record): the slot's secondary command buffer is
 * recorded once and executed again, and the frames are a fresh offscreen view's. */
static void check_hosted(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    MeshInk none = {0}, *ink = &none;
    BookView view;
    BookViewDesc desc = {.kind = BOOK_VIEW_HOSTED,
                         .width = VIEW_TURN_WIDTH,
                         .height = VIEW_TURN_HEIGHT,
                         .renderer = {.quality = GPU_QUALITY_HIGH},
                         .leaves = 2};
    uint8_t *a = malloc(VIEW_TURN_BYTES);
    bool made = a && mesh_ink_init(&none, 4) && book_view_create(ctx, &desc, leaf, &view, &err),
         ok = made;
    CHECK(s, ok, "a host's view: %s", err.message);
    const int frames = 5;
    for (int f = 0; ok && f < frames; f++) {
        HostedFrame h = {.view = &view,
                         .frame = {.spread = BOOK_SPREAD_FIRST_TURN, .ink = ink},
                         .slot = (uint32_t)f % 2};
        h.frame.pose = mesh_curl_pose(turn_at(f), 0.25f, leaf->grid.width, leaf->grid.height);
        ok = gpu_context_submit_once(ctx, record_hosted, &h, &err) && h.ok;
        CHECK(s, ok, "a host's frame: %s %s", err.message, h.err.message);
    }
    if (ok) {
        gpu_buffer_invalidate(ctx, &view.offscreen.pixels);
        memcpy(a, view.offscreen.pixels.mapped, VIEW_TURN_BYTES);
        CHECK(s, view.recorded == 2 && view.resubmitted == (uint64_t)frames - 2,
              "a host's %d frames: %llu recorded, %llu executed again (2 and %d expected)", frames,
              (unsigned long long)view.recorded, (unsigned long long)view.resubmitted, frames - 2);
        same_as_fresh(s, ctx, leaf, BOOK_SPREAD_FIRST_TURN, turn_at(frames - 1), ink, a,
                      "a host's frame executed again against a fresh view's");
    }
    if (made)
        book_view_destroy(ctx, &view);
    mesh_ink_free(&none);
    free(a);
}

/* The host of the steady state's book: the test's own device, an image the book's frames are
 * copied into, two frames in flight with a command buffer and a fence each. */
typedef struct SteadyHost {
    const GpuContext *ctx;
    GpuImage image;
    VkCommandBuffer cmd[2];
    VkFence fence[2];
    uint64_t frame;
} SteadyHost;

static bool steady_host_create(const GpuContext *ctx, SteadyHost *h, GpuError *err)
{
    *h = (SteadyHost){.ctx = ctx};
    GpuImageDesc image = {.extent = {VIEW_TURN_WIDTH, VIEW_TURN_HEIGHT},
                          .format = VK_FORMAT_R8G8B8A8_SRGB,
                          .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .label = "steady host image"};
    if (!gpu_image_create(ctx, &image, &h->image, err))
        return false;
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = ctx->pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 2};
    GPU_TRY(err, ctx->vk.vkAllocateCommandBuffers(ctx->device, &alloc, h->cmd));
    for (int i = 0; i < 2; i++)
        GPU_TRY(err, ctx->vk.vkCreateFence(
                         ctx->device,
                         &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                              .flags = VK_FENCE_CREATE_SIGNALED_BIT},
                         NULL, &h->fence[i]));
    return true;
}

static void steady_host_destroy(SteadyHost *h)
{
    const GpuContext *ctx = h->ctx;
    ctx->vk.vkQueueWaitIdle(ctx->queue); /* the test's end: its frames done */
    for (int i = 0; i < 2; i++)
        if (h->fence[i])
            ctx->vk.vkDestroyFence(ctx->device, h->fence[i], NULL);
    if (h->cmd[0])
        ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 2, h->cmd);
    gpu_image_destroy(ctx, &h->image);
}

/* One frame of the host's at `time`: the book updated, its slot's last frame waited for (the
 * host's fence), the book recorded into the slot's command buffer, submitted and waited for. */
static bool steady_frame(SteadyHost *h, pagecurl_book *book, double time, char *why, size_t size)
{
    const GpuContext *ctx = h->ctx;
    uint32_t slot = (uint32_t)(h->frame++ % 2);
    pagecurl_target target = {.size = sizeof target,
                              .image = h->image.image,
                              .extent = {VIEW_TURN_WIDTH, VIEW_TURN_HEIGHT},
                              .layout = VK_IMAGE_LAYOUT_UNDEFINED,
                              .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              .format = VK_FORMAT_R8G8B8A8_SRGB};
    pagecurl_error err;
    if (!pagecurl_book_update(book, time, &target, &err)) {
        snprintf(why, size, "update: %.400s", err.message);
        return false;
    }
    VkCommandBuffer cmd = h->cmd[slot];
    bool ok = ctx->vk.vkWaitForFences(ctx->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX) ==
                  VK_SUCCESS &&
              ctx->vk.vkResetFences(ctx->device, 1, &h->fence[slot]) == VK_SUCCESS &&
              ctx->vk.vkBeginCommandBuffer(
                  cmd, &(VkCommandBufferBeginInfo){
                           .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                           .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT}) == VK_SUCCESS;
    bool recorded = ok && pagecurl_book_record(book, cmd, slot, &target, &err);
    if (ok && !recorded)
        snprintf(why, size, "record: %.400s", err.message);
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    /* submitted even where the record failed: the fence signals again */
    ok = ok && ctx->vk.vkEndCommandBuffer(cmd) == VK_SUCCESS &&
         ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, h->fence[slot]) == VK_SUCCESS;
    if (!ok && recorded)
        snprintf(why, size, "the host's frame could not be submitted");
    /* waited for here, so that each update finds what was submitted before it done: the uploads
     * the ring keeps in flight are then as many as one update makes, and the first turn and zoom
     * make every staging buffer the later ones take, whatever the machine's load */
    ok = ok && ctx->vk.vkWaitForFences(ctx->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX) ==
                   VK_SUCCESS;
    return ok && recorded;
}

/* Frames 1/15 s apart until the book is at rest (a turn settled, the view eased back, its pages
 * drawn), at most `most` of them (a hang's ceiling). */
static bool steady_rest(SteadyHost *h, pagecurl_book *book, double *t, int most, char *why,
                        size_t size)
{
    for (int f = 0; f < most; f++) {
        if (!steady_frame(h, book, *t += 1.0 / 15.0, why, size))
            return false;
        pagecurl_state state = {.size = sizeof state};
        pagecurl_book_state(book, &state);
        pagecurl_event ev;
        while (pagecurl_book_poll_event(book, &ev))
            if (ev.type == PAGECURL_EVENT_ERROR) {
                snprintf(why, size, "the book's error: %.400s", ev.message);
                return false;
            }
        if (f >= 2 && !state.turning && !state.moving && !state.streaming && !state.pages_ready)
            return true;
    }
    snprintf(why, size, "the book was not at rest after %d frames", most);
    return false;
}

/* A zoom in about the viewport's middle and its pages drawn in detail (the update waits for
 * them), then back to fit. */
static bool steady_zoom(SteadyHost *h, pagecurl_book *book, double *t, char *why, size_t size)
{
    bool ok = pagecurl_book_zoom_by(book, 2.0f, VIEW_TURN_WIDTH / 2.0, VIEW_TURN_HEIGHT / 2.0, *t);
    if (!ok)
        snprintf(why, size, "the zoom was refused");
    ok = ok && steady_rest(h, book, t, 200, why, size) && pagecurl_book_hold_detail(book, 1.0) &&
         steady_rest(h, book, t, 200, why, size);
    ok = ok && pagecurl_book_action(book, PAGECURL_ACTION_ZOOM_FIT, *t) &&
         pagecurl_book_hold_detail(book, 1.0) && steady_rest(h, book, t, 200, why, size);
    return ok;
}

/* Counts apart, as one line. */
static void counted(char *out, size_t size, GpuCounters a, GpuCounters b)
{
    snprintf(out, size,
             "%llu queue idles, %llu submissions waited for, %llu allocations, %llu "
             "pipelines",
             (unsigned long long)(b.queue_idles - a.queue_idles),
             (unsigned long long)(b.submit_waits - a.submit_waits),
             (unsigned long long)(b.allocations - a.allocations),
             (unsigned long long)(b.pipelines - a.pipelines));
}

#define STEADY_PAGES 40
#define STEADY_TURNS 10

/* A PDF's book on the test's device (the host's, adopted by a context of the library's): its
 * first frames, a turn and a zoom (what is made once), then ten turns with a zoom after the
 * fifth, counted. */
static void check_steady(CheckState *s, const GpuContext *ctx)
{
    char dir[] = "/tmp/test_record-XXXXXX", path[64], why[512] = "";
    bool have_dir = mkdtemp(dir) != NULL;
    snprintf(path, sizeof path, "%s/steady.pdf", dir);
    const char *text[STEADY_PAGES];
    char lines[STEADY_PAGES][32];
    for (int p = 0; p < STEADY_PAGES; p++) {
        snprintf(lines[p], sizeof lines[p], "Page %d\nsteady\n", p + 1);
        text[p] = lines[p];
    }
    bool ok = have_dir && pdf_file_text(path, STEADY_PAGES, text);
    CHECK(s, ok, "the steady state's PDF could not be written in %s", dir);
    pagecurl_context_desc cdesc = {.size = sizeof cdesc,
                                   .instance = ctx->instance,
                                   .physical_device = ctx->physical,
                                   .device = ctx->device,
                                   .queue_family = ctx->queue_family,
                                   .queue = ctx->queue,
                                   .get_instance_proc_addr = ctx->vk.vkGetInstanceProcAddr,
                                   .debug_names = ctx->debug_utils,
                                   .geometry_shader = ctx->geometry_shader,
                                   .sampler_anisotropy = ctx->sampler_anisotropy};
    pagecurl_error err = {0};
    pagecurl_context *pctx = ok ? pagecurl_context_create(&cdesc, &err) : NULL;
    CHECK(s, !ok || pctx, "the library's context on the test's device: %s", err.message);
    pagecurl_book *book = NULL;
    if (pctx) {
        pagecurl_book_desc bdesc = {.size = sizeof bdesc, .path = path, .wait_for_pages = true};
        book = pagecurl_book_create(pctx, &bdesc, &err);
        CHECK(s, book, "the steady state's book: %s", err.message);
    }
    SteadyHost h = {.ctx = ctx};
    GpuError gerr = {0};
    ok = book && steady_host_create(ctx, &h, &gerr);
    CHECK(s, !book || ok, "the steady state's host: %s", gerr.message);
    double t = 0.0;
    /* what is made once: the first frames, a turn, the detail at the zoom */
    /* the first update builds what the book draws with (its pipelines): its time, for the
     * record (BENCHMARKS.md), not checked */
    if (ok) {
        pagecurl_target first = {.size = sizeof first,
                                 .image = h.image.image,
                                 .extent = {VIEW_TURN_WIDTH, VIEW_TURN_HEIGHT},
                                 .format = VK_FORMAT_R8G8B8A8_SRGB};
        double wall = gpu_clock_ms(CLOCK_MONOTONIC), cpu = gpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        ok = pagecurl_book_update(book, t, &first, &err);
        CHECK(s, ok, "the first update: %s", err.message);
        printf("steady state: the first update took %.0f ms, %.0f ms of the process's CPU\n",
               gpu_clock_ms(CLOCK_MONOTONIC) - wall, gpu_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu);
    }
    GpuCounters start = pagecurl_context_counters(pctx);
    /* ink on page 2: its leaf's layers, given to pages further on in the turns, clear it */
    const pagecurl_ink_point stroke[] = {{0.3f, 0.4f, 0.01f}, {0.7f, 0.5f, 0.01f}};
    ok = ok && steady_rest(&h, book, &t, 200, why, sizeof why) &&
         pagecurl_book_add_stroke(book, 2, stroke, 2) &&
         pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t) &&
         steady_rest(&h, book, &t, 200, why, sizeof why) &&
         steady_zoom(&h, book, &t, why, sizeof why);
    GpuCounters warm = pagecurl_context_counters(pctx);
    char line[256];
    counted(line, sizeof line, start, warm);
    printf("steady state: the first frames, a turn and a zoom: %s\n", line);
    CHECK(s, ok, "the steady state's first frames: %s", why);
    for (int turn = 0; ok && turn < STEADY_TURNS; turn++) {
        ok = pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t) &&
             steady_rest(&h, book, &t, 200, why, sizeof why);
        if (ok && turn == STEADY_TURNS / 2)
            ok = steady_zoom(&h, book, &t, why, sizeof why);
    }
    CHECK(s, ok, "the steady state's turns: %s", why);
    GpuCounters steady = pagecurl_context_counters(pctx);
    counted(line, sizeof line, warm, steady);
    printf("steady state: %d turns, a zoom in and out: %s\n", STEADY_TURNS, line);
    pagecurl_state state = {.size = sizeof state};
    if (book)
        pagecurl_book_state(book, &state);
    CHECK(s, !ok || state.right == 2 * (STEADY_TURNS + 1) + 1,
          "the steady state's turns ended at page %d (%d expected)", state.right,
          2 * (STEADY_TURNS + 1) + 1);
    CHECK(s,
          !ok ||
              (steady.queue_idles == warm.queue_idles && steady.submit_waits == warm.submit_waits &&
               steady.allocations == warm.allocations && steady.pipelines == warm.pipelines),
          "the steady state made %s (none expected)", line);
    if (h.ctx && h.image.image)
        steady_host_destroy(&h);
    pagecurl_book_destroy(book);
    pagecurl_context_destroy(pctx);
    if (have_dir) {
        unlink(path);
        rmdir(dir);
    }
}

static void check_record(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView view;
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *before = malloc(VIEW_TURN_BYTES);
    bool ok = a && before && mesh_ink_init(&ink, 4) &&
              view_turn_create(ctx, leaf, GPU_QUALITY_HIGH, &view, &err);
    CHECK(s, ok, "view: %s", err.message);
    if (!ok) {
        free(a);
        free(before);
        mesh_ink_free(&ink);
        return;
    }
    /* a turn: each slot records its first frame, then submits it again */
    const int frames = 6;
    for (int f = 0; ok && f < frames; f++) {
        if (f == frames - 1)
            memcpy(before, a, VIEW_TURN_BYTES);
        ok = view_turn_frame(ctx, &view, BOOK_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
    }
    CHECK(s, ok, "the turn's frames: %s", err.message);
    if (ok) {
        printf("a turn of %d frames: %llu recorded, %llu submitted again\n", frames,
               (unsigned long long)view.recorded, (unsigned long long)view.resubmitted);
        CHECK(s, view.recorded == GPU_FRAMES_IN_FLIGHT && view.resubmitted == frames - 2,
              "a turn's %d frames: %llu recorded and %llu submitted again (%u and %d expected)",
              frames, (unsigned long long)view.recorded, (unsigned long long)view.resubmitted,
              GPU_FRAMES_IN_FLIGHT, frames - 2);
        /* a stale table or pose would show the frame before */
        CHECK(s, view_turn_differ(a, before) > 1000, "the turn's last two frames look alike");
        same_as_fresh(s, ctx, leaf, BOOK_SPREAD_FIRST_TURN, turn_at(frames - 1), &ink, a,
                      "a frame submitted again against a fresh view's");
    }
    /* the page made again where it was (its objects' handles may come back the same): recorded
     * anew, not taken for the old page's commands */
    BookLeafDesc desc = leaf->desc;
    uint64_t recorded = view.recorded;
    ok = ok && book_view_wait(ctx, &view, &err);
    if (ok) {
        book_leaf_destroy(ctx, leaf);
        ok = book_leaf_create(ctx, &desc, leaf, &err);
    }
    for (int f = 0; ok && f < 3; f++)
        ok = view_turn_frame(ctx, &view, BOOK_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "the page made again: %s", err.message);
    if (ok)
        CHECK(s, view.recorded == recorded + GPU_FRAMES_IN_FLIGHT,
              "the page made again: %llu frames recorded (%u expected)",
              (unsigned long long)(view.recorded - recorded), GPU_FRAMES_IN_FLIGHT);
    /* another spread: recorded anew (in both slots), then submitted again */
    recorded = view.recorded;
    for (int f = 0; ok && f < 4; f++)
        ok = view_turn_frame(ctx, &view, BOOK_SPREAD_BACKWARD_TURN, turn_at(f), 0.25f, &ink, a,
                             &err);
    CHECK(s, ok, "the backward turn's frames: %s", err.message);
    if (ok) {
        CHECK(s, view.recorded == recorded + GPU_FRAMES_IN_FLIGHT,
              "another spread recorded %llu frames (%u expected)",
              (unsigned long long)(view.recorded - recorded), GPU_FRAMES_IN_FLIGHT);
        same_as_fresh(s, ctx, leaf, BOOK_SPREAD_BACKWARD_TURN, turn_at(3), &ink, a,
                      "another spread's frame submitted again against a fresh view's");
    }
    /* a frame that reads nothing back records its own commands */
    recorded = view.recorded;
    ok = ok && view_turn_frame(ctx, &view, BOOK_SPREAD_BACKWARD_TURN, turn_at(4), 0.25f, &ink, NULL,
                               &err);
    CHECK(s, ok && view.recorded == recorded + 1, "a frame without its read back was not recorded");
    /* no ink yet: a texel a layer (a book read without a pen keeps no coverage) */
    CHECK(s, !ok || (view.renderer.ink.width == 1 && view.renderer.ink_width > 1),
          "the ink is %ux%u before any stroke (1x1 expected; full: %ux%u)", view.renderer.ink.width,
          view.renderer.ink.height, view.renderer.ink_width, view.renderer.ink_height);
    ok = ok && view_turn_frame(ctx, &view, BOOK_SPREAD_BACKWARD_TURN, turn_at(4), 0.25f, &ink,
                               before, &err);
    /* ink on the turning leaf's page: its upload is recorded, and its layer now inked picks
     * other pipelines; the frames after it are submitted again and show it */
    ok = ok && mesh_ink_stroke_begin(&ink, 2, (MeshInkPoint){0.3f, 0.4f, 0.02f}) &&
         mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.7f, 0.5f, 0.02f});
    mesh_ink_stroke_end(&ink);
    recorded = view.recorded;
    uint64_t again = view.resubmitted;
    for (int f = 0; ok && f < 5; f++)
        ok = view_turn_frame(ctx, &view, BOOK_SPREAD_BACKWARD_TURN, turn_at(f), 0.25f, &ink, a,
                             &err);
    CHECK(s, ok, "inked frames: %s", err.message);
    if (ok) {
        CHECK(s, view.recorded > recorded && view.resubmitted > again,
              "after ink: %llu recorded, %llu submitted again (some of each expected)",
              (unsigned long long)(view.recorded - recorded),
              (unsigned long long)(view.resubmitted - again));
        same_as_fresh(s, ctx, leaf, BOOK_SPREAD_BACKWARD_TURN, turn_at(4), &ink, a,
                      "an inked frame submitted again against a fresh view's");
        CHECK(s,
              view.renderer.ink.width == view.renderer.ink_width &&
                  view.renderer.ink.height == view.renderer.ink_height,
              "the ink is %ux%u after a stroke (%ux%u expected)", view.renderer.ink.width,
              view.renderer.ink.height, view.renderer.ink_width, view.renderer.ink_height);
        size_t inked = view_turn_differ(a, before);
        CHECK(s, inked > 50, "the stroke changed %zu bytes of the frame (over 50 expected)", inked);
    }
    book_view_destroy(ctx, &view);
    /* the low tier's commands follow the leaf (its still pages, the shadow's pieces) */
    ok = ok && view_turn_create(ctx, leaf, GPU_QUALITY_LOW, &view, &err);
    for (int f = 0; ok && f < 4; f++)
        ok = view_turn_frame(ctx, &view, BOOK_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "the low tier's frames: %s", err.message);
    if (ok) {
        CHECK(s, view.resubmitted == 0 && view.recorded == 4,
              "the low tier submitted %llu frames again", (unsigned long long)view.resubmitted);
        book_view_destroy(ctx, &view);
    }
    check_hosted(s, ctx, leaf);
    check_steady(s, ctx);
    mesh_ink_free(&ink);
    free(a);
    free(before);
}

int main(int argc, char **argv)
{
    return view_turn_main(argc, argv, "test_record", check_record);
}
