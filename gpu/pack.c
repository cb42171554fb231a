#include "pack.h"

#include <string.h>

static const uint32_t pack_spv[] =
#include "pack.comp.inc"
    ;

bool gpu_pack_create(const GpuContext *ctx, const GpuPage *page, GpuPack *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    GpuKernelDesc desc = {
        .spirv = pack_spv,
        .spirv_size = sizeof pack_spv,
        .binding_count = 4,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_PACK,
        .label = "pack",
    };
    if (!gpu_kernel_create(ctx, &desc, &out->kernel, err))
        return false;
    gpu_kernel_bind(ctx, &out->kernel,
                    (const GpuBuffer *[]){&page->positions, &page->vertex_normals, &page->uvs,
                                          &page->vertices});
    return true;
}

void gpu_pack_destroy(const GpuContext *ctx, GpuPack *pack)
{
    gpu_kernel_destroy(ctx, &pack->kernel);
}

void gpu_pack_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuPack *pack,
                     const GpuPage *page)
{
    PcComputePush push = gpu_page_push(page);
    gpu_label_begin(ctx, cmd, "pack");
    gpu_kernel_dispatch(cmd, &pack->kernel, &push, page->vertex_count);
    gpu_label_end(ctx, cmd);
    /* pack writes the AoS vertices -> the draw fetches them. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
}
