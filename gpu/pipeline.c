/* SPDX-License-Identifier: MIT */
#include "pipeline.h"

#include <stdlib.h>

static bool make_module(const GpuContext *ctx, const uint32_t *code, size_t size,
                        VkShaderModule *out, GpuError *err)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    GPU_TRY(err, ctx->vk.vkCreateShaderModule(ctx->device, &info, ctx->allocator, out));
    return true;
}

void gpu_pipeline_begin(const GpuContext *ctx, VkCommandBuffer cmd, VkPipeline pipeline,
                        VkPipelineLayout layout, const VkRenderingAttachmentInfo *color,
                        const VkRenderingAttachmentInfo *depth, VkRect2D area, const void *push,
                        uint32_t push_size)
{
    VkRenderingInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = area,
        .layerCount = 1,
        .colorAttachmentCount = color ? 1 : 0,
        .pColorAttachments = color,
        .pDepthAttachment = depth,
    };
    ctx->vk.vkCmdBeginRendering(cmd, &info);
    VkViewport vp = {(float)area.offset.x,
                     (float)area.offset.y,
                     (float)area.extent.width,
                     (float)area.extent.height,
                     0.0f,
                     1.0f};
    ctx->vk.vkCmdSetViewport(cmd, 0, 1, &vp);
    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (push)
        ctx->vk.vkCmdPushConstants(cmd, layout,
                                   VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                   push_size, push);
}

void gpu_pipeline_draw(const GpuContext *ctx, VkCommandBuffer cmd, GpuBound *bound,
                       VkBuffer vertices, VkBuffer indices, uint32_t first_index,
                       uint32_t index_count)
{
    VkDeviceSize offset = 0;
    if (!bound || bound->vertices != vertices)
        ctx->vk.vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
    if (!bound || bound->indices != indices)
        ctx->vk.vkCmdBindIndexBuffer(cmd, indices, 0, VK_INDEX_TYPE_UINT32);
    if (bound)
        *bound = (GpuBound){vertices, indices};
    ctx->vk.vkCmdDrawIndexed(cmd, index_count, 1, first_index, 0, 0);
}

/* The graphics pipeline for `desc` with these shader stages: the fixed-function state every
 * pipeline of the renderer shares, dynamic viewport and scissor, dynamic rendering. */
