/* SPDX-License-Identifier: MIT */
/* The camera's framing (book/camera.c through book/book.c's book_camera), with no GPU:
 * - at rest the pages shown are seen face-on and fill the window: for window shapes from 320x200
 *   to 3840x1080 (1280x720, 1280x800, portrait 800x1200 and 1920x1080 among them), the three
 *   layouts, both bindings and the three kinds of still book (open, closed at either end), the
 *   flat pages' corners project to an axis-aligned rectangle within 0.5 px that fills at least
 *   90 % of the window's limiting dimension, inside it (the one-page layout's page on either
 *   side of the spread);
 * - while a leaf turns, every pose of it stays in the window: the leaf's grid over whole turns
 *   (six kinds of turn, five grab heights, paper and hard covers, both layouts and bindings; the
 *   one-page layout's view resting on either side as the leaf lifts, the leaf over the span its
 *   view follows), framed as a posed frame is (the pose's own need) and with the lift the flip
 *   may hold on top;
 *   and drags through the window's input (corner, edge and mid-page grabs pulled every way, the
 *   pointer clamped to the window as a trace is) and their settling, with the grabbed point under
 *   the pointer wherever a pose can put it there;
 * - in time, stepped at 60 Hz: a key turn, a drag let go, and 20 turns thumbed 60 ms apart move
 *   the view by a bounded step a frame, never jump, keep it pulled back between thumbed leaves,
 *   and bring it back eased (its last steps shrink to under half a pixel) to exactly the still
 *   book's view; the ends of a turn equal the still book's; the one-page view follows a reader
 *   (book/reader.h) as the library's does, going with a settling leaf to the page it lands on. */
#include "book/book.h"
#include "book/camera.h"
#include "book/reader.h"
#include "check.h"
#include "mesh/curl.h"
#include "mesh/drag_ray.h"
#include "mesh/flip.h"
#include "mesh/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How far past the viewport's edge (NDC) a vertex may project: rounding only. */
#define EDGE_SLACK 1e-3
/* At rest the pages fill at least this much of the window's limiting dimension... */
#define FILL_MIN 0.90
/* ...and are seen face-on: their corners' pixels line up within this. */
#define FACE_ON_PX 0.5
/* Vertices sampled on the leaf: a grid finer than the camera's own sampling of it. */
#define NX 16
#define NY 22
#define NV ((NX + 1) * (NY + 1))
/* Steps of a turn, and grab heights swept in quarters of the edge: every one, or under the
 * sanitizers (where each pose costs ten times as much and CI's time is bounded) every other. */
#define STEPS 24
#ifdef PAGECURL_SANITIZED
#define GRAB_STEP 2
#else
#define GRAB_STEP 1
#endif
/* Between two frames 1/60 s apart the view follows the leaf: no page corner moves further on
 * screen than LEAF_STEP times the leaf's fastest point (the zoom and a closed book's widening
 * amplify the leaf's motion towards the window's edges), or, the leaf still (the view easing back
 * to rest), than EASE_STEP of the window's limiting dimension. */
#define LEAF_STEP 2.5
#define EASE_STEP 0.04

typedef struct Size {
    uint32_t w, h;
} Size;

static const Size sizes[] = {{1280, 720}, {1280, 800},  {800, 1200}, {1920, 1080}, {640, 480},
                             {320, 200},  {3840, 1080}, {200, 1000}, {2000, 300}};
#define SIZES (sizeof sizes / sizeof sizes[0])

/* The kinds of spread a leaf turns in (left-bound; `BookLayout.rtl` mirrors them). */
static const BookSpread kinds[] = {
    {.right = true, .turning = true},                                 /* opening the book */
    {.right = true, .turning = true, .backward = true},               /* closing it again */
    {.left = true, .right = true, .turning = true},                   /* the middle */
    {.left = true, .right = true, .turning = true, .backward = true}, /* the middle, back */
    {.left = true, .turning = true},                                  /* closing at the end */
    {.left = true, .turning = true, .backward = true},                /* opening at the end */
};
static const char *const kind_names[] = {"open front",  "close front", "middle",
                                         "middle back", "close back",  "open back"};
static const char *const layout_names[] = {"auto", "spread", "single"};

/* NDC (x, y) of world point p; false behind the eye or outside the depth range. */
static bool ndc(const PcDrawPush *push, const double p[3], double out[2])
{
    const float *m = push->view_proj.m;
    double c[4];
    for (int r = 0; r < 4; r++)
        c[r] = m[0 * 4 + r] * p[0] + m[1 * 4 + r] * p[1] + m[2 * 4 + r] * p[2] + m[3 * 4 + r];
    if (!(c[3] > 0.0))
        return false;
    out[0] = c[0] / c[3], out[1] = c[1] / c[3];
    double z = c[2] / c[3];
    return z >= 0.0 && z <= 1.0;
}

/* Pixel of world point p in a vw x vh view (pixel centres at +0.5, as book_camera_ray reads). */
static bool pixel(const PcDrawPush *push, const double p[3], uint32_t vw, uint32_t vh, double *px,
                  double *py)
{
    double q[2];
    if (!ndc(push, p, q))
        return false;
    *px = (q[0] + 1.0) * 0.5 * vw - 0.5, *py = (q[1] + 1.0) * 0.5 * vh - 0.5;
    return true;
}

