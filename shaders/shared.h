/* SPDX-License-Identifier: MIT */
/* Layouts shared by C and GLSL: workgroup sizes, push constants, the AoS vertex, the grid's
 * triangle numbering. The single source of truth: a size changed here changes both sides.
 * Only types that mean the same in C and std430/push-constant GLSL appear here (32-bit scalars,
 * vec4, mat4), so no padding rule differs between the two languages. */
#ifndef PAGECURL_SHARED_H
#define PAGECURL_SHARED_H

/* The macros that open and close a struct in either language, kept as written: */
/* clang-format off */
#if defined(__STDC__)
#include <stdint.h>
typedef uint32_t pc_uint;
typedef struct pc_vec4 { float v[4]; } pc_vec4;
typedef struct pc_mat4 { float m[16]; } pc_mat4;
#define PC_STRUCT(name) typedef struct name {
#define PC_END(name) } name;
#define PC_FN static inline
#define PC_FLOAT(x) ((float)(x))
#else
#define pc_uint uint
#define pc_vec4 vec4
#define pc_mat4 mat4
#define PC_STRUCT(name) struct name {
#define PC_END(name) };
#define PC_FN
#define PC_FLOAT(x) float(x)
#endif
/* clang-format on */

/* 256 threads: a multiple of every subgroup size we meet (8 on lavapipe, 32 on NVIDIA, 64 on
 * AMD) and small enough that a 64x90 page still spreads over many workgroups. */
#define PC_WG_TRI_NORMALS    256
#define PC_WG_VERTEX_NORMALS 256
#define PC_WG_PACK           256
#define PC_WG_COPY           256
#define PC_WG_DEFORM         256
/* The C++ AMP overview examples (tests/test_compute.c): small extents, small workgroups. */
#define PC_WG_AMP   64
#define PC_AMP_TILE 2
/* The fused kernels' tile: 32 x 8 vertices per workgroup (256 threads), loaded with a one-vertex
 * halo into shared memory. 32 across: one NVIDIA warp writes 32 consecutive vertices = 1 KiB. */
#ifndef PC_TILE_W /* PAGECURL_TILE in CMake overrides both, for tuning runs */
#define PC_TILE_W 32
#define PC_TILE_H 8
#endif
/* Vertices each thread of a fused kernel makes, consecutive down its column (a warp still writes
 * one contiguous row at a time): the tile is PC_TILE_H * PC_TILE_ROWS tall, the halo's share of
 * the loads (and, for fused_deform, of the curl evaluations) shrinks, and the cells between a
 * thread's rows are shared by its vertices (fused.glsl). */
#ifndef PC_TILE_ROWS /* PAGECURL_TILE_ROWS in CMake overrides it, for tuning runs */
#define PC_TILE_ROWS 2
#endif
/* fused, which loads its positions instead of evaluating them, makes 4 rows a thread: each thread
 * then has 15 loads in flight at once (fused.comp), and the halo adds 13 % to the loads instead
 * of 20 %. fused_deform keeps 2, its throughput bound by the curl's arithmetic. */
#ifndef PC_FUSED_ROWS
#define PC_FUSED_ROWS 4
#endif
/* fused_deform's tile for small pages, where the chain is one dispatch's latency, not bandwidth:
 * 32 x 16 tiles leave most of a large GPU's multiprocessors idle below 128^2 and make each thread
 * evaluate the curl 3 times (612 tile entries for 256 threads) before its normals. Here the 16 x 8
 * workgroup covers its tile and the halo, one entry a thread: one curl evaluation each, and the
 * inner 14 x 6 threads make the vertices. BENCHMARKS.md has the measurements that chose it. */
#define PC_SMALL_PAGE_VERTICES 16384u
#define PC_SMALL_TILE_W        16u
#define PC_SMALL_TILE_H        8u
/* the vertices it makes: the workgroup less its one-vertex halo on each side */
#define PC_SMALL_TILE_INNER_W (PC_SMALL_TILE_W - 2u)
#define PC_SMALL_TILE_INNER_H (PC_SMALL_TILE_H - 2u)

