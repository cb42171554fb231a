/* The input a book takes: pointer, finger, pen and key events with their time, positions as
 * fractions of the view's width and height (0..1, y down), and the view's zoom and pan. The
 * window's events, a replayed trace's (app/trace.h) and a host's through the library all arrive
 * as these. */
#ifndef PAGECURL_BOOK_EVENT_H
#define PAGECURL_BOOK_EVENT_H

typedef enum AppTraceDevice {
    APP_TRACE_MOUSE = 0,
    APP_TRACE_FINGER,
    APP_TRACE_KEY,
    APP_TRACE_INK,  /* a pen stroke (any pointer in ink mode): draws instead of turning */
    APP_TRACE_ZOOM, /* the view's zoom and pan (book/zoom.h) */
} AppTraceDevice;
typedef enum AppTraceAction {
    APP_TRACE_DOWN = 0,
    APP_TRACE_MOVE,
    APP_TRACE_UP,
    APP_TRACE_NEXT,
    APP_TRACE_PREV,
    APP_TRACE_UNDO,   /* key: take back the last stroke or clear */
    APP_TRACE_CLEAR,  /* ink: wipe the page side at X Y */
    APP_TRACE_HOME,   /* key: open the book at its first spread */
    APP_TRACE_END,    /* key: open it at its last */
    APP_TRACE_BY,     /* zoom: times `scale` about X Y (Ctrl+wheel, a pinch, + and -) */
    APP_TRACE_PAN,    /* zoom: the picture moved by X Y (fractions of the view; a pinch's centre) */
    APP_TRACE_FIT,    /* zoom: back to the fitted view (0) */
    APP_TRACE_TOGGLE, /* zoom: fit <-> 2.5x at X Y (a double-click or double-tap) */
    APP_TRACE_GOTO,   /* key: open the book at the spread holding `page` (the G field) */
} AppTraceAction;

typedef struct AppTraceEvent {
    double time;
    AppTraceDevice device;
    AppTraceAction action;
    float x, y;     /* pointer and ink events only */
    float pressure; /* ink down and move: 0..1 */
    float scale;    /* zoom by: the factor */
    int page;       /* key goto: the page, 1-based */
} AppTraceEvent;

#endif
