/* SPDX-License-Identifier: MIT */
/* The window's swapchain on the book's device and its frames in flight: a command buffer, a fence,
 * an "image acquired" semaphore and the HUD's vertices a slot (AppFrameSlot), and a "rendered"
 * semaphore an image. The book draws into the image acquired (pagecurl_book_record), the HUD over
 * it; the image is presented. Or, for a window shown through X's shared memory
 * (app/shm_present.h), the window's own images, one a slot, each with a mapped buffer its frame
 * is copied into (no VkSwapchainKHR, no semaphores). Owns those objects. */
#ifndef PAGECURL_APP_SWAPCHAIN_H
#define PAGECURL_APP_SWAPCHAIN_H

#include "overlay.h"
#include "vulkan.h"

#define APP_SWAPCHAIN_MAX_IMAGES 8
/* The most pixels a window is drawn with: 8K UHD's (7680 x 4320), 133 MB an image. A window past
 * it (resized past its screens, or spanning several) shows nothing until it is smaller: its images
 * alone would take gigabytes (65535 x 65535: 17 GB each). */
#define APP_SWAPCHAIN_MAX_PIXELS (7680ull * 4320ull)

/* One window frame in flight's objects, made and destroyed together (app_swapchain_create,
 * app_swapchain_destroy): frame n uses slots[n % APP_VK_FRAMES]. */
typedef struct AppFrameSlot {
    VkCommandBuffer cmd;
    VkFence done;         /* the slot's last frame finished */
    VkSemaphore acquired; /* the slot's image may be drawn into */
    AppVkBuffer overlay;  /* the HUD's quads of its frame, written by the CPU (app/overlay.h) */
    /* With own images (AppSwapchain.own): the slot's image, and the mapped buffer its frame is
     * copied into (app_vk_copy_to_host) for app/shm_present.h */
    AppVkImage image;
    AppVkBuffer pixels;
} AppFrameSlot;

typedef struct AppSwapchain {
    VkSwapchainKHR swapchain; /* VK_NULL_HANDLE while there is none (minimised, too_large) */
    VkFormat format;          /* 8-bit sRGB where the surface has it */
    VkPresentModeKHR present_mode;
    VkExtent2D extent;
    uint32_t image_count;
    VkImage images[APP_SWAPCHAIN_MAX_IMAGES];
    VkImageView views[APP_SWAPCHAIN_MAX_IMAGES];
    VkSemaphore rendered[APP_SWAPCHAIN_MAX_IMAGES]; /* its presentation waits on it */
    bool readable;                                  /* its images can be copied out (screenshots) */
    /* The window is larger than its images can be: past the device's largest image a side (its
     * swapchain may not be made: VUID-VkSwapchainCreateInfoKHR-imageFormat-01778) or past
     * APP_SWAPCHAIN_MAX_PIXELS; `extent` is its size, `max_side` the device's side. */
    bool too_large;
    uint32_t max_side;
    VkCommandPool pool;
    AppFrameSlot slots[APP_VK_FRAMES];
    /* Its own images, one a slot (slots[i].image: images[i] and views[i] are its, slot i draws
     * into image i), no VkSwapchainKHR */
    bool own;
} AppSwapchain;

/* Whether there are images to draw into (none while minimised or too large). */
static inline bool app_swapchain_ready(const AppSwapchain *sc)
{
    return sc->swapchain != VK_NULL_HANDLE || sc->slots[0].image.image != VK_NULL_HANDLE;
}

/* The surface's format and the present mode asked for (else FIFO, which every surface has). */
VkFormat app_swapchain_pick_format(const AppVk *vk);
VkPresentModeKHR app_swapchain_pick_present_mode(const AppVk *vk, VkPresentModeKHR want);

/* The frames' objects (no swapchain yet; with `own`, the window's own images instead of one);
 * false with the reason in message. */
bool app_swapchain_create(const AppVk *vk, VkFormat format, VkPresentModeKHR mode, bool own,
                          AppSwapchain *out, char *message, size_t size);
/* (Re)made for the window's drawable size, after the device is idle; none while it has no area
 * or is too large (then `too_large`). */
bool app_swapchain_rebuild(const AppVk *vk, VkExtent2D drawable, AppSwapchain *sc, char *message,
                           size_t size);
void app_swapchain_destroy(const AppVk *vk, AppSwapchain *sc);

#endif