/* The page and edge shaders' specialization constant 0, bits the low tier (gpu/quality.h) sets:
 * EDGE_AA: the paper's edges anti-aliased by the shader (a target without MSAA), the colour's
 *   alpha the share of the pixel covered, blended over what lies behind;
 * FAST_SHADOW: the penumbra filtered with one read of the shadow map instead of four;
 * EDGE_INSIDE: only the pixels the paper covers whole (a later blended pass draws the edge's);
 * INK_MARKED: page.z's fraction says which sides have ink (+0.25 the front, +0.5 the back), so
 *   that a side with none skips the ink texture;
 * DRAW_LOD: light_dir.w is the draw's content mip level, a whole number (gpu/renderer_record.c),
 * read bilinearly from that one level instead of trilinearly from two picked per pixel;
 * SHADOW_ONLY: no colour, only the factor by which the leaf's shadow darkens a flat page, to be
 *   multiplied into the page drawn without it (UNSHADOWED) by the blend;
 * UNSHADOWED: no shadow, its code left out (llvmpipe runs both sides of a branch on a push
 *   constant): for the leaf, which receives none, and the low tier's cache of the still pages;
 * NO_INK: no ink read, its code left out likewise: for a draw with no ink on either side. */
#define PC_TIER_EDGE_AA     1u
#define PC_TIER_FAST_SHADOW 2u
#define PC_TIER_EDGE_INSIDE 4u
#define PC_TIER_INK_MARKED  8u
#define PC_TIER_DRAW_LOD    16u
#define PC_TIER_SHADOW_ONLY 32u
#define PC_TIER_UNSHADOWED  64u
#define PC_TIER_NO_INK      128u
/* BOARD: the code of a hard cover's board (its cloth or laminated print, its own shading);
 * CUT: the code of the turning leaf's cut edge (page.frag). With EDGE_AA (the low tier without
 * MSAA), only the pipelines that draw boards, or the turning leaf, have each; without it every
 * pipeline has both. */
#define PC_TIER_BOARD 256u
#define PC_TIER_CUT   512u
/* REFERENCE: the reference tier's (GPU_QUALITY_REFERENCE) shadow: a blocker search and the
 * light's disc each averaged over many jittered reads of the finest level, in place of the mips'
 * filters; slow, the measure of the other tiers. */
#define PC_TIER_REFERENCE 1024u
/* PLAIN: with EDGE_AA, the turning leaf's cells a pose leaves flat and away from its edges
 * (mesh/split.h), whose pixels the paper covers whole: no edge pushed out, no coverage, no cut
 * edge. */
#define PC_TIER_PLAIN 2048u
/* DETAIL: with EDGE_AA, the code that reads a zoomed view's detail (page.frag), in the two
 * pipelines that draw a flat page that has one (gpu/renderer_record.c) and in no other. */
#define PC_TIER_DETAIL 4096u

/* The paper's thickness and a hard cover's board's, in page widths: a leaf 0.3 mm on an A5 page
 * 148 mm wide (heavy sketchbook paper; book/book.h stacks the blocks of such leaves), a board
 * 2.2 mm (greyboard). The shaders draw the leaf's cut edge and the board's from them. */
#define PC_PAPER_THICKNESS 0.002
#define PC_BOARD_THICKNESS 0.015

/* The leaf's shadow map (shaders/shadow.glsl) is a box of half side SPARE * |(W, H/2)| about the
 * spine's midpoint. It holds, per texel, the share the leaf covers and that share times its depth
 * from the light, averaged down its mip levels to a top level of TOP x TOP texels whatever its
 * size; the page shader's blocker search is one bilinear read of that level, so it reaches
 * SEARCH of the map (1.5 of its texels) from a receiver (gpu/shadow.c bounds the shadow on
 * screen by it). */
#define PC_SHADOW_SPARE  1.02
#define PC_SHADOW_TOP    32u
#define PC_SHADOW_SEARCH (1.5 / 32.0)

/* The AoS vertex the renderer reads: pos.xyz, normal.xyz, uv.xy = 8 floats, 32 bytes, stored as
 * two vec4 so that it is written with 16-byte stores. */
#define PC_VERTEX_FLOATS        8
#define PC_VERTEX_OFFSET_POS    0
#define PC_VERTEX_OFFSET_NORMAL 12
#define PC_VERTEX_OFFSET_UV     24

/* Pass 1's output, kept per grid cell c = j*(nx-1) + i (triangles 2c and 2c+1, normals n0, n1):
 * a vec4 plane (n0.xyz, n1.x) and a vec2 plane (n1.yz). 24 bytes a cell, as three float planes
 * would be, moved with one 16-byte and one 8-byte access instead of six 4-byte ones. */
