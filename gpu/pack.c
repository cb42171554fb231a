#include "pack.h"

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
