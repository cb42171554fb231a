/* SPDX-License-Identifier: MIT */
#include "ink_texture.h"

#include "../gpu/texture.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint32_t level_w(const BookInkTexture *t, uint32_t level)
{
    return t->width >> level ? t->width >> level : 1;
}

static uint32_t level_h(const BookInkTexture *t, uint32_t level)
{
    return t->height >> level ? t->height >> level : 1;
}

static uint8_t *level_at(const BookInkTexture *t, uint32_t layer, uint32_t level)
{
    uint8_t *at = t->coverage + t->chain * layer;
    for (uint32_t l = 0; l < level; l++)
        at += (size_t)level_w(t, l) * level_h(t, l);
    return at;
}

const uint8_t *book_ink_texture_level(const BookInkTexture *tex, uint32_t layer, uint32_t level)
{
    return level_at(tex, layer, level);
}

bool book_ink_texture_init(BookInkTexture *tex, uint32_t layers, uint32_t width, uint32_t height)
{
    memset(tex, 0, sizeof *tex);
    tex->width = width;
    tex->height = height;
    tex->layers = layers;
    tex->levels = gpu_texture_levels(width, height);
    for (uint32_t l = 0; l < tex->levels; l++)
        tex->chain += (size_t)level_w(tex, l) * level_h(tex, l);
    tex->coverage = calloc(tex->chain, layers);
    tex->synced = calloc(layers, sizeof *tex->synced);
    tex->dirty = calloc(layers, sizeof *tex->dirty);
    tex->side = malloc(layers * sizeof *tex->side);
    if (tex->coverage && tex->synced && tex->dirty && tex->side) {
        for (uint32_t l = 0; l < layers; l++)
            tex->side[l] = (int)l;
        return true;
    }
    book_ink_texture_free(tex);
    return false;
}

void book_ink_texture_free(BookInkTexture *tex)
{
    free(tex->coverage);
    free(tex->synced);
    free(tex->dirty);
    free(tex->side);
    memset(tex, 0, sizeof *tex);
}

static void draw_stroke(const BookInkTexture *t, const MeshInkStroke *st, size_t from,
                        uint8_t *image, MeshInkRect *dirty)
{
    if (st->count == 1 && from == 0)
        mesh_ink_raster_segment(st->points[0], st->points[0], t->width, t->height, image, dirty);
    for (size_t i = from; i + 1 < st->count; i++)
        mesh_ink_raster_segment(st->points[i], st->points[i + 1], t->width, t->height, image,
                                dirty);
}

/* How a layer comes up to its side: it is, new segments are drawn, or the side is drawn again. */
typedef enum Sync { SYNC_NONE, SYNC_APPEND, SYNC_REDRAW } Sync;

/* Where new segments alone would be this much of the raster's budget, the side is drawn again
 * with the others instead, within the budget (a loaded notebook's side, a host's long stroke). */
#define APPEND_MOST (MESH_INK_RASTER_BUDGET / 16.0)

static Sync sync_kind(const BookInkTexture *t, uint32_t layer, const MeshInkSide *side)
{
    const BookInkSynced *s = &t->synced[layer];
    const MeshInkStroke *last = side->count ? &side->strokes[side->count - 1] : NULL;
    if (side->count == s->strokes &&
        (!last || (last->serial == s->serial && last->count == s->points)))
        return SYNC_NONE;
    /* Appended to: the strokes synced so far are all still there, the newest perhaps longer. */
    const MeshInkStroke *was =
        s->strokes && side->count >= s->strokes ? &side->strokes[s->strokes - 1] : NULL;
    bool appended = side->count >= s->strokes &&
                    (!s->strokes || (was->serial == s->serial && was->count >= s->points));
    if (!appended)
        return SYNC_REDRAW; /* taken back or cleared: the side drawn again from what is left */
    double work = 0.0;
    for (size_t k = s->strokes ? s->strokes - 1 : 0; k < side->count && work <= APPEND_MOST; k++) {
        bool old = k + 1 == s->strokes;
        work +=
            mesh_ink_raster_work(&side->strokes[k], old ? s->points - 1 : 0, t->width, t->height);
    }
    return work <= APPEND_MOST ? SYNC_APPEND : SYNC_REDRAW;
}

/* Draws the new segments of layer `layer`'s side into its level 0; grows `changed` by the texels
 * it drew. */
