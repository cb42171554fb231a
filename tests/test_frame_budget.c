/* SPDX-License-Identifier: MIT */
/* The window's step down (app/frame_budget.c): sustained misses step, once; one hitch, frames at
 * rest and an explicit tier never do. Plain numbers, no device. */
#include "../app/frame_budget.h"
#include "check.h"

#include <math.h>

/* `frames` moving frames of `ms` each; returns how many of them said "step". */
static int feed(AppFrameBudget *b, int frames, double ms, bool moving)
{
    int steps = 0;
    for (int i = 0; i < frames; i++)
        steps += app_frame_budget_add(b, ms, moving);
    return steps;
}

static void check_budget(CheckState *s)
{
    CHECK(s, fabs(app_frame_budget_ms(60) - 1000.0 / 60.0) < 1e-9, "60 Hz");
    CHECK(s, fabs(app_frame_budget_ms(144) - 1000.0 / 144.0) < 1e-9, "144 Hz");
    CHECK(s, fabs(app_frame_budget_ms(0) - 1000.0 / 60.0) < 1e-9, "unknown rate: 60 Hz");
    CHECK(s, app_frame_budget_applies(GPU_QUALITY_AUTO, GPU_QUALITY_HIGH), "auto on a GPU steps");
    CHECK(s, !app_frame_budget_applies(GPU_QUALITY_AUTO, GPU_QUALITY_LOW), "low: nothing below");
    CHECK(s, !app_frame_budget_applies(GPU_QUALITY_HIGH, GPU_QUALITY_HIGH), "explicit high");
    CHECK(s, !app_frame_budget_applies(GPU_QUALITY_LOW, GPU_QUALITY_LOW), "explicit low");
}

static void check_sustained(CheckState *s)
{
    double budget = app_frame_budget_ms(60);
    /* every moving frame over: the step comes at the window's last frame, and only once */
    AppFrameBudget b = app_frame_budget_init(budget, true);
    int before = feed(&b, APP_FRAME_BUDGET_FRAMES - 1, 20.0, true);
    CHECK(s, before == 0, "stepped after %d frames, before the window was full", before);
    CHECK(s, app_frame_budget_add(&b, 20.0, true), "30 frames at 20 ms on a 16.7 ms budget");
    CHECK(s, fabs(b.median_ms - 20.0) < 1e-9, "median %.3f ms", b.median_ms);
    int again = feed(&b, 300, 40.0, true);
    CHECK(s, again == 0, "stepped %d more times (once only)", again);
    /* half the frames over: the median is over */
    b = app_frame_budget_init(budget, true);
    int steps = 0;
    for (int i = 0; i < APP_FRAME_BUDGET_FRAMES; i++)
        steps += app_frame_budget_add(&b, i % 2 ? 18.0 : 12.0, true);
    CHECK(s, steps == 1, "half the frames over the budget stepped %d times", steps);
    /* a third over: not sustained */
    b = app_frame_budget_init(budget, true);
    steps = 0;
    for (int i = 0; i < 10 * APP_FRAME_BUDGET_FRAMES; i++)
        steps += app_frame_budget_add(&b, i % 3 ? 12.0 : 30.0, true);
    CHECK(s, steps == 0, "a third of the frames over stepped %d times", steps);
    /* exactly at the budget is in it */
    b = app_frame_budget_init(budget, true);
    CHECK(s, feed(&b, 100, budget, true) == 0, "frames at the budget");
}

static void check_hitches(CheckState *s)
{
    /* one long frame (a page streamed in, a shader built) in every window of fast ones */
    AppFrameBudget b = app_frame_budget_init(app_frame_budget_ms(60), true);
    int steps = 0;
    for (int i = 0; i < 20 * APP_FRAME_BUDGET_FRAMES; i++)
        steps += app_frame_budget_add(&b, i % APP_FRAME_BUDGET_FRAMES == 7 ? 250.0 : 9.0, true);
    CHECK(s, steps == 0, "single hitches stepped %d times", steps);
}

static void check_rest(CheckState *s)
{
    double budget = app_frame_budget_ms(60);
    /* slow frames at rest (nothing moves) are not counted at all */
    AppFrameBudget b = app_frame_budget_init(budget, true);
    int steps = feed(&b, 1000, 100.0, false);
    CHECK(s, steps == 0 && b.count == 0, "frames at rest counted: %d steps, %u frames", steps,
          b.count);
    /* ...nor do they dilute the moving ones: fast rest frames between slow turns */
    steps = 0;
    for (int turn = 0; turn < 3; turn++)
        steps += feed(&b, 10, 25.0, true) + feed(&b, 200, 1.0, false);
    CHECK(s, steps == 1, "three turns of 10 slow frames with fast rests between stepped %d times",
          steps);
}

static void check_explicit(CheckState *s)
{
    /* an explicit tier is never armed: nothing steps, however slow */
    for (int asked = GPU_QUALITY_LOW; asked <= GPU_QUALITY_HIGH; asked++) {
        AppFrameBudget b =
            app_frame_budget_init(app_frame_budget_ms(60),
                                  app_frame_budget_applies((GpuQuality)asked, (GpuQuality)asked));
        int steps = feed(&b, 1000, 500.0, true);
        CHECK(s, steps == 0, "--quality %s stepped %d times", gpu_quality_name((GpuQuality)asked),
              steps);
    }
}

int main(void)
{
    CheckState s = {0};
    check_budget(&s);
    check_sustained(&s);
    check_hitches(&s);
    check_rest(&s);
    check_explicit(&s);
    return check_finish(&s, "test_frame_budget");
}
