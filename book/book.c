/* SPDX-License-Identifier: MIT */
#include "book.h"

#include "../mesh/curl.h"
#include "../mesh/drag_ray.h"
#include "../mesh/pick.h"
#include "../mesh/reach.h"
#include "camera.h"

#include <assert.h>
#include <cglm/cglm.h>
#include <string.h>

static void book_init(MeshFlip *flip, const BookLeaf *leaf, int pages, int spread, bool thumb,
                      bool reduced_motion)
{
    mesh_flip_init(flip, &(MeshFlipDesc){.width = leaf->grid.width,
                                         .height = leaf->grid.height,
                                         .leaf_count = (pages + 1) / 2,
                                         .page_count = pages,
                                         .spread = spread,
                                         .thumb = thumb,
                                         .reduced_motion = reduced_motion});
}

void book_init_flip(MeshFlip *flip, const BookLeaf *leaf, int pages, int spread,
                    bool reduced_motion)
{
    book_init(flip, leaf, pages, spread, false, reduced_motion);
}

void book_init_reader(MeshFlip *flip, const BookLeaf *leaf, int pages, int spread,
                      bool reduced_motion)
{
    book_init(flip, leaf, pages, spread, true, reduced_motion);
}

/* The spread's x as the book lies in the view: a book bound on the right is the mirror image of
 * one bound on the left, so the flip state works in the left-bound frame and only the view's x
 * changes sign. */
static float mirror(const BookLayout *layout)
{
    return layout->rtl ? -1.0f : 1.0f;
}

bool book_one_page(const BookLayout *layout, uint32_t width, uint32_t height)
{
    return layout->layout == BOOK_LAYOUT_SINGLE ||
           (layout->layout == BOOK_LAYOUT_AUTO && (height > width || layout->alone >= 1.0f));
}

/* A print share as the layout keeps it: 0 (or anything not a share) is the whole leaf. */
static float print_share(float v)
{
    return v > 0.0f && v <= 1.0f ? v : 1.0f;
}

bool book_alone(const BookLayout *layout, float aspect, uint32_t width, uint32_t height)
{
    if (layout->layout != BOOK_LAYOUT_AUTO || height > width || !height || !(aspect > 0.0f))
        return false;
    float w = (float)width, h = (float)height;
    float spread = fminf(0.5f * w, h / aspect); /* a leaf's width, in pixels, in the spread */
    for (int k = 0; k < 2; k++) {
        float pw = print_share(layout->print[k][0]), ph = print_share(layout->print[k][1]);
        if (pw > 0.99f && ph > 0.99f)
            continue;                                   /* the book's own shape */
        float alone = fminf(w / pw, h / (ph * aspect)); /* its print framed alone */
        if (alone >= BOOK_ALONE_GAIN * spread)
            return true;
    }
    return false;
}

/* How far a leaf at progress t of its turn can reach, in page widths, past the spine onto the
 * side it turns to, and on the side it turns from. A board turned by t reaches 2t - 1 past the
 * spine and 1 - 2t on its own side; a curl lifts its free edge first, so its far corner stays at
 * the page's edge for almost half the turn (0.97 at t = 0.45), then leaves it about as fast as a
 * board's. Both are smooth where the camera starts moving; a leaf that reaches further (a page
 * folded over past the spine) pulls the view back, and the span with it (frame_leaf). */
