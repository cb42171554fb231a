/* SPDX-License-Identifier: MIT */
/* The low tier's cache of the still pages (gpu/renderer.c): drawn once while only the leaf
 * moves, drawn again when the ink changes, and a frame drawn over it is the same, byte for byte,
 * as the frame drawn by a fresh renderer whose cache was made for it. The leaf's shadow,
 * multiplied into the cached pages only where its bound says it can fall (gpu/shadow.c), gives
 * the same bytes as multiplied in everywhere, over turns both ways. The low tier as a GPU draws
 * it, without those savings, records its commands once and draws the same. Offscreen on lavapipe
 * with the validation layer (any message fails). usage: test_still [--no-validation] */
#include "../book/book.h"
#include "../book/leaf.h"
#include "../book/view.h"
#include "check.h"
#include "view_turn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How far a frame over the cache may be from the same frame drawn directly (issue 27: within
 * 4/255): the cache holds the lit pages rounded to 8 bits, from which the shadow's loss of light
 * is taken (page.frag). None off by more than STILL_MOST/255 (320x240: 2 found). */
#define STILL_SLACK 2
#define STILL_OFF   0
#define STILL_MOST  4

#define WIDTH  VIEW_TURN_WIDTH
#define HEIGHT VIEW_TURN_HEIGHT

static bool view_create(const GpuContext *ctx, BookLeaf *leaf, BookView *view, GpuError *err)
{
    return view_turn_create(ctx, leaf, GPU_QUALITY_LOW, view, err);
}

/* One frame of the first turn at `t`, its pixels read back when `pixels` is given. */
/* A leaf in flight with the view pulled back all the way (a lift of 1): the camera holds still
 * whatever the leaf does, as between two thumbed leaves, so the still pages can be cached. */
static BookSpread held_back(BookSpread spread)
{
    spread.lift = 1.0f;
    return spread;
}

static bool frame(const GpuContext *ctx, BookView *view, float t, const MeshInk *ink,
                  uint8_t *pixels, GpuError *err)
{
    return view_turn_frame(ctx, view, held_back(BOOK_SPREAD_FIRST_TURN), t, 0.25f, ink, pixels,
                           err);
}

/* Reduced motion's cross-fade over a renderer that cached the spread it leaves: its frames draw
 * everything (the cache is not used while pages fade), the same bytes as a fresh renderer's, and
 * the spread it lands on is drawn anew, not the cached one: the same bytes as a fresh renderer's
 * frame of it. */
static void check_fade(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView cached = {0}, fresh = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES);
    uint8_t *rest = malloc(VIEW_TURN_BYTES);
    BookSpread from = {.right = true, .right_leaf = 0}; /* closed: the first page */
    BookSpread to = {.left = true, .left_leaf = 0, .right = true, .right_leaf = 1};
    BookSpread fading = BOOK_SPREAD_FIRST_TURN;
    book_spread_fading(&fading, 0.5f);
    to.progress = fading.progress; /* framed as the fade is: the open book */
    bool ok = a && b && rest && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &cached, &err) &&
              view_create(ctx, leaf, &fresh, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    for (int f = 0; ok && f < 3; f++) /* cached, then drawn over */
        ok = view_turn_frame(ctx, &cached, from, 0.0f, 0.25f, &ink, rest, &err);
    uint64_t overs = cached.renderer.still.overs;
    for (int f = 0; ok && f < 2; f++)
        ok = view_turn_frame(ctx, &cached, fading, 0.0f, 0.25f, &ink, a, &err);
    ok = ok && view_turn_frame(ctx, &fresh, fading, 0.0f, 0.25f, &ink, b, &err);
    CHECK(s, ok, "fade frames: %s", err.message);
    if (!ok)
        goto done;
    CHECK(s, cached.renderer.still.overs == overs, "%llu fade frames drawn over the cache",
          (unsigned long long)(cached.renderer.still.overs - overs));
    CHECK(s, view_turn_differ(a, rest) > 1000, "the fade looks like the spread it leaves");
    view_turn_same(s, a, b, "mid-fade after the cache against a fresh renderer's");
    for (int f = 0; ok && f < 2; f++)
        ok = view_turn_frame(ctx, &cached, to, 0.0f, 0.25f, &ink, a, &err) &&
             view_turn_frame(ctx, &fresh, to, 0.0f, 0.25f, &ink, b, &err);
    CHECK(s, ok, "landed frames: %s", err.message);
    if (ok)
        view_turn_same(s, a, b, "landed after a fade over the cache against a fresh renderer's");
done:
    book_view_destroy(ctx, &fresh);
    book_view_destroy(ctx, &cached);
    mesh_ink_free(&ink);
    free(a);
    free(b);
    free(rest);
}

