/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
// C++ AMP overview: multiply every element in place by a factor (array_view read and written).
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_AMP) in;
layout(push_constant) uniform Push { PcAmpPush p; };
layout(std430, binding = 0) buffer Data { float data[]; };

void main()
{
    uint i = pc_global_index(PC_WG_AMP);
    if (i >= p.count)
        return;
    data[i] *= p.factor;
}
