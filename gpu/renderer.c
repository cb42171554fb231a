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
        GpuPipelineDesc lit = desc;
        lit.frag_constant = tier | PC_TIER_UNSHADOWED;
        lit.label = "render unshadowed";
        GpuPipelineDesc lit_inside = inside;
        lit_inside.frag_constant = inside.frag_constant | PC_TIER_UNSHADOWED;
        lit_inside.label = "render inside unshadowed";
        GpuPipelineDesc bare = lit, bare_inside = lit_inside;
        bare.frag_constant |= PC_TIER_NO_INK;
        bare.label = "render bare";
        bare_inside.frag_constant |= PC_TIER_NO_INK;
        bare_inside.label = "render inside bare";
        if (!gpu_pipeline_create(ctx, &lit, &out->lit_pipeline, &out->lit_layout, err) ||
            !gpu_pipeline_create(ctx, &lit_inside, &out->lit_inside_pipeline,
                                 &out->lit_inside_layout, err) ||
            !gpu_pipeline_create(ctx, &bare, &out->bare_pipeline, &out->bare_layout, err) ||
            !gpu_pipeline_create(ctx, &bare_inside, &out->bare_inside_pipeline,
                                 &out->bare_inside_layout, err))
            return false;
        GpuPipelineDesc shadow_only = desc;
        shadow_only.blend = false;
        shadow_only.multiply = true;
        shadow_only.frag_constant = tier | PC_TIER_SHADOW_ONLY;
        shadow_only.label = "render shadow only";
        if (!gpu_pipeline_create(ctx, &shadow_only, &out->shadow_only_pipeline,
                                 &out->shadow_only_layout, err))
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

static void pipeline_destroy(const GpuContext *ctx, VkPipeline pipeline, VkPipelineLayout layout)
{
    if (pipeline)
        vkDestroyPipeline(ctx->device, pipeline, NULL);
    if (layout)
        vkDestroyPipelineLayout(ctx->device, layout, NULL);
}

