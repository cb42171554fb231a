/* SPDX-License-Identifier: MIT */
/* Show-through baked into the page texture: after an upload, each layer's alpha is made from its
 * partner's print (the leaf's other side, layers 2k and 2k+1), mirrored, as half its luminance
 * over the partner's mean (shaders/show_through.frag), and page.frag reads it with the print at no
 * cost of a read. Owns the pass's pipeline and set layout; an upload's views and descriptor sets
 * are a GpuShowThroughPass, made before it is recorded and destroyed once it has run. Records into
 * gpu/texture.c's upload: it neither submits nor waits. */
#ifndef PAGECURL_GPU_SHOW_THROUGH_H
#define PAGECURL_GPU_SHOW_THROUGH_H

#include "context.h"

typedef struct GpuShowThrough {
    VkDescriptorSetLayout set_layout;
    VkPipeline pipeline;
    VkPipelineLayout layout;
} GpuShowThrough;

/* `format`: the texture's, which the pass renders to (its alpha only). */
bool gpu_show_through_create(const GpuContext *ctx, VkFormat format, GpuShowThrough *out,
                             GpuError *err);
void gpu_show_through_destroy(const GpuContext *ctx, GpuShowThrough *st);

/* One upload's pass over the whole pairs of layers first .. first + count - 1 (first and count
 * even): for each layer, a view of its level 0 to render to and a view of all its levels to read,
 * and the set that reads it. */
typedef struct GpuShowThroughPass {
    VkImage image;
    VkExtent2D extent; /* level 0's */
    uint32_t first, count;
    VkDescriptorPool pool;
    VkImageView *targets, *sources;
    VkDescriptorSet *sets;
} GpuShowThroughPass;

bool gpu_show_through_pass_create(const GpuContext *ctx, const GpuShowThrough *st, VkImage image,
                                  VkFormat format, VkSampler sampler, VkExtent2D extent,
                                  uint32_t levels, uint32_t first, uint32_t count,
                                  GpuShowThroughPass *out, GpuError *err);
/* Records the pass: every level of its layers in SHADER_READ_ONLY_OPTIMAL, their print final at
 * every level, before; after, level 0's alpha is made (in SHADER_READ_ONLY_OPTIMAL again) and the
 * other levels' alpha is stale, for the caller to make anew from level 0. */
void gpu_show_through_pass_record(const GpuContext *ctx, VkCommandBuffer cmd,
                                  const GpuShowThrough *st, const GpuShowThroughPass *pass);
void gpu_show_through_pass_destroy(const GpuContext *ctx, GpuShowThroughPass *pass);

#endif
