/* SPDX-License-Identifier: MIT */
/* Input traces: every pointer, finger and key event with its time, as a line-based text file, so
 * that a session can be recorded in the window and replayed (in a window or headless) frame for
 * frame. Owns the event list; parsing reports the first bad line. Format (one event a line,
 * '#' starts a comment, times in seconds from the start, never decreasing, positions as
 * fractions of the window's width and height, 0..1, y down):
 *     0 notebook start 0123456789abcdef  (recorded with a notebook: its ink's digest, first)
 *     0.000 mouse down 0.875 0.840
 *     0.016 finger move 0.850 0.835
 *     0.300 mouse up 0.410 0.800
 *     1.000 key next            (next, prev, home, end, undo)
 *     1.200 ink down 0.500 0.400 0.80   (ink: down, move, up, clear at X Y; down and move may
 *                                        end with the pressure, 0..1, 1 when left out; a
 *                                        stroke's moves and up follow its down)
 *     2.000 zoom by 1.25 0.400 0.500    (zoom: by FACTOR X Y, 0.125..8 about a point; pan DX DY,
 *     2.100 zoom pan 0.010 -0.020        -2..2; fit; toggle X Y, fit <-> 2.5x; by FACTOR alone,
 *     2.200 zoom width 0.700 0.500       about the page's centre; width [X Y], fit the width of
 *     2.300 zoom scroll 0.125            the page there, or of the right-hand one; scroll DY,
 *                                        -2..2 view heights down the page, on to the next)
 *     3.000 key font 13                  (a reflowable book's text laid out again at 6..48 pt:
 *                                        Ctrl + = and -) */
#ifndef PAGECURL_APP_TRACE_H
#define PAGECURL_APP_TRACE_H

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A trace's events are the library's input events (pagecurl_input_event): what the window's
 * input was (app/window_input.c makes them from SDL's), given to a book by pagecurl_book_input
 * (app/trace_apply.c). In a trace, positions and a pan's move are fractions of the window's
 * width and height (0..1, y down) where the library takes target pixels: the replay multiplies
 * them by the viewport's size. The trace's `.size` is set as each is handed on. */

/* Replays step the simulation at this fixed rate, so a trace always gives the same frames. */
#define APP_REPLAY_HZ 60.0
/* After a trace's last event, a replay runs on this long for the book to come to rest: the
 * longest a motion runs on by itself, the fastest pan's coast (book/zoom.c: 0.3 s x ln(8 / 0.002),
 * 2.5 s; test zoom). A still replay skips the frames where nothing moves, so it costs nothing
 * where all is at rest sooner. */
#define APP_REPLAY_TAIL 2.6

typedef struct AppTrace {
    pagecurl_input_event *events;
    size_t count, capacity;
    /* The notebook's ink as the recorded session found it (app_notebook_digest), where it had one
     * open: a line "0 notebook start DIGEST" (16 hex digits) before the first event. A replay
     * that draws onto a notebook holding other ink is refused: it would add its strokes to them. */
    bool notebook_known;
    uint64_t notebook_digest;
} AppTrace;

/* False with "FILE:LINE: reason" (or why the file cannot be read) in message. */
bool app_trace_load(const char *path, AppTrace *out, char *message, size_t size);
/* The same from `len` bytes of text (any bytes: the fuzzer's door); `name` labels messages. */
bool app_trace_parse(const char *text, size_t len, const char *name, AppTrace *out, char *message,
                     size_t size);
bool app_trace_add(AppTrace *trace, const pagecurl_input_event *event);
/* Whether replaying the trace changes a notebook's ink: a stroke, a clear or an undo. */
bool app_trace_inks(const AppTrace *trace);
/* A trace written as it is made (--record): its head (the comment, the notebook's line) written
 * under a temporary name, synced and renamed into place at the start, then each event appended
 * by one write as it happens. The file at the name is always a trace --replay reads, ending with
 * the last whole event, however the run ends (a crash, SIGKILL, a lost display): nothing waits
 * for the end to be written. A write that fails (a full disk) is cut back to the last whole line
 * and the recording stops there, as it does where a replay would refuse more (64 MiB, a day). */
typedef struct AppTraceRecorder {
    int fd; /* the file at the name; -1: not recording */
    const char *path;
    off_t bytes;  /* whole lines written */
    size_t count; /* events written */
    bool failed;  /* recording stopped: message says why */
    char message[512];
} AppTraceRecorder;
/* False with "cannot write PATH: reason" in message; then nothing at the name was touched. */
bool app_trace_record_start(AppTraceRecorder *r, const char *path, const AppTrace *head,
                            char *message, size_t size);
/* Appends the event's line (nothing once recording stopped, or when not recording). */
void app_trace_record(AppTraceRecorder *r, const pagecurl_input_event *event);
/* Synced and closed; false with the one line saying what was not recorded (or not synced). */
bool app_trace_record_end(AppTraceRecorder *r, char *message, size_t size);
void app_trace_free(AppTrace *trace);

#endif
