/* SPDX-License-Identifier: MIT */
/* Zoom and pan (book/zoom.c through book/book.c's book_apply_input and the camera), with no GPU:
 * - a replayed Ctrl+wheel trace: each notch in keeps the book's point under the pointer within
 *   0.5 px (measured through book_camera_unproject and the camera's projection), the zoom stops
 *   at 8x, and notches out come back through the same points;
 * - a pinch, made from SDL finger events by the window's own input code where it is built
 *   (app/window_input.c), else from the events it records: the book's point that lay between the
 *   fingers stays between them within 0.5 px as they spread and move;
 * - pan limits: pushed every way at zooms 1.2x..8x, in three layouts and window shapes, the pages
 *   cover the view along an axis where they are larger than it and are centred (within 0.5 px)
 *   where smaller;
 * - a flick's inertia: the same drag sampled at 30, 60 and 144 Hz coasts to the same place, slows,
 *   stops, and stays within the limits; stopped, it is where it rests (a frame drawn at the stop
 *   and one drawn later show the same);
 * - zoomed in, a press mid-page pans and turns nothing; a press on the page's outer edge turns it;
 *   at 1x a mid-page press takes the page as without zoom; a key turn from 3x eases the view back
 *   to fit over BOOK_ZOOM_EASE with no jump (its first frame is the one before, each frame's step
 *   bounded), ending exactly at the fitted view (here, with no frame's settle: the library's
 *   frames then bring the zoom back, zoom_kept);
 * - fit to width (W) at six places and after a resize, scrolling down a page, on to the spread's
 *   other page, past the foot a turn and the next page's head at the same fit, back to the foot
 *   of the page before; `+` with no pointer about the page's centre; a key turn from 3x and from
 *   the fit to width comes back to it once at rest, with no jump; the trace's new forms;
 * - X's input times on the session's clock (app/window_input.c), where SDL's stamps would put a
 *   slow frame's input at one instant; a flick read in one slow frame hands the book several of
 *   its moves, not only the newest. */
#include "app/trace.h"
#include "book/book.h"
#include "book/camera.h"
#include "book/zoom.h"
#include "check.h"
#include "mesh/flip.h"
#include "mesh/grid.h"

#ifdef PAGECURL_HAVE_SDL
#include "app/window_input.h"
#endif

#include <cglm/cglm.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXED_PX 0.5

typedef struct Book {
    BookLeaf leaf;
    BookLayout layout;
    MeshFlip flip;
    BookZoom zoom;
    uint32_t w, h;
} Book;

static void book_open(Book *b, int layout, uint32_t w, uint32_t h, int spread)
{
    *b = (Book){.leaf = {.grid = {.width = MESH_PAGE_WIDTH, .height = MESH_PAGE_HEIGHT}},
                .layout = {.layout = layout},
                .w = w,
                .h = h};
    book_init_reader(&b->flip, &b->leaf, 16, spread, false);
    book_zoom_init(&b->zoom);
}

/* The camera the window draws with at `time`. */
static BookCameraBook camera_at(const Book *b, double time)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    BookSpread spread = book_spread(&view);
    spread.zoom = book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->w, b->h, time);
    CurlParams pose = book_pose(&view, &b->leaf, &b->layout);
    return book_camera(&spread, &pose, &b->leaf, &b->layout, b->w, b->h);
}

/* Where the book's point (x, y, 0) shows, in pixels (centres at +0.5, as book_camera_ray). */
static void project(const BookCameraBook *c, uint32_t w, uint32_t h, float x, float y, double *px,
                    double *py)
{
    PcDrawPush push = book_camera_draw_push(w, h, c);
    mat4 m;
    memcpy(m, push.view_proj.m, sizeof m);
    vec4 p = {x, y, 0.0f, 1.0f}, clip;
    glm_mat4_mulv(m, p, clip);
    *px = 0.5 * ((double)clip[0] / clip[3] + 1.0) * w - 0.5;
    *py = 0.5 * ((double)clip[1] / clip[3] + 1.0) * h - 0.5;
}

/* A trace's event (the window's input, app/trace.h) as the book's own input: the same fields, the
 * devices and actions in one order. */
_Static_assert((int)PAGECURL_INPUT_ZOOM == (int)BOOK_INPUT_ZOOM &&
                   (int)PAGECURL_INPUT_GOTO == (int)BOOK_INPUT_GOTO &&
                   (int)PAGECURL_INPUT_SCROLL == (int)BOOK_INPUT_SCROLL,
               "a trace's devices and actions are the book's input's");
static BookInput book_input(const pagecurl_input_event *e)
{
    return (BookInput){.time = e->time,
                       .device = (BookInputDevice)e->device,
                       .action = (BookInputAction)e->action,
                       .x = (float)e->x,
                       /* the book takes a scroll's view heights as its y */
                       .y = e->action == PAGECURL_INPUT_SCROLL ? e->amount : (float)e->y,
                       .pressure = e->pressure,
                       .scale = e->amount,
                       .page = e->page};
}

static void apply(Book *b, const pagecurl_input_event *e)
{
    mesh_flip_step(&b->flip, e->time);
    BookInput in = book_input(e);
    book_apply_input(&b->flip, &b->zoom, NULL, &in, b->w, b->h, &b->leaf, &b->layout);
}

/* A zoom event of the book's at `time`: `action` at (x, y) by `amount`. */
static void zoom_event(Book *b, double time, pagecurl_input_action action, double x, double y,
                       float amount)
{
    apply(b, &(pagecurl_input_event){.time = time,
                                     .device = PAGECURL_INPUT_ZOOM,
                                     .action = action,
                                     .x = x,
                                     .y = y,
                                     .amount = amount});
}

/* A zoom by `amount` about (x, y) (fractions of the view; NaN: the page's centre) at `time`. */
static void zoom_by(Book *b, double time, double x, double y, float amount)
{
    zoom_event(b, time, PAGECURL_INPUT_BY, x, y, amount);
}

static float scale_at(const Book *b, double time)
{
    float s = camera_at(b, time).zoom.scale;
    return s > 0.0f ? s : 1.0f;
}

/* How far the book's point under pixel (px, py) before event e shows from (qx, qy) after it. */
static double moved_by(Book *b, const pagecurl_input_event *e, float px, float py, float qx,
                       float qy)
{
    BookCameraBook before = camera_at(b, e->time);
    float x, y;
    if (!book_camera_unproject(b->w, b->h, &before, px, py, &x, &y))
        return INFINITY;
    apply(b, e);
    BookCameraBook after = camera_at(b, e->time);
    double ax, ay;
    project(&after, b->w, b->h, x, y, &ax, &ay);
    return hypot(ax - qx, ay - qy);
}

