/* SPDX-License-Identifier: MIT */
/* The turning leaf's buffers, resident on the GPU for as long as the mesh size stays the same: SoA
 * positions (from deform.comp, or the CPU through staging or in place), the triangle normals per
 * cell, indices (uploaded once), the AoS vertex buffer the renderer draws, and what the
 * staging pack reads back and uploads. Knows sizes, limits and where the CPU writes; the kernels
 * that fill these buffers live in deform.c, normals.c and fused.c. */
#ifndef PAGECURL_GPU_LEAF_H
#define PAGECURL_GPU_LEAF_H

#include "../shaders/shared.h"
#include "buffer.h"
#include "paths.h"

typedef struct GpuLeafDesc {
    uint32_t nx, ny;
    float width, height;     /* the leaf the rest grid spans (the GPU deform rebuilds it) */
    const uint32_t *indices; /* 3 per triangle, 2(nx-1)(ny-1) triangles */
    /* a coarser mesh of the same vertices, for the low tier's shadow pass (none: 0), and the same
     * triangles with their neighbours (6 indices each, or none: NULL; mesh/grid.h) */
    const uint32_t *shadow_indices;
    size_t shadow_index_count;
    const uint32_t *shadow_adjacency;
    bool readback;       /* keep a host copy of the vertices possible (OBJ, tests) */
    const GpuPath *path; /* what the CPU writes, and the staging pack's buffers */
    GpuStaging staging;
} GpuLeafDesc;

/* One frame in flight's part of the leaf, made and destroyed with the leaf (its objects' sizes are
 * the grid's): frame slot k writes only slots[k], so the CPU never overwrites what a frame still
 * in flight may copy. */
typedef struct GpuLeafSlot {
    /* host-visible x, y, z planes where the CPU deform writes; only where the path deforms on
     * the CPU, not in place */
    GpuBuffer positions_staging;
    /* the AoS vertices the staging pack interleaves; only where the path has the CPU write
     * them, not in place */
    GpuBuffer vertex_staging;
    /* the slot's CurlSegments, written by the CPU for the GPU deform (the pose's profile, once a
     * frame): its element of the leaf's `curl_tables`, which the kernels index by the slot */
    CurlSegments *curl_table;
} GpuLeafSlot;

typedef struct GpuLeaf {
    uint32_t nx, ny;
    float width, height;
    uint64_t vertex_count, triangle_count;
    /* the CPU writes positions / vertices straight into the resident buffers (GPU_MEMORY_SHARED)
     * rather than through staging; only where the path has the CPU write them */
    bool in_place;
    GpuBuffer positions;      /* x, y, z planes */
    GpuBuffer cell_normals_a; /* per cell: vec4 (n0.xyz, n1.x), shared.h */
    GpuBuffer cell_normals_b; /* per cell: vec2 (n1.yz) */
    GpuBuffer vertex_normals; /* x, y, z planes; only for the staging pack */
    GpuBuffer vertices;       /* AoS, PC_VERTEX_FLOATS floats per vertex */
    /* the grid's, then the shadow pass's coarser mesh's, then those triangles with adjacency */
    GpuBuffer indices;
    uint32_t shadow_first_index, shadow_index_count;
    uint32_t shadow_adjacency_first; /* 0: none; 2 shadow_index_count indices */
    GpuBuffer readback;              /* host copy of `vertices`; only when asked for */
    /* the staging pack: positions and vertex normals read back (6 planes) */
    GpuBuffer soa_readback;
    /* host-visible: one CurlSegments per frame in flight (GpuLeafSlot.curl_table), one uniform
     * buffer that a single descriptor binds for every slot */
    GpuBuffer curl_tables;
    GpuLeafSlot slots[GPU_FRAMES_IN_FLIGHT];
} GpuLeaf;

/* False, with a line naming the limit, when an nx x ny leaf does not fit the device. Checked
 * before anything is allocated. */
bool gpu_leaf_fits(const GpuContext *ctx, uint32_t nx, uint32_t ny, GpuError *err);

/* Fails with a line naming the limit when the grid does not fit the device. */
bool gpu_leaf_create(const GpuContext *ctx, const GpuLeafDesc *desc, GpuLeaf *out, GpuError *err);
void gpu_leaf_destroy(const GpuContext *ctx, GpuLeaf *leaf);

/* Where the CPU writes the CurlSegments of the frame in `slot`. */
CurlSegments *gpu_leaf_curl_table(const GpuLeaf *leaf, uint32_t slot);

/* The compute passes' push constants for this leaf. */
PcComputePush gpu_leaf_push(const GpuLeaf *leaf);
/* The deforming kernels' push constants: the leaf's size and the CurlSegments (with the pose) of
 * `slot`, which book_leaf_prepare wrote. */
PcDeformPush gpu_leaf_deform_push(const GpuLeaf *leaf, uint32_t slot);

/* Where the CPU writes the positions of the frame in `slot`: its staging planes, or the resident
 * planes themselves when in place (then no frame in flight may still read them). */
void gpu_leaf_position_planes(const GpuLeaf *leaf, uint32_t slot, float **x, float **y, float **z);
/* Where the staging pack writes the AoS vertices of the frame in `slot` (same rule). */
float *gpu_leaf_vertex_target(const GpuLeaf *leaf, uint32_t slot);

/* The copies of the chain's stages (gpu/chain.c records their labels and barriers). */
/* Stage upload: staging -> resident positions; in place, nothing (the host wrote them). */
void gpu_leaf_record_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf,
                            uint32_t slot);
/* Stage readback_soa: positions and vertex normals -> `soa_readback`. */
void gpu_leaf_record_soa_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf);
/* Stage upload_vertices: the CPU's AoS vertices of `slot` -> the vertex buffer (in place,
 * nothing). */
void gpu_leaf_record_vertex_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf,
                                   uint32_t slot);
/* Stage readback: the AoS vertex buffer -> `readback`, after whichever stage wrote it. */
void gpu_leaf_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuLeaf *leaf);

#endif
