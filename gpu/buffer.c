/* SPDX-License-Identifier: MIT */
#include "buffer.h"

#include <string.h>

#define SHARED_FLAGS                                                                               \
    (VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |                   \
     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

VkDeviceSize gpu_buffer_shared_heap(const GpuContext *ctx)
{
    VkDeviceSize largest = 0;
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; i++) {
        const VkMemoryType *t = &ctx->memory.memoryTypes[i];
        VkDeviceSize size = ctx->memory.memoryHeaps[t->heapIndex].size;
        if ((t->propertyFlags & SHARED_FLAGS) == SHARED_FLAGS && size > largest)
            largest = size;
    }
    return largest;
}

static bool buffer_create(const GpuContext *ctx, const GpuBufferDesc *desc, GpuBuffer *out,
                          GpuError *err)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = desc->size,
        .usage = desc->usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    GPU_TRY(err, ctx->vk.vkCreateBuffer(ctx->device, &info, ctx->allocator, &out->buffer));
    GPU_NAME(ctx, VK_OBJECT_TYPE_BUFFER, out->buffer, desc->label);
    out->size = desc->size;

    VkMemoryRequirements req;
    ctx->vk.vkGetBufferMemoryRequirements(ctx->device, out->buffer, &req);
    /* Preferences in order; the last entry of each list is what every device must offer. */
    const VkMemoryPropertyFlags device[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    const VkMemoryPropertyFlags upload[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    const VkMemoryPropertyFlags readback[] = {
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    const VkMemoryPropertyFlags shared[] = {SHARED_FLAGS};
    const VkMemoryPropertyFlags *prefs = desc->memory == GPU_MEMORY_DEVICE   ? device
                                         : desc->memory == GPU_MEMORY_UPLOAD ? upload
                                         : desc->memory == GPU_MEMORY_SHARED ? shared
                                                                             : readback;
    size_t pref_count =
        desc->memory == GPU_MEMORY_UPLOAD || desc->memory == GPU_MEMORY_SHARED ? 1 : 2;
    uint32_t type = 0;
    bool found = false;
    for (size_t i = 0; i < pref_count && !found; i++)
        found = gpu_context_memory_type(ctx, req.memoryTypeBits, prefs[i], &type);
    if (!found)
        return gpu_error_set(err, "no suitable memory type for buffer '%s'", desc->label);
    if (!gpu_context_allocate(ctx, req.size, type, desc->label, &out->memory, err))
        return false;
    GPU_TRY(err, ctx->vk.vkBindBufferMemory(ctx->device, out->buffer, out->memory, 0));
    VkMemoryPropertyFlags flags = ctx->memory.memoryTypes[type].propertyFlags;
    out->coherent = flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (desc->memory != GPU_MEMORY_DEVICE)
        GPU_TRY(err,
                ctx->vk.vkMapMemory(ctx->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped));
    return true;
}

bool gpu_buffer_create(const GpuContext *ctx, const GpuBufferDesc *desc, GpuBuffer *out,
                       GpuError *err)
{
    memset(out, 0, sizeof *out);
    if (buffer_create(ctx, desc, out, err))
        return true;
    gpu_buffer_destroy(ctx, out);
    return false;
}

void gpu_buffer_destroy(const GpuContext *ctx, GpuBuffer *buf)
{
    if (buf->buffer)
        ctx->vk.vkDestroyBuffer(ctx->device, buf->buffer, ctx->allocator);
    if (buf->memory)
        ctx->vk.vkFreeMemory(ctx->device, buf->memory, ctx->allocator); /* unmaps too */
    memset(buf, 0, sizeof *buf);
}

void gpu_buffer_invalidate(const GpuContext *ctx, const GpuBuffer *buf)
{
    if (buf->coherent || !buf->mapped)
        return;
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = buf->memory,
        .size = VK_WHOLE_SIZE,
    };
    ctx->vk.vkInvalidateMappedMemoryRanges(ctx->device, 1, &range);
}
