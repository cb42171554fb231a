/* SPDX-License-Identifier: MIT */
#include "shadow.h"

#include "image.h"
#include "pipeline.h"

#include <math.h>

static const uint32_t shadow_vert_spv[] =
#include "shadow.vert.inc"
    ;
static const uint32_t shadow_frag_spv[] =
#include "shadow.frag.inc"
    ;
static const uint32_t shadow_smooth_geom_spv[] =
#include "shadow_smooth.geom.inc"
    ;
static const uint32_t shadow_smooth_frag_spv[] =
#include "shadow_smooth.frag.inc"
    ;

static bool shadow_depth_format(const GpuContext *ctx, VkFormat *format, GpuError *err)
{
    const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        VkFormatProperties props;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, candidates[i], &props);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
            *format = candidates[i];
            return true;
        }
    }
    return gpu_error_set(err, "the device renders to no depth format (needed for the shadow map)");
}

uint32_t gpu_shadow_size(uint32_t width, uint32_t height)
{
    uint32_t side = width > height ? width : height, size = GPU_SHADOW_MAP_MIN_SIZE;
    while (size < side && size < GPU_SHADOW_MAP_SIZE)
        size *= 2;
    return size;
}

/* R16G16 float: cover in [0, 1] and depth times cover to 1/2048, a few thousandths of the
 * leaf's height where the penumbra is sized by it. Vulkan requires every device to render,
 * blit and filter it. */
#define SHADOW_COVER_FORMAT VK_FORMAT_R16G16_SFLOAT

bool gpu_shadow_create(const GpuContext *ctx, uint32_t size, bool coarse,
                       VkDescriptorSetLayout set_layout, GpuShadow *out, GpuError *err)
{
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    if (!shadow_depth_format(ctx, &depth_format, err))
        return false;
    uint32_t levels = 1;
    while ((size >> (levels - 1)) > PC_SHADOW_TOP)
        levels++;
    out->levels = levels;
    out->coarse = coarse;
    out->smooth = coarse && ctx->geometry_shader;
    GpuImageDesc cover = {
        .extent = {size, size},
        .format = SHADOW_COVER_FORMAT,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .levels = levels,
        .label = "shadow map",
    };
    GpuImageDesc depth = {
        .extent = {size, size},
        .format = depth_format,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
        .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
        .label = "shadow depth",
    };
    if (!gpu_image_create(ctx, &cover, &out->map, err) ||
        !gpu_image_create(ctx, &depth, &out->depth, err))
        return false;
    VkImageViewCreateInfo target = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->map.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = SHADOW_COVER_FORMAT,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    GPU_TRY(err, ctx->vk.vkCreateImageView(ctx->device, &target, ctx->allocator, &out->target));
    GPU_NAME(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, out->target, "shadow map level 0");
    /* Outside the map is outside the book: no cover (transparent black). */
    VkSamplerCreateInfo sampler = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        .maxLod = VK_LOD_CLAMP_NONE,
        .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
    };
    GPU_TRY(err, ctx->vk.vkCreateSampler(ctx->device, &sampler, ctx->allocator, &out->sampler));
    GPU_NAME(ctx, VK_OBJECT_TYPE_SAMPLER, out->sampler, "shadow");
    /* The position and the uv: the pass draws the page shader's vertex buffers. The low tier's
     * finds the leaf's outline and anti-aliases it (shadow_smooth.geom and .frag), where the
     * device has geometry shaders. */
    GpuPipelineDesc pass = {
        .vert = shadow_vert_spv,
        .vert_size = sizeof shadow_vert_spv,
        .frag = out->smooth ? shadow_smooth_frag_spv : shadow_frag_spv,
        .frag_size = out->smooth ? sizeof shadow_smooth_frag_spv : sizeof shadow_frag_spv,
        .geom = out->smooth ? shadow_smooth_geom_spv : NULL,
        .geom_size = out->smooth ? sizeof shadow_smooth_geom_spv : 0,
        .stride = PC_VERTEX_FLOATS * sizeof(float),
        .attributes =
            {{.location = 0, .format = VK_FORMAT_R32G32B32_SFLOAT, .offset = PC_VERTEX_OFFSET_POS},
             {.location = 2, .format = VK_FORMAT_R32G32_SFLOAT, .offset = PC_VERTEX_OFFSET_UV}},
        .attribute_count = 2,
        .frag_constant = size, /* shadow_smooth.geom's texels across the map */
        .push_size = sizeof(PcDrawIndex),
        .set_layout = set_layout,
        .color_format = out->map.format,
        .depth_format = out->depth.format,
        .label = "shadow",
    };
    return gpu_pipeline_create(ctx, &pass, &out->pipeline, &out->layout, err);
}

