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

/* What one frame records besides the chain's own. */
typedef struct GpuChainFrame {
    const GpuLeaf *leaf;
    uint32_t slot;          /* the frame in flight: picks per-frame resources */
    bool readback_vertices; /* stage readback (the leaf needs .readback) */
    GpuRenderer *renderer;  /* stage render, with its target and draws; NULL: none */
    const GpuRenderTarget *target;
    const GpuDraw *draws; /* the pages to draw, the turning leaf's among them */
    uint32_t draw_count;
    GpuTimer *timer;  /* optional: timestamps on the device, after... */
    bool stage_times; /* ...each stage; else after each run of kernels and copies (timed as
                       * GPU_STAGE_CHAIN, or as its one stage) and after the render */
    /* each kernel recorded this many times back to back (0 or 1: once), a compute barrier
     * between: the benchmark's like-for-like figure against launches in a CUDA graph, with the
     * dispatch's and the timestamps' fixed costs shared by `repeat` dispatches */
    uint32_t repeat;
    const float *u, *v; /* the grid's texture coordinates: the staging pack interleaves them */
    /* optional: runs fn over ranges covering [0, n) on the CPU's cores, returning when all are
     * done (the app's mesh_parallel_for); NULL: the staging pack runs on this thread */
    void (*parallel_for)(size_t n, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);
} GpuChainFrame;

/* Whether the stage is one kernel's dispatch (what GpuChainFrame.repeat repeats). */
bool gpu_stage_is_kernel(GpuStage stage);

/* Records stages from `from` on into `cmd`, up to the end or a host stage; returns the index of
 * the stage that stopped it (chain->count at the end). */
uint32_t gpu_chain_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuChain *chain,
                          uint32_t from, const GpuChainFrame *frame);

/* Runs a host stage (pack: after the fence of the submission before it). */
void gpu_chain_run_host(const GpuContext *ctx, GpuStage stage, const GpuChainFrame *frame);

#endif
