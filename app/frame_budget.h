/* SPDX-License-Identifier: MIT */
/* When the window steps down to the low quality tier: a decision from the GPU times of the frames
 * the user watched move, against the display's refresh interval. Plain numbers in, step or not
 * out: no clock, no Vulkan, no SDL. */
#ifndef PAGECURL_APP_FRAME_BUDGET_H
#define PAGECURL_APP_FRAME_BUDGET_H

#include "../gpu/quality.h"

#include <stdbool.h>
#include <stdint.h>

/* Moving frames the decision looks at: half a second at 60 Hz, about one page turn. */
#define APP_FRAME_BUDGET_FRAMES 30
/* The refresh rate taken when the display does not say. */
#define APP_FRAME_BUDGET_DEFAULT_HZ 60

typedef struct AppFrameBudget {
    double budget_ms;                   /* a refresh interval */
    bool armed;                         /* it may step (app_frame_budget_applies) and has not yet */
    double ms[APP_FRAME_BUDGET_FRAMES]; /* the last moving frames' GPU times, a ring */
    uint32_t count, next;
    double median_ms; /* of those frames, as of the last one added */
} AppFrameBudget;

/* The budget of a frame on a display of `hz` (0 or less: unknown, APP_FRAME_BUDGET_DEFAULT_HZ). */
double app_frame_budget_ms(int hz);

/* Whether a tier may step down at all: only `--quality auto` (`asked`) that resolved to the high
 * tier. An explicit tier is what the user chose, and the low tier has nothing below it. */
bool app_frame_budget_applies(GpuQuality asked, GpuQuality resolved);

AppFrameBudget app_frame_budget_init(double budget_ms, bool applies);

/* One finished frame: its GPU time and whether anything moved in it (a frame at rest, redrawn for
 * the HUD or a page streamed in, shows no motion to miss and is left out). True exactly once: at
 * the first moving frame at which the median of the last APP_FRAME_BUDGET_FRAMES moving frames is
 * over the budget; the caller then steps down, and it is never asked to again. */
bool app_frame_budget_add(AppFrameBudget *b, double gpu_ms, bool moving);

#endif
