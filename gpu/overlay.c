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
        .blend = true, /* the HUD's backdrop is translucent */
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
    gpu_pipeline_destroy(ctx, &overlay->pipeline, &overlay->layout);
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
    float sx = 2.0f / (float)target->extent.width, sy = 2.0f / (float)target->extent.height;
    PcOverlayPush push = {.scale = {{scale * sx, scale * sy, x * sx, y * sy}}};
    gpu_pipeline_begin(cmd, overlay->pipeline, overlay->layout, &color, NULL, target->extent, &push,
                       sizeof push);
    gpu_pipeline_draw(cmd, NULL, overlay->vertices[slot].buffer, overlay->indices.buffer, 0,
                      quads * 6);
    vkCmdEndRendering(cmd);
    gpu_label_end(ctx, cmd);
}
