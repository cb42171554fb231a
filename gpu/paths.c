/* SPDX-License-Identifier: MIT */
#include "paths.h"

#include <stddef.h>

const char *gpu_stage_name(GpuStage stage)
{
    static const char *const names[GPU_STAGE_COUNT] = {
        [GPU_STAGE_DEFORM] = "deform",
        [GPU_STAGE_UPLOAD] = "upload",
        [GPU_STAGE_TRI_NORMALS] = "tri_normals",
        [GPU_STAGE_VERTEX_NORMALS] = "vertex_normals",
        [GPU_STAGE_READBACK_SOA] = "readback_soa",
        [GPU_STAGE_PACK] = "pack",
        [GPU_STAGE_UPLOAD_VERTICES] = "upload_vertices",
        [GPU_STAGE_FUSED] = "fused",
        [GPU_STAGE_FUSED_DEFORM] = "fused_deform",
        [GPU_STAGE_CHAIN] = "chain",
        [GPU_STAGE_RENDER] = "render",
        [GPU_STAGE_READBACK] = "readback",
    };
    return names[stage];
}

/* The stages every path ends with, each recorded only when the frame asks for it. */
#define TAIL                                                                                       \
    {GPU_STAGE_READBACK, GPU_AFTER_TO_HOST},                                                       \
    {                                                                                              \
        GPU_STAGE_RENDER, GPU_AFTER_NOTHING                                                        \
    }
/* The positions: curled on the device, or by the CPU and copied in (upload's barrier is left
 * out in place: the host wrote them before the submission, which makes them visible). */
#define DEFORM_GPU                                                                                 \
    {                                                                                              \
        GPU_STAGE_DEFORM, GPU_AFTER_COMPUTE_TO_COMPUTE                                             \
    }
#define DEFORM_CPU                                                                                 \
    {                                                                                              \
        GPU_STAGE_UPLOAD, GPU_AFTER_COPY_TO_COMPUTE                                                \
    }
#define TWO_PASS(vertex_after)                                                                     \
    {GPU_STAGE_TRI_NORMALS, GPU_AFTER_COMPUTE_TO_COMPUTE},                                         \
    {                                                                                              \
        GPU_STAGE_VERTEX_NORMALS, vertex_after                                                     \
    }
/* Austin's staging pack: the planes read back, interleaved on the host, the vertices copied in. */
#define STAGING_PACK                                                                               \
    {GPU_STAGE_READBACK_SOA, GPU_AFTER_TO_HOST}, {GPU_STAGE_PACK, GPU_AFTER_NOTHING},              \
    {                                                                                              \
        GPU_STAGE_UPLOAD_VERTICES, GPU_AFTER_COPY_TO_DRAW                                          \
    }

/* The first row is the default: BENCHMARKS.md, the fused kernels beat the two passes at every
 * size on the H200. */
static const GpuPath PATHS[] = {
    {.name = "fused-deform",
     .normals_name = "fused-deform",
     .pack_name = "gpu",
     .normals = GPU_NORMALS_FUSED_DEFORM,
     .stage_count = 3,
     .stages = {{GPU_STAGE_FUSED_DEFORM, GPU_AFTER_COMPUTE_TO_DRAW}, TAIL}},
    {.name = "fused",
     .normals_name = "fused",
     .pack_name = "gpu",
     .normals = GPU_NORMALS_FUSED,
     .stage_count = 4,
     .stages = {DEFORM_GPU, {GPU_STAGE_FUSED, GPU_AFTER_COMPUTE_TO_DRAW}, TAIL}},
    {.name = "CPU deform, fused",
     .normals_name = "fused",
     .pack_name = "gpu",
     .normals = GPU_NORMALS_FUSED,
     .cpu_deform = true,
     .stage_count = 4,
     .stages = {DEFORM_CPU, {GPU_STAGE_FUSED, GPU_AFTER_COMPUTE_TO_DRAW}, TAIL}},
    {.name = "two-pass",
     .normals_name = "two-pass",
     .pack_name = "gpu",
     .normals = GPU_NORMALS_TWO_PASS,
     .stage_count = 5,
     .stages = {DEFORM_GPU, TWO_PASS(GPU_AFTER_COMPUTE_TO_DRAW), TAIL}},
    {.name = "CPU deform, two-pass",
     .normals_name = "two-pass",
     .pack_name = "gpu",
     .normals = GPU_NORMALS_TWO_PASS,
     .cpu_deform = true,
     .stage_count = 5,
     .stages = {DEFORM_CPU, TWO_PASS(GPU_AFTER_COMPUTE_TO_DRAW), TAIL}},
    {.name = "two-pass, staging pack",
     .normals_name = "two-pass",
     .pack_name = "staging",
     .normals = GPU_NORMALS_TWO_PASS,
     .pack = GPU_PACK_STAGING,
     .cpu_vertices = true,
     .soa_normals = true,
     .host_stage = true,
     .stage_count = 8,
     .stages = {DEFORM_GPU, TWO_PASS(GPU_AFTER_WRITES_TO_COPY), STAGING_PACK, TAIL}},
    /* Project Austin's own: everything but the normals on the CPU */
    {.name = "CPU deform, two-pass, staging pack",
     .normals_name = "two-pass",
     .pack_name = "staging",
     .normals = GPU_NORMALS_TWO_PASS,
     .pack = GPU_PACK_STAGING,
     .cpu_deform = true,
     .cpu_vertices = true,
     .soa_normals = true,
     .host_stage = true,
     .stage_count = 8,
     .stages = {DEFORM_CPU, TWO_PASS(GPU_AFTER_WRITES_TO_COPY), STAGING_PACK, TAIL}},
};

uint32_t gpu_path_count(void)
{
    return sizeof PATHS / sizeof PATHS[0];
}

const GpuPath *gpu_path_at(uint32_t index)
{
    return index < gpu_path_count() ? &PATHS[index] : NULL;
}

const GpuPath *gpu_path_find(GpuNormalsPath normals, GpuPackPath pack, bool cpu_deform,
                             const char **why)
{
    const char *none = NULL;
    if (normals == GPU_NORMALS_DEFAULT) /* the staging pack is a way to finish the two passes */
        normals = pack == GPU_PACK_STAGING ? GPU_NORMALS_TWO_PASS
                  : cpu_deform             ? GPU_NORMALS_FUSED
                                           : GPU_NORMALS_FUSED_DEFORM;
    if (normals == GPU_NORMALS_FUSED_DEFORM && cpu_deform)
        none = "--normals fused-deform curls the page on the GPU: it cannot go with --deform cpu";
    else if (pack == GPU_PACK_STAGING && normals != GPU_NORMALS_TWO_PASS)
        none = "--pack staging interleaves the two-pass normals on the CPU: it needs --normals "
               "two-pass";
    for (uint32_t i = 0; !none && i < gpu_path_count(); i++)
        if (PATHS[i].normals == normals && PATHS[i].pack == pack &&
            PATHS[i].cpu_deform == cpu_deform)
            return &PATHS[i];
    if (why)
        *why = none ? none : "no such vertex path";
    return NULL;
}
