/* SPDX-License-Identifier: MIT */
#version 450
// The window's HUD: stb_easy_font's quads in glyph pixels, scaled and placed by the push constants
// (xy: 2 * glyph scale / target size, pixels to NDC; zw: the text's origin in NDC units).

layout(push_constant) uniform Push { vec4 scale; } overlay;
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main()
{
    // Vulkan's NDC: -1 at the top-left, y down like the glyphs
    gl_Position = vec4(in_pos.xy * overlay.scale.xy + overlay.scale.zw - 1.0, 0.0, 1.0);
    out_color = in_color;
}