static float reach_past(float t)
{
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

static float reach_home(float t)
{
    float s = fmaxf(t - 0.4f, 0.0f) / 0.6f;
    return 1.0f - fminf(s * s, 1.0f);
}

/* A hard cover turns as a board: the first leaf (nothing under it on the left) and the last
 * (nothing under it on the right). */
static bool board(const BookLayout *layout, bool left, bool right)
{
    return layout->hard_cover && (!left || !right);
}

/* What the camera frames before the turning leaf's pose: the spread (or the one-page layout's
 * page), a closed book's one page and as much of the other side as a turning leaf reaches at its
 * progress (so the view widens to the spread as the first leaf turns and narrows as it comes
 * back), and how much further each side can open (to the spread's edge) as the view lifts. */
typedef struct PagesFrame {
    BookCameraBook book; /* lo, hi: the span at lift 0; lift: the flip's */
    float grow_lo, grow_hi;
    /* the one-page layout: what of the leaf lies past the page in view is let go (mesh/reach.h's
     * cut): it lifts off beyond the window's edge, or comes in over it */
    bool cut;
    /* the one-page layout: the share of the page's width and height its print covers, framed at
     * rest (1 x 1 the leaf; book/layout.h's print) */
    float print_w, print_h;
} PagesFrame;

/* How many leaves deep the blocks together are drawn for a book of `leaves` leaves (0: the
 * built-in book's): the built-in sketchbook's depth for a short book, deeper with the square root
 * of a longer one's length up to four times as deep (41 mm at A5 for 400 pages, 86 mm from 4,600
 * on), so that a thick book looks thick and a 100,000-page one is still a book. */
static int stack_leaves(int leaves)
{
    int most = BOOK_LEAVES + BOOK_BLOCK_LEAVES;
    float all = (float)((leaves ? leaves : BOOK_LEAVES) + BOOK_BLOCK_LEAVES);
    if (all <= (float)most)
        return most;
    return (int)lrintf(fminf((float)most * sqrtf(all / (float)most), 4.0f * (float)most));
}

/* The one-page layout's span, in the left-bound frame: the page the layout's left_page rests on
 * (a share a of the way from the right-hand page to the left-hand one: between, the view
 * slides), in flight too. The reader's slide carries the view to the page a turn lands on as the
 * leaf flies (book/reader.h); what of the leaf lies past the span is let go (PagesFrame.cut). */
static void single_span(const BookLayout *layout, float *lo, float *hi)
{
    float a = fminf(fmaxf(layout->left_page, 0.0f), 1.0f);
    *lo = -a, *hi = 1.0f - a;
}

static PagesFrame book_pages(const BookSpread *spread, const BookLeaf *leaf,
                             const BookLayout *layout, uint32_t width, uint32_t height)
{
    float w = leaf->grid.width, h = leaf->grid.height;
    int most = stack_leaves(spread->leaves);
    bool one = book_one_page(layout, width, height);
    PagesFrame f = {
        .book = book_camera_book(w, h, 0), .cut = one, .print_w = 1.0f, .print_h = 1.0f};
    f.book.depth = (float)(most + 1) * BOOK_STACK_STEP * w;
    f.book.lift = fminf(fmaxf(spread->lift, 0.0f), 1.0f);
    f.book.zoom = spread->zoom;
    float lo, hi;
    if (one) {
        single_span(layout, &lo, &hi);
        /* the print of the page the view rests on; across the spine, from one page's to the
         * other's as the view slides */
        float a = fminf(fmaxf(layout->left_page, 0.0f), 1.0f);
        f.print_w = glm_lerp(print_share(layout->print[0][0]), print_share(layout->print[1][0]), a);
        f.print_h = glm_lerp(print_share(layout->print[0][1]), print_share(layout->print[1][1]), a);
    } else {
        float left = 0.0f, right = 0.0f;
        if (spread->turning) {
            float t = spread->progress;
            left = spread->backward ? reach_home(t) : reach_past(t);
            right = spread->backward ? reach_past(t) : reach_home(t);
        }
        lo = spread->left ? -1.0f : -left, hi = spread->right ? 1.0f : right;
        if (hi - lo < 0.5f) /* nothing to show: the spread's place */
            lo = -1.0f, hi = 1.0f;
        float alone =
            layout->layout == BOOK_LAYOUT_AUTO ? fminf(fmaxf(layout->alone, 0.0f), 1.0f) : 0.0f;
        if (alone > 0.0f) { /* on the way to a page alone, or back to the spread */
            float slo, shi, a = fminf(fmaxf(layout->left_page, 0.0f), 1.0f);
            single_span(layout, &slo, &shi);
            lo = glm_lerp(lo, slo, alone), hi = glm_lerp(hi, shi, alone);
            float pw =
                glm_lerp(print_share(layout->print[0][0]), print_share(layout->print[1][0]), a);
            float ph =
                glm_lerp(print_share(layout->print[0][1]), print_share(layout->print[1][1]), a);
            f.print_w = glm_lerp(1.0f, pw, alone), f.print_h = glm_lerp(1.0f, ph, alone);
        }
    }
    f.book.lo = layout->rtl ? -hi : lo;
    f.book.hi = layout->rtl ? -lo : hi;
    if (!one) /* one page: the leaf lifts off beyond the window, as on a phone */
        f.grow_lo = f.book.lo + 1.0f, f.grow_hi = 1.0f - f.book.hi;
    return f;
}

/* The camera of `f` at its lift: a closed book's span opened by lift x what is left to open. */
static BookCameraBook pages_at(const PagesFrame *f)
{
    BookCameraBook book = f->book;
    /* a page's print of another shape framed at rest, the leaf as the view lifts for a turn */
    float pw = glm_lerp(f->print_w, 1.0f, book.lift), ph = glm_lerp(f->print_h, 1.0f, book.lift);
    if (pw < 1.0f || ph < 1.0f) { /* (else the span exactly as it was) */
        float mid = 0.5f * (book.lo + book.hi), half = 0.5f * (book.hi - book.lo) * pw;
        book.lo = mid - half, book.hi = mid + half, book.trim = 0.5f * (1.0f - ph);
    }
    book.lo -= book.lift * f->grow_lo, book.hi += book.lift * f->grow_hi;
    return book;
}

/* `f` taking in the turning leaf in `pose` (mesh/reach.h): pulled back at least as far as its
 * share of the reach within the span (where it reaches past a closed book's span, as far as
 * opens the span past it). The leaf's frame is the view's mirrored by a backward turn and by the
 * binding. */
static BookCameraBook frame_leaf(PagesFrame f, const BookSpread *spread, const CurlParams *pose,
                                 const BookLeaf *leaf, const BookLayout *layout)
{
    float w = leaf->grid.width;
    float m = (spread->backward ? -1.0f : 1.0f) * mirror(layout); /* view -> leaf frame */
    float lo = f.book.lo * w, hi = f.book.hi * w, glo = f.grow_lo * w, ghi = f.grow_hi * w;
    MeshReachSpan span = m > 0.0f ? (MeshReachSpan){lo, hi, glo, ghi, f.cut}
                                  : (MeshReachSpan){-hi, -lo, ghi, glo, f.cut};
    f.book.lift = fmaxf(f.book.lift, mesh_reach_share(pose, w, leaf->grid.height, &span));
    return pages_at(&f);
}

BookCameraBook book_camera(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                           const BookLayout *layout, uint32_t width, uint32_t height)
{
    PagesFrame f = book_pages(spread, leaf, layout, width, height);
    return spread->turning && pose ? frame_leaf(f, spread, pose, leaf, layout) : pages_at(&f);
}

/* The content column at distance u from the spine on a side: mirrored with the book, so that
 * pages still read left to right as seen. */
static float column(const BookLayout *layout, MeshFlipSide side, float u, float w)
{
    float c = mesh_flip_content_column(side, u, w);
    return layout->rtl ? 1.0f - c : c;
}

/* The side of a face: book page face_side + 1. */
static int face_side(MeshFlipFace face)
{
    return 2 * face.leaf + (face.side == MESH_FLIP_SIDE_BACK);
}

/* What a pick looks through: the camera's spread and the turning leaf's pose, the leaf's faces
 * (turning: it is drawn, backward: in a backward turn's mirrored frame) and the flat ones. */
typedef struct PickScene {
    BookSpread spread;
    CurlParams pose;
    bool turning, backward;
    MeshFlipFace left, right, face_up, face_down;
} PickScene;

static bool pick(const PickScene *s, const BookLeaf *leaf, const BookLayout *layout, uint32_t width,
                 uint32_t height, float px, float py, BookHit *out)
{
    float w = leaf->grid.width, h = leaf->grid.height;
    double o[3], d[3];
    BookCameraBook camera = book_camera(&s->spread, &s->pose, leaf, layout, width, height);
    if (!width || !height || !book_camera_ray(width, height, &camera, px, py, o, d))
        return false;
    o[0] *= mirror(layout), d[0] *= mirror(layout); /* into the left-bound frame */
    bool found = false;
    double best = 0.0;
    if (s->turning) {
        /* the ray in the turning leaf's frame (a backward turn's is mirrored) */
        double m = s->backward ? -1.0 : 1.0;
        MeshRay ray = {{m * o[0], o[1], o[2]}, {m * d[0], d[1], d[2]}};
        MeshPick hit;
        if (mesh_pick_curl(&s->pose, w, h, &ray, &hit)) {
            MeshFlipFace face = hit.plus_z ? s->face_up : s->face_down;
            found = face.side != MESH_FLIP_SIDE_NONE;
            best = hit.t;
            *out = (BookHit){face_side(face), column(layout, face.side, (float)hit.x, w),
                             (float)(hit.y / h)};
        }
    }
    /* the flat pages' plane, seen from above: the turning leaf covers what lies under it */
    double z = -BOOK_STACK_STEP * w;
    if (fabs(d[2]) < 1e-12)
        return found;
    double t = (z - o[2]) / d[2];
    double x = o[0] + t * d[0], y = o[1] + t * d[1];
    if (t <= 0.0 || (found && best <= t) || y < 0.0 || y > h || fabs(x) > w)
        return found;
    MeshFlipFace face = x >= 0.0 ? s->right : s->left;
    bool one = book_one_page(layout, width, height);
    if (one && (x < 0.0 ? layout->left_page <= 0.0f : layout->left_page >= 1.0f))
        return found; /* one page at rest: the other is not drawn (spread_draws) */
    if (face.side == MESH_FLIP_SIDE_NONE)
        return found;
    *out = (BookHit){face_side(face), column(layout, face.side, (float)fabs(x), w), (float)(y / h)};
    return true;
}

/* The scene a flip's view shows, through `zoom` where given. */
static PickScene view_scene(const MeshFlipView *view, const BookZoomView *zoom,
                            const BookLeaf *leaf, const BookLayout *layout)
{
    PickScene s = {.spread = book_spread(view),
                   .pose = book_pose(view, leaf, layout),
                   .turning = view->turning,
                   .backward = view->direction == MESH_FLIP_BACKWARD,
                   .left = view->left,
                   .right = view->right,
                   .face_up = view->face_up,
                   .face_down = view->face_down};
    if (zoom)
        s.spread.zoom = *zoom;
    return s;
}

/* The scene a held pose shows (no flip's: pagecurl_book_hold). */
static PickScene posed_scene(const BookSpread *spread, const CurlParams *pose)
{
    const MeshFlipFace none = {-1, MESH_FLIP_SIDE_NONE};
    /* a leaf's front faces up on the right, its back on the left; the turning leaf's side seen
     * at rest is its frame's +z: its front turning forward, its back turning back */
    MeshFlipFace front = {spread->turning_leaf, MESH_FLIP_SIDE_FRONT},
                 back = {spread->turning_leaf, MESH_FLIP_SIDE_BACK};
    return (PickScene){
        .spread = *spread,
        .pose = *pose,
        .turning = spread->turning && !spread->fading,
        .backward = spread->backward,
        .left = spread->left ? (MeshFlipFace){spread->left_leaf, MESH_FLIP_SIDE_BACK} : none,
        .right = spread->right ? (MeshFlipFace){spread->right_leaf, MESH_FLIP_SIDE_FRONT} : none,
        .face_up = spread->backward ? back : front,
        .face_down = spread->backward ? front : back};
}

bool book_pick(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
               const BookLayout *layout, uint32_t width, uint32_t height, float px, float py,
               BookHit *out)
{
    PickScene s = view_scene(view, zoom, leaf, layout);
    return pick(&s, leaf, layout, width, height, px, py, out);
}

bool book_pick_posed(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                     const BookLayout *layout, uint32_t width, uint32_t height, float px, float py,
                     BookHit *out)
{
    PickScene s = posed_scene(spread, pose);
    return pick(&s, leaf, layout, width, height, px, py, out);
}

/* The outline of `side` in the scene (book_outline): the turning leaf's side along its curled
 * edges, a flat side's four corners. */
static int outline(const PickScene *s, const BookLeaf *leaf, const BookLayout *layout,
                   uint32_t width, uint32_t height, int side, float *xy, int max)
{
    if (!width || !height || !xy || max <= 0)
        return 0;
    float w = leaf->grid.width, h = leaf->grid.height;
    BookCameraBook camera = book_camera(&s->spread, &s->pose, leaf, layout, width, height);
    double m = mirror(layout);
    int n = 0;
    bool turning = s->turning && (face_side(s->face_up) == side || face_side(s->face_down) == side);
    if (turning) {
        /* around the leaf's edges in its own frame (x across from the spine, y up), curled */
        const int per = BOOK_OUTLINE_POINTS / 4;
        double b = s->backward ? -1.0 : 1.0;
        for (int k = 0; k < BOOK_OUTLINE_POINTS && n < max; k++) {
            int edge = k / per;
            double t = (double)(k % per) / per, u, v;
            u = edge == 0 ? t * w : edge == 1 ? w : edge == 2 ? (1.0 - t) * w : 0.0;
            v = edge == 0 ? 0.0 : edge == 1 ? t * h : edge == 2 ? h : (1.0 - t) * h;
            double pos[3], normal[3];
            mesh_curl_point(&s->pose, u, v, pos, normal);
            double p[3] = {m * b * pos[0], pos[1], pos[2]};
            if (book_camera_project(width, height, &camera, p, &xy[2 * n], &xy[2 * n + 1]))
                n++;
        }
        return n;
    }
    bool right = s->right.side != MESH_FLIP_SIDE_NONE && face_side(s->right) == side;
    bool left = s->left.side != MESH_FLIP_SIDE_NONE && face_side(s->left) == side;
    if (!right && !left)
        return 0;
    bool one = book_one_page(layout, width, height);
    if (one && (left ? layout->left_page <= 0.0f : layout->left_page >= 1.0f))
        return 0; /* one side at rest: the other is not drawn (spread_draws) */
    double x0 = right ? 0.0 : -w, x1 = right ? w : 0.0, z = -BOOK_STACK_STEP * w;
    const double corners[4][3] = {{x0, 0.0, z}, {x1, 0.0, z}, {x1, h, z}, {x0, h, z}};
    for (int k = 0; k < 4 && n < max; k++) {
        double p[3] = {m * corners[k][0], corners[k][1], corners[k][2]};
        if (book_camera_project(width, height, &camera, p, &xy[2 * n], &xy[2 * n + 1]))
            n++;
    }
    return n;
}

int book_outline(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
                 const BookLayout *layout, uint32_t width, uint32_t height, int side, float *xy,
                 int max)
{
    PickScene s = view_scene(view, zoom, leaf, layout);
    return outline(&s, leaf, layout, width, height, side, xy, max);
}

int book_outline_posed(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                       const BookLayout *layout, uint32_t width, uint32_t height, int side,
                       float *xy, int max)
{
    PickScene s = posed_scene(spread, pose);
    return outline(&s, leaf, layout, width, height, side, xy, max);
}

static void ink_input(MeshInk *ink, const MeshFlipView *view, const BookZoomView *zoom,
                      const BookInput *e, uint32_t width, uint32_t height, const BookLeaf *leaf,
                      const BookLayout *layout)
{
    if (e->device == BOOK_INPUT_KEY) { /* undo */
        mesh_ink_undo(ink);
        return;
    }
    if (e->action == BOOK_INPUT_UP) {
        mesh_ink_stroke_end(ink);
        return;
    }
    BookHit hit;
    if (!book_pick(view, zoom, leaf, layout, width, height, e->x * (float)width,
                   e->y * (float)height, &hit) ||
        hit.side >= ink->side_count)
        return; /* off the book: nothing to draw on, nothing to clear */
    MeshInkPoint point = {hit.u, hit.v, mesh_ink_width(e->pressure)};
    if (e->action == BOOK_INPUT_CLEAR)
        mesh_ink_clear(ink, hit.side);
    else if (e->action == BOOK_INPUT_DOWN)
        mesh_ink_stroke_begin(ink, hit.side, point);
    else if (ink->drawing == hit.side) /* a stroke stays on its page side */
        mesh_ink_stroke_extend(ink, point);
}

/* The point of the book's plane under pixel (px, py), in the spread's left-bound frame. */
static bool flat_point(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
                       const BookLayout *layout, uint32_t width, uint32_t height, float px,
                       float py, float *x, float *y)
{
    BookSpread spread = book_spread(view);
    spread.zoom = *zoom;
    CurlParams pose = book_pose(view, leaf, layout);
    BookCameraBook camera = book_camera(&spread, &pose, leaf, layout, width, height);
    if (!book_camera_unproject(width, height, &camera, px, py, x, y))
        return false;
    *x *= mirror(layout);
    return true;
}

/* A drag seen through the camera of the book at the turn's progress `p` (a closed book's span)
 * and lift `lift`: the plane pointer q (in the leaf's frame) that puts the grabbed point on the
 * line of sight through (px, py), the progress q gives the turn, and the lift its pose needs. */
typedef struct DragSight {
    const MeshFlipView *view;
    const BookLeaf *leaf;
    const BookLayout *layout;
    BookSpread spread;
    uint32_t width, height;
    float px, py;
} DragSight;

typedef struct DragSeen {
    MeshVec2 q;
    float progress, need;
} DragSeen;

static bool drag_sight(DragSight *s, float p, float lift, DragSeen *out)
{
    const MeshFlipView *view = s->view;
    const BookLeaf *leaf = s->leaf;
    const BookLayout *layout = s->layout;
    s->spread.progress = p;
    PagesFrame f = book_pages(&s->spread, leaf, layout, s->width, s->height);
    f.book.lift = lift;
    BookCameraBook camera = pages_at(&f);
    double o[3], d[3];
    if (!book_camera_ray(s->width, s->height, &camera, s->px, s->py, o, d))
        return false;
    o[0] *= mirror(layout), d[0] *= mirror(layout);                /* into the left-bound frame */
    double m = view->direction == MESH_FLIP_BACKWARD ? -1.0 : 1.0; /* the leaf's frame */
    MeshRay ray = {{m * o[0], o[1], o[2]}, {m * d[0], d[1], d[2]}};
    MeshVec2 grab = {view->grab[0], view->grab[1]};
    out->q = mesh_drag_ray(grab, &ray, leaf->grid.width, leaf->grid.height);
    out->progress =
        grab.x > 0.0f ? fminf(fmaxf((grab.x - out->q.x) / (2.0f * grab.x), 0.0f), 1.0f) : p;
    MeshFlipView moved = *view;
    moved.pointer[0] = out->q.x, moved.pointer[1] = out->q.y;
    CurlParams pose = book_pose(&moved, leaf, layout);
    f.book.lift = 0.0f;
    out->need = frame_leaf(f, &s->spread, &pose, leaf, layout).lift;
    return true;
}

/* The lift s >= floor at which the camera at progress p shows the grabbed point under the
 * pointer with a pose that needs no more than s: a root of max(floor, need(s)) - s, which is
 * >= 0 at the floor and <= 0 at 1. The lift of the move before (`guess`) where it holds the pose
 * with no more than DRAG_LIFT_SLACK to spare (one sight for most moves, where a drag solve may
 * cost a few hundred curl solves out of reach); else from the floor, or from the guess where that
 * is too little, stepping up until the sign changes, then a bracketed secant
 * (Illinois); where the root is not attained (the pose jumps between two crossings of the ray)
 * the end above it, so that the leaf stays in view. */
#define DRAG_LIFT_SLACK 0.02
static bool drag_lift(DragSight *s, float p, float floor, float guess, DragSeen *seen, float *lift)
{
    double a = floor, fa = 0.0, b = floor, fb = 0.0;
    if (guess > floor + 1e-3f) { /* the move before's lift: most moves need about as much */
        if (!drag_sight(s, p, guess, seen))
            return false;
        b = guess, fb = fmax(seen->need, floor) - guess;
        if (fb <= 0.0 && fb > -DRAG_LIFT_SLACK) {
            *lift = guess; /* near enough: the view stays where it is */
            return true;
        }
        if (fb > 0.0)
            a = b, fa = fb;
    }
    if (a == floor) {
        DragSeen at_guess = *seen;
        if (!drag_sight(s, p, floor, seen))
            return false;
        fa = fmax(seen->need - floor, 0.0);
        *lift = floor;
        if (!(fa > 1e-6))
            return true;
        if (!(guess > floor + 1e-3f))
            b = a, fb = fa;
        else
            *seen = at_guess;
    }
    double step = fmax(2.0 * fa, 0.02);
    while (fb > 0.0 && b < 1.0) { /* step up to a bracket */
        a = b, fa = fb;
        b = fmin(b + step, 1.0), step *= 2.0;
        if (!drag_sight(s, p, (float)b, seen))
            return false;
        fb = fmax(seen->need, floor) - b;
    }
    *lift = (float)b;
    DragSeen at_b = *seen;
    int kept = 0; /* which end stayed last time: +1 a, -1 b (Illinois halves its value) */
    /* the camera is b's, whatever the tolerance: it only says how much further than the pose
     * needs the view may pull back */
    for (int i = 0; i < 40 && fb < -1e-3 && b - a > 2e-3; i++) {
        double c = (fa * b - fb * a) / (fa - fb);
        if (!(c > a && c < b))
            c = 0.5 * (a + b);
        if (!drag_sight(s, p, (float)c, seen))
            return false;
        double fc = fmax(seen->need, floor) - c;
        if (fc > 0.0) {
            a = c, fa = fc;
            if (kept == 1)
                fb *= 0.5;
            kept = 1;
        } else {
            b = c, fb = fc;
            if (kept == -1)
                fa *= 0.5;
            kept = -1;
            *lift = (float)c, at_b = *seen;
        }
    }
    *seen = at_b; /* the end at or above the root */
    return true;
}

/* Where the pointer at pixel (px, py) holds the page, in the spread's plane, and the lift the
 * camera then has. While a leaf turns: the plane pointer whose pose puts the grabbed point,
 * lifted as the curl lifts it, on the pointer's line of sight, so that it shows under the pointer
 * (mesh/drag_ray.h). Otherwise the point of the book's plane under the pointer, where a press
 * grabs the flat page.
 *
 * The camera takes in the leaf's pose (frame_leaf: pulled back as far as it needs, never less
 * than the lift the flip held when the page was taken) and a closed book's span follows the
 * turn's progress, while the pose follows where the pointer holds the page through that camera:
 * the point held is the one whose pose and progress ask for the camera that shows it under the
 * pointer. For the progress, a secant (a few rounds); within each, the lift (drag_lift). The
 * answer depends on the pointer, not on the moves that led there (but for the slack drag_lift
 * leaves). */
static bool drag_point(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
                       const BookLayout *layout, uint32_t width, uint32_t height, float px,
                       float py, float *x, float *y, float *lift)
{
    *lift = view->lift;
    if (!view->turning || view->thumb || view->phase == MESH_FLIP_FADING)
        return flat_point(view, zoom, leaf, layout, width, height, px, py, x, y);
    DragSight s = {view, leaf, layout, book_spread(view), width, height, px, py};
    s.spread.zoom = *zoom;
    DragSeen seen;
    /* the progress p whose span shows the pose of progress p: a secant on P(p) - p from the
     * view's progress, which stays put where the span does not follow the progress */
    double p0 = view->progress, g0 = 0.0, p1 = p0;
    for (int round = 0; round < 10; round++) {
        if (!drag_lift(&s, (float)p1, view->lift_held, view->lift, &seen, lift))
            return false;
        double g1 = seen.progress - p1;
        BookSpread at = s.spread, next = s.spread;
        at.progress = (float)p1, next.progress = seen.progress;
        PagesFrame was = book_pages(&at, leaf, layout, width, height),
                   now = book_pages(&next, leaf, layout, width, height);
        if (fabsf(now.book.lo - was.book.lo) < 1e-6f && fabsf(now.book.hi - was.book.hi) < 1e-6f)
            break;
        double p2 = round && g1 != g0 ? p1 - g1 * (p1 - p0) / (g1 - g0) : seen.progress;
        p0 = p1, g0 = g1, p1 = fmin(fmax(p2, 0.0), 1.0);
    }
    double m = view->direction == MESH_FLIP_BACKWARD ? -1.0 : 1.0;
    *x = (float)(m * seen.q.x), *y = seen.q.y;
    return true;
}

/* Tells the flip the lift its view is drawn with at `time` (mesh_flip_view_lift): the camera
 * pulls back for the leaf in the air beyond what the flip holds, and a queue of turns gathers on
 * from there. */
static void tell_lift(MeshFlip *flip, const BookLeaf *leaf, const BookLayout *layout,
                      uint32_t width, uint32_t height, double time)
{
    MeshFlipView view = mesh_flip_view_at(flip, time);
    BookSpread spread = book_spread(&view);
    CurlParams pose = book_pose(&view, leaf, layout);
    BookCameraBook camera = book_camera(&spread, &pose, leaf, layout, width, height);
    mesh_flip_view_lift(flip, camera.lift, time);
}

BookZoomRect book_fit_rect(const BookSpread *spread, const BookLeaf *leaf, const BookLayout *layout,
                           uint32_t width, uint32_t height)
{
    BookSpread still = *spread;
    still.turning = false, still.progress = 0.0f, still.lift = 0.0f;
    still.zoom = (BookZoomView){0};
    BookCameraBook camera = book_camera(&still, NULL, leaf, layout, width, height);
    PcDrawPush push = book_camera_draw_push(width, height, &camera);
    mat4 view_proj;
    memcpy(view_proj, push.view_proj.m, sizeof view_proj);
    BookZoomRect r = {INFINITY, INFINITY, -INFINITY, -INFINITY, 0.0f};
    for (int i = 0; i < 4; i++) {
        float trim = camera.trim * camera.height;
        vec4 corner = {(i & 1 ? camera.hi : camera.lo) * camera.width,
                       i & 2 ? camera.height - trim : trim, 0.0f, 1.0f},
             clip;
        glm_mat4_mulv(view_proj, corner, clip);
        float u = 0.5f * (clip[0] / clip[3] + 1.0f), v = 0.5f * (clip[1] / clip[3] + 1.0f);
        r.x0 = fminf(r.x0, u), r.x1 = fmaxf(r.x1, u);
        r.y0 = fminf(r.y0, v), r.y1 = fmaxf(r.y1, v);
    }
    if (camera.lo < 0.0f && camera.hi > 0.0f) { /* two pages: where the spine lies between */
        vec4 spine = {0.0f, 0.0f, 0.0f, 1.0f}, clip;
        glm_mat4_mulv(view_proj, spine, clip);
        r.spine = 0.5f * (clip[0] / clip[3] + 1.0f);
    }
    return r;
}

BookZoomView book_zoom_view(const BookZoom *zoom, const MeshFlipView *view, const BookLeaf *leaf,
                            const BookLayout *layout, uint32_t width, uint32_t height, double time)
{
    if (!zoom || !width || !height)
        return (BookZoomView){0};
    BookSpread spread = book_spread(view);
    BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
    return book_zoom_at(zoom, time, &fit);
}

void book_settle_zoom(BookZoom *zoom, const MeshFlipView *view, const BookLeaf *leaf,
                      const BookLayout *layout, uint32_t width, uint32_t height, double time)
{
    if (!zoom || !zoom->resume || view->turning || !width || !height)
        return;
    BookSpread spread = book_spread(view);
    BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
    book_zoom_settle(zoom, time, &fit, layout->rtl, view->reduced_motion);
}

/* Whether a press at pixel (px, py) of a zoomed view is on a page's outer edge: within
 * BOOK_GRAB_ZONE pixels of it, inside or out, in the book's plane at rest. */
static bool grab_zone(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
                      const BookLayout *layout, uint32_t width, uint32_t height, float px, float py)
{
    float x, y, x1, y1;
    if (!flat_point(view, zoom, leaf, layout, width, height, px, py, &x, &y) ||
        !flat_point(view, zoom, leaf, layout, width, height, px + BOOK_GRAB_ZONE, py, &x1, &y1))
        return false;
    float w = leaf->grid.width, h = leaf->grid.height, band = fabsf(x1 - x);
    return fabsf(x) >= w - band && fabsf(x) <= w + band && y >= -band && y <= h + band;
}

/* A press at pixel (px, py) that lands just off a page, within BOOK_CORNER_ZONE pixels of
 * its outer edge, top or bottom (a corner missed by a few pixels), moved onto the page's edge
 * there: the reader meant the page. (x, y): the press in the book's plane at rest. */
static void into_corner_zone(const MeshFlipView *view, const BookZoomView *zoom,
                             const BookLeaf *leaf, const BookLayout *layout, uint32_t width,
                             uint32_t height, float px, float py, float *x, float *y)
{
    float x0, y0, x1, y1;
    if (!flat_point(view, zoom, leaf, layout, width, height, px, py, &x0, &y0) ||
        !flat_point(view, zoom, leaf, layout, width, height, px + BOOK_CORNER_ZONE, py, &x1, &y1))
        return;
    float w = leaf->grid.width, h = leaf->grid.height, band = fabsf(x1 - x0);
    float ax = fabsf(*x), cx = ax > w ? w : ax, cy = fminf(fmaxf(*y, 0.0f), h);
    if (ax - cx <= band && fabsf(*y - cy) <= band && (ax > w || *y != cy))
        *x = copysignf(cx, *x), *y = cy;
}

/* A zoom event at `time`, kept within the still spread's fitted pages: what a scroll did (a zoom
 * of another kind: BOOK_ZOOM_SCROLL_MOVED). */
static BookZoomScroll zoom_input(BookZoom *zoom, const MeshFlipView *view, const BookInput *e,
                                 uint32_t width, uint32_t height, const BookLeaf *leaf,
                                 const BookLayout *layout)
{
    BookSpread spread = book_spread(view);
    BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
    if (view->phase == MESH_FLIP_DRAGGING)
        return BOOK_ZOOM_SCROLL_NONE; /* the point held stays under the pointer: the zoom waits */
    if (e->action == BOOK_INPUT_SCROLL)
        return view->turning ? BOOK_ZOOM_SCROLL_NONE
                             : book_zoom_scroll(zoom, e->y, e->time, &fit, layout->rtl);
    /* the pointer at (x W, y H) is the pixel whose centre the camera's rays go through */
    float x = e->x + 0.5f / (float)width, y = e->y + 0.5f / (float)height;
    switch (e->action) {
    case BOOK_INPUT_BY: /* no pointer: about the page's centre */
        if (isfinite(e->x) && isfinite(e->y))
            book_zoom_by(zoom, e->scale, x, y, e->time, &fit);
        else
            book_zoom_by_page(zoom, e->scale, e->time, &fit);
        break;
    case BOOK_INPUT_WIDTH:
        book_zoom_fit_width(zoom, x, y, e->time, &fit);
        break;
    case BOOK_INPUT_PAN:
        book_zoom_pan(zoom, e->x, e->y, e->time, &fit);
        break;
    case BOOK_INPUT_FIT:
        book_zoom_fit(zoom, e->time);
        break;
    case BOOK_INPUT_TOGGLE:
        book_zoom_toggle(zoom, x, y, e->time, &fit);
        break;
    default:
        break;
    }
    return BOOK_ZOOM_SCROLL_MOVED;
}

BookZoomScroll book_scroll(BookZoom *zoom, const MeshFlip *flip, float dy, double time,
                           uint32_t width, uint32_t height, const BookLeaf *leaf,
                           const BookLayout *layout)
{
    MeshFlipView view = mesh_flip_view_at(flip, time);
    BookInput e = {.time = time, .device = BOOK_INPUT_ZOOM, .action = BOOK_INPUT_SCROLL, .y = dy};
    return zoom_input(zoom, &view, &e, width, height, leaf, layout);
}

/* A turn under way from a zoomed view: the view eases back to fit as the leaf flies. */
static void ease_if_turning(MeshFlip *flip, BookZoom *zoom, uint32_t width, uint32_t height,
                            const BookLeaf *leaf, const BookLayout *layout, double time)
{
    if (!zoom)
        return;
    MeshFlipView view = mesh_flip_view_at(flip, time);
    BookSpread spread = book_spread(&view);
    BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
    if (view.phase == MESH_FLIP_SETTLING && view.completing)
        book_zoom_ease_fit(zoom, time, &fit); /* the zoom comes back once at rest */
    else if (view.phase == MESH_FLIP_FADING && view.completing)
        book_zoom_keep(zoom, time, &fit); /* reduced motion: nothing moves but the fade */
}

bool book_apply_input(MeshFlip *flip, BookZoom *zoom, MeshInk *ink, const BookInput *e,
                      uint32_t width, uint32_t height, const BookLeaf *leaf,
                      const BookLayout *layout)
{
    if (e->device == BOOK_INPUT_ZOOM) {
        BookZoomScroll did = BOOK_ZOOM_SCROLL_NONE;
        if (zoom && width && height) {
            MeshFlipView view = mesh_flip_view_at(flip, e->time);
            did = zoom_input(zoom, &view, e, width, height, leaf, layout);
        }
        if (did != BOOK_ZOOM_SCROLL_NEXT && did != BOOK_ZOOM_SCROLL_BACK)
            return e->action != BOOK_INPUT_SCROLL || did == BOOK_ZOOM_SCROLL_MOVED;
        /* scrolled past the page's foot (head): the reader's turn, as a key's */
        BookInput key = {.time = e->time, .device = BOOK_INPUT_KEY};
        key.action = did == BOOK_ZOOM_SCROLL_NEXT ? BOOK_INPUT_NEXT : BOOK_INPUT_PREV;
        bool turned = book_apply_input(flip, zoom, ink, &key, width, height, leaf, layout);
        if (turned)
            book_zoom_scroll_turned(zoom, did);
        return turned;
    }
    if (e->device == BOOK_INPUT_INK ||
        (e->device == BOOK_INPUT_KEY && e->action == BOOK_INPUT_UNDO)) {
        if (ink) {
            MeshFlipView view = mesh_flip_view_at(flip, e->time); /* the camera at its time */
            BookZoomView z = book_zoom_view(zoom, &view, leaf, layout, width, height, e->time);
            ink_input(ink, &view, &z, e, width, height, leaf, layout);
        }
        return true;
    }
    if (e->device == BOOK_INPUT_KEY) {
        if (e->action == BOOK_INPUT_NEXT || e->action == BOOK_INPUT_PREV) {
            bool turned = mesh_flip_turn(
                flip, e->action == BOOK_INPUT_NEXT ? MESH_FLIP_FORWARD : MESH_FLIP_BACKWARD,
                e->time);
            tell_lift(flip, leaf, layout, width, height, e->time);
            ease_if_turning(flip, zoom, width, height, leaf, layout, e->time);
            return turned;
        } else { /* go to, Home, End: a turn settling is cut short (a drag is not) */
            int end = mesh_flip_end_spread(flip);
            int spread = e->action == BOOK_INPUT_HOME ? 0
                         : e->action == BOOK_INPUT_END
                             ? end
                             : book_first_spread((uint32_t)e->page, false);
            mesh_flip_jump(flip, spread < end ? spread : end, e->time);
        }
        return true;
    }
    float px = e->x * (float)width, py = e->y * (float)height, x, y;
    if (zoom && zoom->panning) { /* a drag that pans, whatever the book does meanwhile */
        MeshFlipView view = mesh_flip_view_at(flip, e->time);
        BookSpread spread = book_spread(&view);
        BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
        book_zoom_drag_move(zoom, e->x, e->y, e->time, &fit); /* an up ends where it is */
        if (e->action == BOOK_INPUT_UP)
            book_zoom_drag_end(zoom, e->time, &fit);
        return true;
    }
    if (e->action == BOOK_INPUT_UP) {
        mesh_flip_release(flip, e->time);
        tell_lift(flip, leaf, layout, width, height,
                  e->time); /* a flick behind the leaf may queue */
        ease_if_turning(flip, zoom, width, height, leaf, layout, e->time);
        return true;
    }
    mesh_flip_step(flip, e->time); /* the view the pointer meets is the one at its time */
    MeshFlipView view = mesh_flip_view_at(flip, e->time);
    BookZoomView z = book_zoom_view(zoom, &view, leaf, layout, width, height, e->time);
    /* A hand on the page a leaf turning over is leaving reaches for the next leaf, whether or not
     * the leaf still covers that spot: thumbing through (the flip refuses where the book was made
     * without it). A press on the leaf past the spine, or on one falling back, catches it. */
    if (e->action == BOOK_INPUT_DOWN && view.phase == MESH_FLIP_SETTLING && view.completing &&
        flat_point(&view, &z, leaf, layout, width, height, px, py, &x, &y) &&
        mesh_flip_thumb_press(flip, x, y, e->time))
        return true;
    if (e->action != BOOK_INPUT_DOWN && view.phase != MESH_FLIP_DRAGGING && !view.thumb)
        return true; /* a move holds nothing unless a page is held */
    /* zoomed in, a press off the pages' outer edges pans the view */
    bool pan = e->action == BOOK_INPUT_DOWN && zoom && book_zoom_enlarged(&z) && !view.turning &&
               !grab_zone(&view, &z, leaf, layout, width, height, px, py);
    float lift = view.lift;
    if (!pan && !drag_point(&view, &z, leaf, layout, width, height, px, py, &x, &y, &lift))
        return true; /* a ray that misses the book's plane holds nothing */
    if (e->action == BOOK_INPUT_DOWN) {
        if (!pan && view.phase == MESH_FLIP_IDLE)
            into_corner_zone(&view, &z, leaf, layout, width, height, px, py, &x, &y);
        bool pressed = !pan && mesh_flip_press(flip, x, y, e->time);
        if (!pressed && zoom && book_zoom_enlarged(&z)) { /* nothing to take there: it pans */
            BookSpread spread = book_spread(&view);
            BookZoomRect fit = book_fit_rect(&spread, leaf, layout, width, height);
            book_zoom_drag_begin(zoom, e->x, e->y, e->time, &fit);
            return true;
        }
    } else {
        mesh_flip_move(flip, x, y, e->time);
    }
    mesh_flip_view_lift(flip, lift, e->time); /* what the camera pulled back to for it */
    return true;
}

/* The board's angle over the spine at progress t: its free edge above where a paper leaf's
 * grabbed point would be, (1 - 2t) W from the spine. */
static CurlParams board_pose(float t)
{
    float c = 1.0f - 2.0f * fminf(fmaxf(t, 0.0f), 1.0f);
    return mesh_curl_hinge(acosf(c));
}

CurlParams book_turn_pose(const BookSpread *spread, float t, float g, const BookLeaf *leaf,
                          const BookLayout *layout)
{
    if (spread->turning && board(layout, spread->left, spread->right))
        return board_pose(t);
    return mesh_curl_pose(t, g, leaf->grid.width, leaf->grid.height);
}

CurlParams book_pose(const MeshFlipView *view, const BookLeaf *leaf, const BookLayout *layout)
{
    if (view->turning && board(layout, view->left.side != MESH_FLIP_SIDE_NONE,
                               view->right.side != MESH_FLIP_SIDE_NONE))
        return board_pose(view->progress);
    MeshVec2 grab = {view->grab[0], view->grab[1]}, pointer = {view->pointer[0], view->pointer[1]};
    return mesh_curl_drag(grab, pointer, leaf->grid.width, leaf->grid.height);
}

int book_first_spread(uint32_t page, bool backward)
{
    /* page 2k + 1 is leaf k's front, on the right of spread k; page 2k its back, on the left of
     * spread k + 1 */
    return page ? (int)(page / 2) : backward ? 2 : 0;
}

void book_spread_sides(const BookSpread *spread, int sides[2])
{
    sides[0] = spread->right ? 2 * spread->right_leaf : -1;
    sides[1] = spread->left ? 2 * spread->left_leaf + 1 : -1;
    if (spread->turning && !spread->fading) {
        bool on_right = spread->backward ? spread->progress >= 0.5f : spread->progress < 0.5f;
        if (on_right)
            sides[0] = 2 * spread->turning_leaf;
        else
            sides[1] = 2 * spread->turning_leaf + 1;
    }
}

BookSpread book_spread_at(int s, int leaves, bool backward)
{
    if (backward) /* leaf s - 1 turns back from the left, over leaf s - 2's back */
        return (BookSpread){.left = s >= 2,
                            .right = s < leaves,
                            .turning = true,
                            .backward = true,
                            .left_leaf = s - 2,
                            .right_leaf = s,
                            .turning_leaf = s - 1,
                            .leaves = leaves};
    return (BookSpread){.left = s >= 1,
                        .right = s + 1 < leaves,
                        .turning = true,
                        .left_leaf = s - 1,
                        .right_leaf = s + 1,
                        .turning_leaf = s,
                        .leaves = leaves};
}

void book_spread_fading(BookSpread *spread, float fade)
{
    spread->fading = true;
    spread->fade = fminf(fmaxf(fade, 0.0f), 1.0f);
    /* Framed as the open book of the two: a closed book's span follows a turn's progress, and
     * following the fade would move the view. Opening a closed book the view cuts to the open
     * one as the fade starts (closing, as it ends), and every page of the fade is in view. */
    bool closed_from = spread->backward ? !spread->right : !spread->left;
    spread->progress = closed_from ? 1.0f : 0.0f;
}

/* The cross-fade's spread: the turn's leaves (book_spread_at), none of them posed. */
static BookSpread fading_spread(const MeshFlipView *view, BookSpread s)
{
    bool backward = view->direction == MESH_FLIP_BACKWARD;
    MeshFlipFace left = backward ? view->to_left : view->left;
    MeshFlipFace right = backward ? view->right : view->to_right;
    s.left = left.side != MESH_FLIP_SIDE_NONE, s.right = right.side != MESH_FLIP_SIDE_NONE;
    s.left_leaf = left.leaf, s.right_leaf = right.leaf;
    s.turning_leaf = backward ? view->spread - 1 : view->spread;
    s.turning = true, s.backward = backward;
    book_spread_fading(&s, view->fade);
    return s;
}

BookSpread book_spread(const MeshFlipView *view)
{
    BookSpread s = {
        .left = view->left.side != MESH_FLIP_SIDE_NONE,
        .right = view->right.side != MESH_FLIP_SIDE_NONE,
        .turning = view->turning,
        .backward = view->turning && view->direction == MESH_FLIP_BACKWARD,
        .left_leaf = view->left.leaf,
        .right_leaf = view->right.leaf,
        .turning_leaf = view->turning_leaf,
        .progress = view->turning ? view->progress : 0.0f,
        .lift = view->lift,
    };
    return view->phase == MESH_FLIP_FADING ? fading_spread(view, s) : s;
}

/* base.view_proj x mirror x model; `back_up` says the model's +z side is the leaf's back,
 * `spine_edge` that nothing lies beyond the draw's spine side. The mirror (x -> -x for a book
 * bound on the right) is part of the world the shaders light and shadow in; PC_FRAME_MIRRORED
 * tells the page shader to read the content mirrored, so that it is not. */
static PcDrawPush placed(const PcDrawPush *base, mat4 model, bool back_up, bool spine_edge,
                         float mirror)
{
    model[0][0] *= mirror;
    /* the model is a diagonal scale then a lift along z: all the shaders need of it */
    assert(model[0][1] == 0.0f && model[1][0] == 0.0f && model[3][0] == 0.0f);
    PcDrawPush push = *base;
    mat4 view_proj, product;
    memcpy(view_proj, base->view_proj.m, sizeof view_proj);
    glm_mat4_mul(view_proj, model, product);
    memcpy(push.view_proj.m, product, sizeof push.view_proj.m);
    push.frame = (pc_vec4){
        {0.0f, 0.0f, 0.0f,
         (float)((back_up ? PC_FRAME_BACK_UP : 0) | (mirror < 0.0f ? PC_FRAME_MIRRORED : 0) |
                 (spine_edge ? PC_FRAME_SPINE_EDGE : 0))}};
    push.model = (pc_vec4){{model[0][0], model[1][1], model[2][2], model[3][2]}};
    return push;
}

/* A leaf's draw: its front's content layer, and what it is. */
static PcDrawPush printed(PcDrawPush push, const BookSpread *spread, int leaf, int layer, int kind)
{
    assert(leaf >= 0);
    push.page.v[2] = (float)(spread->placed ? layer : 2 * leaf);
    push.page.v[3] = (float)kind;
    return push;
}

/* The draw of flat side `side` (content layer `layer`) reading the detail that a slot holds of
 * it, and where it lies on the width x height target told in `out` (at rest). */
static void detailed(PcDrawPush *push, const BookSpread *spread, int side, int layer,
                     uint32_t width, uint32_t height, BookDraws *out)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++) {
        const BookSpreadDetail *d = &spread->detail[k];
        if (d->layer == layer + 1 && d->full_width > 0.0f) {
            push->frame.v[0] = k == 0 ? d->full_width : -d->full_width;
            push->frame.v[1] = d->x, push->frame.v[2] = d->y;
        }
    }
    if (spread->turning || spread->fading) /* a fade's pages: drawn in detail once it lands */
        return;
    mat4 view_proj;
    memcpy(view_proj, push->view_proj.m, sizeof view_proj);
    BookSide at = {side, layer, INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < 4; i++) { /* the unit quad's corners */
        vec4 corner = {i & 1 ? 1.0f : 0.0f, i & 2 ? 1.0f : 0.0f, 0.0f, 1.0f}, clip;
        glm_mat4_mulv(view_proj, corner, clip);
        float x = 0.5f * (clip[0] / clip[3] + 1.0f) * (float)width;
        float y = 0.5f * (clip[1] / clip[3] + 1.0f) * (float)height;
        at.x0 = fminf(at.x0, x), at.x1 = fmaxf(at.x1, x);
        at.y0 = fminf(at.y0, y), at.y1 = fmaxf(at.y1, y);
    }
    /* a pan drawn on whole pixels moves on: its detail is asked for where it rests, by the
     * frame that draws it exactly (asked for here, it was drawn a fraction of a pixel off); so
     * is a zoom's ease's, at the scale it ends at (its frames are scaled pictures, which a new
     * detail would have drawn anew) */
    if (at.x1 > at.x0 && at.y1 > at.y0 && !spread->zoom.panning && !spread->zoom.scaling)
        out->sides[out->side_count++] = at;
}

