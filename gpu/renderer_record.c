/* SPDX-License-Identifier: MIT */
/* Recording a frame's passes: the draw rounds (which draws, by which pipeline variant), the
 * low tier's still pages drawn once into their cache and copied in, and the pass around them.
 * The renderer's objects are made in renderer.c. */
#include "renderer.h"

#include "image.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The backdrop behind the page (linear light), where the target says no other. */
static const VkClearColorValue BACKGROUND = {{0.045f, 0.05f, 0.065f, 1.0f}};

static VkClearColorValue background_of(const GpuRenderTarget *target)
{
    return target->background_set ? target->background : BACKGROUND;
}

/* Which draws a round of drawing takes: the turning leaf (it casts the shadow), the flat pages,
 * the blocks' faces, or all. */
typedef enum Take { TAKE_ALL, TAKE_CASTER, TAKE_FLAT, TAKE_EDGE } Take;
/* ...and how: by its own pipeline (the page's or the edge's), only the pixels it covers whole,
 * or only its shadow multiplied in. `unshadowed`: by the page pipelines' variant without the
 * shadow's code (PC_TIER_UNSHADOWED), for what receives no shadow. */
typedef enum Pass { PASS_OWN, PASS_INSIDE, PASS_SHADOW_ONLY } Pass;
typedef struct Round {
    Take take;
    Pass pass;
    bool unshadowed;
} Round;

static const Round PLAIN_ROUNDS[] = {{TAKE_ALL, PASS_OWN, false}};
/* When the shaders blend the paper's edges over what lies behind them (the low tier without
 * MSAA): the pixels that the turning leaf covers whole, those that the flat pages do, the blocks'
 * faces, the flat pages again and the leaf again, of which the depth test lets only the edge
 * pixels through. So every edge is blended over what lies behind it, the pages under the leaf stay
 * unshaded as when the leaf is drawn first, and only edge pixels pay for blending (on a CPU
 * rasteriser it costs every pixel it is on for). */
static const Round EDGE_ROUNDS[] = {{TAKE_CASTER, PASS_INSIDE, true},
                                    {TAKE_FLAT, PASS_INSIDE, false},
                                    {TAKE_EDGE, PASS_OWN, false},
                                    {TAKE_FLAT, PASS_OWN, false},
                                    {TAKE_CASTER, PASS_OWN, true}};
/* The still pages into their cache: the same without the leaf and its shadow... */
static const Round STILL_ROUNDS[] = {
    {TAKE_FLAT, PASS_INSIDE, true}, {TAKE_EDGE, PASS_OWN, false}, {TAKE_FLAT, PASS_OWN, true}};
/* ...and a frame over them: the leaf's inside, the shadow on the flat pages it leaves in view,
 * the leaf's edge. */
static const Round OVER_STILL_ROUNDS[] = {{TAKE_CASTER, PASS_INSIDE, true},
                                          {TAKE_FLAT, PASS_SHADOW_ONLY, false},
                                          {TAKE_CASTER, PASS_OWN, true}};

static bool takes(Take take, const GpuDraw *d)
{
    if (d->faded)
        return false; /* record_faded's, after every round */
    switch (take) {
    case TAKE_CASTER:
        return d->casts_shadow;
    case TAKE_FLAT:
        return !d->edge && !d->casts_shadow;
    case TAKE_EDGE:
        return d->edge;
    default:
        return true;
    }
}

/* PC_TIER_DRAW_LOD's mip level: log2 of the content texels a pixel spans at the middle of the
 * draw's page as it lies flat (the leaf's curl is ignored: there the level is finer than it need
 * be), rounded to a whole level so that llvmpipe reads one level, not two. The flat quad's model
 * is the unit square, the leaf's grid spans page.x by page.y; uv runs 0..1 over either. */
static float draw_lod(const GpuRenderer *r, const GpuDraw *d, VkExtent2D extent)
{
    const float *m = d->push.view_proj.m; /* column-major */
    float a = d->casts_shadow ? d->push.page.v[0] : 1.0f;
    float b = d->casts_shadow ? d->push.page.v[1] : 1.0f;
    float c[4], du[4], dv[4]; /* clip position at uv (0.5, 0.5) and its derivatives in u, v */
    for (int i = 0; i < 4; i++) {
        du[i] = m[i] * a;
        dv[i] = m[4 + i] * b;
        c[i] = 0.5f * (du[i] + dv[i]) + m[12 + i];
    }
    if (c[3] <= 1e-6f)
        return 0.0f;
    /* pixels per unit of u and of v: the derivative of the perspective divide, times the viewport
     */
    float sx = 0.5f * (float)extent.width / (c[3] * c[3]);
    float sy = 0.5f * (float)extent.height / (c[3] * c[3]);
    float xu = sx * (du[0] * c[3] - c[0] * du[3]), yu = sy * (du[1] * c[3] - c[1] * du[3]);
    float xv = sx * (dv[0] * c[3] - c[0] * dv[3]), yv = sy * (dv[1] * c[3] - c[1] * dv[3]);
    float det = xu * yv - xv * yu;
    if (fabsf(det) < 1e-12f)
        return 0.0f;
    /* the inverse: texels per pixel along x and y (GL's rho, the longer of the two) */
    float w = (float)r->content.width / det, h = (float)r->content.height / det;
    float rho = fmaxf(hypotf(w * yv, h * yu), hypotf(w * xv, h * xu));
    return rho > 1.0f ? floorf(log2f(rho) + 0.5f) : 0.0f;
}

/* Whether a page draw's front and back have ink (ever written to). */
static void ink_sides(const GpuRenderer *r, const GpuDraw *d, bool *front_inked, bool *back_inked)
{
    uint32_t front = (uint32_t)d->push.page.v[2];
    uint64_t inked = r->ink.inked;
    *front_inked = front >= 64 || (inked >> front & 1);
    *back_inked = front + 1 >= 64 || (inked >> (front + 1) & 1);
}

/* A draw's push constants: the target's height in frame.w, by which page.vert measures a pixel
 * (the edges it pushes out with PC_TIER_EDGE_AA, the paper's thickness on screen); with
 * PC_TIER_INK_MARKED, page.z marked with which of the leaf's two sides have ink; with
 * PC_TIER_DRAW_LOD, light_dir.w its mip level. */
static PcDrawPush draw_push(const GpuRenderer *r, const GpuDraw *d, VkExtent2D extent)
{
    PcDrawPush push = d->push;
    push.frame.v[3] += (float)PC_FRAME_HEIGHT * (float)extent.height;
    if ((gpu_renderer_tier_bits(r) & PC_TIER_DRAW_LOD) && !d->edge)
        push.light_dir.v[3] = draw_lod(r, d, extent);
    if ((gpu_renderer_tier_bits(r) & PC_TIER_INK_MARKED) && !d->edge) {
        bool f, b;
        ink_sides(r, d, &f, &b);
        push.page.v[2] += (f ? 0.25f : 0.0f) + (b ? 0.5f : 0.0f);
    }
    return push;
}

/* Whether `d` draws a hard cover's board's faces (PC_FRAME_BOARD on a page draw). */
static bool draws_board(const GpuDraw *d)
{
    return !d->edge && ((uint32_t)d->push.frame.v[3] % PC_FRAME_HEIGHT) & PC_FRAME_BOARD;
}