/* Ctrl+wheel, as the window records it: notches about the pointer. */
static void wheel(CheckState *s)
{
    static const char trace[] = "# Ctrl+wheel at four places\n"
                                "0.10 zoom by 1.5 0.5 0.5\n"
                                "0.20 zoom by 1.25 0.30 0.40\n"
                                "0.30 zoom by 1.25 0.30 0.40\n"
                                "0.40 zoom by 1.25 0.72 0.20\n"
                                "0.50 zoom by 1.25 0.72 0.20\n"
                                "0.60 zoom by 1.6 0.15 0.85\n"
                                "0.70 zoom by 1.25 0.55 0.60\n"
                                "0.80 zoom by 1.25 0.55 0.60\n"
                                "0.90 zoom by 1.25 0.55 0.60\n"
                                "1.00 zoom by 1.25 0.55 0.60\n"
                                "1.10 zoom by 0.8 0.55 0.60\n"
                                "1.20 zoom by 0.8 0.55 0.60\n";
    AppTrace t;
    char message[256];
    CHECK(s, app_trace_parse(trace, sizeof trace - 1, "wheel", &t, message, sizeof message), "%s",
          message);
    const uint32_t sizes[][2] = {{1280, 720}, {800, 1200}, {1920, 1080}};
    for (int k = 0; k < 3; k++) {
        Book b;
        book_open(&b, BOOK_LAYOUT_AUTO, sizes[k][0], sizes[k][1], 3);
        double worst = 0.0;
        for (size_t i = 0; i < t.count; i++) {
            const pagecurl_input_event *e = &t.events[i];
            float px = e->x * (float)b.w, py = e->y * (float)b.h;
            double d = moved_by(&b, e, px, py, px, py);
            /* the first notch from 1x: the pages, narrower than the view, are centred */
            if (i > 0)
                worst = fmax(worst, d);
            if (getenv("ZOOM_DEBUG"))
                printf("%ux%u event %zu: %.4f px\n", b.w, b.h, i, d);
        }
        CHECK(s, worst <= FIXED_PX,
              "%ux%u: a wheel notch moved the point under the pointer %.3f px", b.w, b.h, worst);
        CHECK(s, fabsf(scale_at(&b, 1.2) - BOOK_ZOOM_MAX * 0.64f) < 1e-3f,
              "%ux%u: zoomed to %.4f, not 8 (the most) then out twice", b.w, b.h,
              scale_at(&b, 1.2));
        if (k == 0)
            printf("wheel: the point under the pointer moved %.4f px at most\n", worst);
    }
    app_trace_free(&t);
}

/* The book's point under the fingers' centre at the start stays under their centre. */
static void pinch(CheckState *s)
{
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    zoom_by(&b, 0.05, 0.5f, 0.5f, 1.6f);
    /* two fingers spreading apart while their centre drifts */
    float ax = 0.40f, ay = 0.45f, bx = 0.52f, by = 0.55f;
    float cx = 0.5f * (ax + bx) * (float)b.w, cy = 0.5f * (ay + by) * (float)b.h;
    BookCameraBook start = camera_at(&b, 0.1);
    float x0, y0;
    CHECK(s, book_camera_unproject(b.w, b.h, &start, cx, cy, &x0, &y0), "unproject");
    double worst = 0.0;
    int events = 0;
#ifdef PAGECURL_HAVE_SDL
    AppSession session = {0};
    SDL_Event e = {.type = SDL_FINGERDOWN};
    e.tfinger.fingerId = 1, e.tfinger.x = ax, e.tfinger.y = ay, e.tfinger.pressure = 1.0f;
    pagecurl_input_event out[APP_SESSION_MAX_EVENTS];
    int n = app_session_trace_events(&e, NULL, &session, 0.1, out);
    CHECK(s, n == 1 && out[0].action == PAGECURL_INPUT_DOWN, "the first finger goes down: %d", n);
    for (int i = 0; i < n; i++)
        apply(&b, &out[i]);
    e.tfinger.fingerId = 2, e.tfinger.x = bx, e.tfinger.y = by;
    n = app_session_trace_events(&e, NULL, &session, 0.12, out);
    CHECK(s, n == 1 && out[0].action == PAGECURL_INPUT_UP, "a second finger lets the first go: %d",
          n);
    for (int i = 0; i < n; i++)
        apply(&b, &out[i]);
    CHECK(s, !mesh_flip_view_at(&b.flip, 0.12).turning, "the page is let go");
#endif
    for (int step = 1; step <= 30; step++) {
        double t = 0.12 + step / 60.0;
        /* the window measures spreads in pixels: the test's window is 1x1 points (no SDL
         * window), so each finger moves along a line through the centre, where the aspect
         * cannot change the ratio */
        float f = 1.0f + 0.05f * (float)step, dx = 0.002f * (float)step, dy = -0.001f * step;
        float mx = 0.46f + dx, my = 0.50f + dy;
        float nax = mx + (ax - 0.46f) * f, nay = my + (ay - 0.50f) * f;
        float nbx = mx + (bx - 0.46f) * f, nby = my + (by - 0.50f) * f;
#ifdef PAGECURL_HAVE_SDL
        for (int finger = 1; finger <= 2; finger++) {
            SDL_Event m = {.type = SDL_FINGERMOTION};
            m.tfinger.fingerId = finger;
            m.tfinger.x = finger == 1 ? nax : nbx, m.tfinger.y = finger == 1 ? nay : nby;
            n = app_session_trace_events(&m, NULL, &session, t, out);
            for (int i = 0; i < n; i++)
                apply(&b, &out[i]), events++;
        }
#else
        static float pax = 0.40f, pay = 0.45f, pbx = 0.52f, pby = 0.55f;
        float c0x = 0.5f * (pax + pbx), c0y = 0.5f * (pay + pby);
        float c1x = 0.5f * (nax + nbx), c1y = 0.5f * (nay + nby);
        float d0 = hypotf(pbx - pax, pby - pay), d1 = hypotf(nbx - nax, nby - nay);
        apply(&b, &(pagecurl_input_event){.time = t,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_PAN,
                                          .x = c1x - c0x,
                                          .y = c1y - c0y});
        zoom_by(&b, t, c1x, c1y, d1 / d0);
        pax = nax, pay = nay, pbx = nbx, pby = nby, events += 2;
#endif
        BookCameraBook now = camera_at(&b, t);
        double qx, qy;
        project(&now, b.w, b.h, x0, y0, &qx, &qy);
        /* a position x W is the pixel the camera's ray meets at its centre, as a pointer's */
        float ccx = 0.5f * (nax + nbx) * (float)b.w, ccy = 0.5f * (nay + nby) * (float)b.h;
        worst = fmax(worst, hypot(qx - ccx, qy - ccy));
    }
    CHECK(s, events >= 30, "the pinch made %d zoom events", events);
    CHECK(s, scale_at(&b, 1.0) > 1.6f * 2.0f, "the pinch zoomed to %.3f", scale_at(&b, 1.0));
    CHECK(s, worst <= FIXED_PX, "the point between the fingers moved %.3f px", worst);
    printf("pinch: the point between the fingers moved %.4f px at most (%d events)\n", worst,
           events);
}

