/* SPDX-License-Identifier: MIT */
/* The reference of tests/curl_drag_reference.h: mesh/curl_drag.c under other names, its residuals
 * through mesh_curl_point instead of the cache. */
#define MESH_CURL_DRAG_REFERENCE
#define mesh_curl_pose  reference_curl_pose
#define mesh_curl_drag  reference_curl_drag
#define mesh_curl_reach reference_curl_reach
#include "../mesh/curl_drag.c"
