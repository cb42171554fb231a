/* SPDX-License-Identifier: MIT */
/* The frame's stages for one leaf, as a list built once from its path's row (gpu/paths.h, whose
 * table lists each path's stages): each stage owns its kernel (or copy), its debug label, its
 * timestamp and its outgoing barrier, and the frame's synchronisation reads here, in one place.
 * A host stage (the staging pack's) runs between two submissions. Owns the kernels the row's
 * stages use and none other, bound to one leaf at a time. */
#ifndef PAGECURL_GPU_CHAIN_H
#define PAGECURL_GPU_CHAIN_H

#include "deform.h"
#include "fused.h"
#include "normals.h"
#include "paths.h"
#include "renderer.h"
#include "timer.h"

/* What a stage's commands must be visible to: the barrier after it. */
typedef struct GpuChainBarrier {
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
    bool host_read; /* to the host after the fence, instead */
} GpuChainBarrier;

typedef struct GpuChainStage {
    GpuStage stage;
    bool opens;    /* the first stage of a submission: after the previous frame's uses */
    bool host;     /* runs on the host; the submission ends before it */
    bool optional; /* recorded only when the frame asks (readback, render) */
    GpuChainBarrier after;
} GpuChainStage;

#define GPU_CHAIN_MAX_STAGES GPU_PATH_MAX_STAGES

typedef struct GpuChain {
    const GpuPath *path; /* the table's row it was built from */
    GpuDeform deform;    /* only the kernels the stages use are made */
    GpuNormals normals;
    GpuFused fused;
    uint32_t count;
    GpuChainStage stages[GPU_CHAIN_MAX_STAGES];
} GpuChain;

bool gpu_chain_create(const GpuContext *ctx, const GpuPath *path, GpuChain *out, GpuError *err);
/* Points the kernels at `leaf` (no frame using them may be in flight). */
void gpu_chain_bind(const GpuContext *ctx, const GpuChain *chain, const GpuLeaf *leaf);
void gpu_chain_destroy(const GpuContext *ctx, GpuChain *chain);

typedef struct GpuChainFrame GpuChainFrame;

/* Records stages from `from` on into `cmd`, up to the end or a host stage; returns the index of
 * the stage that stopped it (chain->count at the end). */
typedef uint32_t (*GpuChainRecord)(const GpuContext *ctx, VkCommandBuffer cmd,
                                   const GpuChain *chain, uint32_t from,
                                   const GpuChainFrame *frame);

/* What one frame records besides the chain's own. */
struct GpuChainFrame {
    const GpuLeaf *leaf;
    uint32_t slot;          /* the frame in flight: picks per-frame resources */
    bool readback_vertices; /* stage readback (the leaf needs .readback) */
    GpuRenderer *renderer;  /* stage render, with its target and draws; NULL: none */
    const GpuRenderTarget *target;
    const GpuDraw *draws; /* the pages to draw, the turning leaf's among them */
    uint32_t draw_count;
    GpuTimer *timer; /* optional: timestamps on the device, after each stage */
    /* what records the stages: gpu_chain_record, or the benchmark's own (bench/chain_record.h),
     * which reads `record_user` */
    GpuChainRecord record;
    const void *record_user;
    const float *u, *v; /* the grid's texture coordinates: the staging pack interleaves them */
    /* optional: runs fn over ranges covering [0, n) on the CPU's cores, returning when all are
     * done (the app's mesh_parallel_for); NULL: the staging pack runs on this thread */
    void (*parallel_for)(size_t n, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);
};

/* The frame's recording: each stage once, under its label, a timestamp after it where the frame
 * is timed, then its barrier. */
uint32_t gpu_chain_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                          uint32_t from, const GpuChainFrame *frame);

/* The steps of a recording, for a recorder of the chain's stages (gpu_chain_record's, the
 * benchmark's): */
/* A submission's start at stage `from`: its opening barrier where it opens one, the timer begun
 * (from 0) or the host's gap marked; returns the first stage the frame records. */
uint32_t gpu_chain_open(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                        uint32_t from, const GpuChainFrame *frame);
/* The stage the frame records after stage i in this submission: its index, or that of the host
 * stage or the end (chain->count) that stops it. */
uint32_t gpu_chain_next(const GpuChain *chain, uint32_t i, const GpuChainFrame *frame);
/* Stage i's own commands: its kernel, copy or draws (the render's after `before`, the barrier
 * after the stage before it, recorded with its own: NULL, none held). */
void gpu_chain_record_work(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                           uint32_t i, const GpuChainFrame *frame, const VkMemoryBarrier2 *before);
/* The barrier after stage i (`next` the stage after it); one before the render is held in `held`
 * for the render to record with its own (returned, true). */
bool gpu_chain_record_after(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                            uint32_t i, uint32_t next, const GpuChainFrame *frame,
                            VkMemoryBarrier2 *held);

/* Runs a host stage (pack: after the fence of the submission before it). */
void gpu_chain_run_host(const GpuContext *ctx, GpuStage stage, const GpuChainFrame *frame);

#endif