static void append_layer(BookInkTexture *t, uint32_t layer, const MeshInkSide *side,
                         MeshInkRect *changed)
{
    const BookInkSynced *s = &t->synced[layer];
    uint8_t *image = level_at(t, layer, 0);
    for (size_t k = s->strokes ? s->strokes - 1 : 0; k < side->count; k++) {
        bool old = k + 1 == s->strokes;
        draw_stroke(t, &side->strokes[k], old ? s->points - 1 : 0, image, changed);
    }
}

/* Layer `layer` now shows `side` as it is. */
static void mark_synced(BookInkTexture *t, uint32_t layer, const MeshInkSide *side)
{
    const MeshInkStroke *last = side->count ? &side->strokes[side->count - 1] : NULL;
    t->synced[layer] =
        (BookInkSynced){side->count, last ? last->count : 0, last ? last->serial : 0};
}

static bool rect_empty(MeshInkRect r)
{
    return r.x0 >= r.x1 || r.y0 >= r.y1;
}

/* The rectangle of each level that level 0's rectangle r affects, in rects[0 .. levels-1]. */
static void mip_rects(const BookInkTexture *t, MeshInkRect r, MeshInkRect *rects)
{
    rects[0] = r;
    for (uint32_t l = 1; l < t->levels; l++) {
        uint32_t w = level_w(t, l), h = level_h(t, l);
        r = (MeshInkRect){r.x0 / 2, r.y0 / 2, (r.x1 + 1) / 2, (r.y1 + 1) / 2};
        r.x1 = r.x1 < w ? r.x1 : w, r.y1 = r.y1 < h ? r.y1 : h;
        r.x0 = r.x0 < r.x1 ? r.x0 : r.x1 - 1, r.y0 = r.y0 < r.y1 ? r.y0 : r.y1 - 1;
        rects[l] = r;
    }
}

/* The mips over `rects` (mip_rects): each texel the mean of the four below it (coverage is
 * linear, so a plain box; an odd level's last row or column is left out, as it is from the
 * GPU's floor-sized levels). */
static void make_mips(BookInkTexture *t, uint32_t layer, const MeshInkRect *rects)
{
    for (uint32_t l = 1; l < t->levels; l++) {
        uint32_t sw = level_w(t, l - 1), sh = level_h(t, l - 1), w = level_w(t, l);
        MeshInkRect r = rects[l];
        const uint8_t *src = level_at(t, layer, l - 1);
        uint8_t *dst = level_at(t, layer, l);
        for (uint32_t y = r.y0; y < r.y1; y++)
            for (uint32_t x = r.x0; x < r.x1; x++) {
                uint32_t x0 = 2 * x < sw ? 2 * x : sw - 1, y0 = 2 * y < sh ? 2 * y : sh - 1;
                uint32_t x1 = x0 + 1 < sw ? x0 + 1 : x0, y1 = y0 + 1 < sh ? y0 + 1 : y0;
                int sum = src[(size_t)y0 * sw + x0] + src[(size_t)y0 * sw + x1] +
                          src[(size_t)y1 * sw + x0] + src[(size_t)y1 * sw + x1];
                dst[(size_t)y * w + x] = (uint8_t)((sum + 2) / 4);
            }
    }
}

/* The mips over what changed in layer `layer`, and that added to what is to be uploaded. */
static void changed_layer(BookInkTexture *tex, uint32_t layer, MeshInkRect changed)
{
    if (rect_empty(changed))
        return;
    MeshInkRect rects[32];
    mip_rects(tex, changed, rects);
    make_mips(tex, layer, rects);
    MeshInkRect *d = &tex->dirty[layer];
    if (rect_empty(*d))
        *d = changed;
    else
        *d = (MeshInkRect){
            d->x0 < changed.x0 ? d->x0 : changed.x0, d->y0 < changed.y0 ? d->y0 : changed.y0,
            d->x1 > changed.x1 ? d->x1 : changed.x1, d->y1 > changed.y1 ? d->y1 : changed.y1};
}

