/* SPDX-License-Identifier: MIT */
/* Device timestamps around the frame's stages: one query pool, a timestamp written at each stage
 * boundary, read back after the frame's fence and turned into milliseconds. Owns the pool. */
#ifndef PAGECURL_GPU_TIMER_H
#define PAGECURL_GPU_TIMER_H

#include "context.h"

#include <time.h>

/* Boundaries 0..GPU_TIMER_MAX-1; a frame uses as many as it has stages plus one. */
#define GPU_TIMER_MAX 16

typedef struct GpuTimer {
    VkQueryPool pool;
    double ns_per_tick;
    uint64_t valid_mask;              /* timestampValidBits as a mask */
    uint32_t written;                 /* boundaries recorded in the current frame */
    const char *names[GPU_TIMER_MAX]; /* stage that ends at boundary i (i >= 1), NULL: a gap */
    uint32_t tags[GPU_TIMER_MAX];     /* the caller's number for that stage */
} GpuTimer;

/* One stage's time, from gpu_timer_read. */
typedef struct GpuTimerStage {
    double ms;
    uint32_t tag;
    const char *name;
} GpuTimerStage;

/* False (with the reason) when the queue cannot time (timestampValidBits = 0). */
bool gpu_timer_create(const GpuContext *ctx, GpuTimer *out, GpuError *err);
void gpu_timer_destroy(const GpuContext *ctx, GpuTimer *timer);

/* Starts a frame's timings: resets the pool and writes boundary 0. */
void gpu_timer_begin(const GpuContext *ctx, GpuTimer *timer, VkCommandBuffer cmd);
/* Ends the stage `name` (the caller's `tag`) at a new boundary: after everything recorded so
 * far. A NULL name ends a gap that is not timed (the host's work between two submissions). */
void gpu_timer_mark(const GpuContext *ctx, GpuTimer *timer, VkCommandBuffer cmd, uint32_t tag,
                    const char *name);

/* After the fence: each stage's time, in mark order, gaps left out; returns how many. */
uint32_t gpu_timer_read(const GpuContext *ctx, const GpuTimer *timer,
                        GpuTimerStage out[GPU_TIMER_MAX]);

/* The host's side of the same measurements: `clock` (CLOCK_MONOTONIC for wall time,
 * CLOCK_THREAD_CPUTIME_ID for this thread's CPU time) in milliseconds. */
double gpu_clock_ms(clockid_t clock);

#endif
