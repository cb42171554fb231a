#version 450
#extension GL_GOOGLE_include_directive : require
// Stage fused (normals + pack in one dispatch): the tile's positions come from the resident SoA
// buffer, written by deform or upload; 12 bytes in and 32 out per vertex.
#include "shared.h"
#include "fused.glsl"

layout(std430, binding = 1) readonly buffer Positions { float pos[]; };

void main()
{
    int i0, j0;
    tile_origin(i0, j0);
    uint n = p.grid.vertex_count;
    for (uint k = gl_LocalInvocationIndex; k < HALO_W * HALO_H; k += PC_TILE_W * PC_TILE_H) { // every thread, the halo too
        uint r = k / HALO_W, c = k % HALO_W;
        uint gi = uint(clamp(i0 + int(c), 0, int(p.grid.nx) - 1));
        uint gj = uint(clamp(j0 + int(r), 0, int(p.grid.ny) - 1));
        uint v = gj * p.grid.nx + gi;
        tile_x[r][c] = pos[v];
        tile_y[r][c] = pos[n + v];
        tile_z[r][c] = pos[2u * n + v];
    }
    fused_finish();
}
