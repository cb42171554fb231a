/* SPDX-License-Identifier: MIT */
/* The page-flip state machine: drags, flicks, cancels, catches mid-settle, both directions, the
 * spring's timing and monotonicity, the book's ends, key flips, a reader's queued turns and
 * thumbing flicks, bad input and page bookkeeping. */
#include "check.h"
#include "mesh/flip.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define W     1.0f
#define H     1.4f
#define FRAME (1.0 / 120.0) /* a display's step */

static MeshFlip make(int pages, int spread)
{
    MeshFlip f;
    bool ok = mesh_flip_init(
        &f, &(MeshFlipDesc){.width = W, .height = H, .leaf_count = pages, .spread = spread});
    (void)ok; /* checked in test_init */
    return f;
}

/* Presses at (x0, y0) at t0 and moves in a straight line to (x1, y1) over `duration` at 120 Hz.
 * Returns the time of the last move. */
static double drag(MeshFlip *f, float x0, float y0, float x1, float y1, double t0, double duration)
{
    mesh_flip_press(f, x0, y0, t0);
    int n = (int)ceil(duration / FRAME);
    double t = t0;
    for (int i = 1; i <= n; i++) {
        double a = (double)i / n;
        t = t0 + duration * a;
        mesh_flip_move(f, (float)(x0 + (x1 - x0) * a), (float)(y0 + (y1 - y0) * a), t);
    }
    return t;
}

typedef struct Settle {
    double duration;  /* release to the step that landed */
    double max_rise;  /* largest increase of the distance to the target between two steps */
    double min_ahead; /* least signed distance to the target along the start direction */
    bool landed, finite;
    float target[2];
} Settle;

/* Steps at 1/120 s from t0 until the settle lands (or 5 s pass), watching the distance to the
 * target that the view's `completing` flag names at t0. */
static Settle settle(MeshFlip *f, double t0)
{
    MeshFlipView v = mesh_flip_view(f);
    Settle r = {.duration = -1.0, .min_ahead = INFINITY, .finite = true};
    bool completing = v.completing;
    r.target[0] = completing ? -v.grab[0] : v.grab[0];
    r.target[1] = v.grab[1];
    double dx0 = v.pointer[0] - r.target[0], dy0 = v.pointer[1] - r.target[1];
    double d0 = hypot(dx0, dy0), prev = d0;
    for (int i = 1; i <= 600; i++) {
        double t = t0 + i * FRAME;
        bool moving = mesh_flip_step(f, t);
        v = mesh_flip_view(f);
        double dx = v.pointer[0] - r.target[0], dy = v.pointer[1] - r.target[1];
        double d = hypot(dx, dy);
        if (!isfinite(v.pointer[0]) || !isfinite(v.pointer[1]))
            r.finite = false;
        if (d - prev > r.max_rise)
            r.max_rise = d - prev;
        if (d0 > 0.0) {
            double ahead = (dx * dx0 + dy * dy0) / d0;
            if (ahead < r.min_ahead)
                r.min_ahead = ahead;
        }
        prev = d;
        if (v.phase == MESH_FLIP_IDLE) {
            r.landed = moving; /* the landing step itself still reports motion */
            r.duration = t - t0;
            break;
        }
    }
    return r;
}

static void test_init(CheckState *s)
{
    MeshFlip f;
    CHECK(s, mesh_flip_init(&f, &(MeshFlipDesc){0}), "zero desc means defaults");
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_IDLE && !v.turning && v.spread == 0 && v.turning_leaf == -1,
          "defaults: idle at spread 0 (phase %d spread %d)", v.phase, v.spread);
    CHECK(s, !mesh_flip_init(&f, &(MeshFlipDesc){.leaf_count = 2, .spread = 3}),
          "spread past the end is refused");
    CHECK(s, !mesh_flip_init(&f, &(MeshFlipDesc){.width = -1.0f}), "negative width refused");
    CHECK(s, !mesh_flip_init(&f, &(MeshFlipDesc){.height = NAN}), "NaN height refused");
}

static void test_slow_drag_completes(CheckState *s)
{
    MeshFlip f = make(3, 0);
    CHECK(s, mesh_flip_press(&f, 0.9f, 0.5f, 0.0), "press on the right page starts a turn");
    double t = drag(&f, 0.9f, 0.5f, -0.3f, 0.5f, 0.0, 2.0); /* 0.6 W/s: not a flick */
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_DRAGGING && v.direction == MESH_FLIP_FORWARD,
          "dragging forward (phase %d dir %d)", v.phase, v.direction);
    CHECK(s, fabsf(v.pointer[0] - -0.3f) < 1e-6f && fabsf(v.grab[0] - 0.9f) < 1e-6f,
          "pointer (%g) follows, grab (%g) stays", v.pointer[0], v.grab[0]);
    CHECK(s, v.progress > 0.6f && v.progress < 0.7f, "progress %g = 1.2 / 1.8", v.progress);
    mesh_flip_release(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_SETTLING && v.completing, "past the spine: completes");
    CHECK(s, v.spread == 0, "the spread moves only when the turn lands (%d)", v.spread);
    Settle r = settle(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.phase == MESH_FLIP_IDLE && !v.turning, "lands and goes idle");
    CHECK(s, v.spread == 1, "spread advanced to 1 (%d)", v.spread);
    CHECK(s, v.pointer[0] == -0.9f && v.pointer[1] == 0.5f,
          "lands exactly on the mirrored grab point (%.9g, %.9g)", v.pointer[0], v.pointer[1]);
    CHECK(s, v.progress == 1.0f, "progress 1 when landed (%g)", v.progress);
    CHECK(s, r.duration >= 0.3 && r.duration <= 0.6, "settle %.3f s in [0.3, 0.6]", r.duration);
    CHECK(s, r.max_rise <= 0.0, "distance to target never grows (rise %g)", r.max_rise);
    CHECK(s, r.min_ahead >= 0.0, "never passes the target (%g)", r.min_ahead);
    CHECK(s, !mesh_flip_step(&f, t + 10.0), "nothing moves once idle");
}

