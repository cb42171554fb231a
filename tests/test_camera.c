/* The camera's framing (book/camera.c through book/book.c's app_book_camera): for many window
 * shapes, both layouts, both bindings, paper and hard covers and every kind of spread, the turning
 * leaf's mesh sampled over whole turns projects inside the viewport; the still pages fill it; the
 * framing of a closed book widens to the spread without a jump as the first leaf turns. */
#include "book/book.h"
#include "book/camera.h"
#include "check.h"
#include "mesh/curl.h"
#include "mesh/flip.h"
#include "mesh/grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* How far past the viewport's edge (NDC) a vertex may project: rounding only. */
#define EDGE_SLACK 1e-3
/* The still spread (or one page, or a closed book's page) fills at least this much of the
 * window's limiting dimension: the rest is where a leaf can reach beyond the pages (past the head
 * and the foot next to the spine, above them as it turns). */
#define FILL_MIN 0.62
/* Vertices sampled on the leaf: a grid finer than any feature of the curl's silhouette. */
#define NX 16
/* Grab heights swept, in quarters of the edge: every one, or under the sanitizers (where each
 * pose costs ten times as much and CI's time is bounded) every other one. */
#ifdef PAGECURL_SANITIZED
#define GRAB_STEP 2
#else
#define GRAB_STEP 1
#endif
#define NY 22

typedef struct Sizes {
    uint32_t w, h;
} Sizes;

static const Sizes sizes[] = {{640, 480}, {1280, 720}, {320, 200},   {3840, 1080},
                              {480, 800}, {200, 1000}, {1080, 1920}, {2000, 300}};

/* The kinds of spread a leaf turns in (left-bound; `page.desc.rtl` mirrors them). */
static const AppSpread kinds[] = {
    {.right = true, .turning = true},                                 /* opening the book */
    {.right = true, .turning = true, .backward = true},               /* closing it again */
    {.left = true, .right = true, .turning = true},                   /* the middle */
    {.left = true, .right = true, .turning = true, .backward = true}, /* the middle, back */
    {.left = true, .turning = true},                                  /* closing at the end */
    {.left = true, .turning = true, .backward = true},                /* opening at the end */
};
static const char *const kind_names[] = {"open front",  "close front", "middle",
                                         "middle back", "close back",  "open back"};

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

typedef struct Tally {
    long vertices, outside, checked;
    double worst; /* largest |NDC| */
    char where[160];
} Tally;

/* Every sampled vertex of the leaf in `pose` (the board's two faces for a hard cover) inside the
 * view; in the one-page layout only those over the page shown. */
static void leaf_in_view(const PcDrawPush *push, const CurlParams *pose, const AppSpread *spread,
                         const AppPage *page, int single, double board, Tally *t, const char *what)
{
    double w = page->grid.width, h = page->grid.height;
    double m = (spread->backward ? -1.0 : 1.0) * (page->desc.rtl ? -1.0 : 1.0);
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i <= NX; i++) {
            double pos[3], n[3];
            mesh_curl_point(pose, w * i / NX, h * j / NY, pos, n);
            for (int side = -1; side <= 1; side += 2) {
                double p[3] = {m * (pos[0] + side * 0.5 * board * n[0]),
                               pos[1] + side * 0.5 * board * n[1],
                               pos[2] + side * 0.5 * board * n[2]};
                if (single && p[0] * single < 0.0)
                    continue; /* past the spine: the one-page layout lets it go */
                double q[2];
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
            }
        }
}

/* The share of the window's limiting dimension the pages of `camera`'s span fill, flat. */
static double fill(const PcDrawPush *push, const AppCameraBook *camera)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int c = 0; c < 4; c++) {
        double p[3] = {(c & 1 ? camera->hi : camera->lo) * camera->width,
                       c & 2 ? camera->height : 0.0, 0.0},
               q[2];
        if (!ndc(push, p, q))
            return 0.0;
        for (int k = 0; k < 2; k++)
            lo[k] = fmin(lo[k], q[k]), hi[k] = fmax(hi[k], q[k]);
    }
    return fmax(hi[0] - lo[0], hi[1] - lo[1]) / 2.0;
}

/* Largest difference between two matrices' entries. */
static double matrix_gap(const PcDrawPush *a, const PcDrawPush *b)
{
    double gap = 0.0;
    for (int i = 0; i < 16; i++)
        gap = fmax(gap, fabs((double)a->view_proj.m[i] - (double)b->view_proj.m[i]));
    return gap;
}

