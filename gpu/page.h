/* The page's buffers, resident on the GPU for as long as the mesh size stays the same: SoA
 * positions (filled through a staging buffer), SoA triangle and vertex normals, UVs and indices
 * (uploaded once) and the AoS vertex buffer the renderer draws. Knows sizes and limits; the
 * kernels that fill these buffers live in normals.c and pack.c. */
#ifndef PAGECURL_GPU_PAGE_H
#define PAGECURL_GPU_PAGE_H

#include "../shaders/shared.h"
#include "buffer.h"

typedef struct GpuPageDesc {
    uint32_t nx, ny;
    float width, height;       /* the page the rest grid spans (the GPU deform rebuilds it) */
    const float *u, *v;        /* nx*ny each */
    const uint32_t *indices;   /* 3 per triangle, 2(nx-1)(ny-1) triangles */
    bool readback;             /* keep a host copy of the vertices possible (OBJ, tests) */
    bool upload;               /* positions come from the CPU through the staging buffer */
} GpuPageDesc;

typedef struct GpuPage {
    uint32_t nx, ny;
    float width, height;
    uint64_t vertex_count, triangle_count;
    /* host-visible x, y, z planes where the CPU deform writes, one per frame in flight so the
     * CPU never overwrites what the GPU may still copy; only with desc.upload */
    GpuBuffer staging[GPU_FRAMES_IN_FLIGHT];
    GpuBuffer positions;      /* x, y, z planes */
    GpuBuffer tri_normals;    /* x, y, z planes of triangle_count */
    GpuBuffer vertex_normals; /* x, y, z planes */
    GpuBuffer uvs;            /* u, v planes */
    GpuBuffer vertices;       /* AoS, PC_VERTEX_FLOATS floats per vertex */
    GpuBuffer indices;
    GpuBuffer readback;       /* host copy of `vertices`; only when asked for */
    /* host-visible: one CurlSegments per frame in flight, written by the CPU for the GPU
     * deform (the pose's profile, computed once per frame) */
    GpuBuffer curl_tables;
} GpuPage;

/* False, with a line naming the limit, when an nx x ny page does not fit the device. Checked
 * before anything is allocated. */
bool gpu_page_fits(const GpuContext *ctx, uint32_t nx, uint32_t ny, GpuError *err);

/* Fails with a line naming the limit when the grid does not fit the device. */
bool gpu_page_create(const GpuContext *ctx, const GpuPageDesc *desc, GpuPage *out, GpuError *err);
void gpu_page_destroy(const GpuContext *ctx, GpuPage *page);

/* Where the CPU writes the CurlSegments of the frame in `slot`. */
CurlSegments *gpu_page_curl_table(const GpuPage *page, uint32_t slot);

/* The compute passes' push constants for this page. */
PcComputePush gpu_page_push(const GpuPage *page);
/* The deforming kernels' push constants: the page, `pose`, and the CurlSegments of `slot`. */
PcDeformPush gpu_page_deform_push(const GpuPage *page, const CurlParams *pose, uint32_t slot);

/* The staging planes the CPU writes the positions of the frame in `slot` into. */
void gpu_page_staging_planes(const GpuPage *page, uint32_t slot, float **x, float **y, float **z);

/* Orders this frame's first write of the resident buffers after the previous frame's uses. */
void gpu_page_record_frame_start(VkCommandBuffer cmd);

/* Stage `upload`: staging -> resident positions, ordered after the previous frame's readers. */
void gpu_page_record_upload(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPage *page,
                            uint32_t slot);
/* Stage `readback`: the AoS vertex buffer -> `readback` (after pack, before the fence). */
void gpu_page_record_readback(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPage *page);

#endif