/* The kinds of turn the bound and the split are drawn over, and frame i (of 30) of kind k: t
 * changes every frame (the widening turn's view does), the grab every ten. */
static const char *const TURN_NAMES[3] = {"a forward turn", "a backward turn",
                                          "a widening first turn"};

static BookSpread turn_pose(int k, int i, float *t, float *g)
{
    const BookSpread spreads[3] = {held_back(BOOK_SPREAD_FIRST_TURN),
                                   held_back(BOOK_SPREAD_BACKWARD_TURN), BOOK_SPREAD_FIRST_TURN};
    *t = 0.05f + 0.1f * (float)(i % 10), *g = 0.5f * (float)(i / 10);
    BookSpread spread = spreads[k];
    if (k == 2)
        spread.progress = *t;
    return spread;
}

/* Turns forward (onto nothing on the left) and backward (over the left page), grabbed low, in
 * the middle and high, over the cache: the shadow multiplied in within its bound and everywhere,
 * byte for byte. Then a closed book's first turn, whose view widens with it, so that every frame
 * draws its still pages itself: with the shadow's code only within the bound and everywhere. */
static void check_bound(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView bounded = {0}, everywhere = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc((size_t)WIDTH * HEIGHT * 4), *b = malloc((size_t)WIDTH * HEIGHT * 4);
    bool ok = a && b && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &bounded, &err) &&
              view_create(ctx, leaf, &everywhere, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    everywhere.renderer.ignore_bounds = true;
    int frames = 0, differing = 0;
    for (int k = 0; ok && k < 3; k++) {
        for (int i = 0; ok && i < 30; i++) {
            float t, g;
            BookSpread spread = turn_pose(k, i, &t, &g);
            ok = view_turn_frame(ctx, &bounded, spread, t, g, &ink, a, &err) &&
                 view_turn_frame(ctx, &everywhere, spread, t, g, &ink, b, &err);
            CHECK(s, ok, "frames: %s", err.message);
            if (!ok)
                break;
            frames++;
            if (view_turn_differ(a, b)) {
                differing++;
                CHECK(s, false, "%s at t %.2f, grab %.1f: bounding the shadow changed the frame",
                      TURN_NAMES[k], t, g);
            }
        }
    }
    printf("the shadow within its bound against everywhere: %d of %d frames differ (%llu drawn "
           "over the cache)\n",
           differing, frames, (unsigned long long)bounded.renderer.still.overs);
    /* over the cache: all but the first frame of the first two turns' (the next one draws it) */
    CHECK(s, bounded.renderer.still.overs == 58,
          "%llu of %d frames drawn over the cache (58 expected)",
          (unsigned long long)bounded.renderer.still.overs, frames);
    book_view_destroy(ctx, &everywhere);
    book_view_destroy(ctx, &bounded);
    mesh_ink_free(&ink);
    free(a);
    free(b);
}

