/* SPDX-License-Identifier: MIT */
/* Splitting an index range across the CPU's cores, for the per-vertex loops that run on the CPU
 * when there is no GPU to do them (the CPU deform). Each index is computed by
 * the same code whichever thread takes it, so the results do not depend on the split. */
#ifndef PAGECURL_MESH_PARALLEL_H
#define PAGECURL_MESH_PARALLEL_H

#include <stddef.h>

/* Below this many items a loop stays on the calling thread: starting a thread costs tens of
 * microseconds, which a small grid's whole loop does not. */
#define MESH_PARALLEL_MIN_ITEMS 32768u

/* At most this many threads in all, the caller's included. */
#define MESH_PARALLEL_MAX_THREADS 16u

typedef void (*MeshRangeFn)(void *ctx, size_t begin, size_t end);

/* The threads a loop may use: the online cores, 1..MESH_PARALLEL_MAX_THREADS. */
unsigned mesh_parallel_threads(void);

/* Calls fn on contiguous ranges covering [0, n), on up to `threads` threads (the caller's
 * included), each range at least MESH_PARALLEL_MIN_ITEMS long; returns when all are done. A
 * thread that cannot be started leaves its range to the caller, so the loop always completes. */
void mesh_parallel_for(size_t n, unsigned threads, MeshRangeFn fn, void *ctx);

/* Calls fn(ctx, i) once for each task i in [0, n), on up to `threads` threads (the caller's
 * included), each thread taking the next task not yet taken: for tasks of uneven cost (the bands
 * of a page, some under much ink and some under none). Returns when all are done; a thread that
 * cannot be started leaves the tasks to the others. */
typedef void (*MeshTaskFn)(void *ctx, size_t task);
void mesh_parallel_tasks(size_t n, unsigned threads, MeshTaskFn fn, void *ctx);

#endif
