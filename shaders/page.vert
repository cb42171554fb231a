#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

layout(push_constant) uniform Push { PcDrawPush draw; };
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec3 out_world;
layout(location = 3) out vec3 out_to_eye;

void main()
{
    gl_Position = draw.view_proj * vec4(in_pos, 1.0);
    out_normal = in_normal * draw.placement.xyz; // a diagonal of +-1: its own inverse transpose
    out_uv = in_uv;
    out_world = in_pos * draw.model.xyz + vec3(0.0, 0.0, draw.model.w);
    // The eye is the point view_proj sends to clip w = 0 on the axis: its inverse's third
    // column, in model space. The push has no room for it, and a 4x4 inverse per vertex is cheap.
    vec4 eye = inverse(draw.view_proj) * vec4(0.0, 0.0, 1.0, 0.0);
    out_to_eye = (eye.xyz / eye.w - in_pos) * draw.model.xyz; // model -> world: the diagonal
}
