/* SPDX-License-Identifier: MIT */
#include "compute.h"

#include <string.h>

static VkDescriptorType binding_type(uint32_t uniform_mask, uint32_t i)
{
    return uniform_mask & (1u << i) ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                    : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

static bool kernel_create(const GpuContext *ctx, const GpuKernelDesc *desc, GpuKernel *out,
                          GpuError *err)
{
    out->label = desc->label;
    out->uniform_mask = desc->uniform_mask;
    VkDescriptorSetLayoutBinding bindings[GPU_KERNEL_MAX_BINDINGS];
    for (uint32_t i = 0; i < desc->binding_count; i++) {
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = binding_type(desc->uniform_mask, i),
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = desc->binding_count,
        .pBindings = bindings,
    };
    GPU_TRY(err, ctx->vk.vkCreateDescriptorSetLayout(ctx->device, &set_info, ctx->allocator,
                                                     &out->set_layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, out->set_layout, desc->label);

    VkPushConstantRange push = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .size = desc->push_size,
    };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &out->set_layout,
        .pushConstantRangeCount = desc->push_size ? 1 : 0,
        .pPushConstantRanges = &push,
    };
    GPU_TRY(err, ctx->vk.vkCreatePipelineLayout(ctx->device, &layout_info, ctx->allocator,
                                                &out->layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_PIPELINE_LAYOUT, out->layout, desc->label);

    VkShaderModule module;
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = desc->spirv_size,
        .pCode = desc->spirv,
    };
    GPU_TRY(err, ctx->vk.vkCreateShaderModule(ctx->device, &module_info, ctx->allocator, &module));
    VkComputePipelineCreateInfo pipe_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage =
            {
                .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
            },
        .layout = out->layout,
        .flags = ctx->pipeline_statistics ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0,
    };
    gpu_count_pipelines(ctx, 1);
    VkResult r = ctx->vk.vkCreateComputePipelines(ctx->device, ctx->pipeline_cache, 1, &pipe_info,
                                                  ctx->allocator, &out->pipeline);
    ctx->vk.vkDestroyShaderModule(ctx->device, module,
                                  ctx->allocator); /* the pipeline keeps what it needs */
    GPU_TRY(err, r);
    GPU_NAME(ctx, VK_OBJECT_TYPE_PIPELINE, out->pipeline, desc->label);

    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 2,
        .pPoolSizes =
            (VkDescriptorPoolSize[]){
                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, desc->binding_count},
                {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, desc->binding_count},
            },
    };
    GPU_TRY(err,
            ctx->vk.vkCreateDescriptorPool(ctx->device, &pool_info, ctx->allocator, &out->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_POOL, out->pool, desc->label);
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = out->pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &out->set_layout,
    };
    GPU_TRY(err, ctx->vk.vkAllocateDescriptorSets(ctx->device, &alloc, &out->set));
    GPU_NAME(ctx, VK_OBJECT_TYPE_DESCRIPTOR_SET, out->set, desc->label);
    return true;
}

bool gpu_kernel_create(const GpuContext *ctx, const GpuKernelDesc *desc, GpuKernel *out,
                       GpuError *err)
{
    memset(out, 0, sizeof *out);
    if (desc->binding_count > GPU_KERNEL_MAX_BINDINGS)
        return gpu_error_set(err, "kernel '%s': too many bindings", desc->label);
    out->binding_count = desc->binding_count;
    out->push_size = desc->push_size;
    out->workgroup_size = desc->workgroup_size;
    out->max_groups_x = ctx->dispatch_max_x;
    if (kernel_create(ctx, desc, out, err))
        return true;
    gpu_kernel_destroy(ctx, out);
    return false;
}

void gpu_kernel_destroy(const GpuContext *ctx, GpuKernel *kernel)
{
    if (kernel->pool)
        ctx->vk.vkDestroyDescriptorPool(ctx->device, kernel->pool,
                                        ctx->allocator); /* frees the set */
    if (kernel->pipeline)
        ctx->vk.vkDestroyPipeline(ctx->device, kernel->pipeline, ctx->allocator);
    if (kernel->layout)
        ctx->vk.vkDestroyPipelineLayout(ctx->device, kernel->layout, ctx->allocator);
    if (kernel->set_layout)
        ctx->vk.vkDestroyDescriptorSetLayout(ctx->device, kernel->set_layout, ctx->allocator);
    memset(kernel, 0, sizeof *kernel);
}

void gpu_kernel_bind(const GpuContext *ctx, const GpuKernel *kernel,
                     const GpuBuffer *const *buffers)
{
    VkDescriptorBufferInfo infos[GPU_KERNEL_MAX_BINDINGS];
    VkWriteDescriptorSet writes[GPU_KERNEL_MAX_BINDINGS];
    for (uint32_t i = 0; i < kernel->binding_count; i++) {
        infos[i] = (VkDescriptorBufferInfo){.buffer = buffers[i]->buffer, .range = VK_WHOLE_SIZE};
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = kernel->set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = binding_type(kernel->uniform_mask, i),
            .pBufferInfo = &infos[i],
        };
    }
    ctx->vk.vkUpdateDescriptorSets(ctx->device, kernel->binding_count, writes, 0, NULL);
}

/* Workgroups needed, split over x and y so neither exceeds the device's per-dimension limit. */
static void grid_for(uint64_t count, uint32_t wg, uint32_t max_x, uint64_t *gx, uint64_t *gy)
{
    uint64_t groups = (count + wg - 1) / wg;
    *gy = (groups + max_x - 1) / max_x;
    if (*gy == 0)
        *gy = 1;
    *gx = (groups + *gy - 1) / *gy;
}

static void bind(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                 const void *push)
{
    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->pipeline);
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->layout, 0, 1,
                                    &kernel->set, 0, NULL);
    if (kernel->push_size)
        ctx->vk.vkCmdPushConstants(cmd, kernel->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   kernel->push_size, push);
}

void gpu_kernel_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                         const void *push, uint64_t count)
{
    if (count == 0)
        return;
    uint64_t gx, gy;
    grid_for(count, kernel->workgroup_size, kernel->max_groups_x, &gx, &gy);
    bind(ctx, cmd, kernel, push);
    ctx->vk.vkCmdDispatch(cmd, (uint32_t)gx, (uint32_t)gy, 1);
}

void gpu_kernel_dispatch_tiles(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                               const void *push, uint32_t width, uint32_t height, uint32_t tile_w,
                               uint32_t tile_h)
{
    bind(ctx, cmd, kernel, push);
    ctx->vk.vkCmdDispatch(cmd, (width + tile_w - 1) / tile_w, (height + tile_h - 1) / tile_h, 1);
}
