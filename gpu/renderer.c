/* SPDX-License-Identifier: MIT */
#include "renderer.h"

#include "pipeline.h"
#include "texture.h"

#include <math.h>
#include <stdlib.h>
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

uint32_t gpu_renderer_tier_bits(const GpuRenderer *r)
{
    if (r->quality == GPU_QUALITY_REFERENCE)
        return PC_TIER_REFERENCE;
    if (r->quality != GPU_QUALITY_LOW)
        return 0;
    return PC_TIER_FAST_SHADOW | PC_TIER_INK_MARKED | PC_TIER_DRAW_LOD |
           (r->samples == VK_SAMPLE_COUNT_1_BIT ? PC_TIER_EDGE_AA : 0);
}

bool gpu_renderer_wants_bounds(const GpuRenderer *r)
{
    /* the still pages' shadow round and the flat pages drawn directly (renderer_record.c) */
    return (gpu_renderer_tier_bits(r) & PC_TIER_EDGE_AA) && r->software && !r->ignore_bounds;
}

/* Its pipelines, compiled together (gpu_pipelines_create): every variant of page.frag the tier
 * draws with. */
static bool renderer_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    uint32_t tier = gpu_renderer_tier_bits(out);
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
        .push_size = sizeof(PcDrawIndex),
        .set_layout = out->set_layout,
        .color_format = out->color_format,
        .depth_format = out->depth_format,
        .samples = out->samples,
        .blend = (tier & PC_TIER_EDGE_AA) != 0,
        .frag_constant = tier,
        .frag_show_through = out->show_through,
        .label = "render",
    };
    GpuPipelineJob jobs[19];
    uint32_t n = 0;
#define JOB(d, name) (jobs[n++] = (GpuPipelineJob){(d), &out->name##pipeline, &out->name##layout})
    JOB(desc, );
    GpuPipelineDesc fade = desc;
    fade.blend = false;
    fade.fade = true;
    fade.frag_constant = (tier & ~PC_TIER_EDGE_AA) | PC_TIER_UNSHADOWED;
    fade.label = "render faded";
    JOB(fade, fade_);
    GpuPipelineDesc edge = desc;
    edge.frag = edge_frag_spv;
    edge.frag_size = sizeof edge_frag_spv;
    edge.label = "render edge";
    JOB(edge, edge_);
    if (tier & PC_TIER_EDGE_AA) {
        GpuPipelineDesc inside = desc;
        inside.blend = false;
        inside.frag_constant = tier | PC_TIER_EDGE_INSIDE;
        inside.label = "render inside";
        JOB(inside, inside_);
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
        JOB(lit, lit_);
        JOB(lit_inside, lit_inside_);
        JOB(bare, bare_);
        JOB(bare_inside, bare_inside_);
        GpuPipelineDesc board = lit, board_inside = lit_inside;
        board.frag_constant |= PC_TIER_BOARD;
        board.label = "render board";
        board_inside.frag_constant |= PC_TIER_BOARD;
        board_inside.label = "render inside board";
        JOB(board, board_);
        JOB(board_inside, board_inside_);
        GpuPipelineDesc leaf = lit, leaf_inside = lit_inside, leaf_bare = bare,
                        leaf_bare_inside = bare_inside;
        leaf.frag_constant |= PC_TIER_CUT;
        leaf.label = "render leaf";
        leaf_inside.frag_constant |= PC_TIER_CUT;
        leaf_inside.label = "render inside leaf";
        leaf_bare.frag_constant |= PC_TIER_CUT;
        leaf_bare.label = "render bare leaf";
        leaf_bare_inside.frag_constant |= PC_TIER_CUT;
        leaf_bare_inside.label = "render inside bare leaf";
        JOB(leaf, leaf_);
        JOB(leaf_inside, leaf_inside_);
        JOB(leaf_bare, leaf_bare_);
        JOB(leaf_bare_inside, leaf_bare_inside_);
        /* a flat page with a zoomed view's detail, the only draws whose pipelines read it */
        GpuPipelineDesc detail = desc, detail_inside = inside;
        detail.frag_constant |= PC_TIER_DETAIL;
        detail.label = "render detail";
        detail_inside.frag_constant |= PC_TIER_DETAIL;
        detail_inside.label = "render inside detail";
        JOB(detail, detail_);
        JOB(detail_inside, detail_inside_);
        /* the leaf's flat cells (mesh/split.h), drawn in the inside round alone */
        GpuPipelineDesc leaf_plain = leaf_inside, leaf_bare_plain = leaf_bare_inside;
        leaf_plain.frag_constant |= PC_TIER_PLAIN;
        leaf_plain.label = "render plain leaf";
        leaf_bare_plain.frag_constant |= PC_TIER_PLAIN;
        leaf_bare_plain.label = "render plain bare leaf";
        JOB(leaf_plain, leaf_plain_);
        JOB(leaf_bare_plain, leaf_bare_plain_);
        GpuPipelineDesc shadow_only = desc;
        shadow_only.blend = false;
        shadow_only.subtract = true;
        shadow_only.frag_constant = tier | PC_TIER_SHADOW_ONLY;
        shadow_only.label = "render shadow only";
        JOB(shadow_only, shadow_only_);
    }
