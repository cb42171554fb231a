/* The fused kernels: one dispatch per frame computes
 * every vertex normal from a shared-memory tile of positions and writes the AoS vertex directly.
 * `fused` loads the tile from the resident SoA positions; `fused_deform` evaluates the curl for the
 * tile itself and touches no position buffer. Owns both kernels, bound to one page at a time. */
#ifndef PAGECURL_GPU_FUSED_H
#define PAGECURL_GPU_FUSED_H

#include "compute.h"
#include "page.h"

typedef struct GpuFused {
    GpuKernel fused, fused_deform;
    GpuKernel fused_deform_small; /* fused_deform's small tile, for pages of at most
                                   * PC_SMALL_PAGE_VERTICES (shared.h) */
} GpuFused;

bool gpu_fused_create(const GpuContext *ctx, GpuFused *out, GpuError *err);
/* Points both kernels at `page` (no frame using them may be in flight). */
void gpu_fused_bind(const GpuContext *ctx, const GpuFused *fused, const GpuPage *page);
void gpu_fused_destroy(const GpuContext *ctx, GpuFused *fused);

/* Stage fused: positions must be written (and barriered) before. */
void gpu_fused_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                      const GpuPage *page);
/* The fused_deform kernel that gpu_fused_record_deform runs for `page` (by its size). */
const GpuKernel *gpu_fused_deform_kernel(const GpuFused *fused, const GpuPage *page);
/* Stage fused_deform: the whole compute chain for `pose`, after the previous frame's uses. */
void gpu_fused_record_deform(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                             const GpuPage *page, const CurlParams *pose, uint32_t slot);

#endif
