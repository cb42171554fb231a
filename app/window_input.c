/* SPDX-License-Identifier: MIT */
#include "window_input.h"

#include "trace_apply.h"

#include <math.h>

#include <inttypes.h>
#include <stdio.h>

/* The pointer's position as fractions of the window where it is over it; else NAN (none). */
static void pointer_over(SDL_Window *window, int ww, int wh, double *x, double *y)
{
    int px, py;
    *x = *y = NAN;
    if (SDL_GetMouseFocus() != window)
        return;
    SDL_GetMouseState(&px, &py);
    if (px >= 0 && px < ww && py >= 0 && py < wh)
        *x = (float)px / (float)ww, *y = (float)py / (float)wh;
}

/* An SDL pointer, finger or key event as a trace event (positions as fractions of the window);
 * false for events that are not input, and for mouse events SDL made up from touches (the finger
 * events themselves are used, so a touch is not counted twice). Pointers that draw become ink
 * events: the right button always, any pointer in ink mode; the stroke's pointer stays ink until
 * it lifts, whatever the mode does meanwhile. */
static bool to_trace(const SDL_Event *e, SDL_Window *window, AppSession *session, double now,
                     pagecurl_input_event *out)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(window, &ww, &wh); /* mouse coordinates are in window points */
    ww = ww > 0 ? ww : 1, wh = wh > 0 ? wh : 1;
    *out = (pagecurl_input_event){.time = now, .device = PAGECURL_INPUT_MOUSE, .pressure = 1.0f};
    switch (e->type) {
    case SDL_KEYDOWN:
        out->device = PAGECURL_INPUT_KEY;
        switch (e->key.keysym.sym) {
        /* The arrows go the way the pages move: bound on the right, a leaf turns forward from
         * left to right. Page Down and Page Up name the reading order itself. */
        case SDLK_RIGHT:
        case SDLK_LEFT:
            out->action = (e->key.keysym.sym == SDLK_RIGHT) != session->right_bound
                              ? PAGECURL_INPUT_NEXT
                              : PAGECURL_INPUT_PREV;
            return true;
        case SDLK_PAGEDOWN:
            out->action = PAGECURL_INPUT_NEXT;
            return true;
        case SDLK_PAGEUP:
            out->action = PAGECURL_INPUT_PREV;
            return true;
        case SDLK_HOME:
            out->action = PAGECURL_INPUT_HOME;
            return true;
        case SDLK_END:
            out->action = PAGECURL_INPUT_END;
            return true;
        case SDLK_PLUS:
        case SDLK_EQUALS: /* + without Shift on most layouts */
        case SDLK_KP_PLUS:
        case SDLK_MINUS:
        case SDLK_KP_MINUS: {
            SDL_Keycode k = e->key.keysym.sym;
            bool in = k == SDLK_PLUS || k == SDLK_EQUALS || k == SDLK_KP_PLUS;
            *out = (pagecurl_input_event){.time = now,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_BY,
                                          .amount = in ? BOOK_ZOOM_STEP : 1.0f / BOOK_ZOOM_STEP};
            pointer_over(window, ww, wh, &out->x, &out->y); /* else the page's centre */
            return true;
        }
        case SDLK_w: /* the width of the page under the pointer, else the right-hand page */
            out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_WIDTH;
            pointer_over(window, ww, wh, &out->x, &out->y);
            return true;
        case SDLK_0:
        case SDLK_KP_0:
            out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_FIT;
            return true;
        case SDLK_z: /* Ctrl+Z undoes; Z alone fits the page, as 0 does */
            if (e->key.keysym.mod & KMOD_CTRL) {
                out->action = PAGECURL_INPUT_UNDO;
            } else {
                out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_FIT;
            }
            return true;
        case SDLK_SPACE: /* a screenful down the page (Shift: up), on to the next page */
        case SDLK_DOWN:
        case SDLK_UP:
        case SDLK_j:
        case SDLK_k: {
            SDL_Keycode k = e->key.keysym.sym;
            float step = k == SDLK_SPACE ? APP_SCROLL_SCREEN : APP_SCROLL_LINE;
            bool up = k == SDLK_UP || k == SDLK_k ||
                      (k == SDLK_SPACE && (e->key.keysym.mod & KMOD_SHIFT));
            out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_SCROLL;
            out->amount = up ? -step : step;
            return true;
        }
        case SDLK_DELETE: { /* the page side under the pointer */
            int x, y;
            SDL_GetMouseState(&x, &y);
            out->device = PAGECURL_INPUT_INK, out->action = PAGECURL_INPUT_CLEAR;
            out->x = (float)x / (float)ww, out->y = (float)y / (float)wh;
            return out->x >= 0.0f && out->x <= 1.0f && out->y >= 0.0f && out->y <= 1.0f;
        }
        default:
            return false;
        }
    case SDL_MOUSEWHEEL: { /* Ctrl+wheel, and a touchpad's pinch where it arrives as one */
        if (e->wheel.which == SDL_TOUCH_MOUSEID)
            return false;
        float notches = e->wheel.preciseY * (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1 : 1);
        if (notches == 0.0f)
            return false;
        if (!(session->mods & KMOD_CTRL)) { /* the plain wheel scrolls: away from you, up */
            float dy = -notches * APP_SCROLL_NOTCH;
            out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_SCROLL;
            out->amount = dy < -APP_SCROLL_MAX  ? -APP_SCROLL_MAX
                          : dy > APP_SCROLL_MAX ? APP_SCROLL_MAX
                                                : dy;
            return true;
        }
        out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_BY;
        out->amount = powf(BOOK_ZOOM_STEP, notches);
        out->x = (float)e->wheel.mouseX / (float)ww, out->y = (float)e->wheel.mouseY / (float)wh;
        return true;
    }
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP: {
        uint8_t b = e->button.button;
        if (e->button.which == SDL_TOUCH_MOUSEID)
            return false;
        bool down = e->type == SDL_MOUSEBUTTONDOWN;
        out->action = down ? PAGECURL_INPUT_DOWN : PAGECURL_INPUT_UP;
        out->x = (float)e->button.x / (float)ww, out->y = (float)e->button.y / (float)wh;
        if (b == SDL_BUTTON_LEFT && !session->ink_button && !session->ink_mode) {
            if (down && e->button.clicks == 2) { /* a double-click: its second press */
                out->device = PAGECURL_INPUT_ZOOM, out->action = PAGECURL_INPUT_TOGGLE;
                session->swallow_up = true;
                return true;
            }
            if (!down && session->swallow_up) {
                session->swallow_up = false;
                return false;
            }
        }
        if (down && !session->ink_button &&
            (b == SDL_BUTTON_RIGHT || (b == SDL_BUTTON_LEFT && session->ink_mode))) {
            session->ink_button = b;
            out->device = PAGECURL_INPUT_INK;
            return true;
        }
        if (!down && b == session->ink_button) {
            session->ink_button = 0;
            out->device = PAGECURL_INPUT_INK;
            return true;
        }
        return b == SDL_BUTTON_LEFT && !(down && session->ink_mode);
    }
    case SDL_MOUSEMOTION:
        if (e->motion.which == SDL_TOUCH_MOUSEID)
            return false;
        out->device = session->ink_button ? PAGECURL_INPUT_INK : PAGECURL_INPUT_MOUSE;
        out->action = PAGECURL_INPUT_MOVE;
        out->x = (float)e->motion.x / (float)ww, out->y = (float)e->motion.y / (float)wh;
        return true;
    case SDL_FINGERDOWN:
    case SDL_FINGERMOTION:
    case SDL_FINGERUP: /* SDL gives touch positions as fractions of the window already */
        out->device = PAGECURL_INPUT_FINGER;
        out->action = e->type == SDL_FINGERDOWN ? PAGECURL_INPUT_DOWN
                      : e->type == SDL_FINGERUP ? PAGECURL_INPUT_UP
                                                : PAGECURL_INPUT_MOVE;
        out->x = e->tfinger.x, out->y = e->tfinger.y;
        if (e->type == SDL_FINGERDOWN && session->ink_mode && !session->ink_touch) {
            session->ink_touch = true, session->ink_finger = e->tfinger.fingerId;
        } else if (!session->ink_touch || e->tfinger.fingerId != session->ink_finger) {
            return true;
        }
        out->device = PAGECURL_INPUT_INK;
        out->pressure = e->tfinger.pressure; /* where the device has none, SDL reports 1 */
        if (e->type == SDL_FINGERUP)
            session->ink_touch = false;
        return true;
    default:
        return false;
    }
}