#undef JOB
    return gpu_pipelines_create(ctx, jobs, n, err);
}

/* The flat unit page, counter-clockwise seen from +z like the grid, then the block of leaves
 * under a flat page: its fore-edge (x = 1), head (y = 1) and tail (y = 0), each face with its own
 * outward normal, from the top (z = 0) down to z = -1. No top: the flat page is its top. No
 * bottom: the camera is always above the book. No spine face: the binding joins the two blocks
 * there, and the left and right blocks' spine faces would lie in one plane and fight. 2 and 6
 * triangles; host-visible, they are tiny. */
#define QUAD_INDICES  6
#define BLOCK_INDICES 18
static bool fixed_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    static const float vertices[16][PC_VERTEX_FLOATS] = {
        /* the page */
        {0, 0, 0, 0, 0, 1, 0, 0},
        {1, 0, 0, 0, 0, 1, 1, 0},
        {1, 1, 0, 0, 0, 1, 1, 1},
        {0, 1, 0, 0, 0, 1, 0, 1},
        /* the block's tail: normal -y, u along x */
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
    static const uint32_t indices[QUAD_INDICES + BLOCK_INDICES] = {
        0, 1, 2, 0, 2, 3, /* the page: the grid's diagonal */
        /* the fore edge before the tail and head, whose anti-aliased ends (the low tier) are
         * blended over it where both show, as at a standing board's corner: drawn after them, it
         * would lie behind their blended pixels, the backdrop in its place */
        8, 9, 10, 8, 10, 11, 4, 5, 6, 4, 6, 7, 12, 13, 14, 12, 14, 15};
    GpuBufferDesc v = {sizeof vertices, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                       "flat page and stack edge vertices"};
    GpuBufferDesc i = {sizeof indices, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, GPU_MEMORY_UPLOAD,
                       "flat page and stack edge indices"};
    if (!gpu_buffer_create(ctx, &v, &out->fixed_vertices, err) ||
        !gpu_buffer_create(ctx, &i, &out->fixed_indices, err))
        return false;
    memcpy(out->fixed_vertices.mapped, vertices, sizeof vertices);
    memcpy(out->fixed_indices.mapped, indices, sizeof indices);
    return true;
}

/* Set 0: the page content (binding 0), the shadow map's cover and depth (1), the ink (2), the
 * pages' detail (3), the content and the ink again where a footprint is stretched (5, 6: through
 * the anisotropic sampler at the high tier), all sampled by the fragment shader; the frames' draw
 * tables (4), read by every stage of every draw (the shadow pass's too), written once here. */
static bool descriptors_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    /* written by the CPU every frame, read by every vertex and fragment: as the curl tables */
    GpuBufferDesc tables = {
        GPU_FRAMES_IN_FLIGHT * sizeof(PcDrawTable), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
        gpu_buffer_shared_heap(ctx) ? GPU_MEMORY_SHARED : GPU_MEMORY_UPLOAD, "draw tables"};
    if (!gpu_buffer_create(ctx, &tables, &out->draw_tables, err))
        return false;
    VkDescriptorSetLayoutBinding bindings[7];
    for (uint32_t i = 0; i < 7; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
        };
    bindings[4] = (VkDescriptorSetLayoutBinding){
        .binding = 4,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    uint32_t count = sizeof bindings / sizeof bindings[0];
    VkDescriptorSetLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = count,
        .pBindings = bindings,
    };
    GPU_TRY(err, ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &layout, ctx->allocator,
                                                     &out->set_layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, out->set_layout, "render");
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 6},
                                    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    GPU_TRY(err, ctx->vk.vkCreateDescriptorPool(ctx->device, &pool, ctx->allocator, &out->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_POOL, out->pool, "render");
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = out->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &out->set_layout,
    };
    GPU_TRY(err, ctx->vk.vkAllocateDescriptorSets(ctx->device, &alloc, &out->set));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET, out->set, "render");
    VkDescriptorBufferInfo buffer = {out->draw_tables.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = out->set,
        .dstBinding = 4,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .pBufferInfo = &buffer,
    };
    ctx->vk.vkUpdateDescriptorSets(ctx->device, 1, &write, 0, NULL);
    return true;
}

