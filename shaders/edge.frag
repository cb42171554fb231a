#version 450
#extension GL_GOOGLE_include_directive : require
// The side faces of a block of leaves (the stack edge under a flat page, PC_DRAW_EDGE): the cut
// paper seen edge on, a fine line where each leaf meets the next, leaves and groups of leaves a
// little unlike each other in tone (a stack is never quite flush). Every pattern is filtered over
// the pixel's footprint, measured in leaves: the lines are box-filtered exactly, the tones fade to
// their mean once their period nears a pixel, so nothing finer than a pixel aliases or shimmers
// (from the default camera a leaf is a tenth of a pixel deep at 640x480: the edge then shows its
// average tone and only the broadest streaks). A pipeline of its own: as a branch in page.frag
// it would make every page pixel dearer on lavapipe, which runs a branch's code masked.
#include "shared.h"
#include "paper.glsl"

layout(push_constant) uniform Push { PcDrawPush draw; };
layout(location = 0) in vec3 in_normal; // page.vert's outputs
layout(location = 1) in vec2 in_uv;     // x along the face, y down from the block's top (0..1)
layout(location = 2) in vec3 in_world;
layout(location = 3) in vec3 in_to_eye;
layout(location = 0) out vec4 out_color;
// The tier (gpu/quality.h): PC_TIER_* bits, 0 in the high tier.
layout(constant_id = 0) const uint TIER = 0u;
const bool EDGE_AA = (TIER & PC_TIER_EDGE_AA) != 0u;

// The paper's body, a little greyer than its sized, printed face (pages/content.c FRONT_PAPER).
const vec3 EDGE_PAPER = vec3(0.90, 0.87, 0.78);
// Where two leaves meet: a darker line EDGE_GAP of a leaf deep, EDGE_GAP_DARKNESS darker.
const float EDGE_GAP = 0.25;
const float EDGE_GAP_DARKNESS = 0.25;
// Tone differences (+-): of each leaf, of groups of EDGE_GROUP leaves, of groups 4x larger.
const float EDGE_LEAF_TONE = 0.06;
const float EDGE_GROUP_TONE = 0.06;
const float EDGE_GROUP = 4.0;
// Groups change tone EDGE_ALONG times along a face: leaves stick out unevenly along their edge.
const float EDGE_ALONG = 3.0;
// Paper is translucent: light that enters the block through its top and its faces scatters out
// of the cut fibres, so an edge turned from the light is a little dimmer than the page, not dark.
// Wrapped diffuse: (n.l + w) / (1 + w), a fifth of full light for a face opposite the light.
const float EDGE_WRAP = 1.5;

// A well-mixed integer hash (Wellons' lowbias32): the same bits on every device, unlike the
// sin()-based hashes.
uint edge_mix(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A lattice point's value in [0, 1].
float edge_hash(float i, float j)
{
    return float(edge_mix(edge_mix(uint(int(i))) ^ uint(int(j)))) * (1.0 / 4294967295.0);
}

// Value noise in [-1, 1] over (leaves / period, along the face), smooth between lattice points.
float edge_noise(vec2 p)
{
    vec2 i = floor(p), f = p - i;
    f = f * f * (3.0 - 2.0 * f);
    float a = edge_hash(i.x, i.y), b = edge_hash(i.x + 1.0, i.y);
    float c = edge_hash(i.x, i.y + 1.0), d = edge_hash(i.x + 1.0, i.y + 1.0);
    return 2.0 * mix(mix(a, b, f.x), mix(c, d, f.x), f.y) - 1.0;
}

// How much of a pattern of `period` leaves survives a footprint of `w` leaves: all of it down to
// two pixels a period, none at one.
float edge_keep(float period, float w)
{
    return 1.0 - smoothstep(0.5, 1.0, w / period);
}

// The share of [s - w/2, s + w/2] covered by the lines between leaves (centred on whole s).
float edge_gaps(float s, float w)
{
    // integral of the line train from 0: whole periods, then the part of the current line
    vec2 y = vec2(s - 0.5 * w, s + 0.5 * w) + 0.5 * EDGE_GAP;
    vec2 integral = floor(y) * EDGE_GAP + min(fract(y), EDGE_GAP);
    return (integral.y - integral.x) / w;
}

// The edge's albedo at s leaves down from the block's top, u along the face (0..1), with w leaves
// under the pixel.
vec3 edge_albedo(float s, float w, float u)
{
    float tone = EDGE_LEAF_TONE * (2.0 * edge_hash(floor(s), -1.0) - 1.0) * edge_keep(1.0, w);
    tone += EDGE_GROUP_TONE * edge_noise(vec2(s / EDGE_GROUP, u * EDGE_ALONG)) *
            edge_keep(EDGE_GROUP, w);
    tone += EDGE_GROUP_TONE * edge_noise(vec2(s / (4.0 * EDGE_GROUP), u * EDGE_ALONG + 17.0)) *
            edge_keep(4.0 * EDGE_GROUP, w);
    float gaps = edge_gaps(s, w);
    return EDGE_PAPER * (1.0 + tone) * (1.0 - EDGE_GAP_DARKNESS * gaps);
}

// The diffuse share of the light on an edge face with outward normal n.
float edge_diffuse(vec3 n, vec3 l)
{
    return max(dot(n, l) + EDGE_WRAP, 0.0) / (1.0 + EDGE_WRAP);
}

// The outward normal as placed, whichever way the face is seen: the box is seen from outside,
// its inner sides hidden behind its outer ones and the page on top. No sheen: a cut edge is rough.
// No shadow: the faces the camera sees turn away from the light, lit by the wrapped diffuse,
// which the leaf above does not cover.
void main()
{
    vec3 n = normalize(in_normal);
    // Without MSAA a face turned from the eye, which lies under the page, would show in the page's
    // edge pixels, which are blended over whatever lies under their centres: it is not drawn.
    // (The faces are level or upright, so the scaled normal and eye vector keep their sign.)
    if (EDGE_AA && dot(n, in_to_eye) <= 0.0)
        discard;
    float s = in_uv.y * draw.page.z; // page.z: the block's leaves
    float w = max(fwidth(s), 1e-4);  // leaves under this pixel
    // EDGE_AA tucks the face's top under the page's edge (page.vert): what shows of it there, in
    // the page's edge pixels, is the face's first pixel, not the line above the top leaf.
    if (EDGE_AA)
        s = max(s, 0.5 * w);
    vec3 albedo = edge_albedo(s, w, in_uv.x);
    float diffuse = edge_diffuse(n, draw.light_dir.xyz);
    vec3 light = albedo * (AMBIENT + (1.0 - AMBIENT) * diffuse);
    // Without MSAA, the block's bottom (uv.y = 1, against the backdrop) and the book's corners at
    // the ends of its tail and head faces are anti-aliased as the page's edges are (page.frag; the
    // spine's end only where nothing lies beyond it); its top is tucked under the page's own edge
    // (page.vert).
    float alpha = 1.0;
    if (EDGE_AA) {
        vec2 w = max(fwidth(in_uv), vec2(1e-6));
        float d = (1.0 - in_uv.y) / w.y;
        if (abs(n.y) > 0.5) {
            d = min(d, (1.0 - in_uv.x) / w.x);
            if (mod(draw.frame.w, float(PC_FRAME_HEIGHT)) >= float(PC_FRAME_SPINE_EDGE))
                d = min(d, in_uv.x / w.x);
        }
        alpha = clamp(0.5 + d, 0.0, 1.0);
    }
    out_color = vec4(light * paper_gutter(abs(in_world.x), draw.page.x), alpha);
}
