/* SPDX-License-Identifier: MIT */
// The fused kernels' common part: a tile of PC_TILE_W x PC_TILE_H * PC_TILE_ROWS vertices plus a
// one-vertex halo in shared memory (C++ AMP's tile_static), each vertex's normal from its <= 6
// incident triangles in the fixed order and with the reference loop's weighting (unit triangle normals
// summed, normalised), and the AoS vertex written straight out. The includer fills the tile, then
// calls fused_finish(). Where the includer defines PC_FUSED_HALO_THREADS, the workgroup covers the
// tile and its halo, one entry a thread (PC_TILE_ROWS must be 1), and the inner threads make the
// vertices: for small pages, where a thread's second entry would lengthen the dispatch.
#ifdef PC_FUSED_HALO_THREADS
#define PC_WG_W (PC_TILE_W + 2u)
#define PC_WG_H (PC_TILE_H + 2u)
#else
#define PC_WG_W PC_TILE_W
#define PC_WG_H PC_TILE_H
#endif
layout(local_size_x = PC_WG_W, local_size_y = PC_WG_H) in;
layout(push_constant) uniform Push { PcDeformPush p; };
layout(std430, binding = 0) writeonly buffer Vertices { vec4 vtx[]; };

const uint TILE_ROWS = PC_TILE_H * PC_TILE_ROWS; // vertex rows of the tile
const uint HALO_W = PC_TILE_W + 2u, HALO_H = TILE_ROWS + 2u;
const uint WG_SIZE = PC_WG_W * PC_WG_H;
shared float tile_x[HALO_H][HALO_W], tile_y[HALO_H][HALO_W], tile_z[HALO_H][HALO_W];

vec3 at(uint r, uint c)
{
    return vec3(tile_x[r][c], tile_y[r][c], tile_z[r][c]);
}

// A zero-length vector stays zero (a degenerate triangle adds nothing). Where the includer defines
// PC_FUSED_RSQRT, one reciprocal square root instead of a square root and a reciprocal: faster in
// fused, slower in fused_deform, which keeps the two (BENCHMARKS.md has the figures); the result
// is within an ulp or two of two-pass's, inside the fused paths' 2e-6.
vec3 unit_vector(vec3 n)
{
#ifdef PC_FUSED_RSQRT
    float d = dot(n, n);
    return n * (d > 0.0 ? inversesqrt(d) : 0.0);
#else
    float len = length(n);
    return n * (len > 0.0 ? 1.0 / len : 0.0);
#endif
}

vec3 unit_normal(vec3 a, vec3 b, vec3 c)
{
    return unit_vector(cross(b - a, c - a));
}

// Grid vertex (i, j) of this workgroup's tile with its halo, clamped at the page border (clamped
// entries are never used by a triangle that exists).
void tile_origin(out int i0, out int j0)
{
    i0 = int(gl_WorkGroupID.x * PC_TILE_W) - 1;
    j0 = int(gl_WorkGroupID.y * TILE_ROWS) - 1;
}

// The unit normals of cell (r, c) of the tile (its corner at tile entry (r, c)): triangles 2c and
// 2c + 1 of shared.h, corners in index order, as tri_normals.comp makes them.
vec3 cell_n0(uint r, uint c)
{
    return unit_normal(at(r, c), at(r, c + 1u), at(r + 1u, c + 1u));
}

vec3 cell_n1(uint r, uint c)
{
    return unit_normal(at(r, c), at(r + 1u, c + 1u), at(r + 1u, c));
}

// Grid vertex (i, j) at tile entry (r, c), given the unit normals of the cells around it: (c, r)
// both triangles, (c - 1, r) its first, (c - 1, r - 1) both, (c, r - 1) its second. It sums the
// six slots of pc_vertex_triangle in order, those of triangles that exist, and writes the AoS
// vertex.
#if defined(PC_FUSED_SHUFFLE) && !defined(PC_FUSED_HALO_THREADS)
// The two halves of the AoS vertices of a subgroup's lanes (consecutive vertices of one tile row:
// PC_TILE_W a multiple of the subgroup's size), stored as two runs of whole vec4s: each store
// instruction writes one contiguous run instead of every other 16 bytes across twice the span.
// Every lane of the subgroup takes part; `i` past the row's end stores nothing.
void store_row(uint v, uint i, vec4 a, vec4 b)
{
    uint s = gl_SubgroupSize, t = gl_SubgroupInvocationID, first = i - t;
    uint from0 = t >> 1u, from1 = (s >> 1u) + (t >> 1u);
    vec4 a0 = subgroupShuffle(a, from0), b0 = subgroupShuffle(b, from0);
    vec4 a1 = subgroupShuffle(a, from1), b1 = subgroupShuffle(b, from1);
    uint base = 2u * (v - t);
    if (first + from0 < p.grid.nx)
        vtx[base + t] = (t & 1u) != 0u ? b0 : a0;
    if (first + from1 < p.grid.nx)
        vtx[base + s + t] = (t & 1u) != 0u ? b1 : a1;
}
#endif