/* The pipeline a round draws `d` by; `lit`: the variant without the shadow's code. */
static VkPipeline round_pipeline(const GpuRenderer *r, const Round *round, const GpuDraw *d,
                                 bool lit)
{
    if (r->board_pipeline && round->pass != PASS_SHADOW_ONLY && draws_board(d))
        return round->pass == PASS_INSIDE ? r->board_inside_pipeline : r->board_pipeline;
    /* A flat page with a zoomed view's detail: the variants that read it, with the shadow's code
     * and the ink's, which give the same pixels where the shadow does not fall or there is no
     * ink (its factor 1, its coverage 0) */
    bool detail = d->push.page.v[3] == (float)PC_DRAW_FLAT && d->push.frame.v[0] != 0.0f;
    if (r->detail_pipeline && detail && round->pass != PASS_SHADOW_ONLY)
        return round->pass == PASS_INSIDE ? r->detail_inside_pipeline : r->detail_pipeline;
    bool f = true, b = true;
    if (lit && !d->edge)
        ink_sides(r, d, &f, &b);
    bool bare = lit && !f && !b; /* no ink on either side: the ink's read left out */
    if (r->leaf_pipeline && round->pass != PASS_SHADOW_ONLY && d->casts_shadow)
        return round->pass == PASS_INSIDE
                   ? (bare ? r->leaf_bare_inside_pipeline : r->leaf_inside_pipeline)
                   : (bare ? r->leaf_bare_pipeline : r->leaf_pipeline);
    return round->pass == PASS_SHADOW_ONLY ? r->shadow_only_pipeline
           : round->pass == PASS_INSIDE    ? (bare  ? r->bare_inside_pipeline
                                              : lit ? r->lit_inside_pipeline
                                                    : r->inside_pipeline)
           : d->edge                       ? r->edge_pipeline
           : bare                          ? r->bare_pipeline
           : lit                           ? r->lit_pipeline
                                           : r->pipeline;
}

/* The pieces of the target a round draws `d` in, each with whether it is drawn without the
 * shadow's code; returns how many (none: nothing to draw). A flat page drawn with its shadow
 * needs the shadow's code only where the caster's shadow can fall (gpu_shadow_receiver_rect):
 * around it, the same pixels come from the variant without it, whose lighting is the same with
 * the shadow's factor 1 left out. The shadow alone is drawn only there. */
static uint32_t round_pieces(const GpuRenderer *r, const Round *round, const GpuDraw *d,
                             const GpuDraw *caster, VkExtent2D extent, VkRect2D *piece, bool *lit)
{
    VkRect2D all = {{0, 0}, extent}, in;
    piece[0] = all;
    lit[0] = round->unshadowed;
    bool flat = !d->edge && !d->casts_shadow;
    if (round->pass == PASS_SHADOW_ONLY) {
        if (!gpu_shadow_receiver_rect(&r->shadow, caster, d, extent, &piece[0]))
            return 0;
        return 1;
    }
    if (lit[0] || !flat || !caster || !caster->bounded)
        return 1;
    if (!gpu_shadow_receiver_rect(&r->shadow, caster, d, extent, &in)) {
        lit[0] = true;
        return 1;
    }
    piece[0] = in;
    uint32_t n = 1;
    int32_t x1 = in.offset.x + (int32_t)in.extent.width;
    int32_t y1 = in.offset.y + (int32_t)in.extent.height;
    VkRect2D around[4] = {
        {{0, 0}, {extent.width, (uint32_t)in.offset.y}},                      /* above */
        {{0, y1}, {extent.width, extent.height - (uint32_t)y1}},              /* below */
        {{0, in.offset.y}, {(uint32_t)in.offset.x, in.extent.height}},        /* left */
        {{x1, in.offset.y}, {extent.width - (uint32_t)x1, in.extent.height}}, /* right */
    };
    for (int i = 0; i < 4; i++) {
        if (around[i].extent.width && around[i].extent.height) {
            piece[n] = around[i];
            lit[n++] = true;
        }
    }
    return n;
}

/* Where a flat page's edge pixels can lie: within EDGE_STRIP_PX of its outline (page.vert pushes
 * an edge's vertices out by at most 1.5 px, and the coverage's ramp reaches 0.71 px past that),
 * so its blended round, whose depth test lets only those pixels through, rasterises only the
 * strips along its four edges instead of its whole quad. Writes them as disjoint rectangles
 * within `extent` (a pixel in two would be blended twice); returns how many, or 0 where the
 * page's corners do not all lie in front of the eye (then the whole target). */
#define EDGE_STRIP_PX 4.0f
#define EDGE_STRIPS   16

static uint32_t edge_strips(const GpuDraw *d, VkExtent2D extent, VkRect2D out[EDGE_STRIPS])
{
    const float *m = d->push.view_proj.m; /* column-major: the unit quad at z = 0 to clip */
    float px[4][2];
    for (int k = 0; k < 4; k++) {
        float u = (float)(k & 1), v = (float)(k >> 1), clip[4];
        for (int i = 0; i < 4; i++)
            clip[i] = m[i] * u + m[4 + i] * v + m[12 + i];
        if (!(clip[3] > 1e-6f))
            return 0;
        px[k][0] = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)extent.width;
        px[k][1] = (clip[1] / clip[3] * 0.5f + 0.5f) * (float)extent.height;
    }
    /* each edge's box grown by the strip, in whole pixels within the target */
    static const int ends[4][2] = {{0, 1}, {1, 3}, {3, 2}, {2, 0}};
    float box[4][4]; /* x0, y0, x1, y1 */
    float ys[8];
    for (int e = 0; e < 4; e++) {
        const float *a = px[ends[e][0]], *b = px[ends[e][1]];
        box[e][0] = fmaxf(floorf(fminf(a[0], b[0]) - EDGE_STRIP_PX), 0.0f);
        box[e][1] = fmaxf(floorf(fminf(a[1], b[1]) - EDGE_STRIP_PX), 0.0f);
        box[e][2] = fminf(ceilf(fmaxf(a[0], b[0]) + EDGE_STRIP_PX), (float)extent.width);
        box[e][3] = fminf(ceilf(fmaxf(a[1], b[1]) + EDGE_STRIP_PX), (float)extent.height);
        ys[2 * e] = box[e][1], ys[2 * e + 1] = box[e][3];
    }
    for (int i = 1; i < 8; i++) /* the boxes' rows, in order */
        for (int j = i; j > 0 && ys[j - 1] > ys[j]; j--) {
            float t = ys[j];
            ys[j] = ys[j - 1], ys[j - 1] = t;
        }
    /* Band by band between those rows, the boxes' spans across it, overlapping ones joined: at
     * most 7 bands of at most 2 spans for a page's outline (a span per side; more where a box
     * turns wide, then joined). */
    uint32_t n = 0;
    for (int band = 0; band + 1 < 8; band++) {
        float y0 = ys[band], y1 = ys[band + 1];
        if (!(y0 < y1))
            continue;
        float span[4][2];
        int spans = 0;
        for (int e = 0; e < 4; e++)
            if (box[e][1] <= y0 && box[e][3] >= y1 && box[e][0] < box[e][2])
                span[spans][0] = box[e][0], span[spans++][1] = box[e][2];
        for (int i = 1; i < spans; i++) /* by their left ends */
            for (int j = i; j > 0 && span[j - 1][0] > span[j][0]; j--) {
                float t0 = span[j][0], t1 = span[j][1];
                span[j][0] = span[j - 1][0], span[j][1] = span[j - 1][1];
                span[j - 1][0] = t0, span[j - 1][1] = t1;
            }
        for (int i = 0; i < spans;) {
            float x0 = span[i][0], x1 = span[i][1];
            for (i++; i < spans && span[i][0] <= x1; i++)
                x1 = fmaxf(x1, span[i][1]);
            if (n < EDGE_STRIPS)
                out[n++] = (VkRect2D){{(int32_t)x0, (int32_t)y0},
                                      {(uint32_t)(x1 - x0), (uint32_t)(y1 - y0)}};
            else
                return 0; /* never: 7 bands of at most 2 spans */
        }
    }
    return n;
}

