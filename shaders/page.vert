#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

layout(push_constant) uniform Push { PcDrawPush draw; };
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;

void main()
{
    gl_Position = draw.view_proj * vec4(in_pos, 1.0);
    out_normal = in_normal * draw.placement.xyz; // a diagonal of +-1: its own inverse transpose
    out_uv = in_uv;
}
