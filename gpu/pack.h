/* Stage pack: SoA positions, vertex normals and UVs into the AoS vertex buffer the renderer
 * draws from. Owns the pack kernel, bound once to a page's buffers. */
#ifndef PAGECURL_GPU_PACK_H
#define PAGECURL_GPU_PACK_H

#include "compute.h"
#include "page.h"

typedef struct GpuPack {
    GpuKernel kernel;
} GpuPack;

bool gpu_pack_create(const GpuContext *ctx, const GpuPage *page, GpuPack *out, GpuError *err);
void gpu_pack_destroy(const GpuContext *ctx, GpuPack *pack);

/* Records the pack and makes its output ready for vertex fetch and copies. */
void gpu_pack_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPack *pack,
                     const GpuPage *page);

#endif
