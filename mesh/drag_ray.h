/* SPDX-License-Identifier: MIT */
/* The drag mapping seen through a camera: where to hold the page so that the grabbed point,
 * curled and lifted as the pose lifts it, lies on the pointer's line of sight. mesh_curl_drag
 * takes a pointer in the page plane and puts the grabbed point's image over it, but the roll
 * lifts that point off the plane, and any camera but one looking straight down then shows it away
 * from the pointer. This finds the plane pointer whose pose puts the lifted point on the ray.
 * Pure maths in the curl's page frame (mesh/curl.h): the caller brings the ray into that frame. */
#ifndef PAGECURL_MESH_DRAG_RAY_H
#define PAGECURL_MESH_DRAG_RAY_H

#include "curl.h"
#include "pick.h"

/* The plane pointer Q (page frame, within mesh_curl_reach's lens) for which
 * mesh_curl_drag(grab, Q) puts the curled grabbed point on `ray`. When no reachable pose does
 * (the pointer is off the page's reach), the Q whose grabbed point lies nearest the ray in angle
 * as seen from the ray's origin (on screen: nearest the pointer). Where several poses put it on
 * the ray, the one the eye sees first (the topmost crossing). The answer depends on the ray and
 * the grab alone, not on the pointer's history, and moves continuously with the ray (checked in
 * tests/test_drag.c). Costs about 30-45 mesh_curl_drag solves, up to a few hundred out of reach.
 * A degenerate ray or page gives the grab itself (the flat page); never aborts. */
MeshVec2 mesh_drag_ray(MeshVec2 grab, const MeshRay *ray, float width, float height);

/* The grabbed point's angular distance from the ray (radians, as seen from its origin) for the
 * pose mesh_curl_drag(grab, pointer): 0 when it lies on the ray. */
double mesh_drag_ray_miss(MeshVec2 grab, MeshVec2 pointer, const MeshRay *ray, float width,
                          float height);

#endif
