/* The GPU frame against the CPU oracle on lavapipe, validation and synchronization validation on:
 * read back the AoS vertex buffer after upload -> tri_normals -> vertex_normals -> pack and
 * compare positions, UVs and normals with mesh/. Grid sizes include ones that are not multiples
 * of the workgroup size and a 2x2 page (a single cell). */
#include "../app/page.h"
#include "../mesh/normals.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>

/* The bound: GPU and CPU normals within a thousandth of a degree. */
#define MAX_ANGLE_DEG 1e-3

static double angle_deg(const float *a, const float *b)
{
    double c[3] = {(double)a[1] * b[2] - (double)a[2] * b[1],
                   (double)a[2] * b[0] - (double)a[0] * b[2],
                   (double)a[0] * b[1] - (double)a[1] * b[0]};
    double dot = (double)a[0] * b[0] + (double)a[1] * b[1] + (double)a[2] * b[2];
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), dot) * 180.0 / 3.14159265358979;
}

static bool run_frame(const GpuContext *ctx, AppPage *page, GpuFrame *frame, GpuError *err)
{
    if (!gpu_frame_begin(ctx, frame, err))
        return false;
    GpuFrameWork work = app_page_work(page);
    work.readback_vertices = true;
    gpu_frame_record(ctx, frame, &work);
    return gpu_frame_submit(ctx, frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err) &&
           gpu_frame_wait(ctx, frame, err);
}

static void check_grid(CheckState *s, const GpuContext *ctx, uint32_t nx, uint32_t ny)
{
    GpuError err = {0};
    AppPage page;
    GpuFrame frame;
    if (!app_page_create(ctx, nx, ny, true, &page, &err)) {
        CHECK(s, false, "page %ux%u: %s", nx, ny, err.message);
        return;
    }
    if (!gpu_frame_create(ctx, &frame, &err)) {
        CHECK(s, false, "frame: %s", err.message);
        app_page_destroy(ctx, &page);
        return;
    }
    size_t n = page.grid.vertex_count;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    float *nx_ = malloc(n * sizeof *nx_), *ny_ = malloc(n * sizeof *ny_),
          *nz_ = malloc(n * sizeof *nz_);
    const float poses[][2] = {{0.0f, 0.25f}, {0.3f, 0.0f}, {0.45f, 0.25f}, {0.6f, 0.5f},
                              {0.85f, 1.0f}, {1.0f, 0.25f}};
    for (size_t p = 0; p < sizeof poses / sizeof poses[0]; p++) {
        CurlParams pose = mesh_curl_pose(poses[p][0], poses[p][1], page.grid.width,
                                         page.grid.height);
        app_page_deform(&page, &pose);
        if (!run_frame(ctx, &page, &frame, &err)) {
            CHECK(s, false, "frame %ux%u: %s", nx, ny, err.message);
            break;
        }
        mesh_curl_apply(&pose, page.grid.rest_x, page.grid.rest_y, n, x, y, z);
        mesh_normals_seed(&page.grid, (MeshSoa3Const){x, y, z}, (MeshSoa3){nx_, ny_, nz_});
        gpu_buffer_invalidate(ctx, &page.gpu.readback);
        const float *v = page.gpu.readback.mapped;
        double worst = 0.0;
        size_t bad_pos = 0, bad_uv = 0;
        for (size_t k = 0; k < n; k++) {
            const float *vk = &v[k * PC_VERTEX_FLOATS];
            bad_pos += vk[0] != x[k] || vk[1] != y[k] || vk[2] != z[k];
            bad_uv += vk[6] != page.grid.u[k] || vk[7] != page.grid.v[k];
            float cpu[3] = {nx_[k], ny_[k], nz_[k]};
            double a = angle_deg(&vk[3], cpu);
            if (!(a <= worst)) /* NaN counts as the worst */
                worst = isnan(a) ? INFINITY : a;
        }
        CHECK(s, bad_pos == 0, "%ux%u pose %zu: %zu positions differ from the upload", nx, ny, p,
              bad_pos);
        CHECK(s, bad_uv == 0, "%ux%u pose %zu: %zu UVs differ", nx, ny, p, bad_uv);
        CHECK(s, worst <= MAX_ANGLE_DEG, "%ux%u pose %zu: GPU normal %.3g deg from the CPU's", nx,
              ny, p, worst);
        printf("grid %ux%u t=%.2f g=%.2f: max normal angle %.2e deg\n", nx, ny, poses[p][0],
               poses[p][1], worst);
    }
    free(x), free(y), free(z), free(nx_), free(ny_), free(nz_);
    gpu_frame_destroy(ctx, &frame);
    app_page_destroy(ctx, &page);
}

int main(void)
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    GpuError err = {0};
    GpuContextDesc desc = {.validation = true, .device_index = -1, .messages = &messages};
    if (!gpu_context_create(&desc, &ctx, &err)) {
        fprintf(stderr, "test_gpu_normals: %s\n", err.message);
        return 1;
    }
    printf("device: %s\n", ctx.props.deviceName);
    const uint32_t grids[][2] = {{2, 2}, {3, 7}, {64, 90}, {100, 33}, {257, 130}, {16, 16}};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
        check_grid(&s, &ctx, grids[g][0], grids[g][1]);
    gpu_context_destroy(&ctx);
    CHECK(&s, messages.errors + messages.warnings == 0, "%u validation errors, %u warnings",
          messages.errors, messages.warnings);
    return check_finish(&s, "test_gpu_normals");
}
