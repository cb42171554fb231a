#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 2 with the pack folded in (stage vertex_normals, --pack gpu): one thread per vertex gathers
// its normal and writes the AoS vertex {pos, normal, uv} as two vec4. The SoA vertex normals never
// reach memory and the UVs are computed, not read: 12 + 24 bytes in, 32 out per vertex.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_VERTEX_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
layout(std430, binding = 0) readonly buffer CellNormalsA { vec4 cell_a[]; };
layout(std430, binding = 1) readonly buffer CellNormalsB { vec2 cell_b[]; };
layout(std430, binding = 2) readonly buffer Positions { float pos[]; };
layout(std430, binding = 3) writeonly buffer Vertices { vec4 vtx[]; };

#include "vertex_normals.glsl"

void main()
{
    uint v = pc_global_index(PC_WG_VERTEX_NORMALS);
    uint n = p.vertex_count;
    if (v >= n)
        return;
    uint i = v % p.nx, j = v / p.nx;
    vec3 nrm = vertex_normal(i, j);
    vec2 uv = vec2(pc_grid_coord(i, p.nx, p.du), pc_grid_coord(j, p.ny, p.dv));
    vtx[2u * v] = vec4(pos[v], pos[n + v], pos[2u * n + v], nrm.x);
    vtx[2u * v + 1u] = vec4(nrm.yz, uv);
}
