/* The window's input as a session: SDL's pointer, finger and key events turned into trace events
 * (the same a --replay plays), applied to the book and its ink, recorded for --record, with the
 * newest page-turning move held back to the next frame (latest pointer wins) and the latency from
 * an input to the frame that shows it. SDL lives here and in window.c only. */
#ifndef PAGECURL_APP_WINDOW_INPUT_H
#define PAGECURL_APP_WINDOW_INPUT_H

#include "../mesh/flip.h"
#include "../mesh/ink.h"
#include "../book/page.h"
#include "trace.h"

#include <SDL.h>

/* What the window keeps of a session's input. */
typedef struct AppSession {
    MeshFlip flip;
    MeshInk *ink;
    bool ink_mode;           /* I: every pointer draws instead of turning pages */
    bool right_bound;        /* the book binds on the right: Left turns forward */
    uint8_t ink_button;      /* the mouse button drawing the current stroke, 0 when none */
    SDL_FingerID ink_finger; /* the finger drawing it, when ink_touch */
    bool ink_touch;
    const AppTrace *replay; /* events come from here, at the fixed step, instead of SDL */
    size_t next;
    AppTrace record; /* --record: every input event */
    double start;
    bool want_shot; /* F12 or P: the next frame is saved as a numbered screenshot */
    /* Latest pointer wins: the newest page-turning move since the last frame, applied just before
     * the next one (each move poses the page by a few dozen drag solves). */
    AppTraceEvent move;
    bool move_due;
    uint64_t input_ms; /* SDL time of the newest input not yet on screen; 0: none */
    /* input-to-display latencies (the input's SDL timestamp to the frame's present returning) */
    double latency_sum, latency_max;
    uint32_t latency_count, moving_frames;
} AppSession;

/* The session's clock: seconds since it started. */
double app_session_seconds(const AppSession *session);
/* An event's own time on the session's clock (not when a slow frame let the loop see it). */
double app_session_event_time(const SDL_Event *e, const AppSession *session);
/* An SDL input event as a trace event, positions as fractions of the window clamped to it; false
 * for what is not input. Keeps the ink stroke's pointer in `session`. */
bool app_session_trace_event(const SDL_Event *e, SDL_Window *window, AppSession *session,
                             double now, AppTraceEvent *out);
/* One input applied to the book (and recorded); `size`: the window's drawable pixels (nothing
 * is applied while it is 0, a minimised window). */
void app_session_apply(VkExtent2D size, const AppPage *page, AppSession *session,
                       const AppTraceEvent *input);
/* The held-back move, if any: before any other input and before a frame. */
void app_session_apply_move(VkExtent2D size, const AppPage *page, AppSession *session);
/* A replay's events due by simulated time t. */
void app_session_replay_until(AppSession *session, VkExtent2D size, const AppPage *page, double t);
/* A frame was shown: the latency of the input it answers, in ms (< 0 when none was waiting). */
double app_session_shown(AppSession *session, bool moved);
/* The exit line: frames shown, and the input-to-display latency. */
void app_session_summary(const AppSession *session, uint64_t frames);

#endif