/* The turning leaf split (mesh/split.h) over the turns of check_bound at this small size (cells
 * of 2-3 pixels, the roll's silhouette a few pixels from many of them), the widening first turn's
 * frames drawn directly, with ink on every page (the plain pipelines with the ink's read). The
 * roll's cells that the view finds free of the outline drawn by the plain pipelines and left out
 * of the edge round, against every roll cell drawn with the outline's, as the pose alone splits
 * them: the same bytes. The flat cells merged into runs, against each drawn by its own two
 * triangles: within 3/255 (the same plane's values interpolated from other vertices, and the
 * light's exposure, which brings a flat page to 1, scales their rounding by 1.23; a pixel left
 * open between two runs would show the page under the leaf). */
static void check_split(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView by_view = {0}, by_pose = {0}, unmerged = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES),
            *c = malloc(VIEW_TURN_BYTES);
    bool ok = a && b && c && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &by_view, &err) &&
              view_create(ctx, leaf, &by_pose, &err) && view_create(ctx, leaf, &unmerged, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    by_pose.split_by_pose = true;
    unmerged.split_unmerged = true;
    for (int layer = 0; ok && layer < 4; layer++) {
        ok = mesh_ink_stroke_begin(&ink, layer, (MeshInkPoint){0.3f, 0.3f, 0.02f}) &&
             mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.7f, 0.6f, 0.02f});
        mesh_ink_stroke_end(&ink);
    }
    int frames = 0, differing = 0, merged_most = 0;
    size_t merged_off = 0;
    for (int k = 0; ok && k < 3; k++) {
        for (int i = 0; ok && i < 30; i++) {
            float t, g;
            BookSpread spread = turn_pose(k, i, &t, &g);
            ok = view_turn_frame(ctx, &by_view, spread, t, g, &ink, a, &err) &&
                 view_turn_frame(ctx, &by_pose, spread, t, g, &ink, b, &err) &&
                 view_turn_frame(ctx, &unmerged, spread, t, g, &ink, c, &err);
            CHECK(s, ok, "frames: %s", err.message);
            frames += ok;
            if (ok && view_turn_differ(a, b)) {
                differing++;
                CHECK(s, false,
                      "%s at t %.2f, grab %.1f: the roll's plain cells changed the frame (%zu "
                      "bytes)",
                      TURN_NAMES[k], t, g, view_turn_differ(a, b));
            }
            for (size_t q = 0; ok && q < VIEW_TURN_BYTES; q++) {
                int d = abs((int)a[q] - (int)c[q]);
                merged_off += d > 0;
                merged_most = d > merged_most ? d : merged_most;
            }
        }
    }
    printf("the roll split by the view against by the pose: %d of %d frames differ; %llu roll "
           "cells drawn plain; the flat cells merged against their own: %zu bytes differ, by at "
           "most %d\n",
           differing, frames, (unsigned long long)by_view.rolled_plain, merged_off, merged_most);
    CHECK(s, by_view.rolled_plain > 1000 && by_pose.rolled_plain == 0,
          "vacuous: %llu roll cells drawn plain by the view, %llu by the pose",
          (unsigned long long)by_view.rolled_plain, (unsigned long long)by_pose.rolled_plain);
    /* 3 measured with page.vert's lift of a leaf's face-down part left out, 5 with it: the lift
     * follows each vertex's normal, which a merged triangle interpolates over cells whose own
     * vertices carry it apart */
    CHECK(s, merged_most <= 5, "the flat cells merged change a byte by %d/255 (at most 5)",
          merged_most);
    book_view_destroy(ctx, &unmerged);
    book_view_destroy(ctx, &by_pose);
    book_view_destroy(ctx, &by_view);
    mesh_ink_free(&ink);
    free(a);
    free(b);
    free(c);
}

/* The low tier as a GPU draws it (GpuRenderer.software false): no still pages' cache, no shadow
 * bound, no edge strips, no split leaf, so it records its commands only when the spread's draws
 * change, as the high tier does (counted over the same frames), and submits them again, against
 * lavapipe's own (recorded every frame), over check_bound's turns: the same picture but for the
 * cache's rounding (STILL_MOST) and the split's merged flat cells (within 5/255: docs/testing.md,
 * `still`). */
