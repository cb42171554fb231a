/* SPDX-License-Identifier: MIT */
#include "view_turn.h"

#include "gpu_check.h"

#include <string.h>

bool view_turn_create(const GpuContext *ctx, BookLeaf *leaf, GpuQuality quality, BookView *view,
                      GpuError *err)
{
    BookViewDesc desc = {.kind = BOOK_VIEW_OFFSCREEN,
                         .width = VIEW_TURN_WIDTH,
                         .height = VIEW_TURN_HEIGHT,
                         .renderer = {.quality = quality},
                         .leaves = 2};
    return book_view_create(ctx, &desc, leaf, view, err);
}

bool view_turn_frame(const GpuContext *ctx, BookView *view, BookSpread spread, float t, float grab,
                     const MeshInk *ink, uint8_t *pixels, GpuError *err)
{
    BookLeaf *leaf = view->leaf;
    BookViewFrame f = {.pose = mesh_curl_pose(t, grab, leaf->grid.width, leaf->grid.height),
                       .spread = spread,
                       .ink = ink,
                       .readback_pixels = pixels != NULL};
    if (!book_view_frame(ctx, view, &f, NULL, err) || !book_view_wait(ctx, view, err))
        return false;
    if (pixels) {
        gpu_buffer_invalidate(ctx, &view->offscreen.pixels);
        memcpy(pixels, view->offscreen.pixels.mapped, VIEW_TURN_BYTES);
    }
    return true;
}

size_t view_turn_differ(const uint8_t *a, const uint8_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < VIEW_TURN_BYTES; i++)
        n += a[i] != b[i];
    return n;
}

void view_turn_same(CheckState *s, const uint8_t *a, const uint8_t *b, const char *what)
{
    size_t n = view_turn_differ(a, b);
    printf("%s: %zu bytes differ\n", what, n);
    CHECK(s, n == 0, "%s: %zu bytes differ (none expected)", what, n);
}

int view_turn_main(int argc, char **argv, const char *name,
                   void (*check)(CheckState *s, const GpuContext *ctx, BookLeaf *leaf))
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    if (!gpu_check_context(argc, argv, name, &messages, &ctx))
        return 1;
    BookLeaf leaf;
    BookLeafDesc ldesc = {.nx = 64, .ny = 90};
    GpuError err = {0};
    bool made = book_leaf_create(&ctx, &ldesc, &leaf, &err);
    CHECK(&s, made, "leaf: %s", err.message);
    if (made) {
        check(&s, &ctx, &leaf);
        book_leaf_destroy(&ctx, &leaf);
    }
    gpu_check_finish(&s, &ctx, &messages);
    return check_finish(&s, name);
}
