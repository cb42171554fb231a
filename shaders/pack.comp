#version 450
#extension GL_GOOGLE_include_directive : require
// Stage pack: SoA positions, normals and UVs into the AoS vertex the renderer reads, written as
// two vec4 (16-byte stores).
#include "shared.h"
#include "compute.glsl"

layout(local_size_x = PC_WG_PACK) in;
layout(push_constant) uniform Push { PcComputePush p; };
layout(std430, binding = 0) readonly buffer Positions { float pos[]; };
layout(std430, binding = 1) readonly buffer VertexNormals { float nrm[]; };
layout(std430, binding = 2) readonly buffer Uvs { float uv[]; };
layout(std430, binding = 3) writeonly buffer Vertices { vec4 vtx[]; };

void main()
{
    uint v = pc_global_index(PC_WG_PACK);
    if (v >= p.vertex_count)
        return;
    uint n = p.vertex_count;
    vtx[2u * v] = vec4(pos[v], pos[n + v], pos[2u * n + v], nrm[v]);
    vtx[2u * v + 1u] = vec4(nrm[n + v], nrm[2u * n + v], uv[v], uv[n + v]);
}
