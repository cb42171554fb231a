/* SPDX-License-Identifier: MIT */
#include "fused.h"

#include <string.h>

static const uint32_t fused_spv[] =
#include "fused.comp.inc"
    ;
static const uint32_t fused_deform_spv[] =
#include "fused_deform.comp.inc"
    ;
static const uint32_t fused_deform_small_spv[] =
#include "fused_deform_small.comp.inc"
    ;

bool gpu_fused_create(const GpuContext *ctx, bool deform, GpuFused *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->deform = deform;
    GpuKernelDesc large = {
        .spirv = deform ? fused_deform_spv : fused_spv,
        .spirv_size = deform ? sizeof fused_deform_spv : sizeof fused_spv,
        .binding_count = 2,
        .uniform_mask = deform ? 1u << 1 : 0, /* the curl tables */
        .push_size = sizeof(PcDeformPush),
        .workgroup_size = PC_TILE_W * PC_TILE_H,
        .label = deform ? "fused_deform" : "fused",
    };
    GpuKernelDesc small = large;
    small.spirv = fused_deform_small_spv;
    small.spirv_size = sizeof fused_deform_small_spv;
    small.workgroup_size = PC_SMALL_TILE_W * PC_SMALL_TILE_H;
    small.label = "fused_deform (small tile)";
    if (gpu_kernel_create(ctx, &large, &out->fused, err) &&
        (!deform || gpu_kernel_create(ctx, &small, &out->small, err)))
        return true;
    gpu_fused_destroy(ctx, out);
    return false;
}

void gpu_fused_bind(const GpuContext *ctx, const GpuFused *fused, const GpuLeaf *leaf)
{
    const GpuBuffer *input = fused->deform ? &leaf->curl_tables : &leaf->positions;
    gpu_kernel_bind(ctx, &fused->fused, (const GpuBuffer *[]){&leaf->vertices, input});
    if (fused->deform)
        gpu_kernel_bind(ctx, &fused->small, (const GpuBuffer *[]){&leaf->vertices, input});
}

void gpu_fused_destroy(const GpuContext *ctx, GpuFused *fused)
{
    gpu_kernel_destroy(ctx, &fused->small);
    gpu_kernel_destroy(ctx, &fused->fused);
}

static bool small_leaf(const GpuFused *fused, const GpuLeaf *leaf)
{
    return fused->deform && leaf->vertex_count <= PC_SMALL_PAGE_VERTICES;
}

const GpuKernel *gpu_fused_kernel(const GpuFused *fused, const GpuLeaf *leaf)
{
    return small_leaf(fused, leaf) ? &fused->small : &fused->fused;
}

void gpu_fused_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                        const GpuLeaf *leaf, uint32_t slot)
{
    PcDeformPush push = {.grid = gpu_leaf_push(leaf)};
    if (fused->deform)
        push = gpu_leaf_deform_push(leaf, slot);
    /* the vertices a workgroup makes (shared.h): the small tile's workgroup covers its halo too */
    uint32_t tile_w = PC_TILE_W,
             tile_h = PC_TILE_H * (fused->deform ? PC_TILE_ROWS : PC_FUSED_ROWS);
    if (small_leaf(fused, leaf))
        tile_w = PC_SMALL_TILE_INNER_W, tile_h = PC_SMALL_TILE_INNER_H;
    gpu_kernel_dispatch_tiles(ctx, cmd, gpu_fused_kernel(fused, leaf), &push, leaf->nx, leaf->ny,
                              tile_w, tile_h);
}
