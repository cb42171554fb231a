/* SPDX-License-Identifier: MIT */
/* Buffers and their memory: one allocation per buffer (a leaf needs a handful), placed by intent.
 * Owns the VkBuffer, its VkDeviceMemory and the persistent mapping of host-visible ones. */
#ifndef PAGECURL_GPU_BUFFER_H
#define PAGECURL_GPU_BUFFER_H

#include "context.h"

typedef enum GpuMemory {
    GPU_MEMORY_DEVICE = 0, /* device-local; reached through copies */
    GPU_MEMORY_UPLOAD,     /* host-visible, coherent, written by the CPU, read once by the GPU */
    GPU_MEMORY_READBACK,   /* host-visible, cached where possible, written by the GPU */
    GPU_MEMORY_SHARED,     /* device-local AND host-visible, coherent (ReBAR, integrated, CPU
                            * devices; C++ AMP's supports_cpu_shared_memory): the CPU writes it
                            * in place, no staging copy */
} GpuMemory;

typedef struct GpuBufferDesc {
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    GpuMemory memory;
    const char *label;
} GpuBufferDesc;

typedef struct GpuBuffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped; /* host-visible kinds only */
    bool coherent;
} GpuBuffer;

/* The largest heap holding a memory type of GPU_MEMORY_SHARED's kind, in bytes; 0 when the
 * device has none. */
VkDeviceSize gpu_buffer_shared_heap(const GpuContext *ctx);

bool gpu_buffer_create(const GpuContext *ctx, const GpuBufferDesc *desc, GpuBuffer *out,
                       GpuError *err);
void gpu_buffer_destroy(const GpuContext *ctx, GpuBuffer *buf);

/* Makes GPU writes to a READBACK buffer visible to the host after the fence (non-coherent
 * memory). */
void gpu_buffer_invalidate(const GpuContext *ctx, const GpuBuffer *buf);

#endif
