/* SPDX-License-Identifier: MIT */
#include "vulkan.h"

#include <stdio.h>
#include <string.h>

void app_vk_init(AppVk *vk, const pagecurl_context *ctx)
{
    *vk = (AppVk){0};
    pagecurl_context_vulkan(ctx, &vk->vk);
    vk->surface = pagecurl_context_surface(ctx);
    /* a host on volk: its globals loaded for the context's device, for the window's own calls
     * (the library calls through the context's own table: it has no volk) */
    volkInitializeCustom(vk->vk.get_instance_proc_addr);
    volkLoadInstanceOnly(vk->vk.instance);
    volkLoadDevice(vk->vk.device);
    vkGetPhysicalDeviceMemoryProperties(vk->vk.physical_device, &vk->memory);
    /* the library's own instance enables VK_EXT_debug_utils wherever the loader offers it */
    VkExtensionProperties offered[256];
    uint32_t n = 256;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, offered) >= 0)
        for (uint32_t i = 0; i < n; i++)
            vk->names |= !strcmp(offered[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    vk->names = vk->names && vkSetDebugUtilsObjectNameEXT != NULL;
}

void app_vk_name(const AppVk *vk, VkObjectType type, uint64_t handle, const char *name)
{
    if (!vk->names || !handle)
        return;
    VkDebugUtilsObjectNameInfoEXT info = {.sType =
                                              VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                          .objectType = type,
                                          .objectHandle = handle,
                                          .pObjectName = name};
    vkSetDebugUtilsObjectNameEXT(vk->vk.device, &info);
}

static const char *result_name(VkResult r)
{
    switch (r) {
#define NAME(r)                                                                                    \
    case r:                                                                                        \
        return #r;
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_SURFACE_LOST_KHR)
        NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        NAME(VK_ERROR_OUT_OF_DATE_KHR)
        NAME(VK_ERROR_UNKNOWN)
#undef NAME
    default:
        return NULL;
    }
}

bool app_vk_fail(VkResult r, const char *doing, char *message, size_t size)
{
    char code[48];
    const char *name = result_name(r);
    if (!name)
        snprintf(code, sizeof code, "VkResult %d", (int)r), name = code;
    /* what happened first, in the user's terms; the result for a bug report */
    if (r == VK_ERROR_DEVICE_LOST)
        snprintf(message, size, "the GPU was lost (%s) while %s", name, doing);
    else if (r == VK_ERROR_SURFACE_LOST_KHR || r == VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        snprintf(message, size, "the window is gone (%s while %s)", name, doing);
    else if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        snprintf(message, size, "out of GPU memory (%s) while %s", name, doing);
    else if (r == VK_ERROR_OUT_OF_HOST_MEMORY)
        snprintf(message, size, "out of memory (%s) while %s", name, doing);
    else
        snprintf(message, size, "the Vulkan driver failed (%s) while %s", name, doing);
    return false;
}

bool app_vk_buffer_create(const AppVk *vk, VkDeviceSize size, VkBufferUsageFlags usage,
                          const char *name, AppVkBuffer *out, char *message, size_t msize)
{
    *out = (AppVkBuffer){.size = size};
    VkDevice dev = vk->vk.device;
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                               .size = size,
                               .usage = usage,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(dev, &info, NULL, &out->buffer);
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "making a buffer", message, msize);
    app_vk_name(vk, VK_OBJECT_TYPE_BUFFER, (uint64_t)out->buffer, name);
    VkMemoryRequirements need;
    vkGetBufferMemoryRequirements(dev, out->buffer, &need);
    VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < vk->memory.memoryTypeCount && type == UINT32_MAX; i++)
        if ((need.memoryTypeBits & (1u << i)) &&
            (vk->memory.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX) {
        snprintf(message, msize, "%s: no host-visible memory", name);
        app_vk_buffer_destroy(vk, out);
        return false;
    }
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = need.size,
                                  .memoryTypeIndex = type};
    r = vkAllocateMemory(dev, &alloc, NULL, &out->memory);
    if (r == VK_SUCCESS)
        r = vkBindBufferMemory(dev, out->buffer, out->memory, 0);
    if (r == VK_SUCCESS)
        r = vkMapMemory(dev, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
    if (r != VK_SUCCESS) {
        app_vk_buffer_destroy(vk, out);
        return app_vk_fail(r, "making a buffer", message, msize);
    }
    app_vk_name(vk, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)out->memory, name);
    return true;
}

void app_vk_buffer_destroy(const AppVk *vk, AppVkBuffer *buf)
{
    if (buf->buffer)
        vkDestroyBuffer(vk->vk.device, buf->buffer, NULL);
    if (buf->memory)
        vkFreeMemory(vk->vk.device, buf->memory, NULL);
    *buf = (AppVkBuffer){0};
}

void app_vk_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                          VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
    VkImageMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                               .srcStageMask = src,
                               .srcAccessMask = src_access,
                               .dstStageMask = dst,
                               .dstAccessMask = dst_access,
                               .oldLayout = from,
                               .newLayout = to,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = 1,
                                                   .pImageMemoryBarriers = &b});
}

void app_vk_image_destroy(const AppVk *vk, AppVkImage *img)
{
    VkDevice dev = vk->vk.device;
    if (img->view)
        vkDestroyImageView(dev, img->view, NULL);
    if (img->image)
        vkDestroyImage(dev, img->image, NULL);
    if (img->memory)
        vkFreeMemory(dev, img->memory, NULL);
    *img = (AppVkImage){0};
}

bool app_vk_image_create(const AppVk *vk, VkFormat format, VkExtent2D extent, const char *name,
                         AppVkImage *out, const char *doing, char *message, size_t msize)
{
    *out = (AppVkImage){0};
    VkDevice dev = vk->vk.device;
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
    VkResult r = vkCreateImage(dev, &info, NULL, &out->image);
    VkMemoryRequirements need = {0};
    if (r == VK_SUCCESS)
        vkGetImageMemoryRequirements(dev, out->image, &need);
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
            NULL, &out->memory);
    if (r == VK_SUCCESS)
        r = vkBindImageMemory(dev, out->image, out->memory, 0);
    if (r == VK_SUCCESS)
        r = vkCreateImageView(
            dev,
            &(VkImageViewCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                     .image = out->image,
                                     .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                     .format = format,
                                     .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}},
            NULL, &out->view);
    if (r != VK_SUCCESS) {
        app_vk_image_destroy(vk, out);
        return app_vk_fail(r, doing, message, msize);
    }
    app_vk_name(vk, VK_OBJECT_TYPE_IMAGE, (uint64_t)out->image, name);
    app_vk_name(vk, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)out->memory, name);
    app_vk_name(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)out->view, name);
    return true;
}

void app_vk_copy_to_host(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, VkBuffer buffer)
{
    /* the frame's drawing -> the copy; then the copy -> the host, and the image back */
    app_vk_image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(
        cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1,
        &(VkBufferImageCopy){.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {extent.width, extent.height, 1}});
    VkMemoryBarrier2 host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .memoryBarrierCount = 1,
                                                   .pMemoryBarriers = &host});
    app_vk_image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
}
