/* SPDX-License-Identifier: MIT */
#include "swapchain.h"

#include <stdio.h>
#include <string.h>

VkFormat app_swapchain_pick_format(const AppVk *vk)
{
    VkSurfaceFormatKHR formats[64];
    uint32_t count = 64;
    vkGetPhysicalDeviceSurfaceFormatsKHR(vk->vk.physical_device, vk->surface, &count, formats);
    /* sRGB: the book's image is R8G8B8A8_SRGB, and a blit between sRGB formats keeps its bytes */
    for (uint32_t i = 0; i < count; i++)
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_SRGB ||
             formats[i].format == VK_FORMAT_R8G8B8A8_SRGB) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return formats[i].format;
    return count ? formats[0].format : VK_FORMAT_B8G8R8A8_UNORM;
}

VkPresentModeKHR app_swapchain_pick_present_mode(const AppVk *vk, VkPresentModeKHR want)
{
    VkPresentModeKHR modes[16];
    uint32_t count = 16;
    vkGetPhysicalDeviceSurfacePresentModesKHR(vk->vk.physical_device, vk->surface, &count, modes);
    for (uint32_t i = 0; i < count; i++)
        if (modes[i] == want)
            return want;
    return VK_PRESENT_MODE_FIFO_KHR;
}

static VkResult slot_objects(const AppVk *vk, VkCommandPool pool, AppFrameSlot *out)
{
    VkDevice dev = vk->vk.device;
    VkCommandBufferAllocateInfo cmd = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkResult r = vkAllocateCommandBuffers(dev, &cmd, &out->cmd);
    if (r != VK_SUCCESS)
        return r;
    app_vk_name(vk, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)out->cmd, "window frame");
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                               .flags = VK_FENCE_CREATE_SIGNALED_BIT};
    r = vkCreateFence(dev, &fence, NULL, &out->done);
    if (r != VK_SUCCESS)
        return r;
    app_vk_name(vk, VK_OBJECT_TYPE_FENCE, (uint64_t)out->done, "window frame done");
    VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    r = vkCreateSemaphore(dev, &sem, NULL, &out->acquired);
    if (r == VK_SUCCESS)
        app_vk_name(vk, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)out->acquired, "image acquired");
    return r;
}

static bool slot_create(const AppVk *vk, VkCommandPool pool, AppFrameSlot *out, char *message,
                        size_t size)
{
    VkResult r = slot_objects(vk, pool, out);
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "making the window's frames", message, size);
    return app_overlay_vertices_create(vk, &out->overlay, message, size);
}

bool app_swapchain_create(const AppVk *vk, VkFormat format, VkPresentModeKHR mode, bool own,
                          AppSwapchain *out, char *message, size_t size)
{
    *out = (AppSwapchain){.format = format, .present_mode = mode, .own = own};
    VkDevice dev = vk->vk.device;
    VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = vk->vk.queue_family};
    VkResult r = vkCreateCommandPool(dev, &pool, NULL, &out->pool);
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "making the window's frames", message, size);
    app_vk_name(vk, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)out->pool, "window frames");
    bool ok = true;
    for (uint32_t i = 0; ok && i < APP_VK_FRAMES; i++)
        ok = slot_create(vk, out->pool, &out->slots[i], message, size);
    if (!ok)
        app_swapchain_destroy(vk, out);
    return ok;
}

/* Its command buffer goes with the pool. */
static void slot_destroy(const AppVk *vk, AppFrameSlot *slot)
{
    if (slot->done)
        vkDestroyFence(vk->vk.device, slot->done, NULL);
    if (slot->acquired)
        vkDestroySemaphore(vk->vk.device, slot->acquired, NULL);
    app_vk_buffer_destroy(vk, &slot->overlay);
    *slot = (AppFrameSlot){0};
}

