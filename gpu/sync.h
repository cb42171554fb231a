/* SPDX-License-Identifier: MIT */
/* Pipeline barriers, synchronization2 style. Each call site says producer -> consumer beside it;
 * these helpers only fill in the structures. */
#ifndef PAGECURL_GPU_SYNC_H
#define PAGECURL_GPU_SYNC_H

#include "context.h"

/* One global memory barrier. */
void gpu_barrier(const GpuContext *ctx, VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                 VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                 VkAccessFlags2 dst_access);

/* A copy wrote a host-visible buffer -> the host reads it after the frame's fence. */
void gpu_barrier_host_read(const GpuContext *ctx, VkCommandBuffer cmd);

/* A layout transition with its scopes over mips base_level .. base_level + level_count - 1 and
 * layers base_layer .. base_layer + layer_count - 1 (counts of 0 mean 1: a plain 2-D image). */
typedef struct GpuImageBarrier {
    VkImage image;
    VkImageAspectFlags aspect;
    uint32_t base_level, level_count, base_layer, layer_count;
    VkImageLayout old_layout, new_layout;
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
} GpuImageBarrier;
void gpu_image_barrier(const GpuContext *ctx, VkCommandBuffer cmd, const GpuImageBarrier *b);

/* Barriers that follow one another as one call (each Vulkan call costs the CPU about a
 * microsecond on a fast GPU's host): `memory` (optional) and up to GPU_BARRIERS_MAX images. */
#define GPU_BARRIERS_MAX 6
void gpu_barriers(const GpuContext *ctx, VkCommandBuffer cmd, const VkMemoryBarrier2 *memory,
                  const GpuImageBarrier *images, uint32_t image_count);

#endif