/* A hard cover's board's PC_FRAME_* flags, for leaf `leaf` (the first or the last): cloth where
 * the book has no cover print (the built-in book), else that print is the board's outside; the
 * last leaf's outside is its back. */
static int board_flags(const BookSpread *spread, int leaf)
{
    return PC_FRAME_BOARD | (spread->cover_print ? 0 : PC_FRAME_CLOTH) |
           (leaf != 0 ? PC_FRAME_BOARD_BACK : 0);
}

/* The block of `leaves` leaves under the flat page on the side sx (+1 right, -1 left): its top
 * is that page, so it lies wholly under the turning leaf's plane and never pokes through it. */
static PcDrawPush block(const PcDrawPush *base, float sx, int leaves, float w, float h,
                        bool spine_edge, float mirror)
{
    float depth = (float)leaves * BOOK_STACK_STEP * w;
    mat4 model = GLM_MAT4_IDENTITY_INIT;
    glm_translate(model, (vec3){0.0f, 0.0f, -BOOK_STACK_STEP * w});
    glm_scale(model, (vec3){sx * w, h, depth});
    PcDrawPush push = placed(base, model, false, spine_edge, mirror);
    push.page.v[2] = (float)leaves;
    push.page.v[3] = (float)PC_DRAW_EDGE;
    return push;
}

