/* SPDX-License-Identifier: MIT */
#include "trace_apply.h"

#include <float.h>
#include <math.h>

/* A mouse's press, move or release as the links see it: the press (before the book has it: the
 * book as it was shown) arms a click where a link lies, a move past the travel disarms it, the
 * release (after the book's) follows it. */
static void click_event(pagecurl_book *b, AppTraceClick *c, const pagecurl_input_event *e, double x,
                        double y, bool before)
{
    if (e->action == PAGECURL_INPUT_DOWN && before) {
        c->link = (pagecurl_link){.size = sizeof c->link};
        c->armed = pagecurl_book_link_at(b, x, y, &c->link);
        c->x = e->x, c->y = e->y;
        return;
    }
    bool near =
        fabs(e->x - c->x) <= APP_TRACE_CLICK_TRAVEL && fabs(e->y - c->y) <= APP_TRACE_CLICK_TRAVEL;
    if (e->action == PAGECURL_INPUT_MOVE && !near)
        c->armed = false; /* a drag */
    if (e->action != PAGECURL_INPUT_UP || before)
        return;
    bool click = c->armed && near;
    c->armed = false;
    if (click && c->link.target)
        pagecurl_book_follow(b, c->link.target, e->time);
    else if (click && c->link.uri[0])
        c->address = true;
}

void app_trace_apply(pagecurl_book *b, AppTraceClick *click, const pagecurl_input_event *e,
                     double w, double h)
{
    pagecurl_input_event in = *e;
    in.size = sizeof in;
    in.x = e->x * w, in.y = e->y * h; /* the trace's fractions of the view; NAN stays NAN */
    bool mouse = e->device == PAGECURL_INPUT_MOUSE;
    bool pointer = mouse || e->device == PAGECURL_INPUT_FINGER || e->device == PAGECURL_INPUT_INK;
    /* the library reads 0 as a mouse's full pressure; the trace's 0 is a hairline */
    if (pointer && !(in.pressure > 0.0f))
        in.pressure = FLT_MIN;
    if (click && mouse)
        click_event(b, click, e, in.x, in.y, true);
    pagecurl_book_input(b, &in);
    if (click && mouse)
        click_event(b, click, e, in.x, in.y, false);
}