/* A tap: down and up within this long (seconds) and this far (fractions of the window); a second
 * tap this soon after and this near the first toggles the zoom. */
#define TAP_TIME   0.25
#define TAP_TRAVEL 0.02f
#define TAP_GAP    0.3
#define TAP_NEAR   0.04f

static int finger_slot(const AppSession *s, SDL_FingerID id)
{
    for (int k = 0; k < s->fingers; k++)
        if (s->finger_id[k] == id)
            return k;
    return -1;
}

/* Two fingers: their centre's motion as a pan and their spread's change as a zoom about the
 * centre, from their positions before (k's old one) and now. */
static int pinch(AppSession *s, int k, float x, float y, int ww, int wh, double now,
                 pagecurl_input_event *out)
{
    float ox = s->finger_x[1 - k], oy = s->finger_y[1 - k];
    float cx0 = 0.5f * (s->finger_x[k] + ox), cy0 = 0.5f * (s->finger_y[k] + oy);
    float d0 = hypotf((s->finger_x[k] - ox) * (float)ww, (s->finger_y[k] - oy) * (float)wh);
    s->finger_x[k] = x, s->finger_y[k] = y;
    float cx1 = 0.5f * (x + ox), cy1 = 0.5f * (y + oy);
    float d1 = hypotf((x - ox) * (float)ww, (y - oy) * (float)wh);
    int n = 0;
    if (cx1 != cx0 || cy1 != cy0)
        out[n++] = (pagecurl_input_event){.time = now,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_PAN,
                                          .x = cx1 - cx0,
                                          .y = cy1 - cy0,
                                          .amount = 1.0f};
    if (d0 > 0.0f && d1 > 0.0f && d1 != d0)
        out[n++] = (pagecurl_input_event){.time = now,
                                          .device = PAGECURL_INPUT_ZOOM,
                                          .action = PAGECURL_INPUT_BY,
                                          .x = cx1,
                                          .y = cy1,
                                          .amount = d1 / d0};
    return n;
}

