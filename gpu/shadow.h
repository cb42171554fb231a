/* SPDX-License-Identifier: MIT */
/* The turning leaf's shadow: the map (its images and sampler) and the pass that draws the leaf's
 * cover and depth from the light into it each frame, and its mips; made and destroyed with the
 * renderer's tier, which samples it in the page shader. */
#ifndef PAGECURL_GPU_SHADOW_H
#define PAGECURL_GPU_SHADOW_H

#include "draw.h"
#include "image.h"
#include "pipeline.h"

/* Texels on a side of the shadow map at most: the spread's ~2.2 page widths at ~0.002 a texel,
 * about a leaf's thickness; the penumbra filter makes it soft, not the resolution. */
#define GPU_SHADOW_MAP_SIZE 1024
/* ...and at least: under this the sharp edge at the fold turns to steps. */
#define GPU_SHADOW_MAP_MIN_SIZE 256
/* ...and at most in the low tier: a CPU rasteriser clears and draws it every frame, and the
 * page shader's texture reads are what it pays most for. */
#define GPU_SHADOW_MAP_LOW_SIZE 512
/* ...and in the reference tier: a texel a fifth of a leaf's thickness, finer than any penumbra
 * it measures */
#define GPU_SHADOW_MAP_REFERENCE_SIZE 4096

/* The shadow map for a fixed width x height target: about a texel a pixel where the book fills
 * the view, so a small target (the soak's, the tests') does not pay for a map it cannot show. A
 * power of two from GPU_SHADOW_MAP_MIN_SIZE to GPU_SHADOW_MAP_SIZE. */
uint32_t gpu_shadow_size(uint32_t width, uint32_t height);

typedef struct GpuShadow {
    VkPipeline pipeline; /* the leaf from the light: its cover and depth */
    VkPipelineLayout layout;
    /* the cover and cover times depth (R16G16 float), its mip levels down to PC_SHADOW_TOP
     * texels across, drawn and averaged down each frame */
    GpuImage map;
    uint32_t levels;
    VkImageView target; /* its level 0 alone, which the pass draws into */
    GpuImage depth;     /* the pass's depth buffer: the nearest of the leaf wins */
    VkSampler sampler;  /* trilinear, outside the map no cover */
    bool coarse;        /* the pass draws a draw's coarser mesh where it has one (the low tier) */
    /* ...with its outline anti-aliased, from its triangles' neighbours (the device has geometry
     * shaders): the draws must then have them (GpuDraw.shadow_adjacency_first) */
    bool smooth;
} GpuShadow;

/* The map (size x size texels and its mips down to PC_SHADOW_TOP), the pass's depth buffer, the
 * sampler and the pass's pipeline, whose layout takes the renderer's set (`set_layout`: the draw
 * tables) and push constants; `coarse` as GpuShadow's. On failure what was made is left for
 * gpu_shadow_destroy. */
bool gpu_shadow_create(const GpuContext *ctx, uint32_t size, bool coarse,
                       VkDescriptorSetLayout set_layout, GpuShadow *out, GpuError *err);
void gpu_shadow_destroy(const GpuContext *ctx, GpuShadow *shadow);
/* Last frame's page shader sampled the map -> this frame's shadow pass: the caller records them,
 * in one call with its other barriers before the pass. Writes at most 3, returns how many. */
#define GPU_SHADOW_BARRIERS_IN 3
uint32_t gpu_shadow_barriers_in(const GpuShadow *shadow, GpuImageBarrier *out);
/* The shadow pass: the draws that cast a shadow, their cover and depth, after
 * gpu_shadow_barriers_in's barriers; then the map's mips, and the barriers that hand it on to
 * this frame's page shader. Draw i reads row i of the draw table `slot` (the renderer's set
 * bound). */
void gpu_shadow_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuShadow *shadow,
                       const GpuDraw *draws, uint32_t count, uint32_t slot, GpuBound *bound);

/* The pixels of an `extent` target where `caster`'s shadow can darken the flat `receiver` (a
 * quad on the plane z = its model.w): the caster's box seen from the light on that plane, grown by
 * the page shader's blocker search, seen through the receiver's view. False when none can (no
 * caster, or its shadow is out of view); the whole target when the caster is not bounded, the
 * light grazes the plane or a corner lies behind the eye. Outside it the page shader finds no
 * blocker and its shadow factor is exactly 1. */
bool gpu_shadow_receiver_rect(const GpuShadow *shadow, const GpuDraw *caster,
                              const GpuDraw *receiver, VkExtent2D extent, VkRect2D *rect);

#endif
