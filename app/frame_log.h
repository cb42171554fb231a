/* SPDX-License-Identifier: MIT */
/* A benchmark hook, not a user option: with PAGECURL_FRAME_LOG=FILE in the environment a window
 * or a headless run writes each frame's time to FILE, one line a frame (milliseconds from the end
 * of the frame before, or of the run's start, to the end of this one), so that
 * tools/window-bench.sh can set the frame times of a replay in a window beside the same replay
 * headless. Without it nothing is written and nothing is timed. */
#ifndef PAGECURL_APP_FRAME_LOG_H
#define PAGECURL_APP_FRAME_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define APP_FRAME_LOG_ENV "PAGECURL_FRAME_LOG"

typedef struct AppFrameLog {
    FILE *file; /* NULL: no log asked for */
    double last_ms;
} AppFrameLog;

/* Opens the file the environment names, if any. False, with a line for the user in `message`,
 * where it cannot be written. */
bool app_frame_log_open(AppFrameLog *log, char *message, size_t size);
/* A frame ended now: its time written. */
void app_frame_log_frame(AppFrameLog *log);
/* Restarts the clock, as after a time that is no frame's (a window asleep with nothing to draw). */
void app_frame_log_restart(AppFrameLog *log);
/* Closes the file. False, with a line in `message`, where a write failed. */
bool app_frame_log_close(AppFrameLog *log, char *message, size_t size);

#endif
