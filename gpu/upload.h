/* SPDX-License-Identifier: MIT */
/* Uploads submitted without waiting for them: a ring of staging buffers, each with its command
 * buffer and fence, taken by an upload once the device has finished the one that used it last
 * (its fence has signalled), and made only while none is free: a book's first frames make what
 * its steady state needs, and then streaming pages in neither allocates memory nor waits for the
 * queue. What an upload's commands use besides its staging (the show-through pass's views and
 * sets) is kept with it and destroyed once its fence has signalled: deleted when no command can
 * use it any more, not after an idle. Owns the buffers, command buffers, fences and passes. */
#ifndef PAGECURL_GPU_UPLOAD_H
#define PAGECURL_GPU_UPLOAD_H

#include "buffer.h"
#include "show_through.h"

/* Uploads in flight at most: beyond it an upload waits for the oldest (counted as a submission
 * waited for: gpu/context.h's GpuCounters). */
#define GPU_UPLOADS_MAX 8
/* Staging bytes a ring keeps at most, while it has GPU_UPLOADS_MIN uploads: on a CPU device its
 * staging is resident memory, and eight 1920x1080 pages' staging (66 MB) is more than the pages
 * the reader sees; a burst beyond it (a book opening, thumbing) waits for the oldest instead. */
#define GPU_UPLOADS_BYTES (32u << 20)
#define GPU_UPLOADS_MIN   3

typedef struct GpuUpload {
    GpuBuffer staging;       /* mapped: the CPU writes it once taken */
    VkCommandBuffer cmd;     /* recorded afresh for each upload */
    VkFence fence;           /* signalled by the upload's submission */
    bool busy;               /* submitted, its fence not yet seen signalled */
    uint64_t serial;         /* submission order: the oldest is waited for when all are busy */
    GpuShowThroughPass pass; /* what its commands read and write through; none: pool 0 */
} GpuUpload;

typedef struct GpuUploads {
    GpuUpload ring[GPU_UPLOADS_MAX];
    uint32_t count;     /* made so far */
    uint32_t max;       /* made at most: GPU_UPLOADS_MAX, fewer for large staging buffers */
    VkDeviceSize size;  /* every staging buffer's bytes: the largest upload it takes */
    const char *label;  /* its objects' debug names */
    uint64_t submitted; /* uploads so far */
} GpuUploads;

/* A ring whose staging buffers hold `size` bytes; nothing is made until the first upload. */
void gpu_uploads_init(GpuUploads *ups, VkDeviceSize size, const char *label);
/* Waits for the uploads in flight, then destroys what the ring made. */
void gpu_uploads_destroy(const GpuContext *ctx, GpuUploads *ups);

/* Makes uploads until the ring has `n` (at most GPU_UPLOADS_MAX): those a texture's every frame
 * may take at once (a detail for each slot), made with it rather than by a frame that needs them
 * all. */
bool gpu_uploads_reserve(const GpuContext *ctx, GpuUploads *ups, uint32_t n, GpuError *err);

/* A free upload (its staging mapped for the CPU to write, its pass none): one whose fence has
 * signalled, else one made while the ring has room, else the oldest, waited for. */
bool gpu_uploads_take(const GpuContext *ctx, GpuUploads *ups, GpuUpload **out, GpuError *err);

/* Records `record` into the taken upload's command buffer and submits it on the context's
 * queue, fenced, without waiting: what is submitted after it (the frames) sees what it wrote
 * where its commands' barriers say so. On failure the upload is free again. */
bool gpu_uploads_submit(const GpuContext *ctx, GpuUploads *ups, GpuUpload *up, GpuRecordFn record,
                        void *user, GpuError *err);

#endif