/* The set's images: written when the renderer is made and again when its tier changes (the
 * shadow map is made anew then) or its detail texture is (gpu_renderer_set_detail), never while
 * a frame that binds the set is in flight. */
static void descriptors_write(const GpuContext *ctx, GpuRenderer *out)
{
    out->epoch++; /* commands recorded with the set before are invalid */
    /* a stretched footprint's reads: anisotropic at the high tier where the device allows it */
    bool anisotropic = out->anisotropic && out->quality == GPU_QUALITY_HIGH;
    VkSampler content = anisotropic ? out->anisotropic : out->content.sampler;
    VkSampler ink = anisotropic ? out->anisotropic : out->ink.sampler;
    const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    VkDescriptorImageInfo images[] = {
        {out->content.sampler, out->content.image.view, read},
        {out->shadow.sampler, out->shadow.map.view, read},
        {out->ink.sampler, out->ink.image.view, read},
        {out->detail.sampler, out->detail.image.view, read},
        {content, out->content.image.view, read},
        {ink, out->ink.image.view, read},
    };
    static const uint32_t binding[] = {0, 1, 2, 3, 5, 6};
    uint32_t count = sizeof images / sizeof images[0];
    VkWriteDescriptorSet writes[sizeof images / sizeof images[0]];
    for (uint32_t i = 0; i < count; i++)
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = out->set,
            .dstBinding = binding[i],
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &images[i],
        };
    ctx->vk.vkUpdateDescriptorSets(ctx->device, count, writes, 0, NULL);
}

/* What depends on the tier: the samples a pixel, the shadow map and its samplers, the pipelines
 * (their variants and sample count) and the still pages' cache (made by the first frame). */
static bool tier_create(const GpuContext *ctx, GpuQuality quality, GpuRenderer *out, GpuError *err)
{
    out->quality = quality;
    if (out->quality == GPU_QUALITY_AUTO)
        out->quality = ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? GPU_QUALITY_LOW
                                                                            : GPU_QUALITY_HIGH;
    bool low = out->quality == GPU_QUALITY_LOW;
    const VkPhysicalDeviceLimits *lim = &ctx->props.limits;
    bool reference = out->quality == GPU_QUALITY_REFERENCE;
    bool msaa_wanted = out->max_samples >= 4 || (out->max_samples == 0 && !low);
    VkSampleCountFlags counts =
        lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts;
    out->samples =
        msaa_wanted && reference && out->max_samples == 0 && (counts & VK_SAMPLE_COUNT_8_BIT)
            ? VK_SAMPLE_COUNT_8_BIT
        : msaa_wanted && (counts & VK_SAMPLE_COUNT_4_BIT) ? VK_SAMPLE_COUNT_4_BIT
                                                          : VK_SAMPLE_COUNT_1_BIT;
    if (out->fixed_samples)
        out->samples = out->fixed_samples;
    uint32_t shadow = out->shadow_size ? out->shadow_size : GPU_SHADOW_MAP_SIZE;
    if (low && shadow > GPU_SHADOW_MAP_LOW_SIZE)
        shadow = GPU_SHADOW_MAP_LOW_SIZE;
    if (reference)
        shadow = GPU_SHADOW_MAP_REFERENCE_SIZE < lim->maxImageDimension2D
                     ? GPU_SHADOW_MAP_REFERENCE_SIZE
                     : lim->maxImageDimension2D;
    if (!gpu_shadow_create(ctx, shadow, low, out->set_layout, &out->shadow, err))
        return false;
    descriptors_write(ctx, out);
    return renderer_create(ctx, out, err);
}

/* The content's and the ink's sampler at the high tier where the device has anisotropic
 * filtering: the textures' own (gpu_sampler_create) with up to 16 reads along a footprint's long
 * side. */
