/* SPDX-License-Identifier: MIT */
// Pass 2's gather, shared by vertex_normals.comp (SoA out, for the staging pack) and
// vertex_normals_pack.comp (the AoS vertex out): the unit normals of the <= 6 triangles around
// vertex (i, j), summed in the slot order of pc_vertex_triangle (no atomics, the same bits every
// run) and normalised. The includer declares `p` and the cell planes `cell_a`, `cell_b`.

vec3 cell_n0(uint c)
{
    return cell_a[c].xyz;
}

vec3 cell_n1(uint c)
{
    return vec3(cell_a[c].w, cell_b[c]);
}

vec3 vertex_normal(uint i, uint j)
{
    uint cx = p.nx - 1u;
    bool right = i < cx, left = i > 0u, up = j + 1u < p.ny, down = j > 0u;
    vec3 sum = vec3(0.0);
    if (right && up) { // slots 0, 1: cell (i, j)
        uint c = j * cx + i;
        sum += cell_n0(c);
        sum += cell_n1(c);
    }
    if (left && up) // slot 2: cell (i-1, j), its first triangle
        sum += cell_n0(j * cx + i - 1u);
    if (left && down) { // slots 3, 4: cell (i-1, j-1)
        uint c = (j - 1u) * cx + i - 1u;
        sum += cell_n0(c);
        sum += cell_n1(c);
    }
    if (right && down) // slot 5: cell (i, j-1), its second triangle
        sum += cell_n1((j - 1u) * cx + i);
    float len = length(sum);
    return sum * (len > 0.0 ? 1.0 / len : 0.0);
}
