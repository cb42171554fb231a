/* SPDX-License-Identifier: MIT */
#include "flip.h"

#include "grid.h"

#include <math.h>
#include <string.h>

/* Past omega * t = 50 the spring's remaining gap is below 1e-20 of its start: land, and never
 * evaluate (huge) * exp(-huge), which is NaN once the first factor overflows. */
#define FLIP_SPRING_MAX_PHASE 50.0

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* The latest time seen, or false for a time that must be ignored. Earlier times count as the
 * latest: callers' clocks may jitter, and a turn must never run backwards. */
static bool flip_time(MeshFlip *flip, double time, double *out)
{
    if (!isfinite(time))
        return false;
    if (!isnan(flip->last_time) && time < flip->last_time)
        time = flip->last_time;
    flip->last_time = time;
    *out = time;
    return true;
}

/* A spread point in the turning leaf's frame, clamped (MESH_FLIP_POINTER_LIMIT). */
static void flip_to_leaf(const MeshFlip *flip, double x, double y, double *lx, double *ly)
{
    double sx = flip->direction == MESH_FLIP_BACKWARD ? -x : x;
    double lim_x = MESH_FLIP_POINTER_LIMIT * flip->width;
    double lim_y = MESH_FLIP_POINTER_LIMIT * flip->height;
    *lx = clampd(sx, -lim_x, lim_x);
    *ly = clampd(y, -lim_y, flip->height + lim_y);
}

static void flip_sample_push(MeshFlip *flip, double t, double x, double y)
{
    flip->samples[flip->sample_next] = (MeshFlipSample){t, x, y};
    flip->sample_next = (flip->sample_next + 1) % MESH_FLIP_MAX_SAMPLES;
    if (flip->sample_count < MESH_FLIP_MAX_SAMPLES)
        flip->sample_count++;
}

/* Least-squares slope of the samples in the window before `now`; 0 when the pointer had stopped
 * or too little is known. Times are taken relative to `now` to keep their precision. */
static void flip_velocity(const MeshFlip *flip, double now, double *vx, double *vy)
{
    *vx = 0.0, *vy = 0.0;
    double n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0;
    double newest = -INFINITY;
    for (int i = 0; i < flip->sample_count; i++) {
        const MeshFlipSample *s = &flip->samples[i];
        double t = s->t - now;
        if (t > newest)
            newest = t;
        if (t < -MESH_FLIP_VELOCITY_WINDOW)
            continue;
        n += 1.0, st += t, sx += s->x, sy += s->y;
        stt += t * t, stx += t * s->x, sty += t * s->y;
    }
    if (n < 2.0 || newest < -MESH_FLIP_STOPPED_TIME)
        return;
    double var = stt - st * st / n;
    /* Samples all at (nearly) one instant carry no speed: under 0.1 ms spread, treat as still. */
    if (!(var > n * 1e-8))
        return;
    double lim = 100.0 * flip->width; /* a bound far above any hand's speed keeps it finite */
    *vx = clampd((stx - st * sx / n) / var, -lim, lim);
    *vy = clampd((sty - st * sy / n) / var, -lim, lim);
}

/* The lift (MESH_FLIP_LIFT_QUEUED): easing back to 0, held, or gathering. */
typedef enum FlipLift {
    FLIP_LIFT_EASE = 0, /* nothing holds it: idle, or a leaf settling with no turn queued */
    FLIP_LIFT_HOLD,     /* a page is held */
    FLIP_LIFT_GATHER,   /* turns are queued */
} FlipLift;

/* 0 .. 1 with no speed and no acceleration at either end: the view's last steps before it stops
 * shrink to nothing, and it starts as gently. */
static double smooth01(double x)
{
    x = clampd(x, 0.0, 1.0);
    return x * x * x * (x * (6.0 * x - 15.0) + 10.0);
}

static FlipLift flip_lift_mode(const MeshFlip *flip)
{
    if (flip->reduced)
        return FLIP_LIFT_EASE; /* from 0: the camera never moves */
    if (flip->phase == MESH_FLIP_DRAGGING)
        return FLIP_LIFT_HOLD;
    if (flip->phase == MESH_FLIP_SETTLING && flip->queued > 0)
        return FLIP_LIFT_GATHER;
    return FLIP_LIFT_EASE;
}

