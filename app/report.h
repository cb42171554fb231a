/* SPDX-License-Identifier: MIT */
/* The benchmark's outputs: the table on stdout, --json and --csv files (written atomically). */
#ifndef PAGECURL_APP_REPORT_H
#define PAGECURL_APP_REPORT_H

#include "bench.h"

#include <stdio.h>

void app_report_table(FILE *out, const BenchReport *report);
/* False with message on a file that cannot be written. */
bool app_report_json(const char *path, const BenchReport *report, char *message, size_t size);
bool app_report_csv(const char *path, const BenchReport *report, char *message, size_t size);

#endif
