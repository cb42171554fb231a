/* SPDX-License-Identifier: MIT */
/* Picking on the curled page: where a ray (a pointer's line of sight) meets the deformed leaf,
 * as the rest point of the page it hits and which side it sees. Pure maths in the curl's page
 * frame (mesh/curl.h): the caller brings the ray into that frame. Finds the nearest hit along the
 * ray on a coarse triangulation of the curl, then refines it on the exact map by Newton's method,
 * so the answer does not depend on any mesh the renderer draws. Never aborts. */
#ifndef PAGECURL_MESH_PICK_H
#define PAGECURL_MESH_PICK_H

#include "curl.h"

#include <stdbool.h>

/* The coarse search's cells across the page (along the spine in proportion): fine enough that
 * the tightest roll (radius MESH_CURL_RADIUS_MID) spans a dozen cells, so the nearest coarse hit
 * lies on the sheet the ray really meets first. */
#define MESH_PICK_CELLS 40

typedef struct MeshRay {
    double origin[3], dir[3]; /* dir need not be unit */
} MeshRay;

typedef struct MeshPick {
    double x, y; /* the rest point hit: 0 <= x <= width from the spine, 0 <= y <= height */
    double t;    /* along the ray: hit = origin + t dir */
    bool plus_z; /* the ray sees the side that faces +z at rest */
} MeshPick;

/* a . b; a x b into out. */
double mesh_dot3(const double a[3], const double b[3]);
void mesh_cross3(const double a[3], const double b[3], double out[3]);
/* Unit axes e1, e2 across the unit direction d: with d, a right-handed orthonormal basis. */
void mesh_ray_across(const double d[3], double e1[3], double e2[3]);

/* The first point of the posed page on the ray (t > 0); false when the ray misses the page. */
bool mesh_pick_curl(const CurlParams *pose, float width, float height, const MeshRay *ray,
                    MeshPick *out);

#endif
