/* SPDX-License-Identifier: MIT */
/* The box a pose's page lies in, for what must bound the page without its vertices (the low
 * tier's shadow, gpu/shadow.c). */
#include "curl.h"

#include <math.h>

/* Rest points on a side of the lattice: 17 x 17 evaluations of the curl (a few µs), the box
 * grown by 1/32 of the page's diagonal. */
#define BOUNDS_LATTICE 17

void mesh_curl_bounds(const CurlParams *params, float width, float height, float lo[3], float hi[3])
{
    enum { N = BOUNDS_LATTICE * BOUNDS_LATTICE };
    double xy[2 * N], pos[3 * N];
    double dx = (double)width / (BOUNDS_LATTICE - 1), dy = (double)height / (BOUNDS_LATTICE - 1);
    for (int j = 0; j < BOUNDS_LATTICE; j++) {
        for (int i = 0; i < BOUNDS_LATTICE; i++) {
            xy[2 * (j * BOUNDS_LATTICE + i)] = i * dx;
            xy[2 * (j * BOUNDS_LATTICE + i) + 1] = j * dy;
        }
    }
    mesh_curl_points(params, N, xy, pos, NULL);
    double box_lo[3] = {INFINITY, INFINITY, INFINITY},
           box_hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int k = 0; k < N; k++) {
        for (int c = 0; c < 3; c++) {
            box_lo[c] = fmin(box_lo[c], pos[3 * k + c]);
            box_hi[c] = fmax(box_hi[c], pos[3 * k + c]);
        }
    }
    /* Paper does not stretch: a point of the page is no further in space from the nearest
     * lattice point than along the page, at most half a lattice cell's diagonal; 1 % more for
     * rounding and for the float positions the GPU computes. */
    double grow = 0.505 * hypot(dx, dy);
    for (int c = 0; c < 3; c++) {
        lo[c] = (float)(box_lo[c] - grow);
        hi[c] = (float)(box_hi[c] + grow);
    }
}
