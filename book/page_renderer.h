/* SPDX-License-Identifier: MIT */
/* The renderer of a book's pages: its content layers filled with the pages' pixels (the built-in
 * book's, typeset here, or a stream's paper until its pages arrive) and as many ink layers of the
 * same aspect, their texels square on the paper. Where pages/ (pixels, no Vulkan) meets gpu/. */
#ifndef PAGECURL_BOOK_PAGE_RENDERER_H
#define PAGECURL_BOOK_PAGE_RENDERER_H

#include "../gpu/renderer.h"

/* The renderer of `desc` (its colour format and samples; the content is filled in here) with
 * the pages of a `leaves`-leaf book, set in the face found at run time, on a page of aspect height
 * / width. */
bool book_renderer_create(const GpuContext *ctx, const GpuRendererDesc *desc, uint32_t leaves,
                          float aspect, GpuRenderer *out, GpuError *err);

/* The renderer of `desc` with `layers` content layers of width x height texels from `pixels`
 * (where `pixel_layers` is non-zero, it holds that many, repeated: GpuTextureDesc), and as many
 * ink layers of the same aspect. */
bool book_renderer_layers(const GpuContext *ctx, const GpuRendererDesc *desc, uint32_t width,
                          uint32_t height, uint32_t layers, const uint8_t *pixels,
                          uint32_t pixel_layers, GpuRenderer *out, GpuError *err);

#endif
