#include "overlay.h"

#include "pipeline.h"
#include "sync.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t overlay_vert_spv[] =
#include "overlay.vert.inc"
    ;
static const uint32_t overlay_frag_spv[] =
#include "overlay.frag.inc"
    ;

static bool overlay_create(const GpuContext *ctx, VkFormat color_format, GpuOverlay *out,
                           GpuError *err)
{
    GpuPipelineDesc desc = {
        .vert = overlay_vert_spv,
        .vert_size = sizeof overlay_vert_spv,
        .frag = overlay_frag_spv,
        .frag_size = sizeof overlay_frag_spv,
        .stride = PC_OVERLAY_VERTEX_BYTES,
        .attributes =
            {
                {.location = 0, .format = VK_FORMAT_R32G32B32_SFLOAT, .offset = 0},
                {.location = 1, .format = VK_FORMAT_R8G8B8A8_UNORM, .offset = 12},
            },
        .attribute_count = 2,
        .push_size = sizeof(PcOverlayPush),
        .color_format = color_format,
        .depth_format = VK_FORMAT_UNDEFINED,
        .label = "overlay",
    };
    if (!gpu_pipeline_create(ctx, &desc, &out->pipeline, &out->layout, err))
        return false;
    GpuBufferDesc vertices = {(VkDeviceSize)GPU_OVERLAY_MAX_QUADS * 4 * PC_OVERLAY_VERTEX_BYTES,
                              VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                              "overlay vertices"};
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        if (!gpu_buffer_create(ctx, &vertices, &out->vertices[slot], err))
            return false;
    GpuBufferDesc indices = {(VkDeviceSize)GPU_OVERLAY_MAX_QUADS * 6 * sizeof(uint32_t),
                             VK_BUFFER_USAGE_INDEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                             "overlay indices"};
    if (!gpu_buffer_create(ctx, &indices, &out->indices, err))
        return false;
    uint32_t *index = out->indices.mapped;
    for (uint32_t q = 0; q < GPU_OVERLAY_MAX_QUADS; q++) { /* quad corners 0 1 2 3, two triangles */
        uint32_t v = 4 * q;
        uint32_t tri[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
        memcpy(&index[6 * q], tri, sizeof tri);
    }
    return true;
}

bool gpu_overlay_create(const GpuContext *ctx, VkFormat color_format, GpuOverlay *out,
                        GpuError *err)
{
    memset(out, 0, sizeof *out);
    if (overlay_create(ctx, color_format, out, err))
        return true;
    gpu_overlay_destroy(ctx, out);
    return false;
}

void gpu_overlay_destroy(const GpuContext *ctx, GpuOverlay *overlay)
{
    if (overlay->pipeline)
        vkDestroyPipeline(ctx->device, overlay->pipeline, NULL);
    if (overlay->layout)
        vkDestroyPipelineLayout(ctx->device, overlay->layout, NULL);
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        gpu_buffer_destroy(ctx, &overlay->vertices[slot]);
    gpu_buffer_destroy(ctx, &overlay->indices);
    memset(overlay, 0, sizeof *overlay);
}

void *gpu_overlay_vertices(const GpuOverlay *overlay, uint32_t slot)
{
    return overlay->vertices[slot].mapped;
}

void gpu_overlay_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuOverlay *overlay,
                        uint32_t slot, const GpuRenderTarget *target, uint32_t quads, float scale,
                        float x, float y)
{
    if (quads == 0)
        return;
    if (quads > GPU_OVERLAY_MAX_QUADS)
        quads = GPU_OVERLAY_MAX_QUADS;
    gpu_label_begin(ctx, cmd, "overlay");
    /* the page render wrote the colour image -> the overlay draws over it (loads it) */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = target->color_view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };
    VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, target->extent},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
    };
    vkCmdBeginRendering(cmd, &info);
    VkViewport vp = {0.0f, 0.0f, (float)target->extent.width, (float)target->extent.height,
                     0.0f, 1.0f};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, overlay->pipeline);
    float sx = 2.0f / (float)target->extent.width, sy = 2.0f / (float)target->extent.height;
    PcOverlayPush push = {.scale = {{scale * sx, scale * sy, x * sx, y * sy}}};
    vkCmdPushConstants(cmd, overlay->layout,
                       VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                       &push);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &overlay->vertices[slot].buffer, &offset);
    vkCmdBindIndexBuffer(cmd, overlay->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, quads * 6, 1, 0, 0, 0);
    vkCmdEndRendering(cmd);
    gpu_label_end(ctx, cmd);
}