void gpu_shadow_destroy(const GpuContext *ctx, GpuShadow *shadow)
{
    gpu_pipeline_destroy(ctx, &shadow->pipeline, &shadow->layout);
    if (shadow->sampler)
        ctx->vk.vkDestroySampler(ctx->device, shadow->sampler, ctx->allocator);
    if (shadow->target)
        ctx->vk.vkDestroyImageView(ctx->device, shadow->target, ctx->allocator);
    gpu_image_destroy(ctx, &shadow->depth);
    gpu_image_destroy(ctx, &shadow->map);
    *shadow = (GpuShadow){0};
}

uint32_t gpu_shadow_barriers_in(const GpuShadow *shadow, GpuImageBarrier *out)
{
    /* Last frame's page shader sampled every level: level 0 is drawn, the others written by the
     * blits; the depth buffer is only the pass's. */
    GpuImageBarrier level = {
        .image = shadow->map.image,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    };
    uint32_t n = 0;
    out[n++] = level;
    if (shadow->levels > 1) {
        level.base_level = 1;
        level.level_count = shadow->levels - 1;
        level.new_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        level.dst_stage = VK_PIPELINE_STAGE_2_BLIT_BIT;
        level.dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        out[n++] = level;
    }
    out[n++] = (GpuImageBarrier){
        .image = shadow->depth.image,
        .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
        .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .new_layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .src_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .dst_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
    };
    return n;
}

/* Each level the 2 x 2 box average of the one before (a linear blit at half the size): cover
 * and cover-weighted depth averaged over the level's texel. */
static void shadow_mips(const GpuContext *ctx, VkCommandBuffer cmd, const GpuShadow *shadow)
{
    const GpuImage *map = &shadow->map;
    GpuImageBarrier done = {
        .image = map->image,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_BLIT_BIT,
        .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
    };
    uint32_t side = map->extent.width;
    for (uint32_t level = 1; level < shadow->levels; level++) {
        gpu_image_barrier(ctx, cmd, &done);
        int32_t from = (int32_t)(side >> (level - 1)), to = (int32_t)(side >> level);
        VkImageBlit blit = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1},
            .srcOffsets = {{0, 0, 0}, {from, from, 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1},
            .dstOffsets = {{0, 0, 0}, {to, to, 1}},
        };
        ctx->vk.vkCmdBlitImage(cmd, map->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, map->image,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
        done.base_level = level;
        done.old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        done.src_stage = VK_PIPELINE_STAGE_2_BLIT_BIT;
        done.src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    }
    /* The levels read by blits and the last one written -> the page shader samples them all. */
    GpuImageBarrier read[2] = {done, done};
    uint32_t last = shadow->levels - 1, n = 0;
    if (last > 0) {
        read[n] = done;
        read[n].base_level = 0;
        read[n].level_count = last;
        read[n].old_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        read[n].src_access = VK_ACCESS_2_TRANSFER_READ_BIT;
        n++;
    }
    read[n++] = done;
    for (uint32_t i = 0; i < n; i++) {
        read[i].new_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        read[i].dst_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
        read[i].dst_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    }
    gpu_barriers(ctx, cmd, NULL, read, n);
}

void gpu_shadow_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuShadow *shadow,
                       const GpuDraw *draws, uint32_t count, uint32_t slot, GpuBound *bound)
{
    gpu_label_begin(ctx, cmd, "shadow");
    VkRenderingAttachmentInfo cover = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = shadow->target,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = {.color = {{0.0f, 0.0f, 0.0f, 0.0f}}},
    };
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = shadow->depth.view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = {.depthStencil = {1.0f, 0}},
    };
    gpu_pipeline_begin(ctx, cmd, shadow->pipeline, shadow->layout, &cover, &depth,
                       (VkRect2D){{0, 0}, shadow->map.extent}, NULL, 0);
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        if (!d->casts_shadow)
            continue;
        PcDrawIndex pick = {i, slot};
        ctx->vk.vkCmdPushConstants(cmd, shadow->layout,
                                   VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                   sizeof pick, &pick);
        /* the low tier's map takes the coarser mesh (with its triangles' neighbours where it
         * finds the outline): its chords sag (c^2 / 8r) about a texel of it at the tightest
         * roll a turn makes */
        bool coarse = shadow->coarse && d->shadow_index_count;
        if (shadow->smooth && d->shadow_adjacency_first)
            gpu_pipeline_draw(ctx, cmd, bound, d->vertices, d->indices, d->shadow_adjacency_first,
                              2 * d->shadow_index_count);
        else if (!shadow->smooth) /* (a leaf always has them: book/leaf.c) */
            gpu_pipeline_draw(ctx, cmd, bound, d->vertices, d->indices,
                              coarse ? d->shadow_first_index : d->first_index,
                              coarse ? d->shadow_index_count : d->index_count);
    }
    ctx->vk.vkCmdEndRendering(cmd);
    shadow_mips(ctx, cmd, shadow);
    gpu_label_end(ctx, cmd);
}

