/* SPDX-License-Identifier: MIT */
#include "chain_record.h"

#include "../gpu/sync.h"

bool bench_stage_is_kernel(GpuStage stage)
{
    return stage == GPU_STAGE_DEFORM || stage == GPU_STAGE_TRI_NORMALS ||
           stage == GPU_STAGE_VERTEX_NORMALS || stage == GPU_STAGE_FUSED ||
           stage == GPU_STAGE_FUSED_DEFORM;
}

/* The stages that make the vertices (and copy them), as against the render and the readback. */
static bool compute_stage(GpuStage stage)
{
    return stage < GPU_STAGE_CHAIN;
}

uint32_t bench_chain_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                            uint32_t from, const GpuChainFrame *frame)
{
    const BenchChainRecord *bench = frame->record_user;
    VkMemoryBarrier2 held;
    bool holding = false;
    uint32_t span = 0; /* kernels and copies since the last timestamp */
    uint32_t i = gpu_chain_open(ctx, cmd, chain, from, frame);
    while (i < chain->count && !chain->stages[i].host) {
        GpuStage stage = chain->stages[i].stage;
        uint32_t next = gpu_chain_next(chain, i, frame);
        bool last = next == chain->count || chain->stages[next].host;
        gpu_label_begin(ctx, cmd, gpu_stage_name(stage));
        gpu_chain_record_work(ctx, cmd, chain, i, frame, holding ? &held : NULL);
        for (uint32_t r = 1; bench_stage_is_kernel(stage) && r < bench->repeat; r++) {
            /* the next dispatch rewrites what this one wrote and reads what it read */
            gpu_barrier(ctx, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
            gpu_chain_record_work(ctx, cmd, chain, i, frame, NULL);
        }
        gpu_label_end(ctx, cmd);
        span++;
        /* One span, unless each stage is asked for: timestamps between kernels cost the device
         * their wait for all before them, and the host a call each. */
        if (frame->timer && (bench->stage_times || !compute_stage(stage) || last ||
                             !compute_stage(chain->stages[next].stage))) {
            GpuStage timed = span == 1 ? stage : GPU_STAGE_CHAIN;
            gpu_timer_mark(ctx, frame->timer, cmd, timed, gpu_stage_name(timed));
            span = 0;
        }
        holding = gpu_chain_record_after(ctx, cmd, chain, i, next, frame, &held);
        i = next;
    }
    return i;
}
