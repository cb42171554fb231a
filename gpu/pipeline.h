/* SPDX-License-Identifier: MIT */
/* Graphics pipelines for dynamic rendering from a small description: two shaders, one vertex
 * binding, push constants for both stages, at most one descriptor set, dynamic viewport and
 * scissor, no culling. Without a fragment shader and colour format: a depth-only pass. The page
 * renderer and the overlay each own the pipeline and layout this makes for them. */
#ifndef PAGECURL_GPU_PIPELINE_H
#define PAGECURL_GPU_PIPELINE_H

#include "context.h"

#include <stddef.h>

#define GPU_PIPELINE_MAX_ATTRIBUTES 4

typedef struct GpuPipelineDesc {
    const uint32_t *vert, *frag; /* frag may be NULL: depth only */
    size_t vert_size, frag_size; /* bytes */
    /* a geometry shader between them (NULL: none), fed triangle lists with adjacency */
    const uint32_t *geom;
    size_t geom_size;
    uint32_t stride; /* bytes per vertex */
    VkVertexInputAttributeDescription attributes[GPU_PIPELINE_MAX_ATTRIBUTES];
    uint32_t attribute_count;
    uint32_t push_size;
    VkDescriptorSetLayout set_layout; /* set 0, or null: no descriptors */
    VkFormat color_format;            /* VK_FORMAT_UNDEFINED: no colour attachment (depth only) */
    VkFormat depth_format;            /* VK_FORMAT_UNDEFINED: no depth test, no depth attachment */
    VkSampleCountFlagBits samples;    /* 0 means 1 */
    bool blend;                       /* colour drawn over the target by its alpha */
    bool subtract; /* instead: this colour taken from the target's (linear), its alpha kept */
    /* instead: drawn over the target by the dynamic blend constants' alpha (set per draw), with
     * no depth test: a picture faded over another in the same plane, above all else, where depths
     * computed from other vertices (the low tier pushes its edges out) would fight */
    bool fade;
    /* the channels drawn (0: all); with no stride and no attributes the pipeline takes no vertex
     * buffer at all (a shader that makes its own positions) */
    VkColorComponentFlags write_mask;
    uint32_t frag_constant;  /* specialization constant 0 of both shaders (0: their own) */
    float frag_show_through; /* constant 1: page.frag's show-through (0 off .. 1) */
    const char *label;
} GpuPipelineDesc;

/* Begins dynamic rendering over `area` of the attachments (color or depth may be NULL), sets the
 * viewport and scissor to it, binds `pipeline` and sets its push constants for both stages (push
 * may be NULL when each draw sets its own). */
void gpu_pipeline_begin(const GpuContext *ctx, VkCommandBuffer cmd, VkPipeline pipeline,
                        VkPipelineLayout layout, const VkRenderingAttachmentInfo *color,
                        const VkRenderingAttachmentInfo *depth, VkRect2D area, const void *push,
                        uint32_t push_size);

/* The vertex and index buffers a command buffer has bound (zero before any): bindings last
 * across passes, and a draw binds only what differs (each call costs the CPU). */
typedef struct GpuBound {
    VkBuffer vertices, indices;
} GpuBound;

/* Binds a vertex and a uint32 index buffer (those that `bound` lacks, when given) and draws
 * `index_count` indices from `first_index` on. */
void gpu_pipeline_draw(const GpuContext *ctx, VkCommandBuffer cmd, GpuBound *bound,
                       VkBuffer vertices, VkBuffer indices, uint32_t first_index,
                       uint32_t index_count);

/* On failure both handles are left null or destroyed. */
bool gpu_pipeline_create(const GpuContext *ctx, const GpuPipelineDesc *desc, VkPipeline *pipeline,
                         VkPipelineLayout *layout, GpuError *err);
/* One pipeline of a batch: its description and where its handles go. */
typedef struct GpuPipelineJob {
    GpuPipelineDesc desc;
    VkPipeline *pipeline;
    VkPipelineLayout *layout;
} GpuPipelineJob;

/* The jobs' pipelines, each as gpu_pipeline_create makes it: on the context's task runner where
 * it has one (a CPU driver compiles each on the calling thread: lavapipe's 19 page pipelines took
 * 0.3 s of a window's opening one after another), else in turn. A host's device (adopted) makes
 * them in turn on the caller's thread: its allocation callbacks and pipeline cache are not called
 * from threads of ours. On failure `err` is the first failed job's; every job's handles are made
 * or null, for the caller to destroy. */
bool gpu_pipelines_create(const GpuContext *ctx, const GpuPipelineJob *jobs, uint32_t count,
                          GpuError *err);
/* Destroys what gpu_pipeline_create made (either may be null) and nulls both handles. */
void gpu_pipeline_destroy(const GpuContext *ctx, VkPipeline *pipeline, VkPipelineLayout *layout);

#endif