/* The turning leaf's draw in `pose`. A backward turn's curl is in the leaf's mirrored frame,
 * whose +z side is its back. Its spine is an edge of the book where no page lies on the side it
 * turns to. */
static PcDrawPush leaf_push(const BookSpread *spread, const CurlParams *pose,
                            const PcDrawPush *base, bool spine_edge, float mirror)
{
    float sx = spread->backward ? -1.0f : 1.0f;
    mat4 model = GLM_MAT4_IDENTITY_INIT;
    glm_scale(model, (vec3){sx, 1.0f, 1.0f});
    PcDrawPush push = printed(placed(base, model, spread->backward, spine_edge, mirror), spread,
                              spread->turning_leaf, spread->turning_layer, PC_DRAW_LEAF);
    mesh_curl_apex(pose, push.frame.v);
    return push;
}

/* A hard cover's board, turned by `angle` about the spine: the leaf's mesh drawn
 * twice, half the board's thickness out along its normal each way (the face seen is the nearer
 * one's), and the block of one leaf between them as its cut edges. Lighting and the shadow take
 * the mid-plane: the board is too thin for the difference to show. */
static void board_draws(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                        const GpuRenderer *renderer, const PcDrawPush *base, bool spine_edge,
                        float mirror, BookDraws *out)
{
    float w = leaf->grid.width, h = leaf->grid.height, t = BOOK_BOARD * w;
    float angle = pose->shape.v[3];
    float sx = (spread->backward ? -1.0f : 1.0f) * mirror;
    mat4 view_proj, flip = GLM_MAT4_IDENTITY_INIT;
    memcpy(view_proj, base->view_proj.m, sizeof view_proj);
    glm_scale(flip, (vec3){sx, 1.0f, 1.0f});
    /* the board's normal in the world: its rest normal turned over the spine, then placed */
    vec3 normal = {sx * -sinf(angle), 0.0f, cosf(angle)};
    for (int side = -1; side <= 1; side += 2) {
        mat4 shift = GLM_MAT4_IDENTITY_INIT;
        glm_translate(shift,
                      (vec3){normal[0] * side * 0.5f * t, 0.0f, normal[2] * side * 0.5f * t});
        PcDrawPush moved = *base;
        mat4 product;
        glm_mat4_mul(view_proj, shift, product);
        memcpy(moved.view_proj.m, product, sizeof moved.view_proj.m);
        PcDrawPush push = leaf_push(spread, pose, &moved, spine_edge, mirror);
        push.frame.v[3] += (float)(board_flags(spread, spread->turning_leaf) |
                                   (side < 0 ? PC_FRAME_BOARD_BOTTOM : 0));
        out->draws[out->count++] = gpu_renderer_leaf(&leaf->gpu, &push);
    }
    /* the edges: the unit block (x 0..1, y 0..1, z -1..0) as thick as the board, centred on its
     * mid-plane, turned with it */
    mat4 model = GLM_MAT4_IDENTITY_INIT, product;
    glm_mat4_mul(model, flip, model);
    glm_rotate_y(model, -angle, model);
    glm_translate(model, (vec3){0.0f, 0.0f, 0.5f * t});
    glm_scale(model, (vec3){w, h, t});
    glm_mat4_mul(view_proj, model, product);
    PcDrawPush push = *base;
    memcpy(push.view_proj.m, product, sizeof push.view_proj.m);
    int flags = board_flags(spread, spread->turning_leaf);
    push.frame = (pc_vec4){{0.0f, 0.0f, 0.0f,
                            (float)(flags | (spine_edge ? PC_FRAME_SPINE_EDGE : 0) |
                                    (mirror < 0.0f ? PC_FRAME_MIRRORED : 0))}};
    push.model = (pc_vec4){{sx * w, h, t, 0.0f}};
    /* the content layer of its outside, whose print wraps round its edges */
    int front = spread->placed ? spread->turning_layer : 2 * spread->turning_leaf;
    push.page.v[2] = (float)(front + ((flags & PC_FRAME_BOARD_BACK) ? 1 : 0));
    push.page.v[3] = (float)PC_DRAW_EDGE;
    out->draws[out->count++] = gpu_renderer_block(renderer, &push);
}

