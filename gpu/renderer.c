#include "renderer.h"

#include "image.h"
#include "pipeline.h"

#include <string.h>

static const uint32_t page_vert_spv[] =
#include "page.vert.inc"
    ;
static const uint32_t page_frag_spv[] =
#include "page.frag.inc"
    ;
static const uint32_t edge_frag_spv[] =
#include "edge.frag.inc"
    ;
static const uint32_t shadow_vert_spv[] =
#include "shadow.vert.inc"
    ;

/* The backdrop behind the page (linear light). */
static const VkClearColorValue BACKGROUND = {{0.045f, 0.05f, 0.065f, 1.0f}};

static bool renderer_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    GpuPipelineDesc desc = {
        .vert = page_vert_spv,
        .vert_size = sizeof page_vert_spv,
        .frag = page_frag_spv,
        .frag_size = sizeof page_frag_spv,
        .stride = PC_VERTEX_FLOATS * sizeof(float),
        .attributes =
            {
                {.location = 0,
                 .format = VK_FORMAT_R32G32B32_SFLOAT,
                 .offset = PC_VERTEX_OFFSET_POS},
                {.location = 1,
                 .format = VK_FORMAT_R32G32B32_SFLOAT,
                 .offset = PC_VERTEX_OFFSET_NORMAL},
                {.location = 2, .format = VK_FORMAT_R32G32_SFLOAT, .offset = PC_VERTEX_OFFSET_UV},
            },
        .attribute_count = 3,
        .push_size = sizeof(PcDrawPush),
        .set_layout = out->set_layout,
        .color_format = out->color_format,
        .depth_format = out->depth_format,
        .samples = out->samples,
        .label = "render",
    };
    if (!gpu_pipeline_create(ctx, &desc, &out->pipeline, &out->layout, err))
        return false;
    GpuPipelineDesc edge = desc;
    edge.frag = edge_frag_spv;
    edge.frag_size = sizeof edge_frag_spv;
    edge.label = "render edge";
    if (!gpu_pipeline_create(ctx, &edge, &out->edge_pipeline, &out->edge_layout, err))
        return false;
    GpuPipelineDesc shadow = {
        .vert = shadow_vert_spv,
        .vert_size = sizeof shadow_vert_spv,
        .stride = desc.stride,
        .attributes = {desc.attributes[0]},
        .attribute_count = 1,
        .push_size = sizeof(PcDrawPush),
        .depth_format = out->shadow_map.format,
        .label = "shadow",
    };
    return gpu_pipeline_create(ctx, &shadow, &out->shadow_pipeline, &out->shadow_layout, err);
}

/* The first depth format that can be both rendered to and sampled; linear filtering of its
 * comparisons (four taps for the price of one) where the device has it. */
static bool shadow_format(const GpuContext *ctx, VkFormat *format, bool *linear, GpuError *err)
{
    const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM};
    VkFormatFeatureFlags need =
        VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        VkFormatProperties props;
        vkGetPhysicalDeviceFormatProperties(ctx->physical, candidates[i], &props);
        if ((props.optimalTilingFeatures & need) == need) {
            *format = candidates[i];
            *linear =
                props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
            return true;
        }
    }
    return gpu_error_set(err, "the device can sample no depth format (needed for the shadow map)");
}

uint32_t gpu_renderer_shadow_size(uint32_t width, uint32_t height)
{
    uint32_t side = width > height ? width : height, size = GPU_SHADOW_MAP_MIN_SIZE;
    while (size < side && size < GPU_SHADOW_MAP_SIZE)
        size *= 2;
    return size;
}

