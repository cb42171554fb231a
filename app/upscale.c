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
    VkDevice dev = vk->vk.device;
    if (u->view)
        vkDestroyImageView(dev, u->view, NULL);
    if (u->image)
        vkDestroyImage(dev, u->image, NULL);
    if (u->memory)
        vkFreeMemory(dev, u->memory, NULL);
    *u = (AppUpscale){0};
}

bool app_upscale_make(const AppVk *vk, VkFormat format, VkExtent2D extent, AppUpscale *u,
                      char *message, size_t size)
{
    app_upscale_destroy(vk, u);
    VkDevice dev = vk->vk.device;
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
    VkImageCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                              .imageType = VK_IMAGE_TYPE_2D,
                              .format = format,
                              .extent = {extent.width, extent.height, 1},
                              .mipLevels = 1,
                              .arrayLayers = 1,
                              .samples = VK_SAMPLE_COUNT_1_BIT,
                              .tiling = VK_IMAGE_TILING_OPTIMAL,
                              .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                       VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
                              .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkResult r = vkCreateImage(dev, &info, NULL, &u->image);
    VkMemoryRequirements need = {0};
    if (r == VK_SUCCESS)
        vkGetImageMemoryRequirements(dev, u->image, &need);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; r == VK_SUCCESS && i < vk->memory.memoryTypeCount && type == UINT32_MAX;
         i++)
        if ((need.memoryTypeBits & (1u << i)) &&
            (vk->memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            type = i;
    for (uint32_t i = 0; r == VK_SUCCESS && i < vk->memory.memoryTypeCount && type == UINT32_MAX;
         i++)
        if (need.memoryTypeBits & (1u << i))
            type = i;
    if (r == VK_SUCCESS && type == UINT32_MAX)
        r = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r == VK_SUCCESS)
        r = vkAllocateMemory(
            dev,
            &(VkMemoryAllocateInfo){.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                    .allocationSize = need.size,
                                    .memoryTypeIndex = type},
            NULL, &u->memory);
    if (r == VK_SUCCESS)
        r = vkBindImageMemory(dev, u->image, u->memory, 0);
    if (r == VK_SUCCESS)
        r = vkCreateImageView(
            dev,
            &(VkImageViewCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                     .image = u->image,
                                     .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                     .format = format,
                                     .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}},
            NULL, &u->view);
    if (r != VK_SUCCESS) {
        app_upscale_destroy(vk, u);
        return app_vk_fail(r, "making the image the book is scaled up from", message, size);
    }
    app_vk_name(vk, VK_OBJECT_TYPE_IMAGE, (uint64_t)u->image, "book scaled up");
    app_vk_name(vk, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)u->memory, "book scaled up");
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
