/* SPDX-License-Identifier: MIT */
#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "paper.glsl"

#include "draw.glsl"
layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec3 out_world;
layout(location = 3) out vec3 out_to_eye;
// The paper's thickness along its normal, on screen in pixels: how wide page.frag draws the
// leaf's cut edge where it turns from the eye.
layout(location = 4) out vec2 out_thickness;
// The tier (gpu/quality.h): PC_TIER_* bits, 0 in the high tier.
layout(constant_id = 0) const uint TIER = 0u;
// PLAIN's cells lie two cells in from every edge: none of their vertices is pushed out.
const bool EDGE_AA = (TIER & (PC_TIER_EDGE_AA | PC_TIER_PLAIN)) == PC_TIER_EDGE_AA;
// The low tier draws the same triangles in an inside round and an edge round, by pipelines of
// other constants; the edge round's depth test (less) must meet the inside round's depths exactly.
// `precise`: every operation gl_Position depends on runs as written, none fused or reordered, so
// that the same vertex gives the same position in either pipeline. (`invariant gl_Position` says
// the same of the output alone, but glslang puts it on a member of gl_PerVertex, where Mesa's
// SPIR-V reader does not take it and warns once a pipeline through the instance's debug
// messenger: a host that counts the driver's warnings saw 19 a run on lavapipe.)
precise gl_Position;

// EDGE_AA: the paper's outer edges are drawn this far out, in pixels across the edge, so that the
// coverage ramp of page.frag and edge.frag, centred on the edge, has pixels on both sides of it:
// it reaches (|n.x| + |n.y|) / 2 <= 0.71 px out. Conservative rasterisation by hand: the edge's
// vertices move in the paper's tangent plane and their uv with them, so uv still says where the
// true edge is. At most EDGE_MOST_PX on screen (a miter's limit: an acute corner on screen would
// reach far past its tip) and EDGE_MOST of a page width in the world, for a page seen nearly edge
// on, where the ramp would need more.
const float EDGE_REACH = 1.0;
const float EDGE_MOST_PX = 1.5;
const float EDGE_MOST = 0.05;
// How far below the page a block's tucked top lies, in page widths: a quarter of a leaf
// (BOOK_STACK_STEP, book/book.h), so that the depth test never lets it through the page.
const float TUCK_DEPTH = 0.0005;
// A face is tucked only where its pixel is at most this many pixels of the world deep.
const float TUCK_MOST_PX = 3.0;
// The least width of the leaf's cut edge seen edge on, in pixels (main).
const float CUT_LEAST_PX = 1.0;

// The target's pixels per unit of NDC along x and y. The renderer gives its height; the width
// follows from the projection's aspect (square pixels, a symmetric frustum): the lengths of the
// first two rows of view_proj once the model's scale is divided out.
vec2 pixels_per_ndc()
{
    vec3 s = draw.model.xyz;
    vec3 row_x = vec3(draw.view_proj[0][0], draw.view_proj[1][0], draw.view_proj[2][0]) / s;
    vec3 row_y = vec3(draw.view_proj[0][1], draw.view_proj[1][1], draw.view_proj[2][1]) / s;
    float half_h = 0.5 * floor(draw.frame.w / float(PC_FRAME_HEIGHT));
    return vec2(half_h * length(row_y) / length(row_x), half_h);
}

// Where a model-space step t from the point at clip position c goes on screen, in pixels.
vec2 on_screen(vec3 t, vec4 c, vec2 pixels)
{
    vec4 ct = draw.view_proj * vec4(t, 0.0);
    return (ct.xy * c.w - c.xy * ct.w) / (c.w * c.w) * pixels;
}

