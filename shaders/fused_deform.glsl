/* SPDX-License-Identifier: MIT */
// Stage fused_deform (deform + normals + pack in one dispatch): the tile's positions are evaluated
// from the pose right here, so nothing is read from memory and 32 bytes per vertex are written.
// The includer sets the tile (shared.h's PC_TILE_*) and includes shared.h before this.
#include "fused.glsl"

layout(std140, binding = 1) uniform CurlTables { CurlSegments curl_tables[PC_FRAMES_IN_FLIGHT]; };

#include "curl.glsl"

void main()
{
    int i0, j0;
    tile_origin(i0, j0);
    for (uint k = gl_LocalInvocationIndex; k < HALO_W * HALO_H; k += WG_SIZE) { // every thread, the halo too
        uint r = k / HALO_W, c = k % HALO_W;
        uint gi = uint(clamp(i0 + int(c), 0, int(p.grid.nx) - 1));
        uint gj = uint(clamp(j0 + int(r), 0, int(p.grid.ny) - 1));
        // the rest position of mesh/grid.c, as in deform.comp
        vec2 rest = vec2(pc_grid_coord(gi, p.grid.nx, p.grid.du) * p.page.x,
                         pc_grid_coord(gj, p.grid.ny, p.grid.dv) * p.page.y);
        vec3 q = curl_point(curl_tables[p.table].pose, p.table, rest);
        tile_x[r][c] = q.x;
        tile_y[r][c] = q.y;
        tile_z[r][c] = q.z;
    }
    fused_finish();
}