/* Whether `a` and `b` overlap; `a` cut to the overlap. */
static bool rect_cut(VkRect2D *a, const VkRect2D *b)
{
    int32_t x0 = a->offset.x > b->offset.x ? a->offset.x : b->offset.x;
    int32_t y0 = a->offset.y > b->offset.y ? a->offset.y : b->offset.y;
    int64_t ax1 = (int64_t)a->offset.x + a->extent.width,
            bx1 = (int64_t)b->offset.x + b->extent.width;
    int64_t ay1 = (int64_t)a->offset.y + a->extent.height,
            by1 = (int64_t)b->offset.y + b->extent.height;
    int64_t x1 = ax1 < bx1 ? ax1 : bx1, y1 = ay1 < by1 ? ay1 : by1;
    if (x1 <= x0 || y1 <= y0)
        return false;
    *a = (VkRect2D){{x0, y0}, {(uint32_t)(x1 - x0), (uint32_t)(y1 - y0)}};
    return true;
}

/* The pieces cut to the page's edge strips (edge_strips), in place (room for 5 * EDGE_STRIPS);
 * returns how many. Where there are no strips, the pieces as they are. */
static uint32_t cut_to_strips(const GpuDraw *d, VkExtent2D extent, VkRect2D *piece, bool *lit,
                              uint32_t pieces)
{
    VkRect2D strip[EDGE_STRIPS], was[5];
    bool was_lit[5];
    uint32_t strips = edge_strips(d, extent, strip);
    if (!strips || pieces > 5)
        return pieces;
    memcpy(was, piece, pieces * sizeof *piece);
    memcpy(was_lit, lit, pieces * sizeof *lit);
    uint32_t n = 0;
    for (uint32_t p = 0; p < pieces; p++)
        for (uint32_t k = 0; k < strips; k++) {
            piece[n] = was[p];
            if (rect_cut(&piece[n], &strip[k]))
                lit[n++] = was_lit[p];
        }
    return n;
}

/* The leaf split by its pose and view (GpuDraw.split) in a round of its own: the inside round
 * draws its plain cells by the plain pipeline, whose pixels need no coverage, then the others by
 * the round's; the edge round only the others, the plain cells' pixels being covered whole (the
 * depth test would reject every one). */
static void draw_split(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *r,
                       const Round *round, const GpuDraw *d, VkPipeline pipeline, VkPipeline *bound,
                       GpuBound *buffers)
{
    if (round->pass == PASS_INSIDE && d->split_plain) {
        bool f, b;
        ink_sides(r, d, &f, &b);
        VkPipeline plain = !f && !b ? r->leaf_bare_plain_pipeline : r->leaf_plain_pipeline;
        ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, plain);
        gpu_pipeline_draw(ctx, cmd, buffers, d->vertices, d->split, 0, d->split_plain);
        *bound = plain;
    }
    if (d->split_count > d->split_plain) {
        if (pipeline != *bound)
            ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        *bound = pipeline;
        gpu_pipeline_draw(ctx, cmd, buffers, d->vertices, d->split, d->split_plain,
                          d->split_count - d->split_plain);
    }
}

/* Records the rounds' draws in the begun rendering over `extent` at `at` in its attachments,
 * `pipeline` bound and the set with it; with `only`, only within that rectangle of `extent`. The
 * scissor is left as the last piece set it: the rendering ends next, and the next one sets its own
 * (gpu_pipeline_begin). */
static void record_rounds(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *r,
                          const Round *rounds, size_t round_count, const GpuDraw *draws,
                          uint32_t count, VkExtent2D extent, VkOffset2D at, uint32_t slot,
                          const VkRect2D *only, GpuBound *buffers)
{
    VkPipeline bound = r->pipeline;
    VkRect2D scissor = {at, extent};
    const GpuDraw *caster = NULL;
    for (uint32_t i = 0; i < count && !caster; i++)
        caster = draws[i].casts_shadow ? &draws[i] : NULL;
    for (size_t k = 0; k < round_count; k++) {
        const Round *round = &rounds[k];
        for (uint32_t i = 0; i < count; i++) {
            const GpuDraw *d = &draws[i];
            if (!takes(round->take, d))
                continue;
            VkRect2D piece[5 * EDGE_STRIPS];
            bool lit[5 * EDGE_STRIPS];
            uint32_t pieces = round_pieces(r, round, d, caster, extent, piece, lit);
            /* the flat pages' blended round: only the strips along their edges */
            if (round->take == TAKE_FLAT && round->pass == PASS_OWN && r->software &&
                (gpu_renderer_tier_bits(r) & PC_TIER_EDGE_AA) &&
                d->push.page.v[3] == (float)PC_DRAW_FLAT && !draws_board(d))
                pieces = cut_to_strips(d, extent, piece, lit, pieces);
            PcDrawIndex pick = {i, slot};
            uint32_t kept = 0;
            for (uint32_t p = 0; p < pieces; p++)
                if (!only || rect_cut(&piece[p], only))
                    piece[kept] = piece[p], lit[kept++] = lit[p];
            pieces = kept;
            for (uint32_t p = 0; p < pieces; p++) {
                piece[p].offset.x += at.x, piece[p].offset.y += at.y;
                if (memcmp(&piece[p], &scissor, sizeof scissor)) {
                    scissor = piece[p];
                    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &scissor);
                }
                VkPipeline pipeline = round_pipeline(r, round, d, lit[p]);
                if (p == 0 && d->split && round->pass != PASS_SHADOW_ONLY) {
                    ctx->vk.vkCmdPushConstants(
                        cmd, r->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                        0, sizeof pick, &pick);
                    draw_split(ctx, cmd, r, round, d, pipeline, &bound, buffers);
                    continue;
                }
                if (pipeline != bound) {
                    /* identically defined layouts: the set and push constants work with any */
                    bound = pipeline;
                    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
                }
                if (p == 0)
                    ctx->vk.vkCmdPushConstants(
                        cmd, r->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                        0, sizeof pick, &pick);
                gpu_pipeline_draw(ctx, cmd, buffers, d->vertices, d->indices, d->first_index,
                                  d->index_count);
            }
        }
    }
}

/* The faded pages (reduced motion's cross-fade) over everything the rounds drew, each by its
 * share: the spread they fade from over the one they fade to, in the same plane. */
