/* SPDX-License-Identifier: MIT */
/* The headless colour target: an sRGB colour image, its depth buffer and a host buffer the frame
 * is copied into (stage readback). Owns those three. */
#ifndef PAGECURL_GPU_OFFSCREEN_H
#define PAGECURL_GPU_OFFSCREEN_H

#include "buffer.h"
#include "image.h"
#include "renderer.h"

/* 8-bit sRGB: what a PNG holds, so the read-back bytes go to the file unchanged. */
#define GPU_OFFSCREEN_FORMAT VK_FORMAT_R8G8B8A8_SRGB

typedef struct GpuOffscreen {
    GpuImage color, depth;
    GpuImage msaa;    /* the multisampled colour the renderer draws into, when it uses MSAA */
    GpuBuffer pixels; /* width * height RGBA8 after a readback */
    bool used;        /* the colour image has been read back at least once */
} GpuOffscreen;

/* Fails with a line naming the limit if the size exceeds the device's image dimensions. */
bool gpu_offscreen_create(const GpuContext *ctx, VkExtent2D extent, const GpuRenderer *renderer,
                          GpuOffscreen *out, GpuError *err);
/* Only the depth buffer, for frames drawn straight into a host's image of `extent` (a viewport
 * within it): no colour, samples or pixels of its own. */
bool gpu_offscreen_create_depth(const GpuContext *ctx, VkExtent2D extent,
                                const GpuRenderer *renderer, GpuOffscreen *out, GpuError *err);
void gpu_offscreen_destroy(const GpuContext *ctx, GpuOffscreen *off);

GpuRenderTarget gpu_offscreen_target(const GpuOffscreen *off);

/* Stage readback of the rendered colour image into `pixels` (valid after the frame's fence). */
void gpu_offscreen_record_readback(const GpuContext *ctx, VkCommandBuffer cmd,
                                   const GpuOffscreen *off);

/* Where a frame drawn offscreen is copied to: a rectangle of another image (a host's). */
typedef struct GpuBlitTarget {
    VkImage image;
    VkFormat format;   /* the colour image's: copied, not blitted (0: not known, blitted) */
    VkOffset2D offset; /* where the frame's top left corner goes; the frame's extent is copied */
    /* the rectangle the frame fills from `offset`, scaled (filtered where the format allows);
     * 0 x 0: the frame's own size */
    VkExtent2D extent;
    VkImageLayout layout, final_layout; /* before (UNDEFINED: contents discarded) and after */
    VkPipelineStageFlags2 src_stage;    /* the image's last use before the copy, waited for */
    VkAccessFlags2 src_access;
} GpuBlitTarget;

/* After the render (the colour image in COLOR_ATTACHMENT_OPTIMAL): the frame copied into `dst`
 * where it has the colour image's format, else blitted (any format that takes blits: the sRGB
 * values converted; on a CPU device a draw over every pixel), which is left in its final layout
 * with the copy's writes made available to every later command. */
void gpu_offscreen_record_blit(const GpuContext *ctx, VkCommandBuffer cmd, const GpuOffscreen *off,
                               const GpuBlitTarget *dst);

#endif
