/* SPDX-License-Identifier: MIT */
/* What a leaf turning about the spine can reach, and how much of that a pose uses: the volume the
 * camera frames while a leaf is in flight (book/camera.c, docs/rendering.md#framing). Pure maths
 * in the spread's frame: spine on x = 0, pages 0 <= y <= height, the page plane z = 0, z towards
 * the viewer, either side of the spine alike.
 *
 * Paper does not stretch and the spine stays put, so every point of a leaf of width W lies within
 * the half-cylinder of radius W about the spine's line, and past the head or the foot by at most
 * mesh_reach_overhang. A share s (0 .. 1) of that reach is two shapes drawn down towards the
 * page: the half-cylinder squashed to s of its height, and the wedges of it within s x 90
 * degrees of the page on either side (a leaf near the spine rises steeply but not high, one
 * hinged far out rises at a low angle), each reaching past head and foot by s of the overhang.
 * At 0 both are the flat page, at 1 the whole reach. The camera at
 * share s takes in the extreme points of both (mesh_reach_points); a pose whose share is s lies
 * within them. */
#ifndef PAGECURL_MESH_REACH_H
#define PAGECURL_MESH_REACH_H

#include "curl.h"

#include <stdbool.h>

/* The reach is sampled at this many distances from the spine (and 0), and at this many angles
 * over each half-circle (each arc's points pushed out so that their polygon holds the arc). */
#define MESH_REACH_RADII  8
#define MESH_REACH_ANGLES 32
/* mesh_reach_points' count, at most */
#define MESH_REACH_MAX_POINTS (2 * (MESH_REACH_RADII + 1) * (2 * MESH_REACH_ANGLES + 3))

/* How far past the head (or the foot) a leaf reaches at most: a point u from the spine stays
 * within its distance in the page (at most the diagonal D) of the spine's ends, so D - H past
 * (a corner dragged down past the foot next to the spine). */
float mesh_reach_overhang(float width, float height);

/* The extreme points of share `share` of the reach, x cut to [x_lo, x_hi] (the span framed).
 * Returns how many (at most MESH_REACH_MAX_POINTS). */
int mesh_reach_points(float width, float height, float x_lo, float x_hi, float share,
                      float out[][3]);

/* The least share of the reach that holds the point: 0 on the page's rectangle (or under it), 1
 * where no share does. Continuous. */
double mesh_reach_share_point(const double p[3], double width, double height);

/* Where a leaf is framed across, in its own frame: [lo, hi] at share 0, whose edges move out by
 * share x grow_lo and share x grow_hi (a closed book's empty side coming into view as the view
 * pulls back); or, with `cut`, [lo, hi] only, what lies outside let go (the one-page layout's
 * leaf past the spine, which lifts off to beyond the window). */
typedef struct MeshReachSpan {
    float lo, hi, grow_lo, grow_hi;
    bool cut;
} MeshReachSpan;

/* The least share that holds the leaf posed by `pose` (leaf frame, as mesh/curl.h) within
 * `span`: its points sampled on a grid, each allowed a margin of up to MESH_REACH_MARGIN page
 * widths, each needing the share that holds it above the page and the share that moves the
 * span's edge out past it; with `cut`, the points outside count less the further out they are,
 * and not at all MESH_REACH_FADE page widths away. Continuous in the pose. */
#define MESH_REACH_MARGIN 0.01
#define MESH_REACH_FADE   0.1
float mesh_reach_share(const CurlParams *pose, float width, float height,
                       const MeshReachSpan *span);

#endif
