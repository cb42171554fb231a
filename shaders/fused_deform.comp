#version 450
#extension GL_GOOGLE_include_directive : require
// Stage fused_deform (deform + normals + pack in one dispatch): the tile's positions are evaluated
// from the pose right here, so nothing is read from memory and 32 bytes per vertex are written.
#include "shared.h"
#include "curl.glsl"
#include "fused.glsl"

void main()
{
    for (uint k = gl_LocalInvocationIndex; k < HALO_W * HALO_H; k += THREADS) {
        uvec2 g = halo_vertex(k);
        // the rest position of mesh/grid.c, as in deform.comp
        vec2 rest = vec2(float(g.x) / float(p.grid.nx - 1u) * p.page.x,
                         float(g.y) / float(p.grid.ny - 1u) * p.page.y);
        vec3 q = curl_point(p.curl, rest);
        tile_x[k / HALO_W][k % HALO_W] = q.x;
        tile_y[k / HALO_W][k % HALO_W] = q.y;
        tile_z[k / HALO_W][k % HALO_W] = q.z;
    }
    fused_finish();
}