#define GPU_TIER_MOST 5

static void check_gpu_tier(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView soft = {0}, gpu = {0}, high = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES);
    bool ok = a && b && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &soft, &err) &&
              view_create(ctx, leaf, &gpu, &err) &&
              view_turn_create(ctx, leaf, GPU_QUALITY_HIGH, &high, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    gpu.renderer.software = false;
    int frames = 0, most = 0;
    for (int k = 0; ok && k < 3; k++) {
        for (int i = 0; ok && i < 30; i++) {
            float t, g;
            BookSpread spread = turn_pose(k, i, &t, &g);
            ok = view_turn_frame(ctx, &soft, spread, t, g, &ink, a, &err) &&
                 view_turn_frame(ctx, &gpu, spread, t, g, &ink, b, &err) &&
                 view_turn_frame(ctx, &high, spread, t, g, &ink, NULL, &err);
            CHECK(s, ok, "frames: %s", err.message);
            for (size_t j = 0; ok && j < VIEW_TURN_BYTES; j++) {
                int d = abs((int)a[j] - (int)b[j]);
                most = d > most ? d : most;
            }
            frames += ok;
        }
    }
    printf("the low tier as a GPU draws it: %llu of %d frames recorded (the high tier %llu, a "
           "software rasteriser's low tier %llu), at most %d/255 from lavapipe's\n",
           (unsigned long long)gpu.recorded, frames, (unsigned long long)high.recorded,
           (unsigned long long)soft.recorded, most);
    CHECK(s, most <= GPU_TIER_MOST,
          "the low tier as a GPU draws it: %d/255 from lavapipe's (at most %d)", most,
          GPU_TIER_MOST);
    CHECK(s, ok && gpu.recorded <= high.recorded && high.recorded < (uint64_t)frames,
          "the low tier as a GPU draws it recorded %llu of %d frames (the high tier %llu)",
          (unsigned long long)gpu.recorded, frames, (unsigned long long)high.recorded);
    CHECK(s, gpu.renderer.still.overs == 0 && gpu.renderer.still.redraws == 0,
          "the low tier as a GPU draws it used the still pages' cache");
    book_view_destroy(ctx, &high);
    book_view_destroy(ctx, &gpu);
    book_view_destroy(ctx, &soft);
    mesh_ink_free(&ink);
    free(a);
    free(b);
}

/* The open spread at rest, zoomed 3x about its middle and panned (dx, dy) pixels of the view. */
static BookSpread panned(float dx, float dy)
{
    BookSpread spread = {.left = true, .left_leaf = 0, .right = true, .right_leaf = 1};
    spread.zoom = (BookZoomView){
        .scale = 3.0f, .x = 0.05f + dx / (float)WIDTH, .y = -0.1f + dy / (float)HEIGHT};
    return spread;
}

/* The largest difference of two frames' bytes, and how many differ. */
static int frames_apart(const uint8_t *a, const uint8_t *b, size_t *differ)
{
    int most = 0;
    *differ = 0;
    for (size_t i = 0; i < VIEW_TURN_BYTES; i++) {
        int d = abs((int)a[i] - (int)b[i]);
        *differ += d != 0;
        most = d > most ? d : most;
    }
    return most;
}

/* A view at rest after a moving one (`spread`, `cached` having drawn the moving frames): drawn,
 * byte for byte a fresh renderer's, and so is the frame after it (the same draws: the cache drawn
 * anew, not the moved or scaled one kept). `after`: what moved, for the messages. */
