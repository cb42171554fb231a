// The fused kernels' common part. A workgroup owns a tile of PC_TILE_W x PC_TILE_H vertices; it
// holds their positions plus a one-vertex halo in shared memory (C++ AMP's tile_static), then the
// unit normals of every triangle touching the tile, each computed once, then each thread sums its
// vertex's <= 6 in the fixed order of pc_vertex_triangle (the seed's weighting: unit normals
// summed, then normalised) and writes the AoS vertex straight out. The includer fills the halo
// tile with fused_fill(); fused_finish() does the rest.
layout(local_size_x = PC_TILE_W, local_size_y = PC_TILE_H) in;
layout(push_constant) uniform Push { PcDeformPush p; };
layout(std430, binding = 0) writeonly buffer Vertices { vec4 vtx[]; };

const uint HALO_W = PC_TILE_W + 2u, HALO_H = PC_TILE_H + 2u;
const uint CELLS_W = HALO_W - 1u, CELLS_H = HALO_H - 1u;
const uint THREADS = PC_TILE_W * PC_TILE_H;
shared float tile_x[HALO_H][HALO_W], tile_y[HALO_H][HALO_W], tile_z[HALO_H][HALO_W];
// Per halo cell (r, c) with corner (r, c): its two triangles' unit normals, A then B (shared.h).
shared vec3 tri_a[CELLS_H][CELLS_W], tri_b[CELLS_H][CELLS_W];

vec3 at(uint r, uint c)
{
    return vec3(tile_x[r][c], tile_y[r][c], tile_z[r][c]);
}

vec3 unit_normal(vec3 a, vec3 b, vec3 c)
{
    vec3 n = cross(b - a, c - a);
    float len2 = dot(n, n);
    return len2 > 0.0 ? n * inversesqrt(len2) : vec3(0.0); // zero-area: adds nothing
}

// Grid vertex of halo entry k, clamped at the page border (clamped entries only ever feed
// triangles that do not exist and are never summed).
uvec2 halo_vertex(uint k)
{
    int i = int(gl_WorkGroupID.x * PC_TILE_W) - 1 + int(k % HALO_W);
    int j = int(gl_WorkGroupID.y * PC_TILE_H) - 1 + int(k / HALO_W);
    return uvec2(clamp(i, 0, int(p.grid.nx) - 1), clamp(j, 0, int(p.grid.ny) - 1));
}

void fused_finish()
{
    // every halo position written -> the triangle normals read them
    barrier();
    for (uint k = gl_LocalInvocationIndex; k < CELLS_W * CELLS_H; k += THREADS) {
        uint r = k / CELLS_W, c = k % CELLS_W;
        vec3 o = at(r, c), diag = at(r + 1u, c + 1u);
        tri_a[r][c] = unit_normal(o, at(r, c + 1u), diag);
        tri_b[r][c] = unit_normal(o, diag, at(r + 1u, c));
    }
    // every triangle normal written -> the vertices gather them
    barrier();
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    uint nx = p.grid.nx, ny = p.grid.ny;
    if (i >= nx || j >= ny)
        return;
    uint r = gl_LocalInvocationID.y + 1u, c = gl_LocalInvocationID.x + 1u;
    bool right = i + 1u < nx, left = i > 0u, up = j + 1u < ny, down = j > 0u;
    vec3 sum = vec3(0.0);
    if (right && up)
        sum += tri_a[r][c] + tri_b[r][c];
    if (left && up)
        sum += tri_a[r][c - 1u];
    if (left && down) {
        sum += tri_a[r - 1u][c - 1u];
        sum += tri_b[r - 1u][c - 1u];
    }
    if (right && down)
        sum += tri_b[r - 1u][c];
    float len2 = dot(sum, sum);
    sum = len2 > 0.0 ? sum * inversesqrt(len2) : vec3(0.0);
    uint v = j * nx + i;
    vec2 uv = vec2(float(i) / float(nx - 1u), float(j) / float(ny - 1u));
    vtx[2u * v] = vec4(at(r, c), sum.x);
    vtx[2u * v + 1u] = vec4(sum.yz, uv);
}
