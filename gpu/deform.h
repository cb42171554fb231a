/* SPDX-License-Identifier: MIT */
/* Stage deform on the GPU: deform.comp evaluates the curl of mesh/curl.c for every vertex and
 * writes the resident SoA positions, so per frame only the pose (push constants) crosses to the
 * GPU. Owns the deform kernel, bound to one leaf's buffers at a time: a leaf of another grid is
 * bound, not compiled again. */
#ifndef PAGECURL_GPU_DEFORM_H
#define PAGECURL_GPU_DEFORM_H

#include "compute.h"
#include "leaf.h"

typedef struct GpuDeform {
    GpuKernel kernel;
} GpuDeform;

bool gpu_deform_create(const GpuContext *ctx, GpuDeform *out, GpuError *err);
/* Points the kernel at `leaf` (no frame using the kernel may be in flight). */
void gpu_deform_bind(const GpuContext *ctx, const GpuDeform *deform, const GpuLeaf *leaf);
void gpu_deform_destroy(const GpuContext *ctx, GpuDeform *deform);

/* Records the deform's dispatch (the chain orders it, gpu/chain.c) for the pose whose
 * CurlSegments are in the leaf's table `slot` (gpu_leaf_curl_table) when it runs. */
void gpu_deform_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuDeform *deform,
                         const GpuLeaf *leaf, uint32_t slot);

#endif
