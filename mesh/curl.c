#include "curl.h"

#include <math.h>

/* M_PI is not in C11. */
#define CURL_PI 3.14159265358979323846

/* Largest tilt of the fold line (radians) at mid-turn for a corner grab: enough to make a corner
 * lead the turn, small enough that the spine bound below rarely binds. */
#define CURL_MAX_TILT 0.5

static double clamp01(double v)
{
    return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
}

CurlParams mesh_curl_pose(float t_in, float g_in, float width, float height)
{
    double t = clamp01(t_in), g = clamp01(g_in);
    double bump = sin(CURL_PI * t); /* 0 at both ends: the page lies flat there */
    double tilt = (0.5 - g) * 2.0 * CURL_MAX_TILT * bump;
    double r = width * (MESH_CURL_RADIUS_MIN + (MESH_CURL_RADIUS_MID - MESH_CURL_RADIUS_MIN) * bump);
    double nx = cos(tilt), ny = -sin(tilt); /* g < 1/2 tilts the normal towards the bottom corner */
    double gy = g * height;
    /* The fold line crosses the grab height at x0, sweeping from the free edge to the spine. */
    double x0 = (1.0 - t) * width;
    /* Keep every spine point (0, y), y in [0, H], on the flat side (s <= 0): the spine is glued. */
    double ylo = ny < 0.0 ? 0.0 : height; /* the spine point furthest along n */
    double bound = (ylo - gy) * ny / nx;
    if (x0 < bound)
        x0 = bound;
    CurlParams p = {
        .fold = {{(float)x0, (float)gy, (float)nx, (float)ny}},
        .shape = {{(float)r, 0.0f, 0.0f, 0.0f}},
    };
    return p;
}

void mesh_curl_point(const CurlParams *params, double px, double py, double pos[3],
                     double normal[3])
{
    double ox = params->fold.v[0], oy = params->fold.v[1];
    double nx = params->fold.v[2], ny = params->fold.v[3];
    double r = params->shape.v[0];
    double s = (px - ox) * nx + (py - oy) * ny;
    if (s <= 0.0) {
        pos[0] = px, pos[1] = py, pos[2] = 0.0;
        normal[0] = 0.0, normal[1] = 0.0, normal[2] = 1.0;
    } else if (s < CURL_PI * r) {
        double phi = s / r;
        double back = s - r * sin(phi);
        pos[0] = px - nx * back, pos[1] = py - ny * back, pos[2] = r * (1.0 - cos(phi));
        normal[0] = -nx * sin(phi), normal[1] = -ny * sin(phi), normal[2] = cos(phi);
    } else {
        double back = 2.0 * s - CURL_PI * r;
        pos[0] = px - nx * back, pos[1] = py - ny * back, pos[2] = 2.0 * r;
        normal[0] = 0.0, normal[1] = 0.0, normal[2] = -1.0;
    }
}

void mesh_curl_apply(const CurlParams *params, const float *rx, const float *ry, size_t n,
                     float *x, float *y, float *z)
{
    for (size_t k = 0; k < n; k++) {
        double pos[3], normal[3];
        mesh_curl_point(params, rx[k], ry[k], pos, normal);
        x[k] = (float)pos[0], y[k] = (float)pos[1], z[k] = (float)pos[2];
    }
}