void store_vertex(uint i, uint j, uint r, uint c, vec3 here0, vec3 here1, vec3 left0,
                  vec3 below_left0, vec3 below_left1, vec3 below1)
{
    uint nx = p.grid.nx, ny = p.grid.ny;
    bool right = i + 1u < nx, left = i > 0u, up = j + 1u < ny, down = j > 0u;
    vec3 sum = vec3(0.0);
    if (right && up)
        sum += here0, sum += here1;
    if (left && up)
        sum += left0;
    if (left && down)
        sum += below_left0, sum += below_left1;
    if (right && down)
        sum += below1;
    sum = unit_vector(sum);
    uint v = j * nx + i;
    vec2 uv = vec2(pc_grid_coord(i, nx, p.grid.du), pc_grid_coord(j, ny, p.grid.dv));
#if defined(PC_FUSED_SHUFFLE) && !defined(PC_FUSED_HALO_THREADS)
    store_row(v, i, vec4(at(r, c), sum.x), vec4(sum.yz, uv));
#else
    vtx[2u * v] = vec4(at(r, c), sum.x);
    vtx[2u * v + 1u] = vec4(sum.yz, uv);
#endif
}

#ifdef PC_FUSED_HALO_THREADS
void fused_finish()
{
    // every thread's tile entry written -> the inner threads read their neighbours'
    barrier();
    uint c = gl_LocalInvocationID.x, r = gl_LocalInvocationID.y;
    if (c == 0u || c > PC_TILE_W || r == 0u || r > TILE_ROWS)
        return;
    uint i = gl_WorkGroupID.x * PC_TILE_W + c - 1u, j = gl_WorkGroupID.y * TILE_ROWS + r - 1u;
    if (i < p.grid.nx && j < p.grid.ny)
        store_vertex(i, j, r, c, cell_n0(r, c), cell_n1(r, c), cell_n0(r, c - 1u),
                     cell_n0(r - 1u, c - 1u), cell_n1(r - 1u, c - 1u), cell_n1(r - 1u, c));
}
#else
// A thread walks PC_TILE_ROWS consecutive vertices down its column, and the cells between two of
// its rows serve both: 5 unit normals a vertex after the first row's 6 (10 instead of 12 for two
// rows). Each vertex still sums the six slots in order, so its bits are those it would have on
// its own. A warp stores one whole tile row at a time.
void fused_finish()
{
    // every thread's tile entries written -> every thread reads its neighbours'
    barrier();
    uint i = gl_GlobalInvocationID.x;
#ifndef PC_FUSED_SHUFFLE
    if (i >= p.grid.nx)
        return;
#endif // else every lane stores its row's part (store_row)
    uint c = gl_LocalInvocationID.x + 1u;
    uint row0 = gl_LocalInvocationID.y * PC_TILE_ROWS; // the thread's first row of the tile
    uint j0 = gl_WorkGroupID.y * TILE_ROWS + row0;
    // the cells below the first vertex: (c - 1, r - 1) both triangles, (c, r - 1) its second
    vec3 below_left0 = cell_n0(row0, c - 1u), below_left1 = cell_n1(row0, c - 1u);
    vec3 below1 = cell_n1(row0, c);
    for (uint k = 0u; k < PC_TILE_ROWS; k++) {
        uint r = row0 + k + 1u, j = j0 + k;
        if (j >= p.grid.ny)
            break;
        vec3 here0 = cell_n0(r, c), here1 = cell_n1(r, c), left0 = cell_n0(r, c - 1u);
        store_vertex(i, j, r, c, here0, here1, left0, below_left0, below_left1, below1);
        if (k + 1u < PC_TILE_ROWS) // the next row's cells below
            below_left0 = left0, below_left1 = cell_n1(r, c - 1u), below1 = here1;
    }
}
#endif
