/* SPDX-License-Identifier: MIT */
/* The compute layer (gpu/compute.h, the helper the leaf's kernels are dispatched with) on the
 * examples of the C++ AMP overview, on lavapipe with validation: a vector add, a multiply in
 * place, and the 2x2 tile average that uses tile_static memory and a tile barrier. */
#include "../gpu/compute.h"
#include "../shaders/shared.h"
#include "check.h"

#include <string.h>

static const uint32_t add_spv[] =
#include "amp_add.comp.inc"
    ;
static const uint32_t scale_spv[] =
#include "amp_scale.comp.inc"
    ;
static const uint32_t tile_spv[] =
#include "amp_tile_average.comp.inc"
    ;

#define MAX_BUFFERS 3

typedef struct Job {
    const GpuKernel *kernel;
    PcAmpPush push;
    bool tiled; /* 2-D dispatch of PC_AMP_TILE tiles over cols x rows */
} Job;

static void record(const GpuContext *ctx, void *user, VkCommandBuffer cmd)
{
    const Job *job = user;
    if (job->tiled)
        gpu_kernel_dispatch_tiles(ctx, cmd, job->kernel, &job->push, job->push.cols, job->push.rows,
                                  PC_AMP_TILE, PC_AMP_TILE);
    else
        gpu_kernel_dispatch(ctx, cmd, job->kernel, &job->push, job->push.count);
    /* the kernel wrote host-visible memory -> the host reads it after the fence */
    gpu_barrier(ctx, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                VK_ACCESS_2_HOST_READ_BIT);
}

/* Runs one kernel over host-visible buffers holding `inputs`; the last buffer comes back in
 * `out`. Buffer i holds `counts` floats; inputs[i] may be NULL (the kernel only writes it). */
static bool run(CheckState *s, const GpuContext *ctx, const uint32_t *spirv, size_t spirv_size,
                uint32_t buffers, const float *const *inputs, size_t count, Job job, float *out)
{
    GpuError err = {0};
    GpuKernel kernel;
    GpuBuffer bufs[MAX_BUFFERS] = {{0}};
    GpuKernelDesc desc = {.spirv = spirv,
                          .spirv_size = spirv_size,
                          .binding_count = buffers,
                          .push_size = sizeof(PcAmpPush),
                          .workgroup_size = PC_WG_AMP,
                          .label = "amp example"};
    bool ok = gpu_kernel_create(ctx, &desc, &kernel, &err);
    for (uint32_t i = 0; ok && i < buffers; i++) {
        GpuBufferDesc bd = {.size = count * sizeof(float),
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            .memory = i + 1 == buffers ? GPU_MEMORY_READBACK : GPU_MEMORY_UPLOAD,
                            .label = "amp data"};
        ok = gpu_buffer_create(ctx, &bd, &bufs[i], &err);
        if (ok && inputs[i])
            memcpy(bufs[i].mapped, inputs[i], count * sizeof(float));
    }
    if (ok) {
        const GpuBuffer *bind[MAX_BUFFERS] = {&bufs[0], &bufs[1], &bufs[2]};
        gpu_kernel_bind(ctx, &kernel, bind);
        job.kernel = &kernel;
        ok = gpu_context_submit_once(ctx, record, &job, &err);
    }
    if (ok) {
        gpu_buffer_invalidate(ctx, &bufs[buffers - 1]);
        memcpy(out, bufs[buffers - 1].mapped, count * sizeof(float));
    }
    CHECK(s, ok, "amp example: %s", err.message);
    for (uint32_t i = 0; i < buffers; i++)
        gpu_buffer_destroy(ctx, &bufs[i]);
    gpu_kernel_destroy(ctx, &kernel);
    return ok;
}

static void check_values(CheckState *s, const char *what, const float *got, const float *want,
                         size_t n)
{
    for (size_t i = 0; i < n; i++)
        CHECK(s, got[i] == want[i], "%s[%zu] = %g, want %g", what, i, got[i], want[i]);
}

int main(void)
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    GpuError err = {0};
    GpuContextDesc desc = {.validation = true, .device_index = -1, .messages = &messages};
    if (!gpu_context_create(&desc, &ctx, &err)) {
        fprintf(stderr, "test_compute: %s\n", err.message);
        return 1;
    }

    /* parallel_for_each(sum.extent, ...) sum[idx] = a[idx] + b[idx] */
    const float a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, sum_want[] = {7, 9, 11, 13, 15};
    float sum[5];
    if (run(&s, &ctx, add_spv, sizeof add_spv, 3, (const float *[]){a, b, NULL}, 5,
            (Job){.push = {.count = 5}}, sum))
        check_values(&s, "sum", sum, sum_want, 5);

    /* the same extent, multiplied by 10 in place */
    const float tens_want[] = {10, 20, 30, 40, 50};
    float tens[5];
    if (run(&s, &ctx, scale_spv, sizeof scale_spv, 1, (const float *[]){a}, 5,
            (Job){.push = {.count = 5, .factor = 10.0f}}, tens))
        check_values(&s, "a*10", tens, tens_want, 5);

    /* tiled_extent<2,2> over a 4x6 matrix: each tile becomes its average */
    const float sample[] = {2, 2, 9, 7, 1, 4, 4, 4, 8, 8, 3, 4, 1, 5, 1, 2, 5, 2, 6, 8, 3, 2, 7, 2};
    const float average_want[] = {3, 3, 8, 8, 3, 3, 3, 3, 8, 8, 3, 3,
                                  5, 5, 2, 2, 4, 4, 5, 5, 2, 2, 4, 4};
    float average[24];
    if (run(&s, &ctx, tile_spv, sizeof tile_spv, 2, (const float *[]){sample, NULL}, 24,
            (Job){.push = {.cols = 6, .rows = 4}, .tiled = true}, average))
        check_values(&s, "tile average", average, average_want, 24);

    /* an extent past one dispatch row, through the second dimension the leaf's kernels use */
    enum { N = 1000 };
    static float big_a[N], big_b[N], big_sum[N], big_want[N];
    for (int i = 0; i < N; i++)
        big_a[i] = (float)i, big_b[i] = (float)(2 * i), big_want[i] = (float)(3 * i);
    ctx.dispatch_max_x = 3; /* 3 workgroups of 64 per row: 6 rows */
    if (run(&s, &ctx, add_spv, sizeof add_spv, 3, (const float *[]){big_a, big_b, NULL}, N,
            (Job){.push = {.count = N}}, big_sum))
        check_values(&s, "spilled sum", big_sum, big_want, N);

    gpu_context_destroy(&ctx);
    CHECK(&s, messages.errors + messages.warnings == 0, "%u validation errors, %u warnings",
          messages.errors, messages.warnings);
    return check_finish(&s, "test_compute");
}
