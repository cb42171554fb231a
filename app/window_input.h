/* SPDX-License-Identifier: MIT */
/* The window's input as a session: SDL's pointer, finger and key events turned into trace events
 * (the same a --replay plays), applied to the book and its ink, recorded for --record, with the
 * newest page-turning move held back to the next frame (latest pointer wins) and the latency from
 * an input to the frame that shows it. SDL lives here and in window.c only. */
#ifndef PAGECURL_APP_WINDOW_INPUT_H
#define PAGECURL_APP_WINDOW_INPUT_H

#include "trace.h"
#include "trace_apply.h"

#include <SDL.h>
#include <pagecurl/pagecurl.h>

/* A step of the keys' and the wheel's zoom: a notch, + or -. */
#define BOOK_ZOOM_STEP 1.25f
/* Scrolls, in view heights: a notch of the plain wheel, ↓ ↑ j k, Space (a screenful less a
 * line kept in view), and the most one wheel event scrolls (a trace's bound). */
#define APP_SCROLL_NOTCH  0.125f
#define APP_SCROLL_LINE   0.1f
#define APP_SCROLL_SCREEN 0.9f
#define APP_SCROLL_MAX    2.0f

/* What the window keeps of a session's input. */
typedef struct AppSession {
    pagecurl_book *book;     /* what the input is given to */
    bool ink_mode;           /* I: every pointer draws instead of turning pages */
    bool right_bound;        /* the book binds on the right: Left turns forward */
    uint8_t ink_button;      /* the mouse button drawing the current stroke, 0 when none */
    SDL_FingerID ink_finger; /* the finger drawing it, when ink_touch */
    bool ink_touch;
    /* the keyboard's modifiers as of the event being handled (app_session_track_mods) */
    SDL_Keymod mods;
    /* Fingers on the glass (two pinch: their centre pans, their spread zooms); a finger that
     * acts no more (the one left after a pinch, a double-tap's second) until it lifts. */
    int fingers;
    SDL_FingerID finger_id[2];
    float finger_x[2], finger_y[2];
    bool finger_idle[2];
    double finger_down[2]; /* when it went down, and where: a tap is short and still */
    float finger_down_x[2], finger_down_y[2];
    double tap_time; /* the last tap's end, and where: the next tap near it soon toggles zoom */
    float tap_x, tap_y;
    bool swallow_up;        /* a double-click's button up: its press toggled the zoom */
    const AppTrace *replay; /* events come from here, at the fixed step, instead of SDL */
    AppTraceClick click;    /* a click on a link (app/trace_apply.h), the trace's or a replay's */
    size_t next;
    AppTraceRecorder *record; /* --record: every input event, as it comes (NULL: none) */
    /* SDL's milliseconds when the session began: its times are whole milliseconds since then,
     * divided once, so that a time the trace writes (%.4f) reads back as the same double and a
     * replay measures a flick's span (zoom.c's FLICK_SPAN) as the session did */
    uint64_t start_ms;
    bool want_shot; /* F12 or P: the next frame is saved as a numbered screenshot */
    bool zoom_step; /* a step of the zoom (a key, a double-click): its frame may wait for detail */
    /* Latest pointer wins: the newest page-turning move since the last frame, applied just before
     * the next one (each move poses the page by a few dozen drag solves); one held back is
     * applied as the next comes where it is APP_SESSION_MOVE_SPACING after the last applied (its
     * time: move_applied), so that a flick's speed has its samples however slow the frames. */
    pagecurl_input_event move;
    bool move_due;
    double move_applied;
    /* X's time of the input event SDL gives next (x_due; app/x11.h), and X's clock on SDL's:
     * x_offset, SDL's milliseconds less X's, the least yet seen (the event read soonest after it
     * was made), once x_clock */
    uint32_t x_time;
    uint64_t x_sdl_ms; /* X's time on SDL's clock, where X's clock is this machine's; else 0 */
    bool x_due, x_clock;
    int64_t x_offset;
    double last_time;  /* the latest input event's time (app_session_event_time) */
    uint64_t input_ms; /* SDL time of the newest input not yet on screen; 0: none */
    /* input-to-display latencies (the input's SDL timestamp to the frame's present returning) */
    double latency_sum, latency_max;
    uint32_t latency_count, moving_frames;
    /* SDL time of the latest zoom or pan applied (0: none, or a key or a press has moved the
     * view since), and how long after it the last sharper drawing of the pages in view
     * (book/book_stream.h's detail) was on screen (-1: none since), in which of the frames shown
     * since (1: the first) */
    uint64_t zoomed_ms;
    double sharp_ms;
    uint32_t zoomed_frames, sharp_frame;
} AppSession;