static void test_flicks(CheckState *s)
{
    /* A short fast drag towards the spine: 0.15 W in 50 ms = 3 W/s. */
    MeshFlip f = make(3, 0);
    double t = drag(&f, 0.9f, 0.5f, 0.75f, 0.5f, 0.0, 0.05);
    mesh_flip_release(&f, t);
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.completing, "a flick towards the spine completes from a short drag");
    Settle r = settle(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.spread == 1, "flick lands on spread 1 (%d)", v.spread);
    CHECK(s, r.max_rise <= 0.0 && r.min_ahead >= 0.0,
          "flick settle is monotone (rise %g, ahead %g)", r.max_rise, r.min_ahead);
    CHECK(s, r.duration >= 0.3 && r.duration <= 0.6, "flick settle %.3f s", r.duration);

    /* A violent flick (100 W/s, 4x the speed a critically damped spring can start with over this
     * gap without overshooting): its velocity must not carry the pointer past the target. */
    f = make(3, 0);
    t = drag(&f, 0.9f, 0.5f, 0.4f, 0.5f, 0.0, 0.005);
    mesh_flip_release(&f, t);
    r = settle(&f, t);
    CHECK(s, r.landed && mesh_flip_view(&f).spread == 1, "violent flick completes");
    CHECK(s, r.max_rise <= 0.0 && r.min_ahead >= 0.0,
          "no overshoot from a violent flick (rise %g, ahead %g)", r.max_rise, r.min_ahead);
    CHECK(s, r.duration >= 0.3, "the spring carries it, no early snap (%.3f s)", r.duration);

    /* Moves all stamped with one time carry no velocity (no division by a zero time spread). */
    f = make(3, 0);
    mesh_flip_press(&f, 0.9f, 0.5f, 1.0);
    for (int i = 1; i <= 3; i++)
        mesh_flip_move(&f, 0.9f - 0.1f * i, 0.5f, 1.0);
    mesh_flip_release(&f, 1.0);
    CHECK(s, !mesh_flip_view(&f).completing, "same-time moves: no flick");
    r = settle(&f, 1.0);
    CHECK(s, r.finite && r.landed && r.duration >= 0.3,
          "same-time moves: a normal fall back (%.3f s)", r.duration);

    /* Past the spine, then a fast flick back: cancels although the pointer is past the spine. */
    f = make(3, 0);
    t = drag(&f, 0.9f, 0.5f, -0.4f, 0.5f, 0.0, 2.0);
    for (int i = 1; i <= 6; i++)
        mesh_flip_move(&f, -0.4f + 0.04f * i, 0.5f, t + i * FRAME); /* 4.8 W/s back */
    t += 6 * FRAME;
    CHECK(s, mesh_flip_view(&f).pointer[0] < 0.0f, "still past the spine at release");
    mesh_flip_release(&f, t);
    CHECK(s, !mesh_flip_view(&f).completing, "a flick back cancels");
    r = settle(&f, t);
    MeshFlipView v2 = mesh_flip_view(&f);
    CHECK(s, r.landed && v2.spread == 0 && v2.pointer[0] == 0.9f,
          "cancelled: spread 0 (%d), pointer back on the grab (%g)", v2.spread, v2.pointer[0]);

    /* A fast drag that stops 60 ms before the release: the pointer had stopped, no flick. */
    f = make(3, 0);
    t = drag(&f, 0.9f, 0.5f, 0.6f, 0.5f, 0.0, 0.1);
    mesh_flip_release(&f, t + 0.06);
    CHECK(s, !mesh_flip_view(&f).completing, "a stopped pointer is not a flick");

    /* Click tremor: 0.01 W in one 5 ms step is fast but too short to be a flick. */
    f = make(3, 0);
    mesh_flip_press(&f, 0.9f, 0.5f, 0.0);
    mesh_flip_move(&f, 0.89f, 0.5f, 0.005);
    mesh_flip_release(&f, 0.005);
    CHECK(s, !mesh_flip_view(&f).completing, "click tremor is not a flick");
}

static void test_short_drag_cancels(CheckState *s)
{
    MeshFlip f = make(3, 1);
    double t = drag(&f, 0.9f, 0.5f, 0.7f, 0.6f, 0.0, 1.0);
    mesh_flip_release(&f, t);
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_SETTLING && !v.completing, "short slow drag cancels");
    Settle r = settle(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.phase == MESH_FLIP_IDLE, "cancel lands and goes idle");
    CHECK(s, v.pointer[0] == 0.9f && v.pointer[1] == 0.5f,
          "pointer back exactly on the grab point (%.9g, %.9g)", v.pointer[0], v.pointer[1]);
    CHECK(s, v.spread == 1, "spread unchanged (%d)", v.spread);
    CHECK(s, r.duration >= 0.3 && r.duration <= 0.6, "cancel settle %.3f s", r.duration);
    CHECK(s, r.max_rise <= 0.0 && r.min_ahead >= 0.0, "cancel monotone (rise %g, ahead %g)",
          r.max_rise, r.min_ahead);
}

static void test_catch_mid_settle(CheckState *s)
{
    MeshFlip f = make(3, 0);
    double t = drag(&f, 0.9f, 0.5f, -0.2f, 0.5f, 0.0, 2.0);
    mesh_flip_release(&f, t);
    for (int i = 1; i <= 18; i++)
        mesh_flip_step(&f, t + i * FRAME);
    double tp = t + 18 * FRAME + 0.004; /* between frames: the press must step there itself */
    MeshFlip ghost;                     /* where the page would be at tp, had nobody touched it */
    memcpy(&ghost, &f, sizeof f);
    mesh_flip_step(&ghost, tp);
    MeshFlipView g = mesh_flip_view(&ghost);
    CHECK(s, g.phase == MESH_FLIP_SETTLING, "still settling when caught");
    CHECK(s, mesh_flip_press(&f, 0.3f, 1.2f, tp), "a press mid-settle catches the page");
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_DRAGGING && v.direction == MESH_FLIP_FORWARD, "dragging again");
    CHECK(s, v.grab[0] == 0.9f && v.grab[1] == 0.5f, "same grabbed point (%g, %g)", v.grab[0],
          v.grab[1]);
    CHECK(s, v.pointer[0] == g.pointer[0] && v.pointer[1] == g.pointer[1],
          "no jump: pointer (%.9g, %.9g) where the settle had it (%.9g, %.9g)", v.pointer[0],
          v.pointer[1], g.pointer[0], g.pointer[1]);
    mesh_flip_move(&f, 0.5f, 1.1f, tp + 0.1); /* input moved by (+0.2, -0.1) */
    MeshFlipView m = mesh_flip_view(&f);
    CHECK(s,
          fabsf(m.pointer[0] - (v.pointer[0] + 0.2f)) < 1e-6f &&
              fabsf(m.pointer[1] - (v.pointer[1] - 0.1f)) < 1e-6f,
          "follows the motion from there: (%g, %g)", m.pointer[0], m.pointer[1]);
    /* Carry it back over the spine and let go slowly: it falls back. */
    mesh_flip_move(&f, 0.5f + 1.0f, 1.1f, tp + 2.0);
    mesh_flip_release(&f, tp + 2.2);
    Settle r = settle(&f, tp + 2.2);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.spread == 0 && v.pointer[0] == 0.9f, "caught and cancelled (%d, %g)",
          v.spread, v.pointer[0]);
}

