/* SPDX-License-Identifier: MIT */
// What the page shader and the edge shader share: the ambient share of the light, the gutter, the
// paper's cut body and the hard cover's board, so that a page, its cut edge, the block under it
// and a board are lit alike.
#ifndef PAGECURL_PAPER_GLSL
#define PAGECURL_PAPER_GLSL

const float AMBIENT = 0.30;

// The light's strength: what a page lying flat (its normal +z, facing the reader at rest) receives
// comes to exactly 1, ambient and diffuse together, so that a page seen face on shows its print
// as it is (a PDF's white as white, its black as black) and the light only shades paper that
// bends or turns from it, or where a shadow falls. `l`: the unit direction towards the light.
float paper_exposure(vec3 l)
{
    return 1.0 / (AMBIENT + (1.0 - AMBIENT) * max(l.z, 0.0));
}

// The light on paper whose diffuse share (n.l, or a cut edge's wrapped diffuse) is `diffuse`, as
// much of the direct light reaching it as `direct` lets through (1 unshadowed).
float paper_light(float diffuse, float direct, vec3 l)
{
    return (AMBIENT + (1.0 - AMBIENT) * diffuse * direct) * paper_exposure(l);
}

// The gutter: paper bends down into the binding, so the light reaches less of it. A soft
// darkening of the inner margin from the spine, on every page: narrow enough that the print
// beside it, from about a tenth of the page's width out, keeps its own white (under 1 % lost).
const float GUTTER_DEPTH = 0.40;  // darkening at the spine itself
const float GUTTER_WIDTH = 0.025; // e-folding distance, in page widths

// The gutter's darkening at distance x from the spine, on a page `width` wide (world units).
float paper_gutter(float x, float width)
{
    return 1.0 - GUTTER_DEPTH * exp(-x / (GUTTER_WIDTH * width));
}

// The PC_FRAME_* flags of PcDrawPush.frame.w (the flags under the target's height), as bits.
uint frame_bits(float frame_w)
{
    return uint(mod(frame_w, float(PC_FRAME_HEIGHT)));
}

bool frame_flag(uint bits, int flag)
{
    return (bits & uint(flag)) != 0u;
}

// The paper's body, a little greyer than its sized, printed face (pages/content.c FRONT_PAPER):
// what a block's faces and a leaf's cut edge show.
const vec3 EDGE_PAPER = vec3(0.90, 0.87, 0.78);
// Paper is translucent: light that enters the block through its top and its faces scatters out
// of the cut fibres, so an edge turned from the light is a little dimmer than the page, not dark.
// Wrapped diffuse: (n.l + w) / (1 + w), a fifth of full light for a face opposite the light.
const float EDGE_WRAP = 1.5;

// The diffuse share of the light on a cut edge with outward normal n.
float edge_diffuse(vec3 n, vec3 l)
{
    return max(dot(n, l) + EDGE_WRAP, 0.0) / (1.0 + EDGE_WRAP);
}

// A well-mixed integer hash (Wellons' lowbias32): the same bits on every device, unlike the
// sin()-based hashes.
uint paper_mix(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A lattice point's value in [0, 1].
float paper_hash(float i, float j)
{
    return float(paper_mix(paper_mix(uint(int(i))) ^ uint(int(j)))) * (1.0 / 4294967295.0);
}

// Value noise in [-1, 1], smooth between lattice points.
float paper_noise(vec2 p)
{
    vec2 i = floor(p), f = p - i;
    f = f * f * (3.0 - 2.0 * f);
    float a = paper_hash(i.x, i.y), b = paper_hash(i.x + 1.0, i.y);
    float c = paper_hash(i.x, i.y + 1.0), d = paper_hash(i.x + 1.0, i.y + 1.0);
    return 2.0 * mix(mix(a, b, f.x), mix(c, d, f.x), f.y) - 1.0;
}

// How much of a pattern of `period` survives a footprint of `w` (in the same units): all of it
// down to two pixels a period, none at one, so nothing finer than a pixel aliases or shimmers.
float pattern_keep(float period, float w)
{
    return 1.0 - smoothstep(0.5, 1.0, w / period);
}

// A hard cover's board (PC_FRAME_BOARD). The default is a case binding in book cloth: a dyed
// cotton weave over greyboard, the cloth turned in over the board's edges, so the edges show it
// too. A deep red, linear light.
const vec3 CLOTH_COLOR = vec3(0.20, 0.030, 0.035);
// The weave: threads CLOTH_THREAD page widths apart (0.45 mm on an A5 page), each crossing a
// little lighter where it rises over the other (CLOTH_WEAVE); the threads' uneven thickness
// (slubs) as streaks along them, CLOTH_SLUB, over CLOTH_SLUB_LENGTH of a page width; and the
// dye's unevenness, CLOTH_MOTTLE, over CLOTH_MOTTLE_SIZE.
const float CLOTH_THREAD = 0.003;
const float CLOTH_WEAVE = 0.16;
const float CLOTH_SLUB = 0.10;
const float CLOTH_SLUB_LENGTH = 0.04;
const float CLOTH_MOTTLE = 0.05;
const float CLOTH_MOTTLE_SIZE = 0.03;

// How much of a smooth pattern of `period` survives a footprint of `w`: all of it down to four
// pixels a period, none at two (its Nyquist limit), so that the weave, finer than a pixel at most
// sizes, shows its mean colour instead of a moire.
float cloth_keep(float period, float w)
{
    return 1.0 - smoothstep(0.25, 0.5, w / period);
}

// The cloth's albedo at page point p (page widths), with `w` page widths under the pixel.
vec3 cloth_albedo(vec2 p, float w)
{
    // plain weave: warp and weft alternate over and under, a checker of raised crossings (its
    // finest period the diagonal's, 1/sqrt(2) of the threads') whose mean is the cloth's colour
    vec2 q = p / CLOTH_THREAD;
    vec2 c = cos(6.2831853 * q);
    float weave = CLOTH_WEAVE * c.x * c.y * cloth_keep(0.7071 * CLOTH_THREAD, w);
    float slub = CLOTH_SLUB * cloth_keep(CLOTH_THREAD, w) *
                 (0.6 * paper_noise(vec2(q.x, p.y / CLOTH_SLUB_LENGTH)) +
                  0.4 * paper_noise(vec2(p.x / CLOTH_SLUB_LENGTH, q.y + 7919.0)));
    float mottle = CLOTH_MOTTLE * cloth_keep(CLOTH_MOTTLE_SIZE, w) *
                   paper_noise(p / CLOTH_MOTTLE_SIZE + 131.0);
    return CLOTH_COLOR * (1.0 + weave + slub + mottle);
}

#endif