// The paper's tangents here: its model-space step per unit of u and of v.
void tangents(out vec3 du, out vec3 dv)
{
    if (draw.page.w == float(PC_DRAW_EDGE)) {
        // a block's face (gpu/renderer.c's unit block): u along it, v down from its top
        du = vec3(abs(in_normal.y), abs(in_normal.x), 0.0);
        dv = vec3(0.0, 0.0, -1.0);
        return;
    }
    du = vec3(1.0, 0.0, 0.0);
    dv = vec3(0.0, 1.0, 0.0);
    if (draw.page.w != float(PC_DRAW_LEAF))
        return; // the flat unit quad
    // The curled leaf (mesh/curl.h, mesh_curl_apex): the ruling through its rest point p runs
    // from the apex a, and the curl maps it to the line from a through P, and its perpendicular
    // in the page to the normal times that. A flat pose has no rulings (a = 0), and at the apex
    // itself the page is not bent: the rest frame.
    vec3 a = draw.frame.xyz;
    vec2 rest = a.z * (in_uv * draw.page.xy) - a.xy;
    vec3 ruling = a.z * in_pos - vec3(a.xy, 0.0);
    vec2 tr = vec2(1.0, 0.0);
    vec3 tp = vec3(1.0, 0.0, 0.0), bp = vec3(0.0, 1.0, 0.0);
    if (length(rest) > 1e-4 && length(ruling) > 1e-4) {
        tr = normalize(rest);
        tp = normalize(ruling);
        bp = cross(normalize(in_normal), tp);
        bp /= max(length(bp), 1e-6);
    }
    vec2 br = vec2(-tr.y, tr.x);
    du = draw.page.x * (tr.x * tp + br.x * bp);
    dv = draw.page.y * (tr.y * tp + br.y * bp);
}

// EDGE_AA: moves a vertex on an outer edge of the paper EDGE_REACH pixels out across each edge it
// lies on, along the paper. The spine side (u = 0) is an edge only where nothing lies beyond it
// (PC_FRAME_SPINE_EDGE). A block's faces: their bottom and the book's corners at their ends are
// edges; their top lies under the page's edge and is tucked that far in under the page (and a
// quarter of a leaf down, behind it), so that the page's own edge pixels are blended over the
// face rather than over the backdrop.
void extend(inout vec3 pos, inout vec2 uv)
{
    bool spine = frame_flag(frame_bits(draw.frame.w), PC_FRAME_SPINE_EDGE);
    bool block = draw.page.w == float(PC_DRAW_EDGE);
    bool ends = !block || abs(in_normal.y) > 0.5; // a block's tail or head face
    bool tuck = block && in_uv.y <= 0.0;
    vec2 out_uv = vec2(0.0);
    // (a tucked corner stays on the page's edge: pushed out too, it would stand out past it)
    if (ends && !tuck)
        out_uv.x = in_uv.x >= 1.0 ? 1.0 : (in_uv.x <= 0.0 && spine ? -1.0 : 0.0);
    out_uv.y = in_uv.y >= 1.0 ? 1.0 : (in_uv.y <= 0.0 && !block ? -1.0 : 0.0);
    if (out_uv == vec2(0.0) && !tuck)
        return;
    vec3 du, dv;
    tangents(du, dv);
    vec4 c = draw.view_proj * vec4(in_pos, 1.0);
    vec2 pixels = pixels_per_ndc();
    mat2 j = mat2(on_screen(du, c, pixels), on_screen(dv, c, pixels));
    float det = determinant(j);
    if (c.w <= 0.0 || abs(det) <= 1e-4 * length(j[0]) * length(j[1]))
        return; // seen edge on: no edge to widen
    mat2 to_uv = inverse(j);
    // uv's gradients on screen are the inverse's rows, the edges' normals there. On one edge the
    // vertex moves EDGE_REACH px along its normal (and so along the edge too in uv, where the
    // paper's axes are skewed on screen); at a corner, to EDGE_REACH px out of both, the miter.
    vec2 grad_u = vec2(to_uv[0][0], to_uv[1][0]), grad_v = vec2(to_uv[0][1], to_uv[1][1]);
    vec2 step_uv = out_uv * EDGE_REACH * vec2(length(grad_u), length(grad_v));
    if (out_uv.y == 0.0 && out_uv.x != 0.0)
        step_uv = to_uv * (out_uv.x * EDGE_REACH * normalize(grad_u));
    else if (out_uv.x == 0.0 && out_uv.y != 0.0)
        step_uv = to_uv * (out_uv.y * EDGE_REACH * normalize(grad_v));
    vec3 step = du * step_uv.x + dv * step_uv.y;
    if (tuck) {
        vec3 under = -in_normal; // the face's normal is level: this points in under the page
        vec2 s = on_screen(under, c, pixels), e = normalize(j[0]);
        float t = EDGE_REACH / max(abs(s.x * e.y - s.y * e.x), 1e-6);
        // A face turned towards the eye (a board's edge seen from above as it stands) would move
        // far along the paper for its pixel: the page's edge beside it is seen edge on, with
        // nothing to blend, so it stays where it is.
        vec3 row_y = vec3(draw.view_proj[0][1], draw.view_proj[1][1], draw.view_proj[2][1]) /
                     draw.model.xyz;
        float pixel = c.w / (pixels.y * length(row_y)); // a pixel's size in the world here
        if (t * length(under * draw.model.xyz) <= TUCK_MOST_PX * pixel) {
            vec3 tucked =
                under * t + vec3(0.0, 0.0, -TUCK_DEPTH * draw.page.x / abs(draw.model.z));
            step += tucked;
            step_uv += to_uv * on_screen(tucked, c, pixels);
        } else if (out_uv == vec2(0.0)) {
            return;
        }
    }
    float px = length(j * step_uv), world = length(step * draw.model.xyz);
    float keep = min(1.0, EDGE_MOST_PX / max(px, 1e-6));
    keep = min(keep, EDGE_MOST * draw.page.x / max(world, 1e-9));
    pos += step * keep;
    uv += step_uv * keep;
}

