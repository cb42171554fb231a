/* SPDX-License-Identifier: MIT */
/* One draw of the renderer's: the leaf's mesh (or the flat quad, or a block's sides), the push
 * constants it is drawn with and what the passes need to know of it. Shared by the renderer and
 * its shadow pass. */
#ifndef PAGECURL_GPU_DRAW_H
#define PAGECURL_GPU_DRAW_H

#include "../shaders/shared.h"
#include "context.h"

#include <stdbool.h>
#include <stdint.h>

/* One page drawn: AoS vertices (PC_VERTEX_FLOATS floats each), uint32 indices, push constants. */
typedef struct GpuDraw {
    VkBuffer vertices, indices;
    uint32_t first_index, index_count;
    /* a coarser mesh of the same vertices in the same index buffer, which the low tier's shadow
     * pass draws instead (none: 0), and from shadow_adjacency_first (none: 0) the same triangles
     * with their neighbours, 2 shadow_index_count indices (gpu/leaf.h) */
    uint32_t shadow_first_index, shadow_index_count, shadow_adjacency_first;
    PcDrawPush push;
    bool casts_shadow; /* drawn into the shadow map too (the turning leaf) */
    bool edge;         /* a block's side faces: drawn by the edge pipeline */
    /* A flat page of a spread cross-fading (reduced motion): drawn after everything else, over
     * what lies in its plane, by the fade pipeline with this much of it (0 .. 1) */
    bool faded;
    float alpha;
    /* When `bounded`, every vertex lies in the box lo..hi (model space): the low tier then
     * multiplies the leaf's shadow into the flat pages only where it can fall (gpu/shadow.c). */
    bool bounded;
    float lo[3], hi[3];
    /* The low tier's turning leaf, its triangles reordered by the pose and the view (mesh/split.h)
     * in `split` (or none): the first split_plain indices those of its cells that hold none of the
     * outline's pixels, which the inside round draws by the plain pipelines and the edge round
     * leaves out, then the others', to split_count. */
    VkBuffer split;
    uint32_t split_plain, split_count;
    /* The view moves on (a pan drawn on whole pixels, a zoom's ease): a picture moved or scaled
     * onto it may stand for this frame, drawn or not (the still pages' cache, gpu/renderer.h); a
     * frame without it draws its pixels exactly. */
    bool moving;
} GpuDraw;

#endif
