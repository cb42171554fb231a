/* SPDX-License-Identifier: MIT */
#include "show_through.h"

#include "pipeline.h"
#include "sync.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t show_through_vert_spv[] =
#include "show_through.vert.inc"
    ;
static const uint32_t show_through_frag_spv[] =
#include "show_through.frag.inc"
    ;

bool gpu_show_through_create(const GpuContext *ctx, VkFormat format, GpuShowThrough *out,
                             GpuError *err)
{
    memset(out, 0, sizeof *out);
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    VkDescriptorSetLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    GPU_TRY(err, ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &layout, ctx->allocator,
                                                     &out->set_layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, out->set_layout, "show-through");
    GpuPipelineDesc desc = {
        .vert = show_through_vert_spv,
        .vert_size = sizeof show_through_vert_spv,
        .frag = show_through_frag_spv,
        .frag_size = sizeof show_through_frag_spv,
        .set_layout = out->set_layout,
        .color_format = format,
        .write_mask = VK_COLOR_COMPONENT_A_BIT, /* the print stays as uploaded */
        .label = "show-through",
    };
    return gpu_pipeline_create(ctx, &desc, &out->pipeline, &out->layout, err);
}

void gpu_show_through_destroy(const GpuContext *ctx, GpuShowThrough *st)
{
    gpu_pipeline_destroy(ctx, &st->pipeline, &st->layout);
    if (st->set_layout)
        ctx->vk.vkDestroyDescriptorSetLayout(ctx->device, st->set_layout, ctx->allocator);
    memset(st, 0, sizeof *st);
}

/* A view of one layer: its level 0 to render to, or all its `levels` as the sampler2DArray of
 * one layer that the pass reads. */
static bool make_view(const GpuContext *ctx, VkImage image, VkFormat format, uint32_t layer,
                      uint32_t levels, const char *label, VkImageView *out, GpuError *err)
{
    VkImageViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = levels ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels ? levels : 1, layer, 1},
    };
    GPU_TRY(err, ctx->vk.vkCreateImageView(ctx->device, &info, ctx->allocator, out));
    GPU_NAME(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, *out, label);
    return true;
}

bool gpu_show_through_pass_create(const GpuContext *ctx, const GpuShowThrough *st, VkImage image,
                                  VkFormat format, VkSampler sampler, VkExtent2D extent,
                                  uint32_t levels, uint32_t first, uint32_t count,
                                  GpuShowThroughPass *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->image = image;
    out->extent = extent;
    out->first = first;
    out->targets = calloc(count, sizeof *out->targets);
    out->sources = calloc(count, sizeof *out->sources);
    out->sets = calloc(count, sizeof *out->sets);
    if (!out->targets || !out->sources || !out->sets)
        return gpu_error_set(err, "out of memory for the show-through pass");
    out->count = count; /* the views made so far are destroyed by count */
    for (uint32_t i = 0; i < count; i++)
        if (!make_view(ctx, image, format, first + i, 0, "show-through target", &out->targets[i],
                       err) ||
            !make_view(ctx, image, format, first + i, levels, "show-through source",
                       &out->sources[i], err))
            return false;
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, count};
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = count,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    GPU_TRY(err, ctx->vk.vkCreateDescriptorPool(ctx->device, &pool, ctx->allocator, &out->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_POOL, out->pool, "show-through");
    for (uint32_t i = 0; i < count; i++) {
        VkDescriptorSetAllocateInfo alloc = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = out->pool,
            .descriptorSetCount = 1,
            .pSetLayouts = &st->set_layout,
        };
        GPU_TRY(err, ctx->vk.vkAllocateDescriptorSets(ctx->device, &alloc, &out->sets[i]));
        GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET, out->sets[i], "show-through");
        VkDescriptorImageInfo info = {sampler, out->sources[i],
                                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet write = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = out->sets[i],
            .dstBinding = 0,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            .pImageInfo = &info,
        };
        ctx->vk.vkUpdateDescriptorSets(ctx->device, 1, &write, 0, NULL);
    }
    return true;
}

void gpu_show_through_pass_destroy(const GpuContext *ctx, GpuShowThroughPass *pass)
{
    if (pass->pool)
        ctx->vk.vkDestroyDescriptorPool(ctx->device, pass->pool, ctx->allocator);
    for (uint32_t i = 0; i < pass->count; i++) {
        if (pass->targets && pass->targets[i])
            ctx->vk.vkDestroyImageView(ctx->device, pass->targets[i], ctx->allocator);
        if (pass->sources && pass->sources[i])
            ctx->vk.vkDestroyImageView(ctx->device, pass->sources[i], ctx->allocator);
    }
    free(pass->targets);
    free(pass->sources);
    free(pass->sets);
    memset(pass, 0, sizeof *pass);
}

/* Level 0 of `layer`: sampled -> rendered to (after the reads of the frames before and of this
 * pass's earlier draw), or back. */
static void level0(const GpuContext *ctx, VkCommandBuffer cmd, VkImage image, uint32_t layer,
                   bool to_target)
{
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .base_layer = layer,
                          .old_layout = to_target ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
                                                  : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          .new_layout = to_target ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
                                                  : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          .src_stage = to_target ? VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
                                                 : VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          .src_access = to_target ? 0 : VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                          .dst_stage = to_target ? VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT
                                                 : VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                          .dst_access = to_target ? VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT
                                                  : VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                      });
}

void gpu_show_through_pass_record(const GpuContext *ctx, VkCommandBuffer cmd,
                                  const GpuShowThrough *st, const GpuShowThroughPass *pass)
{
    gpu_label_begin(ctx, cmd, "show-through");
    /* One layer after the other: the second of a pair reads the first's level 0, whose print
     * its draw leaves as it was. */
    for (uint32_t i = 0; i < pass->count; i++) {
        uint32_t layer = pass->first + i;
        level0(ctx, cmd, pass->image, layer, true);
        VkRenderingAttachmentInfo color = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = pass->targets[i],
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        gpu_pipeline_begin(ctx, cmd, st->pipeline, st->layout, &color, NULL,
                           (VkRect2D){{0, 0}, pass->extent}, NULL, 0);
        ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, st->layout, 0, 1,
                                        &pass->sets[i ^ 1u], 0, NULL);
        ctx->vk.vkCmdDraw(cmd, 3, 1, 0, 0);
        ctx->vk.vkCmdEndRendering(cmd);
        level0(ctx, cmd, pass->image, layer, false);
    }
    gpu_label_end(ctx, cmd);
}
