/* SPDX-License-Identifier: MIT */
/* Ink as coverage: a page side's strokes rasterised into an 8-bit image with analytic
 * anti-aliasing, the layer of an ink texture that the page shader samples like the page's content
 * (so the strokes bend with the leaf and keep their edges at any curl). Pure C, no GPU: the
 * renderer uploads what this writes. Image layout: width x height texels, row-major, row 0 at the
 * page side's top edge (v = 1), u = 0 on its left: a texture's rows, top down. The texels are
 * square on the side when height / width is the page's aspect (height / width in page units): a
 * dot is then round and a stroke as wide across as along whichever way it runs. */
#ifndef PAGECURL_MESH_INK_RASTER_H
#define PAGECURL_MESH_INK_RASTER_H

#include "ink.h"

#include <stdint.h>

/* Texels across an ink layer (down it follows the page's aspect): the 1024 across of the content
 * resolution picking is held to. */
#define MESH_INK_RASTER_SIZE 1024

/* The work mesh_ink_raster_sides draws sides with at full scale, at most (mesh_ink_raster_work's
 * units: about a nanosecond of a core each). */
#define MESH_INK_RASTER_BUDGET 4.0e8

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

/* Clears each of `count` images (width x height) and draws the strokes of its side, the bands of
 * all of them shared among the cores. Where drawing them all would take too long (a notebook's
 * limits allow 500,000 segments each across a whole side: minutes), the side with the most work is
 * drawn at half the texels across and down, and again, until the work together is within a
 * budget (about half a second of a core), or at 1/128 at most, and scaled up: ink so dense is a
 * smear at any scale, and a side of ordinary writing stays sharp. `scales` (may be NULL) gets
 * each side's: 1, the same texels as mesh_ink_raster_segment draws one by one; 2, 4, ... */
void mesh_ink_raster_sides(const MeshInkSide *const *sides, uint8_t *const *images, size_t count,
                           uint32_t width, uint32_t height, uint32_t *scales);
/* mesh_ink_raster_sides for one side; returns its scale. */
uint32_t mesh_ink_raster_side(const MeshInkSide *side, uint32_t width, uint32_t height,
                              uint8_t *image);
/* The work of drawing `stroke` from its point `from` on (its segments from there, or its dot),
 * in the units of the budget above: a caller that has only new segments to draw draws the side
 * again within the budget where they alone are much work (a host's stroke of 100,000 points). */
double mesh_ink_raster_work(const MeshInkStroke *stroke, size_t from, uint32_t width,
                            uint32_t height);
#endif
