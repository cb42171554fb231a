/* SPDX-License-Identifier: MIT */
#include "frame_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

bool app_frame_log_open(AppFrameLog *log, char *message, size_t size)
{
    *log = (AppFrameLog){0};
    const char *path = getenv(APP_FRAME_LOG_ENV);
    if (!path || !path[0])
        return true;
    log->file = fopen(path, "w");
    if (!log->file) {
        snprintf(message, size, "cannot write %s (%s): %s", path, APP_FRAME_LOG_ENV,
                 strerror(errno));
        return false;
    }
    log->last_ms = now_ms();
    return true;
}

void app_frame_log_frame(AppFrameLog *log)
{
    if (!log->file)
        return;
    double t = now_ms();
    fprintf(log->file, "%.3f\n", t - log->last_ms);
    log->last_ms = t;
}

void app_frame_log_restart(AppFrameLog *log)
{
    if (log->file)
        log->last_ms = now_ms();
}

bool app_frame_log_close(AppFrameLog *log, char *message, size_t size)
{
    if (!log->file)
        return true;
    bool ok = !ferror(log->file);
    ok = fclose(log->file) == 0 && ok;
    log->file = NULL;
    if (!ok)
        snprintf(message, size, "the frame times (%s) could not all be written", APP_FRAME_LOG_ENV);
    return ok;
}
