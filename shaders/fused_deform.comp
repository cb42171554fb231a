/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef PC_FUSED_SHUFFLE
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
// fused_deform with shared.h's tile, for pages of more than PC_SMALL_PAGE_VERTICES.
#include "shared.h"
#define PC_CURL_BISECT
#include "fused_deform.glsl"
