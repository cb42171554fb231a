/* The staging pack (--pack staging): the frame's compute runs in a submission of its own,
 * the host waits for it, reads the SoA positions and normals back and interleaves them with the
 * UVs into AoS vertices (the page's vertex staging, or the vertex buffer in place), which the
 * frame then uploads. Owns that first submission's command buffer and fence. The host wait in
 * the middle of the frame is what --pack gpu (the default) avoids. */
#ifndef PAGECURL_GPU_PACK_H
#define PAGECURL_GPU_PACK_H

#include "frame.h"

typedef struct GpuPack {
    GpuFrame compute; /* the first submission */
} GpuPack;

bool gpu_pack_create(const GpuContext *ctx, GpuPack *out, GpuError *err);
void gpu_pack_destroy(const GpuContext *ctx, GpuPack *pack);

/* Runs `work`'s compute for frame-in-flight `slot`, waits, and writes the AoS vertices with the
 * grid's `u`, `v`. `work->timer` (optional) times the submission's stages; `pack_ms` (optional)
 * gets the CPU interleave's milliseconds. */
bool gpu_pack_run(const GpuContext *ctx, GpuPack *pack, const GpuFrameWork *work, uint32_t slot,
                  const float *u, const float *v, double *pack_ms, GpuError *err);

/* The CPU interleave alone: n SoA positions and normals (3 planes each) and UVs -> n AoS
 * vertices of PC_VERTEX_FLOATS, in the layout of shared.h. */
void gpu_pack_interleave(const float *pos, const float *nrm, const float *u, const float *v,
                         uint64_t n, float *out);

#endif
