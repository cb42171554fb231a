#include "shadow.h"

#include "image.h"
#include "pipeline.h"

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
        gpu_pipeline_draw(cmd, bound, d->vertices, d->indices, d->first_index, d->index_count);
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
