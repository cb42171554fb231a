#include "page.h"

#include <string.h>
#include <time.h>

GpuNormalsPath app_page_normals_path(GpuNormalsPath asked, bool cpu_deform)
{
    if (asked != GPU_NORMALS_DEFAULT)
        return asked;
    /* BENCHMARKS.md: the fused kernels beat the two passes at every size on the H200 */
    return cpu_deform ? GPU_NORMALS_FUSED : GPU_NORMALS_FUSED_DEFORM;
}

bool app_page_create(const GpuContext *ctx, const AppPageDesc *desc, AppPage *out, GpuError *err)
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
        .indices = out->grid.indices,
        .width = out->grid.width,
        .height = out->grid.height,
        .readback = desc->readback,
        .upload = desc->cpu_deform,
        .pack = out->path == GPU_NORMALS_TWO_PASS ? desc->pack : GPU_PACK_GPU,
        .staging = desc->staging,
    };
    bool staging_pack = gdesc.pack == GPU_PACK_STAGING;
    if (gpu_page_create(ctx, &gdesc, &out->gpu, err) &&
        (desc->cpu_deform || gpu_deform_create(ctx, &out->gpu, &out->deform, err)) &&
        gpu_normals_create(ctx, &out->gpu, &out->normals, err) &&
        (!staging_pack ||
         (gpu_pack_create(ctx, &out->pack, err) && gpu_timer_create(ctx, &out->pack_timer, err))) &&
        gpu_fused_create(ctx, &out->gpu, &out->fused, err))
        return true;
    app_page_destroy(ctx, out);
    return false;
}

void app_page_destroy(const GpuContext *ctx, AppPage *page)
{
    gpu_fused_destroy(ctx, &page->fused);
    gpu_timer_destroy(ctx, &page->pack_timer);
    gpu_pack_destroy(ctx, &page->pack);
    gpu_normals_destroy(ctx, &page->normals);
    gpu_deform_destroy(ctx, &page->deform);
    gpu_page_destroy(ctx, &page->gpu);
    mesh_grid_destroy(&page->grid);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
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
        double t0 = now_ms();
        mesh_curl_apply(pose, page->grid.rest_x, page->grid.rest_y, page->grid.vertex_count, x, y,
                        z);
        spent.deform = now_ms() - t0;
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