/* The spread's draws with the camera's `base` push, appended to out; `at` gets the flat left and
 * right pages' indices in it (-1: none drawn). */
static void spread_draws(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                         const BookLayout *layout, const GpuRenderer *renderer,
                         const PcDrawPush *camera_push, uint32_t width, uint32_t height,
                         BookDraws *out, int at[2])
{
    float w = leaf->grid.width, h = leaf->grid.height;
    PcDrawPush base = *camera_push;
    float m = mirror(layout);
    at[0] = at[1] = -1;
    /* The one-page layout at rest on a page leaves the other out (the window's margin shows the
     * backdrop there, not a sliver of it); while its view slides or goes with a leaf, both. */
    bool one = book_one_page(layout, width, height);
    bool left = spread->left && !(one && layout->left_page <= 0.0f);
    bool right_page = spread->right && !(one && layout->left_page >= 1.0f);
    /* A spine with no page beyond it is an edge of the book: the leaf's towards the side it
     * turns to (a backward turn's leaf comes from the left), a flat page's or block's towards the
     * other side. */
    bool leaf_spine = spread->backward ? !right_page : !left;
    /* The turning leaf first: where it covers the flat pages, the depth test then rejects them
     * before their shader (texture, shadow filter) runs. Without blending the order changes no
     * pixel. */
    if (spread->turning && board(layout, spread->left, spread->right))
        board_draws(spread, pose, leaf, renderer, &base, leaf_spine, m, out);
    else if (spread->turning) {
        PcDrawPush push = leaf_push(spread, pose, &base, leaf_spine, m);
        GpuDraw *d = &out->draws[out->count++];
        *d = gpu_renderer_leaf(&leaf->gpu, &push);
        if (gpu_renderer_wants_bounds(renderer)) {
            d->bounded = true;
            mesh_curl_bounds(pose, w, h, d->lo, d->hi);
        }
    }
    /* A hard cover's boards lying flat: the first leaf and the last, on either side (the inside
     * of a cover is its endpaper, pasted on the board); closed at its end, the book shows the
     * back cover on the left whatever its leaf count. */
    int last = (spread->leaves ? spread->leaves : BOOK_LEAVES) - 1;
    bool hard = layout->hard_cover;
    bool left_board = hard && spread->left &&
                      (spread->left_leaf == 0 || spread->left_leaf == last ||
                       (!spread->right && !spread->turning));
    bool right_board =
        hard && spread->right && (spread->right_leaf == 0 || spread->right_leaf == last);
    if (left) { /* the leaf before, turned over about the spine: its back faces up */
        mat4 model = GLM_MAT4_IDENTITY_INIT;
        glm_translate(model, (vec3){0.0f, 0.0f, -BOOK_STACK_STEP * w});
        glm_scale(model, (vec3){-w, h, -1.0f});
        /* under the turning leaf: receives its shadow */
        PcDrawPush push = printed(placed(&base, model, false, !right_page, m), spread,
                                  spread->left_leaf, spread->left_layer, PC_DRAW_FLAT);
        if (left_board)
            push.frame.v[3] += (float)board_flags(spread, spread->left_leaf);
        else /* its back */
            detailed(&push, spread, 2 * spread->left_leaf + 1, (int)push.page.v[2] + 1, width,
                     height, out);
        at[0] = (int)out->count;
        out->draws[out->count++] = gpu_renderer_quad(renderer, &push);
    }
    if (right_page) {
        mat4 model = GLM_MAT4_IDENTITY_INIT;
        glm_translate(model, (vec3){0.0f, 0.0f, -BOOK_STACK_STEP * w});
        glm_scale(model, (vec3){w, h, 1.0f});
        PcDrawPush push = printed(placed(&base, model, false, !left, m), spread, spread->right_leaf,
                                  spread->right_layer, PC_DRAW_FLAT);
        if (right_board)
            push.frame.v[3] += (float)board_flags(spread, spread->right_leaf);
        else
            detailed(&push, spread, 2 * spread->right_leaf, (int)push.page.v[2], width, height,
                     out);
        at[1] = (int)out->count;
        out->draws[out->count++] = gpu_renderer_quad(renderer, &push);
    }
    /* The blocks last: the pages above hide most of their faces from the depth test. The left
     * holds leaves 0 .. left_leaf, the right right_leaf .. the last and the blank ones. */
    int left_leaves = spread->left ? spread->left_leaf + 1 : 0;
    int right = spread->right ? (spread->leaves ? spread->leaves : BOOK_LEAVES) -
                                    spread->right_leaf + BOOK_BLOCK_LEAVES
                              : 0;
    int all = left_leaves + right, most = stack_leaves(spread->leaves);
    if (all > most) { /* a long book: its blocks as deep as stack_leaves says, shared */
        int scaled = (int)lrintf((float)left_leaves * (float)most / (float)all);
        left_leaves = left_leaves ? (scaled < 1 ? 1 : scaled) : 0;
        right = most - left_leaves > 1 ? most - left_leaves : 1;
    }
    /* With a hard cover, a block's faces show the boards' thickness: the board that lies on it
     * at its top (its print's layer in frame.x, where it has one), and in cloth the front board
     * at the bottom of the left block (turned first) and the back board at the bottom of the right
     * (a printed cover's print is not loaded there). */
    bool cloth = hard && !spread->cover_print;
    if (left) {
        PcDrawPush push = block(&base, -1.0f, left_leaves, w, h, !right_page, m);
        push.frame.v[3] += (float)(cloth ? PC_FRAME_CLOTH | PC_FRAME_BOARD_BOTTOM : 0);
        if (left_board && spread->left_leaf != 0) { /* the back cover, its outside up */
            push.frame.v[3] += (float)(PC_FRAME_BOARD_TOP | PC_FRAME_BOARD_BACK);
            push.frame.v[0] =
                (float)((spread->placed ? spread->left_layer : 2 * spread->left_leaf) + 1);
        }
        out->draws[out->count++] = gpu_renderer_block(renderer, &push);
    }
    if (right_page) {
        PcDrawPush push = block(&base, 1.0f, right, w, h, !left, m);
        push.frame.v[3] += (float)(cloth ? PC_FRAME_CLOTH | PC_FRAME_BOARD_BOTTOM : 0);
        if (right_board && spread->right_leaf == 0) { /* the front cover */
            push.frame.v[3] += (float)PC_FRAME_BOARD_TOP;
            push.frame.v[0] = (float)(spread->placed ? spread->right_layer : 0);
        }
        out->draws[out->count++] = gpu_renderer_block(renderer, &push);
    }
}