static PcDrawPush push_of(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                          const BookLayout *layout, uint32_t vw, uint32_t vh,
                          BookCameraBook *camera)
{
    BookCameraBook c = book_camera(spread, pose, leaf, layout, vw, vh);
    if (camera)
        *camera = c;
    return book_camera_draw_push(vw, vh, &c);
}

typedef struct Tally {
    long vertices, outside;
    double worst; /* largest |NDC| */
    char where[200];
} Tally;

/* The leaf in `pose` (leaf frame) in the view: every sampled vertex (the board's two faces for a
 * hard cover, `board` thick), mirrored by m into the view's frame, that lies over lo <= x <= hi
 * (the one-page layout's span at its progress, view_span: what lies past it lifts off beyond the
 * window; the spread's: all). */
typedef struct LeafPoints {
    double pos[3 * NV], n[3 * NV];
} LeafPoints;

static void points_of(const CurlParams *pose, const BookLeaf *leaf, LeafPoints *out)
{
    double w = leaf->grid.width, h = leaf->grid.height, xy[2 * NV];
    for (int j = 0, k = 0; j <= NY; j++)
        for (int i = 0; i <= NX; i++, k++)
            xy[2 * k] = w * i / NX, xy[2 * k + 1] = h * j / NY;
    mesh_curl_points(pose, NV, xy, out->pos, out->n);
}

static void points_in_view(const PcDrawPush *push, const LeafPoints *points, double m, double lo,
                           double hi, double board, Tally *t, const char *what)
{
    const double *pos = points->pos, *n = points->n;
    for (int k = 0; k < NV; k++)
        for (int side = -1; side <= 1; side += 2) {
            const double *a = &pos[3 * k], *b = &n[3 * k];
            double o = 0.5 * side * board;
            double p[3] = {m * (a[0] + o * b[0]), a[1] + o * b[1], a[2] + o * b[2]};
            if (p[0] < lo || p[0] > hi)
                continue;      /* past the one-page view's span: let go */
            double q[2] = {0}; /* ndc() leaves a point behind the eye unset */
            bool seen = ndc(push, p, q);
            double far = fmax(fabs(q[0]), fabs(q[1]));
            t->vertices++;
            if (!seen || far > 1.0 + EDGE_SLACK) {
                if (!t->outside++)
                    snprintf(t->where, sizeof t->where,
                             "%s: vertex (%.2f, %.2f, %.2f) at NDC (%.3f, %.3f)%s", what, p[0],
                             p[1], p[2], q[0], q[1], seen ? "" : " behind/clipped");
            }
            if (seen)
                t->worst = fmax(t->worst, far);
            if (!(board > 0.0))
                break; /* paper: one face */
        }
}

static void leaf_in_view(const PcDrawPush *push, const CurlParams *pose, const BookLeaf *leaf,
                         double m, double lo, double hi, double board, Tally *t, const char *what)
{
    LeafPoints points;
    points_of(pose, leaf, &points);
    points_in_view(push, &points, m, lo, hi, board, t, what);
}

/* Largest difference between two matrices' entries. */
static double matrix_gap(const PcDrawPush *a, const PcDrawPush *b)
{
    double gap = 0.0;
    for (int i = 0; i < 16; i++)
        gap = fmax(gap, fabs((double)a->view_proj.m[i] - (double)b->view_proj.m[i]));
    return gap;
}

/* The farthest a page corner (of either page) moves in pixels between the two views. */
static double corner_step(const PcDrawPush *a, const PcDrawPush *b, double w, double h, uint32_t vw,
                          uint32_t vh)
{
    double step = 0.0;
    for (int c = 0; c < 6; c++) {
        double p[3] = {w * (c % 3 - 1), c / 3 ? h : 0.0, 0.0}, ax, ay, bx, by;
        if (pixel(a, p, vw, vh, &ax, &ay) && pixel(b, p, vw, vh, &bx, &by))
            step = fmax(step, hypot(ax - bx, ay - by));
    }
    return step;
}

/* The span of x (in the view's frame) the leaf must stay in view over while `spread` turns: the
 * one-page layout's at its progress (its pages at lift 0), else everything. */
static void view_span(const BookSpread *spread, const BookLeaf *leaf, const BookLayout *layout,
                      uint32_t vw, uint32_t vh, double *lo, double *hi)
{
    *lo = -INFINITY, *hi = INFINITY;
    if (!book_one_page(layout, vw, vh))
        return;
    BookSpread bare = *spread;
    bare.lift = 0.0f;
    BookCameraBook c = book_camera(&bare, NULL, leaf, layout, vw, vh);
    *lo = (double)c.lo * c.width, *hi = (double)c.hi * c.width;
}

/* The leaf every check turns: only its grid's size matters to the camera. */
static const BookLeaf LEAF = {.grid = {.width = MESH_PAGE_WIDTH, .height = MESH_PAGE_HEIGHT}};

static BookLayout layout_of(int layout, bool rtl, bool hard)
{
    return (BookLayout){.layout = layout, .rtl = rtl, .hard_cover = hard};
}

