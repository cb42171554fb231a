/* SPDX-License-Identifier: MIT */
/* The benchmark's recording of a frame's chain (a GpuChainRecord): the frame's stages as
 * gpu_chain_record records them, with what only the benchmark asks for: each kernel several times
 * back to back (--repeat), and the chain's kernels and copies timed as one span between the
 * render's timestamps unless each stage is asked for (--bench-stages). Owns nothing. */
#ifndef PAGECURL_BENCH_CHAIN_RECORD_H
#define PAGECURL_BENCH_CHAIN_RECORD_H

#include "../gpu/chain.h"

/* What the recorder reads (GpuChainFrame.record_user): it must outlive the frames recorded. */
typedef struct BenchChainRecord {
    /* each kernel recorded this many times back to back (0 or 1: once), a compute barrier
     * between: the benchmark's like-for-like figure against launches in a CUDA graph, with the
     * dispatch's and the timestamps' fixed costs shared by `repeat` dispatches */
    uint32_t repeat;
    /* a timestamp after each stage; else after each run of kernels and copies (timed as
     * GPU_STAGE_CHAIN, or as its one stage) and after the render */
    bool stage_times;
} BenchChainRecord;

/* Whether the stage is one kernel's dispatch (what BenchChainRecord.repeat repeats). */
bool bench_stage_is_kernel(GpuStage stage);

/* A GpuChainRecord: frame->record_user is a BenchChainRecord. */
uint32_t bench_chain_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                            uint32_t from, const GpuChainFrame *frame);

#endif