static bool anisotropic_create(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    if (!ctx->sampler_anisotropy)
        return true;
    float most = ctx->props.limits.maxSamplerAnisotropy;
    return gpu_sampler_create(ctx, most < GPU_MAX_ANISOTROPY ? most : GPU_MAX_ANISOTROPY,
                              "content and ink, anisotropic", &out->anisotropic, err);
}

bool gpu_renderer_create(const GpuContext *ctx, const GpuRendererDesc *desc, GpuRenderer *out,
                         GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->color_format = desc->color_format;
    out->depth_format = desc->depth_format ? desc->depth_format : gpu_image_depth_format(ctx);
    out->max_samples = desc->max_samples;
    out->fixed_samples = (VkSampleCountFlagBits)desc->samples;
    out->shadow_size = desc->shadow_size;
    out->show_through = fminf(fmaxf(desc->show_through, 0.0f), 1.0f);
    out->software = ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    out->ink_width = desc->ink_width ? desc->ink_width : 1;
    out->ink_height = desc->ink_height ? desc->ink_height : 1;
    GpuInkDesc ink = {1, 1, desc->content.layers, "ink"}; /* full once drawn on */
    /* no detail until a zoomed view asks for it: a texel of paper a slot */
    static const uint8_t PAPER[4 * GPU_DETAIL_SLOTS] = {244, 240, 230, 255, 244, 240, 230, 255};
    GpuTextureDesc detail = {.width = 1,
                             .height = 1,
                             .layers = GPU_DETAIL_SLOTS,
                             .pixels = PAPER,
                             .label = "detail",
                             .one_level = true,
                             .ring_layers = 1};
    GpuTextureDesc content = desc->content;
    content.show_through = out->show_through > 0.0f; /* page.frag reads it from the alpha */
    /* a page drawn, or a leaf's pair made paper again, uploaded as frames go on */
    content.ring_layers = 2;
    if (gpu_texture_create(ctx, &content, &out->content, err) &&
        gpu_texture_create(ctx, &detail, &out->detail, err) &&
        gpu_ink_create(ctx, &ink, &out->ink, err) && anisotropic_create(ctx, out, err) &&
        descriptors_create(ctx, out, err) && tier_create(ctx, desc->quality, out, err) &&
        fixed_create(ctx, out, err))
        return true;
    gpu_renderer_destroy(ctx, out);
    return false;
}

static void tier_destroy(const GpuContext *ctx, GpuRenderer *renderer)
{
    gpu_image_destroy(ctx, &renderer->still.color);
    gpu_image_destroy(ctx, &renderer->still.other);
    memset(&renderer->still, 0, sizeof renderer->still);
    gpu_pipeline_destroy(ctx, &renderer->fade_pipeline, &renderer->fade_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_bare_inside_pipeline,
                         &renderer->leaf_bare_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_plain_pipeline, &renderer->leaf_plain_layout);
    gpu_pipeline_destroy(ctx, &renderer->detail_pipeline, &renderer->detail_layout);
    gpu_pipeline_destroy(ctx, &renderer->detail_inside_pipeline, &renderer->detail_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_bare_plain_pipeline,
                         &renderer->leaf_bare_plain_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_bare_pipeline, &renderer->leaf_bare_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_inside_pipeline, &renderer->leaf_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->leaf_pipeline, &renderer->leaf_layout);
    gpu_pipeline_destroy(ctx, &renderer->board_inside_pipeline, &renderer->board_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->board_pipeline, &renderer->board_layout);
    gpu_pipeline_destroy(ctx, &renderer->shadow_only_pipeline, &renderer->shadow_only_layout);
    gpu_pipeline_destroy(ctx, &renderer->bare_inside_pipeline, &renderer->bare_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->bare_pipeline, &renderer->bare_layout);
    gpu_pipeline_destroy(ctx, &renderer->lit_inside_pipeline, &renderer->lit_inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->lit_pipeline, &renderer->lit_layout);
    gpu_pipeline_destroy(ctx, &renderer->inside_pipeline, &renderer->inside_layout);
    gpu_pipeline_destroy(ctx, &renderer->edge_pipeline, &renderer->edge_layout);
    gpu_pipeline_destroy(ctx, &renderer->pipeline, &renderer->layout);
    gpu_shadow_destroy(ctx, &renderer->shadow);
}

bool gpu_renderer_set_quality(const GpuContext *ctx, GpuRenderer *renderer, GpuQuality quality,
                              GpuError *err)
{
    tier_destroy(ctx, renderer);
    return tier_create(ctx, quality, renderer, err);
}

