/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// C++ AMP overview, first example: sum[i] = a[i] + b[i] over an extent (a test of the compute
// layer the page uses, not part of the frame).
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_AMP) in;
layout(push_constant) uniform Push { PcAmpPush p; };
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer Sum { float sum[]; };

void main()
{
    uint i = pc_global_index(PC_WG_AMP);
    if (i >= p.count)
        return;
    sum[i] = a[i] + b[i];
}
