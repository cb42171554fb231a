/* SPDX-License-Identifier: MIT */
#include "zoom.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* A flick slower than this (fractions of the view a second) has stopped. */
#define FLICK_STOP 0.002
/* The flick's velocity is the pointer's over the drag's last tenth of a second, if it still moved
 * in the last twentieth before it was let go. */
#define FLICK_WINDOW 0.1
#define FLICK_STILL  0.05
/* Samples closer in time than this say little of a speed (a burst of events at once); a flick
 * faster than FLICK_MAX views a second is taken at that. */
#define FLICK_SPAN 0.008
#define FLICK_MAX  8.0

static float scale_of(const BookZoomView *v)
{
    return v->scale > 0.0f ? v->scale : 1.0f;
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The pan along one axis for fitted pages a..b at `scale`: the pages cover 0..1 where they are
 * larger than the view, else they are centred. */
static float limit(float pan, float a, float b, float scale)
{
    if (!(b > a))
        return 0.0f;
    if (scale * (b - a) < 1.0f)
        return -scale * (0.5f * (a + b) - 0.5f);
    float lo = 0.5f - scale * (b - 0.5f), hi = -0.5f - scale * (a - 0.5f);
    return clampf(pan, lo, hi);
}

static BookZoomView kept(BookZoomView v, const BookZoomRect *fit)
{
    v.scale = clampf(scale_of(&v), BOOK_ZOOM_MIN, BOOK_ZOOM_MAX);
    if (fit) {
        v.x = limit(v.x, fit->x0, fit->x1, v.scale);
        v.y = limit(v.y, fit->y0, fit->y1, v.scale);
    }
    if (v.scale == 1.0f && fabsf(v.x) < 1e-6f && fabsf(v.y) < 1e-6f)
        v.x = v.y = 0.0f; /* the fitted view exactly: the same pixels as without zoom */
    return v;
}

void book_zoom_init(BookZoom *zoom)
{
    *zoom = (BookZoom){.set = {1.0f, 0.0f, 0.0f}};
}

static double smooth01(double x)
{
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return x * x * (3.0 - 2.0 * x);
}

/* Whether `fit` holds two pages side by side. */
static bool two_pages(const BookZoomRect *fit)
{
    return fit && fit->spine > fit->x0 && fit->spine < fit->x1;
}

/* The fitted page `side` (-1 left, +1 right, 0 the whole rectangle) across: a..b. */
static void page_span(const BookZoomRect *fit, int side, float *a, float *b)
{
    *a = fit->x0, *b = fit->x1;
    if (two_pages(fit) && side < 0)
        *b = fit->spine;
    else if (two_pages(fit) && side > 0)
        *a = fit->spine;
}

/* The page of `fit` whose span holds the view's centre in `v` (the right-hand one on the
 * spine), 0 where the rectangle is one page. */
static int side_in_view(const BookZoomView *v, const BookZoomRect *fit)
{
    if (!two_pages(fit))
        return 0;
    float u = 0.5f - v->x / scale_of(v);
    return u < fit->spine ? -1 : 1;
}

/* The view of page `side` of `fit` at its width: the scale that fills the view's width with it
 * (1..8) and the pan across that centres it; the pan down is `y`'s. */
static BookZoomView width_view(float y, int side, const BookZoomRect *fit)
{
    float a, b;
    page_span(fit, side, &a, &b);
    float s = b > a ? clampf(1.0f / (b - a), BOOK_ZOOM_MIN, BOOK_ZOOM_MAX) : 1.0f;
    return (BookZoomView){.scale = s, .x = -s * (0.5f * (a + b) - 0.5f), .y = y};
}

/* The pan down that shows the pages' head at the top of the view (`foot`: their foot at the
 * bottom), at scale `s` (kept: centred where they are shorter than the view). */
static float head_pan(float s, const BookZoomRect *fit, bool foot)
{
    return foot ? 0.5f - s * (fit->y1 - 0.5f) : -0.5f - s * (fit->y0 - 0.5f);
}

/* The pan down that shows the page `down` of its height below its head at the top of the view,
 * at scale `s`; and back. */
static float pan_down(float down, float s, const BookZoomRect *fit)
{
    return -0.5f - s * (fit->y0 + down * (fit->y1 - fit->y0) - 0.5f);
}

/* Fitted to width, where the view's top lies down the page, kept as a fraction of its height:
 * the same place once the view is resized. */
static void note_down(BookZoom *zoom, const BookZoomView *v, const BookZoomRect *fit)
{
    if (zoom->width && fit && fit->y1 > fit->y0)
        zoom->down = (0.5f + (-0.5f - v->y) / scale_of(v) - fit->y0) / (fit->y1 - fit->y0);
}

BookZoomView book_zoom_at(const BookZoom *zoom, double time, const BookZoomRect *fit)
{
    if (zoom->hosted) {
        BookZoomView hosted = {.hosted = true};
        memcpy(hosted.host, zoom->host, sizeof hosted.host);
        return hosted;
    }
    BookZoomView v = zoom->set;
    double dt = time > zoom->since ? time - zoom->since : 0.0;
    if (zoom->easing && dt < BOOK_ZOOM_EASE) {
        /* the scale eases geometrically (each step looks alike), the pan with it */
        double s = smooth01(dt / BOOK_ZOOM_EASE);
        v.scale = (float)(pow(scale_of(&zoom->set), 1.0 - s) * pow(scale_of(&zoom->to), s));
        v.x = (float)(zoom->set.x * (1.0 - s) + zoom->to.x * s);
        v.y = (float)(zoom->set.y * (1.0 - s) + zoom->to.y * s);
        return kept(v, NULL); /* on its way between two views within the limits */
    }
    if (zoom->easing)
        v = zoom->to;
    if (zoom->width && fit && fit->x1 > fit->x0 && fit->y1 > fit->y0) {
        v = width_view(0.0f, zoom->side, fit);
        v.y = pan_down(zoom->down, v.scale, fit);
    }
    if (zoom->vx != 0.0f || zoom->vy != 0.0f) {
        /* once it has stopped (book_zoom_moving), the whole of its way: where it comes to rest
         * is then the same whenever the frame that shows it is drawn (a window's last frame, a
         * replay's), not short of it by what the slowest speed would still have moved */
        double coast = book_zoom_moving(zoom, time)
                           ? BOOK_ZOOM_FLICK_TAU * (1.0 - exp(-dt / BOOK_ZOOM_FLICK_TAU))
                           : BOOK_ZOOM_FLICK_TAU;
        v.x += (float)(zoom->vx * coast), v.y += (float)(zoom->vy * coast);
    }
    return kept(v, fit);
}

bool book_zoom_easing(const BookZoom *zoom, double time)
{
    return !zoom->hosted && zoom->easing && time - zoom->since < BOOK_ZOOM_EASE;
}

bool book_zoom_moving(const BookZoom *zoom, double time)
{
    double dt = time - zoom->since;
    if (zoom->easing)
        return dt < BOOK_ZOOM_EASE;
    double v = fmax(fabs(zoom->vx), fabs(zoom->vy));
    return v > FLICK_STOP && dt < BOOK_ZOOM_FLICK_TAU * log(v / FLICK_STOP);
}

/* `pan` (fractions of a view of `pixels`) on a whole pixel within a..b's limits at `scale`. */
static float whole_pixel(float pan, uint32_t pixels, float a, float b, float scale, bool limited)
{
    float n = (float)pixels, near = roundf(pan * n), other = near > pan * n ? near - 1 : near + 1;
    for (int k = 0; k < 2; k++) {
        float p = (k ? other : near) / n;
        if (!limited || limit(p, a, b, scale) == p)
            return p;
    }
    return pan;
}

BookZoomView book_zoom_whole_pixels(BookZoomView v, uint32_t width, uint32_t height,
                                    const BookZoomRect *fit)
{
    if (v.hosted || !width || !height)
        return v;
    float s = scale_of(&v);
    v.x = whole_pixel(v.x, width, fit ? fit->x0 : 0, fit ? fit->x1 : 0, s, fit);
    v.y = whole_pixel(v.y, height, fit ? fit->y0 : 0, fit ? fit->y1 : 0, s, fit);
    v.panning = true;
    return v;
}

bool book_zoom_enlarged(const BookZoomView *view)
{
    return scale_of(view) > 1.0f + 1e-4f;
}

/* The picture at `time` becomes the state, still: every change starts from what is shown. */
static void bake(BookZoom *zoom, double time, const BookZoomRect *fit)
{
    zoom->set = kept(book_zoom_at(zoom, time, fit), fit);
    zoom->since = time;
    zoom->vx = zoom->vy = 0.0f;
    zoom->easing = false;
    note_down(zoom, &zoom->set, fit);
}

void book_zoom_set(BookZoom *zoom, float scale, float x, float y, double time,
                   const BookZoomRect *fit)
{
    bake(zoom, time, fit);
    zoom->width = zoom->resume = false; /* a zoom of the reader's own */
    BookZoomView v = zoom->set;
    float to = clampf(isfinite(scale) ? scale : 1.0f, BOOK_ZOOM_MIN, BOOK_ZOOM_MAX);
    float k = to / v.scale;
    /* (x, y) shows the fitted point u = 0.5 + (x - 0.5 - pan) / scale before and after */
    v.x = x - 0.5f - k * (x - 0.5f - v.x);
    v.y = y - 0.5f - k * (y - 0.5f - v.y);
    v.scale = to;
    zoom->set = kept(v, fit);
}

void book_zoom_by(BookZoom *zoom, float factor, float x, float y, double time,
                  const BookZoomRect *fit)
{
    if (!(factor > 0.0f) || !isfinite(factor))
        return;
    BookZoomView now = book_zoom_at(zoom, time, fit);
    book_zoom_set(zoom, now.scale * factor, x, y, time, fit);
}

void book_zoom_by_page(BookZoom *zoom, float factor, double time, const BookZoomRect *fit)
{
    BookZoomView now = book_zoom_at(zoom, time, fit);
    float x = 0.5f, y = 0.5f;
    if (fit && fit->x1 > fit->x0 && fit->y1 > fit->y0) {
        float a, b;
        int side = side_in_view(&now, fit);
        page_span(fit, side ? side : 1, &a, &b);
        book_zoom_apply(&now, 0.5f * (a + b), 0.5f * (fit->y0 + fit->y1), &x, &y);
    }
    book_zoom_by(zoom, factor, x, y, time, fit);
}

void book_zoom_pan(BookZoom *zoom, float dx, float dy, double time, const BookZoomRect *fit)
{
    bake(zoom, time, fit);
    float x = zoom->set.x;
    if (isfinite(dx) && isfinite(dy))
        zoom->set.x += dx, zoom->set.y += dy;
    zoom->set = kept(zoom->set, fit);
    /* fitted to a page's width, a pan keeps the fit unless it moved the picture across */
    if (fabsf(zoom->set.x - x) > 1e-5f)
        zoom->width = false;
    note_down(zoom, &zoom->set, fit);
    zoom->resume = false;
}

void book_zoom_fit(BookZoom *zoom, double time)
{
    book_zoom_init(zoom);
    zoom->since = time;
}

void book_zoom_fit_width(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit)
{
    bake(zoom, time, fit);
    if (!fit || !(fit->x1 > fit->x0) || !(fit->y1 > fit->y0))
        return;
    int side = two_pages(fit) ? 1 : 0;
    if (side && isfinite(x) && isfinite(y)) { /* the page under the pointer */
        float u, v;
        book_zoom_unapply(&zoom->set, x, y, &u, &v);
        side = u < fit->spine ? -1 : 1;
    }
    zoom->width = true, zoom->side = side, zoom->resume = false;
    zoom->panning = false;
    BookZoomView w = width_view(0.0f, side, fit);
    w.y = head_pan(w.scale, fit, false);
    zoom->set = kept(w, fit);
    zoom->down = 0.0f;
}

void book_zoom_restore(BookZoom *zoom, bool width, int side, float down, float scale, float x,
                       float y, double time, const BookZoomRect *fit)
{
    book_zoom_fit(zoom, time);
    if (!fit || !(fit->x1 > fit->x0) || !(fit->y1 > fit->y0))
        return;
    if (width) {
        zoom->width = true;
        zoom->side = two_pages(fit) ? (side < 0 ? -1 : 1) : 0;
        zoom->down = clampf(isfinite(down) ? down : 0.0f, 0.0f, 1.0f);
        zoom->set = book_zoom_at(zoom, time, fit);
        note_down(zoom, &zoom->set, fit); /* no further than the page's foot lets it be */
        return;
    }
    BookZoomView v = {.scale = clampf(isfinite(scale) ? scale : 1.0f, BOOK_ZOOM_MIN, BOOK_ZOOM_MAX),
                      .x = isfinite(x) ? x : 0.0f,
                      .y = isfinite(y) ? y : 0.0f};
    zoom->set = kept(v, fit);
}

void book_zoom_toggle(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit)
{
    BookZoomView now = book_zoom_at(zoom, time, fit);
    if (book_zoom_enlarged(&now) || zoom->width)
        book_zoom_fit(zoom, time);
    else
        book_zoom_set(zoom, BOOK_ZOOM_TOGGLE, x, y, time, fit);
}

/* Whether the zoom eases to the fitted view now. */
static bool easing_to_fit(const BookZoom *zoom, double time)
{
    return zoom->easing && time - zoom->since < BOOK_ZOOM_EASE && scale_of(&zoom->to) == 1.0f &&
           zoom->to.x == 0.0f && zoom->to.y == 0.0f;
}

/* The zoom to come back to after the turn under way: the reader's (where an ease back in to it is
 * under way, where it goes). */
static void keep(BookZoom *zoom, double time, const BookZoomRect *fit)
{
    BookZoomView aim = zoom->easing && time - zoom->since < BOOK_ZOOM_EASE
                           ? kept(zoom->to, fit)
                           : book_zoom_at(zoom, time, fit);
    zoom->resume_last = false;
    if (book_zoom_enlarged(&aim) || zoom->width) {
        zoom->resume = true, zoom->resume_width = zoom->width, zoom->resume_last = false;
        zoom->resume_scale = scale_of(&aim);
        zoom->resume_dx = 0.0f;
        if (fit && fit->x1 > fit->x0) {
            float a, b;
            page_span(fit, side_in_view(&aim, fit), &a, &b);
            zoom->resume_dx = aim.x + aim.scale * (0.5f * (a + b) - 0.5f);
        }
    }
}

void book_zoom_keep(BookZoom *zoom, double time, const BookZoomRect *fit)
{
    if (!zoom->resume)
        keep(zoom, time, fit);
}

void book_zoom_ease_fit(BookZoom *zoom, double time, const BookZoomRect *fit)
{
    if (easing_to_fit(zoom, time)) { /* a turn queued behind one under way */
        zoom->resume_last = false;
        return;
    }
    keep(zoom, time, fit);
    bake(zoom, time, fit);
    zoom->panning = false;
    BookZoomView now = zoom->set;
    zoom->width = false;
    zoom->to = (BookZoomView){.scale = 1.0f};
    zoom->easing = book_zoom_enlarged(&now) || now.x != 0.0f || now.y != 0.0f;
}

void book_zoom_settle(BookZoom *zoom, double time, const BookZoomRect *fit, bool rtl, bool still)
{
    if (!zoom->resume || zoom->hosted || !fit || !(fit->x1 > fit->x0) || !(fit->y1 > fit->y0))
        return;
    bake(zoom, time, fit);
    zoom->resume = false;
    /* the spread's first page in reading order: the left-hand one unless bound on the right */
    int first = rtl ? 1 : -1, side = two_pages(fit) ? (zoom->resume_last ? -first : first) : 0;
    BookZoomView to;
    if (zoom->resume_width) {
        to = width_view(0.0f, side, fit);
    } else {
        float a, b, s = clampf(zoom->resume_scale, BOOK_ZOOM_MIN, BOOK_ZOOM_MAX);
        page_span(fit, side, &a, &b);
        to = (BookZoomView){.scale = s, .x = zoom->resume_dx - s * (0.5f * (a + b) - 0.5f)};
    }
    to.y = head_pan(to.scale, fit, zoom->resume_last);
    zoom->to = kept(to, fit);
    zoom->width = zoom->resume_width, zoom->side = side;
    note_down(zoom, &zoom->to, fit);
    zoom->easing = !still;
    if (still) /* reduced motion: there at once */
        zoom->set = zoom->to;
}

BookZoomScroll book_zoom_scroll(BookZoom *zoom, float dy, double time, const BookZoomRect *fit,
                                bool rtl)
{
    if (!isfinite(dy) || dy == 0.0f || zoom->hosted || zoom->resume || !fit ||
        !(fit->x1 > fit->x0) || !(fit->y1 > fit->y0) || easing_to_fit(zoom, time))
        return BOOK_ZOOM_SCROLL_NONE;
    if (zoom->easing) /* easing back in after a turn: a scroll goes on from where it was going */
        zoom->since = fmin(zoom->since, time - BOOK_ZOOM_EASE);
    bake(zoom, time, fit);
    zoom->panning = false;
    BookZoomView v = zoom->set;
    if (!book_zoom_enlarged(&v) && !zoom->width)
        return BOOK_ZOOM_SCROLL_NONE; /* the fitted view: the page is all in view, nothing to scroll
                                       */
    float s = scale_of(&v);
    float top = head_pan(s, fit, false), foot = head_pan(s, fit, true);
    if (foot > top) /* shorter than the view: centred, at its head and foot at once */
        top = foot = kept(v, fit).y;
    bool forward = dy > 0.0f;
    if (forward ? v.y > foot + BOOK_ZOOM_EDGE : v.y < top - BOOK_ZOOM_EDGE) {
        zoom->set.y = clampf(v.y - dy, foot, top); /* down the page: the picture moves up */
        note_down(zoom, &zoom->set, fit);
        return BOOK_ZOOM_SCROLL_MOVED;
    }
    /* at the foot (head): the next page in reading order */
    int side = zoom->width ? zoom->side : side_in_view(&v, fit);
    int first = rtl ? 1 : -1;
    if (two_pages(fit) && side == (forward ? first : -first)) { /* the spread's other page */
        float a, b, c, d;
        page_span(fit, side, &a, &b);
        page_span(fit, -side, &c, &d);
        zoom->set.x = v.x - s * (0.5f * (c + d) - 0.5f * (a + b));
        zoom->set.y = forward ? top : foot;
        zoom->side = -side;
        zoom->set = kept(zoom->set, fit);
        note_down(zoom, &zoom->set, fit);
        return BOOK_ZOOM_SCROLL_MOVED;
    }
    return forward ? BOOK_ZOOM_SCROLL_NEXT : BOOK_ZOOM_SCROLL_BACK;
}

void book_zoom_scroll_turned(BookZoom *zoom, BookZoomScroll way)
{
    zoom->resume_last = way == BOOK_ZOOM_SCROLL_BACK;
}

void book_zoom_scroll_slid(BookZoom *zoom, BookZoomScroll way, double time, const BookZoomRect *fit)
{
    bake(zoom, time, fit);
    zoom->set.y = head_pan(scale_of(&zoom->set), fit, way == BOOK_ZOOM_SCROLL_BACK);
    zoom->set = kept(zoom->set, fit);
    note_down(zoom, &zoom->set, fit);
}

static void sample(BookZoom *zoom, float x, float y, double time)
{
    int k = zoom->sample_next;
    zoom->sample_t[k] = time, zoom->sample_x[k] = x, zoom->sample_y[k] = y;
    zoom->sample_next = (k + 1) % BOOK_ZOOM_SAMPLES;
    if (zoom->sample_count < BOOK_ZOOM_SAMPLES)
        zoom->sample_count++;
}

void book_zoom_drag_begin(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit)
{
    bake(zoom, time, fit); /* a press stops a coasting flick */
    zoom->panning = true;
    zoom->px = x, zoom->py = y;
    zoom->sample_count = zoom->sample_next = 0;
    sample(zoom, x, y, time);
}

void book_zoom_drag_move(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit)
{
    if (!zoom->panning)
        return;
    float dx = x - zoom->px, dy = y - zoom->py;
    book_zoom_pan(zoom, dx, dy, time, fit);
    zoom->px = x, zoom->py = y;
    sample(zoom, x, y, time);
}

void book_zoom_drag_end(BookZoom *zoom, double time, const BookZoomRect *fit)
{
    if (!zoom->panning)
        return;
    bake(zoom, time, fit);
    zoom->panning = false;
    if (zoom->sample_count < 2)
        return;
    int last = (zoom->sample_next + BOOK_ZOOM_SAMPLES - 1) % BOOK_ZOOM_SAMPLES, first = last;
    for (int i = 1; i < zoom->sample_count; i++) {
        int k = (last + BOOK_ZOOM_SAMPLES - i) % BOOK_ZOOM_SAMPLES;
        if (zoom->sample_t[last] - zoom->sample_t[k] > FLICK_WINDOW)
            break;
        first = k;
    }
    double span = zoom->sample_t[last] - zoom->sample_t[first];
    if (first == last || span < FLICK_SPAN || time - zoom->sample_t[last] > FLICK_STILL)
        return; /* held still before letting go, or too brief a motion to measure: no flick */
    double vx = (zoom->sample_x[last] - zoom->sample_x[first]) / span,
           vy = (zoom->sample_y[last] - zoom->sample_y[first]) / span, v = hypot(vx, vy);
    double k = v > FLICK_MAX ? FLICK_MAX / v : 1.0;
    zoom->vx = zoom->width ? 0.0f : (float)(vx * k); /* a page's width stays where it is */
    zoom->vy = (float)(vy * k);
}

void book_zoom_apply(const BookZoomView *view, float u, float v, float *x, float *y)
{
    float s = scale_of(view);
    *x = 0.5f + s * (u - 0.5f) + view->x;
    *y = 0.5f + s * (v - 0.5f) + view->y;
}

void book_zoom_unapply(const BookZoomView *view, float x, float y, float *u, float *v)
{
    float s = scale_of(view);
    *u = 0.5f + (x - 0.5f - view->x) / s;
    *v = 0.5f + (y - 0.5f - view->y) / s;
}