static void test_backward(CheckState *s)
{
    MeshFlip f = make(3, 2);
    CHECK(s, mesh_flip_press(&f, -0.8f, 0.3f, 0.0), "press on the left page starts a turn");
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.direction == MESH_FLIP_BACKWARD && v.turning_leaf == 1,
          "backward turn of leaf 1 (dir %d leaf %d)", v.direction, v.turning_leaf);
    CHECK(s, v.grab[0] == 0.8f && v.grab[1] == 0.3f, "grab mirrored into the leaf frame (%g, %g)",
          v.grab[0], v.grab[1]);
    CHECK(s,
          v.face_up.leaf == 1 && v.face_up.side == MESH_FLIP_SIDE_BACK && v.face_down.leaf == 1 &&
              v.face_down.side == MESH_FLIP_SIDE_FRONT,
          "leaf 1 shows its back up, front down");
    CHECK(s,
          v.left.leaf == 0 && v.left.side == MESH_FLIP_SIDE_BACK && v.right.leaf == 2 &&
              v.right.side == MESH_FLIP_SIDE_FRONT,
          "uncovers leaf 0's back on the left, leaf 2's front stays right");
    double t = 0.0;
    for (int i = 1; i <= 240; i++) { /* to x = +0.4 over 2 s */
        t = i * FRAME;
        mesh_flip_move(&f, (float)(-0.8 + 1.2 * i / 240.0), 0.3f, t);
    }
    v = mesh_flip_view(&f);
    CHECK(s, fabsf(v.pointer[0] - -0.4f) < 1e-6f, "pointer mirrored (%g)", v.pointer[0]);
    mesh_flip_release(&f, t);
    CHECK(s, mesh_flip_view(&f).completing, "past the spine: completes backward");
    Settle r = settle(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.spread == 1, "went back to spread 1 (%d)", v.spread);
    CHECK(s, v.pointer[0] == -0.8f && v.pointer[1] == 0.3f, "landed on (-gx, gy) in leaf frame");
    CHECK(s, v.left.leaf == 0 && v.right.leaf == 1 && v.right.side == MESH_FLIP_SIDE_FRONT,
          "spread 1: leaf 0 left, leaf 1 front right");
    /* A backward flick: towards the spine is +x in the spread. */
    f = make(3, 2);
    t = drag(&f, -0.9f, 0.5f, -0.75f, 0.5f, 0.0, 0.05);
    mesh_flip_release(&f, t);
    CHECK(s, mesh_flip_view(&f).completing, "backward flick completes");
}

static void test_ends(CheckState *s)
{
    MeshFlip f = make(2, 2);
    CHECK(s, !mesh_flip_press(&f, 0.5f, 0.5f, 0.0), "no forward turn past the last leaf");
    CHECK(s, !mesh_flip_next(&f, 0.0), "no next past the last leaf");
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE, "still idle at the end");
    f = make(2, 0);
    CHECK(s, !mesh_flip_press(&f, -0.5f, 0.5f, 0.0), "no backward turn before the first leaf");
    CHECK(s, !mesh_flip_prev(&f, 0.0), "no prev before the first leaf");
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE, "still idle at the start");
    CHECK(s, !mesh_flip_press(&f, 1.2f, 0.5f, 0.0), "press beyond the free edge ignored");
    CHECK(s, !mesh_flip_press(&f, 0.5f, 1.5f, 0.0), "press above the page ignored");
    CHECK(s, !mesh_flip_press(&f, 0.01f, 0.5f, 0.0), "press on the spine ignored");
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE, "idle after ignored presses");
    /* A one-leaf book turns both ways. */
    f = make(1, 0);
    CHECK(s, mesh_flip_next(&f, 0.0), "one leaf: next");
    settle(&f, 0.0);
    CHECK(s, mesh_flip_view(&f).spread == 1 && !mesh_flip_next(&f, 5.0), "one leaf: at the end");
}

static void test_keys(CheckState *s)
{
    MeshFlip f = make(3, 0);
    CHECK(s, mesh_flip_next(&f, 1.0), "next starts a turn");
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_SETTLING && v.completing && v.direction == MESH_FLIP_FORWARD,
          "next: settling to completion forward");
    CHECK(s, v.grab[0] == W && fabsf(v.grab[1] - 0.25f * H) < 1e-6f,
          "grabbed at the free-edge corner (%g, %g)", v.grab[0], v.grab[1]);
    CHECK(s, !mesh_flip_next(&f, 1.0) && !mesh_flip_prev(&f, 1.0), "keys ignored while moving");
    CHECK(s, !mesh_flip_press(&f, NAN, 0.5f, 1.0) && mesh_flip_view(&f).phase == MESH_FLIP_SETTLING,
          "a NaN press does not catch the page");
    Settle r = settle(&f, 1.0);
    v = mesh_flip_view(&f);
    CHECK(s, r.landed && v.spread == 1 && v.pointer[0] == -W, "next lands on spread 1 (%d)",
          v.spread);
    CHECK(s, r.duration >= 0.3 && r.duration <= 0.6, "key flip %.3f s", r.duration);
    CHECK(s, r.max_rise <= 0.0 && r.min_ahead >= 0.0, "key flip monotone");
    CHECK(s, mesh_flip_prev(&f, 3.0), "prev starts a turn");
    v = mesh_flip_view(&f);
    CHECK(s, v.direction == MESH_FLIP_BACKWARD && v.turning_leaf == 0, "prev turns leaf 0 back");
    r = settle(&f, 3.0);
    CHECK(s, r.landed && mesh_flip_view(&f).spread == 0, "prev lands on spread 0");
}

static void test_bad_input(CheckState *s)
{
    const float bad[] = {NAN, INFINITY, -INFINITY};
    MeshFlip f = make(3, 1), before;
    for (int i = 0; i < 3; i++) {
        memcpy(&before, &f, sizeof f);
        CHECK(s,
              !mesh_flip_press(&f, bad[i], 0.5f, 0.0) && !mesh_flip_press(&f, 0.5f, bad[i], 0.0) &&
                  !mesh_flip_press(&f, 0.5f, 0.5f, bad[i]) && !mesh_flip_next(&f, bad[i]),
              "bad press/next %g refused", bad[i]);
        CHECK(s, memcmp(&before, &f, sizeof f) == 0, "idle state unchanged by %g", bad[i]);
    }
    CHECK(s, mesh_flip_press(&f, 0.8f, 0.5f, 0.0), "a good press still works");
    mesh_flip_move(&f, 0.7f, 0.5f, 0.1);
    for (int i = 0; i < 3; i++) {
        memcpy(&before, &f, sizeof f);
        mesh_flip_move(&f, bad[i], 0.5f, 0.2);
        mesh_flip_move(&f, 0.5f, bad[i], 0.2);
        mesh_flip_move(&f, 0.5f, 0.5f, bad[i]);
        mesh_flip_release(&f, bad[i]);
        CHECK(s, memcmp(&before, &f, sizeof f) == 0, "dragging state unchanged by %g", bad[i]);
    }
    /* Huge but finite input stays finite. */
    mesh_flip_move(&f, 1e30f, -1e30f, 0.2);
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, isfinite(v.pointer[0]) && isfinite(v.pointer[1]) && isfinite(v.progress),
          "huge input gives finite output (%g, %g)", v.pointer[0], v.pointer[1]);
    mesh_flip_release(&f, 0.2);
    for (int i = 0; i < 3; i++) {
        memcpy(&before, &f, sizeof f);
        CHECK(s, !mesh_flip_step(&f, bad[i]), "step(%g) refused", bad[i]);
        CHECK(s, memcmp(&before, &f, sizeof f) == 0, "settling state unchanged by %g", bad[i]);
    }
    Settle r = settle(&f, 0.2);
    CHECK(s, r.finite && r.landed, "settles finitely from a huge pointer");
    /* A time far in the future lands rather than computing huge * exp(-huge). */
    f = make(3, 1);
    mesh_flip_next(&f, 0.0);
    CHECK(s, mesh_flip_step(&f, 1e308) && mesh_flip_view(&f).phase == MESH_FLIP_IDLE,
          "a step to 1e308 lands");
    v = mesh_flip_view(&f);
    CHECK(s, v.spread == 2 && v.pointer[0] == -W, "and lands exactly (%d, %g)", v.spread,
          v.pointer[0]);
    /* A time before the last one counts as the last one: the settle does not run backwards. */
    f = make(3, 1);
    mesh_flip_next(&f, 10.0);
    mesh_flip_step(&f, 10.1);
    float x = mesh_flip_view(&f).pointer[0];
    mesh_flip_step(&f, 9.0);
    CHECK(s, mesh_flip_view(&f).pointer[0] == x, "an earlier time does not rewind (%g vs %g)",
          mesh_flip_view(&f).pointer[0], x);
}