/* Touch, where more than one finger or a double-tap changes what a finger does; -1 leaves the
 * event to to_trace (one finger, as without zoom). */
static int fingers(const SDL_Event *e, SDL_Window *window, AppSession *s, double now,
                   pagecurl_input_event *out)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(window, &ww, &wh);
    ww = ww > 0 ? ww : 1, wh = wh > 0 ? wh : 1;
    SDL_FingerID id = e->tfinger.fingerId;
    float x = e->tfinger.x, y = e->tfinger.y;
    int k = finger_slot(s, id);
    if (e->type == SDL_FINGERDOWN) {
        if (k >= 0 || s->fingers == 2)
            return 0; /* a third finger: nothing */
        k = s->fingers++;
        s->finger_id[k] = id, s->finger_x[k] = x, s->finger_y[k] = y;
        s->finger_down[k] = now, s->finger_down_x[k] = x, s->finger_down_y[k] = y;
        s->finger_idle[k] = false;
        if (k == 1) { /* a pinch begins: the first finger's drag or stroke ends where it is */
            s->finger_idle[1] = true;
            if (s->finger_idle[0])
                return 0;
            s->finger_idle[0] = true;
            bool ink = s->ink_touch && s->ink_finger == s->finger_id[0];
            s->ink_touch = s->ink_touch && !ink;
            out[0] =
                (pagecurl_input_event){.time = now,
                                       .device = ink ? PAGECURL_INPUT_INK : PAGECURL_INPUT_FINGER,
                                       .action = PAGECURL_INPUT_UP,
                                       .x = s->finger_x[0],
                                       .y = s->finger_y[0],
                                       .pressure = 1.0f};
            return 1;
        }
        if (!s->ink_mode && now - s->tap_time < TAP_GAP && fabsf(x - s->tap_x) < TAP_NEAR &&
            fabsf(y - s->tap_y) < TAP_NEAR) { /* a double-tap */
            s->finger_idle[0] = true;
            s->tap_time = -1.0;
            out[0] = (pagecurl_input_event){.time = now,
                                            .device = PAGECURL_INPUT_ZOOM,
                                            .action = PAGECURL_INPUT_TOGGLE,
                                            .x = x,
                                            .y = y};
            return 1;
        }
        return -1;
    }
    if (k < 0)
        return 0; /* a finger that came down as the third */
    if (e->type == SDL_FINGERMOTION) {
        if (s->fingers == 2)
            return pinch(s, k, x, y, ww, wh, now, out);
        s->finger_x[k] = x, s->finger_y[k] = y;
        return s->finger_idle[k] ? 0 : -1;
    }
    /* up: a short, still touch of one finger is a tap */
    bool idle = s->finger_idle[k], pinching = s->fingers == 2;
    bool tap = !pinching && !idle && now - s->finger_down[k] < TAP_TIME &&
               fabsf(x - s->finger_down_x[k]) < TAP_TRAVEL &&
               fabsf(y - s->finger_down_y[k]) < TAP_TRAVEL;
    s->tap_time = tap ? now : s->tap_time, s->tap_x = x, s->tap_y = y;
    if (k == 0 && s->fingers == 2) {
        s->finger_id[0] = s->finger_id[1], s->finger_x[0] = s->finger_x[1];
        s->finger_y[0] = s->finger_y[1], s->finger_idle[0] = s->finger_idle[1];
        s->finger_down[0] = s->finger_down[1];
        s->finger_down_x[0] = s->finger_down_x[1], s->finger_down_y[0] = s->finger_down_y[1];
    }
    s->fingers--;
    if (pinching)
        s->finger_idle[0] = true; /* the finger left after a pinch acts no more */
    return idle || pinching ? 0 : -1;
}

