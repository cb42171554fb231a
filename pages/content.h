/* SPDX-License-Identifier: MIT */
/* What is printed on the pages: each leaf's front is ruled notebook paper with a chapter title, a
 * written passage and its page number; its back is graph paper with a heading, a framed note
 * and its own page number, on the other corner. Drawn on the CPU at start-up (text in the
 * TrueType face of typeface.h, or by stb_easy_font's quads where there is none; everything else
 * with exact box coverage) into one texture layer per page side,
 * leaf k's front in layer 2k and back in 2k + 1, and uploaded as a mipmapped texture. Owns the
 * pixels only while making them; the texture belongs to the renderer. */
#ifndef PAGECURL_APP_CONTENT_H
#define PAGECURL_APP_CONTENT_H

#include "../gpu/renderer.h"
#include "typeface.h"

/* Texels across a page; down it follows the page's aspect. Big enough that the title and page
 * number stay sharp at 1280x720, small enough to draw and upload in a few milliseconds. */
#define APP_CONTENT_WIDTH 512
/* Leaves in the built-in book (its pages: twice as many). */
#define APP_CONTENT_LEAVES 8

/* RGBA8 sRGB pixels for `leaves` leaves (2 layers each) of width x height texels, the text set in
 * `face` (NULL: stb_easy_font); NULL when out of memory. free() them. */
uint8_t *app_content_pixels(const AppTypeface *face, uint32_t leaves, uint32_t width,
                            uint32_t height);

/* One page side of the built-in book, `page` 0-based (leaf page / 2's front when even, its back
 * when odd), into width x height RGBA8 sRGB texels, the text set in `face` (NULL:
 * stb_easy_font); false when out of memory. */
bool app_content_page(const AppTypeface *face, int page, uint32_t width, uint32_t height,
                      uint8_t *rgba);

/* The renderer of `desc` (its colour format and samples; the content is filled in here) with
 * the pages of a `leaves`-leaf book, set in the face found at run time, on a page of aspect height
 * / width. */
bool app_content_renderer_create(const GpuContext *ctx, const GpuRendererDesc *desc,
                                 uint32_t leaves, float aspect, GpuRenderer *out, GpuError *err);

/* The renderer of `desc` with `layers` content layers of width x height texels from `pixels`
 * (where `pixel_layers` is non-zero, it holds that many, repeated: GpuTextureDesc), and as many
 * ink layers of the same aspect. */
bool app_content_renderer_layers(const GpuContext *ctx, const GpuRendererDesc *desc, uint32_t width,
                                 uint32_t height, uint32_t layers, const uint8_t *pixels,
                                 uint32_t pixel_layers, GpuRenderer *out, GpuError *err);

#endif
