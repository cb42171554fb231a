/* A page drawn by a decoder in a process of its own: a file's bytes reach MuPDF's PDF
 * interpreter and image readers, which crash on some files (a division trap, a recursion past
 * the stack, a write past a buffer) and on others loop inside one drawing operator where no abort
 * reaches them. The drawing runs in a child forked from the thread that asks for it (the parent's
 * decoder state as it stands, which only that thread uses), its pixels written into memory shared
 * with the parent; a child that dies takes only the page with it, and one that is told to stop is
 * killed. */
#ifndef PAGECURL_PAGES_ISOLATE_H
#define PAGECURL_PAGES_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum AppIsolated {
    APP_ISOLATED_DRAWN,   /* the drawing returned true: `out` holds its pixels */
    APP_ISOLATED_FAILED,  /* it returned false: `message` says why */
    APP_ISOLATED_CRASHED, /* the child died (`message` names the signal) */
    APP_ISOLATED_STOPPED, /* `*stop` became non-zero: the child was killed */
    APP_ISOLATED_NO_CHILD /* no process could be made: nothing ran */
} AppIsolated;

/* The drawing: writes `bytes` of `out` (and a line into `message` where it fails). */
typedef bool (*AppIsolatedDraw)(void *user, uint8_t *out, char *message, size_t size);

/* Runs `draw` in a child and waits for it, checking `*stop` (written by other threads) every
 * few milliseconds. The child draws onto a copy of `out`, which is written back only where it
 * drew. */
AppIsolated app_isolate_draw(AppIsolatedDraw draw, void *user, uint8_t *out, size_t bytes,
                             char *message, size_t size, const volatile int *stop);

#endif
