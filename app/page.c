#include "page.h"

#include <string.h>

GpuNormalsPath app_page_normals_path(GpuNormalsPath asked, bool cpu_deform)
{
    if (asked != GPU_NORMALS_DEFAULT)
        return asked;
    /* BENCHMARKS.md: the fused kernels beat the two passes at every size on the H200 */
    return cpu_deform ? GPU_NORMALS_FUSED : GPU_NORMALS_FUSED_DEFORM;
}

bool app_page_create(const GpuContext *ctx, const AppPageDesc *desc, AppPage *out,
                     GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->cpu_deform = desc->cpu_deform;
    out->path = app_page_normals_path(desc->normals, desc->cpu_deform);
    if (!gpu_page_fits(ctx, desc->nx, desc->ny, err))
        return false;
    if (!mesh_grid_create(&(PageGridDesc){.nx = desc->nx, .ny = desc->ny}, &out->grid))
        return gpu_error_set(err, "out of memory for a %ux%u page grid", desc->nx, desc->ny);
    GpuPageDesc gdesc = {
        .nx = desc->nx,
        .ny = desc->ny,
        .u = out->grid.u,
        .v = out->grid.v,
        .indices = out->grid.indices,
        .width = out->grid.width,
        .height = out->grid.height,
        .readback = desc->readback,
        .upload = desc->cpu_deform,
    };
    if (gpu_page_create(ctx, &gdesc, &out->gpu, err) &&
        (desc->cpu_deform || gpu_deform_create(ctx, &out->gpu, &out->deform, err)) &&
        gpu_normals_create(ctx, &out->gpu, &out->normals, err) &&
        gpu_pack_create(ctx, &out->gpu, &out->pack, err) &&
        gpu_fused_create(ctx, &out->gpu, &out->fused, err))
        return true;
    app_page_destroy(ctx, out);
    return false;
}

void app_page_destroy(const GpuContext *ctx, AppPage *page)
{
    gpu_fused_destroy(ctx, &page->fused);
    gpu_pack_destroy(ctx, &page->pack);
    gpu_normals_destroy(ctx, &page->normals);
    gpu_deform_destroy(ctx, &page->deform);
    gpu_page_destroy(ctx, &page->gpu);
    mesh_grid_destroy(&page->grid);
}

void app_page_deform(AppPage *page, const CurlParams *pose, uint32_t slot)
{
    page->pose = *pose;
    if (!page->cpu_deform) {
        mesh_curl_segments(pose, gpu_page_curl_table(&page->gpu, slot));
        return;
    }
    float *x, *y, *z;
    gpu_page_staging_planes(&page->gpu, slot, &x, &y, &z);
    mesh_curl_apply(pose, page->grid.rest_x, page->grid.rest_y, page->grid.vertex_count, x, y, z);
}

GpuFrameWork app_page_work(const AppPage *page)
{
    return (GpuFrameWork){
        .page = &page->gpu,
        .deform = page->cpu_deform ? NULL : &page->deform,
        .pose = page->pose,
        .path = page->path,
        .normals = &page->normals,
        .pack = &page->pack,
        .fused = &page->fused,
    };
}
