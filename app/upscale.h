/* SPDX-License-Identifier: MIT */
/* The book drawn smaller than the window and scaled up to it. A window may be larger than the
 * book can be drawn: past the device's largest image or framebuffer a side, or past
 * APP_UPSCALE_MAX_PIXELS (the book's own images, at the high tier four samples of colour and
 * depth a pixel, take some 40 bytes a pixel). Then the book draws into an image of the window's
 * shape within both, which each frame's commands blit (filtered) over the swapchain's image; the
 * book's input is in that image's pixels. Owns the image. */
#ifndef PAGECURL_APP_UPSCALE_H
#define PAGECURL_APP_UPSCALE_H

#include "vulkan.h"

/* The most pixels the book is drawn with: twice 4K UHD's (a 5K screen's 14.7 million drawn as
 * they are; an 8K screen's drawn at this and scaled 1.4 times). */
#define APP_UPSCALE_MAX_PIXELS (2ull * 3840ull * 2160ull)

typedef struct AppUpscale {
    VkImage image; /* VK_NULL_HANDLE: none, the book draws into the window's images */
    VkDeviceMemory memory;
    VkImageView view;
    VkExtent2D extent;
    VkFormat format;
    VkFilter filter; /* linear where the format allows it */
} AppUpscale;

/* The size the book is drawn at for a window of `window` pixels: the window's own where it is
 * within `side` a side and APP_UPSCALE_MAX_PIXELS, else the largest of its shape within both
 * (0 x 0 for a window of none). */
VkExtent2D app_upscale_size(VkExtent2D window, uint32_t side);

/* The image made at `extent` in `format` (the swapchain's: the book draws straight into it, or
 * copies its frame in); false with the reason in message. Any image it held is destroyed first
 * (the device must be idle). */
bool app_upscale_make(const AppVk *vk, VkFormat format, VkExtent2D extent, AppUpscale *u,
                      char *message, size_t size);
/* Destroyed (the device must be done with it). */
void app_upscale_destroy(const AppVk *vk, AppUpscale *u);

/* Records the blit of the image (in TRANSFER_SRC_OPTIMAL: the book's final layout) over all of
 * `target` (its contents discarded), which ends in COLOR_ATTACHMENT_OPTIMAL, as the book leaves
 * an image it draws into. */
void app_upscale_record(VkCommandBuffer cmd, const AppUpscale *u, VkImage target,
                        VkExtent2D target_extent);

#endif
