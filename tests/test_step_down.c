/* SPDX-License-Identifier: MIT */
/* The window's step down, on the renderer's side (gpu_renderer_set_quality through
 * book_view_set_quality): a view made with the high tier that has drawn a turn with ink, switched
 * to the low tier in the middle of the turn, draws the next frame byte for byte as a view made
 * with the low tier draws it; its ink is still there, and the tier's parts are the low tier's.
 * Offscreen on lavapipe with the validation layer (any message fails).
 * usage: test_step_down [--no-validation] */
#include "view_turn.h"

#include <stdlib.h>

/* A stroke across the right page (layer 2: the first spread's right side). */
static bool stroke(MeshInk *ink, float v)
{
    bool ok = mesh_ink_stroke_begin(ink, 2, (MeshInkPoint){0.55f, v, 0.03f}) &&
              mesh_ink_stroke_extend(ink, (MeshInkPoint){0.85f, v + 0.15f, 0.03f});
    mesh_ink_stroke_end(ink);
    return ok;
}

/* The frames compared, once the switched view has drawn the first half of the turn: two of the
 * low tier (the first makes its still pages, the second draws over them), the second read back.
 * `create`: the view is made low for them. */
static bool low_frames(const GpuContext *ctx, BookLeaf *leaf, bool create, const MeshInk *ink,
                       BookView *view, uint8_t *pixels, GpuError *err)
{
    return (!create || view_turn_create(ctx, leaf, GPU_QUALITY_LOW, view, err)) &&
           view_turn_frame(ctx, view, BOOK_SPREAD_FIRST_TURN, 0.4f, 0.25f, ink, NULL, err) &&
           view_turn_frame(ctx, view, BOOK_SPREAD_FIRST_TURN, 0.5f, 0.25f, ink, pixels, err);
}

static void check_step(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView stepped = {0}, low = {0}, bare = {0};
    MeshInk ink = {0}, none = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES),
            *c = malloc(VIEW_TURN_BYTES);
    bool ok = a && b && c && mesh_ink_init(&ink, 4) && mesh_ink_init(&none, 4) &&
              stroke(&ink, 0.3f) && view_turn_create(ctx, leaf, GPU_QUALITY_HIGH, &stepped, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    bool msaa = ok && stepped.renderer.samples != VK_SAMPLE_COUNT_1_BIT;
    /* the high tier draws the turn's first frames, a stroke added between them */
    for (int f = 0; ok && f < 3; f++)
        ok = (f != 1 || stroke(&ink, 0.6f)) &&
             view_turn_frame(ctx, &stepped, BOOK_SPREAD_FIRST_TURN, 0.1f + 0.1f * (float)f, 0.25f,
                             &ink, NULL, &err);
    CHECK(s, ok, "high frames: %s", err.message);
    double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
    ok = ok && book_view_set_quality(ctx, &stepped, GPU_QUALITY_LOW, &err);
    CHECK(s, ok, "step down: %s", err.message);
    if (ok) /* a figure, not a check: the pipelines are compiled anew */
        printf("the switch took %.1f ms\n", gpu_clock_ms(CLOCK_MONOTONIC) - t0);
    if (ok) {
        GpuRenderer *r = &stepped.renderer;
        printf("stepped: %s tier, %u sample(s), %ux%u shadow map (the high tier drew with %s)\n",
               gpu_quality_name(r->quality), (unsigned)r->samples, r->shadow.map.extent.width,
               r->shadow.map.extent.height, msaa ? "MSAA" : "no MSAA");
        CHECK(s,
              r->quality == GPU_QUALITY_LOW && r->samples == VK_SAMPLE_COUNT_1_BIT &&
                  stepped.offscreen.msaa.image == VK_NULL_HANDLE &&
                  r->shadow.map.extent.width == GPU_SHADOW_MAP_LOW_SIZE &&
                  r->shadow_only_pipeline != VK_NULL_HANDLE,
              "the stepped renderer is not the low tier's: %s, %u samples, %u shadow texels",
              gpu_quality_name(r->quality), (unsigned)r->samples, r->shadow.map.extent.width);
    }
    ok = ok && low_frames(ctx, leaf, false, &ink, &stepped, a, &err);
    CHECK(s, ok, "frames after the step: %s", err.message);
    ok = ok && low_frames(ctx, leaf, true, &ink, &low, b, &err);
    CHECK(s, ok, "a low view's frames: %s", err.message);
    if (ok)
        view_turn_same(s, a, b, "a renderer switched high -> low against one made low");
    /* the comparison can see the ink: without it the same frame is another picture */
    ok = ok && low_frames(ctx, leaf, true, &none, &bare, c, &err);
    CHECK(s, ok, "an inkless view's frames: %s", err.message);
    if (ok) {
        size_t n = view_turn_differ(b, c);
        printf("the ink changes %zu bytes of the frame\n", n);
        CHECK(s, n > 100, "the ink shows in only %zu bytes: the test cannot see it lost", n);
    }
    book_view_destroy(ctx, &bare);
    book_view_destroy(ctx, &low);
    book_view_destroy(ctx, &stepped);
    mesh_ink_free(&none);
    mesh_ink_free(&ink);
    free(a);
    free(b);
    free(c);
}

int main(int argc, char **argv)
{
    return view_turn_main(argc, argv, "test_step_down", check_step);
}
