/* SPDX-License-Identifier: MIT */
#include "deform.h"

#include <string.h>

static const uint32_t deform_spv[] =
#include "deform.comp.inc"
    ;

bool gpu_deform_create(const GpuContext *ctx, GpuDeform *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    GpuKernelDesc desc = {
        .spirv = deform_spv,
        .spirv_size = sizeof deform_spv,
        .binding_count = 2,
        .uniform_mask = 1u << 1, /* the curl tables */
        .push_size = sizeof(PcDeformPush),
        .workgroup_size = PC_WG_DEFORM,
        .label = "deform",
    };
    return gpu_kernel_create(ctx, &desc, &out->kernel, err);
}

void gpu_deform_bind(const GpuContext *ctx, const GpuDeform *deform, const GpuLeaf *leaf)
{
    gpu_kernel_bind(ctx, &deform->kernel,
                    (const GpuBuffer *[]){&leaf->positions, &leaf->curl_tables});
}

void gpu_deform_destroy(const GpuContext *ctx, GpuDeform *deform)
{
    gpu_kernel_destroy(ctx, &deform->kernel);
}

void gpu_deform_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuDeform *deform,
                         const GpuLeaf *leaf, uint32_t slot)
{
    PcDeformPush push = gpu_leaf_deform_push(leaf, slot);
    gpu_kernel_dispatch(ctx, cmd, &deform->kernel, &push, leaf->vertex_count);
}
