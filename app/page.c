#include "page.h"

#include "../gpu/timer.h"

#include <string.h>
#include <time.h>

GpuNormalsPath app_page_normals_path(GpuNormalsPath asked, bool cpu_deform)
{
    if (asked != GPU_NORMALS_DEFAULT)
        return asked;
    /* BENCHMARKS.md: the fused kernels beat the two passes at every size on the H200 */
    return cpu_deform ? GPU_NORMALS_FUSED : GPU_NORMALS_FUSED_DEFORM;
}

/* The page's grid for the size in `page->desc`, CPU and GPU side. */
static bool grid_create(const GpuContext *ctx, AppPage *page, GpuError *err)
{
    const AppPageDesc *desc = &page->desc;
    if (!gpu_page_fits(ctx, desc->nx, desc->ny, err))
        return false;
    float height = desc->aspect > 0.0f ? desc->aspect * MESH_PAGE_WIDTH : 0.0f;
    if (!mesh_grid_create(&(PageGridDesc){.nx = desc->nx, .ny = desc->ny, .height = height},
                          &page->grid))
        return gpu_error_set(err, "out of memory for a %ux%u page grid", desc->nx, desc->ny);
    GpuPageDesc gdesc = {
        .nx = desc->nx,
        .ny = desc->ny,
        .indices = page->grid.indices,
        .width = page->grid.width,
        .height = page->grid.height,
        .readback = desc->readback,
        .upload = desc->cpu_deform,
        .pack = page->path == GPU_NORMALS_TWO_PASS ? desc->pack : GPU_PACK_GPU,
        .staging = desc->staging,
    };
    return gpu_page_create(ctx, &gdesc, &page->gpu, err);
}

static void grid_destroy(const GpuContext *ctx, AppPage *page)
{
    gpu_page_destroy(ctx, &page->gpu);
    mesh_grid_destroy(&page->grid);
}

static void kernels_bind(const GpuContext *ctx, const AppPage *page)
{
    if (!page->cpu_deform)
        gpu_deform_bind(ctx, &page->deform, &page->gpu);
    gpu_normals_bind(ctx, &page->normals, &page->gpu);
    gpu_fused_bind(ctx, &page->fused, &page->gpu);
}

bool app_page_create(const GpuContext *ctx, const AppPageDesc *desc, AppPage *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    out->desc = *desc;
    out->cpu_deform = desc->cpu_deform;
    out->path = app_page_normals_path(desc->normals, desc->cpu_deform);
    if (!grid_create(ctx, out, err)) {
        app_page_destroy(ctx, out);
        return false;
    }
    bool staging_pack = out->gpu.pack == GPU_PACK_STAGING;
    if ((desc->cpu_deform || gpu_deform_create(ctx, &out->deform, err)) &&
        gpu_normals_create(ctx, out->gpu.pack, &out->normals, err) &&
        (!staging_pack ||
         (gpu_pack_create(ctx, &out->pack, err) && gpu_timer_create(ctx, &out->pack_timer, err))) &&
        gpu_fused_create(ctx, &out->fused, err)) {
        kernels_bind(ctx, out);
        return true;
    }
    app_page_destroy(ctx, out);
    return false;
}

bool app_page_regrid(const GpuContext *ctx, AppPage *page, uint32_t nx, uint32_t ny, GpuError *err)
{
    /* The old grid goes first: the new one's allocations can reuse its memory, and a grid near
     * the device's limits never needs two of itself at once. */
    grid_destroy(ctx, page);
    page->desc.nx = nx;
    page->desc.ny = ny;
    if (!grid_create(ctx, page, err))
        return false;
    kernels_bind(ctx, page);
    return true;
}

void app_page_destroy(const GpuContext *ctx, AppPage *page)
{
    gpu_fused_destroy(ctx, &page->fused);
    gpu_timer_destroy(ctx, &page->pack_timer);
    gpu_pack_destroy(ctx, &page->pack);
    gpu_normals_destroy(ctx, &page->normals);
    gpu_deform_destroy(ctx, &page->deform);
    grid_destroy(ctx, page);
}

bool app_page_prepare(const GpuContext *ctx, AppPage *page, const CurlParams *pose,
                      GpuFrame frames[GPU_FRAMES_IN_FLIGHT], uint32_t slot, AppPageTimes *times,
                      GpuError *err)
{
    AppPageTimes spent = {0};
    page->pose = *pose;
    if (!page->cpu_deform) {
        mesh_curl_segments(pose, gpu_page_curl_table(&page->gpu, slot));
    } else {
        /* in place, the planes are the ones every frame in flight reads */
        if (page->gpu.in_place && !gpu_frames_wait(ctx, frames, err))
            return false;
        float *x, *y, *z;
        gpu_page_position_planes(&page->gpu, slot, &x, &y, &z);
        double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
        mesh_curl_apply(pose, page->grid.rest_x, page->grid.rest_y, page->grid.vertex_count, x, y,
                        z);
        spent.deform = gpu_clock_ms(CLOCK_MONOTONIC) - t0;
    }
    if (page->gpu.pack == GPU_PACK_STAGING) {
        GpuFrameWork work = app_page_work(page);
        work.timer = &page->pack_timer;
        if (!gpu_pack_run(ctx, &page->pack, &work, slot, page->grid.u, page->grid.v, &spent.pack,
                          err))
            return false;
    }
    if (times)
        *times = spent;
    return true;
}

GpuFrameWork app_page_work(const AppPage *page)
{
    return (GpuFrameWork){
        .page = &page->gpu,
        .deform = page->cpu_deform ? NULL : &page->deform,
        .pose = page->pose,
        .path = page->path,
        .normals = &page->normals,
        .fused = &page->fused,
    };
}
