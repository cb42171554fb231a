/* SPDX-License-Identifier: MIT */
/* A compute kernel over a 1-D extent: C++ AMP's parallel_for_each(extent, kernel) in Vulkan terms.
 * Owns one pipeline, its layout, a descriptor set of storage buffers and the pool it comes from.
 * Kernels read their linear index with pc_global_index() (shaders/compute.glsl) so extents past
 * 65535 workgroups spill into a second dispatch dimension. */
#ifndef PAGECURL_GPU_COMPUTE_H
#define PAGECURL_GPU_COMPUTE_H

#include "buffer.h"
#include "sync.h"

#include <stddef.h>

#define GPU_KERNEL_MAX_BINDINGS 8

typedef struct GpuKernelDesc {
    const uint32_t *spirv;
    size_t spirv_size;       /* bytes */
    uint32_t binding_count;  /* buffers at bindings 0..count-1 of set 0: storage buffers... */
    uint32_t uniform_mask;   /* ...except where bit i is set: binding i is a uniform buffer */
    uint32_t push_size;      /* bytes of push constants, 0 for none */
    uint32_t workgroup_size; /* must match the shader's local_size_x */
    const char *label;       /* the stage name */
} GpuKernelDesc;

typedef struct GpuKernel {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    uint32_t binding_count, uniform_mask, push_size, workgroup_size;
    uint32_t max_groups_x; /* the context's dispatch_max_x when the kernel was made */
    const char *label;     /* the desc's (a string that outlives the kernel) */
} GpuKernel;

bool gpu_kernel_create(const GpuContext *ctx, const GpuKernelDesc *desc, GpuKernel *out,
                       GpuError *err);
void gpu_kernel_destroy(const GpuContext *ctx, GpuKernel *kernel);

/* Points bindings 0..binding_count-1 at whole buffers. */
void gpu_kernel_bind(const GpuContext *ctx, const GpuKernel *kernel,
                     const GpuBuffer *const *buffers);

/* Records a 2-D dispatch of tile_w x tile_h workgroups covering width x height. */
void gpu_kernel_dispatch_tiles(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                               const void *push, uint32_t width, uint32_t height, uint32_t tile_w,
                               uint32_t tile_h);

/* Records the dispatch of `count` invocations (bounds-checked in the shader). */
void gpu_kernel_dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                         const void *push, uint64_t count);

#endif
