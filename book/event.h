/* SPDX-License-Identifier: MIT */
/* The input a book takes: pointer, finger, pen and key events with their time, positions as
 * fractions of the view's width and height (0..1, y down), and the view's zoom and pan. A host's
 * calls through the library (book/pagecurl.c: pointers, actions, the zoom, and
 * pagecurl_book_input's one event for them all, which the program's traces are) arrive as these.
 * The devices and actions are the public header's (pagecurl_input_device and _action), taken
 * from it: the facade hands a public event's device and action on by value. */
#ifndef PAGECURL_BOOK_EVENT_H
#define PAGECURL_BOOK_EVENT_H

#include "../include/pagecurl/pagecurl.h"

typedef enum BookInputDevice {
    BOOK_INPUT_MOUSE = PAGECURL_INPUT_MOUSE,
    BOOK_INPUT_FINGER = PAGECURL_INPUT_FINGER,
    BOOK_INPUT_KEY = PAGECURL_INPUT_KEY,
    BOOK_INPUT_INK = PAGECURL_INPUT_INK,   /* a pen stroke (any pointer in ink mode) */
    BOOK_INPUT_ZOOM = PAGECURL_INPUT_ZOOM, /* the view's zoom and pan (book/zoom.h) */
} BookInputDevice;
typedef enum BookInputAction {
    BOOK_INPUT_DOWN = PAGECURL_INPUT_DOWN,
    BOOK_INPUT_MOVE = PAGECURL_INPUT_MOVE,
    BOOK_INPUT_UP = PAGECURL_INPUT_UP,
    BOOK_INPUT_CANCEL = PAGECURL_INPUT_CANCEL, /* a pointer gone without an up: a held page falls */
    BOOK_INPUT_NEXT = PAGECURL_INPUT_NEXT,
    BOOK_INPUT_PREV = PAGECURL_INPUT_PREV,
    BOOK_INPUT_UNDO = PAGECURL_INPUT_UNDO,   /* key: take back the last stroke or clear */
    BOOK_INPUT_CLEAR = PAGECURL_INPUT_CLEAR, /* ink: wipe the page side at X Y */
    BOOK_INPUT_HOME = PAGECURL_INPUT_HOME,   /* key: open the book at its first spread */
    BOOK_INPUT_END = PAGECURL_INPUT_END,     /* key: open it at its last */
    BOOK_INPUT_BY = PAGECURL_INPUT_BY, /* zoom: times `scale` about X Y (Ctrl+wheel, a pinch) */
    BOOK_INPUT_PAN =
        PAGECURL_INPUT_PAN, /* zoom: the picture moved by X Y (fractions of the view) */
    BOOK_INPUT_FIT = PAGECURL_INPUT_FIT,       /* zoom: back to the fitted view (0) */
    BOOK_INPUT_TOGGLE = PAGECURL_INPUT_TOGGLE, /* zoom: fit <-> 2.5x at X Y (a double-click) */
    BOOK_INPUT_GOTO = PAGECURL_INPUT_GOTO,     /* key: open the book at the spread holding `page` */
    BOOK_INPUT_WIDTH = PAGECURL_INPUT_WIDTH,   /* zoom: fit the width of the page at X Y (NAN: the
                                                  right-hand) */
    BOOK_INPUT_SCROLL = PAGECURL_INPUT_SCROLL, /* zoom: scroll Y view heights down the page */
} BookInputAction;
/* What the facade's conversion by value rests on. */
_Static_assert((int)BOOK_INPUT_ZOOM == (int)PAGECURL_INPUT_ZOOM &&
                   (int)BOOK_INPUT_SCROLL == (int)PAGECURL_INPUT_SCROLL,
               "the book's input devices and actions are the public header's");

typedef struct BookInput {
    double time;
    BookInputDevice device;
    BookInputAction action;
    float x, y;     /* pointer and ink events only; zoom by and width: not finite for none */
    float pressure; /* ink down and move: 0..1 */
    float scale;    /* zoom by: the factor */
    int page;       /* key goto: the page, 1-based */
} BookInput;

#endif
