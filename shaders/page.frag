/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// Paper lit by the GPU normals: ambient + diffuse and a soft sheen, both sides. Each side is
// printed from its own layer of the page-content texture (pages/content.c: the front ruled with a
// title, the back graph paper), sampled trilinearly from its mips, with the strokes drawn on that
// side over it from the same layer of the ink texture. The turning leaf shows its cut edge where it
// turns from the eye; a hard cover's board has its cloth or laminated print and its own shading
// (docs/rendering.md).
#include "shared.h"
#include "ink.glsl"
#include "paper.glsl"
#include "shadow.glsl"

#include "draw.glsl"
layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 2) in vec3 in_world;
layout(location = 3) in vec3 in_to_eye;
layout(location = 4) in vec2 in_thickness; // page.vert: the paper's thickness on screen, pixels
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2DArray content;
layout(set = 0, binding = 1) uniform sampler2D shadow_cover;
layout(set = 0, binding = 2) uniform sampler2DArray ink;
layout(set = 0, binding = 3) uniform sampler2DArray detail;
// The content and the ink again, through the anisotropic sampler at the high tier where the
// device has one (gpu/renderer.c; else through their own): read where a footprint is stretched
// (footprint_stretch).
layout(set = 0, binding = 5) uniform sampler2DArray content_stretched;
layout(set = 0, binding = 6) uniform sampler2DArray ink_stretched;
// The tier (gpu/quality.h): PC_TIER_* bits, 0 in the high tier.
layout(constant_id = 0) const uint TIER = 0u;
// PLAIN (the leaf's flat cells, away from its edges): every pixel covered whole, no cut edge.
const bool PLAIN = (TIER & PC_TIER_PLAIN) != 0u;
const bool EDGE_AA = (TIER & PC_TIER_EDGE_AA) != 0u && !PLAIN;
const bool EDGE_INSIDE = (TIER & PC_TIER_EDGE_INSIDE) != 0u;
const bool INK_MARKED = (TIER & PC_TIER_INK_MARKED) != 0u;
const bool DRAW_LOD = (TIER & PC_TIER_DRAW_LOD) != 0u;
const bool SHADOW_ONLY = (TIER & PC_TIER_SHADOW_ONLY) != 0u;
const bool UNSHADOWED = (TIER & PC_TIER_UNSHADOWED) != 0u;
const bool NO_INK = (TIER & PC_TIER_NO_INK) != 0u;
// Whether this pipeline has the board's code, and the leaf's cut edge's (shared.h).
const bool BOARD_CODE = (TIER & (PC_TIER_BOARD | PC_TIER_EDGE_AA)) != PC_TIER_EDGE_AA;
const bool CUT_CODE = (TIER & (PC_TIER_CUT | PC_TIER_EDGE_AA)) != PC_TIER_EDGE_AA && !PLAIN;
const bool REFERENCE = (TIER & PC_TIER_REFERENCE) != 0u;
// The low tier's bits (any but the reference's): it trades pow for multiplications
const bool LOW = (TIER & ~PC_TIER_REFERENCE) != 0u;
// Whether this pipeline reads a zoomed view's detail: every page pipeline of the other tiers but
// the shadow multiplied in; with EDGE_AA (the low tier) only the two for flat pages whose draw has
// a detail (PC_TIER_DETAIL): llvmpipe runs detail_read whether a draw has a detail or not, a read
// of a texture in every pixel of every other draw.
const bool DETAIL_CODE = (TIER & (PC_TIER_SHADOW_ONLY | PC_TIER_EDGE_AA)) == 0u ||
                         (TIER & (PC_TIER_SHADOW_ONLY | PC_TIER_DETAIL)) == PC_TIER_DETAIL;