static void record_faded(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *r,
                         const GpuDraw *draws, uint32_t count, VkExtent2D extent, VkOffset2D at,
                         uint32_t slot, GpuBound *buffers)
{
    bool bound = false;
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        if (!d->faded)
            continue;
        if (!bound) {
            ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->fade_pipeline);
            ctx->vk.vkCmdSetScissor(cmd, 0, 1,
                                    &(VkRect2D){at, extent}); /* a round's piece's left */
            bound = true;
        }
        float a = d->alpha < 0.0f ? 0.0f : (d->alpha > 1.0f ? 1.0f : d->alpha);
        ctx->vk.vkCmdSetBlendConstants(cmd, (float[4]){a, a, a, a});
        PcDrawIndex pick = {i, slot};
        ctx->vk.vkCmdPushConstants(cmd, r->layout,
                                   VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                                   sizeof pick, &pick);
        gpu_pipeline_draw(ctx, cmd, buffers, d->vertices, d->indices, d->first_index,
                          d->index_count);
    }
}

/* Last frame's depth tests (or this frame's still pages') -> a depth clear. */
static GpuImageBarrier depth_barrier(const GpuRenderTarget *target)
{
    return (GpuImageBarrier){
        .image = target->depth,
        .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
        .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .new_layout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .src_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                     VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .dst_access = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
    };
}

/* Last frame's resolve read the samples -> this frame's clear. */
static GpuImageBarrier msaa_barrier(const GpuRenderTarget *target)
{
    return (GpuImageBarrier){
        .image = target->msaa,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    };
}

/* A copy into a colour image -> drawing over it. */
static GpuImageBarrier copied_to_drawn(VkImage image)
{
    return (GpuImageBarrier){
        .image = image,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dst_access =
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    };
}

/* Begins rendering into `color_view` (cleared to the backdrop, or loaded) and the target's
 * depth (cleared), over the target's extent at `at`, with the page pipeline bound (the set is,
 * from the frame's start). The caller has made the depth (and the MSAA samples) ready:
 * depth_barrier, msaa_barrier. */
static void begin(const GpuContext *ctx, VkCommandBuffer cmd, const GpuRenderer *r,
                  const GpuRenderTarget *target, VkImageView color_view, bool load, VkOffset2D at)
{
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = color_view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = {.color = background_of(target)},
    };
    if (target->msaa) {
        /* The samples are discarded, then drawn and averaged into the target's colour image at
         * the end of the pass. */
        color.imageView = target->msaa_view;
        color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        color.resolveImageView = color_view;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    VkRenderingAttachmentInfo depth = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = target->depth_view,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = {.depthStencil = {1.0f, 0}},
    };
    gpu_pipeline_begin(ctx, cmd, r->pipeline, r->layout, &color, &depth,
                       (VkRect2D){at, target->extent}, NULL, 0);
}

void gpu_renderer_prepare(const GpuContext *ctx, GpuRenderer *r, VkExtent2D extent)
{
    GpuStillCache *c = &r->still;
    if (!(gpu_renderer_tier_bits(r) & PC_TIER_EDGE_AA) || !r->software || c->failed)
        return;
    if (c->color.image && c->color.extent.width == extent.width &&
        c->color.extent.height == extent.height)
        return;
    gpu_image_destroy(ctx, &c->color);
    gpu_image_destroy(ctx, &c->other);
    c->valid = false;
    GpuError err = {0};
    GpuImageDesc desc = {
        .extent = extent,
        .format = r->color_format,
        /* drawn and copied out; the other copied into on a pan (shift_record) */
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .label = "still pages",
    };
    c->failed = !gpu_image_create(ctx, &desc, &c->color, &err);
    desc.label = "still pages moved";
    if (!c->failed && !gpu_image_create(ctx, &desc, &c->other, &err))
        c->other = (GpuImage){0}; /* pans draw everything */
    VkFormatProperties props;
    ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, r->color_format, &props);
    const VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                      VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    c->blits = (props.optimalTilingFeatures & blit) == blit;
}

/* Whether this frame can draw over the still pages' cache: the low tier blending its own edges
 * (the cache holds no MSAA samples), a target that takes copies, at most one turning leaf and
 * nothing else that moves (a hard cover's board turns with its block), and the cache's image made
 * for the target's size (gpu_renderer_prepare). The leaf always lies above the still pages (at or
 * over the page plane, the camera above it), so drawn over them it needs none of their depths. */
static bool still_usable(const GpuRenderer *r, const GpuRenderTarget *target, const GpuDraw *draws,
                         uint32_t count)
{
    const GpuStillCache *c = &r->still;
    if (!(gpu_renderer_tier_bits(r) & PC_TIER_EDGE_AA) || !r->software || !target->copy_in ||
        target->keep || !c->color.image)
        return false;
    uint32_t casters = 0, still = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (draws[i].faded)
            return false; /* a cross-fade changes every frame: the cache would be stale */
        casters += draws[i].casts_shadow;
        still += !draws[i].casts_shadow;
    }
    VkExtent2D e = target->extent;
    return casters <= 1 && still <= GPU_STILL_MAX_DRAWS && c->color.extent.width == e.width &&
           c->color.extent.height == e.height;
}

/* How a frame draws its still pages: itself, over the cache as it is, over the cache drawn
 * anew first, as the cache moved by whole pixels with the strips it uncovers drawn, or as the
 * cache scaled with what that leaves uncovered drawn. */
typedef enum StillUse { STILL_NONE, STILL_OVER, STILL_REDRAW, STILL_SHIFT, STILL_SCALE } StillUse;

/* How far from a whole pixel a move may be: the book rounds a moving pan to whole pixels
 * (book/pagecurl.c), which the view-projection carries in floats. */
#define SHIFT_SLACK_PX 0.01

/* Whether the still draws `now` are `was` moved on the screen by whole pixels (*dx, *dy, not
 * both 0, less than `extent`): the same draws and values but for the view-projection's x and y
 * rows, each the old one plus a multiple of its w row (clip x' = x + k w: the picture moved after
 * the projection, as a zoomed view's pan moves it), the same move for every draw. */
static bool still_shift(const GpuStillDraw *was, const GpuStillDraw *now, uint32_t n,
                        VkExtent2D extent, int32_t *dx, int32_t *dy)
{
    double move[2] = {0.0, 0.0};
    for (uint32_t i = 0; i < n; i++) {
        const GpuStillDraw *a = &was[i], *b = &now[i];
        if (a->vertices != b->vertices || a->indices != b->indices ||
            a->first_index != b->first_index || a->index_count != b->index_count)
            return false;
        PcDrawPush rest = b->push;
        memcpy(rest.view_proj.m, a->push.view_proj.m, sizeof rest.view_proj.m);
        if (memcmp(&rest, &a->push, sizeof rest))
            return false;
        const float *ma = a->push.view_proj.m, *mb = b->push.view_proj.m; /* column-major */
        for (int c = 0; c < 4; c++)
            if (ma[4 * c + 2] != mb[4 * c + 2] || ma[4 * c + 3] != mb[4 * c + 3])
                return false;
        for (int row = 0; row < 2; row++) {
            double num = 0.0, den = 0.0, big = 0.0;
            for (int c = 0; c < 4; c++) {
                double w = ma[4 * c + 3], d = (double)mb[4 * c + row] - ma[4 * c + row];
                num += d * w, den += w * w;
                big = fmax(big, fmax(fabs(ma[4 * c + row]), fabs(mb[4 * c + row])));
            }
            if (!(den > 0.0))
                return false;
            double k = num / den;
            for (int c = 0; c < 4; c++) { /* a multiple of the w row, to the floats' rounding */
                double d = (double)mb[4 * c + row] - ma[4 * c + row];
                if (fabs(d - k * ma[4 * c + 3]) > 1e-5 * big)
                    return false;
            }
            /* clip's 2 across the target: k of it is k / 2 of the target's pixels */
            double px = 0.5 * k * (row ? extent.height : extent.width);
            if (i && fabs(px - move[row]) > SHIFT_SLACK_PX)
                return false;
            move[row] = px;
        }
    }
    for (int row = 0; row < 2; row++)
        if (!(fabs(move[row] - round(move[row])) <= SHIFT_SLACK_PX))
            return false;
    *dx = (int32_t)lround(move[0]), *dy = (int32_t)lround(move[1]);
    return n && (*dx || *dy) && (uint32_t)abs(*dx) < extent.width &&
           (uint32_t)abs(*dy) < extent.height;
}

