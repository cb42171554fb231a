#version 450
// The low tier's shadow pass colour (shadow.frag's, its outline anti-aliased): the share of the
// texel the leaf covers and that share times the depth from the light. Its map has no samples to
// average (a CPU rasteriser pays for each), so a texel the leaf's outline crosses would be whole
// or empty, and an outline nearly along the map's rows or columns (the roll's, near parallel to
// the spine, as most turns hold it) a staircase of long steps that the few levels a contact
// shadow reads do not average away: its edge on the page in blocks. Here the cover falls from 1
// to 0 over the texel the outline crosses, from the texel's signed distance to it
// (shadow_smooth.geom, which draws the leaf a texel past it). Near the roll's silhouette several
// triangles of the mesh overlap, thin, and those that do not meet the silhouette along an edge
// would cover its texels whole: a texel cut by the outline is written in front of every whole
// one (its depth moved to the near half of the range).
layout(location = 0) noperspective in vec3 in_outline;
layout(location = 0) out vec2 out_cover;

void main()
{
    float d = min(min(in_outline.x, in_outline.y), in_outline.z);
    float cover = clamp(1.0 + d, 0.0, 1.0);
    float z = gl_FragCoord.z;
    gl_FragDepth = cover < 1.0 ? 1.0 - 0.5 * cover : 0.5 * z;
    out_cover = vec2(cover, cover * z);
}
