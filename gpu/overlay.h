/* A 2-D overlay of coloured quads in pixels, drawn over a finished frame: the window's HUD text.
 * Owns its pipeline, a host-visible vertex buffer per frame in flight (the CPU rewrites it each
 * frame) and the index buffer that turns quads into triangles. Knows nothing of fonts. */
#ifndef PAGECURL_GPU_OVERLAY_H
#define PAGECURL_GPU_OVERLAY_H

#include "../shaders/shared.h"
#include "buffer.h"
#include "renderer.h"

#define GPU_OVERLAY_MAX_QUADS 8192

typedef struct GpuOverlay {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    GpuBuffer vertices[GPU_FRAMES_IN_FLIGHT]; /* GPU_OVERLAY_MAX_QUADS x 4 vertices each */
    GpuBuffer indices;
} GpuOverlay;

bool gpu_overlay_create(const GpuContext *ctx, VkFormat color_format, GpuOverlay *out,
                        GpuError *err);
void gpu_overlay_destroy(const GpuContext *ctx, GpuOverlay *overlay);

/* Where the CPU writes the quads of the frame in `slot` (PC_OVERLAY_VERTEX_BYTES a vertex). */
void *gpu_overlay_vertices(const GpuOverlay *overlay, uint32_t slot);

/* Draws `quads` quads over the target's colour image (left in COLOR_ATTACHMENT_OPTIMAL by the
 * renderer), scaled by `scale` glyph pixels per pixel, from the origin (x, y) in pixels. */
void gpu_overlay_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuOverlay *overlay,
                        uint32_t slot, const GpuRenderTarget *target, uint32_t quads, float scale,
                        float x, float y);

#endif
