/* SPDX-License-Identifier: MIT */
/* The leaf's grid at rest: NX x NY vertices over a W x H page, row-major with x fastest, spine
 * along x = 0. Owns the rest positions, UVs and triangle indices; knows nothing of curls or GPUs.
 * Triangle numbering and the fixed diagonal are defined once, in shaders/shared.h. */
#ifndef PAGECURL_MESH_GRID_H
#define PAGECURL_MESH_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest grid side we accept: 16384^2 vertices keep every index inside 32 bits. Whether the
 * GPU can hold that many is the GPU module's question. */
#define MESH_GRID_MAX_SIDE 16384u

typedef struct MeshGridDesc {
    uint32_t nx, ny;     /* vertices across, along the spine; >= 2 each */
    float width, height; /* page size in world units; 0 means the defaults below */
} MeshGridDesc;

#define MESH_PAGE_WIDTH  1.0f
#define MESH_PAGE_HEIGHT 1.41421356f /* ISO 216 paper: H/W = sqrt(2) */

typedef struct MeshGrid {
    uint32_t nx, ny;
    float width, height;
    size_t vertex_count, triangle_count;
    float *rest_x, *rest_y; /* rest positions, z = 0 */
    float *u, *v;           /* rest position = (u W, v H) */
    uint32_t *indices;      /* 3 per triangle, counter-clockwise seen from +z */
    /* The same page through every coarse_step-th vertex row and column (and the last ones), at
     * most MESH_COARSE_CELLS cells across and twice that along: for what needs the page's shape but
     * not its detail (the low tier's shadow map). Wound like `indices`. */
    uint32_t *coarse_indices;
    size_t coarse_triangle_count;
    uint32_t coarse_step;
    /* The coarse triangles again with their neighbours, 6 indices each as Vulkan's triangle lists
     * with adjacency take them: a triangle's 3 vertices in coarse_indices' order at 0, 2 and 4, and
     * at 1, 3 and 5 the vertex of the triangle across its edge 0-2, 2-4, 4-0 that is not on it. An
     * edge of the page, where there is none, repeats the edge's first vertex. */
    uint32_t *coarse_adjacency;
} MeshGrid;

/* Cells across the page's width in the coarse mesh at most (fewer when the grid has fewer). */
#define MESH_COARSE_CELLS 32u

/* False when the size is out of range or memory runs out; *out is then zeroed. */
bool mesh_grid_create(const MeshGridDesc *desc, MeshGrid *out);
void mesh_grid_destroy(MeshGrid *grid);

/* Up to 6 triangles around vertex (i, j) in the fixed gather order; returns how many. */
int mesh_grid_vertex_triangles(const MeshGrid *grid, uint32_t i, uint32_t j, uint32_t out[6]);

#endif
