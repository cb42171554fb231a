/* SPDX-License-Identifier: MIT */
#include "timer.h"

#include <string.h>

bool gpu_timer_create(const GpuContext *ctx, GpuTimer *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    uint32_t count = 0;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &count, NULL);
    VkQueueFamilyProperties families[32];
    count = count > 32 ? 32 : count;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(ctx->physical, &count, families);
    uint32_t bits = ctx->queue_family < count ? families[ctx->queue_family].timestampValidBits : 0;
    if (bits == 0)
        return gpu_error_set(err, "%s cannot time its queue (timestampValidBits = 0)",
                             ctx->props.deviceName);
    out->valid_mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    out->ns_per_tick = ctx->props.limits.timestampPeriod;
    VkQueryPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = GPU_TIMER_MAX,
    };
    GPU_TRY(err, ctx->vk.vkCreateQueryPool(ctx->device, &info, ctx->allocator, &out->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_QUERY_POOL, out->pool, "stage timestamps");
    return true;
}

void gpu_timer_destroy(const GpuContext *ctx, GpuTimer *timer)
{
    if (timer->pool)
        ctx->vk.vkDestroyQueryPool(ctx->device, timer->pool, ctx->allocator);
    memset(timer, 0, sizeof *timer);
}

void gpu_timer_begin(const GpuContext *ctx, GpuTimer *timer, VkCommandBuffer cmd)
{
    ctx->vk.vkCmdResetQueryPool(cmd, timer->pool, 0, GPU_TIMER_MAX);
    /* ALL_COMMANDS: the timestamp waits for everything before it, so boundaries bracket stages */
    ctx->vk.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->pool, 0);
    timer->written = 1;
}

void gpu_timer_mark(const GpuContext *ctx, GpuTimer *timer, VkCommandBuffer cmd, uint32_t tag,
                    const char *name)
{
    if (timer->written == 0 || timer->written >= GPU_TIMER_MAX)
        return;
    timer->names[timer->written] = name;
    timer->tags[timer->written] = tag;
    ctx->vk.vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, timer->pool,
                                 timer->written);
    timer->written++;
}

/* Never waits (no VK_QUERY_RESULT_WAIT_BIT): a host may record a frame and drop it, and its
 * timestamps never come; the next record of the slot must not block on them (VK_NOT_READY: no
 * times). */
uint32_t gpu_timer_read(const GpuContext *ctx, const GpuTimer *timer,
                        GpuTimerStage out[GPU_TIMER_MAX])
{
    uint64_t ticks[GPU_TIMER_MAX];
    if (timer->written < 2 ||
        ctx->vk.vkGetQueryPoolResults(ctx->device, timer->pool, 0, timer->written, sizeof ticks,
                                      ticks, sizeof ticks[0], VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return 0;
    uint32_t n = 0;
    for (uint32_t i = 1; i < timer->written; i++) {
        if (!timer->names[i])
            continue;
        uint64_t delta = (ticks[i] - ticks[i - 1]) & timer->valid_mask;
        out[n++] = (GpuTimerStage){(double)delta * timer->ns_per_tick * 1e-6, timer->tags[i],
                                   timer->names[i]};
    }
    return n;
}

double gpu_clock_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
