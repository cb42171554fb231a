/* SPDX-License-Identifier: MIT */
#include "leaf.h"

#include "../gpu/timer.h"

#include <string.h>
#include <time.h>

/* The leaf's grid for the size in `leaf->desc`, CPU and GPU side. */
static bool grid_create(const GpuContext *ctx, BookLeaf *leaf, GpuError *err)
{
    const BookLeafDesc *desc = &leaf->desc;
    if (!gpu_leaf_fits(ctx, desc->nx, desc->ny, err))
        return false;
    float height = desc->aspect > 0.0f ? desc->aspect * MESH_PAGE_WIDTH : 0.0f;
    if (!mesh_grid_create(&(MeshGridDesc){.nx = desc->nx, .ny = desc->ny, .height = height},
                          &leaf->grid))
        return gpu_error_set(err, "out of memory for a %ux%u leaf mesh", desc->nx, desc->ny);
    GpuLeafDesc gdesc = {
        .nx = desc->nx,
        .ny = desc->ny,
        .indices = leaf->grid.indices,
        .shadow_indices = leaf->grid.coarse_indices,
        .shadow_index_count = leaf->grid.coarse_triangle_count * 3,
        .shadow_adjacency = leaf->grid.coarse_adjacency,
        .width = leaf->grid.width,
        .height = leaf->grid.height,
        .readback = desc->readback,
        .path = leaf->path,
        .staging = desc->staging,
    };
    return gpu_leaf_create(ctx, &gdesc, &leaf->gpu, err);
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void grid_destroy(const GpuContext *ctx, BookLeaf *leaf)
{
    gpu_leaf_destroy(ctx, &leaf->gpu);
    mesh_grid_destroy(&leaf->grid);
}

bool book_leaf_create(const GpuContext *ctx, const BookLeafDesc *desc, BookLeaf *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->made = now_ns();
    out->desc = *desc;
    const char *why = "";
    out->path = gpu_path_find(desc->normals, desc->pack, desc->cpu_deform, &why);
    if (!out->path)
        return gpu_error_set(err, "%s", why);
    if (!grid_create(ctx, out, err)) {
        book_leaf_destroy(ctx, out);
        return false;
    }
    if (gpu_chain_create(ctx, out->path, &out->chain, err)) {
        gpu_chain_bind(ctx, &out->chain, &out->gpu);
        return true;
    }
    book_leaf_destroy(ctx, out);
    return false;
}

bool book_leaf_regrid(const GpuContext *ctx, BookLeaf *leaf, uint32_t nx, uint32_t ny,
                      GpuError *err)
{
    /* The old grid goes first: the new one's allocations can reuse its memory, and a grid near
     * the device's limits never needs two of itself at once. */
    leaf->made = now_ns(); /* before the old grid goes, whether or not a new one comes */
    grid_destroy(ctx, leaf);
    leaf->desc.nx = nx;
    leaf->desc.ny = ny;
    if (!grid_create(ctx, leaf, err))
        return false;
    gpu_chain_bind(ctx, &leaf->chain, &leaf->gpu);
    return true;
}

void book_leaf_destroy(const GpuContext *ctx, BookLeaf *leaf)
{
    gpu_chain_destroy(ctx, &leaf->chain);
    grid_destroy(ctx, leaf);
}

void book_leaf_prepare(BookLeaf *leaf, const CurlParams *pose, const CurlSegments *curl,
                       uint32_t slot, double *deform_ms)
{
    double spent = 0.0;
    bool cpu = leaf->path->cpu_deform;
    if (!cpu && curl) {
        memcpy(gpu_leaf_curl_table(&leaf->gpu, slot), curl, sizeof *curl);
    } else if (!cpu) {
        mesh_curl_segments(pose, gpu_leaf_curl_table(&leaf->gpu, slot));
    } else {
        float *x, *y, *z;
        gpu_leaf_position_planes(&leaf->gpu, slot, &x, &y, &z);
        double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
        mesh_curl_apply(pose, leaf->grid.rest_x, leaf->grid.rest_y, leaf->grid.vertex_count, x, y,
                        z);
        spent = gpu_clock_ms(CLOCK_MONOTONIC) - t0;
    }
    if (deform_ms)
        *deform_ms = spent;
}