// Show-through (0 off .. 1, --show-through): how much of the print on a side's back shows through
// the paper. A page lying on the stack has the next leaf's white behind it, which sends back
// through it most of the light the back's print would take: at 0.5 (80 g/m2 office paper) a black
// square on the back darkens it by SHOW_REST / 2 of its light (1.5 %: 1 or 2 levels of 255 on
// white, under what a reader sees at rest). A lifted leaf with the light behind it is held up to
// the light: up to SHOW_BACKLIT / 2 (15 %, about 17 levels).
layout(constant_id = 1) const float SHOW_THROUGH = 0.0;
const float SHOW_REST = 0.03;
const float SHOW_BACKLIT = 0.30;

// Paper is matte but not Lambertian: its fibres give a broad, faint highlight and a little more
// reflection at grazing angles. Both small, so the page never looks like plastic. Paper's sheen is
// what it gains over a page lying flat (normal +z) seen from the same eye: a flat page has none,
// so it does not grey the print's black (a broad highlight over the whole page added 3 % of the
// light: black print came to 52/255), and a leaf catches the light where it bends or turns
// towards it.
const vec3 SHEEN_COLOR = vec3(1.0, 0.98, 0.94);
const float SHEEN_GLOSS = 10.0;    // Blinn-Phong exponent: a highlight as broad as the page
const float SHEEN_SPECULAR = 0.07; // its peak, against an albedo near 0.9
const float SHEEN_FRESNEL = 0.10;  // Schlick's grazing term, scaled down for a rough surface

// A hard cover's board (PC_FRAME_BOARD) has its own: book cloth is a rough weave, with no
// highlight of its own but a little more light at grazing angles, where the fibres standing out
// of the weave catch it; a printed cover is laminated, a film smoother than paper: a tighter,
// brighter highlight (exponent 32) and more reflection at grazing angles.
const float CLOTH_FRESNEL = 0.14;
const vec3 CLOTH_SHEEN = vec3(1.0, 0.82, 0.80);
const float LAMINATE_SPECULAR = 0.16;
const float LAMINATE_FRESNEL = 0.16;

// Paper's highlight and grazing reflection with normal n, unscaled: (Blinn-Phong, Schlick). The
// low tier multiplies out the whole powers: llvmpipe's pow is a log and an exp. nh8 * nh2 is
// nh^SHEEN_GLOSS and g2 * g2 * g is g^5: change them with the constants.
vec2 sheen_terms(vec3 n, vec3 h, vec3 v)
{
    float nh = max(dot(n, h), 0.0), g = 1.0 - clamp(dot(n, v), 0.0, 1.0);
    float nh2 = nh * nh, nh8 = nh2 * nh2 * nh2 * nh2, g2 = g * g;
    return vec2(LOW ? nh8 * nh2 : pow(nh, SHEEN_GLOSS), LOW ? g2 * g2 * g : pow(g, 5.0));
}

// `kind`: 0 paper, 1 cloth, 2 laminate.
vec3 sheen(vec3 n, vec3 l, vec3 v, int kind)
{
    float ndl = dot(n, l);
    if (ndl <= 0.0)
        return vec3(0.0); // the light is behind this side
    vec3 h = normalize(l + v);
    vec2 terms = sheen_terms(n, h, v);
    float nh = max(dot(n, h), 0.0), nh2 = nh * nh, nh8 = nh2 * nh2 * nh2 * nh2;
    float grazing = terms.y;
    if (BOARD_CODE && kind == 1)
        return CLOTH_SHEEN * CLOTH_FRESNEL * grazing * ndl;
    if (BOARD_CODE && kind == 2) {
        float nh16 = nh8 * nh8;
        return vec3(LAMINATE_SPECULAR * nh16 * nh16 + LAMINATE_FRESNEL * grazing * ndl);
    }
    // a flat page's own, from the same eye: its n.l is l.z
    vec2 flat_terms = sheen_terms(vec3(0.0, 0.0, 1.0), h, v);
    float spec = SHEEN_SPECULAR * max(terms.x - flat_terms.x, 0.0);
    float glance = SHEEN_FRESNEL * max(grazing * ndl - flat_terms.y * max(l.z, 0.0), 0.0);
    return SHEEN_COLOR * (spec + glance);
}

