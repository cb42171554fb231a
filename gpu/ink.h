/* SPDX-License-Identifier: MIT */
/* Ink coverage as a texture: an R8 UNORM 2-D array, one layer per page side (the layer index and
 * coordinates the page content uses), with a full mip chain, sampled by the page shader over the
 * content. The texels come from the CPU (the app rasterises strokes); what changed is copied in
 * rectangles, through one staging buffer per frame in flight (a GpuInkSlot), at the start of that
 * frame's render, or, for many at once, through a ring of uploads of its own that is not waited
 * for. Owns the VkImage, its memory and view (a GpuImage), the sampler, the slots and the ring. The
 * image starts cleared (no ink) and stays in SHADER_READ_ONLY_OPTIMAL between uploads. */
#ifndef PAGECURL_GPU_INK_H
#define PAGECURL_GPU_INK_H

#include "buffer.h"
#include "image.h"
#include "upload.h"

#define GPU_INK_FORMAT VK_FORMAT_R8_UNORM
/* Copies one frame may record: a layer's whole chain is one per level (11 at 1024x1448). */
#define GPU_INK_MAX_COPIES 64

typedef struct GpuInkDesc {
    uint32_t width, height; /* texels of a layer; 0 means 1: no ink drawn */
    uint32_t layers;        /* 0 means 1 */
    const char *label;
} GpuInkDesc;

/* A rectangle of one level of one layer, its texels row-major `stride` apart. */
typedef struct GpuInkRegion {
    uint32_t layer, level;
    uint32_t x, y, width, height;
    const uint8_t *texels; /* the rectangle's first texel */
    uint32_t stride;       /* texels from one row to the next */
} GpuInkRegion;

/* Where rectangles are staged for one upload: a frame in flight's (GpuInk.slots, made and
 * destroyed with the ink) or the upload outside the frames (GpuInk.once). Its copies are recorded
 * together, after which it is begun again only once the device has finished them. */
typedef struct GpuInkSlot {
    GpuBuffer staging; /* two layers' chains */
    VkBufferImageCopy copies[GPU_INK_MAX_COPIES];
    uint32_t copy_count;
    VkDeviceSize staged; /* bytes of `staging` in use */
} GpuInkSlot;

typedef struct GpuInk {
    GpuImage image;    /* its view: a 2-D array of every mip and layer */
    VkSampler sampler; /* trilinear, clamped to the edge */
    uint32_t width, height, layers, levels;
    GpuInkSlot slots[GPU_FRAMES_IN_FLIGHT]; /* frame slot k's copies, recorded in its frame */
    GpuUploads uploads; /* gpu_ink_upload's, not waited for: one made with the ink */
    /* the upload outside the frames, from gpu_ink_upload_begin to gpu_ink_upload: its staging
     * buffer is that of `upload`, taken from the ring (borrowed, not owned) */
    GpuInkSlot once;
    GpuUpload *upload;
    uint64_t inked;  /* a bit per layer ever written to (from layer 64 on, all): the others are
                        clear, and the low tier's page shader skips them */
    uint64_t writes; /* regions staged so far: what drew the ink before is out of date */
} GpuInk;

bool gpu_ink_create(const GpuContext *ctx, const GpuInkDesc *desc, GpuInk *out, GpuError *err);
void gpu_ink_destroy(const GpuContext *ctx, GpuInk *ink);

/* Forgets what `slot` staged before: for a frame slot, once its fence has signalled, before
 * gpu_ink_stage. */
void gpu_ink_stage_begin(GpuInkSlot *slot);
/* Copies the region's texels into the slot's staging buffer, to be uploaded by its next record
 * (gpu_ink_record, gpu_ink_upload). False (nothing staged) when the slot's staging is full: stage
 * it next frame. */
bool gpu_ink_stage(GpuInk *ink, GpuInkSlot *slot, const GpuInkRegion *region);
/* Records frame slot `slot`'s staged copies between their barriers (fragment shaders' reads
 * before -> copies -> fragment shaders' reads after); nothing when none was staged. Outside
 * rendering. */
void gpu_ink_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuInk *ink, uint32_t slot);
/* Takes a staging buffer of the ink's upload ring (one the device has finished with) for
 * `ink->once`, and begins its staging: many layers' strokes at once (a layer given to another
 * page, a notebook loaded), outside the frames. */
bool gpu_ink_upload_begin(const GpuContext *ctx, GpuInk *ink, GpuError *err);
/* Records what `ink->once` staged and submits it on its own, not waited for: frames submitted
 * before it finish sampling first, frames submitted after sample what it wrote. */
bool gpu_ink_upload(const GpuContext *ctx, GpuInk *ink, GpuError *err);

#endif
