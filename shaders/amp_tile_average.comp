/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// C++ AMP overview, the tiled example: each 2x2 tile of a rows x cols matrix is loaded into
// tile_static memory, a tile_barrier waits for all four, and every element becomes the tile's
// average. Here: a shared array and barrier().
#include "shared.h"

layout(local_size_x = PC_AMP_TILE, local_size_y = PC_AMP_TILE) in;
layout(push_constant) uniform Push { PcAmpPush p; };
layout(std430, binding = 0) readonly buffer Source { float src[]; };
layout(std430, binding = 1) writeonly buffer Average { float avg[]; };

shared float tile[PC_AMP_TILE][PC_AMP_TILE];

void main()
{
    uvec2 g = gl_GlobalInvocationID.xy, l = gl_LocalInvocationID.xy;
    bool inside = g.x < p.cols && g.y < p.rows;
    tile[l.y][l.x] = inside ? src[g.y * p.cols + g.x] : 0.0;
    // every element of the tile stored -> every thread reads all four
    barrier();
    float sum = 0.0;
    for (uint r = 0u; r < PC_AMP_TILE; r++)
        for (uint c = 0u; c < PC_AMP_TILE; c++)
            sum += tile[r][c];
    if (inside)
        avg[g.y * p.cols + g.x] = sum / float(PC_AMP_TILE * PC_AMP_TILE);
}