// The turning leaf's shadow on a page below, soft by the leaf's height above it (as percentage-
// closer soft shadows: the light is an area, LIGHT_SPREAD wide per unit of distance) but from a
// filtered map (gpu/shadow.c): each texel holds the share of it the leaf covers and that share
// times the leaf's depth, averaged down its mips. The blocker search is one bilinear read of the
// top level, a box of the map around the receiver: the mean depth of the leaf in it, so the
// leaf's height changes smoothly. The penumbra is the cover read at the level whose filter
// spreads as far as the light's disc at that height: a smooth ramp where the leaf is lifted,
// a texel's edge where it touches the page. A mip level's bilinear filter (its box, then its
// tent) has a deviation of half its texel, the disc's of radius R is R/2: the level is log2 of
// R in texels. The high tier averages four reads a level finer, at the corners of a square
// turned to the texel grid: the same spread, and the coarse level's grid no longer shows in
// the penumbra's outline.
const float LIGHT_SPREAD = 0.09;
const float SHADOW_BIAS = 0.0015; // world units along the light: a little under the leaf's step
const float SHADOW_DARKNESS = 0.75; // the share of direct light a full shadow takes away
const bool ONE_READ = (TIER & PC_TIER_FAST_SHADOW) != 0u;

// The reference tier's shadow: what the filters above approximate, computed the long way. The
// blocker search averages the leaf's depth over the disc the widest penumbra could have here (a
// leaf at the near side of the light's box), the cover over the light's disc as this point sees
// it, each from REFERENCE_*_TAPS reads of a Vogel spiral (even over the disc, no clumps) turned by
// a per-pixel angle (interleaved gradient noise: fixed to the pixel, so it does not crawl from
// frame to frame). Each read is taken at the level whose texel is the spiral's spacing, so the
// reads between them cover the disc whole.
const int REFERENCE_SEARCH_TAPS = 64;
const int REFERENCE_DISC_TAPS = 256;
const float GOLDEN_ANGLE = 2.39996323;

vec2 spiral(int i, int taps, float turn)
{
    float r = sqrt((float(i) + 0.5) / float(taps)), a = float(i) * GOLDEN_ANGLE + turn;
    return r * vec2(cos(a), sin(a));
}

float reference_lit(vec2 uv, float depth)
{
    float size = float(textureSize(shadow_cover, 0).x);
    float turn = 6.2831853 * fract(52.9829189 * fract(dot(gl_FragCoord.xy,
                                                           vec2(0.06711056, 0.00583715))));
    float reach = depth * LIGHT_SPREAD; // map uv
    float spacing = reach * size * sqrt(3.14159265 / float(REFERENCE_SEARCH_TAPS));
    float level = max(log2(max(spacing, 1.0)), 0.0);
    vec2 found = vec2(0.0);
    for (int i = 0; i < REFERENCE_SEARCH_TAPS; i++)
        found += textureLod(shadow_cover, uv + reach * spiral(i, REFERENCE_SEARCH_TAPS, turn),
                            level).rg;
    if (found.r <= 0.0)
        return 1.0;
    float radius = max(depth - found.g / found.r, 0.0) * LIGHT_SPREAD; // the light's disc, map uv
    if (radius * size < 0.5)
        return 1.0 - textureLod(shadow_cover, uv, 0.0).r; // touching: the texel's own edge
    spacing = radius * size * sqrt(3.14159265 / float(REFERENCE_DISC_TAPS));
    level = max(log2(max(spacing, 1.0)), 0.0);
    float cover = 0.0;
    for (int i = 0; i < REFERENCE_DISC_TAPS; i++)
        cover += textureLod(shadow_cover, uv + radius * spiral(i, REFERENCE_DISC_TAPS, turn),
                            level).r;
    return 1.0 - cover / float(REFERENCE_DISC_TAPS);
}

