/* Everything tied to the window's swapchain, rebuilt by one function when the drawable size
 * changes: the swapchain, its image views, a depth buffer of the same size, and the semaphores
 * that order acquire -> render -> present. The surface belongs to the GpuContext. */
#ifndef PAGECURL_GPU_SWAPCHAIN_H
#define PAGECURL_GPU_SWAPCHAIN_H

#include "buffer.h"
#include "image.h"
#include "renderer.h"

#define GPU_SWAPCHAIN_MAX_IMAGES 8

typedef struct GpuSwapchain {
    VkSwapchainKHR swapchain;
    VkFormat format;
    VkPresentModeKHR present_mode;
    VkExtent2D extent;
    uint32_t image_count;
    VkImage images[GPU_SWAPCHAIN_MAX_IMAGES];
    VkImageView views[GPU_SWAPCHAIN_MAX_IMAGES];
    /* Per image: the presentation engine holds it until that image comes back. */
    VkSemaphore render_done[GPU_SWAPCHAIN_MAX_IMAGES];
    /* per frame in flight: free again once that frame's fence has signalled */
    VkSemaphore acquired[GPU_FRAMES_IN_FLIGHT];
    GpuImage depth;
    GpuImage msaa; /* the multisampled colour the renderer draws into, when it uses MSAA */
    bool readable; /* its images can be copied from: screenshots of the window */
    bool writable; /* ...and into: the low tier's cache of the still pages */
} GpuSwapchain;

/* The colour format the swapchain will use on this surface (the renderer is built for it). */
VkFormat gpu_swapchain_pick_format(const GpuContext *ctx);

/* The present mode a swapchain is built with: `want` where the surface offers it, else FIFO
 * (vsync), the one mode every device has. Set sc->present_mode with it before the first build. */
VkPresentModeKHR gpu_swapchain_pick_present_mode(const GpuContext *ctx, VkPresentModeKHR want);

/* (Re)builds for the drawable size; a size of 0 in either direction is the caller's to skip. */
bool gpu_swapchain_rebuild(const GpuContext *ctx, VkExtent2D drawable, const GpuRenderer *renderer,
                           GpuSwapchain *sc, GpuError *err);
void gpu_swapchain_destroy(const GpuContext *ctx, GpuSwapchain *sc);

/* VK_SUCCESS, VK_SUBOPTIMAL_KHR or VK_ERROR_OUT_OF_DATE_KHR for the caller to act on. */
VkResult gpu_swapchain_acquire(const GpuContext *ctx, GpuSwapchain *sc, uint32_t slot,
                               uint32_t *index);
VkResult gpu_swapchain_present(const GpuContext *ctx, GpuSwapchain *sc, uint32_t index);

GpuRenderTarget gpu_swapchain_target(const GpuSwapchain *sc, uint32_t index);
/* Copies the image, as drawn so far, into `pixels` (extent.width * height texels of the
 * swapchain's format; valid after the frame's fence). Needs `readable`. */
void gpu_swapchain_record_readback(const GpuContext *ctx, VkCommandBuffer cmd,
                                   const GpuSwapchain *sc, uint32_t index, const GpuBuffer *pixels);
/* render -> present: the layout change the presentation engine needs. */
void gpu_swapchain_record_present(VkCommandBuffer cmd, const GpuSwapchain *sc, uint32_t index);

#endif