#define PC_CELL_NORMAL_A_BYTES 16
#define PC_CELL_NORMAL_B_BYTES 8

/* No incident triangle in that slot (the vertex is on the page's border). */
#define PC_NO_TRIANGLE 0xFFFFFFFFu

/* Push constants of the compute passes: grid size, element counts and the grid's steps. */
PC_STRUCT(PcComputePush)
pc_uint nx;             /* vertices across the page */
pc_uint ny;             /* vertices along the spine */
pc_uint vertex_count;   /* nx * ny */
pc_uint triangle_count; /* 2 (nx-1)(ny-1) */
float du;               /* 1 / (nx - 1), rounded once on the CPU (pc_grid_coord) */
float dv;               /* 1 / (ny - 1) */
pc_uint unused0, unused1;
PC_END(PcComputePush)

/* Grid coordinate (u or v) of vertex i of n along one side, with step = 1 / (n - 1) as the CPU
 * rounds it. A product is correctly rounded in C and in SPIR-V alike, a GPU's division is not:
 * so the CPU grid, deform.comp, the fused kernels and the pack all make the same UVs and rest
 * positions bit for bit. The last vertex is snapped to exactly 1. */
PC_FN float pc_grid_coord(pc_uint i, pc_uint n, float step)
{
    return i + 1u == n ? 1.0f : PC_FLOAT(i) * step;
}
#if defined(__STDC__)
/* The step, rounded once on the CPU: only C computes it, the GPU gets it in PcComputePush. */
static inline float pc_grid_step(pc_uint n)
{
    return 1.0f / (float)(n - 1u);
}
#endif

/* Push constants of the bandwidth probe: a copy of `count` vec4. */
PC_STRUCT(PcCopyPush)
pc_uint count;
pc_uint unused0, unused1, unused2;
PC_END(PcCopyPush)

/* Push constants of the C++ AMP examples: an extent of `count` elements, or `cols` x `rows`. */
PC_STRUCT(PcAmpPush)
pc_uint count;
pc_uint cols;
pc_uint rows;
float factor;
PC_END(PcAmpPush)

/* What a draw is, in PcDrawPush.page.w: the turning leaf (a caster, it receives no shadow), a
 * flat page of the spread (it receives the turning leaf's shadow), or the side faces of a block
 * of leaves under a flat page (their cut edges, drawn by edge.frag with no content). A float in
 * the push so that PcDrawPush stays at 128 bytes: small whole numbers, exact in a float. */
#define PC_DRAW_LEAF 0
#define PC_DRAW_FLAT 1
#define PC_DRAW_EDGE 2

/* PcDrawPush.frame.w: the draw's flags, plus PC_FRAME_HEIGHT times the target's height in pixels
 * (the renderer adds it as it records: gpu/renderer_record.c). Whole numbers, exact in a float up
 * to heights of 2^16. BACK_UP: the side that faces +z in the model is the leaf's back (a backward
 * turn's leaf frame); MIRRORED: the book is drawn mirrored (bound on the right); SPINE_EDGE: the
 * page's spine side (u = 0) is an outer edge of the book (nothing lies beyond it: a closed book's
 * one page, the leaf that opens or closes it), anti-aliased as the others are.
 * BOARD: the draw is a hard cover's board: its faces (a leaf's or a flat page's draw) or its cut
 * edges (PC_DRAW_EDGE, page.z then the content layer of its outside); CLOTH: that board is covered
 * in cloth (the book has no cover print), else its outside shows its print, laminated;
 * BOARD_BACK: its outside is the leaf's back (the back cover), else its front. On a block of
 * leaves (PC_DRAW_EDGE without BOARD): BOARD_TOP, BOARD_BOTTOM, a board lies at its top or
 * bottom, whose thickness its faces show there. On a turning board's face (a leaf's draw with
 * BOARD): BOARD_BOTTOM, this is the face on the model's -z side (book/book.c, board_draws). */
#define PC_FRAME_BACK_UP      1
#define PC_FRAME_MIRRORED     2
#define PC_FRAME_SPINE_EDGE   4
#define PC_FRAME_BOARD        8
#define PC_FRAME_CLOTH        16
#define PC_FRAME_BOARD_BACK   32
#define PC_FRAME_BOARD_TOP    64
#define PC_FRAME_BOARD_BOTTOM 128
#define PC_FRAME_HEIGHT       256