void main()
{
    vec3 pos = in_pos;
    vec2 uv = in_uv;
    // Where a leaf is turned face down it lies a tenth of a leaf's thickness above where its pose
    // puts it (the drawing only: the pose, picking and shadows keep the pose's own). A crease (a
    // drag at its reach's edge: roll radius 0) lays the flap on the leaf's own face-up part at
    // the same depth, and the two fought in jagged blocks ("torn paper"); elsewhere a roll's
    // height (2 r) keeps them apart already. A tenth: the depth tells them apart, and the
    // pictures of every other pose stay within the goldens' slack (a whole thickness moved a
    // leaf turned over by up to 823 pixels).
    if (draw.page.w == float(PC_DRAW_LEAF)) {
        float down = clamp(-in_normal.z * sign(draw.model.z), 0.0, 1.0);
        pos.z += down * 0.1 * PC_PAPER_THICKNESS * draw.page.x / draw.model.z;
    }
    if (EDGE_AA)
        extend(pos, uv);
    gl_Position = draw.view_proj * vec4(pos, 1.0);
    // the model's diagonal is +-1 times a size: its signs are their own inverse transpose
    out_normal = in_normal * sign(draw.model.xyz);
    out_uv = uv;
    out_world = pos * draw.model.xyz + vec3(0.0, 0.0, draw.model.w);
    // The eye is the point view_proj sends to clip w = 0 on the axis: its inverse's third
    // column, in model space. The push has no room for it, and a 4x4 inverse per vertex is cheap.
    vec4 eye = inverse(draw.view_proj) * vec4(0.0, 0.0, 1.0, 0.0);
    out_to_eye = (eye.xyz / eye.w - pos) * draw.model.xyz; // model -> world: the diagonal
    // A world step along the normal is that step over the diagonal in the model; measured where
    // the paper lies, not where EDGE_AA pushed the vertex out to. Where a leaf's thickness seen
    // edge on would be under CUT_LEAST_PX (a page of a book filling a small window: 0.3 mm is
    // 0.7 px at 1280x720 with the view pulled back), it is drawn that thick, so that the cut
    // edge reads at any size, as a stack's blank leaves make its block show (book/book.h). The
    // view's row y less the model's scale is the projection's focal length times a unit axis.
    vec4 c = draw.view_proj * vec4(in_pos, 1.0);
    vec2 pixels = pixels_per_ndc();
    vec3 row_y = vec3(draw.view_proj[0][1], draw.view_proj[1][1], draw.view_proj[2][1]) /
                 draw.model.xyz;
    float thickness = PC_PAPER_THICKNESS * draw.page.x;
    float edge_on = thickness * pixels.y * length(row_y) / max(c.w, 1e-6); // pixels
    float grow = max(1.0, CUT_LEAST_PX / max(edge_on, 1e-6));
    out_thickness = on_screen(grow * thickness * out_normal / draw.model.xyz, c, pixels);
}
