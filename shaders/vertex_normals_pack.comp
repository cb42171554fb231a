#version 450
#extension GL_GOOGLE_include_directive : require
// Pass 2 with the pack folded in (stage vertex_normals, --pack gpu): one thread per vertex gathers
// its normal and makes the AoS vertex {pos, normal, uv}. The SoA vertex normals never reach memory
// and the UVs are computed, not read: 12 + 24 bytes in, 32 out per vertex.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_VERTEX_NORMALS) in;
layout(push_constant) uniform Push { PcComputePush p; };
layout(std430, binding = 0) readonly buffer CellNormalsA { vec4 cell_a[]; };
layout(std430, binding = 1) readonly buffer CellNormalsB { vec2 cell_b[]; };
layout(std430, binding = 2) readonly buffer Positions { float pos[]; };
layout(std430, binding = 3) writeonly buffer Vertices { vec4 vtx[]; };

#include "vertex_normals.glsl"

// The workgroup's vertices pass through shared memory on their way out, so that each store of a
// warp covers 512 contiguous bytes: a thread storing its own vertex (two vec4 32 bytes apart)
// leaves every store half-filling twice as many cache lines, which holds this pass well below the
// device's copy rate. First halves and second halves sit in separate runs, the second 64 bytes
// (16 banks) further on, so that neither the writes nor the interleaving reads (lanes 2m and
// 2m + 1 take vertex m's two halves) meet in a bank.
const uint SECOND = PC_WG_VERTEX_NORMALS + 4u;
shared vec4 staged[SECOND + PC_WG_VERTEX_NORMALS];

void main()
{
    uint v = pc_global_index(PC_WG_VERTEX_NORMALS);
    uint t = gl_LocalInvocationID.x;
    uint n = p.vertex_count;
    if (v < n) {
        uint i = v % p.nx, j = v / p.nx;
        vec3 nrm = vertex_normal(i, j);
        vec2 uv = vec2(pc_grid_coord(i, p.nx, p.du), pc_grid_coord(j, p.ny, p.dv));
        staged[t] = vec4(pos[v], pos[n + v], pos[2u * n + v], nrm.x);
        staged[SECOND + t] = vec4(nrm.yz, uv);
    }
    barrier(); // every vertex of the workgroup staged -> any thread stores any of them
    uint first = 2u * (v - t), end = 2u * n;
    for (uint k = t; k < 2u * PC_WG_VERTEX_NORMALS; k += PC_WG_VERTEX_NORMALS)
        if (first + k < end)
            vtx[first + k] = staged[(k & 1u) * SECOND + (k >> 1u)];
}