static VkResult build(const GpuContext *ctx, const GpuPipelineDesc *desc,
                      const VkPipelineShaderStageCreateInfo *stages, uint32_t stage_count,
                      VkPipelineLayout layout, VkPipeline *pipeline)
{
    VkVertexInputBindingDescription binding = {
        .binding = 0,
        .stride = desc->stride,
        .inputRate = VK_VERTEX_INPUT_RATE_VERTEX,
    };
    VkPipelineVertexInputStateCreateInfo vertex_input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = desc->stride || desc->attribute_count ? 1 : 0,
        .pVertexBindingDescriptions = &binding,
        .vertexAttributeDescriptionCount = desc->attribute_count,
        .pVertexAttributeDescriptions = desc->attributes,
    };
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = desc->geom ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY
                               : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo viewport = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE, /* paper has two sides; the page shader tells them apart */
        /* Grid triangles wind counter-clockwise seen from +z; the projection flips y for
         * Vulkan, which keeps them counter-clockwise in framebuffer terms. */
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = desc->samples ? desc->samples : VK_SAMPLE_COUNT_1_BIT,
    };
    bool depth_on = desc->depth_format != VK_FORMAT_UNDEFINED;
    VkPipelineDepthStencilStateCreateInfo depth = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = depth_on && !desc->fade,
        .depthWriteEnable = depth_on && !desc->fade,
        .depthCompareOp = VK_COMPARE_OP_LESS,
    };
    bool color_on = desc->color_format != VK_FORMAT_UNDEFINED;
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = color_on ? 1 : 0,
        .pAttachments =
            &(VkPipelineColorBlendAttachmentState){
                .blendEnable = desc->blend || desc->subtract || desc->fade,
                .srcColorBlendFactor = desc->fade       ? VK_BLEND_FACTOR_CONSTANT_ALPHA
                                       : desc->subtract ? VK_BLEND_FACTOR_ONE
                                                        : VK_BLEND_FACTOR_SRC_ALPHA,
                .dstColorBlendFactor = desc->fade       ? VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA
                                       : desc->subtract ? VK_BLEND_FACTOR_ONE
                                                        : VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                .colorBlendOp = desc->subtract ? VK_BLEND_OP_REVERSE_SUBTRACT : VK_BLEND_OP_ADD,
                .srcAlphaBlendFactor = desc->fade       ? VK_BLEND_FACTOR_CONSTANT_ALPHA
                                       : desc->subtract ? VK_BLEND_FACTOR_ZERO
                                                        : VK_BLEND_FACTOR_ONE,
                .dstAlphaBlendFactor = desc->fade       ? VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA
                                       : desc->subtract ? VK_BLEND_FACTOR_ONE
                                                        : VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                .alphaBlendOp = VK_BLEND_OP_ADD,
                .colorWriteMask = desc->write_mask
                                      ? desc->write_mask
                                      : VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                            VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
            },
    };
    VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                       VK_DYNAMIC_STATE_BLEND_CONSTANTS};
    VkPipelineDynamicStateCreateInfo dynamic = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = desc->fade ? 3 : 2,
        .pDynamicStates = dynamic_states,
    };
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = color_on ? 1 : 0,
        .pColorAttachmentFormats = &desc->color_format,
        .depthAttachmentFormat = desc->depth_format,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .stageCount = stage_count,
        .pStages = stages,
        .pVertexInputState = &vertex_input,
        .pInputAssemblyState = &assembly,
        .pViewportState = &viewport,
        .pRasterizationState = &raster,
        .pMultisampleState = &multisample,
        .pDepthStencilState = &depth,
        .pColorBlendState = &blend,
        .pDynamicState = &dynamic,
        .layout = layout,
    };
    return ctx->vk.vkCreateGraphicsPipelines(ctx->device, ctx->pipeline_cache, 1, &info,
                                             ctx->allocator, pipeline);
}

/* gpu_pipeline_create's work, counted by the caller (a batch's threads share the counters). */
static bool pipeline_make(const GpuContext *ctx, const GpuPipelineDesc *desc, VkPipeline *pipeline,
                          VkPipelineLayout *layout, GpuError *err)
{
    *pipeline = VK_NULL_HANDLE;
    VkPushConstantRange push = {
        .stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
        .size = desc->push_size,
    };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = desc->set_layout ? 1 : 0,
        .pSetLayouts = &desc->set_layout,
        .pushConstantRangeCount = desc->push_size ? 1 : 0,
        .pPushConstantRanges = &push,
    };
    GPU_TRY(err, ctx->vk.vkCreatePipelineLayout(ctx->device, &layout_info, ctx->allocator, layout));
    GPU_NAME(ctx, VK_OBJECT_TYPE_PIPELINE_LAYOUT, *layout, desc->label);

    VkShaderModule vert = VK_NULL_HANDLE, frag = VK_NULL_HANDLE, geom = VK_NULL_HANDLE;
    if (!make_module(ctx, desc->vert, desc->vert_size, &vert, err))
        return false;
    if ((desc->frag && !make_module(ctx, desc->frag, desc->frag_size, &frag, err)) ||
        (desc->geom && !make_module(ctx, desc->geom, desc->geom_size, &geom, err))) {
        ctx->vk.vkDestroyShaderModule(ctx->device, vert, ctx->allocator);
        if (frag)
            ctx->vk.vkDestroyShaderModule(ctx->device, frag, ctx->allocator);
        return false;
    }
    /* constants a shader does not declare are ignored: every shader gets both (page.vert reads
     * the tier too) */
    struct {
        uint32_t tier;
        float show_through;
    } constants = {desc->frag_constant, desc->frag_show_through};
    VkSpecializationMapEntry entries[] = {
        {.constantID = 0, .offset = 0, .size = sizeof(uint32_t)},
        {.constantID = 1, .offset = sizeof(uint32_t), .size = sizeof(float)},
    };
    VkSpecializationInfo special = {
        .mapEntryCount = 2,
        .pMapEntries = entries,
        .dataSize = sizeof constants,
        .pData = &constants,
    };
    VkPipelineShaderStageCreateInfo stages[] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vert,
         .pName = "main",
         .pSpecializationInfo = &special},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = frag,
         .pName = "main",
         .pSpecializationInfo = &special},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_GEOMETRY_BIT,
         .module = geom,
         .pName = "main",
         .pSpecializationInfo = &special},
    };
    if (!frag)
        stages[1] = stages[2];
    VkResult r = build(ctx, desc, stages, 1 + (frag ? 1 : 0) + (geom ? 1 : 0), *layout, pipeline);
    ctx->vk.vkDestroyShaderModule(ctx->device, vert, ctx->allocator);
    if (frag)
        ctx->vk.vkDestroyShaderModule(ctx->device, frag, ctx->allocator);
    if (geom)
        ctx->vk.vkDestroyShaderModule(ctx->device, geom, ctx->allocator);
    GPU_TRY(err, r);
    GPU_NAME(ctx, VK_OBJECT_TYPE_PIPELINE, *pipeline, desc->label);
    return true;
}

