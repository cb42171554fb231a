#version 450
#extension GL_GOOGLE_include_directive : require
// Paper lit by the GPU normals: ambient + diffuse and a soft sheen, both sides. Each side is
// printed from its own layer of the page-content texture (app/content.c: the front ruled with a
// title, the back graph paper), sampled trilinearly from its mips.
#include "shared.h"

layout(push_constant) uniform Push { PcDrawPush draw; };
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 3) in vec3 in_to_eye;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2DArray content;

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

void main()
{
    vec3 n = normalize(in_normal);
    // A mirrored placement inverts the rasterizer's idea of which side faces the viewer.
    bool mirrored = draw.placement.x * draw.placement.y * draw.placement.z < 0.0;
    bool toward_viewer = gl_FrontFacing != mirrored; // the model's +z side faces the viewer
    if (!toward_viewer)
        n = -n; // the other side's outward normal is this one reversed
    bool leaf_front = toward_viewer != (draw.placement.w > 0.5);
    // Texture rows run top down. The back is seen from behind: its u runs right to left as
    // the viewer sees it, so it is read mirrored to print the right way round.
    // Gradients from the uv, not from st: where the two sides meet inside a pixel quad st jumps,
    // and its derivatives would pick the smallest mip along the silhouette.
    vec2 flip = vec2(leaf_front ? 1.0 : -1.0, -1.0);
    vec2 st = vec2(leaf_front ? in_uv.x : 1.0 - in_uv.x, 1.0 - in_uv.y);
    float layer = draw.page.z + (leaf_front ? 0.0 : 1.0);
    vec3 albedo =
        textureGrad(content, vec3(st, layer), flip * dFdx(in_uv), flip * dFdy(in_uv)).rgb;
    vec3 l = draw.light_dir.xyz, v = normalize(in_to_eye);
    float diffuse = max(dot(n, l), 0.0);
    out_color = vec4(albedo * (AMBIENT + (1.0 - AMBIENT) * diffuse) + sheen(n, l, v), 1.0);
}
