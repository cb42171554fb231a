/* The staging pack's host stage (--pack staging): the SoA positions and normals read back are
 * interleaved with the UVs into AoS vertices (the page's vertex staging, or the vertex buffer in
 * place), which the frame then uploads. The chain (gpu/chain.c) ends a submission before it: the
 * host wait in the middle of the frame is what --pack gpu (the default) avoids. */
#ifndef PAGECURL_GPU_PACK_H
#define PAGECURL_GPU_PACK_H

#include "../shaders/shared.h"

#include <stdint.h>

/* The interleave: n SoA positions and normals (3 planes each) and UVs -> n AoS
 * vertices of PC_VERTEX_FLOATS, in the layout of shared.h. */
void gpu_pack_interleave(const float *pos, const float *nrm, const float *u, const float *v,
                         uint64_t n, float *out);

#endif