/* Whether the still draws `now` are `was` scaled on the screen by one factor and moved: the same
 * draws and values (but for the view-projection and the mip level the low tier picks by it), the
 * view-projection's z and w rows the same and its x and y rows each `s` times the old one plus a
 * multiple of its w row (clip x' = s x + k w: a zoom, which book/camera.c applies after the
 * projection), alike for every draw, s within GPU_STILL_SCALE_MOST of 1. Then a pixel (x, y)
 * of `was` lies at (s x + at[0], s y + at[1]) of `now`. */
static bool still_scale(const GpuStillDraw *was, const GpuStillDraw *now, uint32_t n,
                        VkExtent2D extent, double *scale, double at[2])
{
    double s0 = 0.0, at0[2] = {0.0, 0.0};
    for (uint32_t i = 0; i < n; i++) {
        const GpuStillDraw *a = &was[i], *b = &now[i];
        if (a->vertices != b->vertices || a->indices != b->indices ||
            a->first_index != b->first_index || a->index_count != b->index_count)
            return false;
        PcDrawPush rest = b->push;
        memcpy(rest.view_proj.m, a->push.view_proj.m, sizeof rest.view_proj.m);
        rest.light_dir.v[3] = a->push.light_dir.v[3]; /* the mip level: a resample of the old */
        if (memcmp(&rest, &a->push, sizeof rest))
            return false;
        const float *ma = a->push.view_proj.m, *mb = b->push.view_proj.m; /* column-major */
        for (int c = 0; c < 4; c++)
            if (ma[4 * c + 2] != mb[4 * c + 2] || ma[4 * c + 3] != mb[4 * c + 3])
                return false;
        double s[2], k[2];
        for (int row = 0; row < 2; row++) {
            /* least squares for s, k in new = s old + k w, then every entry checked */
            double aa = 0.0, aw = 0.0, ww = 0.0, ab = 0.0, wb = 0.0, big = 0.0;
            for (int c = 0; c < 4; c++) {
                double o = ma[4 * c + row], w = ma[4 * c + 3], v = mb[4 * c + row];
                aa += o * o, aw += o * w, ww += w * w, ab += o * v, wb += w * v;
                big = fmax(big, fmax(fabs(o), fabs(v)));
            }
            double det = aa * ww - aw * aw;
            if (!(fabs(det) > 1e-12 * aa * ww))
                return false;
            s[row] = (ab * ww - aw * wb) / det, k[row] = (aa * wb - aw * ab) / det;
            for (int c = 0; c < 4; c++) {
                double d =
                    (double)mb[4 * c + row] - s[row] * ma[4 * c + row] - k[row] * ma[4 * c + 3];
                if (fabs(d) > 1e-5 * big)
                    return false;
            }
        }
        if (!(s[0] <= GPU_STILL_SCALE_MOST && s[0] * GPU_STILL_SCALE_MOST >= 1.0) ||
            fabs(s[1] - s[0]) > 1e-4 * s[0])
            return false;
        /* ndc' = s ndc + k: a pixel p = (ndc + 1) / 2 of the side goes to s p + (k + 1 - s) / 2 */
        double px[2] = {0.5 * (k[0] + 1.0 - s[0]) * extent.width,
                        0.5 * (k[1] + 1.0 - s[0]) * extent.height};
        if (i && (fabs(s[0] - s0) > 1e-4 * s0 || fabs(px[0] - at0[0]) > SHIFT_SLACK_PX ||
                  fabs(px[1] - at0[1]) > SHIFT_SLACK_PX))
            return false;
        s0 = s[0], at0[0] = px[0], at0[1] = px[1];
    }
    *scale = s0, at[0] = at0[0], at[1] = at0[1];
    return n > 0;
}

/* Whether the content's layers that the still draws `now` read are as the cache's were: pages
 * drawn into other layers (the next spread's, coming in while the reader looks at this one) leave
 * the cache as it is. A leaf's or a flat page's draw reads its two sides; a block's edges, the
 * board's outside on it (page.z for a turning board's, frame.x for one lying on the block). */
static bool still_texels_kept(const GpuRenderer *r, const GpuStillDraw *now, uint32_t n)
{
    uint64_t drawn = r->still.content_writes;
    for (uint32_t i = 0; i < n; i++) {
        const PcDrawPush *p = &now[i].push;
        uint32_t flags = (uint32_t)p->frame.v[3] % PC_FRAME_HEIGHT;
        uint32_t read[2], count = 0;
        if (p->page.v[3] != (float)PC_DRAW_EDGE) {
            read[count++] = (uint32_t)p->page.v[2];
            read[count++] = (uint32_t)p->page.v[2] + 1;
        } else {
            if (flags & PC_FRAME_BOARD)
                read[count++] = (uint32_t)p->page.v[2];
            if (flags & (PC_FRAME_BOARD_TOP | PC_FRAME_BOARD_BOTTOM))
                read[count++] = (uint32_t)p->frame.v[0];
        }
        for (uint32_t k = 0; k < count; k++)
            if (gpu_texture_layer_writes(&r->content, read[k]) > drawn)
                return false;
    }
    return true;
}

/* The still pages as this frame draws them, against the last frame's (which the cache holds when
 * valid). Changed, they become the last frame's and the frame draws them itself: drawn into the
 * cache now, they might be changed again by the next frame (they do every frame of a closed
 * book's first turn, as the camera widens), and the frame would have drawn them twice. Moved by
 * whole pixels with no leaf in the air, the cache is moved instead (*dx, *dy). */
