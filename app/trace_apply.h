/* SPDX-License-Identifier: MIT */
/* A trace event (app/trace.h: the window's input, or a replayed trace's) given to a libpagecurl
 * book through its public calls: pointers, keys, the zoom and pan, clears, go to page. Positions
 * are the trace's fractions of the view times the viewport's size, which the book takes back to
 * those fractions exactly, so a window and a headless replay of its trace see the same input, and
 * follow the same links. */
#ifndef PAGECURL_APP_TRACE_APPLY_H
#define PAGECURL_APP_TRACE_APPLY_H

#include "trace.h"

#include <pagecurl/pagecurl.h>

/* A click on a link: the mouse pressed on one and let go within APP_TRACE_CLICK_TRAVEL of the
 * press (either way, fractions of the view: about 4 points of a window), not a drag. One to a
 * page follows it (pagecurl_book_follow, once the release has let the page fall back); one to an
 * address is the window's to show or open (app/link_click.h). A double-click's second press is a
 * zoom's toggle, not a press: its first click is the one. So the window and a replay of its
 * trace, in a window or headless, follow the same links. */
#define APP_TRACE_CLICK_TRAVEL 0.004f
typedef struct AppTraceClick {
    bool armed; /* pressed on a link and not moved past the travel */
    float x, y; /* where, as the trace's fractions */
    pagecurl_link link;
    bool address; /* the last click was on an address (link.uri): its taker clears it */
} AppTraceClick;

/* `width` x `height`: the viewport's pixels. `click`: the links' clicks, kept between events. */
void app_trace_apply(pagecurl_book *book, AppTraceClick *click, const pagecurl_input_event *e,
                     double width, double height);

#endif
