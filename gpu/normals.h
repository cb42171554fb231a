/* The two normal passes of the seed: tri_normals (one thread per triangle, unit normal) and
 * vertex_normals (one thread per vertex, gather of <= 6 incident triangles, no atomics). Owns the
 * two kernels, bound once to a page's resident buffers. */
#ifndef PAGECURL_GPU_NORMALS_H
#define PAGECURL_GPU_NORMALS_H

#include "compute.h"
#include "page.h"
#include "timer.h"

typedef struct GpuNormals {
    GpuKernel tri, vertex;
} GpuNormals;

bool gpu_normals_create(const GpuContext *ctx, const GpuPage *page, GpuNormals *out,
                        GpuError *err);
void gpu_normals_destroy(const GpuContext *ctx, GpuNormals *normals);

/* Records both passes; positions must be uploaded (and barriered) before. With a timer, each
 * pass ends at a timestamp named after it. */
void gpu_normals_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuNormals *normals,
                        const GpuPage *page, GpuTimer *timer);

#endif
