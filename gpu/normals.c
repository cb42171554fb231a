#include "normals.h"

#include <string.h>

static const uint32_t tri_normals_spv[] =
#include "tri_normals.comp.inc"
    ;
static const uint32_t vertex_normals_spv[] =
#include "vertex_normals.comp.inc"
    ;
static const uint32_t vertex_normals_pack_spv[] =
#include "vertex_normals_pack.comp.inc"
    ;

bool gpu_normals_create(const GpuContext *ctx, GpuPackPath pack, GpuNormals *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->pack = pack;
    bool soa = pack == GPU_PACK_STAGING;
    GpuKernelDesc tri = {
        .spirv = tri_normals_spv,
        .spirv_size = sizeof tri_normals_spv,
        .binding_count = 3,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_TRI_NORMALS,
        .label = "tri_normals",
    };
    GpuKernelDesc vertex = {
        .spirv = soa ? vertex_normals_spv : vertex_normals_pack_spv,
        .spirv_size = soa ? sizeof vertex_normals_spv : sizeof vertex_normals_pack_spv,
        .binding_count = soa ? 3 : 4,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_VERTEX_NORMALS,
        .label = soa ? "vertex_normals" : "vertex_normals+pack",
    };
    if (!gpu_kernel_create(ctx, &tri, &out->tri, err) ||
        !gpu_kernel_create(ctx, &vertex, &out->vertex, err)) {
        gpu_normals_destroy(ctx, out);
        return false;
    }
    return true;
}

void gpu_normals_bind(const GpuContext *ctx, const GpuNormals *normals, const GpuPage *page)
{
    gpu_kernel_bind(
        ctx, &normals->tri,
        (const GpuBuffer *[]){&page->positions, &page->cell_normals_a, &page->cell_normals_b});
    if (normals->pack == GPU_PACK_STAGING)
        gpu_kernel_bind(ctx, &normals->vertex,
                        (const GpuBuffer *[]){&page->cell_normals_a, &page->cell_normals_b,
                                              &page->vertex_normals});
    else
        gpu_kernel_bind(ctx, &normals->vertex,
                        (const GpuBuffer *[]){&page->cell_normals_a, &page->cell_normals_b,
                                              &page->positions, &page->vertices});
}

void gpu_normals_destroy(const GpuContext *ctx, GpuNormals *normals)
{
    gpu_kernel_destroy(ctx, &normals->vertex);
    gpu_kernel_destroy(ctx, &normals->tri);
}

void gpu_normals_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuNormals *normals,
                        const GpuPage *page, GpuTimer *timer)
{
    PcComputePush push = gpu_page_push(page);
    gpu_label_begin(ctx, cmd, "tri_normals");
    gpu_kernel_dispatch(cmd, &normals->tri, &push, page->triangle_count / 2);
    gpu_label_end(ctx, cmd);
    if (timer)
        gpu_timer_mark(timer, cmd, "tri_normals");
    /* tri_normals writes -> vertex_normals reads the cell normals. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    gpu_label_begin(ctx, cmd,
                    page->pack == GPU_PACK_STAGING ? "vertex_normals" : "vertex_normals+pack");
    gpu_kernel_dispatch(cmd, &normals->vertex, &push, page->vertex_count);
    gpu_label_end(ctx, cmd);
    if (timer)
        gpu_timer_mark(timer, cmd, "vertex_normals");
    if (page->pack == GPU_PACK_STAGING)
        return; /* gpu_page_record_soa_readback orders its copies after the pass */
    /* vertex_normals writes the AoS vertices -> the draw fetches them. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
}
