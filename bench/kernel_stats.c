/* SPDX-License-Identifier: MIT */
#include "kernel_stats.h"

#include <stdio.h>
#include <string.h>

/* The kernels the chain runs for `leaf`, in order; returns how many (at most 3). */
static uint32_t kernels(const GpuChain *chain, const GpuLeaf *leaf, const GpuKernel *out[3])
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < chain->count; i++) {
        switch (chain->stages[i].stage) {
        case GPU_STAGE_DEFORM:
            out[n++] = &chain->deform.kernel;
            break;
        case GPU_STAGE_TRI_NORMALS:
            out[n++] = &chain->normals.tri;
            break;
        case GPU_STAGE_VERTEX_NORMALS:
            out[n++] = &chain->normals.vertex;
            break;
        case GPU_STAGE_FUSED:
        case GPU_STAGE_FUSED_DEFORM:
            out[n++] = gpu_fused_kernel(&chain->fused, leaf);
            break;
        default:
            break;
        }
    }
    return n;
}

/* The compiler's statistics of one kernel as "name value; ..." */
static bool statistics(const GpuContext *ctx, const GpuKernel *kernel, char *out, size_t size)
{
    if (!ctx->pipeline_statistics || !kernel->pipeline || size == 0)
        return false;
    VkPipelineExecutableInfoKHR exe = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
        .pipeline = kernel->pipeline,
        .executableIndex = 0, /* a compute pipeline has its one shader */
    };
    VkPipelineExecutableStatisticKHR stats[32];
    uint32_t count = 32;
    for (uint32_t i = 0; i < count; i++)
        stats[i] = (VkPipelineExecutableStatisticKHR){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
    VkResult r = ctx->vk.vkGetPipelineExecutableStatisticsKHR(ctx->device, &exe, &count, stats);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return false;
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < count && at < size; i++) {
        const VkPipelineExecutableStatisticKHR *st = &stats[i];
        const char *sep = i ? "; " : "";
        int n = 0;
        switch (st->format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
            n = snprintf(out + at, size - at, "%s%s %s", sep, st->name,
                         st->value.b32 ? "yes" : "no");
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
            n = snprintf(out + at, size - at, "%s%s %lld", sep, st->name, (long long)st->value.i64);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
            n = snprintf(out + at, size - at, "%s%s %llu", sep, st->name,
                         (unsigned long long)st->value.u64);
            break;
        default:
            n = snprintf(out + at, size - at, "%s%s %g", sep, st->name, st->value.f64);
            break;
        }
        at += n > 0 ? (size_t)n : 0;
    }
    return count > 0;
}

uint32_t bench_kernel_stats(const GpuContext *ctx, const GpuChain *chain, const GpuLeaf *leaf,
                            BenchKernelStats out[BENCH_MAX_KERNELS])
{
    const GpuKernel *used[3];
    uint32_t n = kernels(chain, leaf, used), count = 0;
    for (uint32_t i = 0; i < n; i++)
        if (statistics(ctx, used[i], out[count].stats, sizeof out[count].stats))
            out[count++].name = used[i]->label;
    return count;
}
