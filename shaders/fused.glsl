// The fused kernels' common part: a tile of PC_TILE_W x PC_TILE_H vertices plus a one-vertex halo
// in shared memory (C++ AMP's tile_static), each thread's normal from its <= 6 incident triangles
// in the fixed order and with the seed's weighting (unit triangle normals summed, normalised), and
// the AoS vertex written straight out. The includer fills the tile in fused_fill(), then calls
// fused_finish().
layout(local_size_x = PC_TILE_W, local_size_y = PC_TILE_H) in;
layout(push_constant) uniform Push { PcDeformPush p; };
layout(std430, binding = 0) writeonly buffer Vertices { vec4 vtx[]; };

const uint TILE_ROWS = PC_TILE_H * PC_TILE_ROWS; // vertex rows of the tile
const uint HALO_W = PC_TILE_W + 2u, HALO_H = TILE_ROWS + 2u;
shared float tile_x[HALO_H][HALO_W], tile_y[HALO_H][HALO_W], tile_z[HALO_H][HALO_W];

vec3 at(uint r, uint c)
{
    return vec3(tile_x[r][c], tile_y[r][c], tile_z[r][c]);
}

vec3 unit_normal(vec3 a, vec3 b, vec3 c)
{
    vec3 n = cross(b - a, c - a);
    float len = length(n);
    return n * (len > 0.0 ? 1.0 / len : 0.0);
}

// Grid vertex (i, j) of this workgroup's tile with its halo, clamped at the page border (clamped
// entries are never used by a triangle that exists).
void tile_origin(out int i0, out int j0)
{
    i0 = int(gl_WorkGroupID.x * PC_TILE_W) - 1;
    j0 = int(gl_WorkGroupID.y * TILE_ROWS) - 1;
}

// One vertex of the tile: its normal from the tile, its AoS vertex out. r, c: its tile entry.
void fused_vertex(uint i, uint j, uint r, uint c)
{
    uint nx = p.grid.nx, ny = p.grid.ny;
    bool right = i + 1u < nx, left = i > 0u, up = j + 1u < ny, down = j > 0u;
    vec3 o = at(r, c), sum = vec3(0.0);
    // the six slots of pc_vertex_triangle, each triangle's corners in its index order
    if (right && up) {
        sum += unit_normal(o, at(r, c + 1u), at(r + 1u, c + 1u));
        sum += unit_normal(o, at(r + 1u, c + 1u), at(r + 1u, c));
    }
    if (left && up)
        sum += unit_normal(at(r, c - 1u), o, at(r + 1u, c));
    if (left && down) {
        sum += unit_normal(at(r - 1u, c - 1u), at(r - 1u, c), o);
        sum += unit_normal(at(r - 1u, c - 1u), o, at(r, c - 1u));
    }
    if (right && down)
        sum += unit_normal(at(r - 1u, c), at(r, c + 1u), o);
    float len = length(sum);
    sum *= len > 0.0 ? 1.0 / len : 0.0;
    uint v = j * nx + i;
    vec2 uv = vec2(pc_grid_coord(i, nx, p.grid.du), pc_grid_coord(j, ny, p.grid.dv));
    vtx[2u * v] = vec4(o, sum.x);
    vtx[2u * v + 1u] = vec4(sum.yz, uv);
}

void fused_finish()
{
    // every thread's tile entries written -> every thread reads its neighbours'
    barrier();
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.grid.nx)
        return;
    int i0, j0;
    tile_origin(i0, j0);
    for (uint q = 0u; q < PC_TILE_ROWS; q++) {
        uint row = q * PC_TILE_H + gl_LocalInvocationID.y; // rows PC_TILE_H apart
        uint j = uint(j0 + 1) + row;
        if (j < p.grid.ny)
            fused_vertex(i, j, row + 1u, gl_LocalInvocationID.x + 1u);
    }
}
