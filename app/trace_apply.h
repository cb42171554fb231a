/* SPDX-License-Identifier: MIT */
/* A trace event (app/trace.h: the window's input, or a replayed trace's) given to a libpagecurl
 * book through its public calls: pointers, keys, the zoom and pan, clears, go to page. Positions
 * are the trace's fractions of the view times the viewport's size, which the book takes back to
 * those fractions exactly, so a window and a headless replay of its trace see the same input. */
#ifndef PAGECURL_APP_TRACE_APPLY_H
#define PAGECURL_APP_TRACE_APPLY_H

#include "trace.h"

#include <pagecurl/pagecurl.h>

/* `width` x `height`: the viewport's pixels. */
void app_trace_apply(pagecurl_book *book, const AppTraceEvent *e, double width, double height);

#endif