static void check_rest(CheckState *s, const GpuContext *ctx, BookLeaf *leaf, BookView *cached,
                       BookSpread spread, const MeshInk *ink, uint8_t *a, uint8_t *b,
                       const char *after)
{
    GpuError err = {0};
    BookView fresh = {0};
    bool ok = view_turn_frame(ctx, cached, spread, 0.0f, 0.25f, ink, a, &err) &&
              view_create(ctx, leaf, &fresh, &err) &&
              view_turn_frame(ctx, &fresh, spread, 0.0f, 0.25f, ink, b, &err);
    CHECK(s, ok, "rest frames after %s: %s", after, err.message);
    char what[96];
    snprintf(what, sizeof what, "at rest after %s against drawn directly", after);
    if (ok)
        view_turn_same(s, a, b, what);
    ok = ok && view_turn_frame(ctx, cached, spread, 0.0f, 0.25f, ink, a, &err);
    snprintf(what, sizeof what, "at rest after %s, the frame after, against drawn directly", after);
    if (ok)
        view_turn_same(s, a, b, what);
    book_view_destroy(ctx, &fresh);
}

/* A zoomed view's pan (issue 54): the still pages moved by whole pixels each frame (the pan
 * book/open_frame.c rounds while it moves), no leaf in the air. Each frame moves the cache's
 * picture and draws only the strips it uncovers: within GPU_STILL_SHIFT_MOST of the same view drawn
 * by a renderer that has drawn nothing before, shading a small share of the pixels (counted). At
 * rest (the pan exact, off the whole pixels) the frame is drawn: byte for byte a fresh renderer's,
 * and so is the frame after it (the same draws: the cache drawn anew, not the moved one kept). */
static void check_pan(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView cached = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES);
    bool ok = a && b && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &cached, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    for (int f = 0; ok && f < 2; f++) /* drawn, then into the cache */
        ok = view_turn_frame(ctx, &cached, panned(0, 0), 0.0f, 0.25f, &ink, NULL, &err);
    /* a pan's moves: across, down, both, back, and one of many pixels */
    static const int MOVES[][2] = {{3, 0}, {0, -2}, {-4, 5}, {1, 1}, {-7, -3}, {40, 20}};
    const int moves = (int)(sizeof MOVES / sizeof MOVES[0]);
    int x = 0, y = 0, most = 0;
    size_t differ = 0;
    for (int m = 0; ok && m < moves; m++) {
        x += MOVES[m][0], y += MOVES[m][1];
        BookView fresh = {0};
        size_t off;
        ok =
            view_turn_frame(ctx, &cached, panned((float)x, (float)y), 0.0f, 0.25f, &ink, a, &err) &&
            view_create(ctx, leaf, &fresh, &err) &&
            view_turn_frame(ctx, &fresh, panned((float)x, (float)y), 0.0f, 0.25f, &ink, b, &err);
        int d = ok ? frames_apart(a, b, &off) : 0;
        most = d > most ? d : most, differ += ok ? off : 0;
        book_view_destroy(ctx, &fresh);
    }
    CHECK(s, ok, "pan frames: %s", err.message);
    const GpuStillCache *c = &cached.renderer.still;
    printf("a zoomed pan: %llu of %d frames moved the still pages, shading %llu of %llu pixels "
           "(%.1f %%); against drawn directly %zu bytes differ, by at most %d/255\n",
           (unsigned long long)c->shifts, moves, (unsigned long long)c->shifted_shaded,
           (unsigned long long)c->shifted_pixels,
           c->shifted_pixels ? 100.0 * (double)c->shifted_shaded / (double)c->shifted_pixels : 0.0,
           differ, most);
    CHECK(s, ok && c->shifts == (uint64_t)moves, "%llu of %d pan frames moved the still pages",
          (unsigned long long)c->shifts, moves);
    CHECK(s, c->shifted_shaded * 5 < c->shifted_pixels,
          "the pan's frames shaded %llu of %llu pixels (under a fifth expected)",
          (unsigned long long)c->shifted_shaded, (unsigned long long)c->shifted_pixels);
    CHECK(s, most <= GPU_STILL_SHIFT_MOST,
          "a pan's frame is %d/255 from the same view drawn directly (at most %d)", most,
          GPU_STILL_SHIFT_MOST);
    /* at rest: the pan exact, a third of a pixel off the last, then the same frame again */
    if (ok)
        check_rest(s, ctx, leaf, &cached, panned((float)x + 0.33f, (float)y - 0.4f), &ink, a, b,
                   "the pan");
    CHECK(s, c->shifts == (uint64_t)moves, "a frame at rest moved the still pages");
    book_view_destroy(ctx, &cached);
    mesh_ink_free(&ink);
    free(a);
    free(b);
}

