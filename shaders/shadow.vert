/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// The shadow pass: the turning leaf's vertex buffer, the same the camera draws, seen from the
// light; with the paper's uv for the low tier's (shadow_smooth.geom, shadow_smooth.frag).
#include "shared.h"
#include "shadow.glsl"

#include "draw.glsl"
layout(location = 0) in vec3 in_pos;
layout(location = 2) in vec2 in_uv;
layout(location = 0) out vec2 out_uv;

void main()
{
    vec3 world = in_pos * draw.model.xyz + vec3(0.0, 0.0, draw.model.w);
    gl_Position = vec4(shadow_light_space(world, draw.light_dir.xyz, draw.page.xy), 1.0);
    out_uv = in_uv;
}
