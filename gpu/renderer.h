/* Stage render: draws the page's AoS vertex buffer, lit by its GPU normals, into a colour target
 * with a depth buffer (dynamic rendering). Owns the graphics pipeline and its layout; the targets
 * belong to the offscreen or swapchain module that made them. The same code serves both. */
#ifndef PAGECURL_GPU_RENDERER_H
#define PAGECURL_GPU_RENDERER_H

#include "../shaders/shared.h"
#include "page.h"

typedef struct GpuRenderer {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkFormat color_format, depth_format;
} GpuRenderer;

/* What one frame draws into. The colour image's last use was in `color_src_stage` with
 * `color_src_access`; the renderer leaves it in COLOR_ATTACHMENT_OPTIMAL. Its old contents and
 * the depth buffer's are discarded. */
typedef struct GpuRenderTarget {
    VkImage color, depth;
    VkImageView color_view, depth_view;
    VkExtent2D extent;
    VkPipelineStageFlags2 color_src_stage;
    VkAccessFlags2 color_src_access;
} GpuRenderTarget;

bool gpu_renderer_create(const GpuContext *ctx, VkFormat color_format, GpuRenderer *out,
                         GpuError *err);
void gpu_renderer_destroy(const GpuContext *ctx, GpuRenderer *renderer);

void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuPage *page,
                         const PcDrawPush *push);

#endif