/* The lift at time t (not before lift_since). */
static double flip_lift(const MeshFlip *flip, double t)
{
    double since = t - flip->lift_since, from = flip->lift_from;
    since = since > 0.0 ? since : 0.0; /* NaN (no time seen yet) too */
    switch ((FlipLift)flip->lift_mode) {
    case FLIP_LIFT_HOLD:
        return from > flip->lift_drag ? from : flip->lift_drag;
    case FLIP_LIFT_GATHER: {
        double to = from > MESH_FLIP_LIFT_QUEUED ? from : MESH_FLIP_LIFT_QUEUED;
        return from + (to - from) * smooth01(since / MESH_FLIP_LIFT_GATHER);
    }
    case FLIP_LIFT_EASE:
    default:
        return from * (1.0 - smooth01(since / MESH_FLIP_LIFT_RELEASE));
    }
}

/* After whatever changed the flip at t: a lift that now goes another way starts from where it
 * was, so it never jumps. */
static void flip_lift_sync(MeshFlip *flip, double t)
{
    FlipLift mode = flip_lift_mode(flip);
    if ((int)mode == flip->lift_mode)
        return;
    flip->lift_from = flip_lift(flip, t);
    flip->lift_since = t;
    flip->lift_mode = (int)mode;
    flip->lift_drag = 0.0;
}

static MeshFlipFace flip_face(const MeshFlip *flip, int leaf, MeshFlipSide side)
{
    if (leaf < 0 || leaf >= flip->leaf_count)
        return (MeshFlipFace){-1, MESH_FLIP_SIDE_NONE};
    return (MeshFlipFace){leaf, side};
}

bool mesh_flip_init(MeshFlip *flip, const MeshFlipDesc *desc)
{
    memset(flip, 0, sizeof *flip);
    double w = desc->width == 0.0f ? MESH_PAGE_WIDTH : desc->width;
    double h = desc->height == 0.0f ? MESH_PAGE_HEIGHT : desc->height;
    int leaves = desc->leaf_count == 0 ? 1 : desc->leaf_count;
    if (!isfinite(w) || !isfinite(h) || !(w > 0.0) || !(h > 0.0) || leaves < 1 ||
        desc->spread < 0 || desc->spread > leaves)
        return false;
    flip->width = w, flip->height = h;
    int last_page =
        desc->page_count > 0 && desc->page_count < 2 * leaves ? desc->page_count : 2 * leaves;
    flip->leaf_count = leaves, flip->spread = desc->spread;
    /* page 2k + 1 is on the right of spread k, page 2k on its left */
    flip->end_spread = last_page / 2;
    flip->last_time = NAN;
    flip->omega = MESH_FLIP_SPRING_OMEGA;
    flip->thumb_allowed = desc->thumb;
    flip->reduced = desc->reduced_motion;
    return true;
}

int mesh_flip_end_spread(const MeshFlip *flip)
{
    return flip->end_spread;
}

/* The settling spring's gap to its target tau seconds after it began, and its speed towards the
 * target: 0 once omega * tau is past FLIP_SPRING_MAX_PHASE. */
static double flip_gap(const MeshFlip *flip, double tau)
{
    double wt = flip->omega * tau;
    if (!(wt < FLIP_SPRING_MAX_PHASE))
        return 0.0;
    double rate = flip->omega * flip->gap0 - flip->speed0; /* >= 0, see flip_settle */
    return (flip->gap0 + rate * tau) * exp(-wt);
}

static double flip_speed(const MeshFlip *flip, double tau)
{
    double wt = flip->omega * tau;
    if (!(wt < FLIP_SPRING_MAX_PHASE))
        return 0.0;
    double rate = flip->omega * flip->gap0 - flip->speed0;
    return (flip->speed0 + flip->omega * rate * tau) * exp(-wt);
}

static bool flip_landed(const MeshFlip *flip, double tau)
{
    return !(flip_gap(flip, tau) > MESH_FLIP_LAND_DISTANCE * flip->width);
}

/* How long after it began the settle lands: the first moment on the spring's curve within the
 * landing distance (the gap only shrinks), found by bisection over a fixed bracket so that it is
 * the same whenever it is asked. */
