/* SPDX-License-Identifier: MIT */
/* The book's events, queued where they happen for a host that polls them: the flip's lifts and
 * landings taken after every call that moves it, the settled spread told when it changes, the
 * pages whose ink changed gathered until no stroke is being drawn, a page ready or an error line.
 * Owns the queue and what it has told; reads the flip and the ink it is given, changes neither's
 * state beyond taking the flip's log. The types are the public header's (pagecurl_event_type),
 * taken from it: the facade hands an event on by value. */
#ifndef PAGECURL_BOOK_EVENTS_H
#define PAGECURL_BOOK_EVENTS_H

#include "../include/pagecurl/pagecurl.h"
#include "../mesh/flip.h"
#include "../mesh/ink.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum BookEventType {
    BOOK_EVENT_TURN_STARTED = PAGECURL_EVENT_TURN_STARTED,
    BOOK_EVENT_TURN_ENDED = PAGECURL_EVENT_TURN_ENDED,
    BOOK_EVENT_SPREAD_CHANGED = PAGECURL_EVENT_SPREAD_CHANGED,
    BOOK_EVENT_PAGE_READY = PAGECURL_EVENT_PAGE_READY,
    BOOK_EVENT_INK_CHANGED = PAGECURL_EVENT_INK_CHANGED,
    BOOK_EVENT_ERROR = PAGECURL_EVENT_ERROR,
} BookEventType;

/* The line an ERROR event carries, with its end. */
#define BOOK_EVENT_MESSAGE 256
_Static_assert(BOOK_EVENT_MESSAGE == sizeof(((pagecurl_event *)0)->message),
               "an event's line is the public event's");

typedef struct BookEvent {
    BookEventType type;
    bool forward;    /* TURN_*: the direction the turn started in */
    bool completed;  /* TURN_ENDED: turned over (false: fell back) */
    int left, right; /* pages (1-based), 0: none */
    int page;        /* 1-based; 0: none, or (INK_CHANGED) any page */
    char message[BOOK_EVENT_MESSAGE];
} BookEvent;

/* Events kept for a host that does not poll: the oldest go first. */
#define BOOK_EVENTS_KEPT 256
/* Sides whose ink changes are told one by one between two updates; beyond, one event of page 0. */
#define BOOK_EVENTS_INK_SIDES 32

typedef struct BookEvents {
    BookEvent ring[BOOK_EVENTS_KEPT];
    uint32_t head, count;
    int told_spread;                      /* the spread last told (SPREAD_CHANGED) */
    uint64_t ink_seen;                    /* the ink's revision last told */
    int ink_sides[BOOK_EVENTS_INK_SIDES]; /* the sides changed since */
    int ink_pending;
    bool ink_more; /* more changed than ink_sides holds */
} BookEvents;

/* The pages of a book of `pages` pages that spread `s` shows (1-based, 0: none), as the reader
 * sees them left and right (a book bound on the right, `rtl`, mirrored). */
void book_events_spread_pages(int pages, bool rtl, int s, int *left, int *right);

/* Empty, having told `spread` and the ink at `ink_revision`. */
void book_events_init(BookEvents *q, int spread, uint64_t ink_revision);
/* A new event of `type` at the queue's end, zero but for its type (the oldest dropped when full).
 */
BookEvent *book_events_push(BookEvents *q, BookEventType type);
/* An ERROR event of page `page` (1-based; 0: none) with `line`. */
void book_events_error(BookEvents *q, int page, const char *line);
/* The oldest event into *out, taken from the queue; false where there is none. */
bool book_events_poll(BookEvents *q, BookEvent *out);
/* Side `side` (below 0: none) changed its ink: told at the next book_events_derive
 * after the stroke ends. */
void book_events_ink_touched(BookEvents *q, int side);
/* The flip's lifts and landings as it logged them, when they happened (thumbing through, a leaf
 * lands as the next lifts): taken after every call that moves the flip, so none is lost. */
void book_events_take_turns(BookEvents *q, MeshFlip *flip, int pages, bool rtl);
/* The turns, and what no turn tells: the spread `now` settled at (a jump: go to, first, last), the
 * ink changed once no stroke is being drawn. */
void book_events_derive(BookEvents *q, MeshFlip *flip, const MeshFlipView *now, const MeshInk *ink,
                        int pages, bool rtl);

#endif