static bool face_is(MeshFlipFace f, int leaf, MeshFlipSide side)
{
    return f.leaf == leaf && f.side == side;
}

static void test_bookkeeping(CheckState *s)
{
    const MeshFlipSide N = MESH_FLIP_SIDE_NONE, F = MESH_FLIP_SIDE_FRONT, B = MESH_FLIP_SIDE_BACK;
    MeshFlip f = make(4, 0);
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, face_is(v.left, -1, N) && face_is(v.right, 0, F), "spread 0: nothing | front 0");
    double t = 0.0;
    for (int k = 0; k < 4; k++) {
        /* Alternate key flips and drags: the bookkeeping must not depend on how a turn began. */
        if (k % 2 == 0) {
            mesh_flip_next(&f, t);
        } else {
            t = drag(&f, 0.95f, 0.2f, -0.5f, 0.2f, t, 1.5);
            mesh_flip_release(&f, t);
        }
        v = mesh_flip_view(&f);
        CHECK(s, v.turning_leaf == k && face_is(v.face_up, k, F) && face_is(v.face_down, k, B),
              "turn %d: leaf %d front up, back down", k, v.turning_leaf);
        CHECK(s,
              face_is(v.left, k - 1, k > 0 ? B : N) &&
                  face_is(v.right, k + 1 < 4 ? k + 1 : -1, k + 1 < 4 ? F : N),
              "turn %d: left (%d,%d) right (%d,%d)", k, v.left.leaf, v.left.side, v.right.leaf,
              v.right.side);
        settle(&f, t);
        t += 1.0;
        v = mesh_flip_view(&f);
        CHECK(s,
              v.spread == k + 1 && face_is(v.left, k, B) &&
                  face_is(v.right, k + 1 < 4 ? k + 1 : -1, k + 1 < 4 ? F : N),
              "after turn %d: spread %d left (%d,%d) right (%d,%d)", k, v.spread, v.left.leaf,
              v.left.side, v.right.leaf, v.right.side);
    }
    mesh_flip_prev(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s,
          v.turning_leaf == 3 && face_is(v.face_up, 3, B) && face_is(v.face_down, 3, F) &&
              face_is(v.left, 2, B) && face_is(v.right, -1, N),
          "prev from the end: leaf 3 back up, front down, leaf 2 back left, nothing right");
    /* Content columns: a front reads from the spine out, a back from the free edge in. */
    CHECK(s,
          mesh_flip_content_column(MESH_FLIP_SIDE_FRONT, 0.0f, W) == 0.0f &&
              mesh_flip_content_column(MESH_FLIP_SIDE_FRONT, W, W) == 1.0f,
          "front: spine is column 0");
    CHECK(s,
          mesh_flip_content_column(MESH_FLIP_SIDE_BACK, 0.0f, W) == 1.0f &&
              mesh_flip_content_column(MESH_FLIP_SIDE_BACK, W, W) == 0.0f,
          "back: spine is column 1");
    /* A back lying face up on the left reads left to right: column grows with spread x = -u. */
    CHECK(s,
          mesh_flip_content_column(MESH_FLIP_SIDE_BACK, 0.7f, W) <
              mesh_flip_content_column(MESH_FLIP_SIDE_BACK, 0.2f, W),
          "back reads left to right on the left page");
}

/* Home and End open the book at its ends at once, and never cut a moving page short. */
static void test_goto(CheckState *s)
{
    MeshFlip f;
    mesh_flip_init(&f, &(MeshFlipDesc){.leaf_count = 5, .spread = 2});
    CHECK(s, mesh_flip_goto(&f, 99) && mesh_flip_view(&f).spread == 5, "End did not clamp to 5");
    CHECK(s, mesh_flip_goto(&f, -3) && mesh_flip_view(&f).spread == 0, "Home did not clamp to 0");
    CHECK(s, mesh_flip_next(&f, 0.0), "a key flip did not start");
    CHECK(s, !mesh_flip_goto(&f, 5) && mesh_flip_view(&f).spread == 0,
          "End cut a turning page short");
    /* End's spread holds the last page: 396 | 397 of 397 pages, 398 | - of 398 */
    static const int pages[][2] = {{397, 198}, {398, 199}, {1, 0}, {2, 1}, {0, 5}};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        int leaves = pages[i][0] ? (pages[i][0] + 1) / 2 : 5;
        mesh_flip_init(&f, &(MeshFlipDesc){.leaf_count = leaves, .page_count = pages[i][0]});
        CHECK(s, mesh_flip_end_spread(&f) == pages[i][1], "%d pages: End's spread %d, want %d",
              pages[i][0], mesh_flip_end_spread(&f), pages[i][1]);
    }
}

/* The turn runs on the caller's clock, not on frames: stepped at 120 Hz, at 10 Hz, or once after
 * a 0.2 s stall, the pointer is at the same place at the same time, and a slow frame rate lands
 * the turn no later (a slow frame skips ahead rather than slowing the turn). */
static void test_real_time(CheckState *s)
{
    const double steps[] = {FRAME, 0.1, 0.2};
    float at[3][2];
    double landed[3];
    for (int k = 0; k < 3; k++) {
        MeshFlip f = make(3, 0);
        mesh_flip_next(&f, 1.0);
        for (double t = 1.0 + steps[k]; t < 1.2 + 1e-9; t += steps[k])
            mesh_flip_step(&f, t);
        mesh_flip_step(&f, 1.2);
        MeshFlipView v = mesh_flip_view(&f);
        at[k][0] = v.pointer[0], at[k][1] = v.pointer[1];
        landed[k] = INFINITY;
        for (double t = 1.2 + steps[k]; t < 3.0 && isinf(landed[k]); t += steps[k])
            if (mesh_flip_step(&f, t) && mesh_flip_view(&f).phase == MESH_FLIP_IDLE)
                landed[k] = t;
    }
    for (int k = 1; k < 3; k++) {
        CHECK(s, at[k][0] == at[0][0] && at[k][1] == at[0][1],
              "at 0.2 s, steps of %g s put the pointer at (%g, %g), 120 Hz at (%g, %g)", steps[k],
              at[k][0], at[k][1], at[0][0], at[0][1]);
        CHECK(s, landed[k] <= landed[0] + steps[k], "steps of %g s land at %g s, 120 Hz at %g s",
              steps[k], landed[k] - 1.0, landed[0] - 1.0);
    }
}

