/* SPDX-License-Identifier: MIT */
#version 450
// The low tier's shadow pass colour (shadow.frag's, its outline anti-aliased): the share of the
// texel the leaf covers and that share times the depth from the light. Its map has no samples to
// average (a CPU rasteriser pays for each), so a texel the leaf's outline crosses would be whole
// or empty, and an outline nearly along the map's rows or columns (the roll's near the spine, as
// most turns hold it) a staircase of long steps that the few levels a contact shadow reads do not
// average away: its edge on the page in blocks. Here the cover falls from 1 to 0 across the
// outline, from the texel's distance to it (shadow_smooth.geom, which also draws the strip
// outside it). Whichever part of the leaf covers a texel whole wins it (its depth in the near half
// of the range, the nearest of them first), where a part of the leaf lies behind or before
// another's outline seen from the light; of the texels cut by the outline, the most covered wins
// (depth in the far half, the more cover the nearer).
layout(location = 0) noperspective in vec3 in_outline;
layout(location = 0) out vec2 out_cover;

void main()
{
    float d = min(min(in_outline.x, in_outline.y), in_outline.z);
    float cover = clamp(d, 0.0, 1.0);
    float z = gl_FragCoord.z;
    gl_FragDepth = cover < 1.0 ? 1.0 - 0.5 * cover : 0.5 * z;
    out_cover = vec2(cover, cover * z);
}
