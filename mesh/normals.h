/* SPDX-License-Identifier: MIT */
/* CPU reference normals: the oracle the GPU passes are tested against. Two forms that agree up to
 * float rounding: the scalar reference loop (Project Austin's form) and the GPU's two-pass form
 * (one unit normal per triangle, then a per-vertex gather in the fixed order of shaders/shared.h).
 * Both weight every incident triangle equally (unit normals summed, then normalised). */
#ifndef PAGECURL_MESH_NORMALS_H
#define PAGECURL_MESH_NORMALS_H

#include "grid.h"

/* Structure-of-arrays float3: three planes of `count` floats. Not owned. */
typedef struct MeshSoa3 {
    float *x, *y, *z;
} MeshSoa3;

typedef struct MeshSoa3Const {
    const float *x, *y, *z;
} MeshSoa3Const;

/* The reference loop: each triangle's unit normal added to its three vertices, then normalised. */
void mesh_normals_reference(const MeshGrid *grid, MeshSoa3Const pos, MeshSoa3 out_normals);

/* Pass 1: the unit normal of every triangle (zero for a degenerate one). */
void mesh_normals_triangles(const MeshGrid *grid, MeshSoa3Const pos, MeshSoa3 out_tri);
/* Pass 2: every vertex gathers its <= 6 triangle normals in the fixed order and normalises. */
void mesh_normals_gather(const MeshGrid *grid, MeshSoa3Const tri, MeshSoa3 out_normals);

/* The angle between two normals in degrees, neither needing unit length; how far one normal
 * form is from another. */
double mesh_normal_angle_deg(const double a[3], const double b[3]);

#endif
