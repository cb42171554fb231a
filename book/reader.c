/* SPDX-License-Identifier: MIT */
#include "reader.h"

#include <math.h>

/* The side the reader's page lies on (an even page on the left). */
static float page_side(const BookReader *r)
{
    return r->page % 2 == 0 ? 1.0f : 0.0f;
}

/* Where the view goes while the flip shows `view`: the reader's page where it lies on the spread
 * shown or on the one the leaf in flight lands on (the view goes with the leaf); with more
 * leaves to turn after it (thumbing through), the side they lift from. */
static float target(const BookReader *r, const MeshFlipView *view)
{
    int h = view->heading, s = view->spread, at = r->page / 2;
    if (at == h && h >= s - 1 && h <= s + 1)
        return page_side(r);
    return h > s ? 0.0f : 1.0f;
}

/* The side a leaf settling in `view` lands on (forward, completing: the left), or -1 where none
 * settles. */
static float landing_side(const MeshFlipView *view)
{
    if (view->phase != MESH_FLIP_SETTLING)
        return -1.0f;
    bool forward = view->direction == MESH_FLIP_FORWARD;
    return forward == view->completing ? 1.0f : 0.0f;
}

/* How far along the slide is (0 .. 1) for `view` at `time`: a slide that goes with a settling
 * leaf to where it lands follows that leaf's progress (so it arrives as the leaf lies down,
 * however fast it flies); any other, the clock. */
static float along(const BookReader *r, const MeshFlipView *view, double time)
{
    if (r->with_leaf) {
        if (!view || !view->turning || view->turning_leaf != r->leaf || r->p_to == r->p_from)
            return 1.0f;
        float f = (view->progress - r->p_from) / (r->p_to - r->p_from);
        return f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    }
    double u = r->duration > 0.0 ? (time - r->since) / r->duration : 1.0;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    /* eased in and out, with neither speed nor acceleration at either end (smootherstep) */
    return (float)(u * u * u * (u * (6.0 * u - 15.0) + 10.0));
}

static float value(const BookReader *r, const MeshFlipView *view, double time)
{
    return r->from + (r->to - r->from) * along(r, view, time);
}

/* The slide aimed where `view` asks, from where the view is at `time` (or the latest moment
 * followed, where frames were shown ahead of it: the slide then goes on from what they
 * showed): with the settling leaf where it goes to the side that leaf lands on, else on the
 * clock. */
static void aim(BookReader *r, const MeshFlipView *view, double time, bool cut)
{
    float to = target(r, view);
    if (to == r->to)
        return;
    double at = time > r->seen ? time : r->seen;
    r->from = cut ? to : value(r, view, at);
    r->to = to;
    r->since = at;
    r->leaf = view->turning_leaf;
    r->p_from = view->progress;
    r->p_to = view->completing ? 1.0f : 0.0f;
    bool landing = to == landing_side(view);
    /* with the leaf while it has at least half its way to go (a key's turn, a flick); a leaf
     * let go near where it lands would carry the view across in a few frames: on the clock */
    r->with_leaf = landing && fabsf(r->p_to - r->p_from) >= 0.5f;
    r->duration = landing ? BOOK_READER_LANDING_TIME : BOOK_READER_SLIDE_TIME;
}

void book_reader_init(BookReader *r, int pages, int page, int spread)
{
    *r = (BookReader){.page = page >= 1 ? page : (spread >= 1 ? 2 * spread : 1),
                      .pages = pages,
                      .spread = spread};
    r->from = r->to = page_side(r);
}

int book_reader_page(const BookReader *r, const MeshFlipView *view)
{
    int h = view->heading, at = r->page / 2;
    if (h == at)
        return r->page;
    if (h > at) /* h >= 1: its left-hand page, past the last page where the book closes */
        return 2 * h;
    return 2 * h + 1 <= r->pages ? 2 * h + 1 : 2 * h;
}

void book_reader_follow(BookReader *r, const MeshFlipView *view, double time)
{
    if (time < r->seen)
        return;
    r->seen = time;
    r->spread = view->spread;
    r->page = book_reader_page(r, view);
    aim(r, view, time, view->reduced_motion);
}

float book_reader_left_page(const BookReader *r, const MeshFlipView *view, double time)
{
    return value(r, view, time);
}

bool book_reader_sliding(const BookReader *r, const MeshFlipView *view, double time)
{
    return r->from != r->to && along(r, view, time) < 1.0f;
}

void book_reader_step(BookReader *r, int page, const MeshFlipView *view, double time, bool cut)
{
    r->page = page;
    aim(r, view, time, cut);
}

void book_reader_jump(BookReader *r, int page, int spread, double time)
{
    r->page = page;
    r->spread = spread;
    r->from = r->to = page_side(r);
    r->since = time;
    r->with_leaf = false;
    if (time > r->seen)
        r->seen = time;
}