/* A frame posed for the moment it will be shown: the view ahead is the view of a flip stepped to
 * that time, and asking for it changes nothing of the flip's own future (its clock, its landing,
 * the times its input is taken at), even past the landing. */
static void test_view_ahead(CheckState *s)
{
    MeshFlip f = make(3, 0), same = make(3, 0);
    mesh_flip_next(&f, 1.0), mesh_flip_next(&same, 1.0);
    MeshFlipView now = mesh_flip_view_at(&f, 1.001), ahead = mesh_flip_view_at(&f, 1.04);
    CHECK(s, now.progress < 0.001f && ahead.progress > 0.05f,
          "a key flip shown 40 ms on is not lifting (progress %g, %g 1 ms on)", ahead.progress,
          now.progress);
    MeshFlip stepped = f;
    mesh_flip_step(&stepped, 1.04);
    MeshFlipView ref = mesh_flip_view(&stepped);
    CHECK(s, ahead.pointer[0] == ref.pointer[0] && ahead.pointer[1] == ref.pointer[1],
          "the view ahead (%g, %g) is not the flip stepped there (%g, %g)", ahead.pointer[0],
          ahead.pointer[1], ref.pointer[0], ref.pointer[1]);
    MeshFlipView landed = mesh_flip_view_at(&f, 5.0);
    CHECK(s, landed.phase == MESH_FLIP_IDLE && landed.spread == 1,
          "the view past the landing is not the turned spread (phase %d spread %d)", landed.phase,
          landed.spread);
    CHECK(s, mesh_flip_view(&f).turning && mesh_flip_view(&f).spread == 0,
          "looking ahead moved the flip itself");
    /* the same future: a catch at a time before the one looked at, then the same drag */
    double t = 1.02;
    CHECK(s, mesh_flip_press(&f, 0.6f, 0.5f, t) && mesh_flip_press(&same, 0.6f, 0.5f, t),
          "a catch after looking ahead was refused");
    for (int i = 1; i <= 10; i++) {
        t += FRAME;
        mesh_flip_move(&f, 0.6f - 0.05f * i, 0.5f, t),
            mesh_flip_move(&same, 0.6f - 0.05f * i, 0.5f, t);
        MeshFlipView held = mesh_flip_view_at(&f, t + 0.05);
        CHECK(s, held.pointer[0] == mesh_flip_view(&f).pointer[0],
              "a held page moved ahead of its pointer");
    }
    mesh_flip_release(&f, t), mesh_flip_release(&same, t);
    Settle a = settle(&f, t), b = settle(&same, t);
    MeshFlipView va = mesh_flip_view(&f), vb = mesh_flip_view(&same);
    CHECK(s,
          a.duration == b.duration && va.spread == vb.spread && va.pointer[0] == vb.pointer[0] &&
              va.pointer[1] == vb.pointer[1],
          "looking ahead changed the turn: landed after %g s at spread %d, else %g s at %d",
          a.duration, va.spread, b.duration, vb.spread);
    MeshFlipView before = mesh_flip_view_at(&f, 0.0);
    CHECK(s, before.spread == va.spread && before.pointer[0] == va.pointer[0],
          "an earlier time did not give the current view");
}

/* What a run of turns asked at given times did, stepped at `step` seconds: where it ended, how
 * many were refused, when it came to rest after the last, and whether every pose on the way was
 * one a single turn passes through (the pointer on the grab's line, between the leaf's two rest
 * places, the spread moving one leaf at a time and never back). */
typedef struct Thumbed {
    int spread, refused;
    double rest;
    bool poses_ok;
    float pointer_at[2]; /* at `probe` */
    float lift_at[2];    /* at `probe`, and at the probe after the last press (the lift eases) */
} Thumbed;

static Thumbed thumb_keys(int leaves, const double *times, const MeshFlipDirection *dirs, int n,
                          double step, double probe)
{
    MeshFlip f = make(leaves, 0);
    Thumbed r = {.rest = -1.0, .poses_ok = true};
    int k = 0, spread = 0;
    double last = times[n - 1], after = probe > 0.0 ? last + probe : -1.0;
    for (int i = 0;; i++) {
        double t = i * step;
        if (t > last + 5.0)
            break;
        if (after > t - step && after <= t) /* the view eases back: asked between two steps */
            r.lift_at[1] = mesh_flip_view_at(&f, after).lift;
        if (probe > t - step && probe <= t) { /* the probe's own step, between two others */
            for (; k < n && times[k] <= probe; k++)
                if (!mesh_flip_turn(&f, dirs ? dirs[k] : MESH_FLIP_FORWARD, times[k]))
                    r.refused++;
            mesh_flip_step(&f, probe);
            MeshFlipView p = mesh_flip_view(&f);
            r.pointer_at[0] = p.pointer[0], r.pointer_at[1] = p.pointer[1];
            r.lift_at[0] = p.lift;
        }
        while (k < n && times[k] <= t) {
            if (!mesh_flip_turn(&f, dirs ? dirs[k] : MESH_FLIP_FORWARD, times[k]))
                r.refused++;
            k++;
        }
        mesh_flip_step(&f, t);
        MeshFlipView v = mesh_flip_view(&f);
        if (v.turning && (v.pointer[0] < -W - 1e-5f || v.pointer[0] > W + 1e-5f ||
                          fabsf(v.pointer[1] - 0.25f * H) > 1e-5f || v.grab[0] != W))
            r.poses_ok = false;
        if (abs(v.spread - spread) > 1)
            r.poses_ok = false;
        spread = v.spread;
        if (k == n && !v.turning && r.rest < 0.0)
            r.rest = t - last;
    }
    r.spread = spread;
    return r;
}

/* A reader thumbing through: presses 60 ms apart each turn a leaf (a fast hand, and a held key's
 * repeats) where a turn once refused every key until it landed; the queue is bounded so that a
 * held key stops soon after it is let go; the way back drops the queue, and with nothing queued
 * turns the leaf in flight round; the book's end bounds it; the poses do not depend on the rate
 * it is stepped at. */