/* The farthest a page corner moves on screen (NDC) between the two views. */
static double corner_step(const PcDrawPush *a, const PcDrawPush *b, double w, double h)
{
    double step = 0.0;
    for (int c = 0; c < 6; c++) {
        double p[3] = {w * (c % 3 - 1), c / 3 ? h : 0.0, 0.0}, qa[2], qb[2];
        if (ndc(a, p, qa) && ndc(b, p, qb))
            step = fmax(step, hypot(qa[0] - qb[0], qa[1] - qb[1]));
    }
    return step;
}

/* Pixel of world point p in a vw x vh view (pixel centres at +0.5, as app_camera_ray reads). */
static bool pixel(const PcDrawPush *push, const double p[3], uint32_t vw, uint32_t vh, double *px,
                  double *py)
{
    double q[2];
    if (!ndc(push, p, q))
        return false;
    *px = (q[0] + 1.0) * 0.5 * vw - 0.5, *py = (q[1] + 1.0) * 0.5 * vh - 0.5;
    return true;
}

/* A drag on a closed book, whose view widens as the leaf turns: after each move the grabbed
 * point, posed and drawn with the camera of the book's new state, lies under the pointer. */
static void drag_on_closed_book(CheckState *s)
{
    const uint32_t vw = 1280, vh = 720;
    AppPage page = {.grid = {.width = MESH_PAGE_WIDTH, .height = MESH_PAGE_HEIGHT},
                    .desc = {.layout = 1}};
    MeshFlip flip;
    app_book_init(&flip, &page, APP_BOOK_PAGES, 0);
    /* press the page near its bottom-right corner, where the still book shows it */
    MeshFlipView view = mesh_flip_view(&flip);
    AppSpread spread = app_book_spread(&view);
    AppCameraBook camera = app_book_camera(&spread, &page, vw, vh);
    PcDrawPush push = app_camera_draw_push(vw, vh, &camera);
    double corner[3] = {0.9 * page.grid.width, 0.1 * page.grid.height, 0.0}, cx = 0.0, cy = 0.0;
    CHECK(s, pixel(&push, corner, vw, vh, &cx, &cy), "the closed book's corner is not in view");
    AppTraceEvent e = {.device = APP_TRACE_MOUSE, .action = APP_TRACE_DOWN};
    e.x = (float)(cx / vw), e.y = (float)(cy / vh);
    app_book_input(&flip, NULL, &e, vw, vh, &page);
    double worst = 0.0, widest = 0.0;
    int moves = 0;
    for (int i = 1; i <= 10; i++) {
        /* towards the spine and a little up, past it, within the grab's reach */
        double px = cx - 40.0 * i, py = cy - 6.0 * i;
        e = (AppTraceEvent){.time = 0.02 * i, .device = APP_TRACE_MOUSE, .action = APP_TRACE_MOVE};
        e.x = (float)(px / vw), e.y = (float)(py / vh);
        app_book_input(&flip, NULL, &e, vw, vh, &page);
        view = mesh_flip_view(&flip);
        if (!view.turning)
            continue;
        spread = app_book_spread(&view);
        camera = app_book_camera(&spread, &page, vw, vh);
        push = app_camera_draw_push(vw, vh, &camera);
        CurlParams pose = app_book_pose(&view, &page);
        double held[3], n[3], hx, hy;
        mesh_curl_point(&pose, view.grab[0], view.grab[1], held, n);
        if (!pixel(&push, held, vw, vh, &hx, &hy))
            continue;
        moves++;
        worst = fmax(worst, hypot(hx - px, hy - py));
        widest = fmax(widest, -camera.lo);
    }
    printf("camera: a drag on the closed book: %d moves held, the grabbed point at most %.3f px "
           "from the pointer, the view widened to %.2f page widths left of the spine\n",
           moves, worst, widest);
    CHECK(s, moves >= 8 && widest > 0.5, "vacuous drag: %d moves, widened to %g", moves, widest);
    CHECK(s, worst <= 0.5, "the grabbed point shows %g px from the pointer", worst);
}

