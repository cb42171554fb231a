#version 450
#extension GL_GOOGLE_include_directive : require
// The shadow pass: the turning leaf's vertex buffer, the same the camera draws, seen from the
// light. Depth only.
#include "shared.h"
#include "shadow.glsl"

#include "draw.glsl"
layout(location = 0) in vec3 in_pos;

void main()
{
    vec3 world = in_pos * draw.model.xyz + vec3(0.0, 0.0, draw.model.w);
    gl_Position = vec4(shadow_light_space(world, draw.light_dir.xyz, draw.page.xy), 1.0);
}
