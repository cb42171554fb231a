/* SPDX-License-Identifier: MIT */
#include "upload.h"

#include <string.h>

void gpu_uploads_init(GpuUploads *ups, VkDeviceSize size, const char *label)
{
    memset(ups, 0, sizeof *ups);
    ups->size = size;
    ups->label = label;
    VkDeviceSize fit = size ? GPU_UPLOADS_BYTES / size : GPU_UPLOADS_MAX;
    ups->max = fit < GPU_UPLOADS_MIN   ? GPU_UPLOADS_MIN
               : fit > GPU_UPLOADS_MAX ? GPU_UPLOADS_MAX
                                       : (uint32_t)fit;
}

/* An upload the device has finished: its pass destroyed, its fence unsignalled again. */
static void retire(const GpuContext *ctx, GpuUpload *up)
{
    gpu_show_through_pass_destroy(ctx, &up->pass);
    ctx->vk.vkResetFences(ctx->device, 1, &up->fence);
    up->busy = false;
}

void gpu_uploads_destroy(const GpuContext *ctx, GpuUploads *ups)
{
    for (uint32_t i = 0; i < ups->count; i++) {
        GpuUpload *up = &ups->ring[i];
        if (up->busy) /* teardown: what reads its staging and pass must be over */
            ctx->vk.vkWaitForFences(ctx->device, 1, &up->fence, VK_TRUE, UINT64_MAX);
        gpu_show_through_pass_destroy(ctx, &up->pass);
        if (up->fence)
            ctx->vk.vkDestroyFence(ctx->device, up->fence, ctx->allocator);
        if (up->cmd)
            ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &up->cmd);
        gpu_buffer_destroy(ctx, &up->staging);
    }
    memset(ups, 0, sizeof *ups);
}

static bool make(const GpuContext *ctx, GpuUploads *ups, GpuUpload *up, GpuError *err)
{
    memset(up, 0, sizeof *up);
    if (!gpu_buffer_create(ctx,
                           &(GpuBufferDesc){.size = ups->size,
                                            .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                            .memory = GPU_MEMORY_UPLOAD,
                                            .label = ups->label},
                           &up->staging, err))
        return false;
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    GPU_TRY(err, ctx->vk.vkAllocateCommandBuffers(ctx->device, &alloc, &up->cmd));
    GPU_NAME(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, up->cmd, ups->label);
    GPU_TRY(err,
            ctx->vk.vkCreateFence(
                ctx->device, &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO},
                ctx->allocator, &up->fence));
    GPU_NAME(ctx, VK_OBJECT_TYPE_FENCE, up->fence, ups->label);
    return true;
}

bool gpu_uploads_reserve(const GpuContext *ctx, GpuUploads *ups, uint32_t n, GpuError *err)
{
    while (ups->count < n && ups->count < GPU_UPLOADS_MAX) {
        bool made = make(ctx, ups, &ups->ring[ups->count], err);
        ups->count++; /* what was made is destroyed with the ring, made whole or not */
        if (!made)
            return false;
    }
    return true;
}

bool gpu_uploads_take(const GpuContext *ctx, GpuUploads *ups, GpuUpload **out, GpuError *err)
{
    GpuUpload *oldest = NULL;
    for (uint32_t i = 0; i < ups->count; i++) {
        GpuUpload *up = &ups->ring[i];
        if (up->busy && ctx->vk.vkGetFenceStatus(ctx->device, up->fence) == VK_SUCCESS)
            retire(ctx, up);
        if (!up->busy) {
            *out = up;
            return true;
        }
        if (!oldest || up->serial < oldest->serial)
            oldest = up;
    }
    if (ups->count < ups->max) {
        GpuUpload *up = &ups->ring[ups->count];
        bool made = make(ctx, ups, up, err);
        ups->count++; /* what was made is destroyed with the ring, made whole or not */
        if (!made)
            return false;
        *out = up;
        return true;
    }
    /* every one in flight: the oldest is waited for (a stall, counted) */
    if (ctx->counters)
        ctx->counters->submit_waits++;
    GPU_TRY(err, ctx->vk.vkWaitForFences(ctx->device, 1, &oldest->fence, VK_TRUE, UINT64_MAX));
    retire(ctx, oldest);
    *out = oldest;
    return true;
}

bool gpu_uploads_submit(const GpuContext *ctx, GpuUploads *ups, GpuUpload *up, GpuRecordFn record,
                        void *user, GpuError *err)
{
    VkResult r = ctx->vk.vkBeginCommandBuffer(
        up->cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                             .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT});
    if (r == VK_SUCCESS) {
        record(ctx, user, up->cmd);
        r = ctx->vk.vkEndCommandBuffer(up->cmd);
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .commandBufferCount = 1,
                               .pCommandBuffers = &up->cmd};
        r = ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, up->fence);
    }
    if (r != VK_SUCCESS) {
        gpu_show_through_pass_destroy(ctx, &up->pass); /* nothing was submitted to use it */
        GPU_TRY(err, r);
    }
    up->busy = true;
    up->serial = ++ups->submitted;
    return true;
}
