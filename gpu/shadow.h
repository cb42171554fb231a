/* The renderer's shadow map: its images and sampler, made for the renderer that owns them
 * (and destroys them with itself), and the pass that draws the turning leaf's depth from the
 * light into it each frame, and its mips. */
#ifndef PAGECURL_GPU_SHADOW_H
#define PAGECURL_GPU_SHADOW_H

#include "pipeline.h"
#include "renderer.h"

/* The map (size x size texels and its mips down to PC_SHADOW_TOP, the leaf's cover and depth
 * from the light), the pass's depth buffer and the trilinear sampler; destroyed together. */
bool gpu_shadow_create(const GpuContext *ctx, uint32_t size, GpuRenderer *out, GpuError *err);
void gpu_shadow_destroy(const GpuContext *ctx, GpuRenderer *renderer);
/* Last frame's page shader sampled the map -> this frame's shadow pass: the caller records them,
 * in one call with its other barriers before the pass. Writes at most 3, returns how many. */
#define GPU_SHADOW_BARRIERS_IN 3
uint32_t gpu_shadow_barriers_in(const GpuRenderer *renderer, GpuImageBarrier *out);
/* The shadow pass: the draws that cast a shadow, their cover and depth, after
 * gpu_shadow_barriers_in's barriers; then the map's mips, and the barriers that hand it on to
 * this frame's page shader. */
void gpu_shadow_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                       const GpuDraw *draws, uint32_t count, GpuBound *bound);

/* The pixels of an `extent` target where `caster`'s shadow can darken the flat `receiver` (a
 * quad on the plane z = its model.w): the caster's box seen from the light on that plane, grown by
 * the page shader's blocker search, seen through the receiver's view. False when none can (no
 * caster, or its shadow is out of view); the whole target when the caster is not bounded, the
 * light grazes the plane or a corner lies behind the eye. Outside it the page shader finds no
 * blocker and its shadow factor is exactly 1. */
bool gpu_shadow_receiver_rect(const GpuRenderer *renderer, const GpuDraw *caster,
                              const GpuDraw *receiver, VkExtent2D extent, VkRect2D *rect);

#endif
