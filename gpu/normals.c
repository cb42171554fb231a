/* SPDX-License-Identifier: MIT */
#include "normals.h"

#include <string.h>

static const uint32_t tri_normals_spv[] =
#include "tri_normals.comp.inc"
    ;
static const uint32_t vertex_normals_spv[] =
#include "vertex_normals.comp.inc"
    ;
static const uint32_t vertex_normals_pack_spv[] =
#include "vertex_normals_pack.comp.inc"
    ;

bool gpu_normals_create(const GpuContext *ctx, GpuPackPath pack, GpuNormals *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->pack = pack;
    bool soa = pack == GPU_PACK_STAGING;
    GpuKernelDesc tri = {
        .spirv = tri_normals_spv,
        .spirv_size = sizeof tri_normals_spv,
        .binding_count = 3,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_TRI_NORMALS,
        .label = "tri_normals",
    };
    GpuKernelDesc vertex = {
        .spirv = soa ? vertex_normals_spv : vertex_normals_pack_spv,
        .spirv_size = soa ? sizeof vertex_normals_spv : sizeof vertex_normals_pack_spv,
        .binding_count = soa ? 3 : 4,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_VERTEX_NORMALS,
        .label = soa ? "vertex_normals" : "vertex_normals+pack",
    };
    if (!gpu_kernel_create(ctx, &tri, &out->tri, err) ||
        !gpu_kernel_create(ctx, &vertex, &out->vertex, err)) {
        gpu_normals_destroy(ctx, out);
        return false;
    }
    return true;
}

void gpu_normals_bind(const GpuContext *ctx, const GpuNormals *normals, const GpuLeaf *leaf)
{
    gpu_kernel_bind(
        ctx, &normals->tri,
        (const GpuBuffer *[]){&leaf->positions, &leaf->cell_normals_a, &leaf->cell_normals_b});
    if (normals->pack == GPU_PACK_STAGING)
        gpu_kernel_bind(ctx, &normals->vertex,
                        (const GpuBuffer *[]){&leaf->cell_normals_a, &leaf->cell_normals_b,
                                              &leaf->vertex_normals});
    else
        gpu_kernel_bind(ctx, &normals->vertex,
                        (const GpuBuffer *[]){&leaf->cell_normals_a, &leaf->cell_normals_b,
                                              &leaf->positions, &leaf->vertices});
}

void gpu_normals_destroy(const GpuContext *ctx, GpuNormals *normals)
{
    gpu_kernel_destroy(ctx, &normals->vertex);
    gpu_kernel_destroy(ctx, &normals->tri);
}

void gpu_normals_dispatch_tri(const GpuContext *ctx, VkCommandBuffer cmd, const GpuNormals *normals,
                              const GpuLeaf *leaf)
{
    PcComputePush push = gpu_leaf_push(leaf);
    gpu_kernel_dispatch(ctx, cmd, &normals->tri, &push, leaf->triangle_count / 2);
}

void gpu_normals_dispatch_vertex(const GpuContext *ctx, VkCommandBuffer cmd,
                                 const GpuNormals *normals, const GpuLeaf *leaf)
{
    PcComputePush push = gpu_leaf_push(leaf);
    gpu_kernel_dispatch(ctx, cmd, &normals->vertex, &push, leaf->vertex_count);
}
