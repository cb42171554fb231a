#include "swapchain.h"

#include "sync.h"

#include <string.h>

VkFormat gpu_swapchain_pick_format(const GpuContext *ctx)
{
    VkSurfaceFormatKHR formats[64];
    uint32_t count = 64;
    vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical, ctx->surface, &count, formats);
    /* An sRGB format lets the shaders work in linear light, as offscreen does. */
    for (uint32_t i = 0; i < count; i++)
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_SRGB ||
             formats[i].format == VK_FORMAT_R8G8B8A8_SRGB) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return formats[i].format;
    return count ? formats[0].format : VK_FORMAT_B8G8R8A8_UNORM;
}

VkPresentModeKHR gpu_swapchain_pick_present_mode(const GpuContext *ctx, VkPresentModeKHR want)
{
    VkPresentModeKHR modes[16];
    uint32_t count = 16;
    vkGetPhysicalDeviceSurfacePresentModesKHR(ctx->physical, ctx->surface, &count, modes);
    for (uint32_t i = 0; i < count; i++)
        if (modes[i] == want)
            return want;
    return VK_PRESENT_MODE_FIFO_KHR;
}

static void destroy_views(const GpuContext *ctx, GpuSwapchain *sc)
{
    for (uint32_t i = 0; i < GPU_SWAPCHAIN_MAX_IMAGES; i++) {
        if (sc->views[i])
            vkDestroyImageView(ctx->device, sc->views[i], ctx->allocator);
        if (sc->render_done[i])
            vkDestroySemaphore(ctx->device, sc->render_done[i], ctx->allocator);
        sc->views[i] = VK_NULL_HANDLE;
        sc->render_done[i] = VK_NULL_HANDLE;
        sc->images[i] = VK_NULL_HANDLE;
    }
    gpu_image_destroy(ctx, &sc->depth);
    gpu_image_destroy(ctx, &sc->msaa);
}

static bool rebuild(const GpuContext *ctx, VkExtent2D drawable, const GpuRenderer *renderer,
                    GpuSwapchain *sc, GpuError *err)
{
    VkSurfaceCapabilitiesKHR caps;
    GPU_TRY(err, vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx->physical, ctx->surface, &caps));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) { /* the surface takes the size we give it */
        extent = drawable;
        if (extent.width < caps.minImageExtent.width)
            extent.width = caps.minImageExtent.width;
        if (extent.height < caps.minImageExtent.height)
            extent.height = caps.minImageExtent.height;
        if (extent.width > caps.maxImageExtent.width)
            extent.width = caps.maxImageExtent.width;
        if (extent.height > caps.maxImageExtent.height)
            extent.height = caps.maxImageExtent.height;
    }
    if (extent.width == 0 || extent.height == 0) {
        sc->extent = extent; /* minimised: nothing to build until it comes back */
        return true;
    }
    uint32_t count = caps.minImageCount + 1; /* one spare so acquire rarely blocks */
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    if (count > GPU_SWAPCHAIN_MAX_IMAGES)
        count = GPU_SWAPCHAIN_MAX_IMAGES;
    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & alpha))
        alpha = (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha &
                                              -caps.supportedCompositeAlpha);
    VkSwapchainKHR old = sc->swapchain;
    VkSwapchainCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = ctx->surface,
        .minImageCount = count,
        .imageFormat = sc->format,
        .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                      (caps.supportedUsageFlags &
                       (VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT)),
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = alpha,
        .presentMode = sc->present_mode,
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    VkResult r = vkCreateSwapchainKHR(ctx->device, &info, ctx->allocator, &sc->swapchain);
    if (old)
        vkDestroySwapchainKHR(ctx->device, old, ctx->allocator);
    if (r < 0)
        sc->swapchain = VK_NULL_HANDLE;
    GPU_TRY(err, r);
    GPU_NAME(ctx, VK_OBJECT_TYPE_SWAPCHAIN_KHR, sc->swapchain, "swapchain");
    sc->extent = extent;
    sc->readable = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    sc->writable = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) != 0;
    sc->image_count = GPU_SWAPCHAIN_MAX_IMAGES;
    GPU_TRY(err, vkGetSwapchainImagesKHR(ctx->device, sc->swapchain, &sc->image_count, sc->images));
    for (uint32_t i = 0; i < sc->image_count; i++) {
        VkImageViewCreateInfo view = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = sc->images[i],
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = sc->format,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        GPU_TRY(err, vkCreateImageView(ctx->device, &view, ctx->allocator, &sc->views[i]));
        GPU_NAME(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, sc->views[i], "swapchain image");
        VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        GPU_TRY(err, vkCreateSemaphore(ctx->device, &sem, ctx->allocator, &sc->render_done[i]));
        GPU_NAME(ctx, VK_OBJECT_TYPE_SEMAPHORE, sc->render_done[i], "render done");
    }
    GpuImageDesc depth = {
        .extent = extent,
        .format = renderer->depth_format,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
        .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
        .samples = renderer->samples,
        .label = "window depth",
    };
    GpuImageDesc msaa = {
        .extent = extent,
        .format = sc->format,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .samples = renderer->samples,
        .label = "window colour samples",
    };
    return gpu_image_create(ctx, &depth, &sc->depth, err) &&
           (renderer->samples == VK_SAMPLE_COUNT_1_BIT ||
            gpu_image_create(ctx, &msaa, &sc->msaa, err));
}

