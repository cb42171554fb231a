/* Where mesh/ meets gpu/: one page mesh, CPU side (the rest grid) and GPU side (resident buffers
 * and the kernels bound to them), created together for one grid size. Stage deform lives here:
 * the curl model of mesh/ evaluated straight into the GPU staging planes. */
#ifndef PAGECURL_APP_PAGE_H
#define PAGECURL_APP_PAGE_H

#include "../gpu/frame.h"
#include "../mesh/curl.h"
#include "../mesh/grid.h"

typedef struct AppPageDesc {
    uint32_t nx, ny;
    bool readback;   /* the vertices can be read back (OBJ export, checks) */
    bool cpu_deform; /* deform on the CPU and upload (the seed's way), not in deform.comp */
    GpuNormalsPath normals;
} AppPageDesc;

/* GPU_NORMALS_DEFAULT resolved: the fastest path the benchmark measured that the deform allows. */
GpuNormalsPath app_page_normals_path(GpuNormalsPath asked, bool cpu_deform);

typedef struct AppPage {
    PageGrid grid;
    GpuPage gpu;
    GpuDeform deform; /* empty with cpu_deform */
    GpuNormals normals;
    GpuPack pack;
    GpuFused fused;
    GpuNormalsPath path;
    bool cpu_deform;
    CurlParams pose; /* this frame's, for the GPU deform */
} AppPage;

bool app_page_create(const GpuContext *ctx, const AppPageDesc *desc, AppPage *out,
                     GpuError *err);
void app_page_destroy(const GpuContext *ctx, AppPage *page);

/* Stage deform for `pose`: on the CPU straight into the staging planes (the frame's fence must be
 * done), or kept for deform.comp to evaluate when the frame is recorded. */
void app_page_deform(AppPage *page, const CurlParams *pose, uint32_t slot);

/* The frame's compute work for this page. */
GpuFrameWork app_page_work(const AppPage *page);

#endif
