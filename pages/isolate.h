/* SPDX-License-Identifier: MIT */
/* Pages drawn by a decoder in a process of its own: a file's bytes reach MuPDF's PDF interpreter
 * and image readers, which crash on some files (a division trap, a recursion past the stack, a
 * write past a buffer) and on others loop inside one drawing operator where no abort reaches
 * them. The drawing process is forked from the thread that asks for pages (with the decoder's
 * state as it stands, which only that thread uses) and kept for the pages after (its caches, the
 * fonts a page loads, stay warm); each page's pixels come back through memory shared with it. A
 * process that dies takes only the page it drew with it, and one told to stop is killed; the
 * next page forks another. */
#ifndef PAGECURL_PAGES_ISOLATE_H
#define PAGECURL_PAGES_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum AppIsolated {
    APP_ISOLATED_DRAWN,   /* the drawing returned true: `out` holds its pixels */
    APP_ISOLATED_FAILED,  /* it returned false: `message` says why */
    APP_ISOLATED_CRASHED, /* the process died (`message` names the signal) */
    APP_ISOLATED_STOPPED, /* `*stop` became non-zero: the process was killed */
    APP_ISOLATED_NO_CHILD /* no process could be made: nothing ran */
} AppIsolated;

/* The most a request (what to draw) may hold, copied to the drawing process as bytes. */
#define APP_ISOLATE_REQUEST 128

/* The drawing, in the drawing process: request `request` into `bytes` of `out` (and a line into
 * `message` where it fails). `user` is the drawer's as it was when the process was forked. */
typedef bool (*AppIsolatedDraw)(void *user, const void *request, uint8_t *out, size_t bytes,
                                char *message, size_t size);

/* In the drawing process as it starts: what it must make its own (a file it reads, whose place
 * the parent's descriptor shares with it). False: it cannot draw. */
typedef bool (*AppIsolatedStart)(void *user);

typedef struct AppIsolate AppIsolate;

/* A drawer whose process is forked at its first request (`start`: NULL for none); NULL out of
 * memory. */
AppIsolate *app_isolate_create(AppIsolatedStart start, AppIsolatedDraw draw, void *user);
/* Its process killed, if it has one. */
void app_isolate_destroy(AppIsolate *iso);

/* Has the drawing process draw `request` (`request_size` bytes) onto a copy of `out` and waits
 * for it, checking `*stop` (written by other threads) every few milliseconds; `out` is written
 * back only where it drew. */
AppIsolated app_isolate_draw(AppIsolate *iso, const void *request, size_t request_size,
                             uint8_t *out, size_t bytes, char *message, size_t size,
                             const volatile int *stop);

#endif
