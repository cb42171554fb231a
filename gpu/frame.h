/* SPDX-License-Identifier: MIT */
/* One frame's command buffer and fence, and its submissions: the page's chain (gpu/chain.h)
 * recorded into it, split where a stage runs on the host; or, for a host's frames, a secondary
 * command buffer the host's executes (no fence: the host submits). Owns the command buffer and
 * the fence; the resources it records against belong to others. */
#ifndef PAGECURL_GPU_FRAME_H
#define PAGECURL_GPU_FRAME_H

#include "chain.h"

typedef struct GpuFrame {
    VkCommandBuffer cmd;
    VkFence fence;
    uint32_t slot;    /* which of the GPU_FRAMES_IN_FLIGHT this is: picks per-frame resources */
    bool pending;     /* submitted and not yet waited for */
    bool unsignalled; /* its fence is reset and no submission will signal it yet */
    bool recording;   /* begun and not yet ended */
    bool hosted;      /* a secondary command buffer, for a host's command buffer to execute */
} GpuFrame;

bool gpu_frame_create(const GpuContext *ctx, uint32_t slot, bool hosted, GpuFrame *out,
                      GpuError *err);
void gpu_frame_destroy(const GpuContext *ctx, GpuFrame *frame);

/* Waits until the frame's last submission is done (so its buffers may be rewritten), then
 * starts recording. */
bool gpu_frame_begin(const GpuContext *ctx, GpuFrame *frame, GpuError *err);

/* gpu_frame_begin in two steps, for commands that may be submitted more than once: the wait and
 * the fence's reset, then, unless the frame submits the commands it recorded last again (which
 * gpu_frame_submit then does), the recording, kept after its submission. */
bool gpu_frame_reset(const GpuContext *ctx, GpuFrame *frame, GpuError *err);
/* ...and the recording: `kept`, to be submitted again after this submission. */
bool gpu_frame_start(const GpuContext *ctx, GpuFrame *frame, bool kept, GpuError *err);
/* Ends the recording (gpu_frame_submit does it for a frame it submits; a host's is ended here). */
bool gpu_frame_end(const GpuContext *ctx, GpuFrame *frame, GpuError *err);

/* Records the page's chain for `work` into the begun frame (work->slot is the frame's). A host
 * stage (the staging pack) submits what is recorded so far, waits for it, runs on the host and
 * begins the frame again. Leaves the frame recording: the caller adds its own commands and
 * submits. `host_ms` (optional) gets the host stages' milliseconds. */
bool gpu_frame_record(const GpuContext *ctx, GpuFrame *frame, const GpuChain *chain,
                      const GpuChainFrame *work, double *host_ms, GpuError *err);

/* Ends recording (if it is: not for commands submitted again) and submits; the semaphores are
 * optional (window frames). */
bool gpu_frame_submit(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                      VkPipelineStageFlags wait_stage, VkSemaphore signal, GpuError *err);

/* Blocks until the frame is done: before the host reads what it read back. */
bool gpu_frame_wait(const GpuContext *ctx, GpuFrame *frame, GpuError *err);

/* A frame that failed between its begin and its submission, made whole again as far as the device
 * lets it: a begun command buffer is ended, and a fence reset with nothing to signal it gets an
 * empty submission that waits for `wait` (optional: the image acquired) and signals it. */
void gpu_frame_abandon(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                       VkPipelineStageFlags wait_stage);

#endif
