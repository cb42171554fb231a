/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// The bandwidth probe: a straight copy with 16-byte loads and stores, the access width at which
// Vulkan reaches the card's full copy rate. Every benchmark percentage is relative to this.
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_COPY) in;
layout(push_constant) uniform Push { PcCopyPush p; };
layout(std430, binding = 0) readonly buffer Src { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { vec4 dst[]; };

void main()
{
    uint i = pc_global_index(PC_WG_COPY);
    if (i >= p.count)
        return;
    dst[i] = src[i];
}
