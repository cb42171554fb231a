/* SPDX-License-Identifier: MIT */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double rank(const double *sorted, size_t count, double q)
{
    size_t r = (size_t)ceil(q * (double)count); /* nearest rank, 1-based */
    return sorted[r == 0 ? 0 : r - 1];
}

AppStats app_stats_of(const double *values, size_t count)
{
    AppStats s = {0};
    double *sorted = count ? malloc(count * sizeof *sorted) : NULL;
    if (!sorted)
        return s;
    memcpy(sorted, values, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, compare_double);
    s.min = sorted[0];
    s.median = count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
    s.p99 = rank(sorted, count, 0.99);
    free(sorted);
    return s;
}