float shadow_lit(vec3 world)
{
    float half_size = shadow_half_size(draw.page.xy);
    vec3 ls = shadow_light_space(world, draw.light_dir.xyz, draw.page.xy);
    vec2 uv = ls.xy * 0.5 + 0.5;
    float depth = ls.z - SHADOW_BIAS / (2.0 * half_size);
    if (REFERENCE)
        return reference_lit(uv, depth);
    float top = float(textureQueryLevels(shadow_cover) - 1);
    vec2 search = textureLod(shadow_cover, uv, top).rg;
    if (search.r <= 0.0)
        return 1.0; // no leaf within the search's reach (gpu/shadow.c bounds the shadow by it)
    float blocker = search.g / search.r;
    float distance = max(depth - blocker, 0.0) * 2.0 * half_size; // world units
    float size = float(textureSize(shadow_cover, 0).x);
    float radius = distance * LIGHT_SPREAD / (2.0 * half_size) * size; // map texels
    float lod = clamp(log2(max(radius, 1.0)), 0.0, top);
    float cover;
    if (ONE_READ) {
        cover = textureLod(shadow_cover, uv, lod).r;
    } else {
        float fine = max(lod - 1.0, 0.0);
        // a level finer spreads half as far (a deviation of a quarter of the coarse texel): the
        // square's corners, at a per-axis deviation of 0.753 of s, add the rest (sqrt(3)/4 of
        // the coarse texel) when s is 1.15 of the fine texel. Under level 1 the four close in on
        // one point: level 0 alone, the contact shadow's one-texel edge.
        float step = 1.15 * exp2(fine) * min(lod, 1.0) / size;
        vec2 a = vec2(step, 0.366 * step), b = vec2(-a.y, a.x);
        cover = 0.25 * (textureLod(shadow_cover, uv + a, fine).r +
                        textureLod(shadow_cover, uv - a, fine).r +
                        textureLod(shadow_cover, uv + b, fine).r +
                        textureLod(shadow_cover, uv - b, fine).r);
    }
    return 1.0 - cover;
}

// What the direct light keeps where `lit` of the light reaches the receiver.
float shadow_darkening(float lit)
{
    return 1.0 - SHADOW_DARKNESS * (1.0 - lit);
}

// SHADOW_ONLY: the light the leaf's shadow takes from a flat page drawn without it (UNSHADOWED,
// the low tier's cached still pages), from the texel's own albedo and as much of the pixel as
// the paper covers, subtracted from the cached colour: at an edge pixel the cache holds the lit
// paper blended over what lies behind, and taking away the paper's share of the lost light gives
// the frame drawn directly, but for the cache's rounding to 8 bits.
vec3 shadow_loss(vec3 albedo, vec3 n, vec3 l, vec3 v)
{
    float lit = shadow_lit(in_world);
    if (lit == 1.0)
        return vec3(0.0);
    float diffuse = max(dot(n, l), 0.0);
    return (albedo * (1.0 - AMBIENT) * diffuse * (1.0 - shadow_darkening(lit)) +
            sheen(n, l, v, 0) * (1.0 - lit)) *
           paper_exposure(l);
}

// One outer edge of the paper, or the roll's silhouette, where q falls to 0 (q > 0 on the paper)
// and g is q's screen gradient: the pixel's signed distance to it in pixels across the edge (q
// over its fwidth: a box pixel's ramp is |n.x| + |n.y| wide), and in the same measure the width
// of the paper's cut edge there, its thickness on screen across the edge.
vec2 edge_across(float q, vec2 g)
{
    float fw = max(abs(g.x) + abs(g.y), 1e-6);
    return vec2(q, abs(dot(in_thickness, g))) / fw;
}

