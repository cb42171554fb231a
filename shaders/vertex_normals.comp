/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 2 (stage vertex_normals) for the staging pack: one thread per vertex writes its unit normal
// into SoA planes, which the CPU interleaves (--pack staging).
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_VERTEX_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
layout(std430, binding = 0) readonly buffer CellNormalsA { vec4 cell_a[]; };
layout(std430, binding = 1) readonly buffer CellNormalsB { vec2 cell_b[]; };
layout(std430, binding = 2) writeonly buffer VertexNormals { float nrm[]; };

#include "vertex_normals.glsl"

void main()
{
    uint v = pc_global_index(PC_WG_VERTEX_NORMALS);
    if (v >= p.vertex_count)
        return;
    vec3 n = vertex_normal(v % p.nx, v / p.nx);
    nrm[v] = n.x;
    nrm[p.vertex_count + v] = n.y;
    nrm[2u * p.vertex_count + v] = n.z;
}
