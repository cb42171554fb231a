/* SPDX-License-Identifier: MIT */
#version 450
// Show-through, worked out once a page is uploaded (gpu/show_through.c) instead of in every pixel
// of every frame: a layer's alpha becomes how light the print on its back is where it lies behind
// this texel (the back seen through the paper, so mirrored), as half its luminance over the
// back's mean (the top mip level: a blank back, of whatever paper, lets all light through). Half,
// so that 8 bits hold a back up to twice its mean: page.frag reads the ratio 2a, filtered with the
// print at no cost of a read, and darkens by what falls under 1. Only the alpha is written.
layout(set = 0, binding = 0) uniform sampler2DArray back; // the partner layer alone, all levels
layout(location = 0) out vec4 out_color;

void main()
{
    const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);
    ivec2 size = textureSize(back, 0).xy;
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec3 c = texelFetch(back, ivec3(size.x - 1 - p.x, p.y, 0), 0).rgb;
    float mean = dot(textureLod(back, vec3(0.5, 0.5, 0.0),
                                float(textureQueryLevels(back) - 1)).rgb, LUMA);
    out_color = vec4(0.0, 0.0, 0.0, clamp(0.5 * dot(c, LUMA) / max(mean, 1e-3), 0.0, 1.0));
}
