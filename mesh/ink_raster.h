/* Ink as coverage: a page side's strokes rasterised into an 8-bit image with analytic
 * anti-aliasing, the layer of an ink texture that the page shader samples like the page's content
 * (so the strokes bend with the page and keep their edges at any curl). Pure C, no GPU: the
 * renderer uploads what this writes. Image layout: size x size texels, row-major, row 0 at the
 * page side's top edge (v = 1), u = 0 on its left: a texture's rows, top down. */
#ifndef PAGECURL_MESH_INK_RASTER_H
#define PAGECURL_MESH_INK_RASTER_H

#include "ink.h"

#include <stdint.h>

/* Texels across an ink layer: the 1024^2 content resolution picking is held to. */
#define MESH_INK_RASTER_SIZE 1024

/* A rectangle of texels, x0 <= x < x1, y0 <= y < y1; empty when x0 >= x1. */
typedef struct MeshInkRect {
    uint32_t x0, y0, x1, y1;
} MeshInkRect;

/* Draws the segment a -> b (a dot when a == b) into `image` (size x size): a capsule whose radius
 * runs from a's half width to b's, round caps; each texel gets max(its coverage, the segment's),
 * the coverage being the signed distance from the texel's centre to the capsule's edge mapped
 * linearly over one texel (analytic AA: exact for edges straight at the texel scale). Grows
 * `dirty` (may be NULL) by the texels it touched. */
void mesh_ink_raster_segment(MeshInkPoint a, MeshInkPoint b, uint32_t size, uint8_t *image,
                             MeshInkRect *dirty);

/* Clears `image` and draws every stroke of `page`. */
void mesh_ink_raster_page(const MeshInkPage *page, uint32_t size, uint8_t *image);

#endif
