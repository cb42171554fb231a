/* One frame's command buffer and fence, and the order of the frame's GPU stages:
 * deform | upload -> tri_normals -> vertex_normals (+pack) | fused -> [readback] -> render, or
 * the fused_deform kernel in place of the first three. The staging pack splits the frame:
 * its compute and the SoA read back in one submission, the vertex upload and render in the next.
 * Owns the command buffer and the fence; the resources it records against belong to others. */
#ifndef PAGECURL_GPU_FRAME_H
#define PAGECURL_GPU_FRAME_H

#include "deform.h"
#include "fused.h"
#include "normals.h"
#include "renderer.h"
#include "timer.h"

typedef struct GpuFrame {
    VkCommandBuffer cmd;
    VkFence fence;
    uint32_t slot; /* which of the GPU_FRAMES_IN_FLIGHT this is: picks per-frame resources */
    bool pending;  /* submitted and not yet waited for */
} GpuFrame;

bool gpu_frame_create(const GpuContext *ctx, uint32_t slot, GpuFrame *out, GpuError *err);
void gpu_frame_destroy(const GpuContext *ctx, GpuFrame *frame);

/* The ring of frames in flight: frame number n records into frames[n % GPU_FRAMES_IN_FLIGHT]. */
bool gpu_frames_create(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT],
                       GpuError *err);
void gpu_frames_destroy(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT]);
/* Blocks until every frame in flight is done (before reading results or freeing resources). */
bool gpu_frames_wait(const GpuContext *ctx, GpuFrame frames[GPU_FRAMES_IN_FLIGHT], GpuError *err);

/* Waits until the frame's last submission is done (so its buffers may be rewritten), then
 * starts recording. */
bool gpu_frame_begin(const GpuContext *ctx, GpuFrame *frame, GpuError *err);

/* What the frame computes and draws. renderer/target/draw may be NULL: compute only. */
/* How the normals and the AoS vertices are made; 0 is the default, the fastest measured. */
typedef enum GpuNormalsPath {
    GPU_NORMALS_DEFAULT = 0,
    GPU_NORMALS_TWO_PASS,     /* tri_normals -> vertex_normals (the page's
                               * pack path says who makes the AoS vertices) */
    GPU_NORMALS_FUSED,        /* one tiled kernel from the SoA positions */
    GPU_NORMALS_FUSED_DEFORM, /* one tiled kernel that also evaluates the curl */
} GpuNormalsPath;

typedef struct GpuFrameWork {
    const GpuPage *page;
    const GpuDeform *deform; /* set: deform on the GPU at `pose`; NULL: upload the staging */
    CurlParams pose;
    GpuNormalsPath path;      /* resolved: never GPU_NORMALS_DEFAULT */
    const GpuNormals *normals; /* two-pass */
    const GpuFused *fused;     /* both fused paths */
    bool readback_vertices;
    const GpuRenderer *renderer;
    const GpuRenderTarget *target;
    const GpuDraw *draws; /* the pages to draw, the turning leaf's among them */
    uint32_t draw_count;
    GpuTimer *timer; /* optional: a timestamp at each stage boundary */
} GpuFrameWork;
void gpu_frame_record(const GpuContext *ctx, const GpuFrame *frame, const GpuFrameWork *work);
/* The staging pack's first submission: the compute of `work` for frame-in-flight `slot` up to
 * the SoA normals, then their read back (and the positions'). */
void gpu_frame_record_soa(const GpuContext *ctx, const GpuFrame *frame, uint32_t slot,
                          const GpuFrameWork *work);

/* Ends recording and submits; the semaphores are optional (window frames). */
bool gpu_frame_submit(const GpuContext *ctx, GpuFrame *frame, VkSemaphore wait,
                      VkPipelineStageFlags wait_stage, VkSemaphore signal, GpuError *err);

/* Blocks until the frame is done: before the host reads what it read back. */
bool gpu_frame_wait(const GpuContext *ctx, GpuFrame *frame, GpuError *err);

#endif
