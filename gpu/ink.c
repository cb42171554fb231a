/* SPDX-License-Identifier: MIT */
#include "ink.h"

#include "sync.h"
#include "texture.h"

#include <string.h>

/* Bytes of one layer's whole mip chain, each level's rows tightly packed. */
static VkDeviceSize chain_bytes(uint32_t width, uint32_t height, uint32_t levels)
{
    VkDeviceSize bytes = 0;
    for (uint32_t l = 0; l < levels; l++) {
        VkDeviceSize w = width >> l ? width >> l : 1, h = height >> l ? height >> l : 1;
        bytes += w * h;
    }
    return bytes;
}

static void barrier_all(const GpuContext *ctx, VkCommandBuffer cmd, const GpuInk *ink,
                        VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src_stage,
                        VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                        VkAccessFlags2 dst_access)
{
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = ink->image.image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .level_count = ink->levels,
                          .layer_count = ink->layers,
                          .old_layout = from,
                          .new_layout = to,
                          .src_stage = src_stage,
                          .src_access = src_access,
                          .dst_stage = dst_stage,
                          .dst_access = dst_access,
                      });
}

static void record_clear(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const GpuInk *ink = user;
    /* Nothing before: every level and layer is cleared to no ink, then sampled. */
    barrier_all(ctx, cmd, ink, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, ink->levels, 0, ink->layers};
    ctx->vk.vkCmdClearColorImage(cmd, ink->image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 &(VkClearColorValue){{0}}, 1, &all);
    /* The clear wrote every texel -> fragment shaders sample them. */
    barrier_all(ctx, cmd, ink, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

static bool ink_create(const GpuContext *ctx, const GpuInkDesc *desc, GpuInk *out, GpuError *err)
{
    VkFormatProperties props;
    ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, GPU_INK_FORMAT, &props);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((props.optimalTilingFeatures & need) != need)
        return gpu_error_set(err, "the device cannot sample filtered R8 textures (for the ink)");
    GpuImageDesc image = {
        .extent = {out->width, out->height},
        .format = GPU_INK_FORMAT,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .levels = out->levels,
        .layers = out->layers,
        .array_view = true,
        .label = desc->label,
    };
    if (!gpu_image_create(ctx, &image, &out->image, err))
        return false;
    /* Two layers' chains a frame: a stroke touches one side at a time, an undo or clear one
     * more; anything beyond waits for the next frame. */
    VkDeviceSize staging =
        2 * (chain_bytes(out->width, out->height, out->levels) + 4 * out->levels);
    for (uint32_t i = 0; i < GPU_FRAMES_IN_FLIGHT; i++)
        if (!gpu_buffer_create(ctx,
                               &(GpuBufferDesc){.size = staging,
                                                .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                .memory = GPU_MEMORY_UPLOAD,
                                                .label = "ink staging"},
                               &out->slots[i].staging, err))
            return false;
    /* one upload made now: a layer given to another page then clears it without allocating */
    gpu_uploads_init(&out->uploads, staging, "ink upload");
    GpuUpload *first;
    if (!gpu_uploads_take(ctx, &out->uploads, &first, err))
        return false;
    if (!gpu_context_submit_once(ctx, record_clear, out, err))
        return false;
    return gpu_sampler_create(ctx, 1.0f, desc->label, &out->sampler, err);
}

bool gpu_ink_create(const GpuContext *ctx, const GpuInkDesc *desc, GpuInk *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->width = desc->width ? desc->width : 1;
    out->height = desc->height ? desc->height : 1;
    out->layers = desc->layers ? desc->layers : 1;
    out->levels = gpu_texture_levels(out->width, out->height);
    if (ink_create(ctx, desc, out, err))
        return true;
    gpu_ink_destroy(ctx, out);
    return false;
}

void gpu_ink_destroy(const GpuContext *ctx, GpuInk *ink)
{
    gpu_uploads_destroy(ctx, &ink->uploads); /* waits for its uploads in flight */
    for (uint32_t i = 0; i < GPU_FRAMES_IN_FLIGHT; i++)
        gpu_buffer_destroy(ctx, &ink->slots[i].staging);
    if (ink->sampler)
        ctx->vk.vkDestroySampler(ctx->device, ink->sampler, ctx->allocator);
    gpu_image_destroy(ctx, &ink->image);
    memset(ink, 0, sizeof *ink);
}

void gpu_ink_stage_begin(GpuInkSlot *slot)
{
    slot->copy_count = 0;
    slot->staged = 0;
}

bool gpu_ink_stage(GpuInk *ink, GpuInkSlot *slot, const GpuInkRegion *r)
{
    if (!r->width || !r->height)
        return true;
    /* copies from a buffer start at a multiple of 4 bytes */
    VkDeviceSize at = (slot->staged + 3) & ~(VkDeviceSize)3;
    VkDeviceSize bytes = (VkDeviceSize)r->width * r->height;
    if (slot->copy_count == GPU_INK_MAX_COPIES || at + bytes > slot->staging.size)
        return false;
    uint8_t *dst = (uint8_t *)slot->staging.mapped + at;
    for (uint32_t y = 0; y < r->height; y++)
        memcpy(dst + (size_t)y * r->width, r->texels + (size_t)y * r->stride, r->width);
    slot->copies[slot->copy_count++] = (VkBufferImageCopy){
        .bufferOffset = at,
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, r->level, r->layer, 1},
        .imageOffset = {(int32_t)r->x, (int32_t)r->y, 0},
        .imageExtent = {r->width, r->height, 1},
    };
    slot->staged = at + bytes;
    ink->inked |= r->layer < 64 ? 1ull << r->layer : ~0ull;
    ink->writes++;
    return true;
}

static void record_slot(const GpuContext *ctx, VkCommandBuffer cmd, const GpuInk *ink,
                        const GpuInkSlot *slot)
{
    if (!slot->copy_count)
        return;
    gpu_label_begin(ctx, cmd, "ink upload");
    /* Earlier frames' page shaders sampled the ink -> these copies overwrite it (the layout
     * change keeps the texels the copies leave alone). */
    barrier_all(ctx, cmd, ink, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    ctx->vk.vkCmdCopyBufferToImage(cmd, slot->staging.buffer, ink->image.image,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, slot->copy_count,
                                   slot->copies);
    /* The copies wrote the changed rectangles -> this frame's page shader samples them. */
    barrier_all(ctx, cmd, ink, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    gpu_label_end(ctx, cmd);
}

void gpu_ink_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuInk *ink, uint32_t slot)
{
    record_slot(ctx, cmd, ink, &ink->slots[slot]);
}

static void record_upload(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const GpuInk *ink = user;
    record_slot(ctx, cmd, ink, &ink->once);
}

bool gpu_ink_upload_begin(const GpuContext *ctx, GpuInk *ink, GpuError *err)
{
    if (!ink->upload && !gpu_uploads_take(ctx, &ink->uploads, &ink->upload, err))
        return false;
    ink->once.staging = ink->upload->staging; /* borrowed: the ring's */
    gpu_ink_stage_begin(&ink->once);
    return true;
}

bool gpu_ink_upload(const GpuContext *ctx, GpuInk *ink, GpuError *err)
{
    /* nothing staged: the upload taken stays free */
    bool ok = !ink->once.copy_count ||
              gpu_uploads_submit(ctx, &ink->uploads, ink->upload, record_upload, ink, err);
    gpu_ink_stage_begin(&ink->once);
    ink->once.staging = (GpuBuffer){0};
    ink->upload = NULL;
    return ok;
}