/* A pointer held while dragged out of the window reports positions outside it: clamped to its
 * edge, as a trace holds only positions within the window. */
void app_session_track_mods(AppSession *session, const SDL_Event *e)
{
    if (e->type == SDL_KEYDOWN || e->type == SDL_KEYUP)
        session->mods = (SDL_Keymod)e->key.keysym.mod;
    else if (e->type == SDL_WINDOWEVENT && e->window.event == SDL_WINDOWEVENT_FOCUS_LOST)
        session->mods = KMOD_NONE;
}

int app_session_trace_events(const SDL_Event *e, SDL_Window *window, AppSession *session,
                             double now, pagecurl_input_event out[APP_SESSION_MAX_EVENTS])
{
    int n = -1;
    if (e->type == SDL_FINGERDOWN || e->type == SDL_FINGERMOTION || e->type == SDL_FINGERUP)
        n = fingers(e, window, session, now, out);
    if (n < 0)
        n = to_trace(e, window, session, now, out) ? 1 : 0;
    /* a key, a double-click or -tap, a whole notch of a wheel: a step that ends there (a pinch,
     * or a touchpad's pinch as fractions of a notch, goes on) */
    bool step = e->type == SDL_KEYDOWN || e->type == SDL_MOUSEBUTTONDOWN ||
                e->type == SDL_FINGERUP ||
                (e->type == SDL_MOUSEWHEEL && fabsf(e->wheel.preciseY) >= 1.0f);
    for (int i = 0; i < n; i++) {
        session->zoom_step |= step && out[i].device == PAGECURL_INPUT_ZOOM;
        if (out[i].device == PAGECURL_INPUT_ZOOM &&
            (out[i].action == PAGECURL_INPUT_PAN || out[i].action == PAGECURL_INPUT_SCROLL))
            continue; /* a step, not a position */
        out[i].x = out[i].x < 0.0f ? 0.0f : out[i].x > 1.0f ? 1.0f : out[i].x;
        out[i].y = out[i].y < 0.0f ? 0.0f : out[i].y > 1.0f ? 1.0f : out[i].y;
    }
    return n;
}

double app_session_time(uint64_t ms, uint64_t start_ms)
{
    return ms > start_ms ? (double)(ms - start_ms) / 1000.0 : 0.0;
}

double app_session_seconds(const AppSession *session)
{
    return app_session_time(SDL_GetTicks64(), session->start_ms);
}

/* A zoom's sharp time counts from its last input until anything else moves the view: a key (a
 * turn, a search's jump, a re-layout) or a press; a sharper drawing after that is theirs. */
static void zoom_input(AppSession *session, const pagecurl_input_event *input)
{
    if (input->device == PAGECURL_INPUT_ZOOM)
        session->zoomed_ms = SDL_GetTicks64(), session->zoomed_frames = 0, session->sharp_ms = -1.0;
    else if (input->device == PAGECURL_INPUT_KEY || input->action == PAGECURL_INPUT_DOWN)
        session->zoomed_ms = 0;
}

void app_session_apply(AppSessionSize size, AppSession *session, const pagecurl_input_event *input)
{
    if (size.width && size.height && session->book)
        app_trace_apply(session->book, &session->click, input, size.width, size.height);
    zoom_input(session, input);
    if (session->record)
        app_trace_record(session->record, input);
}

/* The held-back move, before any other input (the order of events is kept) and before a frame. */
void app_session_apply_move(AppSessionSize size, AppSession *session)
{
    if (session->move_due) {
        app_session_apply(size, session, &session->move);
        session->move_applied = session->move.time;
    }
    session->move_due = false;
}

void app_session_hold_move(AppSessionSize size, AppSession *session,
                           const pagecurl_input_event *move)
{
    if (session->move_due && session->move.time - session->move_applied >= APP_SESSION_MOVE_SPACING)
        app_session_apply_move(size, session);
    session->move = *move, session->move_due = true;
}