static bool shadow_create(const GpuContext *ctx, uint32_t size, GpuRenderer *out, GpuError *err)
{
    VkFormat format = VK_FORMAT_UNDEFINED;
    bool linear = false;
    if (!shadow_format(ctx, &format, &linear, err))
        return false;
    GpuImageDesc map = {
        .extent = {size, size},
        .format = format,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
        .label = "shadow map",
    };
    if (!gpu_image_create(ctx, &map, &out->shadow_map, err))
        return false;
    /* Outside the map is outside the book: lit (border depth 1, the far plane). */
    VkSamplerCreateInfo compare = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .compareEnable = VK_TRUE,
        .compareOp = VK_COMPARE_OP_LESS_OR_EQUAL, /* lit where the receiver is no deeper */
        .borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
    };
    GPU_TRY(err, vkCreateSampler(ctx->device, &compare, NULL, &out->shadow_compare));
    GPU_NAME(ctx, VK_OBJECT_TYPE_SAMPLER, out->shadow_compare, "shadow compare");
    VkSamplerCreateInfo depth = compare;
    depth.magFilter = depth.minFilter = VK_FILTER_NEAREST;
    depth.compareEnable = VK_FALSE;
    GPU_TRY(err, vkCreateSampler(ctx->device, &depth, NULL, &out->shadow_depth));
    GPU_NAME(ctx, VK_OBJECT_TYPE_SAMPLER, out->shadow_depth, "shadow depth");
    return true;
}

/* A small mesh that never changes, in host-visible buffers written once. */
static bool fixed_mesh_create(const GpuContext *ctx, const void *vertices, VkDeviceSize vertex_size,
                              const uint32_t *indices, VkDeviceSize index_size,
                              const char *vertex_label, const char *index_label,
                              GpuBuffer *vertex_buffer, GpuBuffer *index_buffer, GpuError *err)
{
    GpuBufferDesc v = {vertex_size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                       vertex_label};
    GpuBufferDesc i = {index_size, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                       index_label};
    if (!gpu_buffer_create(ctx, &v, vertex_buffer, err) ||
        !gpu_buffer_create(ctx, &i, index_buffer, err))
        return false;
    memcpy(vertex_buffer->mapped, vertices, vertex_size);
    memcpy(index_buffer->mapped, indices, index_size);
    return true;
}

/* The flat unit page, counter-clockwise seen from +z like the grid; host-visible, it is tiny. */
static bool quad_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    static const float vertices[4][PC_VERTEX_FLOATS] = {
        {0, 0, 0, 0, 0, 1, 0, 0},
        {1, 0, 0, 0, 0, 1, 1, 0},
        {1, 1, 0, 0, 0, 1, 1, 1},
        {0, 1, 0, 0, 0, 1, 0, 1},
    };
    static const uint32_t indices[6] = {0, 1, 2, 0, 2, 3}; /* the grid's diagonal */
    return fixed_mesh_create(ctx, vertices, sizeof vertices, indices, sizeof indices,
                             "flat page vertices", "flat page indices", &out->quad_vertices,
                             &out->quad_indices, err);
}

/* The block of leaves under a flat page: its fore-edge (x = 1), head (y = 1) and tail (y = 0),
 * each face with its own outward normal, from the top (z = 0) down to z = -1. No top: the flat
 * page is its top. No bottom: the camera is always above the book. No spine face: the binding
 * joins the two blocks there, and the left and right blocks' spine faces would lie in one plane
 * and fight. 6 triangles; host-visible like the quad. */
static bool block_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    static const float vertices[12][PC_VERTEX_FLOATS] = {
        /* tail: normal -y, u along x */
        {0, 0, 0, 0, -1, 0, 0, 0},
        {1, 0, 0, 0, -1, 0, 1, 0},
        {1, 0, -1, 0, -1, 0, 1, 1},
        {0, 0, -1, 0, -1, 0, 0, 1},
        /* fore-edge: normal +x, u along y */
        {1, 0, 0, 1, 0, 0, 0, 0},
        {1, 1, 0, 1, 0, 0, 1, 0},
        {1, 1, -1, 1, 0, 0, 1, 1},
        {1, 0, -1, 1, 0, 0, 0, 1},
        /* head: normal +y, u along x */
        {0, 1, 0, 0, 1, 0, 0, 0},
        {1, 1, 0, 0, 1, 0, 1, 0},
        {1, 1, -1, 0, 1, 0, 1, 1},
        {0, 1, -1, 0, 1, 0, 0, 1},
    };
    static const uint32_t indices[18] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 8, 9, 10, 8, 10, 11};
    return fixed_mesh_create(ctx, vertices, sizeof vertices, indices, sizeof indices,
                             "stack edge vertices", "stack edge indices", &out->block_vertices,
                             &out->block_indices, err);
}

