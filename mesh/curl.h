/* The curl: maps a flat page point to its place in 3-D for a pose of the turn. Pure maths in the
 * page frame of ../design/curl.md (spine on x = 0, page in x >= 0, z towards the viewer).
 * The skeleton's model is the cylinder roll; the pose parameters live in CurlParams
 * (shaders/shared.h) so that a compute shader can evaluate the same map. */
#ifndef PAGECURL_MESH_CURL_H
#define PAGECURL_MESH_CURL_H

#include "../shaders/shared.h"

#include <stddef.h>

/* Fraction of the page width used as the roll radius at mid-turn, and its floor at the ends. */
#define MESH_CURL_RADIUS_MID 0.16f
#define MESH_CURL_RADIUS_MIN 0.02f

/* The pose at progress t in [0, 1] (0 flat, 1 turned over the spine) for a page grabbed on its
 * free edge at height g in [0, 1] (0 = bottom corner). Continuous in t and g; the spine never
 * moves. */
CurlParams mesh_curl_pose(float t, float g, float width, float height);

/* Deforms n rest points (rx, ry) into (x, y, z). */
void mesh_curl_apply(const CurlParams *params, const float *rx, const float *ry, size_t n,
                     float *x, float *y, float *z);

/* The same map in double precision, with its analytic unit normal: the oracle for tests. */
void mesh_curl_point(const CurlParams *params, double px, double py, double pos[3],
                     double normal[3]);

#endif