double app_session_x_time(AppSession *session, uint32_t x_ms, uint64_t sdl_ms)
{
    int64_t offset = (int64_t)sdl_ms - (int64_t)x_ms;
    if (!session->x_clock || offset < session->x_offset ||
        offset > session->x_offset + APP_SESSION_X_JUMP_MS)
        session->x_offset = offset, session->x_clock = true;
    int64_t at = (int64_t)x_ms + session->x_offset;
    return at > 0 ? app_session_time((uint64_t)at, session->start_ms) : 0.0;
}

void app_session_x_event(AppSession *session, bool x, uint32_t x_ms, int64_t age)
{
    uint64_t now = SDL_GetTicks64();
    session->x_due = x, session->x_time = x_ms;
    session->x_sdl_ms = x && age >= 0 && (uint64_t)age < now ? now - (uint64_t)age : 0;
}

/* An event's own time on the session's clock: the pointer's velocity and a key's start are those
 * of the input, not of when a slow frame let the loop see it. SDL stamps an event when it reads
 * it from the display, all of a frame's input at once; X stamps it when it was made. */
double app_session_event_time(const SDL_Event *e, AppSession *session)
{
    double now = app_session_seconds(session);
    uint64_t at = e->common.timestamp;
    bool pointer = e->type == SDL_MOUSEMOTION || e->type == SDL_MOUSEBUTTONDOWN ||
                   e->type == SDL_MOUSEBUTTONUP || e->type == SDL_MOUSEWHEEL;
    bool input = pointer || e->type == SDL_KEYDOWN || e->type == SDL_KEYUP ||
                 e->type == SDL_FINGERDOWN || e->type == SDL_FINGERMOTION ||
                 e->type == SDL_FINGERUP;
    /* X's time is that of every pointer or key event SDL makes of the X event (a button's press
     * may bring a motion first), until the next X event; touches come another way */
    bool x = session->x_due && (pointer || e->type == SDL_KEYDOWN || e->type == SDL_KEYUP);
    double t = now;
    if (x && session->x_sdl_ms)
        t = app_session_time(session->x_sdl_ms, session->start_ms);
    else if (at && at >= session->start_ms)
        t = x ? app_session_x_time(session, session->x_time, at)
              : app_session_time(at, session->start_ms);
    t = t <= now ? t : now;
    if (!input)
        return t; /* SDL's stamp, when it read it: later than the input read with it */
    /* never before the input before it, whichever clock timed that (a trace's times never run
     * backwards) */
    t = t >= session->last_time ? t : session->last_time;
    session->last_time = t;
    return t;
}

/* A replay's events due by simulated time t (the fixed step: frames / APP_REPLAY_HZ). */
void app_session_replay_until(AppSession *session, AppSessionSize size, double t)
{
    while (session->replay && session->next < session->replay->count &&
           session->replay->events[session->next].time <= t) {
        if (size.width && size.height && session->book)
            app_trace_apply(session->book, &session->click, &session->replay->events[session->next],
                            size.width, size.height);
        zoom_input(session, &session->replay->events[session->next]);
        session->next++;
    }
}

uint64_t app_session_answered(AppSession *session, bool moved)
{
    session->moving_frames += moved;
    uint64_t input = session->input_ms;
    session->input_ms = 0;
    return input;
}

double app_session_latency(AppSession *session, uint64_t input_ms, uint64_t shown_ms)
{
    if (!input_ms || shown_ms < input_ms)
        return -1.0;
    double ms = (double)(shown_ms - input_ms);
    session->latency_sum += ms, session->latency_count++;
    session->latency_max = ms > session->latency_max ? ms : session->latency_max;
    return ms;
}

void app_session_sharp(AppSession *session, bool sharper)
{
    session->zoomed_frames++;
    if (sharper && session->zoomed_ms) {
        session->sharp_ms = (double)(SDL_GetTicks64() - session->zoomed_ms);
        session->sharp_frame = session->zoomed_frames;
    }
}

void app_session_summary(const AppSession *session, uint64_t frames)
{
    if (session->sharp_ms >= 0.0)
        printf("pagecurl: the pages in view drawn sharp %.0f ms after the zoom's last input, in "
               "frame %" PRIu32 " after it\n",
               session->sharp_ms, session->sharp_frame);
    printf("pagecurl: %" PRIu64 " frame%s shown, %" PRIu32 " while a turn animated", frames,
           frames == 1 ? "" : "s", session->moving_frames);
    if (session->latency_count)
        printf("; input to display %.1f ms on average, %.0f ms at worst (%" PRIu32 " inputs)",
               session->latency_sum / session->latency_count, session->latency_max,
               session->latency_count);
    printf("\n");
}