/* Set 0: the page content (binding 0), the shadow map through its comparison sampler (1) and as
 * raw depths (2), the ink (3), all sampled by the fragment shader. Written once: the images stay
 * the same while the renderer lives (the shadow map's and the ink's contents change, their
 * bindings do not). */
static bool descriptors_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    VkDescriptorSetLayoutBinding bindings[4];
    for (uint32_t i = 0; i < 4; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
        };
    uint32_t count = sizeof bindings / sizeof bindings[0];
    VkDescriptorSetLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = count,
        .pBindings = bindings,
    };
    GPU_TRY(err, vkCreateDescriptorSetLayout(ctx->device, &layout, NULL, &out->set_layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, out->set_layout, "render");
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, count};
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    GPU_TRY(err, vkCreateDescriptorPool(ctx->device, &pool, NULL, &out->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_POOL, out->pool, "render");
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = out->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &out->set_layout,
    };
    GPU_TRY(err, vkAllocateDescriptorSets(ctx->device, &alloc, &out->set));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET, out->set, "render");
    VkDescriptorImageInfo images[] = {
        {out->content.sampler, out->content.image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {out->shadow_compare, out->shadow_map.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {out->shadow_depth, out->shadow_map.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        {out->ink.sampler, out->ink.image.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
    };
    VkWriteDescriptorSet writes[sizeof images / sizeof images[0]];
    for (uint32_t i = 0; i < count; i++)
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = out->set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &images[i],
        };
    vkUpdateDescriptorSets(ctx->device, count, writes, 0, NULL);
    return true;
}

bool gpu_renderer_create(const GpuContext *ctx, const GpuRendererDesc *desc, GpuRenderer *out,
                         GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->color_format = desc->color_format;
    out->depth_format = gpu_image_depth_format(ctx);
    const VkPhysicalDeviceLimits *lim = &ctx->props.limits;
    bool msaa_wanted = desc->max_samples == 0 || desc->max_samples >= 4;
    out->samples = msaa_wanted && (lim->framebufferColorSampleCounts &
                                   lim->framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT)
                       ? VK_SAMPLE_COUNT_4_BIT
                       : VK_SAMPLE_COUNT_1_BIT;
    GpuInkDesc ink = {desc->ink_width, desc->ink_height, desc->content.layers, "ink"};
    if (gpu_texture_create(ctx, &desc->content, &out->content, err) &&
        gpu_ink_create(ctx, &ink, &out->ink, err) &&
        shadow_create(ctx, desc->shadow_size ? desc->shadow_size : GPU_SHADOW_MAP_SIZE, out, err) &&
        descriptors_create(ctx, out, err) && renderer_create(ctx, out, err) &&
        quad_create(ctx, out, err) && block_create(ctx, out, err))
        return true;
    gpu_renderer_destroy(ctx, out);
    return false;
}

void gpu_renderer_destroy(const GpuContext *ctx, GpuRenderer *renderer)
{
    if (renderer->shadow_pipeline)
        vkDestroyPipeline(ctx->device, renderer->shadow_pipeline, NULL);
    if (renderer->shadow_layout)
        vkDestroyPipelineLayout(ctx->device, renderer->shadow_layout, NULL);
    if (renderer->edge_pipeline)
        vkDestroyPipeline(ctx->device, renderer->edge_pipeline, NULL);
    if (renderer->edge_layout)
        vkDestroyPipelineLayout(ctx->device, renderer->edge_layout, NULL);
    if (renderer->pipeline)
        vkDestroyPipeline(ctx->device, renderer->pipeline, NULL);
    if (renderer->layout)
        vkDestroyPipelineLayout(ctx->device, renderer->layout, NULL);
    gpu_buffer_destroy(ctx, &renderer->block_indices);
    gpu_buffer_destroy(ctx, &renderer->block_vertices);
    gpu_buffer_destroy(ctx, &renderer->quad_indices);
    gpu_buffer_destroy(ctx, &renderer->quad_vertices);
    if (renderer->pool) /* frees the set with it */
        vkDestroyDescriptorPool(ctx->device, renderer->pool, NULL);
    if (renderer->set_layout)
        vkDestroyDescriptorSetLayout(ctx->device, renderer->set_layout, NULL);
    if (renderer->shadow_depth)
        vkDestroySampler(ctx->device, renderer->shadow_depth, NULL);
    if (renderer->shadow_compare)
        vkDestroySampler(ctx->device, renderer->shadow_compare, NULL);
    gpu_image_destroy(ctx, &renderer->shadow_map);
    gpu_ink_destroy(ctx, &renderer->ink);
    gpu_texture_destroy(ctx, &renderer->content);
    memset(renderer, 0, sizeof *renderer);
}

GpuDraw gpu_renderer_quad(const GpuRenderer *renderer, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = renderer->quad_vertices.buffer,
                     .indices = renderer->quad_indices.buffer,
                     .index_count = 6,
                     .push = *push};
}

GpuDraw gpu_renderer_block(const GpuRenderer *renderer, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = renderer->block_vertices.buffer,
                     .indices = renderer->block_indices.buffer,
                     .index_count = 18,
                     .push = *push,
                     .edge = true};
}

