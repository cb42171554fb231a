/* SPDX-License-Identifier: MIT */
/* The ways a frame's vertices can be made, as plain data (no Vulkan): the command line picks
 * them, the benchmark compares them, the leaf's mesh and the compute chain are built by them. */
#ifndef PAGECURL_GPU_PATHS_H
#define PAGECURL_GPU_PATHS_H

/* Where CPU-written data (the CPU deform's positions, the staging pack's vertices) goes. */
typedef enum GpuStaging {
    GPU_STAGING_AUTO = 0, /* in place where the device has memory both device-local and
                           * host-visible with room for it, else through staging */
    GPU_STAGING_ALWAYS,   /* through a host-visible staging buffer and a copy */
    GPU_STAGING_NEVER,    /* in place; a device without such memory is refused */
} GpuStaging;

typedef enum GpuPackPath {
    GPU_PACK_GPU = 0, /* vertex_normals writes the AoS vertex itself */
    GPU_PACK_STAGING, /* SoA read back, interleaved on the CPU, uploaded */
} GpuPackPath;

/* How the normals and the AoS vertices are made; 0 is the default, the fastest measured. */
typedef enum GpuNormalsPath {
    GPU_NORMALS_DEFAULT = 0,
    GPU_NORMALS_TWO_PASS,     /* tri_normals -> vertex_normals (the leaf's pack path says who
                               * makes the AoS vertices) */
    GPU_NORMALS_FUSED,        /* one tiled kernel from the SoA positions */
    GPU_NORMALS_FUSED_DEFORM, /* one tiled kernel that also evaluates the curl */
} GpuNormalsPath;

#endif
