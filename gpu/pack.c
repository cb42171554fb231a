/* SPDX-License-Identifier: MIT */
#include "pack.h"

void gpu_pack_interleave(const float *pos, const float *nrm, const float *u, const float *v,
                         uint64_t n, uint64_t begin, uint64_t end, float *out)
{
    _Static_assert(PC_VERTEX_FLOATS == 8 && PC_VERTEX_OFFSET_NORMAL == 12 &&
                       PC_VERTEX_OFFSET_UV == 24,
                   "the interleave writes shared.h's vertex");
    out += begin * PC_VERTEX_FLOATS;
    for (uint64_t k = begin; k < end; k++, out += PC_VERTEX_FLOATS) {
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