static StillUse still_use(GpuRenderer *r, const GpuRenderTarget *target, const GpuDraw *draws,
                          uint32_t count, int32_t *dx, int32_t *dy)
{
    VkExtent2D extent = target->extent;
    VkClearColorValue background = background_of(target);
    GpuStillCache *c = &r->still;
    GpuStillDraw now[GPU_STILL_MAX_DRAWS];
    uint32_t n = 0, casters = 0;
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        casters += d->casts_shadow;
        if (d->casts_shadow)
            continue;
        now[n] = (GpuStillDraw){d->vertices, d->indices, d->first_index, d->index_count,
                                draw_push(r, d, extent)};
        n++;
    }
    bool texels = still_texels_kept(r, now, n) && c->detail_writes == r->detail_writes &&
                  c->ink_writes == r->ink.writes &&
                  !memcmp(&c->background, &background, sizeof background);
    bool same = c->count == n && texels;
    for (uint32_t i = 0; same && i < n; i++)
        same = c->draws[i].vertices == now[i].vertices && c->draws[i].indices == now[i].indices &&
               c->draws[i].first_index == now[i].first_index &&
               c->draws[i].index_count == now[i].index_count &&
               !memcmp(&c->draws[i].push, &now[i].push, sizeof now[i].push);
    bool moving = false; /* the view moves on: the cache moved onto it stands for it */
    for (uint32_t i = 0; i < count; i++)
        moving |= draws[i].moving;
    if (same)
        return c->valid && (!c->moved || moving) ? STILL_OVER : STILL_REDRAW;
    bool shift = c->valid && c->other.image && !casters && texels && c->count == n &&
                 still_shift(c->draws, now, n, extent, dx, dy);
    /* A zoom's moving frame is the cache scaled, and the cache stays the frame it was, so that
     * every frame of the ease is one resample of a frame drawn, not of the one before it. */
    if (!shift && c->valid && c->blits && c->other.image && !casters && texels && moving &&
        c->count == n && still_scale(c->draws, now, n, extent, &c->scale, c->at))
        return STILL_SCALE;
    memcpy(c->draws, now, n * sizeof now[0]);
    c->count = n;
    c->content_writes = r->content.writes;
    c->detail_writes = r->detail_writes;
    c->ink_writes = r->ink.writes;
    c->background = background;
    c->valid = shift;
    /* A pan's frame that cannot move them (its first) has no leaf in the air: the frame is its
     * still pages, drawn into the cache and copied in, there for the pan's next frame to move. */
    return shift ? STILL_SHIFT : !casters && moving ? STILL_REDRAW : STILL_NONE;
}

/* The strips of the target a move by (dx, dy) uncovers: the rows across the whole width, the
 * columns down the rest. Returns how many (1 or 2). */
static uint32_t shift_strips(VkExtent2D e, int32_t dx, int32_t dy, VkRect2D strip[2])
{
    uint32_t n = 0, ax = (uint32_t)abs(dx), ay = (uint32_t)abs(dy);
    if (ay)
        strip[n++] = (VkRect2D){{0, dy > 0 ? 0 : (int32_t)(e.height - ay)}, {e.width, ay}};
    if (ax)
        strip[n++] = (VkRect2D){{dx > 0 ? 0 : (int32_t)(e.width - ax), dy > 0 ? dy : 0},
                                {ax, e.height - ay}};
    return n;
}

/* The cache's other image's last copy out or blit (an earlier frame's) -> this frame's copy or
 * blit into it (`stage`); its old contents discarded. */
static void other_written(const GpuContext *ctx, VkCommandBuffer cmd, const GpuStillCache *c,
                          VkPipelineStageFlags2 stage)
{
    gpu_image_barrier(ctx, cmd,
                      &(GpuImageBarrier){
                          .image = c->other.image,
                          .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                          .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                          .new_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          .src_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                          .dst_stage = stage,
                          .dst_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      });
}

/* What a move or a scale of the cache left uncovered in its other image (drawn by the caller's
 * copy or blit, then made ready for drawing): the parts cleared to the backdrop and the still
 * pages' rounds drawn only within them; then left for copying out. Returns the pixels shaded. */
static uint64_t draw_uncovered(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *r,
                               const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                               uint32_t slot, const VkRect2D *part, uint32_t parts, GpuBound *bound)
{
    GpuStillCache *c = &r->still;
    begin(ctx, cmd, r, target, c->other.view, true, (VkOffset2D){0, 0});
    VkClearAttachment clear = {VK_IMAGE_ASPECT_COLOR_BIT, 0, {.color = background_of(target)}};
    VkClearRect rects[4];
    uint64_t shaded = 0;
    for (uint32_t k = 0; k < parts; k++) {
        rects[k] = (VkClearRect){part[k], 0, 1};
        shaded += (uint64_t)part[k].extent.width * part[k].extent.height;
    }
    ctx->vk.vkCmdClearAttachments(cmd, 1, &clear, parts, rects);
    for (uint32_t k = 0; k < parts; k++)
        record_rounds(ctx, cmd, r, STILL_ROUNDS, sizeof STILL_ROUNDS / sizeof STILL_ROUNDS[0],
                      draws, count, target->extent, (VkOffset2D){0, 0}, slot, &part[k], bound);
    ctx->vk.vkCmdEndRendering(cmd);
    /* copied out, this frame and the next ones */
    gpu_image_barrier_drawn_to_copy(ctx, cmd, c->other.image);
    return shaded;
}

/* The cache moved by (dx, dy) into its other image, the strips the move uncovers cleared to the
 * backdrop and the still pages drawn within them as into the cache; then the two swapped, the
 * new cache left for copying out as a redrawn one. */
static void shift_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *r,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                         int32_t dx, int32_t dy, uint32_t slot, GpuBound *bound)
{
    GpuStillCache *c = &r->still;
    VkExtent2D e = target->extent;
    gpu_label_begin(ctx, cmd, "still pages moved");
    other_written(ctx, cmd, c, VK_PIPELINE_STAGE_2_COPY_BIT); /* the copy and strips cover it */
    VkImageCopy region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffset = {dx < 0 ? -dx : 0, dy < 0 ? -dy : 0, 0},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffset = {dx > 0 ? dx : 0, dy > 0 ? dy : 0, 0},
        .extent = {e.width - (uint32_t)abs(dx), e.height - (uint32_t)abs(dy), 1},
    };
    ctx->vk.vkCmdCopyImage(cmd, c->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           c->other.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    /* the copy -> the strips drawn beside it, with the depth cleared for them */
    GpuImageBarrier drawn[] = {copied_to_drawn(c->other.image), depth_barrier(target)};
    gpu_barriers(ctx, cmd, NULL, drawn, 2);
    VkRect2D strip[2];
    uint32_t strips = shift_strips(e, dx, dy, strip);
    c->shifted_shaded +=
        draw_uncovered(ctx, cmd, r, target, draws, count, slot, strip, strips, bound);
    GpuImage was = c->color;
    c->color = c->other, c->other = was;
    c->shifts++;
    c->shifted_pixels += (uint64_t)e.width * e.height;
    c->moved = true;
    gpu_label_end(ctx, cmd);
}

/* The parts of the target outside `cover`: the rows above and below it across the whole width,
 * the columns beside it between them. Returns how many (0 to 4). */
static uint32_t outside(VkExtent2D e, VkRect2D cover, VkRect2D part[4])
{
    uint32_t n = 0;
    int32_t x0 = cover.offset.x, y0 = cover.offset.y;
    int32_t x1 = x0 + (int32_t)cover.extent.width, y1 = y0 + (int32_t)cover.extent.height;
    if (y0 > 0)
        part[n++] = (VkRect2D){{0, 0}, {e.width, (uint32_t)y0}};
    if ((uint32_t)y1 < e.height)
        part[n++] = (VkRect2D){{0, y1}, {e.width, e.height - (uint32_t)y1}};
    if (x0 > 0)
        part[n++] = (VkRect2D){{0, y0}, {(uint32_t)x0, cover.extent.height}};
    if ((uint32_t)x1 < e.width)
        part[n++] = (VkRect2D){{x1, y0}, {e.width - (uint32_t)x1, cover.extent.height}};
    return n;
}

#define SCALE_CORNER_TRIES 16

