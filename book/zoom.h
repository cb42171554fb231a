/* SPDX-License-Identifier: MIT */
/* Zoom and pan: the fitted picture of the book enlarged 1x..8x about a point and moved, a
 * transform of the screen that the camera applies after its projection (a longer lens aimed off
 * centre: a page seen face-on stays exact, and depth is untouched). Plain state on a clock: a
 * drag's pan with a flick's inertia and the ease back to the fitted view are closed-form functions
 * of time, so a replay at any frame rate shows the same picture. Positions are fractions of the
 * view (0..1, y down), as in traces. Owns nothing; knows nothing of the camera or the book: the
 * book hands it the fitted pages' rectangle, which the pan keeps covering the view. */
#ifndef PAGECURL_BOOK_ZOOM_H
#define PAGECURL_BOOK_ZOOM_H

#include <stdbool.h>
#include <stdint.h>

#define BOOK_ZOOM_MIN 1.0f
#define BOOK_ZOOM_MAX 8.0f
/* Double-click or double-tap: the fitted view <-> this, at the pointer. */
#define BOOK_ZOOM_TOGGLE 2.5f
/* `+` and `-`, and a notch of Ctrl+wheel: this factor. */
#define BOOK_ZOOM_STEP 1.25f
/* A flick's pan slows as exp(-t / this), in seconds, whatever the frame rate. */
#define BOOK_ZOOM_FLICK_TAU 0.3
/* A turn started zoomed in eases the view back to fit over this, in seconds, and once the book
 * is at rest again back in to the zoom it had over as long. */
#define BOOK_ZOOM_EASE 0.35
/* A scroll this close (fractions of the view) to the page's foot or head is there: the next one
 * goes on to the next page. */
#define BOOK_ZOOM_EDGE 1e-4f

/* The picture as it is shown: a point u of the fitted picture (fractions of the view) shows at
 * 0.5 + scale (u - 0.5) + (x, y). Zero-initialised: the fitted view itself (scale 0 is 1). */
typedef struct BookZoomView {
    float scale;
    float x, y;
    /* A host's camera in place of the fitted one (pagecurl_book_set_camera): its view-projection,
     * column-major, from the spread's frame (book/camera.h) to Vulkan's clip space. The zoom and
     * pan then have no part. */
    bool hosted;
    float host[16];
    /* a pan on its way, drawn on whole pixels (book_zoom_whole_pixels): such a frame asks for no
     * detail (book/book.c) and its picture may be moved rather than drawn (gpu/draw.h) */
    bool panning;
    /* a zoom's ease on its way (book_zoom_easing): its picture may be the last one drawn, scaled
     * (gpu/draw.h); the ease's end is drawn */
    bool scaling;
} BookZoomView;

/* A pan is drawn on whole pixels until it has held still this long (seconds): a replay's frames
 * fall between its moves (their times in whole milliseconds) and a busy machine's input comes
 * unevenly; then it is drawn exactly. */
#define BOOK_ZOOM_PAN_REST 0.05

/* The fitted pages, in fractions of the view: what the pan keeps covering the view (or centred on
 * an axis where they are smaller than it). `spine`: where two pages lie side by side, the spine
 * between them (x0 < spine < x1); anything else (0) says the rectangle is one page. */
typedef struct BookZoomRect {
    float x0, y0, x1, y1;
    float spine;
} BookZoomRect;

#define BOOK_ZOOM_SAMPLES 4

typedef struct BookZoom {
    BookZoomView set; /* as last set, at `since` */
    bool hosted;      /* a host's camera, `host`, gives every view (BookZoomView.hosted) */
    float host[16];
    double since;
    float vx, vy; /* the flick's velocity at `since`, fractions of the view a second */
    bool easing;  /* from `set` at `since` to the fitted view over BOOK_ZOOM_EASE */
    bool panning; /* a drag pans: its last pointer, and its latest samples for the flick */
    float px, py;
    int sample_count, sample_next;
    double sample_t[BOOK_ZOOM_SAMPLES];
    float sample_x[BOOK_ZOOM_SAMPLES], sample_y[BOOK_ZOOM_SAMPLES];
    /* `easing` goes to this (the fitted view for a turn, the zoom to come back to after it) */
    BookZoomView to;
    /* Fitted to the width of a page (W): the scale and the pan across follow the fitted pages
     * (a resize, another spread), the page `side` (-1 the left-hand one as the view shows it, +1
     * the right-hand one, 0 the only one) filling the view's width; the pan down is the reader's
     * (a scroll). A zoom, or a pan that moves the picture across, leaves it. */
    bool width;
    int side;
    float down; /* the view's top, down the page from its head: a fraction of its height */
    /* A turn from a zoomed view: once the book is at rest, the view eases back in to this zoom
     * (`resume_scale`, or the width of a page), its pan across `resume_dx` from the page's centre
     * (as it was from the page turned from), at the head of the spread's first page in reading
     * order, or with `resume_last` (a scroll back) at the foot of its last. */
    bool resume, resume_width, resume_last;
    float resume_scale, resume_dx;
} BookZoom;

/* The fitted view, still. */
void book_zoom_init(BookZoom *zoom);

/* The picture at `time` (never before the last change), its pan kept within `fit`. */
BookZoomView book_zoom_at(const BookZoom *zoom, double time, const BookZoomRect *fit);

/* Whether the picture still changes with the clock alone (a flick coasting, an ease to fit). */
bool book_zoom_moving(const BookZoom *zoom, double time);
/* Whether a zoom's ease (a step's, or back to fit) is on its way at `time`: its scale changes. */
bool book_zoom_easing(const BookZoom *zoom, double time);

