#include "frame.h"

#include <string.h>

static bool frame_create(const GpuContext *ctx, GpuFrame *out, GpuError *err)
{
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = GPU_FRAME_MAX_PARTS,
    };
    GPU_TRY(err, vkAllocateCommandBuffers(ctx->device, &alloc, out->parts));
    for (uint32_t i = 0; i < GPU_FRAME_MAX_PARTS; i++)
        GPU_NAME(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, out->parts[i], "frame");
    out->cmd = out->parts[0];
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    GPU_TRY(err, vkCreateFence(ctx->device, &fence, NULL, &out->fence));
    GPU_NAME(ctx, VK_OBJECT_TYPE_FENCE, out->fence, "frame done");
    return true;
}

bool gpu_frame_create(const GpuContext *ctx, uint32_t slot, GpuFrame *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->slot = slot;
    if (frame_create(ctx, out, err))
        return true;
    gpu_frame_destroy(ctx, out);
    return false;
}

void gpu_frame_destroy(const GpuContext *ctx, GpuFrame *frame)
{
    if (frame->pending)
        vkWaitForFences(ctx->device, 1, &frame->fence, VK_TRUE, UINT64_MAX);
    if (frame->fence)
        vkDestroyFence(ctx->device, frame->fence, NULL);
    if (frame->parts[0])
        vkFreeCommandBuffers(ctx->device, ctx->pool, GPU_FRAME_MAX_PARTS, frame->parts);
    memset(frame, 0, sizeof *frame);
}

bool gpu_frames_create(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT], GpuError *err)
{
    memset(frames, 0, GPU_FRAMES_IN_FLIGHT * sizeof frames[0]);
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++) {
        if (!gpu_frame_create(ctx, slot, &frames[slot], err)) {
            gpu_frames_destroy(ctx, frames);
            return false;
        }
    }
    return true;
}

void gpu_frames_destroy(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT])
{
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        gpu_frame_destroy(ctx, &frames[slot]);
}

bool gpu_frames_wait(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT], GpuError *err)
{
    bool ok = true;
    for (uint32_t slot = 0; slot < GPU_FRAMES_IN_FLIGHT; slot++)
        ok = gpu_frame_wait(ctx, &frames[slot], err) && ok;
    return ok;
}

static const VkCommandBufferBeginInfo BEGIN = {
    .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
};

bool gpu_frame_wait(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    if (!frame->pending)
        return true;
    frame->pending = false;
    GPU_TRY(err, vkWaitForFences(ctx->device, 1, &frame->fence, VK_TRUE, UINT64_MAX));
    return true;
}

bool gpu_frame_begin(const GpuContext *ctx, GpuFrame *frame, GpuError *err)
{
    if (!gpu_frame_wait(ctx, frame, err))
        return false;
    GPU_TRY(err, vkResetFences(ctx->device, 1, &frame->fence));
    for (uint32_t i = 0; i <= frame->part; i++)
        GPU_TRY(err, vkResetCommandBuffer(frame->parts[i], 0));
    frame->part = frame->target_part = 0;
    frame->split_result = VK_SUCCESS;
    frame->cmd = frame->parts[0];
    GPU_TRY(err, vkBeginCommandBuffer(frame->cmd, &BEGIN));
    return true;
}

bool gpu_frame_splits_passes(const GpuContext *ctx)
{
    return ctx->driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;
}

VkCommandBuffer gpu_frame_next_part(void *user, bool draws_target)
{
    GpuFrame *frame = user;
    VkResult r =
        frame->part + 1 < GPU_FRAME_MAX_PARTS ? vkEndCommandBuffer(frame->cmd) : VK_ERROR_UNKNOWN;
    if (r == VK_SUCCESS)
        r = vkBeginCommandBuffer(frame->parts[frame->part + 1], &BEGIN);
    if (r != VK_SUCCESS) {
        frame->split_result = r;
        return frame->cmd;
    }
    frame->cmd = frame->parts[++frame->part];
    if (draws_target)
        frame->target_part = frame->part;
    return frame->cmd;
}

bool gpu_frame_record(const GpuContext *ctx, GpuFrame *frame, const GpuChain *chain,
                      GpuChainFrame *work, double *host_ms, GpuError *err)
{
    if (gpu_frame_splits_passes(ctx)) {
        work->next_part = gpu_frame_next_part;
        work->part_user = frame;
    }
    double spent = 0.0;
    uint32_t at = gpu_chain_record(ctx, frame->cmd, chain, 0, work);
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
        at = gpu_chain_record(ctx, frame->cmd, chain, at + 1, work);
    }
    if (host_ms)
        *host_ms = spent;
    return true;
}

bool gpu_frame_submit(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                      VkPipelineStageFlags wait_stage, VkSemaphore signal, GpuError *err)
{
    GPU_TRY(err, frame->split_result);
    GPU_TRY(err, vkEndCommandBuffer(frame->cmd));
    VkSubmitInfo submits[GPU_FRAME_MAX_PARTS];
    uint32_t count = frame->part + 1;
    for (uint32_t i = 0; i < count; i++) {
        bool waits = wait && i == frame->target_part, signals = signal && i + 1 == count;
        submits[i] = (VkSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .waitSemaphoreCount = waits ? 1 : 0,
            .pWaitSemaphores = &wait,
            .pWaitDstStageMask = &wait_stage,
            .commandBufferCount = 1,
            .pCommandBuffers = &frame->parts[i],
            .signalSemaphoreCount = signals ? 1 : 0,
            .pSignalSemaphores = &signal,
        };
    }
    VkResult r = gpu_fault_submit(ctx);
    if (r == VK_SUCCESS)
        r = vkQueueSubmit(ctx->queue, count, submits, frame->fence);
    if (r == VK_ERROR_DEVICE_LOST)
        return gpu_error_set(err,
                             "the GPU was lost (VK_ERROR_DEVICE_LOST) while submitting a frame");
    GPU_TRY(err, r);
    frame->pending = true;
    return true;
}
