/* SPDX-License-Identifier: MIT */
#include "page_renderer.h"

#include "../mesh/ink_raster.h"
#include "../pages/content.h"
#include "../pages/typeface.h"

#include <math.h>
#include <stdlib.h>

bool book_renderer_layers(const GpuContext *ctx, const GpuRendererDesc *base, uint32_t width,
                          uint32_t height, uint32_t layers, const uint8_t *pixels,
                          uint32_t pixel_layers, GpuRenderer *out, GpuError *err)
{
    GpuRendererDesc desc = *base;
    desc.content = (GpuTextureDesc){.width = width,
                                    .height = height,
                                    .layers = layers,
                                    .pixels = pixels,
                                    .pixel_layers = pixel_layers,
                                    .label = "page content"};
    /* texels square on the paper, as the rasteriser's widths and dots assume */
    desc.ink_width = MESH_INK_RASTER_SIZE;
    desc.ink_height = (uint32_t)lrintf(MESH_INK_RASTER_SIZE * (float)height / (float)width);
    return gpu_renderer_create(ctx, &desc, out, err);
}

bool book_renderer_create(const GpuContext *ctx, const GpuRendererDesc *base, uint32_t leaves,
                          float aspect, GpuRenderer *out, GpuError *err)
{
    uint32_t w = PAGES_CONTENT_WIDTH, h = (uint32_t)lrintf(PAGES_CONTENT_WIDTH * aspect);
    char why[512]; /* what a damaged face is for, a book's open says (pages_book_source_notice) */
    PagesTypeface *face = pages_typeface_load(why, sizeof why); /* none: stb_easy_font's letters */
    uint8_t *pixels = pages_content_pixels(face, leaves, w, h);
    pages_typeface_free(face);
    if (!pixels)
        return gpu_error_set(err, "out of memory for %u pages of %ux%u texels", 2 * leaves, w, h);
    bool ok = book_renderer_layers(ctx, base, w, h, 2 * leaves, pixels, 0, out, err);
    free(pixels);
    return ok;
}
