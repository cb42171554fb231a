#include "pack.h"

#include "timer.h"

#include <string.h>
#include <time.h>

bool gpu_pack_create(const GpuContext *ctx, GpuPack *out, GpuError *err)
{
    memset(out, 0, sizeof *out);
    return gpu_frame_create(ctx, 0, &out->compute, err);
}

void gpu_pack_destroy(const GpuContext *ctx, GpuPack *pack)
{
    gpu_frame_destroy(ctx, &pack->compute);
}

void gpu_pack_interleave(const float *pos, const float *nrm, const float *u, const float *v,
                         uint64_t n, float *out)
{
    _Static_assert(PC_VERTEX_FLOATS == 8 && PC_VERTEX_OFFSET_NORMAL == 12 &&
                       PC_VERTEX_OFFSET_UV == 24,
                   "the interleave writes shared.h's vertex");
    for (uint64_t k = 0; k < n; k++, out += PC_VERTEX_FLOATS) {
        out[0] = pos[k];
        out[1] = pos[n + k];
        out[2] = pos[2 * n + k];
        out[3] = nrm[k];
        out[4] = nrm[n + k];
        out[5] = nrm[2 * n + k];
        out[6] = u[k];
        out[7] = v[k];
    }
}

bool gpu_pack_run(const GpuContext *ctx, GpuPack *pack, const GpuFrameWork *work, uint32_t slot,
                  const float *u, const float *v, double *pack_ms, GpuError *err)
{
    if (!gpu_frame_begin(ctx, &pack->compute, err))
        return false;
    gpu_frame_record_soa(ctx, &pack->compute, slot, work);
    /* The fence also covers every earlier submission of the queue: once it signals, no frame
     * in flight still reads the vertex buffer, so writing it in place is safe. */
    if (!gpu_frame_submit(ctx, &pack->compute, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, err) ||
        !gpu_frame_wait(ctx, &pack->compute, err))
        return false;
    const GpuPage *page = work->page;
    gpu_buffer_invalidate(ctx, &page->soa_readback);
    const float *soa = page->soa_readback.mapped;
    double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
    gpu_pack_interleave(soa, soa + 3 * page->vertex_count, u, v, page->vertex_count,
                        gpu_page_vertex_target(page, slot));
    if (pack_ms)
        *pack_ms = gpu_clock_ms(CLOCK_MONOTONIC) - t0;
    return true;
}
