#version 450
#extension GL_GOOGLE_include_directive : require
// Stage fused (normals + pack in one dispatch): the tile's positions come from the resident SoA
// buffer, written by deform or upload; 12 bytes in and 32 out per vertex.
#include "shared.h"
#include "fused.glsl"

layout(std430, binding = 1) readonly buffer Positions { float pos[]; };

void main()
{
    uint n = p.grid.vertex_count;
    for (uint k = gl_LocalInvocationIndex; k < HALO_W * HALO_H; k += THREADS) {
        uvec2 g = halo_vertex(k);
        uint v = g.y * p.grid.nx + g.x;
        tile_x[k / HALO_W][k % HALO_W] = pos[v];
        tile_y[k / HALO_W][k % HALO_W] = pos[n + v];
        tile_z[k / HALO_W][k % HALO_W] = pos[2u * n + v];
    }
    fused_finish();
}
