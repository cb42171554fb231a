/* SPDX-License-Identifier: MIT */
/* Commands recorded once (book/view.c): an offscreen view at the high tier records a slot's frame
 * once and submits it again while only the values in its buffers change (the pose in the curl
 * table, the camera and the apex in the draw table), and every frame is the same, byte for byte,
 * as the frame drawn by a fresh view. A change of what is drawn (another spread, ink drawn, a
 * frame without its pixels read back, the page made again) records anew; the low tier, whose
 * commands change with the leaf, records every frame. Offscreen on lavapipe with the validation
 * layer (any message fails).
 * usage: test_record [--no-validation] */
#include "../book/book.h"
#include "../book/leaf.h"
#include "../book/view.h"
#include "check.h"
#include "view_turn.h"

#include <stdlib.h>
#include <string.h>

/* Frame f of a turn: the leaf further along at each. */
static float turn_at(int f)
{
    return 0.15f + 0.07f * (float)f;
}

/* The same frame drawn by a fresh view: equal to `pixels`. */
static void same_as_fresh(CheckState *s, const GpuContext *ctx, AppLeaf *leaf, AppSpread spread,
                          float t, const MeshInk *ink, const uint8_t *pixels, const char *what)
{
    GpuError err = {0};
    AppView fresh;
    uint8_t *b = malloc(VIEW_TURN_BYTES);
    bool ok = b && view_turn_create(ctx, leaf, GPU_QUALITY_HIGH, &fresh, &err);
    if (ok) {
        ok = view_turn_frame(ctx, &fresh, spread, t, 0.25f, ink, b, &err);
        app_view_destroy(ctx, &fresh);
    }
    CHECK(s, ok, "a fresh view's frame: %s", err.message);
    if (ok)
        view_turn_same(s, pixels, b, what);
    free(b);
}

/* A host's frame: the hosted view's commands executed by a command buffer of the test's, with the
 * pixels read back after them. */
typedef struct HostedFrame {
    AppView *view;
    AppViewFrame frame;
    uint32_t slot;
    bool ok;
    GpuError err;
} HostedFrame;

static void record_hosted(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    HostedFrame *h = user;
    h->ok = app_view_record(ctx, h->view, cmd, h->slot, &h->frame, NULL, &h->err);
    gpu_offscreen_record_readback(ctx, cmd, &h->view->offscreen);
}

/* A host's frames (libpagecurl's pagecurl_book_record): the slot's secondary command buffer is
 * recorded once and executed again, and the frames are a fresh offscreen view's. */