void book_ink_texture_sync(BookInkTexture *tex, const MeshInk *ink)
{
    if (!ink || !tex->layers)
        return;
    /* The sides drawn again whole are drawn together, within the raster's budget together: a
     * notebook's every side at its load takes a bounded time, however much ink it holds. */
    const MeshInkSide **sides = NULL;
    uint8_t **images = NULL;
    uint32_t *redrawn = NULL;
    size_t n = 0;
    for (uint32_t layer = 0; layer < tex->layers; layer++) {
        int side = tex->side[layer];
        if (side < 0 || side >= ink->side_count)
            continue;
        const MeshInkSide *sd = &ink->sides[side];
        Sync kind = sync_kind(tex, layer, sd);
        /* the lists made at the first side drawn again: a frame of new segments allocates none */
        if (kind == SYNC_REDRAW && !sides) {
            sides = malloc(tex->layers * sizeof *sides);
            images = malloc(tex->layers * sizeof *images);
            redrawn = malloc(tex->layers * sizeof *redrawn);
        }
        if (kind == SYNC_REDRAW && sides && images && redrawn) {
            sides[n] = sd, images[n] = level_at(tex, layer, 0), redrawn[n++] = layer;
        } else if (kind != SYNC_NONE) { /* (or without the memory to draw sides together) */
            MeshInkRect changed = {0};
            if (kind == SYNC_APPEND) {
                append_layer(tex, layer, sd, &changed);
            } else {
                mesh_ink_raster_side(sd, tex->width, tex->height, level_at(tex, layer, 0));
                changed = (MeshInkRect){0, 0, tex->width, tex->height};
            }
            mark_synced(tex, layer, sd);
            changed_layer(tex, layer, changed);
        }
    }
    if (n)
        mesh_ink_raster_sides(sides, images, n, tex->width, tex->height, NULL);
    for (size_t i = 0; i < n; i++) {
        mark_synced(tex, redrawn[i], sides[i]);
        changed_layer(tex, redrawn[i], (MeshInkRect){0, 0, tex->width, tex->height});
    }
    free(sides);
    free(images);
    free(redrawn);
}

void book_ink_texture_assign(BookInkTexture *tex, uint32_t layer, int side)
{
    if (tex->side[layer] == side)
        return;
    tex->side[layer] = side;
    if (tex->synced[layer].strokes) {
        /* the last side's strokes go; the next sync draws the new side's on clean paper */
        memset(level_at(tex, layer, 0), 0, tex->chain);
        tex->dirty[layer] = (MeshInkRect){0, 0, tex->width, tex->height};
    }
    tex->synced[layer] = (BookInkSynced){0};
}

bool book_ink_texture_stage(BookInkTexture *tex, GpuInk *gpu, GpuInkSlot *slot)
{
    assert(tex->width == gpu->width && tex->height == gpu->height && tex->levels == gpu->levels);
    gpu_ink_stage_begin(slot);
    bool all = true;
    uint32_t layers = tex->layers < gpu->layers ? tex->layers : gpu->layers;
    for (uint32_t layer = 0; layer < layers; layer++) {
        if (rect_empty(tex->dirty[layer]))
            continue;
        MeshInkRect rects[32];
        mip_rects(tex, tex->dirty[layer], rects);
        bool staged = true;
        for (uint32_t l = 0; l < tex->levels && staged; l++) {
            uint32_t w = level_w(tex, l);
            GpuInkRegion region = {
                .layer = layer,
                .level = l,
                .x = rects[l].x0,
                .y = rects[l].y0,
                .width = rects[l].x1 - rects[l].x0,
                .height = rects[l].y1 - rects[l].y0,
                .texels = level_at(tex, layer, l) + (size_t)rects[l].y0 * w + rects[l].x0,
                .stride = w,
            };
            staged = gpu_ink_stage(gpu, slot, &region);
        }
        if (staged)
            tex->dirty[layer] = (MeshInkRect){0};
        all = all && staged;
    }
    return all;
}

bool book_ink_texture_update(BookInkTexture *tex, const MeshInk *ink, GpuInk *gpu, uint32_t slot)
{
    book_ink_texture_sync(tex, ink);
    return book_ink_texture_stage(tex, gpu, &gpu->slots[slot]);
}

bool book_ink_texture_pending(BookInkTexture *tex, const MeshInk *ink)
{
    book_ink_texture_sync(tex, ink);
    for (uint32_t layer = 0; layer < tex->layers; layer++)
        if (!rect_empty(tex->dirty[layer]))
            return true;
    return false;
}

bool book_ink_texture_upload(BookInkTexture *tex, const MeshInk *ink, const GpuContext *ctx,
                             GpuInk *gpu, GpuError *err)
{
    book_ink_texture_sync(tex, ink);
    bool all;
    do {
        if (!gpu_ink_upload_begin(ctx, gpu, err))
            return false;
        all = book_ink_texture_stage(tex, gpu, &gpu->once);
        if (!gpu_ink_upload(ctx, gpu, err))
            return false;
    } while (!all);
    return true;
}
