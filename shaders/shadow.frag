/* SPDX-License-Identifier: MIT */
#version 450
// The shadow pass's colour: the share of the texel the leaf covers (1 here) and that share times
// the depth from the light. Averaged down the map's mips, a level's texel holds how much of its
// box the leaf covers and the mean depth of what covers it: the page shader reads both filtered,
// so the blocker estimate and the penumbra change smoothly from texel to texel.
layout(location = 0) out vec2 out_cover;

void main()
{
    out_cover = vec2(1.0, gl_FragCoord.z);
}