GpuDraw gpu_renderer_page(const GpuPage *page, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = page->vertices.buffer,
                     .indices = page->indices.buffer,
                     .index_count = (uint32_t)(page->triangle_count * 3),
                     .push = *push,
                     .casts_shadow = true};
}

/* The casters' depths from the light into the shadow map, left ready for the page shader. */
static void record_shadow(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                          const GpuDraw *draws, uint32_t count)
{
    gpu_label_begin(ctx, cmd, "shadow");
    /* Last frame's page shader sampled the map -> this frame's clear and depth writes. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = renderer->shadow_map.image,
                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .new_layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                               .src_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                               .src_access = 0,
                               .dst_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                               .dst_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                           });
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = renderer->shadow_map.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = {.depthStencil = {1.0f, 0}},
    };
    gpu_pipeline_begin(cmd, renderer->shadow_pipeline, renderer->shadow_layout, NULL, &depth,
                       renderer->shadow_map.extent, NULL, 0);
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        if (!d->casts_shadow)
            continue;
        vkCmdPushConstants(cmd, renderer->shadow_layout,
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof d->push, &d->push);
        gpu_pipeline_draw(cmd, d->vertices, d->indices, d->index_count);
    }
    vkCmdEndRendering(cmd);
    /* The shadow pass wrote depths -> the page shader samples them. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = renderer->shadow_map.image,
                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                               .new_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                               .src_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                               .src_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                               .dst_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                               .dst_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                           });
    gpu_label_end(ctx, cmd);
}

void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count)
{
    gpu_label_begin(ctx, cmd, "render");
    record_shadow(ctx, cmd, renderer, draws, count);
    /* Whatever used the colour image last (present acquire, readback copy) -> this frame's
     * clear and draw. Its old contents are discarded. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = target->color,
                               .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               .src_stage = target->color_src_stage,
                               .src_access = target->color_src_access,
                               .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           });
    /* Last frame's depth tests -> this frame's depth clear. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = target->depth,
                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .new_layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                               .src_stage = VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                               .src_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                               .dst_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                            VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                               .dst_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                           });
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = target->color_view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = {.color = BACKGROUND},
    };
    if (target->msaa) {
        /* Last frame's resolve read the samples -> this frame's clear. Discarded, then drawn
         * and averaged into the target's colour image at the end of the pass. */
        gpu_image_barrier(cmd, &(GpuImageBarrier){
                                   .image = target->msaa,
                                   .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                   .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                   .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                   .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                               });
        color.imageView = target->msaa_view;
        color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        color.resolveImageView = target->color_view;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = target->depth_view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = {.depthStencil = {1.0f, 0}},
    };
    gpu_pipeline_begin(cmd, renderer->pipeline, renderer->layout, &color, &depth, target->extent,
                       NULL, 0);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, renderer->layout, 0, 1,
                            &renderer->set, 0, NULL);
    bool edge = false; /* the page pipeline is bound */
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        if (d->edge != edge) {
            /* identically defined layouts: the set stays bound across the switch */
            edge = d->edge;
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS,
                              edge ? renderer->edge_pipeline : renderer->pipeline);
        }
        vkCmdPushConstants(cmd, edge ? renderer->edge_layout : renderer->layout,
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof d->push, &d->push);
        gpu_pipeline_draw(cmd, d->vertices, d->indices, d->index_count);
    }
    vkCmdEndRendering(cmd);
    gpu_label_end(ctx, cmd);
}