static void test_queue(CheckState *s)
{
    double times[60];
    for (int i = 0; i < 60; i++)
        times[i] = 0.06 * i;
    Thumbed r = thumb_keys(100, times, NULL, 6, FRAME, 0.0);
    CHECK(s, r.spread == 6 && r.refused == 0, "6 presses 60 ms apart: spread %d, %d refused",
          r.spread, r.refused);
    r = thumb_keys(100, times, NULL, 60, FRAME, 0.0);
    printf("queue: 60 presses 60 ms apart turn %d spreads (%d refused), at rest %.2f s after the "
           "last\n",
           r.spread, r.refused, r.rest);
    CHECK(s, r.spread == 60 && r.refused == 0, "60 presses 60 ms apart: spread %d, %d refused",
          r.spread, r.refused);
    CHECK(s, r.rest > 0.0 && r.rest < 1.0, "at rest %.2f s after the last press", r.rest);
    CHECK(s, r.poses_ok, "a pose off a key turn's path, or a spread that jumped");
    /* 30 a second (a held key's repeat), 3 s: it keeps up, and stops soon after */
    double held[90];
    for (int i = 0; i < 90; i++)
        held[i] = i / 30.0;
    r = thumb_keys(200, held, NULL, 90, FRAME, 0.0);
    CHECK(s, r.rest > 0.0 && r.rest < 1.0 && r.poses_ok,
          "a held key: at rest %.2f s after it was let go", r.rest);
    /* all at once: one turns, MESH_FLIP_QUEUE_MAX wait, the rest are refused */
    double once[10] = {0};
    r = thumb_keys(100, once, NULL, 10, FRAME, 0.0);
    CHECK(s, r.spread == 1 + MESH_FLIP_QUEUE_MAX && r.refused == 9 - MESH_FLIP_QUEUE_MAX,
          "10 presses at once: spread %d, %d refused", r.spread, r.refused);
    /* the book's end: from spread 0 of 3 leaves, 3 turns and no more */
    r = thumb_keys(3, times, NULL, 6, FRAME, 0.0);
    CHECK(s, r.spread == 3 && r.refused == 3, "at the end: spread %d, %d refused", r.spread,
          r.refused);
    /* the same presses stepped at 120 Hz, at 10 Hz and at 7 Hz: the same pose at the same time */
    Thumbed a = thumb_keys(100, times, NULL, 12, FRAME, 0.31);
    Thumbed b = thumb_keys(100, times, NULL, 12, 0.1, 0.31);
    Thumbed c = thumb_keys(100, times, NULL, 12, 1.0 / 7.0, 0.31);
    CHECK(s,
          a.spread == 12 && b.spread == 12 && c.spread == 12 &&
              a.pointer_at[0] == b.pointer_at[0] && a.pointer_at[0] == c.pointer_at[0] &&
              a.pointer_at[1] == b.pointer_at[1],
          "stepped at 120, 10, 7 Hz: pointer %.9g, %.9g, %.9g at 0.31 s (spreads %d %d %d)",
          a.pointer_at[0], b.pointer_at[0], c.pointer_at[0], a.spread, b.spread, c.spread);
    /* and the same lift: gathered while turns queue, easing back after the last */
    printf("queue: the view's lift %.4f while turns queue, %.4f easing back after the last\n",
           (double)a.lift_at[0], (double)a.lift_at[1]);
    CHECK(s,
          a.lift_at[0] > 0.5f && a.lift_at[1] > 0.0f && a.lift_at[1] < a.lift_at[0] &&
              a.lift_at[0] == b.lift_at[0] && a.lift_at[0] == c.lift_at[0] &&
              a.lift_at[1] == b.lift_at[1] && a.lift_at[1] == c.lift_at[1],
          "stepped at 120, 10, 7 Hz: lift %.9g, %.9g, %.9g queued, %.9g, %.9g, %.9g after",
          (double)a.lift_at[0], (double)b.lift_at[0], (double)c.lift_at[0], (double)a.lift_at[1],
          (double)b.lift_at[1], (double)c.lift_at[1]);

    /* the way back: drops the queue, the leaf in the air still lands */
    const MeshFlipDirection F = MESH_FLIP_FORWARD, B = MESH_FLIP_BACKWARD;
    double t4[] = {0.0, 0.01, 0.02, 0.03, 0.04};
    MeshFlipDirection d4[] = {F, F, F, F, B};
    r = thumb_keys(100, t4, d4, 5, FRAME, 0.0);
    CHECK(s, r.spread == 1 && r.refused == 0, "three queued, then back: spread %d, %d refused",
          r.spread, r.refused);
    /* nothing queued, back: the leaf in flight turns round, from where it is */
    MeshFlip f = make(10, 0);
    mesh_flip_turn(&f, F, 0.0);
    mesh_flip_step(&f, 0.1);
    MeshFlipView before = mesh_flip_view(&f);
    CHECK(s, before.heading == 1, "heading %d, want 1", before.heading);
    CHECK(s, mesh_flip_turn(&f, B, 0.1), "back during a turn refused");
    MeshFlipView after = mesh_flip_view(&f);
    CHECK(s,
          after.phase == MESH_FLIP_SETTLING && !after.completing && after.heading == 0 &&
              after.pointer[0] == before.pointer[0],
          "turned round: completing %d heading %d, pointer %g from %g", after.completing,
          after.heading, after.pointer[0], before.pointer[0]);
    CHECK(s, mesh_flip_turn(&f, F, 0.12) && mesh_flip_view(&f).completing,
          "forward again: completes it again");
    Settle land = settle(&f, 0.12);
    CHECK(s, land.landed && mesh_flip_view(&f).spread == 1, "landed on %d",
          mesh_flip_view(&f).spread);
    /* queued turns hurry the one in flight; where it heads counts them */
    f = make(10, 0);
    mesh_flip_turn(&f, F, 0.0);
    mesh_flip_turn(&f, F, 0.0);
    mesh_flip_turn(&f, F, 0.0);
    MeshFlipView q = mesh_flip_view(&f);
    CHECK(s, q.queued == 2 && q.heading == 3 && q.spread == 0, "queued %d heading %d spread %d",
          q.queued, q.heading, q.spread);
    /* a press catches the leaf and drops the queue: the hand has the book */
    mesh_flip_step(&f, 0.01);
    CHECK(s, mesh_flip_press(&f, 0.5f, 0.5f, 0.01), "a press did not catch the leaf");
    q = mesh_flip_view(&f);
    CHECK(s, q.phase == MESH_FLIP_DRAGGING && q.queued == 0 && !mesh_flip_turn(&f, F, 0.02),
          "caught: phase %d queued %d, a key taken while held", q.phase, q.queued);
    /* bad directions and times change nothing */
    f = make(10, 0);
    MeshFlip same = f;
    CHECK(s,
          !mesh_flip_turn(&f, MESH_FLIP_NONE, 0.0) && !mesh_flip_turn(&f, F, NAN) &&
              memcmp(&f, &same, sizeof f) == 0,
          "a bad turn changed the flip");
}

/* A short fast stroke from (x0, y) to (x1, y) over 50 ms, pressed behind the settling leaf with
 * mesh_flip_thumb_press (`thumb`) or as an ordinary press; returns the release time. */
