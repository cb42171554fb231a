/* SPDX-License-Identifier: MIT */
/* The input a book takes: pointer, finger, pen and key events with their time, positions as
 * fractions of the view's width and height (0..1, y down), and the view's zoom and pan. A host's
 * calls through the library (book/pagecurl.c: pointers, actions, the zoom) arrive as these; the
 * program's traces (app/trace.h) have a type of their own, which reaches the book through the
 * library's calls. */
#ifndef PAGECURL_BOOK_EVENT_H
#define PAGECURL_BOOK_EVENT_H

typedef enum BookInputDevice {
    BOOK_INPUT_MOUSE = 0,
    BOOK_INPUT_FINGER,
    BOOK_INPUT_KEY,
    BOOK_INPUT_INK,  /* a pen stroke (any pointer in ink mode): draws instead of turning */
    BOOK_INPUT_ZOOM, /* the view's zoom and pan (book/zoom.h) */
} BookInputDevice;
typedef enum BookInputAction {
    BOOK_INPUT_DOWN = 0,
    BOOK_INPUT_MOVE,
    BOOK_INPUT_UP,
    BOOK_INPUT_NEXT,
    BOOK_INPUT_PREV,
    BOOK_INPUT_UNDO,  /* key: take back the last stroke or clear */
    BOOK_INPUT_CLEAR, /* ink: wipe the page side at X Y */
    BOOK_INPUT_HOME,  /* key: open the book at its first spread */
    BOOK_INPUT_END,   /* key: open it at its last */
    BOOK_INPUT_BY,    /* zoom: times `scale` about X Y (Ctrl+wheel, a pinch, + and -) */
    BOOK_INPUT_PAN,   /* zoom: the picture moved by X Y (fractions of the view; a pinch's centre) */
    BOOK_INPUT_FIT,   /* zoom: back to the fitted view (0) */
    BOOK_INPUT_TOGGLE, /* zoom: fit <-> 2.5x at X Y (a double-click or double-tap) */
    BOOK_INPUT_GOTO,   /* key: open the book at the spread holding `page` (the G field) */
    BOOK_INPUT_WIDTH,  /* zoom: fit the width of the page at X Y (not finite: the right-hand) */
    BOOK_INPUT_SCROLL, /* zoom: scroll Y view heights down the page (< 0: up), on to the next */
} BookInputAction;

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