int main(void)
{
    CheckState s = {0};
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    double min_fill = INFINITY, max_step = 0.0, worst = 0.0;
    long vertices = 0;
    char step_where[96] = "";
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int variant = 0; variant < 8; variant++) {
            AppPage page = {.grid = {.width = W, .height = H},
                            .desc = {.layout = variant & 1 ? 2 : 1,
                                     .rtl = variant & 2,
                                     .hard_cover = variant & 4}};
            uint32_t vw = sizes[z].w, vh = sizes[z].h;
            int single = variant & 1 ? (page.desc.rtl ? -1 : 1) : 0;
            char what[96];
            for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
                AppSpread spread = kinds[k];
                Tally t = {0};
                PcDrawPush prev = {0};
                for (int step = 0; step <= 40; step++) {
                    spread.progress = (float)step / 40.0f;
                    AppCameraBook camera = app_book_camera(&spread, &page, vw, vh);
                    PcDrawPush push = app_camera_draw_push(vw, vh, &camera);
                    bool board = page.desc.hard_cover && (!spread.left || !spread.right);
                    for (int g = 0; g <= 4; g += board ? 4 : GRAB_STEP) {
                        CurlParams pose =
                            app_book_turn_pose(&spread, spread.progress, 0.25f * g, &page);
                        snprintf(what, sizeof what, "%ux%u %s%s%s %s, t %.2f g %.2f", vw, vh,
                                 single ? "single" : "spread", page.desc.rtl ? " rtl" : "",
                                 board ? " hard" : "", kind_names[k], (double)spread.progress,
                                 0.25 * g);
                        leaf_in_view(&push, &pose, &spread, &page, single,
                                     board ? APP_BOOK_BOARD * W : 0.0, &t, what);
                    }
                    if (step && corner_step(&prev, &push, W, H) > max_step) {
                        max_step = corner_step(&prev, &push, W, H);
                        snprintf(step_where, sizeof step_where, "%s", what);
                    }
                    prev = push;
                }
                CHECK(&s, t.outside == 0, "%ld of %ld leaf vertices outside the view; first: %s",
                      t.outside, t.vertices, t.where);
                vertices += t.vertices;
                worst = fmax(worst, t.worst);
                /* the still book before and after the turn: the same camera as its ends */
                AppSpread before = kinds[k], after = kinds[k];
                before.turning = after.turning = false;
                /* the leaf lies on the right before a forward turn and on the left after it */
                if (kinds[k].backward)
                    before.left = after.right = true;
                else
                    before.right = after.left = true;
                spread.progress = 0.0f;
                AppCameraBook c0 = app_book_camera(&spread, &page, vw, vh),
                              still0 = app_book_camera(&before, &page, vw, vh);
                spread.progress = 1.0f;
                AppCameraBook c1 = app_book_camera(&spread, &page, vw, vh),
                              still1 = app_book_camera(&after, &page, vw, vh);
                PcDrawPush p0 = app_camera_draw_push(vw, vh, &c0),
                           s0 = app_camera_draw_push(vw, vh, &still0),
                           p1 = app_camera_draw_push(vw, vh, &c1),
                           s1 = app_camera_draw_push(vw, vh, &still1);
                CHECK(&s, matrix_gap(&p0, &s0) < 1e-5 && matrix_gap(&p1, &s1) < 1e-5,
                      "%ux%u variant %d %s: the view jumps as the turn starts (%g) or ends (%g)",
                      vw, vh, variant, kind_names[k], matrix_gap(&p0, &s0), matrix_gap(&p1, &s1));
                /* the still book fills the window */
                double f = fill(&s0, &still0);
                if (getenv("CAMERA_FILL"))
                    printf("%ux%u variant %d %s: fill %.1f %%\n", vw, vh, variant, kind_names[k],
                           100.0 * f);
                min_fill = fmin(min_fill, f);
                CHECK(&s, f >= FILL_MIN, "%ux%u variant %d %s: the still pages fill %.1f %%", vw,
                      vh, variant, kind_names[k], 100.0 * f);
            }
        }
    /* between frames 1/40 of a turn apart the pages glide: no corner jumps across the view */
    CHECK(&s, max_step < 0.3, "a page corner moved %.3f (NDC) in 1/40 of a turn: %s", max_step,
          step_where);
    CHECK(&s, vertices > 1000000, "vacuous: %ld vertices", vertices);
    drag_on_closed_book(&s);
    printf("camera: %ld leaf vertices checked, farthest at |NDC| %.4f; still pages fill >= %.1f %% "
           "of the limiting dimension; largest corner step per 1/40 turn %.3f NDC\n",
           vertices, worst, 100.0 * min_fill, max_step);
    return check_finish(&s, "camera");
}