static double flick(MeshFlip *f, float x0, float x1, float y, double t0, bool thumb)
{
    bool pressed = thumb ? mesh_flip_thumb_press(f, x0, y, t0) : mesh_flip_press(f, x0, y, t0);
    (void)pressed;
    double t = t0;
    for (int i = 1; i <= 6; i++) {
        t = t0 + 0.05 * i / 6.0;
        mesh_flip_move(f, x0 + (x1 - x0) * (float)i / 6.0f, y, t);
    }
    mesh_flip_release(f, t);
    return t;
}

/* Flicks behind the settling leaf thumb on: each asks for one more turn instead of catching the
 * leaf in the air (as a press on it still does); one held until the leaf lands picks up the next
 * leaf where it was pressed, without a jump; a book made without thumbing refuses them. */
static void test_thumb_flicks(CheckState *s)
{
    MeshFlip f;
    mesh_flip_init(&f, &(MeshFlipDesc){.width = W, .height = H, .leaf_count = 10, .thumb = true});
    double t = flick(&f, 0.9f, 0.6f, 0.5f, 0.0, false);
    CHECK(s, mesh_flip_view(&f).completing, "the first flick did not turn");
    for (int k = 1; k < 5; k++) {
        double at = 0.15 * k;
        mesh_flip_step(&f, at);
        MeshFlipView v = mesh_flip_view(&f);
        bool settling = v.phase == MESH_FLIP_SETTLING && v.completing;
        t = flick(&f, 0.9f, 0.6f, 0.5f, at, true);
        v = mesh_flip_view(&f);
        CHECK(s, settling && v.phase == MESH_FLIP_SETTLING && v.heading == k + 1,
              "flick %d: heading %d (settling before: %d)", k + 1, v.heading, settling);
    }
    settle(&f, t);
    CHECK(s, mesh_flip_view(&f).spread == 5, "5 flicks turned %d spreads",
          mesh_flip_view(&f).spread);
    /* a flick the other way behind it drops what was asked */
    flick(&f, 0.9f, 0.6f, 0.5f, 10.0, false);
    flick(&f, 0.9f, 0.6f, 0.5f, 10.1, true);
    flick(&f, 0.6f, 0.9f, 0.5f, 10.15, true);
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s, v.queued == 0 && v.heading == 6, "flicked back: queued %d heading %d", v.queued,
          v.heading);
    settle(&f, 10.2);
    /* held while the leaf lands: a drag of the next leaf from where it was pressed */
    t = flick(&f, 0.9f, 0.6f, 0.5f, 20.0, false);
    CHECK(s, mesh_flip_thumb_press(&f, 0.8f, 0.4f, 20.1), "the thumb press was refused");
    CHECK(s, !mesh_flip_press(&f, 0.5f, 0.5f, 20.12), "a second press was taken");
    mesh_flip_move(&f, 0.78f, 0.4f, 20.15);
    settle(&f, 20.15);
    mesh_flip_move(&f, 0.78f, 0.4f, 21.0);
    v = mesh_flip_view(&f);
    CHECK(s,
          v.phase == MESH_FLIP_DRAGGING && v.spread == 7 && v.turning_leaf == 7 &&
              v.grab[0] == 0.8f && v.grab[1] == 0.4f && v.pointer[0] == 0.8f &&
              v.pointer[1] == 0.4f,
          "held through the landing: phase %d spread %d leaf %d grab (%g, %g) pointer (%g, %g)",
          v.phase, v.spread, v.turning_leaf, v.grab[0], v.grab[1], v.pointer[0], v.pointer[1]);
    mesh_flip_move(&f, -0.5f, 0.4f, 22.0);
    mesh_flip_release(&f, 22.5);
    settle(&f, 22.5);
    CHECK(s, mesh_flip_view(&f).spread == 8, "the picked-up leaf did not turn (%d)",
          mesh_flip_view(&f).spread);
    /* a book without thumbing: the press catches the leaf, as before */
    f = make(10, 0);
    flick(&f, 0.9f, 0.6f, 0.5f, 0.0, false);
    CHECK(s, !mesh_flip_thumb_press(&f, 0.8f, 0.4f, 0.1), "thumbing in a book without it");
}

static MeshFlip make_reduced(int leaves, int spread)
{
    MeshFlip f;
    bool ok = mesh_flip_init(&f, &(MeshFlipDesc){.width = W,
                                                 .height = H,
                                                 .leaf_count = leaves,
                                                 .spread = spread,
                                                 .thumb = true,
                                                 .reduced_motion = true});
    (void)ok;
    return f;
}

/* Whether a view shows nothing posed: no curl, the pointer on the grab, the camera at rest. */
static bool at_rest(const MeshFlipView *v)
{
    return v->progress == 0.0f && v->pointer[0] == v->grab[0] && v->pointer[1] == v->grab[1] &&
           v->lift == 0.0f && v->turning_leaf == -1;
}

/* Reduced motion: a key turn is a cross-fade of MESH_FLIP_FADE_TIME, fade rising steadily from 0
 * to 1, no leaf posed, the camera still; thumbing chains hurried fades; a drag stays flat and a
 * swipe or flick turns; a short drag and a cancel change nothing. */
