/* SPDX-License-Identifier: MIT */
#include "bandwidth.h"

#include "../shaders/shared.h"
#include "../gpu/compute.h"
#include "../gpu/frame.h"
#include "../gpu/sync.h"
#include "../gpu/timer.h"

#include <stdlib.h>

static const uint32_t copy_spv[] =
#include "copy.comp.inc"
    ;

#define MAX_REPS (GPU_TIMER_MAX - 2) /* one warm-up copy and the begin mark use two */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct Probe {
    GpuBuffer src, dst;
    GpuKernel kernel;
    GpuTimer timer;
    GpuFrame frame;
} Probe;

static void probe_destroy(const GpuContext *ctx, Probe *p)
{
    gpu_frame_destroy(ctx, &p->frame);
    gpu_timer_destroy(ctx, &p->timer);
    gpu_kernel_destroy(ctx, &p->kernel);
    gpu_buffer_destroy(ctx, &p->dst);
    gpu_buffer_destroy(ctx, &p->src);
}

bool bench_bandwidth_measure(const GpuContext *ctx, uint64_t bytes, uint32_t reps, double *gbps,
                             GpuError *err)
{
    uint64_t range = ctx->props.limits.maxStorageBufferRange;
    if (bytes > range)
        bytes = range;
    bytes &= ~(uint64_t)15;
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    if (reps == 0 || bytes == 0)
        return gpu_error_set(err, "bandwidth probe: nothing to measure");
    Probe p = {0};
    GpuBufferDesc desc = {.size = bytes,
                          .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                          .memory = GPU_MEMORY_DEVICE,
                          .label = "bandwidth source"};
    GpuKernelDesc kdesc = {.spirv = copy_spv,
                           .spirv_size = sizeof copy_spv,
                           .binding_count = 2,
                           .push_size = sizeof(PcCopyPush),
                           .workgroup_size = PC_WG_COPY,
                           .label = "bandwidth copy"};
    bool ok = gpu_buffer_create(ctx, &desc, &p.src, err);
    desc.label = "bandwidth destination";
    ok = ok && gpu_buffer_create(ctx, &desc, &p.dst, err) &&
         gpu_kernel_create(ctx, &kdesc, &p.kernel, err) && gpu_timer_create(ctx, &p.timer, err) &&
         gpu_frame_create(ctx, 0, false, &p.frame, err) && gpu_frame_begin(ctx, &p.frame, err);
    if (ok) {
        gpu_kernel_bind(ctx, &p.kernel, (const GpuBuffer *[]){&p.src, &p.dst});
        PcCopyPush push = {.count = (pc_uint)(bytes / 16)};
        VkCommandBuffer cmd = p.frame.cmd;
        /* The source is never written: its contents do not matter to the copy's speed, so it
         * starts undefined; the copies only rewrite the destination. */
        gpu_timer_begin(ctx, &p.timer, cmd);
        for (uint32_t r = 0; r <= reps; r++) { /* the first copy warms up and is not counted */
            /* previous copy's writes -> this copy's writes of the same destination */
            gpu_barrier(ctx, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
            gpu_kernel_dispatch(ctx, cmd, &p.kernel, &push, push.count);
            gpu_timer_mark(ctx, &p.timer, cmd, 0, "copy");
        }
        ok = gpu_frame_submit(ctx, &p.frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err) &&
             gpu_frame_wait(ctx, &p.frame, err);
    }
    if (ok) {
        GpuTimerStage stages[GPU_TIMER_MAX];
        double ms[GPU_TIMER_MAX];
        uint32_t n = gpu_timer_read(ctx, &p.timer, stages);
        for (uint32_t i = 0; i < n; i++)
            ms[i] = stages[i].ms;
        if (n < 2) {
            ok = gpu_error_set(err, "bandwidth probe: no timestamps came back");
        } else {
            qsort(ms + 1, n - 1, sizeof ms[0], compare_double);
            double median = ms[1 + (n - 1) / 2];
            *gbps = median > 0 ? 2.0 * (double)bytes / (median * 1e-3) / 1e9 : 0.0;
        }
    }
    probe_destroy(ctx, &p);
    return ok;
}
