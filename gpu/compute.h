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
    uint32_t binding_count;  /* storage buffers at bindings 0..count-1 of set 0 */
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
    uint32_t binding_count, push_size, workgroup_size;
} GpuKernel;

bool gpu_kernel_create(const GpuContext *ctx, const GpuKernelDesc *desc, GpuKernel *out,
                       GpuError *err);
void gpu_kernel_destroy(const GpuContext *ctx, GpuKernel *kernel);

/* Points bindings 0..binding_count-1 at whole buffers. */
void gpu_kernel_bind(const GpuContext *ctx, const GpuKernel *kernel, const GpuBuffer *const *buffers);

/* False when the extent needs more workgroups than the device can dispatch. */
bool gpu_kernel_fits(const GpuContext *ctx, const GpuKernel *kernel, uint64_t count);

/* Records the dispatch of `count` invocations (bounds-checked in the shader). */
void gpu_kernel_dispatch(VkCommandBuffer cmd, const GpuKernel *kernel, const void *push,
                         uint64_t count);

#endif
