/* SPDX-License-Identifier: MIT */
/* A host's call (libpagecurl's page provider: a page's drawing, its text, its links) made on a
 * thread of its own, so that a call that never returns can be left to itself: the thread that
 * asked waits for it only while it is not told to stop (a page past its time, a book being
 * destroyed) and, where given one, within its time, then goes on without it. A call left behind
 * writes into a buffer of its own, which it frees when (if ever) it returns; it touches nothing
 * else of the caller's. Until it returns that function of the host's is not called again (one
 * call at a time, as the host was promised): a call asked meanwhile fails at once. */
#ifndef PAGECURL_PAGES_PROVIDER_CALL_H
#define PAGECURL_PAGES_PROVIDER_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The host's drawing: page `page` (1-based, the host's count) into width x height RGBA8. */
typedef bool (*PagesProviderDraw)(void *user, int page, uint32_t width, uint32_t height,
                                  uint8_t *rgba);

typedef struct PagesProviderCall PagesProviderCall;

/* What a call asks of the host besides the buffer. */
typedef struct PagesProviderArgs {
    int page;               /* 1-based, the host's count */
    uint32_t width, height; /* a drawing's */
    int capacity;           /* a list's (text, links): the most items the buffer holds */
    int pages;              /* the book's: a link's target beyond them leads nowhere */
} PagesProviderArgs;

/* Makes the host's call on the call's thread: `fn` is the host's function, cast back to its own
 * type here, and `buffer` (`bytes` bytes) the call's own. What it returns is the call's result. It
 * may touch nothing but its arguments and memory of its own: a call left running outlives the
 * book that made it. */
typedef int64_t (*PagesProviderRun)(void (*fn)(void), void *user, const PagesProviderArgs *args,
                                    void *buffer, size_t bytes);

/* What a list's call (book/provided.h: a page's text, its links) returns besides a count (0 ..
 * capacity): the host said it could not give them; or it gave what is refused, a count outside
 * -1 .. capacity (PAGES_PROVIDER_JUNK plus that count), an item whose box is not finite. */
#define PAGES_PROVIDER_CANNOT     ((int64_t)-1)
#define PAGES_PROVIDER_JUNK       (-((int64_t)1 << 40))
#define PAGES_PROVIDER_NOT_FINITE (-((int64_t)1 << 50))

/* What pages_provider_call did. */
typedef enum PagesProviderResult {
    PAGES_PROVIDER_DRAWN,  /* the host returned (drew the page: `rgba` holds it) */
    PAGES_PROVIDER_FAILED, /* the host's drawing returned false, or no thread could run the call */
    PAGES_PROVIDER_LEFT,   /* `*stop` became non-zero, or its time passed, first: left running */
    PAGES_PROVIDER_STUCK,  /* a call left earlier has not returned: the host was not called */
} PagesProviderResult;

/* Calls run(fn, user, args, ...) on a new thread (all signals blocked there) and waits for it,
 * polling `*stop` (NULL: never) a few times a tenth of a second, for `seconds` at most (0 or
 * less: no limit). `buffer` (`bytes`) is copied into the call's own memory and, once it has
 * returned, back: PAGES_PROVIDER_DRAWN, its result in `*result`. `*left` is the call left behind
 * before (NULL: none), kept or forgotten here: pass the same pointer for every call of one host
 * function, and pages_provider_call_forget it at the end. On PAGES_PROVIDER_STUCK and
 * PAGES_PROVIDER_LEFT `*stuck_page` is the page of the call left. */
PagesProviderResult pages_provider_call(PagesProviderCall **left, PagesProviderRun run,
                                        void (*fn)(void), void *user, const PagesProviderArgs *args,
                                        void *buffer, size_t bytes, volatile const int *stop,
                                        double seconds, int64_t *result, int *stuck_page);

/* The host's drawing of page `page` into `rgba` (its starting pixels, which receive the drawing),
 * by pages_provider_call: PAGES_PROVIDER_FAILED where the host returned false. */
PagesProviderResult pages_provider_call_draw(PagesProviderCall **left, PagesProviderDraw draw,
                                             void *user, int page, uint32_t width, uint32_t height,
                                             uint8_t *rgba, volatile const int *stop,
                                             int *stuck_page);

/* The caller's end: a call left behind frees itself when it returns. */
void pages_provider_call_forget(PagesProviderCall **left);

#endif
