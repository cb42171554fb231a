/* SPDX-License-Identifier: MIT */
/* mesh/curl_drag.c built once more with every residual of the pose solve worked out from scratch
 * (tests/curl_drag_reference.c): what the cached solve must match bit for bit. */
#ifndef PAGECURL_TESTS_CURL_DRAG_REFERENCE_H
#define PAGECURL_TESTS_CURL_DRAG_REFERENCE_H

#include "../mesh/curl.h"

CurlParams reference_curl_pose(float t, float g, float width, float height);
CurlParams reference_curl_drag(MeshVec2 grab, MeshVec2 pointer, float width, float height);
MeshVec2 reference_curl_reach(MeshVec2 grab, MeshVec2 pointer, float width, float height);

#endif
