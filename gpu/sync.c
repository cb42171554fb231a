/* SPDX-License-Identifier: MIT */
#include "sync.h"

#include <assert.h>

void gpu_barrier(const GpuContext *ctx, VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                 VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                 VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &barrier,
    };
    ctx->vk.vkCmdPipelineBarrier2(cmd, &dep);
}

void gpu_barrier_host_read(const GpuContext *ctx, VkCommandBuffer cmd)
{
    gpu_barrier(ctx, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

void gpu_barriers(const GpuContext *ctx, VkCommandBuffer cmd, const VkMemoryBarrier2 *memory,
                  const GpuImageBarrier *images, uint32_t image_count)
{
    /* The callers' counts are fixed and within it: a debug build says when one is not (a barrier
     * left out would be a race); a release build never writes past the array. */
    assert(image_count <= GPU_BARRIERS_MAX);
    VkImageMemoryBarrier2 barriers[GPU_BARRIERS_MAX];
    image_count = image_count < GPU_BARRIERS_MAX ? image_count : GPU_BARRIERS_MAX;
    for (uint32_t i = 0; i < image_count; i++) {
        const GpuImageBarrier *b = &images[i];
        barriers[i] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = b->src_stage,
            .srcAccessMask = b->src_access,
            .dstStageMask = b->dst_stage,
            .dstAccessMask = b->dst_access,
            .oldLayout = b->old_layout,
            .newLayout = b->new_layout,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = b->image,
            .subresourceRange = {b->aspect, b->base_level, b->level_count ? b->level_count : 1,
                                 b->base_layer, b->layer_count ? b->layer_count : 1},
        };
    }
    ctx->vk.vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){
                                           .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                           .memoryBarrierCount = memory ? 1 : 0,
                                           .pMemoryBarriers = memory,
                                           .imageMemoryBarrierCount = image_count,
                                           .pImageMemoryBarriers = barriers,
                                       });
}

void gpu_image_barrier(const GpuContext *ctx, VkCommandBuffer cmd, const GpuImageBarrier *b)
{
    gpu_barriers(ctx, cmd, NULL, b, 1);
}
