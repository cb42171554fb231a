/* The window's step down, on the renderer's side (gpu_renderer_set_quality through
 * app_view_set_quality): a view made with the high tier that has drawn a turn with ink, switched
 * to the low tier in the middle of the turn, draws the next frame byte for byte as a view made
 * with the low tier draws it; its ink is still there, and the tier's parts are the low tier's.
 * Offscreen on lavapipe with the validation layer (any message fails).
 * usage: test_step_down [--no-validation] */
#include "../app/book.h"
#include "../app/page.h"
#include "../app/view.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH  320
#define HEIGHT 240
#define BYTES  ((size_t)WIDTH * HEIGHT * 4)

static bool view_create(const GpuContext *ctx, AppPage *page, GpuQuality quality, AppView *view,
                        GpuError *err)
{
    AppViewDesc desc = {.kind = APP_VIEW_OFFSCREEN,
                        .width = WIDTH,
                        .height = HEIGHT,
                        .renderer = {.quality = quality},
                        .leaves = 2};
    return app_view_create(ctx, &desc, page, view, err);
}

/* One frame of the first turn at `t`, its pixels read back when `pixels` is given. */
static bool frame(const GpuContext *ctx, AppView *view, float t, const MeshInk *ink,
                  uint8_t *pixels, GpuError *err)
{
    AppPage *page = view->page;
    AppViewFrame f = {.pose = mesh_curl_pose(t, 0.25f, page->grid.width, page->grid.height),
                      .spread = APP_SPREAD_FIRST_TURN,
                      .ink = ink,
                      .readback_pixels = pixels != NULL};
    if (!app_view_frame(ctx, view, &f, NULL, err) || !app_view_wait(ctx, view, err))
        return false;
    if (pixels) {
        gpu_buffer_invalidate(ctx, &view->offscreen.pixels);
        memcpy(pixels, view->offscreen.pixels.mapped, BYTES);
    }
    return true;
}

static size_t differ(const uint8_t *a, const uint8_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < BYTES; i++)
        n += a[i] != b[i];
    return n;
}

/* A stroke across the right page (layer 2: the first spread's right side). */
static bool stroke(MeshInk *ink, float v)
{
    bool ok = mesh_ink_stroke_begin(ink, 2, (MeshInkPoint){0.55f, v, 0.03f}) &&
              mesh_ink_stroke_extend(ink, (MeshInkPoint){0.85f, v + 0.15f, 0.03f});
    mesh_ink_stroke_end(ink);
    return ok;
}

static void check_step(CheckState *s, const GpuContext *ctx)
{
    GpuError err = {0};
    AppPage page;
    AppPageDesc pdesc = {.nx = 64, .ny = 90};
    if (!app_page_create(ctx, &pdesc, &page, &err)) {
        CHECK(s, false, "page: %s", err.message);
        return;
    }
    AppView stepped = {0}, low = {0}, bare = {0};
    MeshInk ink = {0}, none = {0};
    uint8_t *a = malloc(BYTES), *b = malloc(BYTES), *c = malloc(BYTES);
    bool ok = a && b && c && mesh_ink_init(&ink, 4) && mesh_ink_init(&none, 4) &&
              stroke(&ink, 0.3f) && view_create(ctx, &page, GPU_QUALITY_HIGH, &stepped, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    bool msaa = ok && stepped.renderer.samples != VK_SAMPLE_COUNT_1_BIT;
    /* the high tier draws the turn's first frames, a stroke added between them */
    for (int f = 0; ok && f < 3; f++)
        ok = (f != 1 || stroke(&ink, 0.6f)) &&
             frame(ctx, &stepped, 0.1f + 0.1f * (float)f, &ink, NULL, &err);
    CHECK(s, ok, "high frames: %s", err.message);
    ok = ok && app_view_set_quality(ctx, &stepped, GPU_QUALITY_LOW, &err);
    CHECK(s, ok, "step down: %s", err.message);
    if (ok) {
        GpuRenderer *r = &stepped.renderer;
        printf("stepped: %s tier, %u sample(s), %ux%u shadow map (the high tier drew with %s)\n",
               gpu_quality_name(r->quality), (unsigned)r->samples, r->shadow_map.extent.width,
               r->shadow_map.extent.height, msaa ? "MSAA" : "no MSAA");
        CHECK(s,
              r->quality == GPU_QUALITY_LOW && r->samples == VK_SAMPLE_COUNT_1_BIT &&
                  stepped.offscreen.msaa.image == VK_NULL_HANDLE &&
                  r->shadow_map.extent.width == GPU_SHADOW_MAP_LOW_SIZE &&
                  r->shadow_only_pipeline != VK_NULL_HANDLE,
              "the stepped renderer is not the low tier's: %s, %u samples, %u shadow texels",
              gpu_quality_name(r->quality), (unsigned)r->samples, r->shadow_map.extent.width);
    }
    /* two frames of the low tier: the first makes its still pages, the second draws over them */
    ok = ok && frame(ctx, &stepped, 0.4f, &ink, NULL, &err) &&
         frame(ctx, &stepped, 0.5f, &ink, a, &err);
    CHECK(s, ok, "frames after the step: %s", err.message);
    ok = ok && view_create(ctx, &page, GPU_QUALITY_LOW, &low, &err) &&
         frame(ctx, &low, 0.4f, &ink, NULL, &err) && frame(ctx, &low, 0.5f, &ink, b, &err);
    CHECK(s, ok, "a low view's frames: %s", err.message);
    if (ok) {
        size_t n = differ(a, b);
        printf("switched high -> low against made low: %zu bytes differ\n", n);
        CHECK(s, n == 0,
              "a renderer switched to the low tier differs from one made low in %zu "
              "bytes",
              n);
    }
    /* the comparison can see the ink: without it the same frame is another picture */
    ok = ok && view_create(ctx, &page, GPU_QUALITY_LOW, &bare, &err) &&
         frame(ctx, &bare, 0.4f, &none, NULL, &err) && frame(ctx, &bare, 0.5f, &none, c, &err);
    CHECK(s, ok, "an inkless view's frames: %s", err.message);
    if (ok) {
        size_t n = differ(b, c);
        printf("the ink changes %zu bytes of the frame\n", n);
        CHECK(s, n > 100, "the ink shows in only %zu bytes: the test cannot see it lost", n);
    }
    app_view_destroy(ctx, &bare);
    app_view_destroy(ctx, &low);
    app_view_destroy(ctx, &stepped);
    mesh_ink_free(&none);
    mesh_ink_free(&ink);
    free(a);
    free(b);
    free(c);
    app_page_destroy(ctx, &page);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    bool validation = !(argc > 1 && !strcmp(argv[1], "--no-validation"));
    GpuMessages messages = {0};
    GpuContext ctx;
    GpuError err = {0};
    GpuContextDesc desc = {.validation = validation, .device_index = -1, .messages = &messages};
    if (!gpu_context_create(&desc, &ctx, &err)) {
        fprintf(stderr, "test_step_down: %s\n", err.message);
        return 1;
    }
    check_step(&s, &ctx);
    gpu_context_destroy(&ctx);
    CHECK(&s, messages.errors + messages.warnings == 0, "%u validation errors, %u warnings",
          messages.errors, messages.warnings);
    return check_finish(&s, "test_step_down");
}