static double flip_land_tau(const MeshFlip *flip)
{
    double lo = 0.0, hi = FLIP_SPRING_MAX_PHASE / flip->omega;
    if (flip_landed(flip, lo))
        return lo;
    for (int i = 0; i < 64; i++) {
        double mid = 0.5 * (lo + hi);
        if (flip_landed(flip, mid))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* A leaf lifting (`started`) or lying down, in the direction it turns, logged for the caller. */
static void flip_log(MeshFlip *flip, bool started, bool completed)
{
    if (flip->event_count == MESH_FLIP_EVENTS) { /* the oldest goes */
        flip->event_head = (flip->event_head + 1) % MESH_FLIP_EVENTS;
        flip->event_count--;
        flip->events_lost++;
    }
    flip->events[(flip->event_head + flip->event_count++) % MESH_FLIP_EVENTS] =
        (MeshFlipEvent){.started = started,
                        .forward = flip->direction == MESH_FLIP_FORWARD,
                        .completed = completed,
                        .spread = flip->spread};
}

bool mesh_flip_take_event(MeshFlip *flip, MeshFlipEvent *out)
{
    if (!flip->event_count)
        return false;
    *out = flip->events[flip->event_head];
    flip->event_head = (flip->event_head + 1) % MESH_FLIP_EVENTS;
    flip->event_count--;
    return true;
}

/* Starts settling from the current pointer towards the completion or cancel target at the
 * spring frequency flip->omega, carrying the velocity's component towards the target, at most
 * omega times the gap: with that bound the critically damped gap (g0 + (omega g0 - s0) t)
 * e^(-omega t) never grows and never crosses zero, so the pointer runs straight to the target
 * without overshoot. The caller advances it (flip_advance): it lands at once when already on the
 * target. */
static void flip_settle(MeshFlip *flip, bool completing, double vx, double vy, double t)
{
    flip->phase = MESH_FLIP_SETTLING;
    flip->completing = completing;
    flip->target_x = completing ? -flip->grab_x : flip->grab_x;
    flip->target_y = flip->grab_y;
    double dx = flip->pointer_x - flip->target_x, dy = flip->pointer_y - flip->target_y;
    double gap = hypot(dx, dy);
    flip->gap0 = gap;
    flip->settle_t0 = t;
    if (gap > 0.0) {
        flip->dir_x = dx / gap, flip->dir_y = dy / gap;
        double towards = -(vx * flip->dir_x + vy * flip->dir_y);
        flip->speed0 = clampd(towards, 0.0, flip->omega * gap);
    } else {
        flip->dir_x = 0.0, flip->dir_y = 0.0, flip->speed0 = 0.0;
    }
}

/* Reduced motion: the fade at time t, and when it lands (reaches 1 completing, 0 turned round). */
static double flip_fade(const MeshFlip *flip, double t)
{
    double moved = (t > flip->fade_t0 ? t - flip->fade_t0 : 0.0) * flip->fade_rate;
    return clampd(flip->fade_from + (flip->completing ? moved : -moved), 0.0, 1.0);
}

static double flip_fade_land(const MeshFlip *flip)
{
    double left = flip->completing ? 1.0 - flip->fade_from : flip->fade_from;
    return flip->fade_t0 + left / flip->fade_rate;
}

/* Reduced motion: the fade from where it is at t, aimed (`completing`) and paced by the spring's
 * `omega` (a hurried spring hurries the fade as much): it never jumps. */
static void flip_refade(MeshFlip *flip, bool completing, double omega, double t)
{
    flip->fade_from = flip->phase == MESH_FLIP_FADING ? flip_fade(flip, t) : 0.0;
    flip->fade_t0 = t;
    flip->fade_rate = omega / (MESH_FLIP_SPRING_OMEGA * MESH_FLIP_FADE_TIME);
    flip->omega = omega;
    flip->completing = completing;
    flip->phase = MESH_FLIP_FADING;
    flip->pointer_x = flip->grab_x, flip->pointer_y = flip->grab_y; /* nothing is posed */
}

/* A key turn's start at t: the free-edge corner lifts, the spring at `omega` carries it over (or,
 * in reduced motion, the spread starts fading to the next). */
static bool flip_start_key(MeshFlip *flip, MeshFlipDirection direction, double t, double omega)
{
    if (direction == MESH_FLIP_FORWARD ? flip->spread >= flip->leaf_count : flip->spread <= 0)
        return false;
    flip->direction = direction;
    flip->grab_x = flip->width, flip->grab_y = MESH_FLIP_KEY_GRAB_HEIGHT * flip->height;
    flip->pointer_x = flip->grab_x, flip->pointer_y = flip->grab_y;
    flip->omega = omega;
    flip_log(flip, true, false);
    if (flip->reduced)
        flip_refade(flip, true, omega, t);
    else
        flip_settle(flip, true, 0.0, 0.0, t);
    return true;
}

/* The settling leaf, from where it is at t and at the speed it has, re-aimed (`completing`) or
 * hurried (`omega`): its place does not jump, nor (when hurried) its speed. A fade likewise. */
static void flip_resettle(MeshFlip *flip, bool completing, double omega, double t)
{
    if (flip->phase == MESH_FLIP_FADING) {
        flip_refade(flip, completing, omega, t);
        return;
    }
    double speed = flip_speed(flip, t - flip->settle_t0);
    flip->omega = omega;
    flip_settle(flip, completing, -flip->dir_x * speed, -flip->dir_y * speed, t);
}

/* A thumb press still held when the leaf before it lands: a drag of the leaf now under it,
 * grabbed where it was pressed, the pointer where that point lies (nothing jumps) and following
 * the motion made since the press, its samples kept for a flick's speed. */
static void flip_thumb_grab(MeshFlip *flip)
{
    flip->thumb = false;
    bool forward = flip->thumb_press_x > 0.0;
    if (forward ? flip->spread >= flip->leaf_count : flip->spread <= 0)
        return; /* no leaf lies under it */
    flip->direction = forward ? MESH_FLIP_FORWARD : MESH_FLIP_BACKWARD;
    double px, py, cx, cy;
    flip_to_leaf(flip, flip->thumb_press_x, flip->thumb_press_y, &px, &py);
    flip_to_leaf(flip, flip->thumb_x, flip->thumb_y, &cx, &cy);
    flip->grab_x = px, flip->grab_y = py;
    flip->pointer_x = px, flip->pointer_y = py;
    flip->offset_x = px - cx, flip->offset_y = py - cy;
    /* the travel since the press counts towards a flick, as it would for a drag begun there */
    flip->press_x = 2.0 * px - cx, flip->press_y = 2.0 * py - cy;
    for (int i = 0; i < flip->sample_count; i++) {
        MeshFlipSample *sample = &flip->samples[i];
        double lx, ly;
        flip_to_leaf(flip, sample->x, sample->y, &lx, &ly);
        sample->x = lx + flip->offset_x, sample->y = ly + flip->offset_y;
    }
    flip->phase = MESH_FLIP_DRAGGING;
    flip->completing = false;
    flip_log(flip, true, false);
}

/* The settle at t: the pointer on the spring's curve, or landed (the spread moved on completion);
 * a queued turn starts at the moment the leaf before it landed, and is advanced to t in turn. */
static bool flip_advance(MeshFlip *flip, double t)
{
    if (flip->phase != MESH_FLIP_SETTLING && flip->phase != MESH_FLIP_FADING)
        return false;
    for (;;) {
        double landed_at;
        if (flip->phase == MESH_FLIP_FADING) {
            landed_at = flip_fade_land(flip);
            if (t < landed_at)
                return true;
        } else {
            double gap = flip_gap(flip, t - flip->settle_t0);
            if (gap > MESH_FLIP_LAND_DISTANCE * flip->width) {
                flip->pointer_x = flip->target_x + flip->dir_x * gap;
                flip->pointer_y = flip->target_y + flip->dir_y * gap;
                return true;
            }
            landed_at = flip->settle_t0 + flip_land_tau(flip);
            flip->pointer_x = flip->target_x, flip->pointer_y = flip->target_y;
        }
        double at = landed_at < t ? landed_at : t;
        if (flip->completing)
            flip->spread += flip->direction == MESH_FLIP_FORWARD ? 1 : -1;
        flip_log(flip, false, flip->completing);
        flip->phase = MESH_FLIP_IDLE;
        flip->direction = MESH_FLIP_NONE;
        flip->completing = false;
        if (flip->queued > 0) {
            flip->queued--;
            double omega = MESH_FLIP_SPRING_OMEGA * (1.0 + MESH_FLIP_HURRY * flip->queued);
            if (flip_start_key(flip, flip->queue_direction, at, omega)) {
                flip_lift_sync(flip, at);
                continue;
            }
            flip->queued = 0;
        }
        if (flip->thumb)
            flip_thumb_grab(flip);
        flip_lift_sync(flip, at);
        return true;
    }
}

static void flip_begin_drag(MeshFlip *flip, double x, double y, double t)
{
    double lx, ly;
    flip_to_leaf(flip, x, y, &lx, &ly);
    flip->offset_x = flip->pointer_x - lx, flip->offset_y = flip->pointer_y - ly;
    flip->press_x = flip->pointer_x, flip->press_y = flip->pointer_y;
    flip->phase = MESH_FLIP_DRAGGING;
    flip->completing = false;
    flip->sample_count = 0, flip->sample_next = 0;
    flip_sample_push(flip, t, flip->pointer_x, flip->pointer_y);
}

static bool flip_press(MeshFlip *flip, float x, float y, double t)
{
    flip_advance(flip, t);
    if (flip->thumb)
        return false; /* one press at a time */
    if (flip->phase == MESH_FLIP_FADING) {
        /* The hand reaches for the page the fade leads to: it is there at once, and the turns
         * queued behind it are dropped, as for a caught leaf. */
        flip->queued = 0;
        flip->fade_from = flip->completing ? 1.0 : 0.0, flip->fade_t0 = t;
        flip_advance(flip, t);
    }
    if (flip->phase == MESH_FLIP_SETTLING) {
        /* Catch the page: same material point, the pointer continues from where it is. */
        flip->queued = 0;
        flip_begin_drag(flip, x, y, t);
        return true;
    }
    if (flip->phase != MESH_FLIP_IDLE)
        return false; /* a second press during a drag: the first keeps the page */
    double dead = MESH_FLIP_SPINE_DEAD_ZONE * flip->width;
    if (y < 0.0 || y > flip->height || fabs(x) > flip->width || fabs(x) < dead)
        return false;
    bool forward = x > 0.0;
    if (forward ? flip->spread >= flip->leaf_count : flip->spread <= 0)
        return false; /* no leaf on that side to turn */
    flip->direction = forward ? MESH_FLIP_FORWARD : MESH_FLIP_BACKWARD;
    flip_to_leaf(flip, x, y, &flip->grab_x, &flip->grab_y);
    flip->pointer_x = flip->grab_x, flip->pointer_y = flip->grab_y;
    flip_begin_drag(flip, x, y, t);
    flip_log(flip, true, false);
    return true;
}

bool mesh_flip_press(MeshFlip *flip, float x, float y, double time)
{
    double t;
    if (!isfinite(x) || !isfinite(y) || !flip_time(flip, time, &t))
        return false;
    bool began = flip_press(flip, x, y, t);
    flip_lift_sync(flip, t);
    return began;
}

bool mesh_flip_thumb_press(MeshFlip *flip, float x, float y, double time)
{
    double t;
    if (!flip->thumb_allowed || !isfinite(x) || !isfinite(y) || flip->phase != MESH_FLIP_SETTLING ||
        flip->thumb || !flip_time(flip, time, &t))
        return false;
    flip_advance(flip, t);
    if (flip->phase != MESH_FLIP_SETTLING || !flip->completing)
        return false;
    bool forward = flip->direction == MESH_FLIP_FORWARD;
    double side = forward ? x : -x; /* distance from the spine onto the uncovered page */
    double dead = MESH_FLIP_SPINE_DEAD_ZONE * flip->width;
    if (y < 0.0 || y > flip->height || side < dead || side > flip->width)
        return false;
    if (forward ? flip->spread + 1 >= flip->leaf_count : flip->spread - 1 <= 0)
        return false; /* no leaf lies there */
    flip->thumb = true;
    flip->thumb_press_x = flip->thumb_x = x, flip->thumb_press_y = flip->thumb_y = y;
    flip->sample_count = 0, flip->sample_next = 0;
    flip_sample_push(flip, t, x, y);
    return true;
}

void mesh_flip_move(MeshFlip *flip, float x, float y, double time)
{
    double t;
    if ((flip->phase != MESH_FLIP_DRAGGING && !flip->thumb) || !isfinite(x) || !isfinite(y) ||
        !flip_time(flip, time, &t))
        return;
    flip_advance(flip, t); /* a thumb press held as the leaf lands is a drag from then on */
    if (flip->thumb) {
        double lim_x = MESH_FLIP_POINTER_LIMIT * flip->width;
        double lim_y = MESH_FLIP_POINTER_LIMIT * flip->height;
        flip->thumb_x = clampd(x, -lim_x, lim_x);
        flip->thumb_y = clampd(y, -lim_y, flip->height + lim_y);
        flip_sample_push(flip, t, flip->thumb_x, flip->thumb_y);
        return;
    }
    if (flip->phase != MESH_FLIP_DRAGGING)
        return;
    double lx, ly;
    flip_to_leaf(flip, x, y, &lx, &ly);
    flip->pointer_x = lx + flip->offset_x, flip->pointer_y = ly + flip->offset_y;
    flip_sample_push(flip, t, flip->pointer_x, flip->pointer_y);
}

static bool flip_ask(MeshFlip *flip, MeshFlipDirection direction, double t);

/* A thumb press let go: a flick towards the spine asks for the next turn that way, a flick away
 * from it for a turn back; anything slower asks for nothing. */
static void flip_thumb_release(MeshFlip *flip, double t)
{
    flip->thumb = false;
    double vx, vy;
    flip_velocity(flip, t, &vx, &vy);
    double travel = hypot(flip->thumb_x - flip->thumb_press_x, flip->thumb_y - flip->thumb_press_y);
    if (travel < MESH_FLIP_FLING_MIN_TRAVEL * flip->width ||
        fabs(vx) < MESH_FLIP_FLING_SPEED * flip->width)
        return;
    bool right = flip->thumb_press_x > 0.0; /* the right page turns forward, over to the left */
    bool towards_spine = right ? vx < 0.0 : vx > 0.0;
    flip_ask(flip, right == towards_spine ? MESH_FLIP_FORWARD : MESH_FLIP_BACKWARD, t);
}

void mesh_flip_release(MeshFlip *flip, double time)
{
    double t;
    if ((flip->phase != MESH_FLIP_DRAGGING && !flip->thumb) || !flip_time(flip, time, &t))
        return;
    flip_advance(flip, t);
    if (flip->thumb) {
        flip_thumb_release(flip, t);
        flip_lift_sync(flip, t);
        return;
    }
    if (flip->phase != MESH_FLIP_DRAGGING)
        return;
    double vx, vy;
    flip_velocity(flip, t, &vx, &vy);
    double travel = hypot(flip->pointer_x - flip->press_x, flip->pointer_y - flip->press_y);
    bool flick = travel >= MESH_FLIP_FLING_MIN_TRAVEL * flip->width &&
                 fabs(vx) >= MESH_FLIP_FLING_SPEED * flip->width;
    /* Towards the spine is -x in the leaf's frame, for either direction. */
    bool completing = flick ? vx < 0.0 : flip->pointer_x < 0.0;
    if (flip->reduced) {
        /* the page stayed flat: a swipe far enough towards the spine turns it, by a fade */
        bool swipe = flip->press_x - flip->pointer_x >= MESH_FLIP_SWIPE_DISTANCE * flip->width;
        if (flick ? vx < 0.0 : swipe) {
            flip_refade(flip, true, MESH_FLIP_SPRING_OMEGA, t);
        } else {
            flip_log(flip, false, false);
            flip->phase = MESH_FLIP_IDLE, flip->direction = MESH_FLIP_NONE;
        }
        flip_lift_sync(flip, t);
        return;
    }
    flip->omega = MESH_FLIP_SPRING_OMEGA;
    flip_settle(flip, completing, vx, vy, t);
    flip_advance(flip, t);
    flip_lift_sync(flip, t);
}

void mesh_flip_cancel(MeshFlip *flip, double time)
{
    double t;
    if ((flip->phase != MESH_FLIP_DRAGGING && !flip->thumb) || !flip_time(flip, time, &t))
        return;
    flip_advance(flip, t);
    if (flip->thumb) {
        flip->thumb = false;
        return;
    }
    if (flip->phase != MESH_FLIP_DRAGGING)
        return;
    if (flip->reduced) { /* nothing moved: nothing to fall back */
        flip_log(flip, false, false);
        flip->phase = MESH_FLIP_IDLE, flip->direction = MESH_FLIP_NONE;
        flip_lift_sync(flip, t);
        return;
    }
    double vx, vy;
    flip_velocity(flip, t, &vx, &vy);
    flip->omega = MESH_FLIP_SPRING_OMEGA;
    flip_settle(flip, false, vx, vy, t);
    flip_advance(flip, t);
    flip_lift_sync(flip, t);
}

bool mesh_flip_step(MeshFlip *flip, double time)
{
    double t;
    if ((flip->phase != MESH_FLIP_SETTLING && flip->phase != MESH_FLIP_FADING) ||
        !flip_time(flip, time, &t))
        return false;
    return flip_advance(flip, t);
}

static bool flip_key(MeshFlip *flip, MeshFlipDirection direction, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_IDLE || !flip_time(flip, time, &t))
        return false;
    if (!flip_start_key(flip, direction, t, MESH_FLIP_SPRING_OMEGA))
        return false;
    flip_advance(flip, t);
    return true;
}

bool mesh_flip_next(MeshFlip *flip, double time)
{
    return flip_key(flip, MESH_FLIP_FORWARD, time);
}

bool mesh_flip_prev(MeshFlip *flip, double time)
{
    return flip_key(flip, MESH_FLIP_BACKWARD, time);
}

static int flip_sign(MeshFlipDirection direction)
{
    return direction == MESH_FLIP_FORWARD ? 1 : direction == MESH_FLIP_BACKWARD ? -1 : 0;
}

/* Where the settling leaf lands: its spread moved on (completing) or kept. */
static int flip_landing(const MeshFlip *flip)
{
    return flip->spread + (flip->completing ? flip_sign(flip->direction) : 0);
}

/* One more turn `direction` queued behind the settling leaf, which hurries for it. */
static bool flip_enqueue(MeshFlip *flip, MeshFlipDirection direction, double t)
{
    int end = flip_landing(flip) + (flip->queued + 1) * flip_sign(direction);
    if (flip->queued >= MESH_FLIP_QUEUE_MAX || end < 0 || end > flip->leaf_count)
        return false;
    flip->queue_direction = direction;
    flip->queued++;
    double omega = MESH_FLIP_SPRING_OMEGA * (1.0 + MESH_FLIP_HURRY * flip->queued);
    if (omega > flip->omega)
        flip_resettle(flip, flip->completing, omega, t);
    flip_advance(flip, t);
    return true;
}

static bool flip_ask(MeshFlip *flip, MeshFlipDirection direction, double t)
{
    flip_advance(flip, t);
    if (flip->phase == MESH_FLIP_IDLE) {
        if (!flip_start_key(flip, direction, t, MESH_FLIP_SPRING_OMEGA))
            return false;
        flip_advance(flip, t);
        return true;
    }
    if (flip->phase != MESH_FLIP_SETTLING && flip->phase != MESH_FLIP_FADING)
        return false; /* the hand holds the page */
    if (flip->queued > 0) {
        if (direction == flip->queue_direction)
            return flip_enqueue(flip, direction, t);
        flip->queued = 0; /* the other way: stop after the leaf in the air */
        return true;
    }
    if (flip->completing == (direction == flip->direction))
        return flip_enqueue(flip, direction, t); /* it lands, then the turn asked starts */
    flip_resettle(flip, !flip->completing, flip->omega, t); /* turned round where it is */
    flip_advance(flip, t);
    return true;
}

bool mesh_flip_turn(MeshFlip *flip, MeshFlipDirection direction, double time)
{
    double t;
    if ((direction != MESH_FLIP_FORWARD && direction != MESH_FLIP_BACKWARD) ||
        !flip_time(flip, time, &t))
        return false;
    bool asked = flip_ask(flip, direction, t);
    flip_lift_sync(flip, t);
    return asked;
}

bool mesh_flip_goto(MeshFlip *flip, int spread)
{
    if (flip->phase != MESH_FLIP_IDLE)
        return false;
    flip->spread = spread < 0 ? 0 : (spread > flip->leaf_count ? flip->leaf_count : spread);
    return true;
}

bool mesh_flip_jump(MeshFlip *flip, int spread, double t)
{
    if (flip->phase == MESH_FLIP_DRAGGING)
        return false;
    bool turning = flip->phase != MESH_FLIP_IDLE;
    int was = flip->spread;
    MeshFlipDirection direction = flip->direction;
    flip->phase = MESH_FLIP_IDLE;
    flip->direction = MESH_FLIP_NONE;
    flip->completing = false;
    flip->queued = 0;
    flip->thumb = false;
    flip_lift_sync(flip, t);
    bool went = mesh_flip_goto(flip, spread);
    if (turning) { /* the leaf in flight lies down where the jump leaves the book */
        flip->direction = direction;
        flip_log(flip, false, flip->spread != was);
        flip->direction = MESH_FLIP_NONE;
    }
    return went;
}

/* The view with the lift at time t. */
static MeshFlipView flip_view(const MeshFlip *flip, double t)
{
    MeshFlipView v = {
        .phase = flip->phase,
        .turning = flip->phase != MESH_FLIP_IDLE,
        .completing = (flip->phase == MESH_FLIP_SETTLING || flip->phase == MESH_FLIP_FADING) &&
                      flip->completing,
        .direction = flip->direction,
        .spread = flip->spread,
        .turning_leaf = -1,
        .queued = flip->queued,
        .heading = flip->spread,
        .thumb = flip->thumb,
        .grab = {(float)flip->grab_x, (float)flip->grab_y},
        .pointer = {(float)flip->pointer_x, (float)flip->pointer_y},
    };
    if (flip->grab_x > 0.0)
        v.progress = (float)clampd((flip->grab_x - flip->pointer_x) / (2.0 * flip->grab_x), 0, 1);
    v.lift = flip->reduced ? 0.0f : (float)flip_lift(flip, t);
    v.lift_held = flip->lift_mode == FLIP_LIFT_HOLD ? (float)flip->lift_from : v.lift;
    v.grab_height = (float)(flip->grab_y / flip->height);
    v.reduced_motion = flip->reduced;
    if (flip->phase == MESH_FLIP_SETTLING || flip->phase == MESH_FLIP_FADING)
        v.heading = flip_landing(flip) + flip->queued * flip_sign(flip->queue_direction);
    int s = flip->spread;
    v.left = v.to_left = flip_face(flip, s - 1, MESH_FLIP_SIDE_BACK);
    v.right = v.to_right = flip_face(flip, s, MESH_FLIP_SIDE_FRONT);
    v.face_up = v.face_down = flip_face(flip, -1, MESH_FLIP_SIDE_NONE);
    if (flip->reduced && flip->phase != MESH_FLIP_IDLE) {
        /* nothing is posed: the held page lies flat, a fade shows two flat spreads */
        v.turning = flip->phase == MESH_FLIP_FADING;
        v.pointer[0] = v.grab[0], v.pointer[1] = v.grab[1];
        v.progress = 0.0f;
        if (flip->phase == MESH_FLIP_FADING) {
            int to = s + flip_sign(flip->direction);
            v.fade = (float)flip_fade(flip, t);
            v.to_left = flip_face(flip, to - 1, MESH_FLIP_SIDE_BACK);
            v.to_right = flip_face(flip, to, MESH_FLIP_SIDE_FRONT);
        }
        return v;
    }
    if (flip->direction == MESH_FLIP_FORWARD) {
        v.turning_leaf = s;
        v.right = flip_face(flip, s + 1, MESH_FLIP_SIDE_FRONT); /* uncovered as leaf s lifts */
        v.face_up = flip_face(flip, s, MESH_FLIP_SIDE_FRONT);
        v.face_down = flip_face(flip, s, MESH_FLIP_SIDE_BACK);
    } else if (flip->direction == MESH_FLIP_BACKWARD) {
        v.turning_leaf = s - 1;
        v.left = flip_face(flip, s - 2, MESH_FLIP_SIDE_BACK);
        v.face_up = flip_face(flip, s - 1, MESH_FLIP_SIDE_BACK);
        v.face_down = flip_face(flip, s - 1, MESH_FLIP_SIDE_FRONT);
    }
    return v;
}

MeshFlipView mesh_flip_view(const MeshFlip *flip)
{
    return flip_view(flip, flip->last_time);
}

void mesh_flip_view_lift(MeshFlip *flip, float lift, double time)
{
    double t;
    if (!(lift >= 0.0f) || flip->reduced || !flip_time(flip, time, &t))
        return;
    flip_advance(flip, t);
    flip_lift_sync(flip, t);
    double l = lift < 1.0f ? lift : 1.0;
    if (flip->lift_mode == FLIP_LIFT_HOLD) {
        flip->lift_drag = l;
    } else if (flip->lift_mode == FLIP_LIFT_GATHER && l > flip_lift(flip, t)) {
        flip->lift_from = l; /* gathering on from the view's lift, now */
        flip->lift_since = t;
    }
}

MeshFlipView mesh_flip_view_at(const MeshFlip *flip, double time)
{
    MeshFlip ahead = *flip;
    mesh_flip_step(&ahead, time); /* a queued turn starts, a thumb press grabs: all as they will */
    /* at rest or held the flip keeps its time; the lift's floor eases on all the same */
    double t = isfinite(time) && !(time < ahead.last_time) ? time : ahead.last_time;
    return flip_view(&ahead, t);
}

float mesh_flip_content_column(MeshFlipSide side, float u, float width)
{
    if (!(width > 0.0f) || !isfinite(u))
        return 0.0f;
    double c = clampd((double)u / width, 0.0, 1.0);
    return (float)(side == MESH_FLIP_SIDE_BACK ? 1.0 - c : c);
}