// The share of the pixel the paper covers (x), from the pixel's signed distance to the page's
// outer edges, where its uv leaves [0, 1]; and the share of what it covers that shows the
// paper's cut edge (y). The spine side, u = 0, is an edge only where nothing lies beyond it
// (PC_FRAME_SPINE_EDGE); elsewhere it joins the other page. The coverage's ramp is centred on
// the edge, half of it outside the paper, where page.vert draws a pixel more of it: the outline
// where the high tier's samples put it. On the turning leaf, the roll's silhouette too, where the
// paper turns edge on (n.v falls to 0): nothing is drawn beyond it, so its ramp lies inside.
// The cut edge: a band inside the outline as wide as the paper's thickness seen across it (none
// on a page seen face-on, its full thickness where the roll turns from the eye), box-filtered
// over the pixel, so that a band thinner than a pixel shades its pixel by its share.
vec2 coverage(vec3 n, vec3 v, bool spine_edge, bool cut)
{
    vec2 gu = vec2(dFdx(in_uv.x), dFdy(in_uv.x)), gv = vec2(dFdx(in_uv.y), dFdy(in_uv.y));
    vec2 e[4];
    e[0] = edge_across(1.0 - in_uv.x, gu);
    e[1] = edge_across(in_uv.y, gv);
    e[2] = edge_across(1.0 - in_uv.y, gv);
    e[3] = spine_edge ? edge_across(in_uv.x, gu) : vec2(1e6, 0.0);
    float d = 1e6, band = 0.0;
    for (int i = 0; i < 4; i++) {
        d = min(d, e[i].x);
        band = max(band, clamp(min(e[i].x + 0.5, e[i].y) - max(e[i].x - 0.5, 0.0), 0.0, 1.0));
    }
    if (draw.page.w == float(PC_DRAW_LEAF)) {
        float nv = dot(n, v), anv = abs(nv);
        d = min(d, anv / max(fwidth(anv), 1e-6) - 0.5); // the ramp inside
        if (cut) {
            // The band's distance from (n.v)^2, not n.v: as a smooth surface turns edge on, n.v
            // falls as the square root of the distance to its outline, so n.v over its gradient
            // would put a pixel twice as far from it as it is (and the band at half its width);
            // its square falls linearly, and smoothly through 0 (where |n.v| turns about it).
            // Without MSAA the outline lies half a pixel in, with it the samples find it where
            // n.v is 0.
            float q = nv * nv;
            vec2 across = edge_across(q, vec2(dFdx(q), dFdy(q)));
            across.x -= EDGE_AA ? 0.5 : 0.0;
            band = max(band, clamp(min(across.x + 0.5, across.y) - max(across.x - 0.5, 0.0),
                                   0.0, 1.0));
        }
    }
    float share = clamp(0.5 + d, 0.0, 1.0);
    return vec2(share, cut ? min(band / max(share, 1e-3), 1.0) : 0.0);
}

// The cut edge's colour: the paper's body, greyer than its sized, printed face (EDGE_PAPER, as a
// block's faces show it) at the face's own brightness, lit as the face is but without its sheen
// and darker: a sheet's edge is a strip of rough cut fibres a leaf thick, which shade each other
// and send back less light than the face, so it reads as a thin line a little darker and greyer
// than the page beside it, whatever the paper's colour.
const float CUT_GREY = 0.7;
const float CUT_SHADE = 0.7;

vec3 cut_albedo(vec3 face)
{
    const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);
    vec3 body = EDGE_PAPER * (dot(face, LUMA) / dot(EDGE_PAPER, LUMA));
    return CUT_SHADE * mix(face, body, CUT_GREY);
}

// How much the high tier reads a footprint dx, dy (uv) through content_stretched and
// ink_stretched rather than through the trilinear samplers: none where it is within STRETCH_FROM
// of round (its long side over its short one, in the content's texels; the ink's have the same
// aspect), all from STRETCH_FULL, the two reads blended between. A GPU's anisotropic read of a
// footprint that round is its trilinear one to within 0.07 of a level, but a CPU rasteriser's
// anisotropic filter (lavapipe's, an elliptical weighted average) is a filter of its own on round
// footprints too: pages seen face on are drawn alike by both, and the blend keeps the change of
// filter from showing as a seam where a leaf starts to roll.
const float STRETCH_FROM = 1.05;
const float STRETCH_FULL = 2.0;
float footprint_stretch(vec2 dx, vec2 dy)
{
    if (DRAW_LOD || REFERENCE)
        return 0.0;
    vec2 size = vec2(textureSize(content, 0).xy);
    float a = dot(dx * size, dx * size), b = dot(dy * size, dy * size);
    float ratio = sqrt(max(a, b) / max(min(a, b), 1e-20));
    return smoothstep(STRETCH_FROM, STRETCH_FULL, ratio);
}