/* A zoom's moving frame: the cache (a frame drawn) scaled into its other image by a linear blit,
 * whose corners are whole pixels of both images (the cache's pixels that land inside the frame,
 * at their places rounded: GPU_STILL_SCALE_MISPLACED), and what it leaves uncovered (a zoom out's
 * border, a zoom in's last pixel or two) cleared to the backdrop and drawn as into the cache;
 * left for copying in. The cache itself stays as it is. */
static void scale_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *r,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                         uint32_t slot, GpuBound *bound)
{
    GpuStillCache *c = &r->still;
    VkExtent2D e = target->extent;
    double s = c->scale, side[2] = {(double)e.width, (double)e.height};
    int32_t src[2][2], dst[2][2];
    bool covers = true;
    for (int k = 0; k < 2; k++) {
        double lo = fmax(0.0, ceil(-c->at[k] / s - 1e-6));
        double hi = fmin(side[k], floor((side[k] - c->at[k]) / s + 1e-6));
        /* each corner the cache's pixel, of the SCALE_CORNER_TRIES nearest the frame's edge,
         * that lands nearest a whole pixel of the frame: the blit stretches the cache between
         * them, so the picture is as far from its place as they are (at most half a pixel, most
         * frames far less); what the blit leaves at the edges is drawn */
        double best[2] = {2.0, 2.0}, pick[2] = {lo, hi};
        for (int t = 0; t < SCALE_CORNER_TRIES && lo + t < hi - t; t++) {
            for (int end = 0; end < 2; end++) {
                double at = end ? hi - t : lo + t, land = s * at + c->at[k];
                double off = fabs(land - round(land));
                if (off < best[end] - 1e-9)
                    best[end] = off, pick[end] = at;
            }
        }
        lo = pick[0], hi = pick[1];
        src[0][k] = (int32_t)lo, src[1][k] = (int32_t)hi;
        dst[0][k] = (int32_t)fmax(0.0, fmin(side[k], round(s * lo + c->at[k])));
        dst[1][k] = (int32_t)fmax(0.0, fmin(side[k], round(s * hi + c->at[k])));
        covers = covers && src[1][k] > src[0][k] && dst[1][k] > dst[0][k];
    }
    gpu_label_begin(ctx, cmd, "still pages scaled");
    other_written(ctx, cmd, c, VK_PIPELINE_STAGE_2_BLIT_BIT); /* the blit and the border cover it */
    VkRect2D cover = {{0, 0}, {0, 0}};
    if (covers) {
        VkImageBlit region = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .srcOffsets = {{src[0][0], src[0][1], 0}, {src[1][0], src[1][1], 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .dstOffsets = {{dst[0][0], dst[0][1], 0}, {dst[1][0], dst[1][1], 1}},
        };
        ctx->vk.vkCmdBlitImage(cmd, c->color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                               c->other.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region,
                               VK_FILTER_LINEAR);
        cover = (VkRect2D){{dst[0][0], dst[0][1]},
                           {(uint32_t)(dst[1][0] - dst[0][0]), (uint32_t)(dst[1][1] - dst[0][1])}};
    }
    VkRect2D part[4];
    uint32_t parts = outside(e, cover, part);
    if (parts) {
        /* the blit -> the parts drawn beside it, with the depth cleared for them */
        GpuImageBarrier drawn[] = {{
                                       .image = c->other.image,
                                       .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                       .old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                       .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       .src_stage = VK_PIPELINE_STAGE_2_BLIT_BIT,
                                       .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                       .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                   },
                                   depth_barrier(target)};
        gpu_barriers(ctx, cmd, NULL, drawn, 2);
        c->scaled_shaded +=
            draw_uncovered(ctx, cmd, r, target, draws, count, slot, part, parts, bound);
    } else {
        gpu_image_barrier(ctx, cmd,
                          &(GpuImageBarrier){
                              .image = c->other.image,
                              .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                              .old_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                              .new_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              .src_stage = VK_PIPELINE_STAGE_2_BLIT_BIT,
                              .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                              .dst_access = VK_ACCESS_2_TRANSFER_READ_BIT,
                          });
    }
    c->scales++;
    gpu_label_end(ctx, cmd);
}

/* Draws the still pages into their cache when `use` says so, and copies them into the target's
 * colour image (made ready for the copy by the caller), left for drawing over with the depth
 * ready. */
static void still_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *r,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                         StillUse use, uint32_t slot, GpuBound *bound)
{
    GpuStillCache *c = &r->still;
    c->overs++;
    if (use == STILL_REDRAW) {
        gpu_label_begin(ctx, cmd, "still pages");
        /* Last frame's copy (or a zoom's blit) read the cache -> this redraw; its old contents are
         * discarded. */
        GpuImageBarrier redraw[] = {
            {
                .image = c->color.image,
                .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                .old_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                .src_stage = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                .dst_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            },
            depth_barrier(target),
        };
        gpu_barriers(ctx, cmd, NULL, redraw, 2);
        begin(ctx, cmd, r, target, c->color.view, false, (VkOffset2D){0, 0});
        record_rounds(ctx, cmd, r, STILL_ROUNDS, sizeof STILL_ROUNDS / sizeof STILL_ROUNDS[0],
                      draws, count, target->extent, (VkOffset2D){0, 0}, slot, NULL, bound);
        ctx->vk.vkCmdEndRendering(cmd);
        /* copied out, this frame and the next ones */
        gpu_image_barrier_drawn_to_copy(ctx, cmd, c->color.image);
        c->valid = true;
        c->moved = false;
        c->redraws++;
        gpu_label_end(ctx, cmd);
    }
    VkImageCopy region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffset = {target->offset.x, target->offset.y, 0},
        .extent = {target->extent.width, target->extent.height, 1},
    };
    /* a zoom's moving frame is the cache scaled into the other image (scale_record) */
    VkImage from = use == STILL_SCALE ? c->other.image : c->color.image;
    ctx->vk.vkCmdCopyImage(cmd, from, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target->color,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    /* The copy -> the leaf drawn over it, and the depth cleared for it. */
    GpuImageBarrier over[] = {copied_to_drawn(target->color), depth_barrier(target)};
    gpu_barriers(ctx, cmd, NULL, over, 2);
}

bool gpu_renderer_recipe(const GpuRenderer *r, const GpuRenderTarget *target, const GpuDraw *draws,
                         uint32_t count, uint32_t slot, GpuRenderRecipe *out)
{
    memset(out, 0, sizeof *out);
    /* a software rasteriser's low tier cuts its draws to the frame's pixels (GpuRenderer.software)
     */
    if (((gpu_renderer_tier_bits(r) & PC_TIER_EDGE_AA) && r->software) ||
        r->ink.slots[slot].copy_count || count > PC_MAX_DRAWS)
        return false;
    out->epoch = r->epoch, out->inked = r->ink.inked;
    out->target.color = target->color, out->target.depth = target->depth;
    out->target.color_view = target->color_view, out->target.depth_view = target->depth_view;
    out->target.msaa = target->msaa, out->target.msaa_view = target->msaa_view;
    out->target.extent = target->extent;
    out->target.color_src_stage = target->color_src_stage;
    out->target.color_src_access = target->color_src_access;
    out->target.copy_in = target->copy_in;
    out->target.offset = target->offset, out->target.color_layout = target->color_layout;
    out->target.keep = target->keep;
    out->target.background_set = target->background_set;
    out->target.background = target->background;
    out->target.in_pass = target->in_pass;
    out->count = count, out->slot = slot;
    for (uint32_t i = 0; i < count; i++) {
        const GpuDraw *d = &draws[i];
        out->draws[i].vertices = d->vertices, out->draws[i].indices = d->indices;
        out->draws[i].first_index = d->first_index, out->draws[i].index_count = d->index_count;
        out->draws[i].shadow_first_index = d->shadow_first_index;
        out->draws[i].shadow_index_count = d->shadow_index_count;
        out->draws[i].flags = (uint32_t)d->push.frame.v[3] % PC_FRAME_HEIGHT;
        out->draws[i].layer = (uint32_t)d->push.page.v[2];
        out->draws[i].kind = (uint32_t)d->push.page.v[3];
        out->draws[i].detail = d->push.frame.v[0] != 0.0f; /* round_pipeline's detail variant */
        out->draws[i].alpha = d->faded ? d->alpha : 0.0f;
        out->draws[i].casts_shadow = d->casts_shadow, out->draws[i].edge = d->edge;
        out->draws[i].faded = d->faded;
        if (d->bounded) /* the shadow's pieces of the target follow the leaf */
            return false;
    }
    return true;
}