static void test_reduced_motion(CheckState *s)
{
    MeshFlip f = make_reduced(10, 2);
    CHECK(s, mesh_flip_turn(&f, MESH_FLIP_FORWARD, 1.0), "a key turn refused");
    MeshFlipView v = mesh_flip_view(&f);
    CHECK(s,
          v.phase == MESH_FLIP_FADING && v.fade == 0.0f && v.spread == 2 && v.heading == 3 &&
              v.to_right.leaf == 3 && v.right.leaf == 2 && at_rest(&v),
          "turned: phase %d fade %g spread %d heading %d to_right %d right %d", v.phase,
          (double)v.fade, v.spread, v.heading, v.to_right.leaf, v.right.leaf);
    float prev = 0.0f;
    bool rising = true, still = true;
    double landed = -1.0;
    for (int i = 1; i <= 200 && landed < 0.0; i++) {
        double t = 1.0 + i * 0.002;
        mesh_flip_step(&f, t);
        v = mesh_flip_view(&f);
        still &= at_rest(&v) || v.phase == MESH_FLIP_IDLE;
        if (v.phase == MESH_FLIP_IDLE) {
            landed = t - 1.0;
            break;
        }
        rising &= v.fade > prev && v.fade < 1.0f && v.spread == 2;
        prev = v.fade;
    }
    printf("reduced motion: a key turn fades in %.3f s (last fade %.3f)\n", landed, (double)prev);
    CHECK(s, rising && still, "fade not rising steadily, or something posed");
    CHECK(s, fabs(landed - MESH_FLIP_FADE_TIME) < 0.003 && prev > 0.98f, "landed after %g s",
          landed);
    CHECK(s, v.spread == 3 && v.fade == 0.0f && v.lift == 0.0f, "after: spread %d fade %g",
          v.spread, (double)v.fade);
    /* half way, asked ahead of the state machine: half faded */
    f = make_reduced(10, 2);
    mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.0);
    v = mesh_flip_view_at(&f, 0.5 * MESH_FLIP_FADE_TIME);
    CHECK(s, fabsf(v.fade - 0.5f) < 1e-4f, "at half time fade %g", (double)v.fade);
    /* backward, and turned round mid-fade: the fade falls back, the spread stays */
    f = make_reduced(10, 2);
    mesh_flip_turn(&f, MESH_FLIP_BACKWARD, 0.0);
    v = mesh_flip_view_at(&f, 0.1);
    CHECK(s, v.heading == 1 && v.to_left.leaf == 0 && v.fade > 0.3f, "backward: heading %d",
          v.heading);
    CHECK(s, mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.1), "turning round refused");
    v = mesh_flip_view_at(&f, 0.15);
    CHECK(s, !v.completing && v.heading == 2 && v.fade < 0.4f && v.fade > 0.1f,
          "turned round: completing %d heading %d fade %g", v.completing, v.heading,
          (double)v.fade);
    mesh_flip_step(&f, 1.0);
    CHECK(s, mesh_flip_view(&f).spread == 2 && mesh_flip_view(&f).phase == MESH_FLIP_IDLE,
          "turned round: landed on %d", mesh_flip_view(&f).spread);

    /* thumbing: 20 presses 60 ms apart turn 20 spreads, every view at rest, no thumb presses */
    f = make_reduced(100, 0);
    int k = 0, refused = 0;
    bool calm = true, fades = false;
    double rest = -1.0;
    for (int i = 0; i < 600; i++) {
        double t = i * FRAME;
        for (; k < 20 && 0.06 * k <= t; k++)
            refused += !mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.06 * k);
        mesh_flip_step(&f, t);
        v = mesh_flip_view(&f);
        calm &= at_rest(&v) && (v.phase == MESH_FLIP_IDLE || v.phase == MESH_FLIP_FADING);
        fades |= v.phase == MESH_FLIP_FADING && v.queued > 0;
        if (k == 20 && v.phase == MESH_FLIP_IDLE && rest < 0.0)
            rest = t - 0.06 * 19;
    }
    printf("reduced motion: 20 presses 60 ms apart turn %d spreads (%d refused), at rest %.2f s "
           "after the last\n",
           v.spread, refused, rest);
    CHECK(s, v.spread == 20 && refused == 0 && calm && fades,
          "thumbing: spread %d, %d refused, calm %d", v.spread, refused, calm);
    CHECK(s, rest > 0.0 && rest < 2.0 * MESH_FLIP_FADE_TIME, "at rest %g s after", rest);

    /* a drag: flat while held; a swipe towards the spine turns it by a fade */
    f = make_reduced(10, 2);
    double t = drag(&f, 0.8f, 0.5f, 0.3f, 0.5f, 0.0, 1.0);
    v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_DRAGGING && !v.turning && at_rest(&v) && v.right.leaf == 2,
          "held: phase %d turning %d progress %g lift %g", v.phase, v.turning, (double)v.progress,
          (double)v.lift);
    mesh_flip_release(&f, t + 0.1);
    v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_FADING && v.heading == 3, "a swipe: phase %d heading %d", v.phase,
          v.heading);
    /* a press during the fade: it lands at once, and takes the new spread's page */
    CHECK(s, mesh_flip_press(&f, 0.7f, 0.5f, t + 0.15), "a press during a fade refused");
    v = mesh_flip_view(&f);
    CHECK(s, v.spread == 3 && v.phase == MESH_FLIP_DRAGGING, "pressed: spread %d phase %d",
          v.spread, v.phase);
    mesh_flip_release(&f, t + 1.0); /* it had not moved: nothing */
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE && mesh_flip_view(&f).spread == 3,
          "a click turned");
    /* a short slow drag does nothing; a short flick turns; a cancel does nothing */
    f = make_reduced(10, 2);
    t = drag(&f, 0.8f, 0.5f, 0.7f, 0.5f, 0.0, 1.0);
    mesh_flip_release(&f, t + 0.1);
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE && mesh_flip_view(&f).spread == 2,
          "a short drag turned");
    t = drag(&f, -0.8f, 0.5f, -0.7f, 0.5f, 2.0, 0.04);
    mesh_flip_release(&f, t);
    v = mesh_flip_view(&f);
    CHECK(s, v.phase == MESH_FLIP_FADING && v.heading == 1, "a flick back: phase %d heading %d",
          v.phase, v.heading);
    mesh_flip_step(&f, 5.0);
    t = drag(&f, 0.8f, 0.5f, 0.2f, 0.5f, 6.0, 1.0);
    mesh_flip_cancel(&f, t);
    CHECK(s, mesh_flip_view(&f).phase == MESH_FLIP_IDLE && mesh_flip_view(&f).spread == 1,
          "a cancel turned");
}

/* The log of lifts and landings: three turns asked at once, stepped once long after, are three
 * pairs in order (start from s, land on s + 1), however seldom the flip is stepped; a jump cuts
 * the leaf in flight short with a landing of its own. */
static void test_event_log(CheckState *s)
{
    MeshFlip f;
    mesh_flip_init(&f, &(MeshFlipDesc){.leaf_count = 10, .spread = 1, .thumb = true});
    bool asked = mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.0) &&
                 mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.02) &&
                 mesh_flip_turn(&f, MESH_FLIP_FORWARD, 0.04);
    mesh_flip_step(&f, 5.0);
    MeshFlipEvent e[8];
    int n = 0;
    while (n < 8 && mesh_flip_take_event(&f, &e[n]))
        n++;
    bool ordered = n == 6;
    for (int i = 0; ordered && i < 3; i++)
        ordered = e[2 * i].started && e[2 * i].forward && e[2 * i].spread == 1 + i &&
                  !e[2 * i + 1].started && e[2 * i + 1].completed && e[2 * i + 1].spread == 2 + i;
    CHECK(s, asked && ordered, "three turns stepped once: %d events, not three pairs in order", n);
    mesh_flip_turn(&f, MESH_FLIP_BACKWARD, 5.1);
    mesh_flip_jump(&f, 0, 5.12);
    n = 0;
    while (n < 8 && mesh_flip_take_event(&f, &e[n]))
        n++;
    CHECK(s,
          n == 2 && e[0].started && !e[0].forward && !e[1].started && e[1].completed &&
              e[1].spread == 0 && f.events_lost == 0,
          "a jump mid-turn: %d events", n);
}

int main(void)
{
    CheckState s = {0};
    test_init(&s);
    test_goto(&s);
    test_slow_drag_completes(&s);
    test_flicks(&s);
    test_short_drag_cancels(&s);
    test_catch_mid_settle(&s);
    test_backward(&s);
    test_ends(&s);
    test_keys(&s);
    test_queue(&s);
    test_thumb_flicks(&s);
    test_real_time(&s);
    test_view_ahead(&s);
    test_bad_input(&s);
    test_bookkeeping(&s);
    test_reduced_motion(&s);
    test_event_log(&s);
    return check_finish(&s, "test_flip");
}
