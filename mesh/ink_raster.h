/* SPDX-License-Identifier: MIT */
/* Ink as coverage: a page side's strokes rasterised into an 8-bit image with analytic
 * anti-aliasing, the layer of an ink texture that the page shader samples like the page's content
 * (so the strokes bend with the page and keep their edges at any curl). Pure C, no GPU: the
 * renderer uploads what this writes. Image layout: width x height texels, row-major, row 0 at the
 * page side's top edge (v = 1), u = 0 on its left: a texture's rows, top down. The texels are
 * square on the page when height / width is the page's aspect (height / width in page units): a
 * dot is then round and a stroke as wide across as along whichever way it runs. */
#ifndef PAGECURL_MESH_INK_RASTER_H
#define PAGECURL_MESH_INK_RASTER_H

#include "ink.h"

#include <stdint.h>

/* Texels across an ink layer (down it follows the page's aspect): the 1024 across of the content
 * resolution picking is held to. */
#define MESH_INK_RASTER_SIZE 1024

/* A rectangle of texels, x0 <= x < x1, y0 <= y < y1; empty when x0 >= x1. */
typedef struct MeshInkRect {
    uint32_t x0, y0, x1, y1;
} MeshInkRect;

/* Draws the segment a -> b (a dot when a == b) into `image` (width x height): a capsule whose
 * radius runs from a's half width to b's, round caps; each texel gets max(its coverage, the
 * segment's), the coverage being the signed distance from the texel's centre to the capsule's edge
 * mapped linearly over one texel (analytic AA: exact for edges straight at the texel scale). Grows
 * `dirty` (may be NULL) by the texels it touched. */
void mesh_ink_raster_segment(MeshInkPoint a, MeshInkPoint b, uint32_t width, uint32_t height,
                             uint8_t *image, MeshInkRect *dirty);

/* Clears `image` and draws every stroke of `page`. */
void mesh_ink_raster_page(const MeshInkPage *page, uint32_t width, uint32_t height, uint8_t *image);

#endif