void gpu_renderer_destroy(const GpuContext *ctx, GpuRenderer *renderer)
{
    gpu_image_destroy(ctx, &renderer->still.color);
    pipeline_destroy(ctx, renderer->shadow_pipeline, renderer->shadow_layout);
    pipeline_destroy(ctx, renderer->shadow_only_pipeline, renderer->shadow_only_layout);
    pipeline_destroy(ctx, renderer->bare_inside_pipeline, renderer->bare_inside_layout);
    pipeline_destroy(ctx, renderer->bare_pipeline, renderer->bare_layout);
    pipeline_destroy(ctx, renderer->lit_inside_pipeline, renderer->lit_inside_layout);
    pipeline_destroy(ctx, renderer->lit_pipeline, renderer->lit_layout);
    pipeline_destroy(ctx, renderer->inside_pipeline, renderer->inside_layout);
    pipeline_destroy(ctx, renderer->edge_pipeline, renderer->edge_layout);
    pipeline_destroy(ctx, renderer->pipeline, renderer->layout);
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

/* Which draws a round of drawing takes: the turning leaf (it casts the shadow), the flat pages,
 * the blocks' faces, or all. */
typedef enum Take { TAKE_ALL, TAKE_CASTER, TAKE_FLAT, TAKE_EDGE } Take;
/* ...and how: by its own pipeline (the page's or the edge's), only the pixels it covers whole,
 * or only its shadow multiplied in. `unshadowed`: by the page pipelines' variant without the
 * shadow's code (PC_TIER_UNSHADOWED), for what receives no shadow. */
typedef enum Pass { PASS_OWN, PASS_INSIDE, PASS_SHADOW_ONLY } Pass;
typedef struct Round {
    Take take;
    Pass pass;
    bool unshadowed;
} Round;

static const Round PLAIN_ROUNDS[] = {{TAKE_ALL, PASS_OWN, false}};
/* When the shaders blend the paper's edges over what lies behind them (the low tier without
 * MSAA): the pixels that the turning leaf covers whole, those that the flat pages do, the blocks'
 * faces, the flat pages again and the leaf again, of which the depth test lets only the edge
 * pixels through. So every edge is blended over what lies behind it, the pages under the leaf stay
 * unshaded as when the leaf is drawn first, and only edge pixels pay for blending (on a CPU
 * rasteriser it costs every pixel it is on for). */
static const Round EDGE_ROUNDS[] = {{TAKE_CASTER, PASS_INSIDE, true},
                                    {TAKE_FLAT, PASS_INSIDE, false},
                                    {TAKE_EDGE, PASS_OWN, false},
                                    {TAKE_FLAT, PASS_OWN, false},
                                    {TAKE_CASTER, PASS_OWN, true}};
/* The still pages into their cache: the same without the leaf and its shadow... */
static const Round STILL_ROUNDS[] = {
    {TAKE_FLAT, PASS_INSIDE, true}, {TAKE_EDGE, PASS_OWN, false}, {TAKE_FLAT, PASS_OWN, true}};
/* ...and a frame over them: the leaf's inside, the shadow on the flat pages it leaves in view,
 * the leaf's edge. */
static const Round OVER_STILL_ROUNDS[] = {{TAKE_CASTER, PASS_INSIDE, true},
                                          {TAKE_FLAT, PASS_SHADOW_ONLY, false},
                                          {TAKE_CASTER, PASS_OWN, true}};

static bool takes(Take take, const GpuDraw *d)
{
    switch (take) {
    case TAKE_CASTER:
        return d->casts_shadow;
    case TAKE_FLAT:
        return !d->edge && !d->casts_shadow;
    case TAKE_EDGE:
        return d->edge;
    default:
        return true;
    }
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

/* Whether a page draw's front and back have ink (ever written to). */
static void ink_sides(const GpuRenderer *r, const GpuDraw *d, bool *front_inked, bool *back_inked)
{
    uint32_t front = (uint32_t)d->push.page.v[2];
    uint64_t inked = r->ink.inked;
    *front_inked = front >= 64 || (inked >> front & 1);
    *back_inked = front + 1 >= 64 || (inked >> (front + 1) & 1);
}

/* A draw's push constants; with PC_TIER_INK_MARKED, page.z marked with which of the leaf's two
 * sides have ink; with PC_TIER_DRAW_LOD, light_dir.w its mip level. */
static PcDrawPush draw_push(const GpuRenderer *r, const GpuDraw *d, VkExtent2D extent)
{
    PcDrawPush push = d->push;
    if ((tier_bits(r) & PC_TIER_DRAW_LOD) && !d->edge)
        push.light_dir.v[3] = draw_lod(r, d, extent);
    if ((tier_bits(r) & PC_TIER_INK_MARKED) && !d->edge) {
        bool f, b;
        ink_sides(r, d, &f, &b);
        push.page.v[2] += (f ? 0.25f : 0.0f) + (b ? 0.5f : 0.0f);
    }
    return push;
}

/* Records the rounds' draws in the begun rendering, `pipeline` bound and the set with it. */
static void record_rounds(VkCommandBuffer cmd, const GpuRenderer *r, const Round *rounds,
                          size_t round_count, const GpuDraw *draws, uint32_t count,
                          VkExtent2D extent)
{
    VkPipeline bound = r->pipeline;
    for (size_t k = 0; k < round_count; k++) {
        const Round *round = &rounds[k];
        for (uint32_t i = 0; i < count; i++) {
            const GpuDraw *d = &draws[i];
            if (!takes(round->take, d))
                continue;
            bool lit = round->unshadowed, f = true, b = true;
            if (lit && !d->edge)
                ink_sides(r, d, &f, &b);
            bool bare = lit && !f && !b; /* no ink on either side: the ink's read left out */
            VkPipeline pipeline = round->pass == PASS_SHADOW_ONLY ? r->shadow_only_pipeline
                                  : round->pass == PASS_INSIDE    ? (bare  ? r->bare_inside_pipeline
                                                                     : lit ? r->lit_inside_pipeline
                                                                           : r->inside_pipeline)
                                  : d->edge                       ? r->edge_pipeline
                                  : bare                          ? r->bare_pipeline
                                  : lit                           ? r->lit_pipeline
                                                                  : r->pipeline;
            VkPipelineLayout layout = round->pass == PASS_SHADOW_ONLY ? r->shadow_only_layout
                                      : round->pass == PASS_INSIDE ? (bare  ? r->bare_inside_layout
                                                                      : lit ? r->lit_inside_layout
                                                                            : r->inside_layout)
                                      : d->edge                    ? r->edge_layout
                                      : bare                       ? r->bare_layout
                                      : lit                        ? r->lit_layout
                                                                   : r->layout;
            if (pipeline != bound) {
                /* identically defined layouts: the set stays bound across the switch */
                bound = pipeline;
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            }
            PcDrawPush push = draw_push(r, d, extent);
            vkCmdPushConstants(cmd, layout,
                               VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                               sizeof push, &push);
            gpu_pipeline_draw(cmd, d->vertices, d->indices, d->index_count);
        }
    }
}

/* Last frame's depth tests (or this frame's still pages') -> a depth clear. */
static void depth_barrier(VkCommandBuffer cmd, const GpuRenderTarget *target)
{
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
}

/* Begins rendering into `color_view` (cleared to the backdrop, or loaded) and the target's
 * depth (cleared), with the page pipeline and the set bound. */
static void begin(VkCommandBuffer cmd, const GpuRenderer *r, const GpuRenderTarget *target,
                  VkImageView color_view, bool load)
{
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = color_view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
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
        color.resolveImageView = color_view;
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
    gpu_pipeline_begin(cmd, r->pipeline, r->layout, &color, &depth, target->extent, NULL, 0);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layout, 0, 1, &r->set, 0,
                            NULL);
}

/* Whether this frame can draw over the still pages' cache: the low tier blending its own edges
 * (the cache holds no MSAA samples), a target that takes copies, at most one turning leaf and
 * nothing else that moves (a hard cover's board turns with its block), and the cache's image.
 * The leaf always lies above the still pages (at or over the page plane, the camera above it),
 * so drawn over them it needs none of their depths. */
static bool still_usable(const GpuContext *ctx, GpuRenderer *r, const GpuRenderTarget *target,
                         const GpuDraw *draws, uint32_t count)
{
    GpuStillCache *c = &r->still;
    if (!(tier_bits(r) & PC_TIER_EDGE_AA) || !target->copy_in || c->failed)
        return false;
    uint32_t casters = 0, still = 0;
    for (uint32_t i = 0; i < count; i++) {
        casters += draws[i].casts_shadow;
        still += !draws[i].casts_shadow;
    }
    if (casters > 1 || still > GPU_STILL_MAX_DRAWS)
        return false;
    VkExtent2D e = target->extent;
    if (c->color.image && c->color.extent.width == e.width && c->color.extent.height == e.height)
        return true;
    if (c->color.image) {
        (void)vkDeviceWaitIdle(ctx->device); /* a frame in flight may still copy the old one */
        gpu_image_destroy(ctx, &c->color);
    }
    c->valid = false;
    GpuError err = {0};
    GpuImageDesc desc = {
        .extent = e,
        .format = r->color_format,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .label = "still pages",
    };
    c->failed = !gpu_image_create(ctx, &desc, &c->color, &err);
    return !c->failed;
}

/* The still pages as this frame draws them; true when the cache holds them already. */
static bool still_current(GpuRenderer *r, const GpuDraw *draws, uint32_t count, VkExtent2D extent)
{
    GpuStillCache *c = &r->still;
    GpuStillDraw now[GPU_STILL_MAX_DRAWS];
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        if (d->casts_shadow)
            continue;
        now[n] = (GpuStillDraw){d->vertices, d->indices, d->index_count, draw_push(r, d, extent)};
        n++;
    }
    bool same = c->valid && c->count == n && c->content_writes == r->content.writes &&
                c->ink_writes == r->ink.writes;
    for (uint32_t i = 0; same && i < n; i++)
        same = c->draws[i].vertices == now[i].vertices && c->draws[i].indices == now[i].indices &&
               c->draws[i].index_count == now[i].index_count &&
               !memcmp(&c->draws[i].push, &now[i].push, sizeof now[i].push);
    if (same)
        return true;
    memcpy(c->draws, now, n * sizeof now[0]);
    c->count = n;
    c->content_writes = r->content.writes;
    c->ink_writes = r->ink.writes;
    return false;
}

