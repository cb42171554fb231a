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

static void flip_sample_push(MeshFlip *flip, double t)
{
    flip->samples[flip->sample_next] = (MeshFlipSample){t, flip->pointer_x, flip->pointer_y};
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
    int pages = desc->leaf_count == 0 ? 1 : desc->leaf_count;
    if (!isfinite(w) || !isfinite(h) || !(w > 0.0) || !(h > 0.0) || pages < 1 || desc->spread < 0 ||
        desc->spread > pages)
        return false;
    flip->width = w, flip->height = h;
    int last_page =
        desc->page_count > 0 && desc->page_count < 2 * pages ? desc->page_count : 2 * pages;
    flip->leaf_count = pages, flip->spread = desc->spread;
    /* page 2k + 1 is on the right of spread k, page 2k on its left */
    flip->end_spread = last_page / 2;
    flip->last_time = NAN;
    return true;
}

int mesh_flip_end_spread(const MeshFlip *flip)
{
    return flip->end_spread;
}

/* Starts settling from the current pointer towards the completion or cancel target, carrying
 * the release velocity's component towards the target, at most omega times the gap: with that
 * bound the critically damped gap (g0 + (omega g0 - s0) t) e^(-omega t) never grows and never
 * crosses zero, so the pointer runs straight to the target without overshoot. */
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
        flip->speed0 = clampd(towards, 0.0, MESH_FLIP_SPRING_OMEGA * gap);
    } else {
        flip->dir_x = 0.0, flip->dir_y = 0.0, flip->speed0 = 0.0;
    }
    mesh_flip_step(flip, t); /* lands at once when already on the target */
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
    flip_sample_push(flip, t);
}

bool mesh_flip_press(MeshFlip *flip, float x, float y, double time)
{
    double t;
    if (!isfinite(x) || !isfinite(y) || !flip_time(flip, time, &t))
        return false;
    if (flip->phase == MESH_FLIP_SETTLING)
        mesh_flip_step(flip, t);
    if (flip->phase == MESH_FLIP_SETTLING) {
        /* Catch the page: same material point, the pointer continues from where it is. */
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
    return true;
}

void mesh_flip_move(MeshFlip *flip, float x, float y, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_DRAGGING || !isfinite(x) || !isfinite(y) ||
        !flip_time(flip, time, &t))
        return;
    double lx, ly;
    flip_to_leaf(flip, x, y, &lx, &ly);
    flip->pointer_x = lx + flip->offset_x, flip->pointer_y = ly + flip->offset_y;
    flip_sample_push(flip, t);
}

void mesh_flip_release(MeshFlip *flip, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_DRAGGING || !flip_time(flip, time, &t))
        return;
    double vx, vy;
    flip_velocity(flip, t, &vx, &vy);
    double travel = hypot(flip->pointer_x - flip->press_x, flip->pointer_y - flip->press_y);
    bool flick = travel >= MESH_FLIP_FLING_MIN_TRAVEL * flip->width &&
                 fabs(vx) >= MESH_FLIP_FLING_SPEED * flip->width;
    /* Towards the spine is -x in the leaf's frame, for either direction. */
    bool completing = flick ? vx < 0.0 : flip->pointer_x < 0.0;
    flip_settle(flip, completing, vx, vy, t);
}

void mesh_flip_cancel(MeshFlip *flip, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_DRAGGING || !flip_time(flip, time, &t))
        return;
    double vx, vy;
    flip_velocity(flip, t, &vx, &vy);
    flip_settle(flip, false, vx, vy, t);
}

bool mesh_flip_step(MeshFlip *flip, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_SETTLING || !flip_time(flip, time, &t))
        return false;
    double wt = MESH_FLIP_SPRING_OMEGA * (t - flip->settle_t0);
    double gap = 0.0;
    if (wt < FLIP_SPRING_MAX_PHASE) {
        double rate = MESH_FLIP_SPRING_OMEGA * flip->gap0 - flip->speed0; /* >= 0, see settle */
        gap = (flip->gap0 + rate * (t - flip->settle_t0)) * exp(-wt);
    }
    if (gap > MESH_FLIP_LAND_DISTANCE * flip->width) {
        flip->pointer_x = flip->target_x + flip->dir_x * gap;
        flip->pointer_y = flip->target_y + flip->dir_y * gap;
        return true;
    }
    flip->pointer_x = flip->target_x, flip->pointer_y = flip->target_y;
    if (flip->completing)
        flip->spread += flip->direction == MESH_FLIP_FORWARD ? 1 : -1;
    flip->phase = MESH_FLIP_IDLE;
    flip->direction = MESH_FLIP_NONE;
    flip->completing = false;
    return true;
}

static bool flip_key(MeshFlip *flip, MeshFlipDirection direction, double time)
{
    double t;
    if (flip->phase != MESH_FLIP_IDLE || !flip_time(flip, time, &t))
        return false;
    if (direction == MESH_FLIP_FORWARD ? flip->spread >= flip->leaf_count : flip->spread <= 0)
        return false;
    flip->direction = direction;
    flip->grab_x = flip->width, flip->grab_y = MESH_FLIP_KEY_GRAB_HEIGHT * flip->height;
    flip->pointer_x = flip->grab_x, flip->pointer_y = flip->grab_y;
    flip_settle(flip, true, 0.0, 0.0, t);
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

bool mesh_flip_goto(MeshFlip *flip, int spread)
{
    if (flip->phase != MESH_FLIP_IDLE)
        return false;
    flip->spread = spread < 0 ? 0 : (spread > flip->leaf_count ? flip->leaf_count : spread);
    return true;
}

MeshFlipView mesh_flip_view(const MeshFlip *flip)
{
    MeshFlipView v = {
        .phase = flip->phase,
        .turning = flip->phase != MESH_FLIP_IDLE,
        .completing = flip->phase == MESH_FLIP_SETTLING && flip->completing,
        .direction = flip->direction,
        .spread = flip->spread,
        .turning_leaf = -1,
        .grab = {(float)flip->grab_x, (float)flip->grab_y},
        .pointer = {(float)flip->pointer_x, (float)flip->pointer_y},
    };
    if (flip->grab_x > 0.0)
        v.progress = (float)clampd((flip->grab_x - flip->pointer_x) / (2.0 * flip->grab_x), 0, 1);
    v.grab_height = (float)(flip->grab_y / flip->height);
    int s = flip->spread;
    v.left = flip_face(flip, s - 1, MESH_FLIP_SIDE_BACK);
    v.right = flip_face(flip, s, MESH_FLIP_SIDE_FRONT);
    v.face_up = v.face_down = flip_face(flip, -1, MESH_FLIP_SIDE_NONE);
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

MeshFlipView mesh_flip_view_at(const MeshFlip *flip, double time)
{
    MeshFlip ahead = *flip;
    mesh_flip_step(&ahead, time);
    return mesh_flip_view(&ahead);
}

float mesh_flip_content_column(MeshFlipSide side, float u, float width)
{
    if (!(width > 0.0f) || !isfinite(u))
        return 0.0f;
    double c = clampd((double)u / width, 0.0, 1.0);
    return (float)(side == MESH_FLIP_SIDE_BACK ? 1.0 - c : c);
}