void gpu_renderer_write_draws(const GpuRenderer *renderer, uint32_t slot, const GpuDraw *draws,
                              uint32_t count, VkExtent2D extent)
{
    PcDrawTable *table = (PcDrawTable *)renderer->draw_tables.mapped + slot;
    for (uint32_t i = 0; i < count; i++)
        table->draw[i] = draw_push(renderer, &draws[i], extent);
}

void gpu_renderer_record(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *renderer,
                         const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                         uint32_t slot, const VkMemoryBarrier2 *before)
{
    if (count > PC_MAX_DRAWS)
        count = PC_MAX_DRAWS; /* never: a spread has at most BOOK_MAX_DRAWS */
    gpu_renderer_write_draws(renderer, slot, draws, count, target->extent);
    int32_t dx = 0, dy = 0;
    StillUse use = still_usable(renderer, target, draws, count)
                       ? still_use(renderer, target, draws, count, &dx, &dy)
                       : STILL_NONE;
    bool still = use != STILL_NONE;
    if (target->in_pass) {
        /* the host's pass comes later: only what must come before it, the host's images left
         * alone */
        GpuImageBarrier first[GPU_SHADOW_BARRIERS_IN];
        uint32_t n = gpu_shadow_barriers_in(&renderer->shadow, first);
        gpu_barriers(ctx, cmd, before, first, n);
        GpuBound bound = {0};
        ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, renderer->layout, 0,
                                        1, &renderer->set, 0, NULL);
        gpu_shadow_record(ctx, cmd, &renderer->shadow, draws, count, slot, &bound);
        return;
    }
    /* Every barrier up to the shadow pass in one call: the caller's, the shadow map's, whatever
     * used the colour image last (present acquire, readback copy) -> the still pages' copy in,
     * or this frame's clear and draw (its old contents discarded), and then the depth and
     * samples. */
    GpuImageBarrier first[GPU_SHADOW_BARRIERS_IN + 3] = {{0}};
    uint32_t n = gpu_shadow_barriers_in(&renderer->shadow, first);
    first[n++] = (GpuImageBarrier){
        .image = target->color,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = target->color_layout,
        .new_layout =
            still ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = target->color_src_stage,
        .src_access = target->color_src_access,
        .dst_stage =
            still ? VK_PIPELINE_STAGE_2_COPY_BIT : VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dst_access = still          ? VK_ACCESS_2_TRANSFER_WRITE_BIT
                      : target->keep ? VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                                           VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT
                                     : VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    };
    if (!still) {
        first[n++] = depth_barrier(target);
        if (target->msaa)
            first[n++] = msaa_barrier(target);
    }
    gpu_barriers(ctx, cmd, before, first, n);
    GpuBound bound = {0};
    /* the set for every pass of the frame: the shadow pipeline's layout is compatible */
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, renderer->layout, 0, 1,
                                    &renderer->set, 0, NULL);
    gpu_shadow_record(ctx, cmd, &renderer->shadow, draws, count, slot, &bound);
    if (use == STILL_SHIFT) /* then copied in as a redrawn cache is, with no leaf over it */
        shift_record(ctx, cmd, renderer, target, draws, count, dx, dy, slot, &bound);
    if (use == STILL_SCALE) /* the other image then copied in, the cache kept */
        scale_record(ctx, cmd, renderer, target, draws, count, slot, &bound);
    if (still)
        still_record(ctx, cmd, renderer, target, draws, count, use, slot, &bound);
    begin(ctx, cmd, renderer, target, target->color_view, still || target->keep, target->offset);
    const Round *rounds = still                                                  ? OVER_STILL_ROUNDS
                          : (gpu_renderer_tier_bits(renderer) & PC_TIER_EDGE_AA) ? EDGE_ROUNDS
                                                                                 : PLAIN_ROUNDS;
    size_t n_rounds = still ? sizeof OVER_STILL_ROUNDS / sizeof(Round)
                      : (gpu_renderer_tier_bits(renderer) & PC_TIER_EDGE_AA)
                          ? sizeof EDGE_ROUNDS / sizeof(Round)
                          : 1;
    record_rounds(ctx, cmd, renderer, rounds, n_rounds, draws, count, target->extent,
                  target->offset, slot, NULL, &bound);
    record_faded(ctx, cmd, renderer, draws, count, target->extent, target->offset, slot, &bound);
    ctx->vk.vkCmdEndRendering(cmd);
}

void gpu_renderer_record_pass(const GpuContext *ctx, VkCommandBuffer cmd, GpuRenderer *renderer,
                              const GpuRenderTarget *target, const GpuDraw *draws, uint32_t count,
                              uint32_t slot)
{
    if (count > PC_MAX_DRAWS)
        count = PC_MAX_DRAWS;
    VkRect2D area = {target->offset, target->extent};
    VkViewport vp = {(float)area.offset.x,
                     (float)area.offset.y,
                     (float)area.extent.width,
                     (float)area.extent.height,
                     0.0f,
                     1.0f};
    ctx->vk.vkCmdSetViewport(cmd, 0, 1, &vp);
    ctx->vk.vkCmdSetScissor(cmd, 0, 1, &area);
    /* the host's depth, within the rectangle alone: the pages' depths are the book's own */
    ctx->vk.vkCmdClearAttachments(
        cmd, 1,
        &(VkClearAttachment){.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT,
                             .clearValue = {.depthStencil = {1.0f, 0}}},
        1, &(VkClearRect){.rect = area, .baseArrayLayer = 0, .layerCount = 1});
    ctx->vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, renderer->pipeline);
    ctx->vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, renderer->layout, 0, 1,
                                    &renderer->set, 0, NULL);
    GpuBound bound = {0};
    bool edges = gpu_renderer_tier_bits(renderer) & PC_TIER_EDGE_AA;
    record_rounds(ctx, cmd, renderer, edges ? EDGE_ROUNDS : PLAIN_ROUNDS,
                  edges ? sizeof EDGE_ROUNDS / sizeof(Round) : 1, draws, count, target->extent,
                  target->offset, slot, NULL, &bound);
    record_faded(ctx, cmd, renderer, draws, count, target->extent, target->offset, slot, &bound);
}