/* The one-page layout's view as a reader's at `time` (book/reader.h), the reader following the
 * flip's `view`, as book/open_book.c keeps it. */
static void read_at(BookReader *reader, BookLayout *layout, const MeshFlipView *view, double time)
{
    book_reader_follow(reader, view, time);
    layout->left_page = book_reader_left_page(reader, view, time);
}

/* At rest: the flat pages drawn, seen face-on, filling the window. */
static void at_rest(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    const BookSpread stills[] = {{.left = true, .right = true}, {.right = true}, {.left = true}};
    const char *const still_names[] = {"open", "closed front", "closed back"};
    double least = INFINITY, skew = 0.0;
    int checked = 0;
    for (size_t z = 0; z < SIZES; z++)
        for (int mode = 0; mode < 3; mode++)
            for (int rtl = 0; rtl < 2; rtl++)
                for (int k = 0; k < 3 * 2; k++) {
                    uint32_t vw = sizes[z].w, vh = sizes[z].h;
                    const BookLeaf *leaf = &LEAF;
                    BookLayout layout = layout_of(mode, rtl, false);
                    /* the one-page layout resting on the right-hand page, then the left */
                    bool one = book_one_page(&layout, vw, vh), on_left = k >= 3;
                    if (on_left && !one)
                        break;
                    layout.left_page = on_left ? 1.0f : 0.0f;
                    const BookSpread *still = &stills[k % 3];
                    PcDrawPush push = push_of(still, NULL, leaf, &layout, vw, vh, NULL);
                    /* the pages drawn: those there, in the one-page layout the side it shows */
                    double m = rtl ? -1.0 : 1.0, lo = INFINITY, hi = -INFINITY;
                    if (still->left && (!one || on_left))
                        lo = fmin(lo, -m * W), hi = fmax(hi, -m * W);
                    if (still->right && (!one || !on_left))
                        lo = fmin(lo, m * W), hi = fmax(hi, m * W);
                    if (!(lo <= hi))
                        continue; /* the one-page layout's side is empty at the book's end */
                    lo = fmin(lo, 0.0), hi = fmax(hi, 0.0);
                    /* pixel() leaves a corner behind the eye unset, and after one the loop
                     * asks for no more: the corners are checked only when all were seen */
                    double px[4] = {0}, py[4] = {0};
                    bool seen = true;
                    for (int c = 0; c < 4; c++) {
                        double p[3] = {c & 1 ? hi : lo, c & 2 ? H : 0.0, -BOOK_STACK_STEP * W};
                        seen = seen && pixel(&push, p, vw, vh, &px[c], &py[c]);
                    }
                    /* corners 0 (lo, foot), 1 (hi, foot), 2 (lo, head), 3 (hi, head) */
                    double off = fmax(fmax(fabs(px[0] - px[2]), fabs(px[1] - px[3])),
                                      fmax(fabs(py[0] - py[1]), fabs(py[2] - py[3])));
                    double x0 = fmin(px[0], px[1]), x1 = fmax(px[0], px[1]);
                    double y0 = fmin(py[0], py[2]), y1 = fmax(py[0], py[2]);
                    /* pixel centres: the rectangle's edges lie half a pixel further out */
                    double fill = fmax((x1 - x0) / vw, (y1 - y0) / vh);
                    bool inside = x0 >= -0.5 && x1 <= vw - 0.5 && y0 >= -0.5 && y1 <= vh - 0.5;
                    if (getenv("CAMERA_FILL"))
                        printf("%ux%u %s%s %s%s: fill %.1f %%, corners off by %.3g px\n", vw, vh,
                               layout_names[mode], rtl ? " rtl" : "", still_names[k % 3],
                               on_left ? " (left page)" : "", 100.0 * fill, off);
                    CHECK(s, seen && off <= FACE_ON_PX,
                          "%ux%u %s%s %s%s: not face-on, the corners %.2f px off a rectangle", vw,
                          vh, layout_names[mode], rtl ? " rtl" : "", still_names[k % 3],
                          on_left ? " (left page)" : "", off);
                    CHECK(s, fill >= FILL_MIN && inside,
                          "%ux%u %s%s %s%s: the still pages fill %.1f %% (%s the window)", vw, vh,
                          layout_names[mode], rtl ? " rtl" : "", still_names[k % 3],
                          on_left ? " (left page)" : "", 100.0 * fill,
                          inside ? "inside" : "not inside");
                    least = fmin(least, fill), skew = fmax(skew, off);
                    checked++;
                }
    CHECK(s, checked >= 100, "vacuous: %d still views", checked);
    printf(
        "camera: at rest (%d views) the pages fill >= %.1f %% of the limiting dimension, face-on "
        "within %.2g px\n",
        checked, 100.0 * least, skew);
}

/* Whole turns: every pose inside the view, with the pose's own framing and with the lift the flip
 * may hold; the view at either end of a turn is the still book's. The one-page layout's view
 * rests on the page the leaf lifts off (a posed turn), or on the spread's other page (a pose
 * held from there, thumbing through): the leaf over that page in view either way. */