/* The fitted pages' rectangle in pixels as the camera at `time` shows it. */
static void pages_px(const Book *b, double time, double r[4])
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    BookSpread spread = book_spread(&view);
    BookCameraBook c = camera_at(b, time);
    (void)spread;
    r[0] = r[1] = INFINITY, r[2] = r[3] = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double px, py;
        project(&c, b->w, b->h, (i & 1 ? c.hi : c.lo) * c.width, i & 2 ? c.height : 0.0f, &px, &py);
        r[0] = fmin(r[0], px + 0.5), r[2] = fmax(r[2], px + 0.5);
        r[1] = fmin(r[1], py + 0.5), r[3] = fmax(r[3], py + 0.5);
    }
}

static void pan_limits(CheckState *s)
{
    const struct {
        int layout, spread;
        uint32_t w, h;
    } cases[] = {{BOOK_LAYOUT_AUTO, 3, 1280, 720},
                 {BOOK_LAYOUT_SINGLE, 3, 1280, 720},
                 {BOOK_LAYOUT_AUTO, 0, 1920, 1080}, /* closed: one page */
                 {BOOK_LAYOUT_AUTO, 3, 720, 1280}};
    const float zooms[] = {1.2f, 1.5f, 2.5f, 4.0f, 8.0f};
    int checked = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t z = 0; z < sizeof zooms / sizeof zooms[0]; z++)
            for (int dir = 0; dir < 8; dir++) {
                Book b;
                book_open(&b, cases[c].layout, cases[c].w, cases[c].h, cases[c].spread);
                double t = 0.0;
                zoom_by(&b, t += 0.1, 0.3f, 0.6f, zooms[z]);
                float dx = cosf((float)dir * 0.785398f), dy = sinf((float)dir * 0.785398f);
                for (int k = 0; k < 6; k++) /* far further than any page reaches */
                    apply(&b, &(pagecurl_input_event){.time = t += 0.1,
                                                      .device = PAGECURL_INPUT_ZOOM,
                                                      .action = PAGECURL_INPUT_PAN,
                                                      .x = 1.5f * dx,
                                                      .y = 1.5f * dy});
                double r[4];
                pages_px(&b, t, r);
                double size[2] = {b.w, b.h};
                for (int axis = 0; axis < 2; axis++) {
                    double lo = r[axis], hi = r[axis + 2];
                    if (hi - lo >= size[axis] - 1e-3)
                        CHECK(s, lo <= 0.5 && hi >= size[axis] - 0.5,
                              "case %zu zoom %.1f dir %d axis %d: pages %.2f..%.2f leave the view "
                              "0..%.0f",
                              c, zooms[z], dir, axis, lo, hi, size[axis]);
                    else
                        CHECK(s, fabs(0.5 * (lo + hi) - 0.5 * size[axis]) <= 0.5,
                              "case %zu zoom %.1f dir %d axis %d: pages %.2f..%.2f not centred", c,
                              zooms[z], dir, axis, lo, hi);
                    checked++;
                }
            }
    printf("pan limits: %d axes pushed to their limit\n", checked);
}

/* A drag that pans, sampled at `hz`, let go moving: where the picture is `after` seconds on; and
 * in `rest_gap` how far the picture seen at the first millisecond the flick has stopped is from
 * the one seen 2 s later (0: it rests where it stops, whenever a frame shows it). */
static void flick(int hz, double after, float *x, float *y, bool *still, float *rest_gap)
{
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    zoom_by(&b, 0.0, 0.5f, 0.5f, 6.0f);
    double t0 = 0.1, length = 0.2;
    apply(&b, &(pagecurl_input_event){
                  .time = t0, .device = PAGECURL_INPUT_MOUSE, .x = 0.5f, .y = 0.5f});
    int n = (int)floor(length * hz - 1e-9); /* the last move before the up */
    for (int i = 1; i <= n; i++) {          /* 0.6 of the view a second, steadily */
        double t = t0 + (double)i / hz;
        apply(&b, &(pagecurl_input_event){.time = t,
                                          .device = PAGECURL_INPUT_MOUSE,
                                          .action = PAGECURL_INPUT_MOVE,
                                          .x = 0.5f - 0.6f * (float)(t - t0),
                                          .y = 0.5f - 0.3f * (float)(t - t0)});
    }
    double up = t0 + length;
    apply(&b, &(pagecurl_input_event){.time = up,
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = PAGECURL_INPUT_UP,
                                      .x = 0.5f - 0.6f * (float)length,
                                      .y = 0.5f - 0.3f * (float)length});
    BookZoomView v = camera_at(&b, up + after).zoom;
    *x = v.x, *y = v.y;
    *still = !book_zoom_moving(&b.zoom, up + after) && !mesh_flip_view_at(&b.flip, up).turning;
    double stop = up;
    while (book_zoom_moving(&b.zoom, stop) && stop < up + 10.0)
        stop += 0.001;
    BookZoomView first = camera_at(&b, stop).zoom, later = camera_at(&b, stop + 2.0).zoom;
    *rest_gap = fmaxf(fabsf(first.x - later.x), fabsf(first.y - later.y));
}

