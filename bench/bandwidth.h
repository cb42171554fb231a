/* SPDX-License-Identifier: MIT */
/* The device's copy bandwidth, measured the way the benchmark's kernels move data: a compute
 * shader copying between two device-local buffers with 16-byte loads and stores, timed by device
 * timestamps. Owns nothing past the call. */
#ifndef PAGECURL_BENCH_BANDWIDTH_H
#define PAGECURL_BENCH_BANDWIDTH_H

#include "../gpu/context.h"

/* Copies up to `bytes` (capped by the device's storage range) `reps` times; *gbps is the median
 * of (bytes read + bytes written) / time, in GB/s (1e9 bytes). */
bool bench_bandwidth_measure(const GpuContext *ctx, uint64_t bytes, uint32_t reps, double *gbps,
                             GpuError *err);

#endif