/* The open spread zoomed `scale` about a point left of its middle; `scaling`: on a zoom's ease. */
static BookSpread zoomed(float scale, bool scaling)
{
    BookSpread spread = {.left = true, .left_leaf = 0, .right = true, .right_leaf = 1};
    spread.zoom = (BookZoomView){.scale = scale, .x = 0.03f, .y = -0.02f, .scaling = scaling};
    return spread;
}

/* The mean difference of the bytes of frame a from those of frame b moved by (mx, my) pixels,
 * over the pixels 8 in from the edges. */
static double mean_apart(const uint8_t *a, const uint8_t *b, int mx, int my)
{
    double sum = 0.0;
    size_t n = 0;
    for (int y = 8; y < HEIGHT - 8; y++)
        for (int x = 8; x < WIDTH - 8; x++)
            for (int c = 0; c < 3; c++, n++)
                sum += abs((int)a[((size_t)y * WIDTH + x) * 4 + c] -
                           (int)b[((size_t)(y - my) * WIDTH + (x - mx)) * 4 + c]);
    return sum / (double)n;
}

/* A zoom's ease (issue 54): each moving frame is the frame drawn at the ease's start scaled (one
 * linear resample, its corners on whole pixels) with only what that leaves uncovered drawn, no
 * leaf in the air. Against the same view drawn directly: closer to it than to it moved by a pixel
 * any way (the picture lies within GPU_STILL_SCALE_MISPLACED of its place) and within
 * SCALE_MEAN_MOST a byte on average (the resample's softening of the print). At rest (the ease
 * over) the frame is drawn: byte for byte a fresh renderer's. */
