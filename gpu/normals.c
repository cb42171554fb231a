#include "normals.h"

#include <string.h>

static const uint32_t tri_normals_spv[] =
#include "tri_normals.comp.inc"
    ;
static const uint32_t vertex_normals_spv[] =
#include "vertex_normals.comp.inc"
    ;

bool gpu_normals_create(const GpuContext *ctx, const GpuPage *page, GpuNormals *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    GpuKernelDesc tri = {
        .spirv = tri_normals_spv,
        .spirv_size = sizeof tri_normals_spv,
        .binding_count = 2,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_TRI_NORMALS,
        .label = "tri_normals",
    };
    GpuKernelDesc vertex = {
        .spirv = vertex_normals_spv,
        .spirv_size = sizeof vertex_normals_spv,
        .binding_count = 2,
        .push_size = sizeof(PcComputePush),
        .workgroup_size = PC_WG_VERTEX_NORMALS,
        .label = "vertex_normals",
    };
    if (!gpu_kernel_create(ctx, &tri, &out->tri, err) ||
        !gpu_kernel_create(ctx, &vertex, &out->vertex, err)) {
        gpu_normals_destroy(ctx, out);
        return false;
    }
    gpu_kernel_bind(ctx, &out->tri, (const GpuBuffer *[]){&page->positions, &page->tri_normals});
    gpu_kernel_bind(ctx, &out->vertex,
                    (const GpuBuffer *[]){&page->tri_normals, &page->vertex_normals});
    return true;
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
    gpu_kernel_dispatch(cmd, &normals->tri, &push, page->triangle_count);
    gpu_label_end(ctx, cmd);
    if (timer)
        gpu_timer_mark(timer, cmd, "tri_normals");
    /* tri_normals writes -> vertex_normals reads the triangle normals. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    gpu_label_begin(ctx, cmd, "vertex_normals");
    gpu_kernel_dispatch(cmd, &normals->vertex, &push, page->vertex_count);
    gpu_label_end(ctx, cmd);
    if (timer)
        gpu_timer_mark(timer, cmd, "vertex_normals");
    /* vertex_normals writes -> pack reads the vertex normals. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}