// A stretched footprint's point, inside the paper. Where a pixel's centre lies past the edge it
// covers (a board or a leaf seen edge on) `at` runs on, far off where the triangle is a sliver:
// the sampler clamps to the edge anyway, but lavapipe's anisotropic filter walks the texels
// between the points of a pixel quad, millions of them for a board standing edge on.
vec3 inside(vec3 at)
{
    return vec3(clamp(at.xy, 0.0, 1.0), at.z);
}

// The print at `at`, whose pixel spans dx, dy of it, through the anisotropic sampler as far as
// the footprint is stretched (`stretch`: footprint_stretch). The reference tier filters it the
// long way round where the footprint is long (a page seen at a grazing angle): up to 16 reads
// along its long side, each as wide as the short one, where one trilinear read blurs it to the
// long side's width.
vec4 content_read(vec3 at, vec2 dx, vec2 dy, float stretch)
{
    if (!REFERENCE) {
        vec4 trilinear = stretch < 1.0 ? textureGrad(content, at, dx, dy) : vec4(0.0);
        vec4 along = stretch > 0.0 ? textureGrad(content_stretched, inside(at), dx, dy) : vec4(0.0);
        return mix(trilinear, along, stretch);
    }
    bool along_x = dot(dx, dx) >= dot(dy, dy);
    vec2 major = along_x ? dx : dy, minor = along_x ? dy : dx;
    float ratio = length(major) / max(length(minor), 1e-8);
    int n = int(clamp(ceil(ratio), 1.0, 16.0));
    vec2 gx = along_x ? dx / float(n) : dx, gy = along_x ? dy : dy / float(n);
    vec4 sum = vec4(0.0);
    for (int i = 0; i < n; i++)
        sum += textureGrad(content, at + vec3(major * ((float(i) + 0.5) / float(n) - 0.5), 0.0),
                           gx, gy);
    return sum / float(n);
}

// A zoomed view's detail (PcDrawPush.frame of a PC_DRAW_FLAT draw, shared.h): the part of this
// side in view drawn from its source at the density shown, its texels on the pixels, read in place
// of the layer where it covers the pixel (the layer then is not read). The point st * full of the
// side drawn full-sized is the detail's point st * full - frame.yz, in texels. One bilinear read
// of its one level: a detail is used only about as dense as it was drawn (book/book_stream.c).
// False where the pixel lies outside it.
bool detail_read(vec2 st, out vec3 albedo)
{
    float slot = draw.frame.x > 0.0 ? 0.0 : 1.0;
    float full_w = abs(draw.frame.x);
    vec2 full = vec2(full_w, full_w * draw.page.y / draw.page.x);
    vec2 size = vec2(textureSize(detail, 0).xy);
    vec2 d = (st * full - draw.frame.yz) / size;
    // half a texel in: a pixel across the region's edge reads the layer, not the edge clamped
    vec2 inset = 0.5 / size;
    if (any(lessThan(d, inset)) || any(greaterThan(d, 1.0 - inset)))
        return false;
    albedo = textureLod(detail, vec3(d, slot), 0.0).rgb;
    return true;
}

// The ink's coverage at `at`: at DRAW_LOD's level, else read as content_read reads the print
// (without the reference tier's reads along the footprint).
float ink_read(vec3 at, vec2 dx, vec2 dy, float stretch, float ink_lod)
{
    if (DRAW_LOD)
        return textureLod(ink, at, max(ink_lod, 0.0)).r;
    float trilinear = stretch < 1.0 ? textureGrad(ink, at, dx, dy).r : 0.0;
    float along = stretch > 0.0 ? textureGrad(ink_stretched, inside(at), dx, dy).r : 0.0;
    return mix(trilinear, along, stretch);
}