/* One page draw's constants, read by its shaders from the frame's draw table (PcDrawTable). A leaf
 * is drawn
 * as laid on the right (model diagonal 1,1,1), mirrored for a backward turn (-1,1,1: the curl is
 * computed in the leaf's own frame) or turned over onto the left (-1,1,-1); the diagonal's signs
 * carry the normals along, their product says whether the rasterizer's facing is inverted.
 * `model` places the vertices in the world (world = pos * model.xyz + (0, 0, model.w)): the
 * shadow pass, which has no camera, and the sheen, which needs the eye, work there. */
PC_STRUCT(PcDrawPush)
pc_mat4 view_proj; /* times the placement, scale and lift of this draw (the CPU's product) */
pc_vec4 light_dir; /* xyz: unit direction towards the light, world space; w: the mip
                    * level with PC_TIER_DRAW_LOD, else unused */
pc_vec4 page;      /* x: width, y: height, z: the content layer of the leaf's front (its
                    * back is z + 1), or for PC_DRAW_EDGE the leaves the block holds,
                    * w: what the draw is (PC_DRAW_LEAF, _FLAT, _EDGE) */
pc_vec4 frame;     /* xyz: for the turning leaf, the point where its curl's rulings meet
                    * (mesh_curl_apex), homogeneous in its page frame; for a flat page
                    * (PC_DRAW_FLAT) the detail its side reads (gpu/renderer.h): x the
                    * width in texels of the side drawn full-sized at the detail's density
                    * (its height follows the page's shape), positive for slot 0, negative
                    * for slot 1, 0 for none; yz that drawing's point at the detail's
                    * corner (texels, with fractions); (0, 0, 0) for the other draws.
                    * w: PC_FRAME_* flags plus the target's height */
pc_vec4 model;     /* xyz: the model's diagonal scale (its signs, times the quad's size; never
                    * 0), w: its lift along z */
PC_END(PcDrawPush)

/* A frame's draws: one table per frame in flight (PC_FRAMES_IN_FLIGHT of them in a uniform
 * buffer). The values that change with every frame (the camera, the pose's apex, the mip level)
 * are written there, so that a frame's commands, which name only a draw's row (PcDrawIndex, the
 * draws' push constants), can be recorded once and submitted again (gpu/renderer_record.c). */
#define PC_MAX_DRAWS 16
PC_STRUCT(PcDrawTable)
PcDrawPush draw[PC_MAX_DRAWS];
PC_END(PcDrawTable)
PC_STRUCT(PcDrawIndex)
pc_uint index; /* the draw's row */
pc_uint table; /* the frame in flight's table */
PC_END(PcDrawIndex)

/* The curl pose, as mesh/curl.c evaluates it and a compute shader can (docs/curl.md).
 * A generalised cone: past the fold line through fold.xy (unit in-plane normal fold.zw towards the
 * free edge) the page rolls with curvature up to 1/shape.x about rulings that meet at an apex on
 * the fold line, 1/shape.y away from fold.xy (signed; 0 = a cylinder). shape.z is the arc length
 * over which the curvature ramps from 0 to 1/r in PC_CURL_RAMP_STEPS equal steps (0 = no ramp). */
#define PC_CURL_RAMP_STEPS 8
PC_STRUCT(CurlParams)
pc_vec4 fold;  /* xy: point on the fold line, zw: unit normal towards the free edge */
pc_vec4 shape; /* x: radius r >= 0, y: kappa (1/apex distance), z: ramp length, w: the
                * roll's whole turn in (0, pi), flat after it (else pi: mesh_curl_hinge) */
PC_END(CurlParams)

/* The pieces of the curl's profile (ramp steps, the hold, flat after) and the curl's frame where
 * each starts: they depend on the pose alone, so mesh_curl_segments computes them once per frame
 * (in double) and a shader steps once per vertex instead of through every piece before it. */
