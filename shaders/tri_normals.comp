#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 1 (stage tri_normals): one thread per triangle writes its unit normal.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_TRI_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
// SoA planes: x[0..n), y[n..2n), z[2n..3n) with n = vertex_count (triangle_count for the output).
layout(std430, binding = 0) readonly buffer Positions { float pos[]; };
layout(std430, binding = 1) writeonly buffer TriNormals { float tri[]; };

vec3 load(uint v)
{
    return vec3(pos[v], pos[p.vertex_count + v], pos[2u * p.vertex_count + v]);
}

void main()
{
    uint t = pc_global_index(PC_WG_TRI_NORMALS);
    if (t >= p.triangle_count)
        return;
    uint cx = p.nx - 1u;
    uint cell = t >> 1u;
    uint a = (cell / cx) * p.nx + cell % cx;
    // The fixed diagonal of shared.h: 2c = (i,j) (i+1,j) (i+1,j+1), 2c+1 = (i,j) (i+1,j+1) (i,j+1).
    uint b = (t & 1u) == 0u ? a + 1u : a + p.nx + 1u;
    uint c = (t & 1u) == 0u ? a + p.nx + 1u : a + p.nx;
    vec3 pa = load(a);
    vec3 n = cross(load(b) - pa, load(c) - pa);
    float len = length(n);
    // A zero-area triangle adds nothing rather than a NaN, as on the CPU.
    n *= len > 0.0 ? 1.0 / len : 0.0;
    tri[t] = n.x;
    tri[p.triangle_count + t] = n.y;
    tri[2u * p.triangle_count + t] = n.z;
}