static void turns(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH;
    const float lifts[] = {0.0f, 0.5f, 1.0f};
    long vertices = 0;
    double worst = 0.0;
    for (size_t z = 0; z < SIZES; z++)
        for (int variant = 0; variant < 8; variant++) {
            const BookLeaf *leaf = &LEAF;
            BookLayout layout = layout_of(variant & 1 ? 2 : 1, variant & 2, variant & 4);
            uint32_t vw = sizes[z].w, vh = sizes[z].h;
            bool one = book_one_page(&layout, vw, vh);
            char what[160];
            for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
                BookSpread spread = kinds[k];
                Tally t = {0};
                bool board = layout.hard_cover && (!spread.left || !spread.right);
                if (layout.hard_cover && !board)
                    continue; /* a middle leaf is paper: as the variant without the cover */
                double m = (spread.backward ? -1.0 : 1.0) * (layout.rtl ? -1.0 : 1.0);
                float from = spread.backward ? 1.0f : 0.0f; /* the reader's page: the leaf's */
                for (int other = 0; other < (one ? 2 : 1); other++) {
                    layout.left_page = other ? 1.0f - from : from;
                    for (int step = 0; step <= STEPS; step++) {
                        spread.progress = (float)step / STEPS;
                        for (int g = 0; g <= 4; g += board || other ? 4 : GRAB_STEP) {
                            CurlParams pose =
                                book_turn_pose(&spread, spread.progress, 0.25f * g, leaf, &layout);
                            /* the pose's own need, and its points */
                            BookCameraBook own = book_camera(&spread, &pose, leaf, &layout, vw, vh);
                            double lo, hi;
                            view_span(&spread, leaf, &layout, vw, vh, &lo, &hi);
                            LeafPoints points;
                            points_of(&pose, leaf, &points);
                            for (size_t l = 0; l < 3; l++) {
                                if (l && g % 2)
                                    continue; /* the lifts held on top: every other grab */
                                BookCameraBook camera = own;
                                camera.lift = fmaxf(own.lift, lifts[l]); /* as book_camera */
                                PcDrawPush push = book_camera_draw_push(vw, vh, &camera);
                                snprintf(what, sizeof what,
                                         "%ux%u %s%s%s %s%s, t %.3f g %.2f lift %.1f", vw, vh,
                                         one ? "single" : "spread", layout.rtl ? " rtl" : "",
                                         board ? " hard" : "", kind_names[k],
                                         other ? " from the other page" : "",
                                         (double)spread.progress, 0.25 * g, (double)lifts[l]);
                                points_in_view(&push, &points, m, lo, hi,
                                               board ? BOOK_BOARD * W : 0.0, &t, what);
                            }
                        }
                    }
                }
                layout.left_page = from;
                spread.lift = 0.0f;
                CHECK(s, t.outside == 0, "%ld of %ld leaf vertices outside the view; first: %s",
                      t.outside, t.vertices, t.where);
                vertices += t.vertices;
                worst = fmax(worst, t.worst);
                /* the still book before and after the turn: the same view as its ends (one
                 * page: the page in view, which only the reader's slide moves) */
                BookSpread before = kinds[k], after = kinds[k];
                before.turning = after.turning = false;
                if (kinds[k].backward) /* the leaf lies on the right before a forward turn */
                    before.left = after.right = true;
                else
                    before.right = after.left = true;
                spread.progress = 0.0f;
                CurlParams p0 = book_turn_pose(&spread, 0.0f, 0.25f, leaf, &layout);
                PcDrawPush s0 = push_of(&spread, &p0, leaf, &layout, vw, vh, NULL),
                           r0 = push_of(&before, NULL, leaf, &layout, vw, vh, NULL);
                spread.progress = 1.0f;
                CurlParams p1 = book_turn_pose(&spread, 1.0f, 0.25f, leaf, &layout);
                PcDrawPush s1 = push_of(&spread, &p1, leaf, &layout, vw, vh, NULL),
                           r1 = push_of(&after, NULL, leaf, &layout, vw, vh, NULL);
                double j0 = corner_step(&s0, &r0, W, MESH_PAGE_HEIGHT, vw, vh),
                       j1 = corner_step(&s1, &r1, W, MESH_PAGE_HEIGHT, vw, vh);
                CHECK(s, j0 < 0.01 && j1 < 0.01,
                      "%ux%u variant %d %s: the view jumps as the turn starts (%g px) or ends (%g "
                      "px)",
                      vw, vh, variant, kind_names[k], j0, j1);
            }
        }
    CHECK(s, vertices > 1000000, "vacuous: %ld vertices", vertices);
    printf("camera: whole turns: %ld leaf vertices, farthest at |NDC| %.4f\n", vertices, worst);
}

/* A frame of the flip: its view's camera, and the leaf in it. */
static PcDrawPush frame_of(const MeshFlipView *view, const BookLeaf *leaf, const BookLayout *layout,
                           uint32_t vw, uint32_t vh, BookCameraBook *camera, Tally *t,
                           const char *what)
{
    BookSpread spread = book_spread(view);
    CurlParams pose = book_pose(view, leaf, layout);
    PcDrawPush push = push_of(&spread, &pose, leaf, layout, vw, vh, camera);
    if (view->turning && t) {
        double m = (spread.backward ? -1.0 : 1.0) * (layout->rtl ? -1.0 : 1.0);
        double lo, hi;
        view_span(&spread, leaf, layout, vw, vh, &lo, &hi);
        leaf_in_view(&push, &pose, leaf, m, lo, hi, 0.0, t, what);
    }
    return push;
}

