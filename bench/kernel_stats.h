/* SPDX-License-Identifier: MIT */
/* What the driver's compiler made of the kernels a path runs (registers, shared memory...), where
 * the context was made to capture it (VK_KHR_pipeline_executable_properties): the benchmark's
 * report, which the frame never asks for. Owns nothing past the call. */
#ifndef PAGECURL_BENCH_KERNEL_STATS_H
#define PAGECURL_BENCH_KERNEL_STATS_H

#include "../gpu/chain.h"

#define BENCH_MAX_KERNELS 4

typedef struct BenchKernelStats {
    const char *name; /* the kernel's label */
    char stats[512];  /* "name value; ..." */
} BenchKernelStats;

/* The statistics of each kernel `chain` runs for `leaf`, in order; returns how many were given
 * (none where the context captures none). */
uint32_t bench_kernel_stats(const GpuContext *ctx, const GpuChain *chain, const GpuLeaf *leaf,
                            BenchKernelStats out[BENCH_MAX_KERNELS]);

#endif
