/* Where mesh/ meets gpu/: one page mesh, CPU side (the rest grid) and GPU side (resident buffers
 * and the kernels bound to them), created together for one grid size. Stage deform lives here:
 * the curl model of mesh/ evaluated straight into the GPU staging planes. */
#ifndef PAGECURL_APP_PAGE_H
#define PAGECURL_APP_PAGE_H

#include "../gpu/frame.h"
#include "../mesh/curl.h"
#include "../mesh/grid.h"

typedef struct AppPage {
    PageGrid grid;
    GpuPage gpu;
    GpuNormals normals;
    GpuPack pack;
} AppPage;

bool app_page_create(const GpuContext *ctx, uint32_t nx, uint32_t ny, bool readback,
                     AppPage *out, GpuError *err);
void app_page_destroy(const GpuContext *ctx, AppPage *page);

/* Stage deform: the pose's positions into the staging planes (the frame's fence must be done). */
void app_page_deform(AppPage *page, const CurlParams *pose);

/* The frame's compute work for this page. */
GpuFrameWork app_page_work(const AppPage *page);

#endif