// What the back's print lets through to this side. `behind`: how light the back is where it lies
// behind this point, against its own mean (a blank back, whatever its paper, lets all through),
// seen mirrored: the layer's alpha, made from the back's print when it was uploaded
// (shaders/show_through.frag), filtered with the print. Ink drawn on the back darkens it as
// the ink covers it (the ink taken as black: its luminance is under 2 % of paper's; read
// trilinearly, stretched or not: seen through the paper it is blurred anyway). Stronger on
// the turning leaf where the light falls on the other side (held up to the light).
float show_through(vec3 n, vec3 l, float behind, vec2 st, float front, bool leaf_front, vec2 dx,
                   vec2 dy, float ink_lod, float marks)
{
    float layer = front + (leaf_front ? 1.0 : 0.0);
    vec3 at = vec3(1.0 - st.x, st.y, layer);
    if (!NO_INK && (!INK_MARKED || mod(leaf_front ? floor(marks * 0.5) : marks, 2.0) == 1.0))
        behind *= 1.0 - ink_read(at, vec2(-dx.x, dx.y), vec2(-dy.x, dy.y), 0.0, ink_lod);
    float dark = clamp(1.0 - behind, 0.0, 1.0);
    float backlit = draw.page.w == float(PC_DRAW_LEAF) ? clamp(-3.0 * dot(n, l), 0.0, 1.0) : 0.0;
    return 1.0 - SHOW_THROUGH * mix(SHOW_REST, SHOW_BACKLIT, backlit) * dark;
}

