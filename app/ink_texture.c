#include "ink_texture.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint32_t level_size(const AppInkTexture *t, uint32_t level)
{
    return t->size >> level ? t->size >> level : 1;
}

static uint8_t *level_at(const AppInkTexture *t, uint32_t layer, uint32_t level)
{
    uint8_t *at = t->coverage + t->chain * layer;
    for (uint32_t l = 0; l < level; l++)
        at += (size_t)level_size(t, l) * level_size(t, l);
    return at;
}

const uint8_t *app_ink_texture_level(const AppInkTexture *tex, uint32_t layer, uint32_t level)
{
    return level_at(tex, layer, level);
}

bool app_ink_texture_init(AppInkTexture *tex, uint32_t layers, uint32_t size)
{
    memset(tex, 0, sizeof *tex);
    tex->size = size;
    tex->layers = layers;
    tex->levels = 1;
    for (uint32_t s = size; s > 1; s >>= 1)
        tex->levels++;
    for (uint32_t l = 0; l < tex->levels; l++)
        tex->chain += (size_t)level_size(tex, l) * level_size(tex, l);
    tex->coverage = calloc(tex->chain, layers);
    tex->synced = calloc(layers, sizeof *tex->synced);
    tex->dirty = calloc(layers, sizeof *tex->dirty);
    if (tex->coverage && tex->synced && tex->dirty)
        return true;
    app_ink_texture_free(tex);
    return false;
}

void app_ink_texture_free(AppInkTexture *tex)
{
    free(tex->coverage);
    free(tex->synced);
    free(tex->dirty);
    memset(tex, 0, sizeof *tex);
}

static void draw_stroke(const MeshInkStroke *st, size_t from, uint32_t size, uint8_t *image,
                        MeshInkRect *dirty)
{
    if (st->count == 1 && from == 0)
        mesh_ink_raster_segment(st->points[0], st->points[0], size, image, dirty);
    for (size_t i = from; i + 1 < st->count; i++)
        mesh_ink_raster_segment(st->points[i], st->points[i + 1], size, image, dirty);
}

/* Brings layer `layer`'s level 0 up to `page`; grows its dirty rectangle. */
static void sync_layer(AppInkTexture *t, uint32_t layer, const MeshInkPage *page)
{
    AppInkSynced *s = &t->synced[layer];
    const MeshInkStroke *last = page->count ? &page->strokes[page->count - 1] : NULL;
    if (page->count == s->strokes &&
        (!last || (last->serial == s->serial && last->count == s->points)))
        return;
    uint8_t *image = level_at(t, layer, 0);
    /* Appended to: the strokes synced so far are all still there, the newest perhaps longer. */
    const MeshInkStroke *was =
        s->strokes && page->count >= s->strokes ? &page->strokes[s->strokes - 1] : NULL;
    bool appended = page->count >= s->strokes &&
                    (!s->strokes || (was->serial == s->serial && was->count >= s->points));
    if (appended) {
        for (size_t k = s->strokes ? s->strokes - 1 : 0; k < page->count; k++) {
            bool old = k + 1 == s->strokes;
            draw_stroke(&page->strokes[k], old ? s->points - 1 : 0, t->size, image,
                        &t->dirty[layer]);
        }
    } else {
        /* taken back or cleared: the side drawn again from what is left */
        mesh_ink_raster_page(page, t->size, image);
        t->dirty[layer] = (MeshInkRect){0, 0, t->size, t->size};
    }
    *s = (AppInkSynced){page->count, last ? last->count : 0, last ? last->serial : 0};
}

/* The mips under the dirty rectangle: each texel the mean of the four below it (coverage is
 * linear, so a plain box). Returns level l's rectangle in rects[l]. */
static void make_mips(AppInkTexture *t, uint32_t layer, MeshInkRect *rects)
{
    rects[0] = t->dirty[layer];
    for (uint32_t l = 1; l < t->levels; l++) {
        MeshInkRect r = rects[l - 1];
        r = (MeshInkRect){r.x0 / 2, r.y0 / 2, (r.x1 + 1) / 2, (r.y1 + 1) / 2};
        rects[l] = r;
        uint32_t sw = level_size(t, l - 1), w = level_size(t, l);
        const uint8_t *src = level_at(t, layer, l - 1);
        uint8_t *dst = level_at(t, layer, l);
        for (uint32_t y = r.y0; y < r.y1; y++)
            for (uint32_t x = r.x0; x < r.x1; x++) {
                const uint8_t *p = src + (size_t)2 * y * sw + 2 * x;
                dst[(size_t)y * w + x] = (uint8_t)((p[0] + p[1] + p[sw] + p[sw + 1] + 2) / 4);
            }
    }
}

bool app_ink_texture_update(AppInkTexture *tex, const MeshInk *ink, GpuInk *gpu, uint32_t slot)
{
    assert(tex->size == gpu->size);
    gpu_ink_stage_begin(gpu, slot);
    if (!ink)
        return true;
    bool all = true;
    uint32_t layers =
        tex->layers < (uint32_t)ink->page_count ? tex->layers : (uint32_t)ink->page_count;
    if (gpu->layers < layers)
        layers = gpu->layers;
    for (uint32_t layer = 0; layer < layers; layer++) {
        sync_layer(tex, layer, &ink->pages[layer]);
        MeshInkRect d = tex->dirty[layer];
        if (d.x0 >= d.x1 || d.y0 >= d.y1)
            continue;
        MeshInkRect rects[32];
        make_mips(tex, layer, rects);
        bool staged = true;
        for (uint32_t l = 0; l < tex->levels && staged; l++) {
            uint32_t w = level_size(tex, l);
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

bool app_ink_texture_upload(AppInkTexture *tex, const MeshInk *ink, const GpuContext *ctx,
                            GpuInk *gpu, GpuError *err)
{
    bool all;
    do {
        all = app_ink_texture_update(tex, ink, gpu, 0);
        if (!gpu_ink_upload(ctx, gpu, 0, err))
            return false;
    } while (!all);
    return true;
}