static void inertia(CheckState *s)
{
    float x[3][3], y[3][3], gap[3][3];
    bool still[3][3];
    const int rates[] = {30, 60, 144};
    const double afters[] = {0.0, 0.15, 3.0};
    for (int r = 0; r < 3; r++)
        for (int a = 0; a < 3; a++)
            flick(rates[r], afters[a], &x[r][a], &y[r][a], &still[r][a], &gap[r][a]);
    for (int r = 1; r < 3; r++)
        for (int a = 0; a < 3; a++)
            CHECK(s, fabsf(x[r][a] - x[0][a]) < 2e-4f && fabsf(y[r][a] - y[0][a]) < 2e-4f,
                  "a flick at %d Hz is at %.5f,%.5f after %.2f s; at 30 Hz %.5f,%.5f", rates[r],
                  x[r][a], y[r][a], afters[a], x[0][a], y[0][a]);
    /* it coasts on (the drag went left and up: the picture follows), slows, and stops */
    float d1 = x[1][1] - x[1][0], d2 = x[1][2] - x[1][1];
    CHECK(s, d1 < -0.02f && d2 < 0.0f && fabsf(d2) < fabsf(d1) + 0.07f,
          "the flick coasts %.4f, then %.4f", d1, d2);
    CHECK(s, !still[1][1] && still[1][2], "moving 0.15 s on (%d), still 3 s on (%d)", still[1][1],
          still[1][2]);
    /* a window's last frame and a replay's, drawn at other times after the stop, show the same */
    for (int r = 0; r < 3; r++)
        CHECK(s, gap[r][0] == 0.0f,
              "a flick at %d Hz, stopped, still moves %.3g of the view (none expected)", rates[r],
              gap[r][0]);
    printf("inertia: coasted %.4f of the view in 0.15 s, %.4f in all\n", -d1, -(x[1][2] - x[1][0]));
}

/* The fastest flick (a pan far past FLICK_MAX) has stopped by the time a replay ends after its
 * last event (APP_REPLAY_TAIL): a window's session ends at rest, and its replay must show the
 * same place, not one short of it by what the coast still had to go (a busy machine's slow drag
 * made a flick of 1.4 views a second, still coasting 1 s on: window_replay ended 90 px apart). */
static void replay_tail(CheckState *s)
{
    BookZoom zoom = {0};
    BookZoomRect fit = {0.0f, 0.0f, 1.0f, 1.0f, 0.0f};
    book_zoom_set(&zoom, 4.0f, 0.5f, 0.5f, 0.0, &fit);
    book_zoom_drag_begin(&zoom, 0.2f, 0.5f, 1.0, &fit);
    book_zoom_drag_move(&zoom, 0.9f, 0.5f, 1.05, &fit);
    book_zoom_drag_end(&zoom, 1.05, &fit);
    CHECK(s, book_zoom_moving(&zoom, 1.06), "the flick did not coast");
    CHECK(s, !book_zoom_moving(&zoom, 1.05 + APP_REPLAY_TAIL),
          "the fastest flick still coasts %.1f s after the drag, past a replay's end",
          APP_REPLAY_TAIL);
}

