#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 2 (stage vertex_normals): one thread per vertex gathers the unit normals of its <= 6
// incident triangles in the fixed order of shared.h (no atomics) and normalises the sum.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_VERTEX_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
layout(std430, binding = 0) readonly buffer TriNormals { float tri[]; };
layout(std430, binding = 1) writeonly buffer VertexNormals { float nrm[]; };

void main()
{
    uint v = pc_global_index(PC_WG_VERTEX_NORMALS);
    if (v >= p.vertex_count)
        return;
    uint i = v % p.nx, j = v / p.nx;
    vec3 sum = vec3(0.0);
    for (uint k = 0u; k < 6u; k++) {
        uint t = pc_vertex_triangle(p.nx, p.ny, i, j, k);
        if (t != PC_NO_TRIANGLE)
            sum += vec3(tri[t], tri[p.triangle_count + t], tri[2u * p.triangle_count + t]);
    }
    float len = length(sum);
    sum *= len > 0.0 ? 1.0 / len : 0.0;
    nrm[v] = sum.x;
    nrm[p.vertex_count + v] = sum.y;
    nrm[2u * p.vertex_count + v] = sum.z;
}
