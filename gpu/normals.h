/* SPDX-License-Identifier: MIT */
/* The two normal passes: tri_normals (one thread per grid cell, the unit normals of its two
 * triangles) and vertex_normals (one thread per vertex, a gather of <= 6 incident triangles, no
 * atomics). vertex_normals writes the AoS vertex itself (--pack gpu: the pack folded into the
 * pass), or SoA normals for the staging pack. Owns the kernels, bound to one leaf's resident
 * buffers at a time. */
#ifndef PAGECURL_GPU_NORMALS_H
#define PAGECURL_GPU_NORMALS_H

#include "compute.h"
#include "leaf.h"

typedef struct GpuNormals {
    GpuPackPath pack;
    GpuKernel tri;
    GpuKernel vertex; /* vertex_normals_pack.comp, or vertex_normals.comp for the staging pack */
} GpuNormals;

/* The kernels for leaves packed the `pack` way. */
bool gpu_normals_create(const GpuContext *ctx, GpuPackPath pack, GpuNormals *out, GpuError *err);
/* Points both kernels at `leaf`, packed the kernels' way (no frame using them may be in flight). */
void gpu_normals_bind(const GpuContext *ctx, const GpuNormals *normals, const GpuLeaf *leaf);
void gpu_normals_destroy(const GpuContext *ctx, GpuNormals *normals);

/* Records pass tri_normals' dispatch; positions must be written (and barriered) before. */
void gpu_normals_dispatch_tri(const GpuContext *ctx, VkCommandBuffer cmd, const GpuNormals *normals,
                              const GpuLeaf *leaf);
/* Records pass vertex_normals' dispatch, after tri_normals (and a barrier). */
void gpu_normals_dispatch_vertex(const GpuContext *ctx, VkCommandBuffer cmd,
                                 const GpuNormals *normals, const GpuLeaf *leaf);

#endif
