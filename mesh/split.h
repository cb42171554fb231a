/* SPDX-License-Identifier: MIT */
/* The turning leaf's cells that hold no pixel of the paper's outline, apart from the rest: the low
 * tier draws them by a shader without the code that only the outline needs (its edges, the roll's
 * silhouette, the cut edge), and leaves them out of the round that blends the outline's pixels
 * (gpu/renderer_record.c). Pure geometry of the grid at rest, the pose and the view. */
#ifndef PAGECURL_MESH_SPLIT_H
#define PAGECURL_MESH_SPLIT_H

#include "../shaders/shared.h"
#include "grid.h"

#include <stdbool.h>

/* Cells along each edge of the page counted with the outline: the edge's coverage ramp, the cut
 * edge's band and the vertices the low tier pushes a pixel out lie within them wherever a cell is
 * a pixel or more on screen. */
#define MESH_SPLIT_RING 2u

/* What the low tier's coverage needs of the view to tell the roll's cells that hold no edge pixel:
 * the turning leaf's draw seen through the target. */
typedef struct MeshSplitView {
    float clip[16];  /* model space to clip space, column-major: the leaf's draw's view_proj */
    float eye[3];    /* the eye in model space */
    float scale[3];  /* model to world: each axis's scale (its sign is left out) */
    float pixels[2]; /* the target's pixels per unit of NDC: half its width and height */
    float thickness; /* the paper's in the world (PC_PAPER_THICKNESS page widths) */
} MeshSplitView;

/* What mesh_split_plain works in, made once for a grid (so that a frame allocates nothing). */
typedef struct MeshSplitScratch {
    uint32_t nx, ny;
    unsigned char *cells; /* one class per cell */
    float *rows;          /* two vertex rows' n.v and place on screen */
    double *batch;        /* one vertex row's rest points, posed points and normals */
    uint32_t *edges;      /* a flat run's two edges' vertices */
    size_t rolled;        /* the last split's roll cells that the view found plain */
    bool unmerged;        /* tests: every flat cell drawn by its own two triangles */
} MeshSplitScratch;

bool mesh_split_scratch_create(const MeshGrid *grid, MeshSplitScratch *out);
void mesh_split_scratch_destroy(MeshSplitScratch *scratch);

/* How many indices mesh_split_plain wrote: the plain part's, and in all. */
typedef struct MeshSplit {
    size_t plain, count;
} MeshSplit;

/* Writes the leaf's triangles (3 indices each, wound as grid->indices) into `out` (room for the
 * grid's), first those of the cells that hold no pixel of the paper's outline, then the others'
 * (the grid's own, in its order). The first part: the flat cells' in the fewest triangles their
 * neighbours allow (a flat run of a row zipped between the vertices its edges share with the rows
 * beside it), then the roll's plain cells' (the grid's own). The first part's cells: the cells at
 * least MESH_SPLIT_RING cells from every edge that lie wholly flat in the pose (before the fold, or
 * past the roll's end where the roll turns the page over), and, given a `view`, those of the roll
 * where the paper faces the eye, or turns from it, too steadily for the roll's silhouette (where
 * n.v falls to 0, page.frag's coverage and cut edge) to reach any of their pixels, away from any
 * crease (a cell where n.v changes sign). A pose whose roll stops short of a whole turn (a board
 * hinged: its flat part may be seen edge on) has no first part here: nothing written. `scratch` is
 * made for the grid. */
MeshSplit mesh_split_plain(const MeshGrid *grid, const CurlParams *pose, const MeshSplitView *view,
                           MeshSplitScratch *scratch, uint32_t *out);

#endif
