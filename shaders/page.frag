#version 450
#extension GL_GOOGLE_include_directive : require
// Paper lit by the GPU normals: ambient + diffuse and a soft sheen, both sides. The front is ruled
// notebook paper, the back a plain tinted sheet, so a turned page is told apart at a glance.
#include "shared.h"

layout(push_constant) uniform Push { PcDrawPush draw; };
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 3) in vec3 in_to_eye;
layout(location = 0) out vec4 out_color;

// Linear-light colours; the sRGB target encodes them.
const vec3 FRONT_PAPER = vec3(0.92, 0.88, 0.78);
const vec3 BACK_PAPER = vec3(0.55, 0.66, 0.85);
const vec3 RULE = vec3(0.25, 0.42, 0.75);
const vec3 MARGIN = vec3(0.80, 0.20, 0.20);
const float AMBIENT = 0.30;
// Paper is matte but not Lambertian: its fibres give a broad, faint highlight and a little more
// reflection at grazing angles. Both small, so the page never looks like plastic.
const vec3 SHEEN_COLOR = vec3(1.0, 0.98, 0.94);
const float SHEEN_GLOSS = 10.0;    // Blinn-Phong exponent: a highlight as broad as the page
const float SHEEN_SPECULAR = 0.07; // its peak, against an albedo near 0.9
const float SHEEN_FRESNEL = 0.10;  // Schlick's grazing term, scaled down for a rough surface

vec3 sheen(vec3 n, vec3 l, vec3 v)
{
    float ndl = dot(n, l);
    if (ndl <= 0.0)
        return vec3(0.0); // the light is behind this side
    vec3 h = normalize(l + v);
    float spec = SHEEN_SPECULAR * pow(max(dot(n, h), 0.0), SHEEN_GLOSS);
    float grazing = pow(1.0 - clamp(dot(n, v), 0.0, 1.0), 5.0);
    return SHEEN_COLOR * (spec + SHEEN_FRESNEL * grazing * ndl);
}

// Coverage of a line of half-width w (in cells) at the nearest integer of f: anti-aliased with
// the screen-space derivative so rules stay crisp at any zoom.
float line_cover(float f, float w)
{
    float d = abs(f - round(f));
    float aa = fwidth(f);
    return 1.0 - smoothstep(w, w + aa, d);
}

void main()
{
    vec3 n = normalize(in_normal);
    vec3 albedo;
    // A mirrored placement inverts the rasterizer's idea of which side faces the viewer.
    bool mirrored = draw.placement.x * draw.placement.y * draw.placement.z < 0.0;
    bool toward_viewer = gl_FrontFacing != mirrored; // the model's +z side faces the viewer
    if (!toward_viewer)
        n = -n; // the other side's outward normal is this one reversed
    bool leaf_front = toward_viewer != (draw.placement.w > 0.5);
    if (leaf_front) {
        float y = in_uv.y * draw.page.z;
        float rule = in_uv.y < 0.92 ? line_cover(y, 0.02) : 0.0;
        float x = in_uv.x * draw.page.x;
        float margin = 1.0 - smoothstep(0.003, 0.003 + fwidth(x), abs(x - 0.12 * draw.page.x));
        albedo = mix(FRONT_PAPER, RULE, 0.6 * rule);
        albedo = mix(albedo, MARGIN, 0.8 * margin);
    } else {
        albedo = BACK_PAPER;
    }
    vec3 l = draw.light_dir.xyz, v = normalize(in_to_eye);
    float diffuse = max(dot(n, l), 0.0);
    out_color = vec4(albedo * (AMBIENT + (1.0 - AMBIENT) * diffuse) + sheen(n, l, v), 1.0);
}
