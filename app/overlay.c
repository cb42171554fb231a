/* SPDX-License-Identifier: MIT */
#include "overlay.h"

#include <string.h>

static const uint32_t overlay_vert_spv[] =
#include "overlay.vert.inc"
    ;
static const uint32_t overlay_frag_spv[] =
#include "overlay.frag.inc"
    ;

static VkResult module(const AppVk *vk, const uint32_t *code, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    return vkCreateShaderModule(vk->vk.device, &info, NULL, out);
}

static VkResult pipeline(const AppVk *vk, VkFormat format, AppOverlay *out)
{
    VkDevice dev = vk->vk.device;
    VkPushConstantRange push = {VK_SHADER_STAGE_VERTEX_BIT, 0, 4 * sizeof(float)};
    VkPipelineLayoutCreateInfo layout = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .pushConstantRangeCount = 1,
                                         .pPushConstantRanges = &push};
    VkResult r = vkCreatePipelineLayout(dev, &layout, NULL, &out->layout);
    if (r != VK_SUCCESS)
        return r;
    app_vk_name(vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)out->layout, "overlay");
    VkShaderModule vert = VK_NULL_HANDLE, frag = VK_NULL_HANDLE;
    r = module(vk, overlay_vert_spv, sizeof overlay_vert_spv, &vert);
    if (r == VK_SUCCESS)
        r = module(vk, overlay_frag_spv, sizeof overlay_frag_spv, &frag);
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vert,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = frag,
         .pName = "main"},
    };
    VkVertexInputBindingDescription binding = {0, APP_OVERLAY_VERTEX_BYTES,
                                               VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attributes[2] = {
        {.location = 0, .format = VK_FORMAT_R32G32B32_SFLOAT, .offset = 0},
        {.location = 1, .format = VK_FORMAT_R8G8B8A8_UNORM, .offset = 12},
    };
    VkPipelineVertexInputStateCreateInfo input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = 1,
        .pVertexBindingDescriptions = &binding,
        .vertexAttributeDescriptionCount = 2,
        .pVertexAttributeDescriptions = attributes};
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo viewport = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo depth = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    /* the backdrop is translucent: blended over the book */
    VkPipelineColorBlendAttachmentState attachment = {
        .blendEnable = VK_TRUE,
        .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
        .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
        .colorBlendOp = VK_BLEND_OP_ADD,
        .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
        .alphaBlendOp = VK_BLEND_OP_ADD,
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                          VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &attachment};
    VkDynamicState states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = 2,
        .pDynamicStates = states};
    VkPipelineRenderingCreateInfo rendering = {.sType =
                                                   VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                               .colorAttachmentCount = 1,
                                               .pColorAttachmentFormats = &format};
    VkGraphicsPipelineCreateInfo info = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                         .pNext = &rendering,
                                         .stageCount = 2,
                                         .pStages = stages,
                                         .pVertexInputState = &input,
                                         .pInputAssemblyState = &assembly,
                                         .pViewportState = &viewport,
                                         .pRasterizationState = &raster,
                                         .pMultisampleState = &multisample,
                                         .pDepthStencilState = &depth,
                                         .pColorBlendState = &blend,
                                         .pDynamicState = &dynamic,
                                         .layout = out->layout};
    if (r == VK_SUCCESS)
        r = vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &info, NULL, &out->pipeline);
    if (vert)
        vkDestroyShaderModule(dev, vert, NULL);
    if (frag)
        vkDestroyShaderModule(dev, frag, NULL);
    if (r == VK_SUCCESS)
        app_vk_name(vk, VK_OBJECT_TYPE_PIPELINE, (uint64_t)out->pipeline, "overlay");
    return r;
}

bool app_overlay_create(const AppVk *vk, VkFormat format, AppOverlay *out, char *message,
                        size_t size)
{
    *out = (AppOverlay){0};
    VkResult r = pipeline(vk, format, out);
    if (r != VK_SUCCESS) {
        app_overlay_destroy(vk, out);
        return app_vk_fail(r, "making the HUD's pipeline", message, size);
    }
    if (!app_vk_buffer_create(vk, (VkDeviceSize)APP_OVERLAY_MAX_QUADS * 6 * sizeof(uint32_t),
                              VK_BUFFER_USAGE_INDEX_BUFFER_BIT, "overlay indices", &out->indices,
                              message, size)) {
        app_overlay_destroy(vk, out);
        return false;
    }
    uint32_t *index = out->indices.mapped;
    for (uint32_t q = 0; q < APP_OVERLAY_MAX_QUADS; q++) { /* corners 0 1 2 3: two triangles */
        uint32_t v = 4 * q, tri[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
        memcpy(&index[6 * q], tri, sizeof tri);
    }
    return true;
}

void app_overlay_destroy(const AppVk *vk, AppOverlay *overlay)
{
    if (overlay->pipeline)
        vkDestroyPipeline(vk->vk.device, overlay->pipeline, NULL);
    if (overlay->layout)
        vkDestroyPipelineLayout(vk->vk.device, overlay->layout, NULL);
    app_vk_buffer_destroy(vk, &overlay->indices);
    *overlay = (AppOverlay){0};
}

bool app_overlay_vertices_create(const AppVk *vk, AppVkBuffer *out, char *message, size_t size)
{
    VkDeviceSize bytes = (VkDeviceSize)APP_OVERLAY_MAX_QUADS * 4 * APP_OVERLAY_VERTEX_BYTES;
    return app_vk_buffer_create(vk, bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, "overlay vertices",
                                out, message, size);
}

void app_overlay_record(VkCommandBuffer cmd, const AppOverlay *overlay, const AppVkBuffer *vertices,
                        VkImageView view, VkExtent2D extent, uint32_t quads, float scale, float x,
                        float y)
{
    if (quads == 0)
        return;
    quads = quads < APP_OVERLAY_MAX_QUADS ? quads : APP_OVERLAY_MAX_QUADS;
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = view,
                                       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo info = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                            .renderArea = {{0, 0}, extent},
                            .layerCount = 1,
                            .colorAttachmentCount = 1,
                            .pColorAttachments = &color};
    vkCmdBeginRendering(cmd, &info);
    VkViewport vp = {0.0f, 0.0f, (float)extent.width, (float)extent.height, 0.0f, 1.0f};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &info.renderArea);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, overlay->pipeline);
    float sx = 2.0f / (float)extent.width, sy = 2.0f / (float)extent.height;
    float push[4] = {scale * sx, scale * sy, x * sx, y * sy};
    vkCmdPushConstants(cmd, overlay->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, push);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices->buffer, &offset);
    vkCmdBindIndexBuffer(cmd, overlay->indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, quads * 6, 1, 0, 0, 0);
    vkCmdEndRendering(cmd);
}