void main()
{
    vec3 n = normalize(in_normal);
    // A mirrored placement inverts the rasterizer's idea of which side faces the viewer.
    bool mirrored = draw.model.x * draw.model.y * draw.model.z < 0.0;
    bool toward_viewer = gl_FrontFacing != mirrored; // the model's +z side faces the viewer
    if (!toward_viewer)
        n = -n; // the other side's outward normal is this one reversed
    vec3 l = draw.light_dir.xyz, v = normalize(in_to_eye);
    uint frame = frame_bits(draw.frame.w);
    bool spine_edge = frame_flag(frame, PC_FRAME_SPINE_EDGE);
    bool board = BOARD_CODE && frame_flag(frame, PC_FRAME_BOARD);
    // A board is the leaf's mesh drawn twice, half its thickness out each way (book.c,
    // board_draws), with its edges' faces between the two (edge.frag), whose bottom (anti-aliased
    // there with EDGE_AA) runs along the face on the model's -z side (BOARD_BOTTOM) and whose top
    // (tucked under the page) along the other. Seen from the +z side, the -z face lies wholly
    // behind the other and the edges' faces: with MSAA the depth test hides it, but its edge
    // pixels, drawn a pixel past its edges and blended, would lie over the edges' faces where they
    // show (its cloth over the tail's dark line under the board's bottom edge, every pixel row of
    // the edge: a dashed line) and over their own anti-aliased bottom. Not drawn. (Seen from the
    // -z side, the +z face behind fills the seam between the near face and the edges' bottom, and
    // anti-aliases their tucked top: drawn.)
    if (EDGE_AA && board && draw.page.w == float(PC_DRAW_LEAF) &&
        frame_flag(frame, PC_FRAME_BOARD_BOTTOM) && toward_viewer)
        discard;
    // the turning leaf's cut edge; a board's are its own draw (edge.frag)
    bool cut = CUT_CODE && !SHADOW_ONLY && !board && draw.page.w == float(PC_DRAW_LEAF);
    vec2 covered = EDGE_AA || cut ? coverage(n, v, spine_edge, cut) : vec2(1.0, 0.0);
    float alpha = EDGE_AA ? covered.x : 1.0;
    if (EDGE_INSIDE && alpha < 1.0)
        discard;
    bool back_up = frame_flag(frame, PC_FRAME_BACK_UP);
    bool book_mirrored = frame_flag(frame, PC_FRAME_MIRRORED);
    bool leaf_front = toward_viewer != back_up;
    // A board's outside (its front, or the back cover's back) is its cloth or its laminated
    // print; its inside is the endpaper pasted on it: paper.
    bool outside = board && leaf_front != frame_flag(frame, PC_FRAME_BOARD_BACK);
    bool cloth = outside && frame_flag(frame, PC_FRAME_CLOTH);
    // Texture rows run top down. The back is seen from behind: its u runs right to left as
    // the viewer sees it, so it is read mirrored to print the right way round; a mirrored book
    // turns that round once more.
    // Gradients from the uv, not from st: where the two sides meet inside a pixel quad st jumps,
    // and its derivatives would pick the smallest mip along the silhouette.
    bool reads_forward = leaf_front != book_mirrored;
    vec2 flip = vec2(reads_forward ? 1.0 : -1.0, -1.0);
    // EDGE_AA draws a pixel past the paper's edges (page.vert): the print there is its edge's.
    vec2 uv = EDGE_AA ? clamp(in_uv, 0.0, 1.0) : in_uv;
    vec2 st = vec2(reads_forward ? uv.x : 1.0 - uv.x, 1.0 - uv.y);
    float front = INK_MARKED ? floor(draw.page.z) : draw.page.z;
    float layer = front + (leaf_front ? 0.0 : 1.0);
    vec2 dx = flip * dFdx(in_uv), dy = flip * dFdy(in_uv);
    float stretch = footprint_stretch(dx, dy);
    // DRAW_LOD: one whole level for the draw, the same in every pixel, so one bilinear read; the
    // ink's level is the same footprint in its own texels.
    float lod = draw.light_dir.w;
    float ink_lod = lod + round(log2(float(textureSize(ink, 0).x) / float(textureSize(content, 0).x)));
    vec3 albedo;
    bool detailed = DETAIL_CODE && draw.page.w == float(PC_DRAW_FLAT) && draw.frame.x != 0.0 &&
                    detail_read(st, albedo);
    // the print, and in its alpha the back's show-through (half of `behind`)
    vec4 print = vec4(albedo, 0.5);
    if (!detailed || SHOW_THROUGH > 0.0)
        print = DRAW_LOD ? textureLod(content, vec3(st, layer), lod)
                         : content_read(vec3(st, layer), dx, dy, stretch);
    if (!detailed)
        albedo = print.rgb;
    if (cloth) {
        float aspect = draw.page.y / draw.page.x;
        vec2 fw = fwidth(in_uv);
        albedo = cloth_albedo(uv * vec2(1.0, aspect), max(fw.x, fw.y * aspect));
    }
    float marks = (draw.page.z - front) * 4.0; // INK_MARKED: 1 the front inked, 2 the back
    if (!NO_INK && (!INK_MARKED || mod(leaf_front ? marks : floor(marks * 0.5), 2.0) == 1.0))
        albedo = ink_over(albedo, ink_read(vec3(st, layer), dx, dy, stretch, ink_lod));
    if (SHOW_THROUGH > 0.0 && !board) // a board lets nothing through
        albedo *= show_through(n, l, 2.0 * print.a, st, front, leaf_front, dx, dy, ink_lod, marks);
    // A board is stiff: it does not bend down into the binding, so its outside has no gutter.
    float gutter = outside ? 1.0 : paper_gutter(uv.x * draw.page.x, draw.page.x);
    if (SHADOW_ONLY) {
        out_color = vec4(shadow_loss(albedo, n, l, v) * gutter * alpha, 0.0);
        return;
    }
    float diffuse = max(dot(n, l), 0.0);
    float lit = !UNSHADOWED && draw.page.w == float(PC_DRAW_FLAT) ? shadow_lit(in_world) : 1.0;
    float shadow = shadow_darkening(lit);
    int kind = cloth ? 1 : outside ? 2 : 0;
    vec3 light = albedo * paper_light(diffuse, shadow, l) + sheen(n, l, v, kind) * lit *
                                                             paper_exposure(l);
    if (cut) {
        vec3 edge = cut_albedo(albedo) * paper_light(diffuse, 1.0, l);
        light = mix(light, edge, covered.y);
    }
    out_color = vec4(light * gutter, alpha);
}
