/* SPDX-License-Identifier: MIT */
#include "upscale.h"

#include <math.h>
#include <stdio.h>

VkExtent2D app_upscale_size(VkExtent2D window, uint32_t side)
{
    if (!window.width || !window.height)
        return (VkExtent2D){0, 0};
    double w = window.width, h = window.height;
    double scale = fmin(1.0, fmin((double)side / w, (double)side / h));
    scale = fmin(scale, sqrt((double)APP_UPSCALE_MAX_PIXELS / (w * h)));
    if (scale >= 1.0)
        return window;
    /* rounded down, so that neither bound is passed; a sliver keeps a pixel */
    uint32_t dw = (uint32_t)(w * scale), dh = (uint32_t)(h * scale);
    return (VkExtent2D){dw ? dw : 1, dh ? dh : 1};
}

void app_upscale_destroy(const AppVk *vk, AppUpscale *u)
{
    app_vk_image_destroy(vk, &(AppVkImage){u->image, u->memory, u->view});
    *u = (AppUpscale){0};
}

bool app_upscale_make(const AppVk *vk, VkFormat format, VkExtent2D extent, AppUpscale *u,
                      char *message, size_t size)
{
    app_upscale_destroy(vk, u);
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(vk->vk.physical_device, format, &props);
    u->format = format;
    u->extent = extent;
    u->filter = props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT
                    ? VK_FILTER_LINEAR
                    : VK_FILTER_NEAREST;
    if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT)) {
        snprintf(message, size,
                 "the window is larger than the book can be drawn, and its images "
                 "cannot be scaled up on this device (no blit from its format)");
        return false;
    }
    AppVkImage img;
    if (!app_vk_image_create(vk, format, extent, "book scaled up", &img,
                             "making the image the book is scaled up from", message, size))
        return false;
    u->image = img.image, u->memory = img.memory, u->view = img.view;
    return true;
}

void app_upscale_record(VkCommandBuffer cmd, const AppUpscale *u, VkImage target,
                        VkExtent2D target_extent)
{
    /* the window's image as acquired (its contents discarded), written by the blit */
    app_vk_image_barrier(
        cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
        VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageBlit region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {(int32_t)u->extent.width, (int32_t)u->extent.height, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {{0, 0, 0}, {(int32_t)target_extent.width, (int32_t)target_extent.height, 1}},
    };
    vkCmdBlitImage(cmd, u->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, u->filter);
    /* then as the book leaves an image it draws into: the HUD draws over it, a screenshot reads
     * it, the presentation's barrier follows */
    app_vk_image_barrier(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                         VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}
