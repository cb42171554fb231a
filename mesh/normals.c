/* SPDX-License-Identifier: MIT */
#include "normals.h"

#include <math.h>
#include <string.h>

static void triangle_unit_normal(MeshSoa3Const pos, const uint32_t *tri, float out[3])
{
    uint32_t a = tri[0], b = tri[1], c = tri[2];
    float e1[3] = {pos.x[b] - pos.x[a], pos.y[b] - pos.y[a], pos.z[b] - pos.z[a]};
    float e2[3] = {pos.x[c] - pos.x[a], pos.y[c] - pos.y[a], pos.z[c] - pos.z[a]};
    float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                  e1[0] * e2[1] - e1[1] * e2[0]};
    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    /* A zero-area triangle has no direction; it adds nothing rather than a NaN. */
    float inv = len > 0.0f ? 1.0f / len : 0.0f;
    out[0] = n[0] * inv, out[1] = n[1] * inv, out[2] = n[2] * inv;
}

static void normalise_in_place(float *x, float *y, float *z)
{
    float len = sqrtf(*x * *x + *y * *y + *z * *z);
    float inv = len > 0.0f ? 1.0f / len : 0.0f;
    *x *= inv, *y *= inv, *z *= inv;
}

void mesh_normals_reference(const MeshGrid *grid, MeshSoa3Const pos, MeshSoa3 out)
{
    size_t n = grid->vertex_count;
    memset(out.x, 0, n * sizeof(float));
    memset(out.y, 0, n * sizeof(float));
    memset(out.z, 0, n * sizeof(float));
    for (size_t t = 0; t < grid->triangle_count; t++) {
        const uint32_t *tri = &grid->indices[3 * t];
        float tn[3];
        triangle_unit_normal(pos, tri, tn);
        for (int k = 0; k < 3; k++) {
            out.x[tri[k]] += tn[0];
            out.y[tri[k]] += tn[1];
            out.z[tri[k]] += tn[2];
        }
    }
    for (size_t k = 0; k < n; k++)
        normalise_in_place(&out.x[k], &out.y[k], &out.z[k]);
}

void mesh_normals_triangles(const MeshGrid *grid, MeshSoa3Const pos, MeshSoa3 out)
{
    for (size_t t = 0; t < grid->triangle_count; t++) {
        float tn[3];
        triangle_unit_normal(pos, &grid->indices[3 * t], tn);
        out.x[t] = tn[0], out.y[t] = tn[1], out.z[t] = tn[2];
    }
}

void mesh_normals_gather(const MeshGrid *grid, MeshSoa3Const tri, MeshSoa3 out)
{
    for (uint32_t j = 0; j < grid->ny; j++) {
        for (uint32_t i = 0; i < grid->nx; i++) {
            uint32_t around[6];
            int count = mesh_grid_vertex_triangles(grid, i, j, around);
            float sx = 0.0f, sy = 0.0f, sz = 0.0f;
            for (int k = 0; k < count; k++) {
                sx += tri.x[around[k]];
                sy += tri.y[around[k]];
                sz += tri.z[around[k]];
            }
            normalise_in_place(&sx, &sy, &sz);
            size_t v = (size_t)j * grid->nx + i;
            out.x[v] = sx, out.y[v] = sy, out.z[v] = sz;
        }
    }
}

double mesh_normal_angle_deg(const double a[3], const double b[3])
{
    /* atan2(|a x b|, a.b): accurate for tiny angles, where acos of a dot product is not */
    double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    return atan2(sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), dot) * 180.0 /
           3.14159265358979323846;
}