static void destroy_images(const AppVk *vk, AppSwapchain *sc)
{
    for (uint32_t i = 0; i < APP_VK_FRAMES; i++) {
        if (sc->slots[i].image.image)
            sc->views[i] = VK_NULL_HANDLE; /* the image's own */
        app_vk_image_destroy(vk, &sc->slots[i].image);
        app_vk_buffer_destroy(vk, &sc->slots[i].pixels);
    }
    for (uint32_t i = 0; i < APP_SWAPCHAIN_MAX_IMAGES; i++) {
        if (sc->views[i])
            vkDestroyImageView(vk->vk.device, sc->views[i], NULL);
        if (sc->rendered[i])
            vkDestroySemaphore(vk->vk.device, sc->rendered[i], NULL);
        sc->views[i] = VK_NULL_HANDLE, sc->rendered[i] = VK_NULL_HANDLE;
        sc->images[i] = VK_NULL_HANDLE;
    }
    sc->image_count = 0;
}

/* The largest side of an image of the swapchain's format drawn into and copied (UINT32_MAX
 * where the driver does not say), and whether `extent` is past it or APP_SWAPCHAIN_MAX_PIXELS. */
static bool past_largest(const AppVk *vk, AppSwapchain *sc, VkImageUsageFlags usage,
                         VkExtent2D extent)
{
    VkImageFormatProperties most;
    sc->max_side = UINT32_MAX;
    if (vkGetPhysicalDeviceImageFormatProperties(vk->vk.physical_device, sc->format,
                                                 VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage,
                                                 0, &most) == VK_SUCCESS)
        sc->max_side = most.maxExtent.width < most.maxExtent.height ? most.maxExtent.width
                                                                    : most.maxExtent.height;
    return extent.width > sc->max_side || extent.height > sc->max_side ||
           (uint64_t)extent.width * extent.height > APP_SWAPCHAIN_MAX_PIXELS;
}

/* The window's own images at the drawable's size, and their buffers. */
static bool rebuild_own(const AppVk *vk, VkExtent2D extent, AppSwapchain *sc, char *message,
                        size_t size)
{
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    sc->too_large = past_largest(vk, sc, usage, extent);
    sc->extent = extent;
    if (extent.width == 0 || extent.height == 0 || sc->too_large) {
        sc->too_large = sc->too_large && extent.width && extent.height;
        return true;
    }
    VkDeviceSize bytes = (VkDeviceSize)extent.width * extent.height * 4;
    for (uint32_t i = 0; i < APP_VK_FRAMES; i++) {
        AppFrameSlot *slot = &sc->slots[i];
        if (!app_vk_image_create(vk, sc->format, extent, "window image", &slot->image,
                                 "making the window's images", message, size) ||
            !app_vk_buffer_create(vk, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "window pixels",
                                  &slot->pixels, message, size)) {
            destroy_images(vk, sc);
            return false;
        }
        sc->images[i] = slot->image.image;
        sc->views[i] = slot->image.view;
    }
    sc->image_count = APP_VK_FRAMES;
    sc->readable = true;
    return true;
}