typedef struct Motion {
    double step;  /* largest corner step between frames, as a share of the limiting side */
    double ahead; /* the most a corner's step exceeded what the leaf allows, pixels */
    char where[160];
    double landing; /* the last step before the view came to rest, past what the leaf's allows */
    double gap;     /* the rest view against the still book's */
    bool rested;
    /* the frame before */
    PcDrawPush prev;
    bool had_leaf;
    int leaf;
    MeshFlipView was; /* its view */
    char landed[160];
    double pts[117][3];
} Motion;

/* The turning leaf's points in the view's frame (a 9 x 13 grid). */
static void leaf_points(const MeshFlipView *view, const BookLeaf *leaf, const BookLayout *layout,
                        double out[117][3])
{
    CurlParams pose = book_pose(view, leaf, layout);
    double m = (view->direction == MESH_FLIP_BACKWARD ? -1.0 : 1.0) * (layout->rtl ? -1.0 : 1.0);
    for (int j = 0, k = 0; j < 13; j++)
        for (int i = 0; i < 9; i++, k++) {
            double n[3];
            mesh_curl_point(&pose, leaf->grid.width * i / 8.0, leaf->grid.height * j / 12.0, out[k],
                            n);
            out[k][0] *= m;
        }
}

/* One frame's step: how far the page corners moved against how far the leaf did (both seen
 * through this frame's camera). */
static void follow(Motion *mo, const MeshFlipView *view, const BookLeaf *leaf,
                   const BookLayout *layout, uint32_t vw, uint32_t vh, const PcDrawPush *push,
                   const char *what)
{
    double lim = fmin((double)vw, (double)vh);
    double step = corner_step(&mo->prev, push, leaf->grid.width, leaf->grid.height, vw, vh);
    double pts[117][3], leaf_step = 0.0;
    bool has = view->turning;
    if (has)
        leaf_points(view, leaf, layout, pts);
    if (!has && mo->had_leaf) {
        /* a leaf lands: to lying flat where it lands (a pose that jumps there shows) */
        MeshFlipView flat = mo->was;
        bool over = view->spread != mo->was.spread;
        flat.pointer[0] = over ? -flat.grab[0] : flat.grab[0], flat.pointer[1] = flat.grab[1];
        leaf_points(&flat, leaf, layout, pts);
        for (int k = 0; k < 117; k++) {
            double ax, ay, bx, by;
            if (pixel(push, pts[k], vw, vh, &ax, &ay) && pixel(push, mo->pts[k], vw, vh, &bx, &by))
                leaf_step = fmax(leaf_step, hypot(ax - bx, ay - by));
        }
    }
    if (has && (!mo->had_leaf || view->turning_leaf != mo->leaf)) {
        /* a leaf lifts: from lying flat, on the side it leaves */
        MeshFlipView flat = *view;
        flat.pointer[0] = flat.grab[0], flat.pointer[1] = flat.grab[1];
        leaf_points(&flat, leaf, layout, mo->pts);
        mo->had_leaf = true, mo->leaf = view->turning_leaf;
    }
    if (has)
        for (int k = 0; k < 117; k++) {
            double ax, ay, bx, by;
            if (pixel(push, pts[k], vw, vh, &ax, &ay) && pixel(push, mo->pts[k], vw, vh, &bx, &by))
                leaf_step = fmax(leaf_step, hypot(ax - bx, ay - by));
        }
    double ahead = step - fmax(LEAF_STEP * leaf_step, EASE_STEP * lim);
    if (ahead > mo->ahead) {
        mo->ahead = ahead;
        snprintf(mo->where, sizeof mo->where, "%s, %ux%u: a %.1f px step, the leaf's %.1f px", what,
                 vw, vh, step, leaf_step);
    }
    mo->step = fmax(mo->step, step / lim);
    if (step > 0.0) {
        mo->landing = step - LEAF_STEP * leaf_step; /* a leaf's landing snaps it the last 0.001 W */
        snprintf(mo->landed, sizeof mo->landed, "%s, %ux%u", what, vw, vh);
    }
    mo->prev = *push;
    mo->had_leaf = has, mo->leaf = view->turning_leaf, mo->was = *view;
    if (has)
        memcpy(mo->pts, pts, sizeof pts);
}

/* Steps the flip at 60 Hz from `t` for `seconds`, checking each frame's leaf in view and how far
 * the view moves (mo->prev: the frame before); the view must come to rest, equal to the still
 * book's. The one-page view follows `reader`. */
