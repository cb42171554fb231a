/* SPDX-License-Identifier: MIT */
#include "offscreen.h"

#include <string.h>

/* The depth buffer a frame of `extent` draws with, at the renderer's samples; fails with a line
 * naming the limit if the size exceeds the device's image dimensions. */
static bool depth_create(const GpuContext *ctx, VkExtent2D extent, const GpuRenderer *renderer,
                         GpuOffscreen *out, GpuError *err)
{
    uint32_t most = ctx->props.limits.maxImageDimension2D;
    if (extent.width > most || extent.height > most)
        return gpu_error_set(err, "image %ux%u is larger than %s allows (maxImageDimension2D %u)",
                             extent.width, extent.height, ctx->props.deviceName, most);
    return gpu_image_create(ctx,
                            &(GpuImageDesc){
                                .extent = extent,
                                .format = renderer->depth_format,
                                .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                .samples = renderer->samples,
                                .label = "offscreen depth",
                            },
                            &out->depth, err);
}

bool gpu_offscreen_create(const GpuContext *ctx, VkExtent2D extent, const GpuRenderer *renderer,
                          GpuOffscreen *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    bool ok = depth_create(ctx, extent, renderer, out, err) &&
              gpu_image_create(ctx,
                               &(GpuImageDesc){
                                   .extent = extent,
                                   .format = renderer->color_format,
                                   .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                   .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                   .label = "offscreen colour",
                               },
                               &out->color, err) &&
              (renderer->samples == VK_SAMPLE_COUNT_1_BIT ||
               gpu_image_create(ctx,
                                &(GpuImageDesc){
                                    .extent = extent,
                                    .format = renderer->color_format,
                                    .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                             VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
                                    .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                    .samples = renderer->samples,
                                    .label = "offscreen colour samples",
                                },
                                &out->msaa, err)) &&
              gpu_buffer_create(ctx,
                                &(GpuBufferDesc){
                                    .size = (VkDeviceSize)extent.width * extent.height * 4,
                                    .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    .memory = GPU_MEMORY_READBACK,
                                    .label = "offscreen pixels",
                                },
                                &out->pixels, err);
    if (!ok)
        gpu_offscreen_destroy(ctx, out);
    return ok;
}

bool gpu_offscreen_create_depth(const GpuContext *ctx, VkExtent2D extent,
                                const GpuRenderer *renderer, GpuOffscreen *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    return depth_create(ctx, extent, renderer, out, err);
}

void gpu_offscreen_destroy(const GpuContext *ctx, GpuOffscreen *off)
{
    gpu_buffer_destroy(ctx, &off->pixels);
    gpu_image_destroy(ctx, &off->msaa);
    gpu_image_destroy(ctx, &off->depth);
    gpu_image_destroy(ctx, &off->color);
    memset(off, 0, sizeof *off);
}

GpuRenderTarget gpu_offscreen_target(const GpuOffscreen *off)
{
    return (GpuRenderTarget){
        .color = off->color.image,
        .depth = off->depth.image,
        .color_view = off->color.view,
        .depth_view = off->depth.view,
        .msaa = off->msaa.image,
        .msaa_view = off->msaa.view,
        .extent = off->color.extent,
        /* an earlier frame (maybe still in flight) drew into it and may have copied it out */
        .color_src_stage =
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
        .color_src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .copy_in = true,
    };
}

void gpu_offscreen_record_readback(const GpuContext *ctx, VkCommandBuffer cmd,
                                   const GpuOffscreen *off)
{
    gpu_label_begin(ctx, cmd, "readback");
    gpu_image_record_readback(ctx, cmd, off->color.image, off->color.extent, off->pixels.buffer);
    gpu_label_end(ctx, cmd);
}

void gpu_offscreen_record_blit(const GpuContext *ctx, VkCommandBuffer cmd, const GpuOffscreen *off,
                               const GpuBlitTarget *dst)
{
    gpu_label_begin(ctx, cmd, "copy out");
    VkExtent2D e = off->color.extent;
    VkExtent2D to = dst->extent.width && dst->extent.height ? dst->extent : e;
    bool scaled = to.width != e.width || to.height != e.height;
    GpuImageBarrier before[2] = {
        {
            .image = off->color.image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
            .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
        },
        {
            .image = dst->image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = dst->layout,
            .new_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .src_stage = dst->src_stage ? dst->src_stage : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .src_access = dst->src_stage ? dst->src_access : VK_ACCESS_2_MEMORY_WRITE_BIT,
            .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
            .dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        },
    };
    gpu_barriers(ctx, cmd, NULL, before, 2);
    VkImageBlit region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {(int32_t)e.width, (int32_t)e.height, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {{dst->offset.x, dst->offset.y, 0},
                       {dst->offset.x + (int32_t)to.width, dst->offset.y + (int32_t)to.height, 1}},
    };
    VkFilter filter = VK_FILTER_NEAREST;
    if (scaled) { /* a smaller copy (a thumbnail) averaged, where the format filters */
        VkFormatProperties props;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, off->color.format, &props);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
            filter = VK_FILTER_LINEAR;
    }
    if (dst->format == off->color.format && !scaled) {
        VkImageCopy copy = {
            .srcSubresource = region.srcSubresource,
            .dstSubresource = region.dstSubresource,
            .dstOffset = {dst->offset.x, dst->offset.y, 0},
            .extent = {e.width, e.height, 1},
        };
        ctx->vk.vkCmdCopyImage(cmd, off->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               dst->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    } else {
        ctx->vk.vkCmdBlitImage(cmd, off->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               dst->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region,
                               filter);
    }
    VkImageLayout final =
        dst->final_layout ? dst->final_layout : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    /* the next frame's render writes over the colour image the blit read */
    GpuImageBarrier after[2] = {
        {
            .image = off->color.image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
            .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
            .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        },
        {
            .image = dst->image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .new_layout = final,
            .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT,
            .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .dst_stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .dst_access = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
        },
    };
    gpu_barriers(ctx, cmd, NULL, after, 2);
    gpu_label_end(ctx, cmd);
}