static void check_hosted(CheckState *s, const GpuContext *ctx, AppLeaf *leaf)
{
    GpuError err = {0};
    MeshInk none = {0}, *ink = &none;
    AppView view;
    AppViewDesc desc = {.kind = APP_VIEW_HOSTED,
                        .width = VIEW_TURN_WIDTH,
                        .height = VIEW_TURN_HEIGHT,
                        .renderer = {.quality = GPU_QUALITY_HIGH},
                        .leaves = 2};
    uint8_t *a = malloc(VIEW_TURN_BYTES);
    bool made = a && mesh_ink_init(&none, 4) && app_view_create(ctx, &desc, leaf, &view, &err),
         ok = made;
    CHECK(s, ok, "a host's view: %s", err.message);
    const int frames = 5;
    for (int f = 0; ok && f < frames; f++) {
        HostedFrame h = {.view = &view,
                         .frame = {.spread = APP_SPREAD_FIRST_TURN, .ink = ink},
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
        same_as_fresh(s, ctx, leaf, APP_SPREAD_FIRST_TURN, turn_at(frames - 1), ink, a,
                      "a host's frame executed again against a fresh view's");
    }
    if (made)
        app_view_destroy(ctx, &view);
    mesh_ink_free(&none);
    free(a);
}

static void check_record(CheckState *s, const GpuContext *ctx, AppLeaf *leaf)
{
    GpuError err = {0};
    AppView view;
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
        ok = view_turn_frame(ctx, &view, APP_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
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
        same_as_fresh(s, ctx, leaf, APP_SPREAD_FIRST_TURN, turn_at(frames - 1), &ink, a,
                      "a frame submitted again against a fresh view's");
    }
    /* the page made again where it was (its objects' handles may come back the same): recorded
     * anew, not taken for the old page's commands */
    AppLeafDesc desc = leaf->desc;
    uint64_t recorded = view.recorded;
    ok = ok && app_view_wait(ctx, &view, &err);
    if (ok) {
        app_leaf_destroy(ctx, leaf);
        ok = app_leaf_create(ctx, &desc, leaf, &err);
    }
    for (int f = 0; ok && f < 3; f++)
        ok = view_turn_frame(ctx, &view, APP_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "the page made again: %s", err.message);
    if (ok)
        CHECK(s, view.recorded == recorded + GPU_FRAMES_IN_FLIGHT,
              "the page made again: %llu frames recorded (%u expected)",
              (unsigned long long)(view.recorded - recorded), GPU_FRAMES_IN_FLIGHT);
    /* another spread: recorded anew (in both slots), then submitted again */
    recorded = view.recorded;
    for (int f = 0; ok && f < 4; f++)
        ok =
            view_turn_frame(ctx, &view, APP_SPREAD_BACKWARD_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "the backward turn's frames: %s", err.message);
    if (ok) {
        CHECK(s, view.recorded == recorded + GPU_FRAMES_IN_FLIGHT,
              "another spread recorded %llu frames (%u expected)",
              (unsigned long long)(view.recorded - recorded), GPU_FRAMES_IN_FLIGHT);
        same_as_fresh(s, ctx, leaf, APP_SPREAD_BACKWARD_TURN, turn_at(3), &ink, a,
                      "another spread's frame submitted again against a fresh view's");
    }
    /* a frame that reads nothing back records its own commands */
    recorded = view.recorded;
    ok = ok &&
         view_turn_frame(ctx, &view, APP_SPREAD_BACKWARD_TURN, turn_at(4), 0.25f, &ink, NULL, &err);
    CHECK(s, ok && view.recorded == recorded + 1, "a frame without its read back was not recorded");
    /* ink on the turning leaf's page: its upload is recorded, and its layer now inked picks
     * other pipelines; the frames after it are submitted again and show it */
    ok = ok && mesh_ink_stroke_begin(&ink, 2, (MeshInkPoint){0.3f, 0.4f, 0.02f}) &&
         mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.7f, 0.5f, 0.02f});
    mesh_ink_stroke_end(&ink);
    recorded = view.recorded;
    uint64_t again = view.resubmitted;
    for (int f = 0; ok && f < 5; f++)
        ok =
            view_turn_frame(ctx, &view, APP_SPREAD_BACKWARD_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "inked frames: %s", err.message);
    if (ok) {
        CHECK(s, view.recorded > recorded && view.resubmitted > again,
              "after ink: %llu recorded, %llu submitted again (some of each expected)",
              (unsigned long long)(view.recorded - recorded),
              (unsigned long long)(view.resubmitted - again));
        same_as_fresh(s, ctx, leaf, APP_SPREAD_BACKWARD_TURN, turn_at(4), &ink, a,
                      "an inked frame submitted again against a fresh view's");
    }
    app_view_destroy(ctx, &view);
    /* the low tier's commands follow the leaf (its still pages, the shadow's pieces) */
    ok = ok && view_turn_create(ctx, leaf, GPU_QUALITY_LOW, &view, &err);
    for (int f = 0; ok && f < 4; f++)
        ok = view_turn_frame(ctx, &view, APP_SPREAD_FIRST_TURN, turn_at(f), 0.25f, &ink, a, &err);
    CHECK(s, ok, "the low tier's frames: %s", err.message);
    if (ok) {
        CHECK(s, view.resubmitted == 0 && view.recorded == 4,
              "the low tier submitted %llu frames again", (unsigned long long)view.resubmitted);
        app_view_destroy(ctx, &view);
    }
    check_hosted(s, ctx, leaf);
    mesh_ink_free(&ink);
    free(a);
    free(before);
}

int main(int argc, char **argv)
{
    return view_turn_main(argc, argv, "test_record", check_record);
}
