/* SPDX-License-Identifier: MIT */
#include "trace_apply.h"

#include <float.h>
#include <math.h>

/* A mouse's press, move or release as the links see it: the press (before the book has it: the
 * book as it was shown) arms a click where a link lies, a move past the travel disarms it, the
 * release (after the book's) follows it. */
static void click_event(pagecurl_book *b, AppTraceClick *c, const AppTraceEvent *e, double x,
                        double y, bool before)
{
    if (e->action == APP_TRACE_DOWN && before) {
        c->link = (pagecurl_link){.size = sizeof c->link};
        c->armed = pagecurl_book_link_at(b, x, y, &c->link);
        c->x = e->x, c->y = e->y;
        return;
    }
    bool near = fabsf(e->x - c->x) <= APP_TRACE_CLICK_TRAVEL &&
                fabsf(e->y - c->y) <= APP_TRACE_CLICK_TRAVEL;
    if (e->action == APP_TRACE_MOVE && !near)
        c->armed = false; /* a drag */
    if (e->action != APP_TRACE_UP || before)
        return;
    bool click = c->armed && near;
    c->armed = false;
    if (click && c->link.target)
        pagecurl_book_follow(b, c->link.target, e->time);
    else if (click && c->link.uri[0])
        c->address = true;
}

void app_trace_apply(pagecurl_book *b, AppTraceClick *click, const AppTraceEvent *e, double w,
                     double h)
{
    double x = (double)e->x * w, y = (double)e->y * h;
    if (click && e->device == APP_TRACE_MOUSE)
        click_event(b, click, e, x, y, true);
    switch (e->device) {
    case APP_TRACE_MOUSE:
    case APP_TRACE_FINGER:
    case APP_TRACE_INK: {
        if (e->device == APP_TRACE_INK && e->action == APP_TRACE_CLEAR) {
            pagecurl_book_clear_at(b, x, y, e->time);
            break;
        }
        pagecurl_pointer_event p = {
            .size = sizeof p,
            .phase = e->action == APP_TRACE_DOWN   ? PAGECURL_POINTER_DOWN
                     : e->action == APP_TRACE_MOVE ? PAGECURL_POINTER_MOVE
                                                   : PAGECURL_POINTER_UP,
            .kind = e->device == APP_TRACE_INK      ? PAGECURL_POINTER_PEN
                    : e->device == APP_TRACE_FINGER ? PAGECURL_POINTER_FINGER
                                                    : PAGECURL_POINTER_MOUSE,
            .id = (uint64_t)e->device + 1,
            .x = x,
            .y = y,
            /* the library reads 0 as a mouse's full pressure; the trace's 0 is a hairline */
            .pressure = e->pressure > 0.0f ? e->pressure : FLT_MIN,
            .time = e->time};
        pagecurl_book_pointer(b, &p);
        if (click && e->device == APP_TRACE_MOUSE)
            click_event(b, click, e, x, y, false);
        break;
    }
    case APP_TRACE_KEY: {
        static const pagecurl_action actions[] = {[APP_TRACE_NEXT] = PAGECURL_ACTION_NEXT,
                                                  [APP_TRACE_PREV] = PAGECURL_ACTION_PREVIOUS,
                                                  [APP_TRACE_HOME] = PAGECURL_ACTION_FIRST,
                                                  [APP_TRACE_END] = PAGECURL_ACTION_LAST,
                                                  [APP_TRACE_UNDO] = PAGECURL_ACTION_UNDO};
        if (e->action == APP_TRACE_GOTO)
            pagecurl_book_go_to(b, e->page);
        else if (e->action == APP_TRACE_FONT) /* a failure is the book's error event */
            pagecurl_book_relayout(b, e->scale, 0.0f, NULL);
        else if (e->action == APP_TRACE_NEXT || e->action == APP_TRACE_PREV ||
                 e->action == APP_TRACE_HOME || e->action == APP_TRACE_END ||
                 e->action == APP_TRACE_UNDO)
            pagecurl_book_action(b, actions[e->action], e->time);
        break;
    }
    case APP_TRACE_ZOOM:
        if (e->action == APP_TRACE_BY)
            pagecurl_book_zoom_by(b, e->scale, x, y, e->time); /* NAN: the page's centre */
        else if (e->action == APP_TRACE_WIDTH)
            pagecurl_book_fit(b, PAGECURL_FIT_WIDTH, x, y, e->time);
        else if (e->action == APP_TRACE_SCROLL)
            pagecurl_book_scroll(b, e->y, e->time);
        else if (e->action == APP_TRACE_PAN)
            pagecurl_book_pan(b, x, y, e->time);
        else if (e->action == APP_TRACE_FIT)
            pagecurl_book_action(b, PAGECURL_ACTION_ZOOM_FIT, e->time);
        else if (e->action == APP_TRACE_TOGGLE)
            pagecurl_book_zoom_toggle(b, x, y, e->time);
        break;
    }
}
