/* SPDX-License-Identifier: MIT */
#include "chain.h"

#include "pack.h"

#include <string.h>

/* The barriers between stages: a writer of one kind, then the readers that follow. */
static const GpuChainBarrier COMPUTE_TO_COMPUTE = {
    .src_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
    .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
    .dst_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
    .dst_access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
};
static const GpuChainBarrier COPY_TO_COMPUTE = {
    .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
    .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
    .dst_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
    .dst_access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
};
static const GpuChainBarrier COMPUTE_TO_DRAW = {
    .src_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
    .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
    .dst_stage = VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
    .dst_access = VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT,
};
/* deform (or upload) and vertex_normals wrote the planes -> readback_soa copies them */
static const GpuChainBarrier WRITES_TO_COPY = {
    .src_stage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
    .src_access = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
    .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
    .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
};
/* the vertex upload (or the host, visible since the submission) -> the draw and readback */
static const GpuChainBarrier COPY_TO_DRAW = {
    .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
    .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
    .dst_stage = VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
    .dst_access = VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT,
};
static const GpuChainBarrier TO_HOST = {.host_read = true};

static void add(GpuChain *chain, GpuStage stage, GpuChainBarrier after)
{
    bool opens = chain->count == 0 || chain->stages[chain->count - 1].host;
    chain->stages[chain->count++] = (GpuChainStage){
        .stage = stage,
        .opens = opens,
        .host = stage == GPU_STAGE_PACK,
        .optional = stage == GPU_STAGE_READBACK || stage == GPU_STAGE_RENDER,
        .after = after,
    };
}

/* The barrier the row names after a stage. */
static GpuChainBarrier barrier_of(GpuStageAfter after)
{
    switch (after) {
    case GPU_AFTER_COMPUTE_TO_COMPUTE:
        return COMPUTE_TO_COMPUTE;
    case GPU_AFTER_COPY_TO_COMPUTE:
        return COPY_TO_COMPUTE;
    case GPU_AFTER_COMPUTE_TO_DRAW:
        return COMPUTE_TO_DRAW;
    case GPU_AFTER_WRITES_TO_COPY:
        return WRITES_TO_COPY;
    case GPU_AFTER_COPY_TO_DRAW:
        return COPY_TO_DRAW;
    case GPU_AFTER_TO_HOST:
        return TO_HOST;
    case GPU_AFTER_NOTHING:
        break;
    }
    return (GpuChainBarrier){0};
}

/* The kernel a stage dispatches, made for the chain (true for a stage with none). */
static bool kernel_create(const GpuContext *ctx, GpuStage stage, GpuChain *chain, GpuError *err)
{
    switch (stage) {
    case GPU_STAGE_DEFORM:
        return gpu_deform_create(ctx, &chain->deform, err);
    case GPU_STAGE_TRI_NORMALS: /* its kernel and vertex_normals', made together */
        return gpu_normals_create(ctx, chain->path->pack, &chain->normals, err);
    case GPU_STAGE_FUSED:
    case GPU_STAGE_FUSED_DEFORM:
        return gpu_fused_create(ctx, stage == GPU_STAGE_FUSED_DEFORM, &chain->fused, err);
    default:
        return true;
    }
}

bool gpu_chain_create(const GpuContext *ctx, const GpuPath *path, GpuChain *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    bool ok = true;
    for (uint32_t i = 0; i < path->stage_count; i++) {
        add(out, path->stages[i].stage, barrier_of(path->stages[i].after));
        ok = ok && kernel_create(ctx, path->stages[i].stage, out, err);
    }
    if (ok)
        return true;
    gpu_chain_destroy(ctx, out);
    return false;
}

void gpu_chain_bind(const GpuContext *ctx, const GpuChain *chain, const GpuLeaf *leaf)
{
    if (chain->deform.kernel.pipeline)
        gpu_deform_bind(ctx, &chain->deform, leaf);
    if (chain->normals.tri.pipeline)
        gpu_normals_bind(ctx, &chain->normals, leaf);
    if (chain->fused.fused.pipeline)
        gpu_fused_bind(ctx, &chain->fused, leaf);
}

void gpu_chain_destroy(const GpuContext *ctx, GpuChain *chain)
{
    gpu_fused_destroy(ctx, &chain->fused);
    gpu_normals_destroy(ctx, &chain->normals);
    gpu_deform_destroy(ctx, &chain->deform);
}

void gpu_chain_record_work(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                           uint32_t i, const GpuChainFrame *f, const VkMemoryBarrier2 *before)
{
    switch (chain->stages[i].stage) {
    case GPU_STAGE_DEFORM:
        gpu_deform_dispatch(ctx, cmd, &chain->deform, f->leaf, f->slot);
        break;
    case GPU_STAGE_UPLOAD:
        gpu_leaf_record_upload(ctx, cmd, f->leaf, f->slot);
        break;
    case GPU_STAGE_TRI_NORMALS:
        gpu_normals_dispatch_tri(ctx, cmd, &chain->normals, f->leaf);
        break;
    case GPU_STAGE_VERTEX_NORMALS:
        gpu_normals_dispatch_vertex(ctx, cmd, &chain->normals, f->leaf);
        break;
    case GPU_STAGE_FUSED:
    case GPU_STAGE_FUSED_DEFORM:
        gpu_fused_dispatch(ctx, cmd, &chain->fused, f->leaf, f->slot);
        break;
    case GPU_STAGE_READBACK_SOA:
        gpu_leaf_record_soa_readback(ctx, cmd, f->leaf);
        break;
    case GPU_STAGE_UPLOAD_VERTICES:
        gpu_leaf_record_vertex_upload(ctx, cmd, f->leaf, f->slot);
        break;
    case GPU_STAGE_READBACK:
        gpu_leaf_record_readback(ctx, cmd, f->leaf);
        break;
    case GPU_STAGE_RENDER:
        /* strokes drawn since this slot's last frame, before the pages that show them */
        gpu_ink_record(ctx, cmd, &f->renderer->ink, f->slot);
        gpu_renderer_record(ctx, cmd, f->renderer, f->target, f->draws, f->draw_count, f->slot,
                            before);
        break;
    case GPU_STAGE_PACK:
    case GPU_STAGE_CHAIN:
    case GPU_STAGE_COUNT:
        break;
    }
}