/* A flat spread of the cross-fade's leaves: `turned` the one with the turning leaf's back on
 * the left (over the left block's leaves and its right_leaf), else the one with its front on the
 * right. */
static BookSpread fade_end(const BookSpread *spread, bool turned)
{
    BookSpread s = *spread; /* still `fading`: not at rest (detailed) */
    s.turning = s.backward = false;
    s.progress = 0.0f;
    if (turned)
        s.left = true, s.left_leaf = spread->turning_leaf, s.left_layer = spread->turning_layer;
    else
        s.right = true, s.right_leaf = spread->turning_leaf, s.right_layer = spread->turning_layer;
    return s;
}

void book_draws(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                const BookLayout *layout, const GpuRenderer *renderer, uint32_t width,
                uint32_t height, BookDraws *out)
{
    BookCameraBook camera = book_camera(spread, pose, leaf, layout, width, height);
    PcDrawPush base = book_camera_draw_push(width, height, &camera);
    out->count = 0;
    out->side_count = 0;
    int to_at[2], from_at[2];
    if (!spread->fading) {
        spread_draws(spread, pose, leaf, layout, renderer, &base, width, height, out, to_at);
        for (uint32_t i = 0; i < out->count; i++)
            out->draws[i].moving = spread->zoom.panning || spread->zoom.scaling;
        return;
    }
    /* The spread the turn leads to, whole, then the pages of the one it leaves over it: each
     * side shows f of the one and 1 - f of the other, or of the backdrop where only one has a
     * page there. The blocks are the new spread's: a leaf's depth changes sides, under a pixel. */
    float f = fminf(fmaxf(spread->fade, 0.0f), 1.0f);
    BookSpread to = fade_end(spread, !spread->backward), from = fade_end(spread, spread->backward);
    spread_draws(&to, pose, leaf, layout, renderer, &base, width, height, out, to_at);
    BookDraws old;
    old.count = old.side_count = 0;
    spread_draws(&from, pose, leaf, layout, renderer, &base, width, height, &old, from_at);
    for (int side = 0; side < 2; side++) {
        if (to_at[side] >= 0 && from_at[side] < 0) {
            out->draws[to_at[side]].faded = true; /* fades in over the backdrop */
            out->draws[to_at[side]].alpha = f;
        }
        if (from_at[side] >= 0) {
            GpuDraw d = old.draws[from_at[side]];
            d.faded = true, d.alpha = 1.0f - f;
            out->draws[out->count++] = d;
        }
    }
}

void book_pose_radius(CurlParams *pose, float radius, const BookLeaf *leaf)
{
    if (pose->shape.v[0] <= 0.0f)
        return;
    float r = radius * leaf->grid.width;
    pose->shape.v[2] *= r / pose->shape.v[0]; /* the ramp scales with the radius */
    pose->shape.v[0] = r;
}