static void press_pans_or_turns(CheckState *s)
{
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    double t = 0.1;
    zoom_by(&b, t, 0.5f, 0.5f, 3.0f);
    BookZoomView before = camera_at(&b, t).zoom;
    /* mid-page (the right page's middle is off centre at 3x; the view's centre is the spine) */
    apply(&b, &(pagecurl_input_event){
                  .time = t += 0.05, .device = PAGECURL_INPUT_MOUSE, .x = 0.6f, .y = 0.5f});
    apply(&b, &(pagecurl_input_event){.time = t += 0.05,
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = PAGECURL_INPUT_MOVE,
                                      .x = 0.5f,
                                      .y = 0.4f});
    CHECK(s, !mesh_flip_view_at(&b.flip, t).turning, "zoomed in, a mid-page drag turned a page");
    BookZoomView during = camera_at(&b, t).zoom;
    CHECK(s, fabsf(during.x - before.x + 0.1f) < 1e-4f && fabsf(during.y - before.y + 0.1f) < 1e-4f,
          "the drag panned by %.4f,%.4f, not -0.1,-0.1", during.x - before.x, during.y - before.y);
    apply(&b, &(pagecurl_input_event){.time = t += 0.2,
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = PAGECURL_INPUT_UP,
                                      .x = 0.5f,
                                      .y = 0.4f});
    /* pan to the right page's outer edge, and press on it */
    for (int k = 0; k < 4; k++)
        apply(&b, &(pagecurl_input_event){.time = t += 0.1,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_PAN,
                                          .x = -1.0f});
    BookCameraBook c = camera_at(&b, t);
    double ex, ey;
    project(&c, b.w, b.h, MESH_PAGE_WIDTH, 0.5f * MESH_PAGE_HEIGHT, &ex, &ey);
    CHECK(s, ex > 0.0 && ex < b.w, "the outer edge shows at %.1f", ex);
    float press = (float)((ex - 20.0) / b.w); /* 20 px inside it */
    apply(&b, &(pagecurl_input_event){
                  .time = t += 0.05, .device = PAGECURL_INPUT_MOUSE, .x = press, .y = 0.5f});
    CHECK(s, mesh_flip_view_at(&b.flip, t).phase == MESH_FLIP_DRAGGING,
          "zoomed in, a press on the outer edge took no page");
    BookZoomView held = camera_at(&b, t).zoom;
    apply(&b, &(pagecurl_input_event){.time = t += 0.05,
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = PAGECURL_INPUT_MOVE,
                                      .x = press - 0.05f,
                                      .y = 0.5f});
    BookZoomView moved = camera_at(&b, t).zoom;
    CHECK(s, held.scale == moved.scale && held.x == moved.x && held.y == moved.y,
          "the zoom changed while the page was held");
    /* at 1x a mid-page press takes the page, as without zoom */
    Book one;
    book_open(&one, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    apply(&one, &(pagecurl_input_event){
                    .time = 0.1, .device = PAGECURL_INPUT_MOUSE, .x = 0.65f, .y = 0.5f});
    CHECK(s, mesh_flip_view_at(&one.flip, 0.1).phase == MESH_FLIP_DRAGGING,
          "at 1x a mid-page press took no page");
}

/* A key turn from 3x: the zoom eases back to fit while the leaf flies, never jumping. */
static void turn_eases(CheckState *s)
{
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    zoom_by(&b, 0.1, 0.7f, 0.3f, 3.0f);
    double t = 0.5;
    BookCameraBook was = camera_at(&b, t);
    apply(&b, &(pagecurl_input_event){
                  .time = t, .device = PAGECURL_INPUT_KEY, .action = PAGECURL_INPUT_NEXT});
    BookCameraBook first = camera_at(&b, t);
    CHECK(s, first.zoom.scale == was.zoom.scale && first.zoom.x == was.zoom.x,
          "the key's moment jumped from %.4f to %.4f", was.zoom.scale, first.zoom.scale);
    double worst = 0.0, prev[2], last = 0.0, path = 0.0;
    float scale = first.zoom.scale;
    bool down = true;
    project(&first, b.w, b.h, 0.5f * MESH_PAGE_WIDTH, 0.5f * MESH_PAGE_HEIGHT, &prev[0], &prev[1]);
    for (int f = 1; f <= 120; f++) {
        double ft = t + f / 60.0, p[2];
        mesh_flip_step(&b.flip, ft);
        BookCameraBook c = camera_at(&b, ft);
        float sc = c.zoom.scale > 0.0f ? c.zoom.scale : 1.0f;
        down = down && sc <= scale + 1e-6f;
        scale = sc;
        /* the right page's middle, which the leaf covers: the view's motion, not the leaf's */
        project(&c, b.w, b.h, 0.5f * MESH_PAGE_WIDTH, 0.5f * MESH_PAGE_HEIGHT, &p[0], &p[1]);
        double step = hypot(p[0] - prev[0], p[1] - prev[1]);
        worst = fmax(worst, step);
        path += f <= (int)(BOOK_ZOOM_EASE * 60.0) ? step : 0.0;
        if (f == 120)
            last = step;
        prev[0] = p[0], prev[1] = p[1];
    }
    CHECK(s, down, "the zoom grew during the ease");
    CHECK(s, scale == 1.0f, "the ease ended at %.4f, not at fit", scale);
    BookCameraBook end = camera_at(&b, t + 2.0);
    CHECK(s, end.zoom.x == 0.0f && end.zoom.y == 0.0f, "the ease ended panned %.5f,%.5f",
          end.zoom.x, end.zoom.y);
    /* no jump: no frame moves the page more than a fifth of the way it travels in the ease's
     * 21 frames (a jump would be all of it in one) */
    double mean = path / (int)(BOOK_ZOOM_EASE * 60.0);
    CHECK(s, worst < 0.2 * path, "a frame of the ease moved the page %.1f px of %.1f", worst, path);
    CHECK(s, last < 0.5, "the view still moved %.2f px at the end", last);
    printf("ease to fit: %.1f px a frame at most, %.1f on average\n", worst, mean);
}

/* The camera of a frame the library draws at `time` (book/open_frame.c's update): the flip stepped
 * and, once a turn from a zoomed view has landed, the zoom brought back. */
static BookCameraBook frame_at(Book *b, double time)
{
    mesh_flip_step(&b->flip, time);
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    book_settle_zoom(&b->zoom, &view, &b->leaf, &b->layout, b->w, b->h, time);
    return camera_at(b, time);
}

/* Where the page from book x = x0 to x1 shows (its foot y = 0, its head the page's height), as
 * pixel edges: left, top (the head), right, bottom (the foot). */
static void page_px(const BookCameraBook *c, uint32_t w, uint32_t h, float x0, float x1,
                    double r[4])
{
    double ax, ay, bx, by;
    project(c, w, h, x0, c->height, &ax, &ay);
    project(c, w, h, x1, 0.0f, &bx, &by);
    r[0] = fmin(ax, bx) + 0.5, r[2] = fmax(ax, bx) + 0.5;
    r[1] = fmin(ay, by) + 0.5, r[3] = fmax(ay, by) + 0.5;
}

/* A zoom event of the book's at `t`: W at (x, y), a scroll by y view heights. */
static void zoom_do(Book *b, double t, pagecurl_input_action action, float x, float y)
{
    zoom_event(b, t, action, x, y, action == PAGECURL_INPUT_SCROLL ? y : 1.0f);
}

/* W: the page under the pointer (a spread's right-hand page with none) fills the view's width,
 * its head at the top (or centred where the page is shorter than the view), and still does once
 * the view is resized. */
static void fit_width(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH;
    const struct {
        int layout, spread;
        uint32_t w, h;
        float x;  /* the pointer across, NAN: none */
        int page; /* -1 the left-hand page, +1 the right-hand one, 0 the one shown */
    } cases[] = {
        {BOOK_LAYOUT_AUTO, 3, 1280, 720, 0.3f, -1}, {BOOK_LAYOUT_AUTO, 3, 1280, 720, 0.7f, 1},
        {BOOK_LAYOUT_AUTO, 3, 1280, 720, NAN, 1},   {BOOK_LAYOUT_SPREAD, 3, 720, 1280, 0.4f, -1},
        {BOOK_LAYOUT_SINGLE, 3, 720, 1280, NAN, 0}, {BOOK_LAYOUT_AUTO, 0, 1920, 1080, 0.2f, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Book b;
        book_open(&b, cases[k].layout, cases[k].w, cases[k].h, cases[k].spread);
        apply(&b, &(pagecurl_input_event){.time = 0.1,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_WIDTH,
                                          .x = cases[k].x,
                                          .y = isnan(cases[k].x) ? NAN : 0.5f});
        for (int resized = 0; resized < 2; resized++) {
            if (resized) /* the fit follows the view */
                b.w = b.w * 5 / 4, b.h = b.h * 3 / 4;
            BookCameraBook c = camera_at(&b, 0.2);
            float x0 = cases[k].page > 0 ? 0.0f : -W, x1 = cases[k].page < 0 ? 0.0f : W;
            if (!cases[k].page)
                x0 = c.lo * c.width, x1 = c.hi * c.width;
            double r[4];
            page_px(&c, b.w, b.h, x0, x1, r);
            CHECK(s, fabs(r[0]) <= FIXED_PX && fabs(r[2] - b.w) <= FIXED_PX,
                  "case %zu%s: the page spans %.2f..%.2f px of 0..%u", k, resized ? " resized" : "",
                  r[0], r[2], b.w);
            if (r[3] - r[1] > b.h)
                CHECK(s, fabs(r[1]) <= FIXED_PX, "case %zu%s: the page's head at %.2f px, not 0", k,
                      resized ? " resized" : "", r[1]);
            else
                CHECK(s, fabs(r[1] + r[3] - b.h) <= 2.0 * FIXED_PX,
                      "case %zu: a page shorter than the view not centred: %.2f..%.2f", k, r[1],
                      r[3]);
            CHECK(s, b.zoom.width, "case %zu: the fit to width was left", k);
        }
    }
    printf("fit width: %zu pages fill the view's width, head at the top\n",
           sizeof cases / sizeof cases[0]);
}

/* Frames at 60 Hz from `t` for `seconds`, as the library draws them: the time after. */
static double frames_for(Book *b, double t, double seconds)
{
    for (int f = 1; f <= (int)(seconds * 60.0); f++)
        frame_at(b, t + f / 60.0);
    return t + seconds;
}

/* Scrolled fitted to width: down the page by the amount asked, no further than its foot; on to
 * the spread's other page, then past the last one's foot a turn, and the next spread's first page
 * at its head at the same fit; back up past the head the previous page at its foot. */
static void scroll(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH;
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    double t = 0.1, r[4], head;
    apply(&b, &(pagecurl_input_event){.time = t,
                                      .device = PAGECURL_INPUT_ZOOM,
                                      .action = PAGECURL_INPUT_WIDTH,
                                      .x = 0.3f,
                                      .y = 0.5f}); /* the left-hand page */
    BookCameraBook c = camera_at(&b, t);
    page_px(&c, b.w, b.h, -W, 0.0f, r);
    head = r[1];
    CHECK(s, fabs(head) <= FIXED_PX, "fitted to width, the page's head at %.2f px", head);
    zoom_do(&b, t += 0.1, PAGECURL_INPUT_SCROLL, 0.0f, 0.125f);
    c = camera_at(&b, t);
    page_px(&c, b.w, b.h, -W, 0.0f, r);
    CHECK(s, fabs(r[1] - (head - 0.125 * b.h)) <= FIXED_PX,
          "a scroll of 0.125 moved the page's head from %.2f to %.2f px, not by %.0f", head, r[1],
          0.125 * b.h);
    /* down to the foot: it stops there, then the next scroll goes to the right-hand page */
    int n = 0;
    for (; n < 40; n++) {
        zoom_do(&b, t += 0.1, PAGECURL_INPUT_SCROLL, 0.0f, 0.3f);
        c = camera_at(&b, t);
        page_px(&c, b.w, b.h, -W, 0.0f, r);
        if (r[2] < b.w - 1.0) /* on to the other page */
            break;
        CHECK(s, r[3] >= b.h - FIXED_PX, "scrolled past the foot: it shows at %.2f px of %u", r[3],
              b.h);
    }
    CHECK(s, n < 40, "40 scrolls never left the left-hand page");
    CHECK(s, !mesh_flip_view_at(&b.flip, t).turning, "the spread's other page needed a turn");
    page_px(&c, b.w, b.h, 0.0f, W, r);
    CHECK(s, fabs(r[0]) <= FIXED_PX && fabs(r[2] - b.w) <= FIXED_PX && fabs(r[1]) <= FIXED_PX,
          "after the left page's foot the right page spans %.2f..%.2f px, head at %.2f", r[0], r[2],
          r[1]);
    /* down the right-hand page and past its foot: a turn */
    for (n = 0; n < 40 && !mesh_flip_view_at(&b.flip, t).turning; n++)
        zoom_do(&b, t += 0.1, PAGECURL_INPUT_SCROLL, 0.0f, 0.3f);
    MeshFlipView v = mesh_flip_view_at(&b.flip, t);
    CHECK(s, v.turning && v.heading == 4, "past the last page's foot: no turn to spread 4");
    t = frames_for(&b, t, 3.0);
    c = frame_at(&b, t);
    page_px(&c, b.w, b.h, -W, 0.0f, r);
    CHECK(s, mesh_flip_view_at(&b.flip, t).spread == 4 && b.zoom.width,
          "after the turn: spread %d, fit to width %d", mesh_flip_view_at(&b.flip, t).spread,
          b.zoom.width);
    CHECK(s, fabs(r[0]) <= FIXED_PX && fabs(r[2] - b.w) <= FIXED_PX && fabs(r[1]) <= FIXED_PX,
          "after the turn the next page spans %.2f..%.2f px, head at %.2f (want its width, its "
          "head at the top)",
          r[0], r[2], r[1]);
    /* back: from the head of spread 4's first page to spread 3's last, at its foot */
    zoom_do(&b, t += 0.1, PAGECURL_INPUT_SCROLL, 0.0f, -0.1f);
    v = mesh_flip_view_at(&b.flip, t);
    CHECK(s, v.turning && v.heading == 3, "up from the first page's head: no turn back");
    t = frames_for(&b, t, 3.0);
    c = frame_at(&b, t);
    page_px(&c, b.w, b.h, 0.0f, W, r);
    CHECK(s, fabs(r[0]) <= FIXED_PX && fabs(r[2] - b.w) <= FIXED_PX && fabs(r[3] - b.h) <= FIXED_PX,
          "back, the page before spans %.2f..%.2f px, foot at %.2f (want its width, its foot at "
          "%u)",
          r[0], r[2], r[3], b.h);
    /* the fitted view scrolls nothing */
    Book fitted;
    book_open(&fitted, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    zoom_do(&fitted, 0.1, PAGECURL_INPUT_SCROLL, 0.0f, 0.5f);
    CHECK(s, !mesh_flip_view_at(&fitted.flip, 0.1).turning && scale_at(&fitted, 0.1) == 1.0f,
          "the fitted view scrolled");
    printf("scroll: down the page to its foot, the other page, a turn, back\n");
}

/* `+` with no pointer: about the page's centre (the right-hand page of a spread), not the view's
 * (the spine). */
static void zoom_about_page(CheckState *s)
{
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    double bx, by, ax, ay;
    BookCameraBook c = camera_at(&b, 0.1);
    project(&c, b.w, b.h, 0.5f * MESH_PAGE_WIDTH, 0.5f * c.height, &bx, &by);
    zoom_by(&b, 0.1, NAN, NAN, 2.0f);
    c = camera_at(&b, 0.1);
    project(&c, b.w, b.h, 0.5f * MESH_PAGE_WIDTH, 0.5f * c.height, &ax, &ay);
    CHECK(s, scale_at(&b, 0.1) == 2.0f, "zoomed to %.3f, not 2", scale_at(&b, 0.1));
    CHECK(s, hypot(ax - bx, ay - by) <= FIXED_PX,
          "the right page's centre moved from %.1f,%.1f to %.1f,%.1f", bx, by, ax, ay);
    printf("zoom about the page: its centre moved %.4f px\n", hypot(ax - bx, ay - by));
}

/* A turn keeps the zoom: at 3x, and fitted to width, a key turn eases to fit while the leaf
 * flies and, the book at rest, back in to the same zoom at the head of the next spread's first
 * page, with no jump. */
static void zoom_kept(CheckState *s)
{
    const float W = MESH_PAGE_WIDTH;
    for (int width = 0; width < 2; width++) {
        Book b;
        book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
        if (width)
            zoom_do(&b, 0.1, PAGECURL_INPUT_WIDTH, 0.7f, 0.5f);
        else
            zoom_by(&b, 0.1, 0.7f, 0.3f, 3.0f);
        float zoom = scale_at(&b, 0.2);
        double t = 0.5;
        apply(&b, &(pagecurl_input_event){
                      .time = t, .device = PAGECURL_INPUT_KEY, .action = PAGECURL_INPUT_NEXT});
        float prev = scale_at(&b, t), least = prev, worst = 0.0f;
        for (int f = 1; f <= 180; f++) {
            BookCameraBook c = frame_at(&b, t + f / 60.0);
            float sc = c.zoom.scale > 0.0f ? c.zoom.scale : 1.0f;
            worst = fmaxf(worst, fabsf(logf(sc / prev)));
            least = fminf(least, sc), prev = sc;
        }
        t += 3.0;
        BookCameraBook c = frame_at(&b, t);
        double r[4];
        page_px(&c, b.w, b.h, -W, 0.0f, r);
        CHECK(s, least == 1.0f, "%s: the view never eased to fit during the turn (%.3f)",
              width ? "width" : "3x", least);
        CHECK(s, mesh_flip_view_at(&b.flip, t).spread == 4 && fabsf(prev - zoom) < 1e-4f,
              "%s: after the turn the zoom is %.4f, not %.4f", width ? "width" : "3x", prev, zoom);
        CHECK(s, fabs(r[1]) <= FIXED_PX && r[0] <= FIXED_PX && r[2] > 0.5 * b.w,
              "%s: after the turn the first page shows %.1f..%.1f px, head at %.2f",
              width ? "width" : "3x", r[0], r[2], r[1]);
        CHECK(s, !width || (fabs(r[0]) <= FIXED_PX && fabs(r[2] - b.w) <= FIXED_PX),
              "width: the next page spans %.2f..%.2f px, not the view's width", r[0], r[2]);
        /* no jump: the smoothstep's steepest frame of an ease over 21 frames moves a tenth of
         * the way; a jump moves all of it */
        CHECK(s, worst <= 0.15f * logf(zoom), "%s: a frame changed the zoom by %.3f of %.3f",
              width ? "width" : "3x", worst, logf(zoom));
        printf("zoom kept across a turn (%s): %.3f, its steepest frame %.3f of %.3f\n",
               width ? "width" : "3x", prev, worst, logf(zoom));
    }
    /* reduced motion: scrolled past the foot fitted to width, the fade turns the page with the
     * view still, and the next page shows at once at its head */
    Book b;
    book_open(&b, BOOK_LAYOUT_AUTO, 1280, 720, 3);
    book_init_reader(&b.flip, &b.leaf, 16, 3, true);
    zoom_do(&b, 0.1, PAGECURL_INPUT_WIDTH, 0.7f, 0.5f);
    float zoom = scale_at(&b, 0.2), least = zoom, most = zoom;
    double t = 0.2;
    for (int n = 0; n < 20 && !mesh_flip_view_at(&b.flip, t).turning; n++)
        zoom_do(&b, t += 0.1, PAGECURL_INPUT_SCROLL, 0.0f, 1.0f);
    CHECK(s, mesh_flip_view_at(&b.flip, t).phase == MESH_FLIP_FADING,
          "reduced motion: a scroll past the foot made no fade");
    BookCameraBook c = camera_at(&b, t);
    for (int f = 1; f <= 120; f++) {
        c = frame_at(&b, t + f / 60.0);
        float sc = c.zoom.scale > 0.0f ? c.zoom.scale : 1.0f;
        least = fminf(least, sc), most = fmaxf(most, sc);
    }
    double r[4];
    page_px(&c, b.w, b.h, -W, 0.0f, r);
    CHECK(s, least > zoom - 1e-4f && most < zoom + 1e-4f,
          "reduced motion: the zoom moved %.3f..%.3f of %.3f", least, most, zoom);
    CHECK(s,
          mesh_flip_view_at(&b.flip, t + 2.0).spread == 4 && fabs(r[0]) <= FIXED_PX &&
              fabs(r[2] - b.w) <= FIXED_PX && fabs(r[1]) <= FIXED_PX,
          "reduced motion: after the fade the next page spans %.2f..%.2f px, head at %.2f", r[0],
          r[2], r[1]);
}

/* The trace's forms of W (with and without a pixel), `+` with no pointer, a scroll and a text size
 * (Ctrl + =), read, written and read back the same; malformed ones refused. */
static void trace_forms(CheckState *s)
{
    static const char text[] = "0.1 zoom width\n0.2 zoom width 0.3 0.6\n0.3 zoom by 1.25\n"
                               "0.4 zoom scroll -0.5\n0.5 key font 13.5\n";
    char message[512], path[] = "/tmp/pagecurl-test-zoom-XXXXXX";
    AppTrace trace = {0}, back = {0};
    bool ok = app_trace_parse(text, sizeof text - 1, "forms", &trace, message, sizeof message);
    CHECK(s, ok && trace.count == 5, "the forms: %s", ok ? "count" : message);
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
    AppTraceRecorder rec = {.fd = -1};
    ok = ok && fd >= 0 &&
         app_trace_record_start(&rec, path, &(AppTrace){0}, message, sizeof message);
    for (size_t i = 0; ok && i < trace.count; i++)
        app_trace_record(&rec, &trace.events[i]);
    ok = ok && app_trace_record_end(&rec, message, sizeof message) &&
         app_trace_load(path, &back, message, sizeof message);
    CHECK(s, ok && back.count == 5, "written and read back: %s", ok ? "count" : message);
    for (int pass = 0; ok && back.count == 5 && pass < 2; pass++) {
        const pagecurl_input_event *e = pass ? back.events : trace.events;
        CHECK(s, e[0].action == PAGECURL_INPUT_WIDTH && isnan(e[0].x) && isnan(e[0].y),
              "pass %d: zoom width alone read as %d %.3f", pass, e[0].action, e[0].x);
        CHECK(s, e[1].action == PAGECURL_INPUT_WIDTH && e[1].x == 0.3 && e[1].y == 0.6,
              "pass %d: zoom width X Y read as %.3f %.3f", pass, e[1].x, e[1].y);
        CHECK(s, e[2].action == PAGECURL_INPUT_BY && e[2].amount == 1.25f && isnan(e[2].x),
              "pass %d: zoom by F alone read as %.3f at %.3f", pass, e[2].amount, e[2].x);
        CHECK(s, e[3].action == PAGECURL_INPUT_SCROLL && e[3].amount == -0.5f,
              "pass %d: zoom scroll read as %d %.3f", pass, e[3].action, e[3].amount);
        CHECK(s,
              e[4].device == PAGECURL_INPUT_KEY && e[4].action == PAGECURL_INPUT_FONT &&
                  e[4].amount == 13.5f,
              "pass %d: key font read as %d %d %.3f", pass, e[4].device, e[4].action, e[4].amount);
    }
    remove(path);
    app_trace_free(&trace);
    app_trace_free(&back);
    static const char *const bad[] = {"0.1 zoom scroll 3\n",      "0.1 zoom scroll\n",
                                      "0.1 zoom width 0.5\n",     "0.1 key scroll 0.1\n",
                                      "0.1 zoom width 1.5 0.5\n", "0.1 key font 5\n",
                                      "0.1 key font 49\n",        "0.1 key font\n",
                                      "0.1 zoom font 12\n",       "0.1 key font 12 0.5\n"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        AppTrace t = {0};
        CHECK(s, !app_trace_parse(bad[k], strlen(bad[k]), "bad", &t, message, sizeof message),
              "taken: %s", bad[k]);
        app_trace_free(&t);
    }
}

#ifdef PAGECURL_HAVE_SDL
/* The window's event times, written to a trace and read back, are the same doubles: a replay
 * then measures a flick's span as the session did (two events 8 ms apart, FLICK_SPAN, were a
 * flick in one and none in the other, and the replay panned elsewhere). */
static void times_replay(CheckState *s)
{
    static const uint64_t starts[] = {0, 17, 1234, 987654321};
    char path[] = "/tmp/pagecurl-test-zoom-XXXXXX";
    int fd = mkstemp(path);
    CHECK(s, fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    size_t differ = 0, n = 0;
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        AppTrace trace = {0}, back = {0};
        AppTraceRecorder rec = {.fd = -1};
        char message[512];
        bool ok = app_trace_record_start(&rec, path, &trace, message, sizeof message);
        for (uint64_t ms = 0; ok && ms < 40000; ms += 7) {
            pagecurl_input_event e = {.time = app_session_time(starts[k] + ms, starts[k]),
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = PAGECURL_INPUT_MOVE,
                                      .x = 0.5f,
                                      .y = 0.5f};
            app_trace_add(&trace, &e);
            app_trace_record(&rec, &e);
        }
        ok = ok && app_trace_record_end(&rec, message, sizeof message) &&
             app_trace_load(path, &back, message, sizeof message);
        CHECK(s, ok && back.count == trace.count, "the trace: %s", ok ? "count" : message);
        for (size_t i = 0; ok && i < trace.count && i < back.count; i++, n++)
            differ += back.events[i].time != trace.events[i].time;
        app_trace_free(&trace);
        app_trace_free(&back);
    }
    remove(path);
    printf("times: %zu of %zu event times read back from a trace differ\n", differ, n);
    CHECK(s, n > 0 && differ == 0, "%zu of %zu times differ once written and read", differ, n);
}

/* A flick read in one slow frame (4 frames/s: its press, 8 moves 12 ms apart and its release all
 * at once), routed as the window routes it: the moves applied (here: recorded) are those a
 * flick's speed is measured from, several in its last 100 ms (latest pointer wins held back all
 * but the newest: 1). */
static void slow_frame_moves(CheckState *s)
{
    char path[] = "/tmp/pagecurl-test-zoom-XXXXXX";
    int fd = mkstemp(path);
    CHECK(s, fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    AppTrace head = {0}, back = {0};
    AppTraceRecorder rec = {.fd = -1};
    char message[512];
    bool ok = app_trace_record_start(&rec, path, &head, message, sizeof message);
    AppSession session = {.record = &rec};
    AppSessionSize size = {640, 400};
    for (int i = 0; ok && i <= 9; i++) {
        SDL_Event e = {.type = i == 0   ? SDL_MOUSEBUTTONDOWN
                               : i == 9 ? SDL_MOUSEBUTTONUP
                                        : SDL_MOUSEMOTION};
        if (i == 0 || i == 9)
            e.button.button = SDL_BUTTON_LEFT, e.button.clicks = 1;
        else
            e.motion.state = SDL_BUTTON_LMASK;
        pagecurl_input_event out[APP_SESSION_MAX_EVENTS];
        double t = 3.0 + (i ? 0.3 + 0.012 * i : 0.0);
        int n = app_session_trace_events(&e, NULL, &session, t, out);
        for (int k = 0; k < n; k++) {
            if (out[k].action == PAGECURL_INPUT_MOVE) {
                app_session_hold_move(size, &session, &out[k]);
                continue;
            }
            app_session_apply_move(size, &session);
            app_session_apply(size, &session, &out[k]);
        }
    }
    ok = ok && app_trace_record_end(&rec, message, sizeof message) &&
         app_trace_load(path, &back, message, sizeof message);
    CHECK(s, ok, "the trace: %s", message);
    int late = 0;
    double up = back.count ? back.events[back.count - 1].time : 0.0;
    for (size_t i = 0; ok && i < back.count; i++)
        late += back.events[i].action == PAGECURL_INPUT_MOVE && back.events[i].time >= up - 0.1;
    printf("slow frame: %d of 8 moves in the flick's last 100 ms reach the book\n", late);
    CHECK(s, late >= 6, "%d of 8 moves in the flick's last 100 ms reached the book", late);
    app_trace_free(&head);
    app_trace_free(&back);
    remove(path);
}

/* X's times on the session's clock, set by an event read at once: a slow frame's input, read by
 * SDL all in one millisecond, keeps the 10 ms between its events; an event read sooner after it
 * was made moves the clock back; a jump of X's clock (its 32 bits wrapped) starts it afresh. */
static void x_times(CheckState *s)
{
    AppSession session = {.start_ms = 1000};
    double a = app_session_x_time(&session, 4000000000u, 6000); /* read at once: the clock */
    double b = app_session_x_time(&session, 4000000400u, 6500); /* a slow frame's three */
    double c = app_session_x_time(&session, 4000000410u, 6500);
    double d = app_session_x_time(&session, 4000000420u, 6500);
    CHECK(s, a == 5.0 && fabs(b - 5.4) < 1e-9 && fabs(c - 5.41) < 1e-9 && fabs(d - 5.42) < 1e-9,
          "one frame's events: %.4f %.4f %.4f %.4f", a, b, c, d);
    double e = app_session_x_time(&session, 4000000500u, 6480); /* read 20 ms sooner */
    CHECK(s, fabs(e - 5.48) < 1e-9, "the clock moved back to the quicker read: %.4f", e);
    double f = app_session_x_time(&session, 5u, 6600); /* X's clock wrapped */
    CHECK(s, fabs(f - 5.6) < 1e-9, "after X's clock wrapped: %.4f", f);
}
#endif

int main(void)
{
    CheckState s = {0};
#ifdef PAGECURL_HAVE_SDL
    times_replay(&s);
    x_times(&s);
    slow_frame_moves(&s);
#endif
    wheel(&s);
    pinch(&s);
    pan_limits(&s);
    inertia(&s);
    replay_tail(&s);
    press_pans_or_turns(&s);
    turn_eases(&s);
    fit_width(&s);
    scroll(&s);
    zoom_about_page(&s);
    zoom_kept(&s);
    trace_forms(&s);
    return check_finish(&s, "test_zoom");
}
