#include "fused.h"

#include <string.h>

static const uint32_t fused_spv[] =
#include "fused.comp.inc"
    ;
static const uint32_t fused_deform_spv[] =
#include "fused_deform.comp.inc"
    ;
static const uint32_t fused_deform_small_spv[] =
#include "fused_deform_small.comp.inc"
    ;

bool gpu_fused_create(const GpuContext *ctx, GpuFused *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    GpuKernelDesc fused = {
        .spirv = fused_spv,
        .spirv_size = sizeof fused_spv,
        .binding_count = 2,
        .push_size = sizeof(PcDeformPush),
        .workgroup_size = PC_TILE_W * PC_TILE_H,
        .label = "fused",
    };
    GpuKernelDesc fused_deform = fused;
    fused_deform.spirv = fused_deform_spv;
    fused_deform.spirv_size = sizeof fused_deform_spv;
    fused_deform.binding_count = 2;
    fused_deform.uniform_mask = 1u << 1; /* the curl tables */
    fused_deform.label = "fused_deform";
    GpuKernelDesc small = fused_deform;
    small.spirv = fused_deform_small_spv;
    small.spirv_size = sizeof fused_deform_small_spv;
    small.workgroup_size = PC_SMALL_TILE_W * PC_SMALL_TILE_H;
    small.label = "fused_deform (small tile)";
    if (!gpu_kernel_create(ctx, &fused, &out->fused, err) ||
        !gpu_kernel_create(ctx, &fused_deform, &out->fused_deform, err) ||
        !gpu_kernel_create(ctx, &small, &out->fused_deform_small, err)) {
        gpu_fused_destroy(ctx, out);
        return false;
    }
    return true;
}

void gpu_fused_bind(const GpuContext *ctx, const GpuFused *fused, const GpuPage *page)
{
    gpu_kernel_bind(ctx, &fused->fused, (const GpuBuffer *[]){&page->vertices, &page->positions});
    gpu_kernel_bind(ctx, &fused->fused_deform,
                    (const GpuBuffer *[]){&page->vertices, &page->curl_tables});
    gpu_kernel_bind(ctx, &fused->fused_deform_small,
                    (const GpuBuffer *[]){&page->vertices, &page->curl_tables});
}

static bool small_page(const GpuPage *page)
{
    return page->vertex_count <= PC_SMALL_PAGE_VERTICES;
}

const GpuKernel *gpu_fused_deform_kernel(const GpuFused *fused, const GpuPage *page)
{
    return small_page(page) ? &fused->fused_deform_small : &fused->fused_deform;
}

void gpu_fused_destroy(const GpuContext *ctx, GpuFused *fused)
{
    gpu_kernel_destroy(ctx, &fused->fused_deform_small);
    gpu_kernel_destroy(ctx, &fused->fused_deform);
    gpu_kernel_destroy(ctx, &fused->fused);
}

static void dispatch(const GpuContext *ctx, VkCommandBuffer cmd, const GpuKernel *kernel,
                     const GpuPage *page, const PcDeformPush *push, const char *label,
                     uint32_t tile_w, uint32_t tile_h)
{
    gpu_label_begin(ctx, cmd, label);
    gpu_kernel_dispatch_tiles(cmd, kernel, push, page->nx, page->ny, tile_w, tile_h);
    gpu_label_end(ctx, cmd);
    /* the kernel writes the AoS vertices -> the draw fetches them. */
    gpu_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);
}

void gpu_fused_record(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                      const GpuPage *page)
{
    PcDeformPush push = {.grid = gpu_page_push(page)};
    dispatch(ctx, cmd, &fused->fused, page, &push, "fused", PC_TILE_W, PC_TILE_H * PC_TILE_ROWS);
}

void gpu_fused_record_deform(const GpuContext *ctx, VkCommandBuffer cmd, const GpuFused *fused,
                             const GpuPage *page, const CurlParams *pose, uint32_t slot)
{
    PcDeformPush push = gpu_page_deform_push(page, pose, slot);
    gpu_page_record_frame_start(cmd);
    bool small = small_page(page);
    dispatch(ctx, cmd, gpu_fused_deform_kernel(fused, page), page, &push, "fused_deform",
             small ? PC_SMALL_TILE_W : PC_TILE_W,
             small ? PC_SMALL_TILE_H * PC_SMALL_TILE_ROWS : PC_TILE_H * PC_TILE_ROWS);
}
