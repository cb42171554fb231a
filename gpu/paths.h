/* SPDX-License-Identifier: MIT */
/* The ways a frame's vertices can be made, as plain data (no Vulkan): one table, a row a path,
 * each row its stages in order, what it makes and what it needs. The command line and the
 * library's leaf pick a row (gpu_path_find); the chain (gpu/chain.c), the leaf's buffers
 * (gpu/leaf.c, book/leaf.c) and the frame (book/view.c) read the row, never the choices behind it;
 * the benchmark compares the rows. */
#ifndef PAGECURL_GPU_PATHS_H
#define PAGECURL_GPU_PATHS_H

#include <stdbool.h>
#include <stdint.h>

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

/* The stages by name: the benchmark's rows, its JSON keys and the HUD's lines. The first
 * GPU_STAGE_READBACK are the ones a benchmark frame can run. */
typedef enum GpuStage {
    GPU_STAGE_DEFORM,
    GPU_STAGE_UPLOAD,
    GPU_STAGE_TRI_NORMALS,
    GPU_STAGE_VERTEX_NORMALS,
    GPU_STAGE_READBACK_SOA,
    GPU_STAGE_PACK,
    GPU_STAGE_UPLOAD_VERTICES,
    GPU_STAGE_FUSED,
    GPU_STAGE_FUSED_DEFORM,
    GPU_STAGE_CHAIN, /* the stages above from one submission, timed as one span */
    GPU_STAGE_RENDER,
    GPU_STAGE_READBACK,
    GPU_STAGE_COUNT
} GpuStage;

const char *gpu_stage_name(GpuStage stage);

/* What a stage's writes must be made visible to before what follows it reads them: the chain
 * records each as its barrier (gpu/chain.c). */
typedef enum GpuStageAfter {
    GPU_AFTER_NOTHING = 0,
    GPU_AFTER_COMPUTE_TO_COMPUTE,
    GPU_AFTER_COPY_TO_COMPUTE, /* none where the host wrote in place before the submission */
    GPU_AFTER_COMPUTE_TO_DRAW,
    GPU_AFTER_WRITES_TO_COPY, /* the planes a kernel or a copy wrote -> a copy reads them */
    GPU_AFTER_COPY_TO_DRAW,   /* the vertices copied in -> the draw and the readback */
    GPU_AFTER_TO_HOST,        /* read by the host after the submission's fence */
} GpuStageAfter;

typedef struct GpuPathStage {
    GpuStage stage;
    GpuStageAfter after;
} GpuPathStage;

#define GPU_PATH_MAX_STAGES 8

/* One way to make the frame's vertices. */
typedef struct GpuPath {
    const char *name;         /* the path's flags, for lines and reports */
    const char *normals_name; /* --normals: "two-pass", "fused", "fused-deform" */
    const char *pack_name;    /* --pack: "gpu", "staging" */
    GpuNormalsPath normals;   /* never GPU_NORMALS_DEFAULT */
    GpuPackPath pack;
    /* what the CPU writes every frame, in place or through staging (--staging): the positions
     * (the deform on the CPU, stage upload), the interleaved vertices (stage upload_vertices) */
    bool cpu_deform, cpu_vertices;
    /* the vertex normals as planes, read back with the positions (stage readback_soa) */
    bool soa_normals;
    /* a stage runs on the host between two submissions: the frame submits and waits halfway,
     * so its commands are recorded every frame and a host's command buffer cannot hold it */
    bool host_stage;
    /* in order, the optional readback and render last; the kernels the chain makes are those
     * of these stages */
    uint32_t stage_count;
    GpuPathStage stages[GPU_PATH_MAX_STAGES];
} GpuPath;

/* The row for the choices (GPU_NORMALS_DEFAULT: the two passes for the staging pack, else the
 * fastest the benchmark measured that the deform allows), or NULL with `why` (optional) set to a
 * line naming the flags that do not go together: the fused-deform kernel curls the page itself
 * (no CPU deform), the staging pack finishes the two passes (no fused kernel). */
const GpuPath *gpu_path_find(GpuNormalsPath normals, GpuPackPath pack, bool cpu_deform,
                             const char **why);

/* The table's rows, for the tests: index < gpu_path_count(). */
uint32_t gpu_path_count(void);
const GpuPath *gpu_path_at(uint32_t index);

#endif
