/* SPDX-License-Identifier: MIT */
#include "frame.h"

#include <string.h>

static bool frame_create(const GpuContext *ctx, GpuFrame *out, GpuError *err)
{
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = out->hosted ? VK_COMMAND_BUFFER_LEVEL_SECONDARY : VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    GPU_TRY(err, ctx->vk.vkAllocateCommandBuffers(ctx->device, &alloc, &out->cmd));
    GPU_NAME(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, out->cmd,
             out->hosted ? "frame (a host's to execute)" : "frame");
    if (out->hosted)
        return true; /* the host's submission is fenced by the host */
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    GPU_TRY(err, ctx->vk.vkCreateFence(ctx->device, &fence, ctx->allocator, &out->fence));
    GPU_NAME(ctx, VK_OBJECT_TYPE_FENCE, out->fence, "frame done");
    return true;
}

bool gpu_frame_create(const GpuContext *ctx, uint32_t slot, bool hosted, GpuFrame *out,
                      GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->slot = slot;
    out->hosted = hosted;
    if (frame_create(ctx, out, err))
        return true;
    gpu_frame_destroy(ctx, out);
    return false;
}

void gpu_frame_destroy(const GpuContext *ctx, GpuFrame *frame)
{
    if (frame->pending)
        ctx->vk.vkWaitForFences(ctx->device, 1, &frame->fence, VK_TRUE, UINT64_MAX);
    if (frame->fence)
        ctx->vk.vkDestroyFence(ctx->device, frame->fence, ctx->allocator);
    if (frame->cmd)
        ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &frame->cmd);
    memset(frame, 0, sizeof *frame);
}

bool gpu_frame_wait(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    if (!frame->pending)
        return true;
    frame->pending = false;
    GPU_TRY(err, ctx->vk.vkWaitForFences(ctx->device, 1, &frame->fence, VK_TRUE, UINT64_MAX));
    return true;
}

bool gpu_frame_reset(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    if (!gpu_frame_wait(ctx, frame, err))
        return false;
    GPU_TRY(err, ctx->vk.vkResetFences(ctx->device, 1, &frame->fence));
    frame->unsignalled = true;
    return true;
}

bool gpu_frame_start(const GpuContext *ctx, GpuFrame *frame, bool kept, GpuError *err)
{
    /* beginning resets the command buffer (its pool resets them one by one): no call for it;
     * a host's executes it outside any rendering, so it inherits none */
    VkCommandBufferInheritanceInfo inherit = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = kept ? 0 : VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
        .pInheritanceInfo = frame->hosted ? &inherit : NULL,
    };
    GPU_TRY(err, ctx->vk.vkBeginCommandBuffer(frame->cmd, &begin));
    frame->recording = true;
    return true;
}

bool gpu_frame_end(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    frame->recording = false;
    GPU_TRY(err, ctx->vk.vkEndCommandBuffer(frame->cmd));
    return true;
}

bool gpu_frame_begin(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    return gpu_frame_reset(ctx, frame, err) && gpu_frame_start(ctx, frame, false, err);
}

bool gpu_frame_record(const GpuContext *ctx, GpuFrame *frame, const GpuChain *chain,
                      const GpuChainFrame *work, double *host_ms, GpuError *err)
{
    double spent = 0.0;
    uint32_t at = work->record(ctx, frame->cmd, chain, 0, work);
    while (at < chain->count) {
        /* The fence also covers every earlier submission of the queue: once it signals, no
         * frame in flight still reads what the host stage writes in place. */
        if (!gpu_frame_submit(ctx, frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err) ||
            !gpu_frame_wait(ctx, frame, err))
            return false;
        double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
        gpu_chain_run_host(ctx, chain->stages[at].stage, work);
        spent += gpu_clock_ms(CLOCK_MONOTONIC) - t0;
        if (!gpu_frame_begin(ctx, frame, err))
            return false;
        at = work->record(ctx, frame->cmd, chain, at + 1, work);
    }
    if (host_ms)
        *host_ms = spent;
    return true;
}

bool gpu_frame_submit(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                      VkPipelineStageFlags wait_stage, VkSemaphore signal, GpuError *err)
{
    if (frame->recording && !gpu_frame_end(ctx, frame, err))
        return false;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = wait ? 1 : 0,
        .pWaitSemaphores = &wait,
        .pWaitDstStageMask = &wait_stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &frame->cmd,
        .signalSemaphoreCount = signal ? 1 : 0,
        .pSignalSemaphores = &signal,
    };
    VkResult r = gpu_fault_submit(ctx);
    if (r == VK_SUCCESS)
        r = ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, frame->fence);
    if (r == VK_ERROR_DEVICE_LOST)
        return gpu_error_set(err,
                             "the GPU was lost (VK_ERROR_DEVICE_LOST) while submitting a frame");
    GPU_TRY(err, r);
    frame->unsignalled = false;
    frame->pending = true;
    return true;
}

void gpu_frame_abandon(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                       VkPipelineStageFlags wait_stage)
{
    if (frame->recording)
        ctx->vk.vkEndCommandBuffer(frame->cmd);
    frame->recording = false;
    if (!frame->unsignalled)
        return;
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = wait ? 1 : 0,
        .pWaitSemaphores = &wait,
        .pWaitDstStageMask = &wait_stage,
    };
    /* the frame has failed already: what this says is not the cause */
    if (ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, frame->fence) == VK_SUCCESS)
        frame->unsignalled = false, frame->pending = true;
}