/* `v` with its pan on whole pixels of a width x height view, each axis rounded to the nearest
 * whole pixel within `fit`'s limits (the other way where the nearest lies past them; left where
 * neither is within them, as a centred axis), marked `panning`. */
BookZoomView book_zoom_whole_pixels(BookZoomView v, uint32_t width, uint32_t height,
                                    const BookZoomRect *fit);

/* Whether a view is enlarged at all (at 1x a drag turns pages, as without zoom). */
bool book_zoom_enlarged(const BookZoomView *view);

/* The zoom times `factor` (the result kept to 1..8) about the point (x, y), which stays where it
 * is unless the pan's limits move the picture. */
void book_zoom_by(BookZoom *zoom, float factor, float x, float y, double time,
                  const BookZoomRect *fit);
/* The zoom set to `scale` (1..8) about (x, y). */
void book_zoom_set(BookZoom *zoom, float scale, float x, float y, double time,
                   const BookZoomRect *fit);
/* The picture moved by (dx, dy), within the limits. */
void book_zoom_pan(BookZoom *zoom, float dx, float dy, double time, const BookZoomRect *fit);
/* The zoom times `factor` about the centre of the page in view (`+` `-` with no pointer over the
 * view): the page whose part of `fit` holds the view's centre, the right-hand one where the
 * centre is on the spine. */
void book_zoom_by_page(BookZoom *zoom, float factor, double time, const BookZoomRect *fit);
/* Fitted at once (`0`, `Z`: no zoom, no fit to width, nothing to come back to after a turn);
 * toggled between fit and BOOK_ZOOM_TOGGLE at (x, y) (a double-click). */
void book_zoom_fit(BookZoom *zoom, double time);
void book_zoom_toggle(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit);
/* Fitted to the width of the page at (x, y) of the view (W; a spread's right-hand page where (x,
 * y) is not finite), its head at the top, at once. */
void book_zoom_fit_width(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit);
/* A view kept from before (a run before), at once and within the limits: fitted to the width of
 * page `side` (as book_zoom_fit_width's), its top `down` the page's height below its head; else
 * (not `width`) at `scale` panned (x, y) (fractions of the view). Nothing to come back to. */
void book_zoom_restore(BookZoom *zoom, bool width, int side, float down, float scale, float x,
                       float y, double time, const BookZoomRect *fit);
/* Eases from the picture at `time` back to fit over BOOK_ZOOM_EASE (a turn starts zoomed in),
 * keeping the zoom (or the fit to width) to come back to once the book is at rest again
 * (book_zoom_settle). */
void book_zoom_ease_fit(BookZoom *zoom, double time, const BookZoomRect *fit);
/* The zoom kept to come back to after a turn, the view left as it is (reduced motion's
 * cross-fade, during which nothing moves). */
void book_zoom_keep(BookZoom *zoom, double time, const BookZoomRect *fit);
/* After a turn, once the book lies at rest in `fit`: eases back in to the zoom kept by
 * book_zoom_ease_fit (book_zoom_keep) over BOOK_ZOOM_EASE, or with `still` (reduced motion) goes
 * there at once, at the head of the spread's first page in reading order (`rtl`: the right-hand
 * one), or at the foot of its last after book_zoom_scroll turned back. Nothing where no zoom was
 * kept. */
void book_zoom_settle(BookZoom *zoom, double time, const BookZoomRect *fit, bool rtl, bool still);

/* What a scroll did. */
typedef enum BookZoomScroll {
    BOOK_ZOOM_SCROLL_NONE = 0, /* nothing to scroll: the fitted view, a turn under way */
    BOOK_ZOOM_SCROLL_MOVED,    /* down (up) the page, or on to the spread's other page */
    BOOK_ZOOM_SCROLL_NEXT,     /* past the foot of the spread's last page: the caller turns */
    BOOK_ZOOM_SCROLL_BACK,     /* past the head of its first: the caller turns back */
} BookZoomScroll;

/* Scrolls a zoomed (or fitted to width) view `dy` view heights down the page (< 0: up), within
 * the page. From the page's foot (or head, scrolling up) it goes on to the next page in reading
 * order (`rtl`: the right-hand page first): in a spread the other page, at its head (foot); else
 * the caller turns the page, and book_zoom_settle then brings the zoom back at the head (after
 * book_zoom_scroll_turned(zoom, BOOK_ZOOM_SCROLL_BACK): the foot) of the page turned to. */
BookZoomScroll book_zoom_scroll(BookZoom *zoom, float dy, double time, const BookZoomRect *fit,
                                bool rtl);
/* The turn book_zoom_scroll asked for was made (`way`: its NEXT or BACK): the zoom comes back
 * there. */
void book_zoom_scroll_turned(BookZoom *zoom, BookZoomScroll way);
/* ... or the reader slid to the spread's other page instead (the one-page view's step, no leaf
 * turned): the view at once at that page's head (`way` BACK: its foot), as zoomed, in `fit`. */
void book_zoom_scroll_slid(BookZoom *zoom, BookZoomScroll way, double time,
                           const BookZoomRect *fit);

/* A drag that pans: pressed at (x, y), moved, let go (with the flick's velocity of its last
 * tenth of a second, coasting on). */
void book_zoom_drag_begin(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit);
void book_zoom_drag_move(BookZoom *zoom, float x, float y, double time, const BookZoomRect *fit);
void book_zoom_drag_end(BookZoom *zoom, double time, const BookZoomRect *fit);

/* Where a point u (fractions) of the fitted picture shows, and back. */
void book_zoom_apply(const BookZoomView *view, float u, float v, float *x, float *y);
void book_zoom_unapply(const BookZoomView *view, float x, float y, float *u, float *v);

#endif
