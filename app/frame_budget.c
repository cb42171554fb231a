/* SPDX-License-Identifier: MIT */
#include "frame_budget.h"

#include <string.h>

double app_frame_budget_ms(int hz)
{
    return 1000.0 / (hz > 0 ? hz : APP_FRAME_BUDGET_DEFAULT_HZ);
}

bool app_frame_budget_applies(GpuQuality asked, GpuQuality resolved)
{
    return asked == GPU_QUALITY_AUTO && resolved == GPU_QUALITY_HIGH;
}

AppFrameBudget app_frame_budget_init(double budget_ms, bool applies)
{
    return (AppFrameBudget){.budget_ms = budget_ms, .armed = applies};
}

/* The median of n values (n even: the upper of the middle two, so that half the frames or more
 * over the budget is what steps). */
static double median(const double *values, uint32_t n)
{
    double sorted[APP_FRAME_BUDGET_FRAMES];
    memcpy(sorted, values, n * sizeof *values);
    for (uint32_t i = 1; i < n; i++) /* 30 values: insertion sort */
        for (uint32_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    return sorted[n / 2];
}

bool app_frame_budget_add(AppFrameBudget *b, double gpu_ms, bool moving)
{
    if (!moving || !b->armed)
        return false;
    b->ms[b->next] = gpu_ms;
    b->next = (b->next + 1) % APP_FRAME_BUDGET_FRAMES;
    if (b->count < APP_FRAME_BUDGET_FRAMES)
        b->count++;
    b->median_ms = median(b->ms, b->count);
    if (b->count < APP_FRAME_BUDGET_FRAMES || b->median_ms <= b->budget_ms)
        return false;
    b->armed = false;
    return true;
}
