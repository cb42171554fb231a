#include "window_input.h"

#include "../book/book.h"

#include <inttypes.h>
#include <stdio.h>

/* An SDL pointer, finger or key event as a trace event (positions as fractions of the window);
 * false for events that are not input, and for mouse events SDL made up from touches (the finger
 * events themselves are used, so a touch is not counted twice). Pointers that draw become ink
 * events: the right button always, any pointer in ink mode; the stroke's pointer stays ink until
 * it lifts, whatever the mode does meanwhile. */
static bool to_trace(const SDL_Event *e, SDL_Window *window, AppSession *session, double now,
                     AppTraceEvent *out)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(window, &ww, &wh); /* mouse coordinates are in window points */
    ww = ww > 0 ? ww : 1, wh = wh > 0 ? wh : 1;
    *out = (AppTraceEvent){.time = now, .device = APP_TRACE_MOUSE, .pressure = 1.0f};
    switch (e->type) {
    case SDL_KEYDOWN:
        out->device = APP_TRACE_KEY;
        switch (e->key.keysym.sym) {
        /* The arrows go the way the pages move: bound on the right, a leaf turns forward from
         * left to right. Page Down and Page Up name the reading order itself. */
        case SDLK_RIGHT:
        case SDLK_LEFT:
            out->action = (e->key.keysym.sym == SDLK_RIGHT) != session->right_bound
                              ? APP_TRACE_NEXT
                              : APP_TRACE_PREV;
            return true;
        case SDLK_PAGEDOWN:
            out->action = APP_TRACE_NEXT;
            return true;
        case SDLK_PAGEUP:
            out->action = APP_TRACE_PREV;
            return true;
        case SDLK_HOME:
            out->action = APP_TRACE_HOME;
            return true;
        case SDLK_END:
            out->action = APP_TRACE_END;
            return true;
        case SDLK_z:
            out->action = APP_TRACE_UNDO;
            return (e->key.keysym.mod & KMOD_CTRL) != 0;
        case SDLK_DELETE: { /* the page side under the pointer */
            int x, y;
            SDL_GetMouseState(&x, &y);
            out->device = APP_TRACE_INK, out->action = APP_TRACE_CLEAR;
            out->x = (float)x / (float)ww, out->y = (float)y / (float)wh;
            return out->x >= 0.0f && out->x <= 1.0f && out->y >= 0.0f && out->y <= 1.0f;
        }
        default:
            return false;
        }
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        uint8_t b = e->button.button;
        if (e->button.which == SDL_TOUCH_MOUSEID)
            return false;
        bool down = e->type == SDL_MOUSEBUTTONDOWN;
        out->action = down ? APP_TRACE_DOWN : APP_TRACE_UP;
        out->x = (float)e->button.x / (float)ww, out->y = (float)e->button.y / (float)wh;
        if (down && !session->ink_button &&
            (b == SDL_BUTTON_RIGHT || (b == SDL_BUTTON_LEFT && session->ink_mode))) {
            session->ink_button = b;
            out->device = APP_TRACE_INK;
            return true;
        }
        if (!down && b == session->ink_button) {
            session->ink_button = 0;
            out->device = APP_TRACE_INK;
            return true;
        }
        return b == SDL_BUTTON_LEFT && !(down && session->ink_mode);
    }
    case SDL_MOUSEMOTION:
        if (e->motion.which == SDL_TOUCH_MOUSEID)
            return false;
        out->device = session->ink_button ? APP_TRACE_INK : APP_TRACE_MOUSE;
        out->action = APP_TRACE_MOVE;
        out->x = (float)e->motion.x / (float)ww, out->y = (float)e->motion.y / (float)wh;
        return true;
    case SDL_FINGERDOWN:
    case SDL_FINGERMOTION:
    case SDL_FINGERUP: /* SDL gives touch positions as fractions of the window already */
        out->device = APP_TRACE_FINGER;
        out->action = e->type == SDL_FINGERDOWN ? APP_TRACE_DOWN
                      : e->type == SDL_FINGERUP ? APP_TRACE_UP
                                                : APP_TRACE_MOVE;
        out->x = e->tfinger.x, out->y = e->tfinger.y;
        if (e->type == SDL_FINGERDOWN && session->ink_mode && !session->ink_touch) {
            session->ink_touch = true, session->ink_finger = e->tfinger.fingerId;
        } else if (!session->ink_touch || e->tfinger.fingerId != session->ink_finger) {
            return true;
        }
        out->device = APP_TRACE_INK;
        out->pressure = e->tfinger.pressure; /* where the device has none, SDL reports 1 */
        if (e->type == SDL_FINGERUP)
            session->ink_touch = false;
        return true;
    default:
        return false;
    }
}

/* A pointer held while dragged out of the window reports positions outside it: clamped to its
 * edge, as a trace holds only positions within the window. */
bool app_session_trace_event(const SDL_Event *e, SDL_Window *window, AppSession *session,
                             double now, AppTraceEvent *out)
{
    if (!to_trace(e, window, session, now, out))
        return false;
    out->x = out->x < 0.0f ? 0.0f : out->x > 1.0f ? 1.0f : out->x;
    out->y = out->y < 0.0f ? 0.0f : out->y > 1.0f ? 1.0f : out->y;
    return true;
}

double app_session_seconds(const AppSession *session)
{
    return (double)SDL_GetTicks64() / 1000.0 - session->start;
}

void app_session_apply(VkExtent2D size, const AppPage *page, AppSession *session,
                       const AppTraceEvent *input)
{
    if (size.width && size.height)
        app_book_input(&session->flip, session->ink, input, size.width, size.height, page);
    app_trace_add(&session->record, input);
}

/* The held-back move, before any other input (the order of events is kept) and before a frame. */
void app_session_apply_move(VkExtent2D size, const AppPage *page, AppSession *session)
{
    if (session->move_due)
        app_session_apply(size, page, session, &session->move);
    session->move_due = false;
}

/* An event's own time on the session's clock: the pointer's velocity and a key's start are those
 * of the input, not of when a slow frame let the loop see it. */
double app_session_event_time(const SDL_Event *e, const AppSession *session)
{
    double now = app_session_seconds(session),
           t = (double)e->common.timestamp / 1000.0 - session->start;
    return e->common.timestamp && t <= now ? t : now;
}

/* A replay's events due by simulated time t (the fixed step: frames / APP_REPLAY_HZ). */
void app_session_replay_until(AppSession *session, VkExtent2D size, const AppPage *page, double t)
{
    while (session->replay && session->next < session->replay->count &&
           session->replay->events[session->next].time <= t) {
        if (size.width && size.height)
            app_book_input(&session->flip, session->ink, &session->replay->events[session->next],
                           size.width, size.height, page);
        session->next++;
    }
}

double app_session_shown(AppSession *session, bool moved)
{
    session->moving_frames += moved;
    if (!session->input_ms)
        return -1.0;
    double ms = (double)(SDL_GetTicks64() - session->input_ms);
    session->latency_sum += ms, session->latency_count++;
    session->latency_max = ms > session->latency_max ? ms : session->latency_max;
    session->input_ms = 0;
    return ms;
}

void app_session_summary(const AppSession *session, uint64_t frames)
{
    if (session->latency_count)
        printf("pagecurl: %" PRIu64 " frames shown, %" PRIu32
               " while a turn animated; input to display "
               "%.1f ms on average, %.0f ms at worst (%" PRIu32 " inputs)\n",
               frames, session->moving_frames, session->latency_sum / session->latency_count,
               session->latency_max, session->latency_count);
}