static void run_frames(MeshFlip *flip, const BookLeaf *leaf, BookLayout *layout, BookReader *reader,
                       uint32_t vw, uint32_t vh, double t, double seconds, Tally *tally, Motion *mo,
                       const char *what)
{
    mo->rested = false;
    for (int f = 1; f <= (int)(seconds * 60.0); f++) {
        double now = t + f / 60.0;
        mesh_flip_step(flip, now);
        MeshFlipView view = mesh_flip_view_at(flip, now);
        read_at(reader, layout, &view, now);
        PcDrawPush push = frame_of(&view, leaf, layout, vw, vh, NULL, tally, what);
        follow(mo, &view, leaf, layout, vw, vh, &push, what);
        if (!view.turning && !(view.lift > 0.0f) && !book_reader_sliding(reader, &view, now)) {
            /* at rest: it stays */
            BookSpread still = book_spread(&view);
            PcDrawPush rest = push_of(&still, NULL, leaf, layout, vw, vh, NULL);
            mo->gap = fmax(mo->gap, matrix_gap(&push, &rest));
            mo->rested = true;
            return;
        }
    }
}

/* Drags through the window's input: pressed where the still book shows a point of the page,
 * pulled along a line (the pointer clamped to the window, as the window's trace is), let go,
 * settled. Every pose in view, the grabbed point under the pointer wherever a pose reaches it. */
static void drags(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    const Size at[] = {{1280, 800}, {800, 1200}};
    /* grabs on the right page (fractions of it) and where they are pulled (directions on screen,
     * y down): towards the spine, in and up or down as a hand turns a page, and out of reach; a
     * grab in the middle of the page only on an open book (on a closed one the curl folds it
     * over past the spine for the least move: docs/rendering.md, Framing) */
    const struct {
        double grab[2], pull[2];
        bool open_only;
    } drags_made[] = {
        {{0.98, 0.02}, {-1.0, 0.0}, false}, {{0.98, 0.02}, {-1.0, -0.5}, false},
        {{0.98, 0.02}, {0.0, 1.0}, false},  {{0.98, 0.98}, {-1.0, 0.0}, false},
        {{0.98, 0.98}, {-1.0, 0.5}, false}, {{0.97, 0.5}, {-1.0, 0.0}, false},
        {{0.97, 0.5}, {-1.0, 0.6}, false},  {{0.3, 0.15}, {-1.0, -0.3}, false},
        {{0.5, 0.5}, {-1.0, 0.0}, true},    {{0.5, 0.5}, {-1.0, -0.4}, true},
    };
    Tally t = {0};
    Motion mo = {0};
    double miss = 0.0;
    long held = 0, out_of_reach = 0, unsettled = 0, moves = 0;
    for (size_t z = 0; z < sizeof at / sizeof at[0]; z++)
        for (int variant = 0; variant < 3; variant++) {
            const BookLeaf *leaf = &LEAF;
            BookLayout layout = layout_of(variant & 1 ? 2 : 1, variant & 2, false);
            uint32_t vw = at[z].w, vh = at[z].h;
            double reach_px = 0.4 * fmin(vw, vh);
            for (int open = 0; open < 2; open++)
                for (size_t g = 0; g < sizeof drags_made / sizeof drags_made[0]; g++) {
                    const double *held_at = drags_made[g].grab, *pull = drags_made[g].pull;
                    if (drags_made[g].open_only && !open)
                        continue;
                    MeshFlip flip;
                    book_init_flip(&flip, leaf, BOOK_PAGES, open ? 1 : 0, false);
                    MeshFlipView view = mesh_flip_view(&flip);
                    BookReader reader; /* on the right-hand page, the one grabbed */
                    book_reader_init(&reader, BOOK_PAGES, open ? 3 : 1, view.spread);
                    read_at(&reader, &layout, &view, 0.0);
                    PcDrawPush push = frame_of(&view, leaf, &layout, vw, vh, NULL, NULL, NULL);
                    double m = layout.rtl ? -1.0 : 1.0;
                    double p[3] = {m * held_at[0] * W, held_at[1] * H, 0.0}, px, py;
                    if (!pixel(&push, p, vw, vh, &px, &py))
                        continue;
                    char what[160];
                    snprintf(what, sizeof what,
                             "%ux%u %s%s %s, grab (%.2f, %.2f) pulled (%.1f, %.1f)", vw, vh,
                             variant & 1 ? "single" : "spread", layout.rtl ? " rtl" : "",
                             open ? "open" : "closed", held_at[0], held_at[1], pull[0], pull[1]);
                    double time = 0.0;
                    BookInput e = {.time = time,
                                   .device = BOOK_INPUT_MOUSE,
                                   .action = BOOK_INPUT_DOWN,
                                   .x = (float)(px / vw),
                                   .y = (float)(py / vh)};
                    book_apply_input(&flip, NULL, NULL, &e, vw, vh, leaf, &layout);
                    for (int i = 1; i <= 6; i++) {
                        /* small moves first, as a hand starts; as the window's trace holds
                         * the pointer: a fraction of the window, clamped */
                        double f = reach_px * pow(i / 6.0, 1.5);
                        double qx = px + m * pull[0] * f, qy = py + pull[1] * f;
                        e = (BookInput){.time = time += 1.0 / 60.0,
                                        .device = BOOK_INPUT_MOUSE,
                                        .action = BOOK_INPUT_MOVE};
                        e.x = (float)fmin(fmax(qx / vw, 0.0), 1.0);
                        e.y = (float)fmin(fmax(qy / vh, 0.0), 1.0);
                        view = mesh_flip_view_at(&flip, time);
                        read_at(&reader, &layout, &view, time);
                        book_apply_input(&flip, NULL, NULL, &e, vw, vh, leaf, &layout);
                        view = mesh_flip_view_at(&flip, time);
                        read_at(&reader, &layout, &view, time);
                        if (view.phase != MESH_FLIP_DRAGGING)
                            break;
                        moves++;
                        BookCameraBook camera;
                        push = frame_of(&view, leaf, &layout, vw, vh, &camera, &t, what);
                        /* the grabbed point, where the pose puts it, against the pointer */
                        CurlParams pose = book_pose(&view, leaf, &layout);
                        double hp[3], n[3], hx, hy,
                            mm = view.direction == MESH_FLIP_BACKWARD ? -m : m;
                        mesh_curl_point(&pose, view.grab[0], view.grab[1], hp, n);
                        hp[0] *= mm;
                        /* the pointer's pixel as the window's input reads it */
                        double ex = e.x * vw, ey = e.y * vh, o[3], dir[3];
                        if (!pixel(&push, hp, vw, vh, &hx, &hy) ||
                            !book_camera_ray(vw, vh, &camera, (float)ex, (float)ey, o, dir))
                            continue;
                        MeshRay ray = {{mm * o[0], o[1], o[2]}, {mm * dir[0], dir[1], dir[2]}};
                        MeshVec2 grab = {view.grab[0], view.grab[1]};
                        MeshVec2 best = mesh_drag_ray(grab, &ray, W, H);
                        if (mesh_drag_ray_miss(grab, best, &ray, W, H) > 1e-6) {
                            out_of_reach++; /* no pose puts it there: the nearest does */
                            continue;
                        }
                        held++;
                        miss = fmax(miss, hypot(hx - ex, hy - ey));
                    }
                    e = (BookInput){
                        .time = time, .device = BOOK_INPUT_MOUSE, .action = BOOK_INPUT_UP};
                    book_apply_input(&flip, NULL, NULL, &e, vw, vh, leaf, &layout);
                    view = mesh_flip_view_at(&flip, time);
                    read_at(&reader, &layout, &view, time);
                    Motion one = {.prev = frame_of(&view, leaf, &layout, vw, vh, NULL, NULL, NULL)};
                    follow(&one, &view, leaf, &layout, vw, vh, &one.prev, what);
                    run_frames(&flip, leaf, &layout, &reader, vw, vh, time, 3.0, &t, &one, what);
                    unsettled += !one.rested;
                    mo.gap = fmax(mo.gap, one.gap);
                    if (one.landing > mo.landing)
                        mo.landing = one.landing, memcpy(mo.landed, one.landed, sizeof mo.landed);
                    if (one.ahead > mo.ahead)
                        mo.ahead = one.ahead, memcpy(mo.where, one.where, sizeof mo.where);
                }
        }
    printf("camera: %ld drag moves: the grabbed point under the pointer within %.3f px at %ld, "
           "out of any pose's reach at %ld; %ld leaf vertices, dragged and settling, farthest at "
           "|NDC| %.4f; settling, the view at most %.1f px ahead of the leaf; at rest again within "
           "%.2g, the last step %.3f px\n",
           moves, miss, held, out_of_reach, t.vertices, t.worst, fmax(mo.ahead, 0.0), mo.gap,
           mo.landing);
    CHECK(s, mo.ahead <= 0.0, "the view runs ahead of the leaf: %s", mo.where);
    CHECK(s, mo.landing <= 0.5,
          "the view stops abruptly: its last step %.2f px more than the "
          "leaf's (%s)",
          mo.landing, mo.landed);
    CHECK(s, t.outside == 0,
          "%ld of %ld dragged or settling leaf vertices outside the view; first: %s", t.outside,
          t.vertices, t.where);
    CHECK(s, held > out_of_reach && held > 200, "vacuous: %ld held, %ld out of reach", held,
          out_of_reach);
    CHECK(s, miss <= 0.5, "the grabbed point shows %g px from the pointer", miss);
    CHECK(s, unsettled == 0 && mo.gap < 1e-5,
          "%ld drags did not come to rest, or not at the still "
          "view (%g)",
          unsettled, mo.gap);
}

