#include "shadow.h"

#include "image.h"
#include "pipeline.h"

#include <math.h>

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

bool gpu_shadow_create(const GpuContext *ctx, uint32_t size, GpuRenderer *out, GpuError *err)
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

GpuImageBarrier gpu_shadow_barrier_in(const GpuRenderer *renderer)
{
    return (GpuImageBarrier){
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
    };
}

void gpu_shadow_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *renderer,
                       const GpuDraw *draws, uint32_t count, GpuBound *bound)
{
    gpu_label_begin(ctx, cmd, "shadow");
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
        /* the low tier's map takes the coarser mesh: its chords sag (c^2 / 8r) under a texel of
         * it at the radii a turn uses */
        bool coarse =
            (gpu_renderer_tier_bits(renderer) & PC_TIER_FAST_SHADOW) && d->shadow_index_count;
        gpu_pipeline_draw(cmd, bound, d->vertices, d->indices,
                          coarse ? d->shadow_first_index : d->first_index,
                          coarse ? d->shadow_index_count : d->index_count);
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

bool gpu_shadow_receiver_rect(const GpuRenderer *renderer, const GpuDraw *caster,
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
    /* A receiver finds a blocker only within the search's reach of one in the map (a nearest
     * read: plus a texel's half diagonal, here 2 texels), in light space: on the plane that is
     * at most 1 / |light.z| as far. The map spans 2 half sizes (shaders/shadow.glsl). */
    float half =
        (float)PC_SHADOW_SPARE * hypotf(receiver->push.page.v[0], 0.5f * receiver->push.page.v[1]);
    float reach = ((float)PC_SHADOW_SEARCH + 2.0f / (float)renderer->shadow_map.extent.width) *
                  2.0f * half / fabsf(light[2]);
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
