/* Input traces: every pointer, finger and key event with its time, as a line-based text file, so
 * that a session can be recorded in the window and replayed (in a window or headless) frame for
 * frame. Owns the event list; parsing reports the first bad line. Format (one event a line,
 * '#' starts a comment, times in seconds from the start, never decreasing, positions as
 * fractions of the window's width and height, 0..1, y down):
 *     0.000 mouse down 0.875 0.840
 *     0.016 finger move 0.850 0.835
 *     0.300 mouse up 0.410 0.800
 *     1.000 key next            (next, prev, home, end, undo)
 *     1.200 ink down 0.500 0.400 0.80   (ink: down, move, up, clear at X Y; down and move may
 *                                        end with the pressure, 0..1, 1 when left out)
 *     2.000 zoom by 1.25 0.400 0.500    (zoom: by FACTOR X Y, 0.125..8 about a point; pan DX DY,
 *     2.100 zoom pan 0.010 -0.020        -2..2; fit; toggle X Y, fit <-> 2.5x) */
#ifndef PAGECURL_APP_TRACE_H
#define PAGECURL_APP_TRACE_H

#include "../book/event.h"

#include <stdbool.h>
#include <stddef.h>

/* Replays step the simulation at this fixed rate, so a trace always gives the same frames. */
#define APP_REPLAY_HZ 60.0
/* After a trace's last event, a replay runs on this long for the page to settle. */
#define APP_REPLAY_TAIL 1.0

typedef struct AppTrace {
    AppTraceEvent *events;
    size_t count, capacity;
} AppTrace;

/* False with "FILE:LINE: reason" (or why the file cannot be read) in message. */
bool app_trace_load(const char *path, AppTrace *out, char *message, size_t size);
/* The same from `len` bytes of text (any bytes: the fuzzer's door); `name` labels messages. */
bool app_trace_parse(const char *text, size_t len, const char *name, AppTrace *out, char *message,
                     size_t size);
bool app_trace_add(AppTrace *trace, const AppTraceEvent *event);
/* Written under a temporary name and renamed into place. */
bool app_trace_save(const char *path, const AppTrace *trace, char *message, size_t size);
void app_trace_free(AppTrace *trace);

#endif
