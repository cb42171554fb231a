/* SPDX-License-Identifier: MIT */
/* Order statistics of a sample of timings: min, median, 99th percentile. */
#ifndef PAGECURL_APP_STATS_H
#define PAGECURL_APP_STATS_H

#include <stddef.h>

typedef struct AppStats {
    double min, median, p99;
} AppStats;

/* Sorts a copy; an empty sample gives zeros. Nearest-rank percentiles. */
AppStats app_stats_of(const double *values, size_t count);

#endif
