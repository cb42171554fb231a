/* SPDX-License-Identifier: MIT */
/* Sampled colour textures: a 2-D array of RGBA8 sRGB layers with a full mip chain (or level 0
 * alone), uploaded through a staging buffer (a few layers at a time through a ring of them that
 * is not waited for: gpu/upload.h), and the trilinear sampler that reads them. Owns the VkImage,
 * its VkDeviceMemory and view (a GpuImage), the sampler and the ring. The mips are made on
 * the GPU with vkCmdBlitImage where the format allows linear blits, else on the CPU (a box filter
 * in linear light) and uploaded with level 0. The texture is left in SHADER_READ_ONLY_OPTIMAL, for
 * fragment shaders. */
#ifndef PAGECURL_GPU_TEXTURE_H
#define PAGECURL_GPU_TEXTURE_H

#include "image.h"
#include "show_through.h"
#include "upload.h"

#define GPU_TEXTURE_FORMAT VK_FORMAT_R8G8B8A8_SRGB

typedef struct GpuTextureDesc {
    uint32_t width, height, layers;
    const uint8_t *pixels; /* layers x height x width RGBA8, sRGB-encoded, rows top first */
    /* Where non-zero: `pixels` holds this many layers (a divisor of `layers`), uploaded again and
     * again to fill them, a group at a time: a book's layers start as plain paper, and a copy of
     * it for every layer, with its staging buffer, took 150 MB for a moment at 1920x1080 */
    uint32_t pixel_layers;
    bool cpu_mips; /* make the mips on the CPU even where blits could (tests) */
    const char *label;
    /* level 0 alone, no mips: for texels read about one a pixel, whose upload then is a copy */
    bool one_level;
    /* Layers in pairs, a leaf's front and back (2k, 2k+1): each layer's alpha is made from its
     * partner's print, mirrored (gpu/show_through.h), wherever either is updated. Where the mips
     * are made on the CPU it is not: the alpha then says the back is blank. */
    bool show_through;
    /* Updates of at most this many layers (a page, a leaf's pair of paper) are submitted without
     * waiting for them, through a ring of staging buffers that size (gpu/upload.h), made as the
     * first updates need them; the texture's first texels and larger updates wait. 0: every
     * update waits (nothing kept between them). */
    uint32_t ring_layers;
    /* Uploads of the ring made with the texture (the rest as updates need them): as many as
     * updates may take at once, where that is known (a zoomed view's detail: one a slot). */
    uint32_t ring_reserve;
} GpuTextureDesc;

typedef struct GpuTexture {
    GpuImage image;    /* its view: a 2-D array of every mip and layer */
    VkSampler sampler; /* trilinear, clamped to the edge */
    uint32_t width, height, layers, levels;
    bool blit_mips;      /* the mips were made by vkCmdBlitImage */
    bool show_through;   /* GpuTextureDesc's */
    GpuShowThrough pass; /* made where show-through is drawn into the texture */
    uint64_t writes;     /* updates so far: what drew the texture before is out of date */
    /* per pair of layers (2k, 2k + 1: a leaf's two sides, whose show-through is made together),
     * `writes` as it was after the last update of that pair: what drew only other pairs is not
     * out of date (null where it could not be allocated: every update dates every pair) */
    uint64_t *pair_writes;
    uint32_t ring_layers; /* GpuTextureDesc's */
    GpuUploads uploads;   /* the updates' staging ring, for updates of ring_layers at most */
} GpuTexture;

bool gpu_texture_create(const GpuContext *ctx, const GpuTextureDesc *desc, GpuTexture *out,
                        GpuError *err);
void gpu_texture_destroy(const GpuContext *ctx, GpuTexture *tex);
/* New texels for layers first .. first + count - 1 (`pixels` as GpuTextureDesc's, those layers
 * only), with their mips, submitted on the frames' queue: frames submitted before finish reading
 * the old texels first, frames submitted after read the new. Up to ring_layers layers are not
 * waited for (the ring's staging is taken again once its fence has signalled); more are. */
bool gpu_texture_update(const GpuContext *ctx, GpuTexture *tex, uint32_t first, uint32_t count,
                        const uint8_t *pixels, GpuError *err);

/* `writes` as it was after the last update of the pair `layer` belongs to: a picture drawn from
 * that layer when `writes` was at least this still holds its texels. */
uint64_t gpu_texture_layer_writes(const GpuTexture *tex, uint32_t layer);

/* Mip levels of a full chain down to 1x1. */
uint32_t gpu_texture_levels(uint32_t width, uint32_t height);

/* The sampler the pages' textures are read by: trilinear (no seams between levels), clamped to
 * the edge; with `anisotropy` above 1, up to that many reads along a footprint's long side (the
 * device's feature enabled). Named `label`; the caller destroys it. */
bool gpu_sampler_create(const GpuContext *ctx, float anisotropy, const char *label, VkSampler *out,
                        GpuError *err);

#endif