bool gpu_pipeline_create(const GpuContext *ctx, const GpuPipelineDesc *desc, VkPipeline *pipeline,
                         VkPipelineLayout *layout, GpuError *err)
{
    if (!pipeline_make(ctx, desc, pipeline, layout, err))
        return false;
    gpu_count_pipelines(ctx, 1);
    return true;
}

/* A batch's jobs, as the context's task runner hands them out. */
typedef struct Batch {
    const GpuContext *ctx;
    const GpuPipelineJob *jobs;
    GpuError *errors; /* one a job */
    bool *made;       /* one a job */
} Batch;

static void batch_job(void *user, size_t i)
{
    Batch *b = user;
    b->made[i] = pipeline_make(b->ctx, &b->jobs[i].desc, b->jobs[i].pipeline, b->jobs[i].layout,
                               &b->errors[i]);
}

bool gpu_pipelines_create(const GpuContext *ctx, const GpuPipelineJob *jobs, uint32_t count,
                          GpuError *err)
{
    Batch b = {.ctx = ctx, .jobs = jobs};
    /* a host's allocation callbacks and pipeline cache are called from its own thread alone */
    bool parallel = ctx->tasks && !ctx->adopted && count > 1;
    if (parallel) {
        b.errors = calloc(count, sizeof *b.errors);
        b.made = calloc(count, sizeof *b.made);
    }
    bool ok = true;
    if (parallel && b.errors && b.made) {
        ctx->tasks(count, ctx->task_threads, batch_job, &b);
        uint32_t made = 0;
        for (uint32_t i = 0; i < count; i++) {
            made += b.made[i];
            if (ok && !b.made[i]) { /* the first failed job's, whichever thread ran it */
                *err = b.errors[i];
                ok = false;
            }
        }
        gpu_count_pipelines(ctx, made);
    } else {
        for (uint32_t i = 0; ok && i < count; i++)
            ok = gpu_pipeline_create(ctx, &jobs[i].desc, jobs[i].pipeline, jobs[i].layout, err);
    }
    free(b.errors);
    free(b.made);
    return ok;
}

void gpu_pipeline_destroy(const GpuContext *ctx, VkPipeline *pipeline, VkPipelineLayout *layout)
{
    if (*pipeline)
        ctx->vk.vkDestroyPipeline(ctx->device, *pipeline, ctx->allocator);
    if (*layout)
        ctx->vk.vkDestroyPipelineLayout(ctx->device, *layout, ctx->allocator);
    *pipeline = VK_NULL_HANDLE;
    *layout = VK_NULL_HANDLE;
}