/* Key turns, one and thumbed: the view follows the leaf, stays back between thumbed leaves, and
 * comes back eased to the still book's view. */
static void in_time(CheckState *s)
{
    Tally t = {0};
    Motion one = {0}, thumbed = {0};
    double drop = 0.0; /* the most the lift fell back while turns were queued */
    int unturned = 0;
    for (int variant = 0; variant < 4; variant++) {
        const BookLeaf *leaf = &LEAF;
        BookLayout layout = layout_of(variant & 1 ? 2 : 1, variant & 2, false);
        const uint32_t vw = variant & 1 ? 800 : 1280, vh = variant & 1 ? 1200 : 800;
        /* one key turn */
        MeshFlip flip;
        book_init_reader(&flip, leaf, BOOK_PAGES, 1, false);
        MeshFlipView view = mesh_flip_view(&flip);
        BookReader reader; /* on the right-hand page: the leaf a key turns */
        book_reader_init(&reader, BOOK_PAGES, 3, view.spread);
        read_at(&reader, &layout, &view, 0.0);
        Motion key = {.prev = frame_of(&view, leaf, &layout, vw, vh, NULL, NULL, NULL)};
        BookInput press = {.device = BOOK_INPUT_KEY, .action = BOOK_INPUT_NEXT};
        book_apply_input(&flip, NULL, NULL, &press, vw, vh, leaf, &layout);
        run_frames(&flip, leaf, &layout, &reader, vw, vh, 0.0, 3.0, &t, &key, "a key turn");
        one.step = fmax(one.step, key.step), one.gap = fmax(one.gap, key.gap);
        one.landing = fmax(one.landing, key.landing);
        one.rested = variant ? one.rested && key.rested : key.rested;
        if (key.ahead > one.ahead)
            one.ahead = key.ahead, memcpy(one.where, key.where, sizeof one.where);
        /* 20 presses 60 ms apart and frames at 60 Hz, in time order */
        book_init_reader(&flip, leaf, 44, 0, false); /* 22 leaves: room for 20 turns */
        view = mesh_flip_view(&flip);
        book_reader_init(&reader, 44, 1, view.spread);
        read_at(&reader, &layout, &view, 0.0);
        Motion th = {.prev = frame_of(&view, leaf, &layout, vw, vh, NULL, NULL, NULL)};
        double first_landed = -1.0, next_press = 0.0, next_frame = 1.0 / 60.0, peak = 0.0;
        int pressed = 0, spread0 = view.spread;
        while (next_frame < 4.0) {
            if (pressed < 20 && next_press <= next_frame) {
                press.time = next_press;
                view = mesh_flip_view_at(&flip, next_press);
                read_at(&reader, &layout, &view, next_press);
                book_apply_input(&flip, NULL, NULL, &press, vw, vh, leaf, &layout);
                pressed++, next_press += 0.06;
                continue;
            }
            double time = next_frame;
            next_frame += 1.0 / 60.0;
            mesh_flip_step(&flip, time);
            view = mesh_flip_view_at(&flip, time);
            read_at(&reader, &layout, &view, time);
            BookCameraBook camera;
            PcDrawPush push = frame_of(&view, leaf, &layout, vw, vh, &camera, &t, "thumbing");
            follow(&th, &view, leaf, &layout, vw, vh, &push, "thumbing");
            if (first_landed < 0.0 && view.spread != spread0)
                first_landed = time;
            /* from the first leaf's landing to the last one's start the view stays back */
            if (first_landed >= 0.0 && view.queued > 0) {
                peak = fmax(peak, camera.lift);
                drop = fmax(drop, peak - camera.lift);
            }
            if (pressed == 20 && !view.turning && !(view.lift > 0.0f) &&
                !book_reader_sliding(&reader, &view, time)) {
                BookSpread still = book_spread(&view);
                PcDrawPush rest = push_of(&still, NULL, leaf, &layout, vw, vh, NULL);
                th.gap = fmax(th.gap, matrix_gap(&push, &rest));
                th.rested = true;
                unturned += view.spread != 20;
                break;
            }
        }
        thumbed.step = fmax(thumbed.step, th.step), thumbed.gap = fmax(thumbed.gap, th.gap);
        thumbed.rested = variant ? thumbed.rested && th.rested : th.rested;
        if (th.ahead > thumbed.ahead)
            thumbed.ahead = th.ahead, memcpy(thumbed.where, th.where, sizeof thumbed.where);
    }
    printf("camera: a key turn: steps of at most %.1f %% of the window a frame (%.1f px ahead of "
           "the leaf at most), the last %.3f px, at rest within %.2g; thumbing: steps of at most "
           "%.1f %% (%.1f px ahead), the view falling back by at most %.3f of its lift between "
           "leaves, at rest within %.2g; leaf vertices farthest at |NDC| %.4f\n",
           100.0 * one.step, fmax(one.ahead, 0.0), one.landing, one.gap, 100.0 * thumbed.step,
           fmax(thumbed.ahead, 0.0), drop, thumbed.gap, t.worst);
    CHECK(s, t.outside == 0, "%ld of %ld leaf vertices outside the view; first: %s", t.outside,
          t.vertices, t.where);
    CHECK(s, one.rested && one.gap < 1e-5, "a key turn's view did not come back to rest (%g)",
          one.gap);
    CHECK(s, one.ahead <= 0.0, "the view runs ahead of the leaf: %s", one.where);
    CHECK(s, thumbed.ahead <= 0.0, "the view runs ahead of the leaf: %s", thumbed.where);
    CHECK(s, one.landing <= 0.5, "the view stops abruptly: its last step %.2f px", one.landing);
    CHECK(s, thumbed.rested && unturned == 0 && thumbed.gap < 1e-5,
          "thumbing: 20 presses did not turn 20 spreads and come to rest at the still view (%g)",
          thumbed.gap);
    CHECK(s, drop <= 0.01, "thumbing: the view came back by %.3f of its lift between leaves", drop);
}

int main(void)
{
    CheckState s = {0};
    const char *only = getenv("CAMERA_ONLY");
    if (!only || strchr(only, 'r'))
        at_rest(&s);
    if (!only || strchr(only, 't'))
        turns(&s);
    if (!only || strchr(only, 'd'))
        drags(&s);
    if (!only || strchr(only, 'i'))
        in_time(&s);
    return check_finish(&s, "camera");
}
