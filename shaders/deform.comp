/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// Stage deform on the GPU: each thread places one vertex of the page for this frame's pose.
// With it, only the pose (in the frame's CurlSegments) crosses to the GPU each frame.
#include "shared.h"
#include "compute.glsl"
#define PC_CURL_BISECT // deform.comp serves every page size; the search pays from 1024^2

layout(local_size_x = PC_WG_DEFORM) in;
layout(push_constant) uniform Push { PcDeformPush p; };
layout(std430, binding = 0) writeonly buffer Positions { float pos[]; };
layout(std140, binding = 1) uniform CurlTables { CurlSegments curl_tables[PC_FRAMES_IN_FLIGHT]; };

#include "curl.glsl"

void main()
{
    uint v = pc_global_index(PC_WG_DEFORM);
    uint n = p.grid.vertex_count;
    if (v >= n)
        return;
    uint i = v % p.grid.nx, j = v / p.grid.nx;
    // the rest position of mesh/grid.c, (u W, v H), to the bit
    vec2 rest = vec2(pc_grid_coord(i, p.grid.nx, p.grid.du) * p.page.x,
                     pc_grid_coord(j, p.grid.ny, p.grid.dv) * p.page.y);
    vec3 q = curl_point(curl_tables[p.table].pose, p.table, rest);
    pos[v] = q.x;
    pos[n + v] = q.y;
    pos[2u * n + v] = q.z;
}
