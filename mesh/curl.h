/* SPDX-License-Identifier: MIT */
/* The curl: maps a flat page point to its place in 3-D for a pose of the turn, and finds the pose
 * for a drag. Pure maths in the page frame of docs/curl.md (spine on x = 0, page in
 * 0 <= x <= W, 0 <= y <= H, z towards the viewer). The model is one exactly developable family: a
 * generalised cone whose apex, on the fold line, recedes to infinity (a cylinder) as the grab
 * moves from a corner to mid-edge; its curvature ramps up in steps at the fold. The pose lives in
 * CurlParams (shaders/shared.h) so that shaders/curl.glsl evaluates the same map. Never aborts:
 * non-finite or out-of-range inputs give clamped poses or the flat page. */
#ifndef PAGECURL_MESH_CURL_H
#define PAGECURL_MESH_CURL_H

#include "../shaders/shared.h"

#include <stdbool.h>
#include <stddef.h>

/* Largest roll radius, in page widths, mid-turn. */
#define MESH_CURL_RADIUS_MID 0.16f
/* Ramp length over roll radius: the curvature rises from 0 to 1/r over this many radii
 * (0 switches the ramp off). */
#define MESH_CURL_RAMP 1.0f
/* Largest cone curvature kappa (1 / apex distance), in 1/page width, for a corner grab. */
#define MESH_CURL_KAPPA_MAX 1.0f

typedef struct MeshVec2 {
    float x, y;
} MeshVec2;

/* The pose at progress t in [0, 1] (0 flat, 1 turned over the spine) for a page grabbed on its
 * free edge at height g in [0, 1] (0 = bottom corner): the grabbed point (W, gH) is dragged along
 * a fixed path to its mirror (-W, gH) and mesh_curl_drag gives the pose. Continuous in t and g;
 * the spine never moves. */
CurlParams mesh_curl_pose(float t, float g, float width, float height);

/* A rigid board hinged at the spine (a hard cover), turned over it by `angle` radians (clamped
 * to [1e-6, pi - 1e-6]: 0 would be a whole turn): a roll of radius 0 on the spine that stops at
 * `angle`, so the page beyond it stays flat. */
CurlParams mesh_curl_hinge(float angle);

/* The pose that puts the material point `grab` (page coordinates) under `pointer` (a point in
 * the page plane, x < 0 past the spine), the spine staying put. A pointer out of reach (the lens
 * of points no further from either spine end than the grab point at rest) is first projected onto
 * the lens's boundary: mesh_curl_reach. pointer == grab gives the flat page. */
CurlParams mesh_curl_drag(MeshVec2 grab, MeshVec2 pointer, float width, float height);

/* The reachable point nearest to `pointer` for `grab` (pointer itself when reachable). */
MeshVec2 mesh_curl_reach(MeshVec2 grab, MeshVec2 pointer, float width, float height);

/* A box (lo, hi per axis, page frame) that holds the whole page of width x height in this pose:
 * every point of it, so every vertex of any grid deformed by the pose. */
void mesh_curl_bounds(const CurlParams *params, float width, float height, float lo[3],
                      float hi[3]);

/* Where the pose's rulings meet, homogeneous in the page frame: (kappa * apex, kappa), the
 * apex on the fold line; for a cylinder (kappa = 0), (-d, 0) with d the fold line's direction. The
 * curl keeps the apex in place and maps each ruling to a line through it, so at any point p of
 * the page, P its image and N its normal, the ruling kappa * p - a.xy goes to kappa * P - a.xy
 * and its perpendicular in the page to N times that: the page's tangent frame at P, which the
 * low tier's vertex shader extends the page's edges along (shaders/page.vert). A flat pose
 * gives 0. */
void mesh_curl_apex(const CurlParams *params, float out[3]);

/* The pose's profile pieces and the frame where each starts, for shaders/curl.glsl. */
void mesh_curl_segments(const CurlParams *params, CurlSegments *out);

/* Deforms n rest points (rx, ry) into (x, y, z). */
void mesh_curl_apply(const CurlParams *params, const float *rx, const float *ry, size_t n, float *x,
                     float *y, float *z);

/* The frame where a piece of the profile starts: T along the fold line, t along the profile, N the
 * normal, P the point. */
typedef struct MeshCurlFrame {
    double T[3], t[3], N[3], P[3];
} MeshCurlFrame;

/* What successive evaluations of nearby poses share, for the pose solve (curl_drag.c), whose
 * residuals change the fold's place far more often than the roll: the profile's pieces with their
 * turns for the last (r, ramp, kappa, turn), and their frames for the last fold direction too. Its
 * fields belong to curl.c; zero-initialise it ({0}) before its first use. */
typedef enum MeshCurlCached {
    MESH_CURL_CACHED_NOTHING = 0,
    MESH_CURL_CACHED_PIECES,
    MESH_CURL_CACHED_FRAMES, /* the pieces and their frames */
} MeshCurlCached;

typedef struct MeshCurlCache {
    MeshCurlCached have;
    double r, ramp, kappa, turn, n[2];
    double start[PC_CURL_SEGMENTS], theta[PC_CURL_SEGMENTS], len[PC_CURL_SEGMENTS];
    double a[PC_CURL_SEGMENTS], b[PC_CURL_SEGMENTS]; /* each piece's turn (curl.c's frame_turn) */
    MeshCurlFrame frame[PC_CURL_SEGMENTS];
} MeshCurlCache;

/* Where a pose leaves the page flat: the fold's frame and the arc length across the fold
 * (sigma) past which the page lies flat again after the roll (flat_from; infinite when the roll
 * never ends). A point lies flat before the fold where mesh_curl_sigma is <= 0. */
typedef struct MeshCurlAcross {
    double p0[2], n[2], d[2], kappa, flat_from;
    bool flat; /* the whole page is flat */
} MeshCurlAcross;
void mesh_curl_across(const CurlParams *params, MeshCurlAcross *out);
/* The rest point's arc length across the fold (its distance from the fold line for a cylinder,
 * the angle about the apex over kappa for a cone), as the map takes it; 0 on the fold's flat
 * side. Along a straight line of the page it is monotone where it is positive. */
double mesh_curl_sigma(const MeshCurlAcross *a, double px, double py);

/* The same map in double precision, with its analytic unit normal: the oracle for tests. */
void mesh_curl_point(const CurlParams *params, double px, double py, double pos[3],
                     double normal[3]);
/* mesh_curl_point with what the pose shares with the cache's last one taken from it (and the cache
 * updated): the same bits as mesh_curl_point. */
void mesh_curl_point_cached(const CurlParams *params, MeshCurlCache *cache, double px, double py,
                            double pos[3], double normal[3]);
/* mesh_curl_point for n points (xy: x, y pairs; pos, normal: 3 doubles each, normal may be
 * NULL), the pose's profile worked out once instead of per point. */
void mesh_curl_points(const CurlParams *params, size_t n, const double *xy, double *pos,
                      double *normal);
/* mesh_curl_points with the profile taken from `cache` where the pose shares it (and the cache
 * updated): a pose's points in several batches pay for its profile once. The same bits. */
void mesh_curl_points_cached(const CurlParams *params, MeshCurlCache *cache, size_t n,
                             const double *xy, double *pos, double *normal);

#endif
