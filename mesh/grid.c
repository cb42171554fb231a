/* SPDX-License-Identifier: MIT */
#include "grid.h"

#include "../shaders/shared.h"

#include <stdlib.h>
#include <string.h>

/* The vertex at coarse column ci and row cj: every coarse_step-th, and the last. */
static uint32_t coarse_vertex(const MeshGrid *grid, size_t ci, size_t cj)
{
    size_t i = ci * grid->coarse_step, j = cj * grid->coarse_step;
    i = i < grid->nx - 1 ? i : grid->nx - 1;
    j = j < grid->ny - 1 ? j : grid->ny - 1;
    return (uint32_t)(j * grid->nx + i);
}

bool mesh_grid_create(const MeshGridDesc *desc, MeshGrid *out)
{
    memset(out, 0, sizeof *out);
    if (desc->nx < 2 || desc->ny < 2 || desc->nx > MESH_GRID_MAX_SIDE ||
        desc->ny > MESH_GRID_MAX_SIDE)
        return false;
    out->nx = desc->nx;
    out->ny = desc->ny;
    out->width = desc->width > 0.0f ? desc->width : MESH_PAGE_WIDTH;
    out->height = desc->height > 0.0f ? desc->height : MESH_PAGE_HEIGHT;
    /* Sides <= 2^14: vertex and triangle numbers fit in 32 bits, byte sizes in 64. */
    out->vertex_count = (size_t)out->nx * out->ny;
    out->triangle_count = 2 * (size_t)(out->nx - 1) * (out->ny - 1);
    size_t n = out->vertex_count;
    out->rest_x = malloc(n * sizeof(float));
    out->rest_y = malloc(n * sizeof(float));
    out->u = malloc(n * sizeof(float));
    out->v = malloc(n * sizeof(float));
    out->indices = malloc(out->triangle_count * 3 * sizeof(uint32_t));
    /* at most MESH_COARSE_CELLS across and twice that along */
    uint32_t across = (out->nx - 1 + MESH_COARSE_CELLS - 1) / MESH_COARSE_CELLS;
    uint32_t along = (out->ny - 1 + 2 * MESH_COARSE_CELLS - 1) / (2 * MESH_COARSE_CELLS);
    out->coarse_step = across > along ? across : along;
    size_t cx = (out->nx - 1 + out->coarse_step - 1) / out->coarse_step;
    size_t cy = (out->ny - 1 + out->coarse_step - 1) / out->coarse_step;
    out->coarse_triangle_count = 2 * cx * cy;
    out->coarse_indices = malloc(out->coarse_triangle_count * 3 * sizeof(uint32_t));
    out->coarse_adjacency = malloc(out->coarse_triangle_count * 6 * sizeof(uint32_t));
    if (!out->rest_x || !out->rest_y || !out->u || !out->v || !out->indices ||
        !out->coarse_indices || !out->coarse_adjacency) {
        mesh_grid_destroy(out);
        return false;
    }
    float du = pc_grid_step(out->nx), dv = pc_grid_step(out->ny);
    for (uint32_t j = 0; j < out->ny; j++) {
        for (uint32_t i = 0; i < out->nx; i++) {
            size_t k = (size_t)j * out->nx + i;
            out->u[k] = pc_grid_coord(i, out->nx, du);
            out->v[k] = pc_grid_coord(j, out->ny, dv);
            out->rest_x[k] = out->u[k] * out->width;
            out->rest_y[k] = out->v[k] * out->height;
        }
    }
    uint32_t *idx = out->indices;
    for (uint32_t j = 0; j + 1 < out->ny; j++) {
        for (uint32_t i = 0; i + 1 < out->nx; i++) {
            uint32_t a = j * out->nx + i, b = a + 1, c = a + out->nx + 1, d = a + out->nx;
            *idx++ = a, *idx++ = b, *idx++ = c; /* 2c: (i,j) (i+1,j) (i+1,j+1) */
            *idx++ = a, *idx++ = c, *idx++ = d; /* 2c+1: (i,j) (i+1,j+1) (i,j+1) */
        }
    }
    /* the coarse cells: steps of coarse_step, the last row and column of cells narrower */
    uint32_t s = out->coarse_step;
    idx = out->coarse_indices;
    for (uint32_t j = 0; j + 1 < out->ny; j += s) {
        uint32_t j1 = j + s < out->ny - 1 ? j + s : out->ny - 1;
        for (uint32_t i = 0; i + 1 < out->nx; i += s) {
            uint32_t i1 = i + s < out->nx - 1 ? i + s : out->nx - 1;
            uint32_t a = j * out->nx + i, b = j * out->nx + i1, c = j1 * out->nx + i1,
                     d = j1 * out->nx + i;
            *idx++ = a, *idx++ = b, *idx++ = c;
            *idx++ = a, *idx++ = c, *idx++ = d;
        }
    }
    /* Their neighbours: cell (ci, cj) has (a b c) and (a c d) as above; across a b lies the cell
     * below's (a c d), across b c the next cell's (a c d), across c d the cell above's (a b c),
     * across d a the cell before's (a b c). */
    idx = out->coarse_adjacency;
    for (size_t cj = 0; cj < cy; cj++) {
        for (size_t ci = 0; ci < cx; ci++) {
            uint32_t a = coarse_vertex(out, ci, cj), b = coarse_vertex(out, ci + 1, cj),
                     c = coarse_vertex(out, ci + 1, cj + 1), d = coarse_vertex(out, ci, cj + 1);
            *idx++ = a, *idx++ = cj > 0 ? coarse_vertex(out, ci, cj - 1) : a;
            *idx++ = b, *idx++ = ci + 1 < cx ? coarse_vertex(out, ci + 2, cj + 1) : b;
            *idx++ = c, *idx++ = d;
            *idx++ = a, *idx++ = b;
            *idx++ = c, *idx++ = cj + 1 < cy ? coarse_vertex(out, ci + 1, cj + 2) : c;
            *idx++ = d, *idx++ = ci > 0 ? coarse_vertex(out, ci - 1, cj) : d;
        }
    }
    return true;
}

void mesh_grid_destroy(MeshGrid *grid)
{
    free(grid->rest_x);
    free(grid->rest_y);
    free(grid->u);
    free(grid->v);
    free(grid->indices);
    free(grid->coarse_indices);
    free(grid->coarse_adjacency);
    memset(grid, 0, sizeof *grid);
}

int mesh_grid_vertex_triangles(const MeshGrid *grid, uint32_t i, uint32_t j, uint32_t out[6])
{
    int count = 0;
    for (pc_uint k = 0; k < 6; k++) {
        pc_uint t = pc_vertex_triangle(grid->nx, grid->ny, i, j, k);
        if (t != PC_NO_TRIANGLE)
            out[count++] = t;
    }
    return count;
}