/* A frame was shown; `sharper` says it is the first with a new detail of the pages in view. */
void app_session_sharp(AppSession *session, bool sharper);

/* SDL's millisecond `ms` on the session's clock begun at `start_ms`: whole milliseconds, divided
 * once (a trace's time, written to 0.1 ms, reads back as the same double). */
double app_session_time(uint64_t ms, uint64_t start_ms);
/* The session's clock: seconds since it started. */
double app_session_seconds(const AppSession *session);
/* An event's own time on the session's clock (not when a slow frame let the loop see it): X's
 * time for it where an SDL_SYSWMEVENT before it gave one (app_session_x_event), else SDL's
 * timestamp, which is when SDL read it. */
double app_session_event_time(const SDL_Event *e, AppSession *session);
/* An SDL_SYSWMEVENT seen: `x` says whether it gave X's time `x_ms` of the input events that
 * follow it (app/x11.h), `age` how long ago that was where X's clock is this machine's (else
 * -1), kept for app_session_event_time. */
void app_session_x_event(AppSession *session, bool x, uint32_t x_ms, int64_t age);
/* X's millisecond `x_ms`, seen by SDL at its millisecond `sdl_ms`, on the session's clock, where
 * X's clock is not this machine's (a server elsewhere): it is put on SDL's by the least
 * difference yet seen between the two (a later event read sooner after it was made moves it
 * back), and afresh where X's clock has jumped ahead by more than APP_SESSION_X_JUMP_MS (its 32
 * bits wrapped, a new server). */
#define APP_SESSION_X_JUMP_MS 10000
double app_session_x_time(AppSession *session, uint32_t x_ms, uint64_t sdl_ms);
/* An SDL input event as trace events (up to APP_SESSION_MAX_EVENTS), positions as fractions of
 * the window clamped to it; 0 for what is not input. Keeps the ink stroke's pointer and the
 * fingers in `session`. Ctrl+wheel zooms about the pointer, a two-finger pinch about the
 * fingers' centre (which pans as it moves); `+` `-` zoom about the pointer where it is over the
 * window, else about the page's centre; `0` or `Z` fits the page, `W` its width (the page under
 * the pointer); the plain wheel, Space (Shift: up), Down, Up, j, k scroll; a double-click or
 * double-tap toggles fit <-> 2.5x at the pointer. A second finger ends what the
 * first was doing (a held page is let go, a stroke ends). */
#define APP_SESSION_MAX_EVENTS 2
/* The modifiers as of `e`, for what a modifier changes (Ctrl+wheel, Ctrl+click, Shift+drag): a key
 * event's own, none once the window loses the keyboard. SDL_GetModState is SDL's state after every
 * event read so far: a slow frame reads a whole Shift+click, the Shift's release included, before
 * its press is handled. Called for every event, in order, before it is handled. */
void app_session_track_mods(AppSession *session, const SDL_Event *e);
int app_session_trace_events(const SDL_Event *e, SDL_Window *window, AppSession *session,
                             double now, pagecurl_input_event out[APP_SESSION_MAX_EVENTS]);
/* The window's drawable size in pixels, as the book's viewport. */
typedef struct AppSessionSize {
    uint32_t width, height;
} AppSessionSize;
/* One input applied to the book (and recorded); `size`: the window's drawable pixels (nothing
 * is applied while it is 0, a minimised window). */
void app_session_apply(AppSessionSize size, AppSession *session, const pagecurl_input_event *input);
/* The held-back move, if any: before any other input and before a frame. */
void app_session_apply_move(AppSessionSize size, AppSession *session);
/* A page-turning move, held back to the next frame (latest pointer wins), the one held before it
 * applied first where it lies APP_SESSION_MOVE_SPACING seconds or more after the last applied:
 * a hundred moves a second at most pose the page, however many the pointer sends, and at any
 * frame rate the flick's speed (mesh/flip.h: the last 100 ms) is measured from several. */
#define APP_SESSION_MOVE_SPACING 0.01
void app_session_hold_move(AppSessionSize size, AppSession *session,
                           const pagecurl_input_event *move);
/* A replay's events due by simulated time t. */
void app_session_replay_until(AppSession *session, AppSessionSize size, double t);
/* A frame was drawn: the SDL time of the input it answers (0: none was waiting), taken. */
uint64_t app_session_answered(AppSession *session, bool moved);
/* That frame was on the screen at SDL time `shown_ms`: the input's latency, in ms, counted
 * (< 0 for no input). */
double app_session_latency(AppSession *session, uint64_t input_ms, uint64_t shown_ms);
/* The exit line: frames shown, and the input-to-display latency. */
void app_session_summary(const AppSession *session, uint64_t frames);

#endif
