/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
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

// Each lane makes one vertex (two vec4 32 bytes apart); stored by its own lane, every store of a
// warp would half-fill twice as many cache sectors, which holds this pass well below the device's
// copy rate. A subgroup whose lanes hold consecutive vertices trades halves by shuffles instead,
// so that each of its two stores covers 16 * subgroup-size contiguous bytes: no shared memory and
// no barrier (BENCHMARKS.md has the figures against staging through shared memory). Any other
// subgroup (the page's last) stores lane by lane. Every lane takes part: `ok` is false past the end.
void store_vertex(bool ok, uint v, vec4 a, vec4 b)
{
    uint lane = gl_SubgroupInvocationID, size = gl_SubgroupSize;
    uint first = v - lane;
    if (size > 1u && subgroupAll(ok && first == subgroupBroadcastFirst(first))) {
        uint s0 = lane >> 1u, s1 = (size + lane) >> 1u;
        vec4 a0 = subgroupShuffle(a, s0), b0 = subgroupShuffle(b, s0);
        vec4 a1 = subgroupShuffle(a, s1), b1 = subgroupShuffle(b, s1);
        bool odd = (lane & 1u) != 0u;
        vtx[2u * first + lane] = odd ? b0 : a0;
        vtx[2u * first + size + lane] = odd ? b1 : a1;
    } else if (ok) {
        vtx[2u * v] = a;
        vtx[2u * v + 1u] = b;
    }
}

void main()
{
    uint v = pc_global_index(PC_WG_VERTEX_NORMALS);
    uint n = p.vertex_count;
    bool ok = v < n;
    uint w = ok ? v : n - 1u; // a lane past the end makes a real vertex and stores nothing
    uint i = w % p.nx, j = w / p.nx;
    vec3 nrm = vertex_normal(i, j);
    vec2 uv = vec2(pc_grid_coord(i, p.nx, p.du), pc_grid_coord(j, p.ny, p.dv));
    store_vertex(ok, v, vec4(pos[w], pos[n + w], pos[2u * n + w], nrm.x), vec4(nrm.yz, uv));
}
