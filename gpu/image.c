/* SPDX-License-Identifier: MIT */
#include "image.h"

#include <string.h>

static bool image_create(const GpuContext *ctx, const GpuImageDesc *desc, GpuImage *out,
                         GpuError *err)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = desc->format,
        .extent = {desc->extent.width, desc->extent.height, 1},
        .mipLevels = desc->levels ? desc->levels : 1,
        .arrayLayers = desc->layers ? desc->layers : 1,
        .samples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = desc->usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    GPU_TRY(err, ctx->vk.vkCreateImage(ctx->device, &info, ctx->allocator, &out->image));
    GPU_NAME(ctx, VK_OBJECT_TYPE_IMAGE, out->image, desc->label);
    VkMemoryRequirements req;
    ctx->vk.vkGetImageMemoryRequirements(ctx->device, out->image, &req);
    uint32_t type = 0;
    if (!gpu_context_memory_type(ctx, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                 &type) &&
        !gpu_context_memory_type(ctx, req.memoryTypeBits, 0, &type))
        return gpu_error_set(err, "no memory type for image '%s'", desc->label);
    if (!gpu_context_allocate(ctx, req.size, type, desc->label, &out->memory, err))
        return false;
    GPU_TRY(err, ctx->vk.vkBindImageMemory(ctx->device, out->image, out->memory, 0));
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->image,
        .viewType = desc->array_view ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = desc->format,
        .subresourceRange = {desc->aspect, 0, info.mipLevels, 0, info.arrayLayers},
    };
    GPU_TRY(err, ctx->vk.vkCreateImageView(ctx->device, &view, ctx->allocator, &out->view));
    GPU_NAME(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, out->view, desc->label);
    return true;
}

bool gpu_image_create(const GpuContext *ctx, const GpuImageDesc *desc, GpuImage *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->extent = desc->extent;
    out->format = desc->format;
    if (image_create(ctx, desc, out, err))
        return true;
    gpu_image_destroy(ctx, out);
    return false;
}

void gpu_image_destroy(const GpuContext *ctx, GpuImage *img)
{
    if (img->view)
        ctx->vk.vkDestroyImageView(ctx->device, img->view, ctx->allocator);
    if (img->image)
        ctx->vk.vkDestroyImage(ctx->device, img->image, ctx->allocator);
    if (img->memory)
        ctx->vk.vkFreeMemory(ctx->device, img->memory, ctx->allocator);
    memset(img, 0, sizeof *img);
}

VkFormat gpu_image_depth_format(const GpuContext *ctx)
{
    /* D16 is the one depth format every device must render to; D32 first for precision. */
    const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM};
    for (size_t i = 0; i < 2; i++) {
        VkFormatProperties props;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, candidates[i], &props);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)
            return candidates[i];
    }
    return VK_FORMAT_D16_UNORM;
}

void gpu_image_barrier_drawn_to_copy(const GpuContext *ctx, VkCommandBuffer cmd, VkImage image)
{
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                          .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                          .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
                      });
}

void gpu_image_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, VkImage image,
                               VkExtent2D extent, VkBuffer buffer)
{
    gpu_image_barrier_drawn_to_copy(ctx, cmd, image);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {extent.width, extent.height, 1},
    };
    ctx->vk.vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1,
                                   &region);
    /* copy -> host reads the pixels after the fence */
    gpu_barrier_host_read(ctx, cmd);
}
