/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef PC_FUSED_SHUFFLE
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#extension GL_EXT_control_flow_attributes : require
// Stage fused (normals + pack in one dispatch): the tile's positions come from the resident SoA
// buffer, written by deform or upload; 12 bytes in and 32 out per vertex.
#include "shared.h"
#undef PC_TILE_ROWS
#define PC_TILE_ROWS PC_FUSED_ROWS
#define PC_FUSED_RSQRT
#include "fused.glsl"

layout(std430, binding = 1) readonly buffer Positions { float pos[]; };

void main()
{
    int i0, j0;
    tile_origin(i0, j0);
    uint n = p.grid.vertex_count;
    // Every load of the thread is issued before the first is used: the memory's latency is paid
    // once a workgroup, not once per entry (loading and storing entry by entry kept 70 % of the
    // copy rate at 4096^2). Entries past the tile load the last one again and are not stored.
    const uint LOADS = (HALO_W * HALO_H + WG_SIZE - 1u) / WG_SIZE;
    float lx[LOADS], ly[LOADS], lz[LOADS];
    [[unroll]] for (uint q = 0u; q < LOADS; q++) {
        uint k = min(gl_LocalInvocationIndex + q * WG_SIZE, HALO_W * HALO_H - 1u);
        uint r = k / HALO_W, c = k % HALO_W;
        uint gi = uint(clamp(i0 + int(c), 0, int(p.grid.nx) - 1));
        uint gj = uint(clamp(j0 + int(r), 0, int(p.grid.ny) - 1));
        uint v = gj * p.grid.nx + gi;
        lx[q] = pos[v];
        ly[q] = pos[n + v];
        lz[q] = pos[2u * n + v];
    }
    [[unroll]] for (uint q = 0u; q < LOADS; q++) {
        uint k = gl_LocalInvocationIndex + q * WG_SIZE;
        if (k < HALO_W * HALO_H) {
            uint r = k / HALO_W, c = k % HALO_W;
            tile_x[r][c] = lx[q];
            tile_y[r][c] = ly[q];
            tile_z[r][c] = lz[q];
        }
    }
    fused_finish();
}