void gpu_renderer_destroy(const GpuContext *ctx, GpuRenderer *renderer)
{
    tier_destroy(ctx, renderer);
    gpu_buffer_destroy(ctx, &renderer->fixed_indices);
    gpu_buffer_destroy(ctx, &renderer->fixed_vertices);
    gpu_buffer_destroy(ctx, &renderer->draw_tables);
    if (renderer->pool) /* frees the set with it */
        ctx->vk.vkDestroyDescriptorPool(ctx->device, renderer->pool, ctx->allocator);
    if (renderer->set_layout)
        ctx->vk.vkDestroyDescriptorSetLayout(ctx->device, renderer->set_layout, ctx->allocator);
    if (renderer->anisotropic)
        ctx->vk.vkDestroySampler(ctx->device, renderer->anisotropic, ctx->allocator);
    gpu_ink_destroy(ctx, &renderer->ink);
    gpu_texture_destroy(ctx, &renderer->detail);
    gpu_texture_destroy(ctx, &renderer->content);
    memset(renderer, 0, sizeof *renderer);
}

bool gpu_renderer_set_detail(const GpuContext *ctx, GpuRenderer *r, uint32_t slot, uint32_t width,
                             uint32_t height, const uint8_t *pixels, bool *remade, GpuError *err)
{
    *remade = false;
    if (slot >= GPU_DETAIL_SLOTS || !width || !height ||
        width > ctx->props.limits.maxImageDimension2D ||
        height > ctx->props.limits.maxImageDimension2D)
        return gpu_error_set(err, "no detail texture of %ux%u texels", width, height);
    r->detail_writes++;
    if (r->detail.width == width && r->detail.height == height)
        return gpu_texture_update(ctx, &r->detail, slot, 1, pixels, err);
    /* Another size: a texture anew, and the set pointed at it once nothing binds the set. */
    size_t layer = (size_t)width * height * 4;
    uint8_t *both = calloc(GPU_DETAIL_SLOTS, layer);
    if (!both)
        return gpu_error_set(err, "out of memory for %ux%u texels of detail", width, height);
    memcpy(both + layer * slot, pixels, layer);
    GpuTexture made;
    GpuTextureDesc desc = {.width = width,
                           .height = height,
                           .layers = GPU_DETAIL_SLOTS,
                           .pixels = both,
                           .label = "detail",
                           .one_level = true,
                           .ring_layers = 1,
                           .ring_reserve = GPU_DETAIL_SLOTS};
    bool ok = gpu_queue_idle(ctx, err) && gpu_texture_create(ctx, &desc, &made, err);
    free(both);
    if (!ok)
        return false;
    gpu_texture_destroy(ctx, &r->detail);
    r->detail = made;
    descriptors_write(ctx, r);
    *remade = true;
    return true;
}

bool gpu_renderer_ink_full(const GpuContext *ctx, GpuRenderer *r, GpuError *err)
{
    if (r->ink.width == r->ink_width && r->ink.height == r->ink_height)
        return true;
    GpuInk made;
    GpuInkDesc desc = {r->ink_width, r->ink_height, r->ink.layers, "ink"};
    if (!gpu_queue_idle(ctx, err) || !gpu_ink_create(ctx, &desc, &made, err))
        return false;
    gpu_ink_destroy(ctx, &r->ink);
    r->ink = made;
    descriptors_write(ctx, r);
    return true;
}

GpuDraw gpu_renderer_quad(const GpuRenderer *renderer, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = renderer->fixed_vertices.buffer,
                     .indices = renderer->fixed_indices.buffer,
                     .index_count = QUAD_INDICES,
                     .push = *push};
}

GpuDraw gpu_renderer_block(const GpuRenderer *renderer, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = renderer->fixed_vertices.buffer,
                     .indices = renderer->fixed_indices.buffer,
                     .first_index = QUAD_INDICES,
                     .index_count = BLOCK_INDICES,
                     .push = *push,
                     .edge = true};
}

GpuDraw gpu_renderer_leaf(const GpuLeaf *leaf, const PcDrawPush *push)
{
    return (GpuDraw){.vertices = leaf->vertices.buffer,
                     .indices = leaf->indices.buffer,
                     .index_count = (uint32_t)(leaf->triangle_count * 3),
                     .shadow_first_index = leaf->shadow_first_index,
                     .shadow_index_count = leaf->shadow_index_count,
                     .shadow_adjacency_first = leaf->shadow_adjacency_first,
                     .push = *push,
                     .casts_shadow = true};
}
