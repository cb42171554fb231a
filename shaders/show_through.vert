/* SPDX-License-Identifier: MIT */
#version 450
// One triangle over the whole target (gpu/show_through.c draws 3 vertices, no buffers): every
// texel of the layer's level 0 gets one fragment.
void main()
{
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(2.0 * p - 1.0, 0.0, 1.0);
}
