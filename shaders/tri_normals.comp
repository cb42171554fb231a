/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 1 (stage tri_normals): the unit normals of the page's triangles, one thread per grid cell
// (its two triangles share two corners: 4 positions loaded for 2 normals, not 6), written into
// the cell planes of shared.h.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_TRI_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
// SoA planes: x[0..n), y[n..2n), z[2n..3n) with n = vertex_count.
layout(std430, binding = 0) readonly buffer Positions { float pos[]; };
layout(std430, binding = 1) writeonly buffer CellNormalsA { vec4 cell_a[]; };
layout(std430, binding = 2) writeonly buffer CellNormalsB { vec2 cell_b[]; };

vec3 load(uint v)
{
    return vec3(pos[v], pos[p.vertex_count + v], pos[2u * p.vertex_count + v]);
}

// A zero-area triangle adds nothing rather than a NaN, as on the CPU.
vec3 unit(vec3 n)
{
    float len = length(n);
    return n * (len > 0.0 ? 1.0 / len : 0.0);
}

void main()
{
    uint c = pc_global_index(PC_WG_TRI_NORMALS);
    uint cx = p.nx - 1u;
    if (c >= p.triangle_count / 2u)
        return;
    // The fixed diagonal of shared.h: 2c = (i,j) (i+1,j) (i+1,j+1), 2c+1 = (i,j) (i+1,j+1) (i,j+1).
    uint a = (c / cx) * p.nx + c % cx;
    vec3 pa = load(a), pb = load(a + 1u), pc = load(a + p.nx + 1u), pd = load(a + p.nx);
    vec3 n0 = unit(cross(pb - pa, pc - pa));
    vec3 n1 = unit(cross(pc - pa, pd - pa));
    cell_a[c] = vec4(n0, n1.x);
    cell_b[c] = n1.yz;
}