#define SCALE_MEAN_MOST 3.0
static void check_scale(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView cached = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc(VIEW_TURN_BYTES), *b = malloc(VIEW_TURN_BYTES);
    bool ok = a && b && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &cached, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    const float start = 2.0f;
    ok = ok && view_turn_frame(ctx, &cached, zoomed(start, true), 0.0f, 0.25f, &ink, NULL, &err);
    /* in a little, in more, out past the start (a border uncovered), further out */
    static const float STEPS[] = {1.08f, 1.3f, 0.9f, 0.7f};
    const int steps = (int)(sizeof STEPS / sizeof STEPS[0]);
    const GpuStillCache *c = &cached.renderer.still;
    uint64_t scales = c->scales, shaded = c->scaled_shaded;
    double worst = 0.0;
    int misplaced = 0;
    for (int k = 0; ok && k < steps; k++) {
        BookView fresh = {0};
        float scale = start * STEPS[k];
        ok = view_turn_frame(ctx, &cached, zoomed(scale, true), 0.0f, 0.25f, &ink, a, &err) &&
             view_create(ctx, leaf, &fresh, &err) &&
             view_turn_frame(ctx, &fresh, zoomed(scale, false), 0.0f, 0.25f, &ink, b, &err);
        book_view_destroy(ctx, &fresh);
        if (!ok)
            break;
        double here = mean_apart(a, b, 0, 0), moved = 1e9;
        static const int NEXT[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        for (int m = 0; m < 4; m++)
            moved = fmin(moved, mean_apart(a, b, NEXT[m][0], NEXT[m][1]));
        printf("a zoom's ease at %.2f of its start: %.2f a byte from drawn directly, %.2f from "
               "it moved a pixel\n",
               (double)STEPS[k], here, moved);
        worst = fmax(worst, here);
        misplaced += here >= moved;
    }
    CHECK(s, ok, "zoom frames: %s", err.message);
    CHECK(s, c->scales - scales == (uint64_t)steps, "%llu of %d frames of the ease were scaled",
          (unsigned long long)(c->scales - scales), steps);
    CHECK(s, misplaced == 0, "%d scaled frames lie a pixel or more from their place", misplaced);
    CHECK(s, worst <= SCALE_MEAN_MOST, "a scaled frame is %.2f a byte from drawn directly (%.1f)",
          worst, SCALE_MEAN_MOST);
    CHECK(s, c->scaled_shaded - shaded < (uint64_t)WIDTH * HEIGHT * (uint64_t)steps / 2,
          "the ease's frames shaded %llu pixels, over half of theirs",
          (unsigned long long)(c->scaled_shaded - shaded));
    /* at rest, the scale of the last, then the frame after */
    if (ok)
        check_rest(s, ctx, leaf, &cached, zoomed(start * STEPS[steps - 1], false), &ink, a, b,
                   "the zoom's ease");
    CHECK(s, c->scales - scales == (uint64_t)steps, "a frame at rest was scaled");
    book_view_destroy(ctx, &cached);
    mesh_ink_free(&ink);
    free(a);
    free(b);
}

/* New texels for the turning leaf's layers (a page arriving while it turns, or the next
 * spread's) leave the cached still pages as they are; new texels for the right page's draw them
 * again, once. `redraws`: the cache's draws so far. */
static void check_layers(CheckState *s, const GpuContext *ctx, BookView *view, const MeshInk *ink,
                         uint64_t redraws)
{
    GpuError err = {0};
    GpuTexture *content = &view->renderer.content;
    size_t layer = (size_t)content->width * content->height * 4;
    uint8_t *texels = malloc(2 * layer);
    bool ok = texels != NULL;
    static const struct {
        uint32_t first;
        uint64_t more;
        const char *what;
    } UPDATES[] = {{0, 0, "the turning leaf's"}, {2, 1, "the right page's"}};
    for (size_t u = 0; ok && u < sizeof UPDATES / sizeof UPDATES[0]; u++) {
        for (size_t i = 0; i < 2 * layer; i++)
            texels[i] = (uint8_t)(i % 4 == 3 ? 255 : 200 + (i / 4 + u * 7) % 40);
        ok = gpu_texture_update(ctx, content, UPDATES[u].first, 2, texels, &err);
        for (int f = 0; ok && f < 3; f++)
            ok = frame(ctx, view, 0.7f + 0.05f * (float)f, ink, NULL, &err);
        CHECK(s, ok, "frames after new texels for %s layers: %s", UPDATES[u].what, err.message);
        redraws += UPDATES[u].more;
        if (ok) {
            printf("new texels for %s layers: the still pages drawn %llu times in all\n",
                   UPDATES[u].what, (unsigned long long)view->renderer.still.redraws);
            CHECK(s, view->renderer.still.redraws == redraws,
                  "new texels for %s layers: the still pages drawn %llu times in all (%llu "
                  "expected)",
                  UPDATES[u].what, (unsigned long long)view->renderer.still.redraws,
                  (unsigned long long)redraws);
        }
    }
    free(texels);
}

static void check_still(CheckState *s, const GpuContext *ctx, BookLeaf *leaf)
{
    GpuError err = {0};
    BookView cached = {0}, fresh = {0};
    MeshInk ink = {0};
    uint8_t *a = malloc((size_t)WIDTH * HEIGHT * 4), *b = malloc((size_t)WIDTH * HEIGHT * 4);
    bool ok = a && b && mesh_ink_init(&ink, 4) && view_create(ctx, leaf, &cached, &err);
    CHECK(s, ok, "set-up: %s", err.message);
    /* the leaf moves over five frames: the still pages are drawn once */
    for (int f = 0; ok && f < 5; f++)
        ok = frame(ctx, &cached, 0.1f + 0.1f * (float)f, &ink, f == 4 ? a : NULL, &err);
    CHECK(s, ok, "frames: %s", err.message);
    if (ok) {
        printf("still pages drawn %llu times in 5 frames of a turn\n",
               (unsigned long long)cached.renderer.still.redraws);
        CHECK(s, cached.renderer.still.redraws == 1,
              "the still pages were drawn %llu times while only the leaf moved (once expected)",
              (unsigned long long)cached.renderer.still.redraws);
    }
    /* the same last pose by a renderer that has drawn nothing before: its first frame draws the
     * still pages itself, its second over the cache */
    uint8_t *direct = malloc(VIEW_TURN_BYTES);
    ok = ok && direct && view_create(ctx, leaf, &fresh, &err) &&
         frame(ctx, &fresh, 0.5f, &ink, direct, &err) && frame(ctx, &fresh, 0.5f, &ink, b, &err);
    CHECK(s, ok, "fresh frames: %s", err.message);
    if (ok) {
        CHECK(s, fresh.renderer.still.overs == 1,
              "a fresh renderer drew %llu of 2 frames of one pose over the cache (the second "
              "expected)",
              (unsigned long long)fresh.renderer.still.overs);
        size_t off = 0;
        int most = 0;
        for (size_t i = 0; i < VIEW_TURN_BYTES; i++) {
            int d = abs((int)direct[i] - (int)b[i]);
            off += d > STILL_SLACK;
            most = d > most ? d : most;
        }
        printf("over the cache against drawn directly: %zu bytes off by more than %d, at most %d\n",
               off, STILL_SLACK, most);
        CHECK(s, off <= STILL_OFF && most <= STILL_MOST && most > 0,
              "over the cache against drawn directly: %zu bytes off by more than %d/255 (at most "
              "%zu), at most %d/255 (%d)",
              off, STILL_SLACK, (size_t)STILL_OFF, most, STILL_MOST);
    }
    free(direct);
    if (ok) {
        size_t differ = 0;
        for (size_t i = 0; i < (size_t)WIDTH * HEIGHT * 4; i++)
            differ += a[i] != b[i];
        printf("a frame over the cache against a fresh one: %zu bytes differ\n", differ);
        CHECK(s, differ == 0,
              "a frame over the cached still pages differs from a fresh one in %zu "
              "bytes",
              differ);
    }
    /* ink on the right page, twice (the first marks its layer inked, the second only changes
     * texels): the still pages are drawn again after each, once */
    for (unsigned stroke = 0; ok && stroke < 2; stroke++) {
        float v = 0.3f + 0.2f * (float)stroke;
        ok = mesh_ink_stroke_begin(&ink, 2, (MeshInkPoint){0.6f, v, 0.02f}) &&
             mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.8f, v + 0.1f, 0.02f});
        mesh_ink_stroke_end(&ink);
        CHECK(s, ok, "stroke");
        for (int f = 0; ok && f < 3; f++)
            ok = frame(ctx, &cached, 0.6f + 0.05f * (float)f, &ink, NULL, &err);
        CHECK(s, ok, "inked frames: %s", err.message);
        if (ok)
            CHECK(s, cached.renderer.still.redraws == 2 + stroke,
                  "after stroke %u the still pages were drawn %llu times in all (%u expected)",
                  stroke + 1, (unsigned long long)cached.renderer.still.redraws, 2 + stroke);
    }
    check_layers(s, ctx, &cached, &ink, 3);
    book_view_destroy(ctx, &fresh);
    book_view_destroy(ctx, &cached);
    mesh_ink_free(&ink);
    free(a);
    free(b);
    check_bound(s, ctx, leaf);
    check_fade(s, ctx, leaf);
    check_split(s, ctx, leaf);
    check_gpu_tier(s, ctx, leaf);
    check_pan(s, ctx, leaf);
    check_scale(s, ctx, leaf);
}

int main(int argc, char **argv)
{
    return view_turn_main(argc, argv, "test_still", check_still);
}