static bool rebuild(const AppVk *vk, VkExtent2D drawable, AppSwapchain *sc, char *message,
                    size_t size)
{
    if (sc->own)
        return rebuild_own(vk, drawable, sc, message, size);
    VkDevice dev = vk->vk.device;
    VkSurfaceCapabilitiesKHR caps;
    VkResult r =
        vkGetPhysicalDeviceSurfaceCapabilitiesKHR(vk->vk.physical_device, vk->surface, &caps);
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "reading the window's size", message, size);
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) { /* the surface takes the size it is given */
        extent = drawable;
        extent.width = extent.width < caps.minImageExtent.width   ? caps.minImageExtent.width
                       : extent.width > caps.maxImageExtent.width ? caps.maxImageExtent.width
                                                                  : extent.width;
        extent.height = extent.height < caps.minImageExtent.height   ? caps.minImageExtent.height
                        : extent.height > caps.maxImageExtent.height ? caps.maxImageExtent.height
                                                                     : extent.height;
    }
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                              (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    /* the largest image of the swapchain's kind (its format, its usage); where the driver does not
     * say, the swapchain's own making is left to tell */
    sc->too_large = past_largest(vk, sc, usage, extent);
    if (extent.width == 0 || extent.height == 0 || sc->too_large) {
        /* minimised, or larger than it can be drawn: nothing to build until it comes back */
        sc->too_large = sc->too_large && extent.width && extent.height;
        sc->extent = extent;
        if (sc->swapchain)
            vkDestroySwapchainKHR(dev, sc->swapchain, NULL);
        sc->swapchain = VK_NULL_HANDLE;
        return true;
    }
    uint32_t count = caps.minImageCount + 1; /* one spare so acquire rarely blocks */
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    if (count > APP_SWAPCHAIN_MAX_IMAGES)
        count = APP_SWAPCHAIN_MAX_IMAGES;
    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & alpha))
        alpha = (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha &
                                              -caps.supportedCompositeAlpha);
    VkSwapchainKHR old = sc->swapchain;
    /* the book's blit writes it (TRANSFER_DST), the HUD draws over it, a screenshot reads it */
    VkSwapchainCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = vk->surface,
        .minImageCount = count,
        .imageFormat = sc->format,
        .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = usage,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = alpha,
        .presentMode = sc->present_mode,
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
        snprintf(message, size, "the window's images cannot be copied into (TRANSFER_DST)");
        return false;
    }
    r = vkCreateSwapchainKHR(dev, &info, NULL, &sc->swapchain);
    if (old)
        vkDestroySwapchainKHR(dev, old, NULL);
    if (r != VK_SUCCESS) {
        sc->swapchain = VK_NULL_HANDLE;
        return app_vk_fail(r, "making the window's images", message, size);
    }
    app_vk_name(vk, VK_OBJECT_TYPE_SWAPCHAIN_KHR, (uint64_t)sc->swapchain, "swapchain");
    sc->extent = extent;
    sc->readable = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    sc->image_count = APP_SWAPCHAIN_MAX_IMAGES;
    r = vkGetSwapchainImagesKHR(dev, sc->swapchain, &sc->image_count, sc->images);
    for (uint32_t i = 0; r >= 0 && i < sc->image_count; i++) {
        VkImageViewCreateInfo view = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                      .image = sc->images[i],
                                      .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                      .format = sc->format,
                                      .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
        r = vkCreateImageView(dev, &view, NULL, &sc->views[i]);
        app_vk_name(vk, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)sc->views[i], "swapchain image");
        VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if (r == VK_SUCCESS)
            r = vkCreateSemaphore(dev, &sem, NULL, &sc->rendered[i]);
        app_vk_name(vk, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)sc->rendered[i], "rendered");
    }
    if (r < 0)
        return app_vk_fail(r, "making the window's images", message, size);
    return true;
}

bool app_swapchain_rebuild(const AppVk *vk, VkExtent2D drawable, AppSwapchain *sc, char *message,
                           size_t size)
{
    /* resizes are rare: every frame (and the semaphores it holds) done before the views go */
    vkDeviceWaitIdle(vk->vk.device);
    destroy_images(vk, sc);
    return rebuild(vk, drawable, sc, message, size);
}

void app_swapchain_destroy(const AppVk *vk, AppSwapchain *sc)
{
    VkDevice dev = vk->vk.device;
    if (!dev)
        return;
    vkDeviceWaitIdle(dev);
    destroy_images(vk, sc);
    if (sc->swapchain)
        vkDestroySwapchainKHR(dev, sc->swapchain, NULL);
    for (uint32_t i = 0; i < APP_VK_FRAMES; i++)
        slot_destroy(vk, &sc->slots[i]);
    if (sc->pool)
        vkDestroyCommandPool(dev, sc->pool, NULL);
    *sc = (AppSwapchain){0};
}
