/* SPDX-License-Identifier: MIT */
// Ink on the paper. The page side's strokes arrive as coverage (mesh/ink_raster.c: analytic
// anti-aliasing, one texel wide, in an R8 layer with mips) in the content's own layer and
// coordinates, so they bend with the page and are filtered like the print under them. Ink is a
// pigment: where it covers the paper, the albedo becomes the ink's, lit like the paper around it.
#ifndef PAGECURL_INK_GLSL
#define PAGECURL_INK_GLSL

const vec3 INK_COLOR = vec3(0.010, 0.016, 0.060); // linear: a blue-black fountain-pen ink

vec3 ink_over(vec3 albedo, float coverage)
{
    return mix(albedo, INK_COLOR, coverage);
}

#endif
