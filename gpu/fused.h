/* SPDX-License-Identifier: MIT */
/* The fused kernels: one dispatch per frame computes every vertex normal from a shared-memory tile
 * of positions and writes the AoS vertex directly. `fused` loads the tile from the resident SoA
 * positions; `fused_deform` evaluates the curl for the tile itself and touches no position buffer.
 * Owns the kernels of one of the two, bound to one leaf at a time. */
#ifndef PAGECURL_GPU_FUSED_H
#define PAGECURL_GPU_FUSED_H

#include "compute.h"
#include "leaf.h"

typedef struct GpuFused {
    bool deform;     /* the fused_deform kernels, else the fused one */
    GpuKernel fused; /* fused, or fused_deform's large tile */
    GpuKernel small; /* fused_deform's small tile, for leaves of at most PC_SMALL_PAGE_VERTICES
                      * (shared.h); only with `deform` */
} GpuFused;

/* The fused_deform kernels with `deform`, else the fused one. */
bool gpu_fused_create(const GpuContext *ctx, bool deform, GpuFused *out, GpuError *err);
/* Points the kernels at `leaf` (no frame using them may be in flight). */
void gpu_fused_bind(const GpuContext *ctx, const GpuFused *fused, const GpuLeaf *leaf);
void gpu_fused_destroy(const GpuContext *ctx, GpuFused *fused);

/* The kernel gpu_fused_dispatch runs for `leaf` (by its size). */
const GpuKernel *gpu_fused_kernel(const GpuFused *fused, const GpuLeaf *leaf);
/* Records the dispatch for the pose in the CurlSegments of `slot` (fused_deform; fused reads the
 * positions instead). */
void gpu_fused_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                        const GpuLeaf *leaf, uint32_t slot);

#endif