/* Previous frame (kernels, vertex fetch, readback copy, as readers and writers) -> this
 * submission's copies and kernels, which rewrite the same resident buffers. */
static void record_opening(const GpuContext *ctx, VkCommandBuffer cmd)
{
    gpu_barrier(ctx, cmd,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                    VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

static bool wanted(const GpuChainStage *s, const GpuChainFrame *f)
{
    if (!s->optional)
        return true;
    if (s->stage == GPU_STAGE_READBACK)
        return f->readback_vertices;
    if (s->stage == GPU_STAGE_RENDER)
        return f->renderer != NULL;
    return true;
}

uint32_t gpu_chain_next(const GpuChain *chain, uint32_t i, const GpuChainFrame *f)
{
    for (i++; i < chain->count && !chain->stages[i].host && !wanted(&chain->stages[i], f); i++)
        ;
    return i;
}

uint32_t gpu_chain_open(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                        uint32_t from, const GpuChainFrame *frame)
{
    /* Only a submission's first stage opens (after the previous frame's uses). That barrier is
     * the frames' synchronisation, not the stage's work: the stage's time starts after it. */
    if (from < chain->count && chain->stages[from].opens)
        record_opening(ctx, cmd);
    if (frame->timer && from == 0)
        gpu_timer_begin(ctx, frame->timer, cmd);
    else if (frame->timer)
        gpu_timer_mark(ctx, frame->timer, cmd, GPU_STAGE_COUNT, NULL); /* the host's gap: untimed */
    if (from < chain->count && !chain->stages[from].host && !wanted(&chain->stages[from], frame))
        return gpu_chain_next(chain, from, frame);
    return from;
}

bool gpu_chain_record_after(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                            uint32_t i, uint32_t next, const GpuChainFrame *frame,
                            VkMemoryBarrier2 *held)
{
    const GpuChainStage *s = &chain->stages[i];
    bool render_next = next < chain->count && !chain->stages[next].host &&
                       chain->stages[next].stage == GPU_STAGE_RENDER;
    const GpuChainBarrier *b = &s->after;
    if (b->host_read) {
        gpu_barrier_host_read(ctx, cmd);
    } else if (b->src_stage && !(s->stage == GPU_STAGE_UPLOAD && frame->leaf->in_place)) {
        if (!render_next) {
            gpu_barrier(ctx, cmd, b->src_stage, b->src_access, b->dst_stage, b->dst_access);
            return false;
        }
        *held = (VkMemoryBarrier2){.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                   .srcStageMask = b->src_stage,
                                   .srcAccessMask = b->src_access,
                                   .dstStageMask = b->dst_stage,
                                   .dstAccessMask = b->dst_access};
        return true;
    }
    return false;
}

uint32_t gpu_chain_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                          uint32_t from, const GpuChainFrame *frame)
{
    VkMemoryBarrier2 held;
    bool holding = false;
    uint32_t i = gpu_chain_open(ctx, cmd, chain, from, frame);
    while (i < chain->count && !chain->stages[i].host) {
        GpuStage stage = chain->stages[i].stage;
        uint32_t next = gpu_chain_next(chain, i, frame);
        gpu_label_begin(ctx, cmd, gpu_stage_name(stage));
        gpu_chain_record_work(ctx, cmd, chain, i, frame, holding ? &held : NULL);
        gpu_label_end(ctx, cmd);
        if (frame->timer)
            gpu_timer_mark(ctx, frame->timer, cmd, stage, gpu_stage_name(stage));
        holding = gpu_chain_record_after(ctx, cmd, chain, i, next, frame, &held);
        i = next;
    }
    return i;
}

typedef struct PackJob {
    const float *soa, *u, *v;
    uint64_t n;
    float *out;
} PackJob;

static void pack_range(void *ctx, size_t begin, size_t end)
{
    const PackJob *job = ctx;
    gpu_pack_interleave(job->soa, job->soa + 3 * job->n, job->u, job->v, job->n, begin, end,
                        job->out);
}

void gpu_chain_run_host(const GpuContext *ctx, GpuStage stage, const GpuChainFrame *frame)
{
    if (stage != GPU_STAGE_PACK)
        return;
    const GpuLeaf *leaf = frame->leaf;
    gpu_buffer_invalidate(ctx, &leaf->soa_readback);
    PackJob job = {leaf->soa_readback.mapped, frame->u, frame->v, leaf->vertex_count,
                   gpu_leaf_vertex_target(leaf, frame->slot)};
    if (frame->parallel_for)
        frame->parallel_for(job.n, pack_range, &job);
    else
        pack_range(&job, 0, job.n);
}
