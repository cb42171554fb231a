/* SPDX-License-Identifier: MIT */
/* 2-D images with their own memory and one view: offscreen colour targets, depth buffers, the
 * shadow map and (through gpu/texture.c) the page textures.
 * Owns VkImage, VkDeviceMemory and VkImageView; layouts are the recorder's business. */
#ifndef PAGECURL_GPU_IMAGE_H
#define PAGECURL_GPU_IMAGE_H

#include "context.h"
#include "sync.h"

typedef struct GpuImageDesc {
    VkExtent2D extent;
    VkFormat format;
    VkImageUsageFlags usage;
    VkImageAspectFlags aspect;
    VkSampleCountFlagBits samples; /* 0 means 1 */
    uint32_t levels, layers;       /* mip levels and array layers, 0 means 1 */
    bool array_view;               /* the view is a 2-D array (sampler2DArray), even of 1 layer */
    const char *label;
} GpuImageDesc;

typedef struct GpuImage {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkExtent2D extent;
    VkFormat format;
} GpuImage;

bool gpu_image_create(const GpuContext *ctx, const GpuImageDesc *desc, GpuImage *out,
                      GpuError *err);
void gpu_image_destroy(const GpuContext *ctx, GpuImage *img);

/* Rendering wrote the colour image (COLOR_ATTACHMENT_OPTIMAL) -> a copy reads it
 * (TRANSFER_SRC_OPTIMAL). */
void gpu_image_barrier_drawn_to_copy(const GpuContext *ctx, VkCommandBuffer cmd, VkImage image);

/* Copies a colour image that rendering wrote (left in COLOR_ATTACHMENT_OPTIMAL, moved to
 * TRANSFER_SRC_OPTIMAL) into `buffer`, tightly packed, for the host to read after the fence. */
void gpu_image_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, VkImage image,
                               VkExtent2D extent, VkBuffer buffer);

/* The first depth format the device can render to. */
VkFormat gpu_image_depth_format(const GpuContext *ctx);

#endif
