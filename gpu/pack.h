/* SPDX-License-Identifier: MIT */
/* The staging pack's host stage (--pack staging): the SoA positions and normals read back are
 * interleaved with the UVs into AoS vertices (the page's vertex staging, or the vertex buffer in
 * place), which the frame then uploads. The chain (gpu/chain.c) ends a submission before it: the
 * host wait in the middle of the frame is what --pack gpu (the default) avoids. */
#ifndef PAGECURL_GPU_PACK_H
#define PAGECURL_GPU_PACK_H

#include "../shaders/shared.h"

#include <stdint.h>

/* The interleave of vertices begin..end-1 of n: SoA positions and normals (3 planes of n each)
 * and UVs -> AoS vertices of PC_VERTEX_FLOATS at out (the first vertex's), in the layout of
 * shared.h. Each vertex is its own: ranges may run on different threads. */
void gpu_pack_interleave(const float *pos, const float *nrm, const float *u, const float *v,
                         uint64_t n, uint64_t begin, uint64_t end, float *out);

#endif
