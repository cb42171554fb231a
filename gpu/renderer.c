#include "renderer.h"

#include "image.h"
#include "pipeline.h"
#include "shadow.h"

#include <math.h>
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

/* The low tier's shader variant (shared.h's PC_TIER_* bits): a cheaper shadow filter, the ink
 * texture read only on sides with ink and, where no MSAA smooths the edges, the shaders' own edge
 * coverage, blended over what lies behind. */
static uint32_t tier_bits(const GpuRenderer *r)
{
    if (r->quality != GPU_QUALITY_LOW)
        return 0;
    return PC_TIER_FAST_SHADOW | PC_TIER_INK_MARKED | PC_TIER_DRAW_LOD |
           (r->samples == VK_SAMPLE_COUNT_1_BIT ? PC_TIER_EDGE_AA : 0);
}

static bool renderer_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    uint32_t tier = tier_bits(out);
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
        .blend = (tier & PC_TIER_EDGE_AA) != 0,
        .frag_constant = tier,
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
    if (tier & PC_TIER_EDGE_AA) {
        GpuPipelineDesc inside = desc;
        inside.blend = false;
        inside.frag_constant = tier | PC_TIER_EDGE_INSIDE;
        inside.label = "render inside";
        if (!gpu_pipeline_create(ctx, &inside, &out->inside_pipeline, &out->inside_layout, err))
            return false;
    }
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
    out->quality = desc->quality;
    if (out->quality == GPU_QUALITY_AUTO)
        out->quality = ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? GPU_QUALITY_LOW
                                                                            : GPU_QUALITY_HIGH;
    bool low = out->quality == GPU_QUALITY_LOW;
    out->color_format = desc->color_format;
    out->depth_format = gpu_image_depth_format(ctx);
    const VkPhysicalDeviceLimits *lim = &ctx->props.limits;
    bool msaa_wanted = desc->max_samples >= 4 || (desc->max_samples == 0 && !low);
    out->samples = msaa_wanted && (lim->framebufferColorSampleCounts &
                                   lim->framebufferDepthSampleCounts & VK_SAMPLE_COUNT_4_BIT)
                       ? VK_SAMPLE_COUNT_4_BIT
                       : VK_SAMPLE_COUNT_1_BIT;
    GpuInkDesc ink = {desc->ink_width, desc->ink_height, desc->content.layers, "ink"};
    uint32_t shadow = desc->shadow_size ? desc->shadow_size : GPU_SHADOW_MAP_SIZE;
    if (low && shadow > GPU_SHADOW_MAP_LOW_SIZE)
        shadow = GPU_SHADOW_MAP_LOW_SIZE;
    if (gpu_texture_create(ctx, &desc->content, &out->content, err) &&
        gpu_ink_create(ctx, &ink, &out->ink, err) && gpu_shadow_create(ctx, shadow, out, err) &&
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
    if (renderer->inside_pipeline)
        vkDestroyPipeline(ctx->device, renderer->inside_pipeline, NULL);
    if (renderer->inside_layout)
        vkDestroyPipelineLayout(ctx->device, renderer->inside_layout, NULL);
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
/* The k-th colour draw to record and the pipeline that draws it; false past the last. As given,
 * unless the shaders blend the paper's edges over what lies behind them (the low tier without
 * MSAA): then in five rounds, the pixels that the turning leaf covers whole, those that the flat
 * pages do, the blocks' faces, the flat pages again and the leaf again, of which the depth test
 * lets only the edge pixels through. So every edge is blended over what lies behind it, the pages
 * under the leaf stay unshaded as when the leaf is drawn first, and only edge pixels pay for
 * blending (on a CPU rasteriser it costs every pixel it is on for). */
static bool render_step(const GpuRenderer *r, const GpuDraw *draws, uint32_t count, uint32_t k,
                        const GpuDraw **draw, VkPipeline *pipeline, VkPipelineLayout *layout)
{
    bool rounds = tier_bits(r) & PC_TIER_EDGE_AA;
    for (int round = 0; round < (rounds ? 5 : 1); round++) {
        for (uint32_t i = 0; i < count; i++) {
            const GpuDraw *d = &draws[i];
            bool flat = !d->edge && !d->casts_shadow;
            bool in = !rounds                    ? true
                      : round == 0 || round == 4 ? d->casts_shadow
                      : round == 2               ? d->edge
                                                 : flat;
            if (!in || k-- > 0)
                continue;
            *draw = d;
            bool inside = rounds && round < 2;
            *pipeline = inside ? r->inside_pipeline : d->edge ? r->edge_pipeline : r->pipeline;
            *layout = inside ? r->inside_layout : d->edge ? r->edge_layout : r->layout;
            return true;
        }
    }
    return false;
}

/* PC_TIER_DRAW_LOD's mip level: log2 of the content texels a pixel spans at the middle of the
 * draw's page as it lies flat (the leaf's curl is ignored: there the level is finer than it need
 * be), rounded to a whole level so that llvmpipe reads one level, not two. The flat quad's model
 * is the unit square, the leaf's grid spans page.x by page.y; uv runs 0..1 over either. */
static float draw_lod(const GpuRenderer *r, const GpuDraw *d, VkExtent2D extent)
{
    const float *m = d->push.view_proj.m; /* column-major */
    float a = d->casts_shadow ? d->push.page.v[0] : 1.0f;
    float b = d->casts_shadow ? d->push.page.v[1] : 1.0f;
    float c[4], du[4], dv[4]; /* clip position at uv (0.5, 0.5) and its derivatives in u, v */
    for (int i = 0; i < 4; i++) {
        du[i] = m[i] * a;
        dv[i] = m[4 + i] * b;
        c[i] = 0.5f * (du[i] + dv[i]) + m[12 + i];
    }
    if (c[3] <= 1e-6f)
        return 0.0f;
    /* pixels per unit of u and of v: the derivative of the perspective divide, times the viewport
     */
    float sx = 0.5f * (float)extent.width / (c[3] * c[3]);
    float sy = 0.5f * (float)extent.height / (c[3] * c[3]);
    float xu = sx * (du[0] * c[3] - c[0] * du[3]), yu = sy * (du[1] * c[3] - c[1] * du[3]);
    float xv = sx * (dv[0] * c[3] - c[0] * dv[3]), yv = sy * (dv[1] * c[3] - c[1] * dv[3]);
    float det = xu * yv - xv * yu;
    if (fabsf(det) < 1e-12f)
        return 0.0f;
    /* the inverse: texels per pixel along x and y (GL's rho, the longer of the two) */
    float w = (float)r->content.width / det, h = (float)r->content.height / det;
    float rho = fmaxf(hypotf(w * yv, h * yu), hypotf(w * xv, h * xu));
    return rho > 1.0f ? floorf(log2f(rho) + 0.5f) : 0.0f;
}

/* A draw's push constants; with PC_TIER_INK_MARKED, page.z marked with which of the leaf's two
 * sides have ink; with PC_TIER_DRAW_LOD, light_dir.w its mip level. */
static PcDrawPush draw_push(const GpuRenderer *r, const GpuDraw *d, VkExtent2D extent)
{
    PcDrawPush push = d->push;
    if ((tier_bits(r) & PC_TIER_DRAW_LOD) && !d->edge)
        push.light_dir.v[3] = draw_lod(r, d, extent);
    if ((tier_bits(r) & PC_TIER_INK_MARKED) && !d->edge) {
        uint32_t front = (uint32_t)push.page.v[2];
        uint64_t inked = r->ink.inked;
        bool f = front >= 64 || (inked >> front & 1),
             b = front + 1 >= 64 || (inked >> (front + 1) & 1);
        push.page.v[2] += (f ? 0.25f : 0.0f) + (b ? 0.5f : 0.0f);
    }
    return push;
}

void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count)
{
    gpu_label_begin(ctx, cmd, "render");
    gpu_shadow_record(ctx, cmd, renderer, draws, count);
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
    VkPipeline bound = renderer->pipeline, pipeline;
    VkPipelineLayout layout;
    const GpuDraw *d;
    for (uint32_t k = 0; render_step(renderer, draws, count, k, &d, &pipeline, &layout); k++) {
        if (pipeline != bound) {
            /* identically defined layouts: the set stays bound across the switch */
            bound = pipeline;
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        }
        PcDrawPush push = draw_push(renderer, d, target->extent);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                           0, sizeof push, &push);
        gpu_pipeline_draw(cmd, d->vertices, d->indices, d->index_count);
    }
    vkCmdEndRendering(cmd);
    gpu_label_end(ctx, cmd);
}
