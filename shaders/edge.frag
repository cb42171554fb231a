/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// The side faces of a block of leaves (the stack edge under a flat page, PC_DRAW_EDGE): the cut
// paper seen edge on, a fine line where each leaf meets the next, leaves and groups of leaves a
// little unlike each other in tone (a stack is never quite flush). Every pattern is filtered over
// the pixel's footprint, measured in leaves: the lines are box-filtered exactly, the tones fade to
// their mean once their period nears a pixel, so nothing finer than a pixel aliases or shimmers
// (from the default camera a leaf is a tenth of a pixel deep at 640x480: the edge then shows its
// average tone and only the broadest streaks). A pipeline of its own: as a branch in page.frag
// it would make every page pixel dearer on lavapipe, which runs a branch's code masked. A hard
// cover's board's edges, and the boards' thickness where they lie on a block or under it, show the
// cover's cloth or print (PC_FRAME_BOARD, _BOARD_TOP, _BOARD_BOTTOM).
#include "shared.h"
#include "paper.glsl"

#include "draw.glsl"
layout(location = 0) in vec3 in_normal; // page.vert's outputs
layout(location = 1) in vec2 in_uv;     // x along the face, y down from the block's top (0..1)
layout(location = 2) in vec3 in_world;
layout(location = 3) in vec3 in_to_eye;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2DArray content;
// The tier (gpu/quality.h): PC_TIER_* bits, 0 in the high tier.
layout(constant_id = 0) const uint TIER = 0u;
const bool EDGE_AA = (TIER & PC_TIER_EDGE_AA) != 0u;

// Where two leaves meet: a darker line EDGE_GAP of a leaf deep, EDGE_GAP_DARKNESS darker.
const float EDGE_GAP = 0.25;
const float EDGE_GAP_DARKNESS = 0.25;
// Tone differences (+-): of each leaf, of groups of EDGE_GROUP leaves, of groups 4x larger.
const float EDGE_LEAF_TONE = 0.06;
const float EDGE_GROUP_TONE = 0.06;
const float EDGE_GROUP = 4.0;
// Groups change tone EDGE_ALONG times along a face: leaves stick out unevenly along their edge.
const float EDGE_ALONG = 3.0;

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
    float tone = EDGE_LEAF_TONE * (2.0 * paper_hash(floor(s), -1.0) - 1.0) * pattern_keep(1.0, w);
    tone += EDGE_GROUP_TONE * paper_noise(vec2(s / EDGE_GROUP, u * EDGE_ALONG)) *
            pattern_keep(EDGE_GROUP, w);
    tone += EDGE_GROUP_TONE * paper_noise(vec2(s / (4.0 * EDGE_GROUP), u * EDGE_ALONG + 17.0)) *
            pattern_keep(4.0 * EDGE_GROUP, w);
    float gaps = edge_gaps(s, w);
    return EDGE_PAPER * (1.0 + tone) * (1.0 - EDGE_GAP_DARKNESS * gaps);
}

// A hard cover's board's edge: the cover's material turned in over the board, its cloth, or its
// print at that edge of the page (laminated paper wraps round the board), read at the level whose
// texels are about the board's thickness. `at`: the point of the page (0..1, the leaf's uv) the
// edge runs past; `layer` the content layer of the board's outside, `back` whether that is the
// leaf's back (read mirrored, as page.frag reads it).
vec3 board_edge_albedo(vec2 at, float layer, bool cloth, bool back, float w)
{
    if (cloth)
        return cloth_albedo(at * vec2(1.0, draw.page.y / draw.page.x), w);
    bool forward = back == frame_flag(frame_bits(draw.frame.w), PC_FRAME_MIRRORED);
    vec2 st = vec2(forward ? at.x : 1.0 - at.x, 1.0 - at.y);
    float lod = log2(max(PC_BOARD_THICKNESS * float(textureSize(content, 0).x), 1.0));
    return textureLod(content, vec3(st, layer), lod).rgb;
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
    // A board (PC_FRAME_BOARD: the turning board's edges; BOARD_TOP, BOARD_BOTTOM: the board
    // lying on a block or under it, as deep as its thickness in leaves, box-filtered): the cover
    // over its edge, opaque, lit without the paper's wrap. The point of the page the face runs
    // past: the tail's (u, 0), the fore-edge's (1, u), the head's (u, 1).
    uint frame = frame_bits(draw.frame.w);
    bool whole = frame_flag(frame, PC_FRAME_BOARD);
    bool top = frame_flag(frame, PC_FRAME_BOARD_TOP);
    bool bottom = frame_flag(frame, PC_FRAME_BOARD_BOTTOM);
    float board = whole ? 1.0 : 0.0;
    if (!whole && (top || bottom)) {
        const float B = PC_BOARD_THICKNESS / PC_PAPER_THICKNESS; // the board in leaves
        float leaves = draw.page.z, lo = s - 0.5 * w, hi = s + 0.5 * w;
        float at_top = top ? max(min(hi, B) - lo, 0.0) : 0.0;
        float at_bottom = bottom ? max(hi - max(lo, leaves - B), 0.0) : 0.0;
        board = clamp((at_top + at_bottom) / w, 0.0, 1.0);
    }
    if (board > 0.0) {
        vec2 at = abs(n.y) > 0.5 ? vec2(in_uv.x, n.y > 0.0 ? 1.0 : 0.0) : vec2(1.0, in_uv.x);
        // the turning board's edges hold its outside's layer in page.z, a block its leaves
        // (and frame.x the layer of the board lying on it)
        float layer = whole ? draw.page.z : draw.frame.x;
        float along = abs(n.y) > 0.5 ? 1.0 : draw.page.y / draw.page.x; // page widths per u
        vec3 cover = board_edge_albedo(at, layer, frame_flag(frame, PC_FRAME_CLOTH),
                                       frame_flag(frame, PC_FRAME_BOARD_BACK),
                                       fwidth(in_uv.x) * along);
        albedo = mix(albedo, cover, board);
        diffuse = mix(diffuse, max(dot(n, draw.light_dir.xyz), 0.0), board);
    }
    vec3 light = albedo * paper_light(diffuse, 1.0, draw.light_dir.xyz);
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
            if (frame_flag(frame, PC_FRAME_SPINE_EDGE))
                d = min(d, in_uv.x / w.x);
        }
        alpha = clamp(0.5 + d, 0.0, 1.0);
    }
    out_color = vec4(light * paper_gutter(abs(in_world.x), draw.page.x), alpha);
}