/* Draws the still pages into their cache if they changed, and copies them into the target's
 * colour image, left for drawing over. */
static void still_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *r,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count)
{
    GpuStillCache *c = &r->still;
    if (!still_current(r, draws, count, target->extent)) {
        gpu_label_begin(ctx, cmd, "still pages");
        /* Last frame's copy read the cache -> this redraw; its old contents are discarded. */
        gpu_image_barrier(cmd, &(GpuImageBarrier){
                                   .image = c->color.image,
                                   .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                   .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                   .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                                   .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                               });
        depth_barrier(cmd, target);
        begin(cmd, r, target, c->color.view, false);
        record_rounds(cmd, r, STILL_ROUNDS, sizeof STILL_ROUNDS / sizeof STILL_ROUNDS[0], draws,
                      count, target->extent);
        vkCmdEndRendering(cmd);
        /* copied out, this frame and the next ones */
        gpu_image_barrier_drawn_to_copy(cmd, c->color.image);
        c->valid = true;
        c->redraws++;
        gpu_label_end(ctx, cmd);
    }
    /* Whatever used the target last (present acquire, readback copy) -> the copy in. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = target->color,
                               .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .new_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               .src_stage = target->color_src_stage,
                               .src_access = target->color_src_access,
                               .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                               .dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           });
    VkImageCopy region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .extent = {target->extent.width, target->extent.height, 1},
    };
    vkCmdCopyImage(cmd, c->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target->color,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    /* The copy -> the leaf drawn over it. */
    gpu_image_barrier(cmd, &(GpuImageBarrier){
                               .image = target->color,
                               .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                               .old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                               .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                               .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                             VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           });
}

void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count)
{
    gpu_label_begin(ctx, cmd, "render");
    gpu_shadow_record(ctx, cmd, renderer, draws, count);
    bool still = still_usable(ctx, renderer, target, draws, count);
    if (still) {
        still_record(ctx, cmd, renderer, target, draws, count);
    } else {
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
    }
    depth_barrier(cmd, target);
    begin(cmd, renderer, target, target->color_view, still);
    const Round *rounds = still                                     ? OVER_STILL_ROUNDS
                          : (tier_bits(renderer) & PC_TIER_EDGE_AA) ? EDGE_ROUNDS
                                                                    : PLAIN_ROUNDS;
    size_t n = still                                     ? sizeof OVER_STILL_ROUNDS / sizeof(Round)
               : (tier_bits(renderer) & PC_TIER_EDGE_AA) ? sizeof EDGE_ROUNDS / sizeof(Round)
                                                         : 1;
    record_rounds(cmd, renderer, rounds, n, draws, count, target->extent);
    vkCmdEndRendering(cmd);
    gpu_label_end(ctx, cmd);
}
