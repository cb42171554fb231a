/* SPDX-License-Identifier: MIT */
/* Where mesh/ meets gpu/: the turning leaf's mesh, CPU side (the rest grid) and GPU side (resident
 * buffers and the kernels bound to them). A new grid size replaces the grid and its buffers and
 * binds the same kernels to them: no shader is compiled again. Stage deform lives here: the curl
 * model of mesh/ evaluated straight into the GPU staging planes. */
#ifndef PAGECURL_BOOK_LEAF_H
#define PAGECURL_BOOK_LEAF_H

#include "../gpu/frame.h"
#include "../mesh/curl.h"
#include "../mesh/grid.h"

typedef struct BookLeafDesc {
    uint32_t nx, ny;
    bool readback; /* the vertices can be read back (OBJ export, checks) */
    /* the path, a row of gpu/paths.h's table (gpu_path_find): zero, the default */
    bool cpu_deform; /* deform on the CPU and upload, not in deform.comp */
    GpuNormalsPath normals;
    GpuPackPath pack; /* the staging pack needs the two-pass normals */
    GpuStaging staging;
    float aspect; /* the leaf's height / width; 0: ISO 216 */
} BookLeafDesc;

typedef struct BookLeaf {
    BookLeafDesc desc; /* as created, with the current grid size */
    MeshGrid grid;
    GpuLeaf gpu;
    const GpuPath *path; /* the row of gpu/paths.h's table the desc picked */
    GpuChain chain;      /* the frame's stages for the path, and their kernels */
    /* when its grid was made, in a monotonic clock's nanoseconds: no two grids share it, even
     * a leaf made again at the same address, so commands recorded for an earlier one (whose
     * objects' handles the driver may give out again) are never taken for this one's */
    uint64_t made;
} BookLeaf;

bool book_leaf_create(const GpuContext *ctx, const BookLeafDesc *desc, BookLeaf *out,
                      GpuError *err);
void book_leaf_destroy(const GpuContext *ctx, BookLeaf *leaf);
/* Replaces the grid with an nx x ny one, everything else as created. No frame using the leaf may
 * be in flight. On failure the leaf has no grid: destroy it. */
bool book_leaf_regrid(const GpuContext *ctx, BookLeaf *leaf, uint32_t nx, uint32_t ny,
                      GpuError *err);

/* The pose's host side, after gpu_frame_begin of the frame in `slot`: stage deform on the CPU
 * (into the staging planes, or in place: then every frame in flight must be done, which the caller
 * waits for), or the curl table deform.comp reads: `curl` where the caller worked it out already
 * (mesh_curl_segments of `pose`, before the slot was free), else worked out here. `deform_ms`
 * (optional) gets the CPU deform's milliseconds (0 on the GPU). */
void book_leaf_prepare(BookLeaf *leaf, const CurlParams *pose, const CurlSegments *curl,
                       uint32_t slot, double *deform_ms);

#endif
