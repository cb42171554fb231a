/* SPDX-License-Identifier: MIT */
#version 450
// The low tier's shadow pass (gpu/shadow.c): each triangle of the leaf's coarse mesh with its
// three neighbours, seen from the light. Its edges on the outline of the leaf in the map are those
// between two triangles that the projection turns opposite ways (the roll's silhouette seen from
// the light) and the page's own edges but the spine (no neighbour: the neighbour's vertex repeats
// the edge's first, mesh/grid.h; the spine side, u = 0, lies along the map's columns, where a
// texel is whole or empty anyway). The triangle is drawn as it is, and along each such edge a
// strip outside it; every vertex gets its signed distance in texels to each such edge, as a
// texel's box meets it, plus how far out the cover reaches: interpolated, each texel's cover
// (shadow_smooth.frag). A page's edge is filtered as a texel's box would: half a texel each side.
// The silhouette's ramp lies further out, from a quarter of a texel in to three quarters out: the
// mesh's thin triangles that meet the silhouette only at a vertex cover what lies inside it whole,
// and would cut a centred ramp's inner half in places (specks along a fold seen straight along
// the map's columns); the coarse mesh's outline lies inside the roll's by up to its chords' sag.
layout(triangles_adjacency) in;
layout(triangle_strip, max_vertices = 15) out;
// The map's side in texels.
layout(constant_id = 0) const uint SIZE = 512u;
layout(location = 0) in vec2 in_uv[];
layout(location = 0) noperspective out vec3 out_outline;

const float FAR = 1e4;        // texels: no outline
const float REACH = 0.75;     // texels out of the silhouette where the cover reaches 0
const float PAGE_REACH = 0.5; // ...out of the page's edges
// A triangle seen this nearly edge on (its projection thinner than this share of its size) turns
// neither way: which way it seems to turn is rounding's.
const float EDGE_ON = 1e-3;

vec2 p[6];
bool on[3];
vec2 normal[3]; // out of the triangle, unit
float offset[3];
float reach[3]; // texels out of the edge where the cover reaches 0

float cross2(vec2 a, vec2 b)
{
    return a.x * b.y - a.y * b.x;
}

// Which way the triangle a b c (the light's frame: the map's axes and the depth to one scale,
// shadow.glsl) faces the light: +1, -1, or 0 seen edge on.
float facing(vec4 a, vec4 b, vec4 c)
{
    vec3 qa = vec3(a.xy, 1.0 - 2.0 * a.z), qb = vec3(b.xy, 1.0 - 2.0 * b.z);
    vec3 qc = vec3(c.xy, 1.0 - 2.0 * c.z);
    vec3 n = cross(qb - qa, qc - qa);
    return abs(n.z) <= EDGE_ON * length(n) ? 0.0 : sign(n.z);
}

// A vertex at `at` texels (from the map's middle) at the depth of vertex `from`.
void emit(vec2 at, int from)
{
    vec3 d;
    for (int k = 0; k < 3; k++) {
        float dist = offset[k] - dot(normal[k], at); // > 0 inside
        // measured as a texel's box meets the edge: |n.x| + |n.y| across
        d[k] = on[k] ? dist / (abs(normal[k].x) + abs(normal[k].y)) + reach[k] : FAR;
    }
    gl_Position = vec4(at / (0.5 * float(SIZE)), gl_in[from].gl_Position.zw);
    out_outline = d;
    EmitVertex();
}

void main()
{
    for (int i = 0; i < 6; i++)
        p[i] = gl_in[i].gl_Position.xy * (0.5 * float(SIZE));
    float own = facing(gl_in[0].gl_Position, gl_in[2].gl_Position, gl_in[4].gl_Position);
    float turn = cross2(p[2] - p[0], p[4] - p[0]) < 0.0 ? -1.0 : 1.0;
    // edge k runs from vertex 2k to 2k + 2; 2k + 1 is the third vertex of the triangle across it
    for (int k = 0; k < 3; k++) {
        int a = 2 * k, b = (2 * k + 2) % 6, r = 2 * k + 1;
        bool page = p[r] == p[a] && !(in_uv[a].x == 0.0 && in_uv[b].x == 0.0);
        float across = facing(gl_in[b].gl_Position, gl_in[a].gl_Position, gl_in[r].gl_Position);
        on[k] = own != 0.0 && (page || own * across < 0.0);
        reach[k] = page ? PAGE_REACH : REACH;
        vec2 e = p[b] - p[a];
        normal[k] = turn * vec2(e.y, -e.x) / max(length(e), 1e-6);
        offset[k] = dot(normal[k], p[a]);
    }
    emit(p[0], 0);
    emit(p[2], 2);
    emit(p[4], 4);
    EndPrimitive();
    for (int k = 0; k < 3; k++) {
        if (!on[k])
            continue;
        int a = 2 * k, b = (2 * k + 2) % 6;
        vec2 out_step = reach[k] * (abs(normal[k].x) + abs(normal[k].y)) * normal[k];
        emit(p[a], a);
        emit(p[b], b);
        emit(p[a] + out_step, a);
        emit(p[b] + out_step, b);
        EndPrimitive();
    }
}