#define PC_CURL_SEGMENTS (2 * PC_CURL_RAMP_STEPS + 2)
PC_STRUCT(CurlSegment)
pc_vec4 T; /* xyz: the ruling direction T where the piece starts, w: sigma there */
pc_vec4 t; /* xyz: the tangent t, w: the piece's turn theta */
pc_vec4 N; /* xyz: the normal N, w: the piece's arc length (huge for the last) */
pc_vec4 P; /* xyz: P(sigma) at the start, w: unused */
PC_END(CurlSegment)
PC_STRUCT(CurlSegments)
CurlSegment seg[PC_CURL_SEGMENTS];
CurlParams pose; /* the pose itself: with it the kernels' commands are the same every frame */
PC_END(CurlSegments)
/* One CurlSegments per frame in flight, in a uniform buffer: every thread of a deforming kernel
 * reads the same piece starts and pose, which the constant cache broadcasts. */
#define PC_FRAMES_IN_FLIGHT 2

/* Push constants of deform.comp and fused_deform.comp: the grid, the page size and which
 * frame-in-flight's CurlSegments (and pose) to read. 64 bytes. */
PC_STRUCT(PcDeformPush)
PcComputePush grid;
pc_vec4 page;  /* x: width, y: height */
pc_uint table; /* index into the leaf's CurlSegments buffer */
pc_uint unused0, unused1, unused2;
PC_END(PcDeformPush)

/* Grid numbering (mesh/grid.h says it in words): vertex (i, j) is j*nx + i, x fastest; cell
 * (i, j) holds triangle 2c  = (i,j) (i+1,j) (i+1,j+1) and 2c+1 = (i,j) (i+1,j+1) (i,j+1), with
 * c = j*(nx-1) + i: one fixed diagonal, both counter-clockwise seen from +z.
 * Slot k in 0..5 of vertex (i, j) names one of its incident triangles or PC_NO_TRIANGLE. The fixed
 * order is what makes the per-vertex gather repeatable bit for bit, on the CPU and the GPU
 * alike. */
PC_FN pc_uint pc_vertex_triangle(pc_uint nx, pc_uint ny, pc_uint i, pc_uint j, pc_uint k)
{
    pc_uint cx = nx - 1u;
    pc_uint has_right = (i < cx) ? 1u : 0u;
    pc_uint has_left = (i > 0u) ? 1u : 0u;
    pc_uint has_up = (j < ny - 1u) ? 1u : 0u;
    pc_uint has_down = (j > 0u) ? 1u : 0u;
    pc_uint t = PC_NO_TRIANGLE;
    switch (k) {
    case 0u: /* cell (i, j), both triangles touch its corner (i, j) */
        if (has_right * has_up == 1u)
            t = 2u * (j * cx + i);
        break;
    case 1u:
        if (has_right * has_up == 1u)
            t = 2u * (j * cx + i) + 1u;
        break;
    case 2u: /* cell (i-1, j): only its first triangle has the corner (i, j) */
        if (has_left * has_up == 1u)
            t = 2u * (j * cx + i - 1u);
        break;
    case 3u: /* cell (i-1, j-1): both triangles hold its corner (i, j) */
        if (has_left * has_down == 1u)
            t = 2u * ((j - 1u) * cx + i - 1u);
        break;
    case 4u:
        if (has_left * has_down == 1u)
            t = 2u * ((j - 1u) * cx + i - 1u) + 1u;
        break;
    default: /* cell (i, j-1): only its second triangle has the corner (i, j) */
        if (has_right * has_down == 1u)
            t = 2u * ((j - 1u) * cx + i) + 1u;
        break;
    }
    return t;
}

#if defined(__STDC__)
/* The C side of each layout must match std430 / push-constant rules byte for byte. */
_Static_assert(sizeof(PcComputePush) == 32, "PcComputePush layout");
_Static_assert(sizeof(PcCopyPush) == 16, "PcCopyPush layout");
_Static_assert(sizeof(PcAmpPush) == 16, "PcAmpPush layout");
_Static_assert(sizeof(CurlParams) == 32, "CurlParams layout");
_Static_assert(sizeof(PcDeformPush) == 64, "PcDeformPush layout");
_Static_assert(sizeof(CurlSegment) == 64, "CurlSegment layout");
_Static_assert(sizeof(PcDrawPush) == 128, "PcDrawPush layout");
_Static_assert(sizeof(PcDrawTable) == PC_MAX_DRAWS * 128, "PcDrawTable layout");
_Static_assert(sizeof(CurlSegments) == PC_CURL_SEGMENTS * 64 + 32, "CurlSegments layout");
#endif

#endif