bool gpu_swapchain_rebuild(const GpuContext *ctx, VkExtent2D drawable, const GpuRenderer *renderer,
                           GpuSwapchain *sc, GpuError *err)
{
    /* Resizes are rare: wait for all work (and the semaphores it holds) before freeing views. */
    vkDeviceWaitIdle(ctx->device);
    if (!sc->format)
        sc->format = gpu_swapchain_pick_format(ctx); /* present_mode 0 is IMMEDIATE: the caller's */
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++) {
        if (sc->acquired[slot])
            continue;
        VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        GPU_TRY(err, vkCreateSemaphore(ctx->device, &sem, ctx->allocator, &sc->acquired[slot]));
        GPU_NAME(ctx, VK_OBJECT_TYPE_SEMAPHORE, sc->acquired[slot], "image acquired");
    }
    destroy_views(ctx, sc);
    if (rebuild(ctx, drawable, renderer, sc, err))
        return true;
    gpu_swapchain_destroy(ctx, sc);
    return false;
}

void gpu_swapchain_destroy(const GpuContext *ctx, GpuSwapchain *sc)
{
    if (ctx->device)
        vkDeviceWaitIdle(ctx->device);
    destroy_views(ctx, sc);
    if (sc->swapchain)
        vkDestroySwapchainKHR(ctx->device, sc->swapchain, ctx->allocator);
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        if (sc->acquired[slot])
            vkDestroySemaphore(ctx->device, sc->acquired[slot], ctx->allocator);
    memset(sc, 0, sizeof *sc);
}

VkResult gpu_swapchain_acquire(const GpuContext *ctx, GpuSwapchain *sc, uint32_t slot,
                               uint32_t *index)
{
    return vkAcquireNextImageKHR(ctx->device, sc->swapchain, UINT64_MAX, sc->acquired[slot],
                                 VK_NULL_HANDLE, index);
}

VkResult gpu_swapchain_present(const GpuContext *ctx, GpuSwapchain *sc, uint32_t index)
{
    VkPresentInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
        .waitSemaphoreCount = 1,
        .pWaitSemaphores = &sc->render_done[index],
        .swapchainCount = 1,
        .pSwapchains = &sc->swapchain,
        .pImageIndices = &index,
    };
    return vkQueuePresentKHR(ctx->queue, &info);
}

GpuRenderTarget gpu_swapchain_target(const GpuSwapchain *sc, uint32_t index)
{
    return (GpuRenderTarget){
        .color = sc->images[index],
        .depth = sc->depth.image,
        .color_view = sc->views[index],
        .depth_view = sc->depth.view,
        .msaa = sc->msaa.image,
        .msaa_view = sc->msaa.view,
        .extent = sc->extent,
        /* the submit waits for `acquired` at this stage; the transition must come after */
        .color_src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .copy_in = sc->writable,
    };
}

void gpu_swapchain_record_present(VkCommandBuffer cmd, const GpuSwapchain *sc, uint32_t index)
{
    /* render wrote the image -> the presentation engine reads it (the semaphore orders it). */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = sc->images[index],
                               .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               .new_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                               .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                               .dst_stage = VK_PIPELINE_STAGE_2_NONE,
                           });
}

void gpu_swapchain_record_readback(const GpuContext *ctx, VkCommandBuffer cmd,
                                   const GpuSwapchain *sc, uint32_t index, const GpuBuffer *pixels)
{
    gpu_label_begin(ctx, cmd, "window readback");
    gpu_image_record_readback(cmd, sc->images[index], sc->extent, pixels->buffer);
    /* back to where gpu_swapchain_record_present expects it; the copy only read the image */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = sc->images[index],
                               .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                               .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           });
    gpu_label_end(ctx, cmd);
}