bool gpu_shadow_receiver_rect(const GpuShadow *shadow, const GpuDraw *caster,
                              const GpuDraw *receiver, VkExtent2D extent, VkRect2D *rect)
{
    *rect = (VkRect2D){{0, 0}, extent};
    if (!caster)
        return false;
    const float *light = receiver->push.light_dir.v; /* unit, towards the light */
    if (!caster->bounded || fabsf(light[2]) < 1e-3f)
        return true;
    /* The caster's box in the world (world = model * pos + lift), seen along the light on the
     * receiver's plane. */
    const float *cm = caster->push.model.v, *rm = receiver->push.model.v;
    float plane = rm[3], lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 8; k++) {
        float p[3];
        for (int c = 0; c < 3; c++)
            p[c] = ((k >> c) & 1 ? caster->hi[c] : caster->lo[c]) * cm[c];
        float along = (p[2] + cm[3] - plane) / light[2];
        for (int c = 0; c < 2; c++) {
            lo[c] = fminf(lo[c], p[c] - along * light[c]);
            hi[c] = fmaxf(hi[c], p[c] - along * light[c]);
        }
    }
    /* A receiver finds a blocker only within the search's reach of one in the map (plus 2
     * texels for rounding), in light space: on the plane that is at most 1 / |light.z| as far.
     * The map spans 2 half sizes (shaders/shadow.glsl). */
    float half =
        (float)PC_SHADOW_SPARE * hypotf(receiver->push.page.v[0], 0.5f * receiver->push.page.v[1]);
    float reach = ((float)PC_SHADOW_SEARCH + 2.0f / (float)shadow->map.extent.width) * 2.0f * half /
                  fabsf(light[2]);
    /* Its corners through the receiver's view: the quad's model is the unit square at z = 0. */
    const float *m = receiver->push.view_proj.m; /* column-major */
    float px_lo[2] = {INFINITY, INFINITY}, px_hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 4; k++) {
        float u = ((k & 1 ? hi[0] : lo[0]) + (k & 1 ? reach : -reach)) / rm[0];
        float v = ((k & 2 ? hi[1] : lo[1]) + (k & 2 ? reach : -reach)) / rm[1];
        float clip[4];
        for (int i = 0; i < 4; i++)
            clip[i] = m[i] * u + m[4 + i] * v + m[12 + i];
        if (!(clip[3] > 1e-6f))
            return true; /* behind the eye: a plane's rectangle then has no bounded image */
        float px[2] = {(clip[0] / clip[3] * 0.5f + 0.5f) * (float)extent.width,
                       (clip[1] / clip[3] * 0.5f + 0.5f) * (float)extent.height};
        for (int c = 0; c < 2; c++) {
            px_lo[c] = fminf(px_lo[c], px[c]);
            px_hi[c] = fmaxf(px_hi[c], px[c]);
        }
    }
    /* Whole pixels, one more each side for the rasteriser's rounding. */
    float x0 = fmaxf(floorf(px_lo[0]) - 1.0f, 0.0f), y0 = fmaxf(floorf(px_lo[1]) - 1.0f, 0.0f);
    float x1 = fminf(ceilf(px_hi[0]) + 1.0f, (float)extent.width);
    float y1 = fminf(ceilf(px_hi[1]) + 1.0f, (float)extent.height);
    if (!(x0 < x1 && y0 < y1))
        return false;
    *rect = (VkRect2D){{(int32_t)x0, (int32_t)y0}, {(uint32_t)(x1 - x0), (uint32_t)(y1 - y0)}};
    return true;
}
