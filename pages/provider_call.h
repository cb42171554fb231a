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
typedef bool (*AppProviderDraw)(void *user, int page, uint32_t width, uint32_t height,
                                uint8_t *rgba);

typedef struct AppProviderCall AppProviderCall;

/* What a call asks of the host besides the buffer. */
typedef struct AppProviderArgs {
    int page;               /* 1-based, the host's count */
    uint32_t width, height; /* a drawing's */
    int capacity;           /* a list's (text, links): the most items the buffer holds */
    int pages;              /* the book's: a link's target beyond them leads nowhere */
} AppProviderArgs;

/* Makes the host's call on the call's thread: `fn` is the host's function, cast back to its own
 * type here, and `buffer` (`bytes` bytes) the call's own. What it returns is the call's result. It
 * may touch nothing but its arguments and memory of its own: a call left running outlives the
 * book that made it. */
typedef int64_t (*AppProviderRun)(void (*fn)(void), void *user, const AppProviderArgs *args,
                                  void *buffer, size_t bytes);

/* What a list's call (book/provided.h: a page's text, its links) returns besides a count (0 ..
 * capacity): the host said it could not give them; or it gave what is refused, a count outside
 * -1 .. capacity (APP_PROVIDER_JUNK plus that count), an item whose box is not finite. */
#define APP_PROVIDER_CANNOT     ((int64_t)-1)
#define APP_PROVIDER_JUNK       (-((int64_t)1 << 40))
#define APP_PROVIDER_NOT_FINITE (-((int64_t)1 << 50))

/* What app_provider_call did. */
typedef enum AppProviderResult {
    APP_PROVIDER_DRAWN,  /* the host returned (drew the page: `rgba` holds it) */
    APP_PROVIDER_FAILED, /* the host's drawing returned false, or no thread could run the call */
    APP_PROVIDER_LEFT,   /* `*stop` became non-zero, or its time passed, first: left running */
    APP_PROVIDER_STUCK,  /* a call left earlier has not returned: the host was not called */
} AppProviderResult;

/* Calls run(fn, user, args, ...) on a new thread (all signals blocked there) and waits for it,
 * polling `*stop` (NULL: never) a few times a tenth of a second, for `seconds` at most (0 or
 * less: no limit). `buffer` (`bytes`) is copied into the call's own memory and, once it has
 * returned, back: APP_PROVIDER_DRAWN, its result in `*result`. `*left` is the call left behind
 * before (NULL: none), kept or forgotten here: pass the same pointer for every call of one host
 * function, and app_provider_call_forget it at the end. On APP_PROVIDER_STUCK and
 * APP_PROVIDER_LEFT `*stuck_page` is the page of the call left. */
AppProviderResult app_provider_call(AppProviderCall **left, AppProviderRun run, void (*fn)(void),
                                    void *user, const AppProviderArgs *args, void *buffer,
                                    size_t bytes, volatile const int *stop, double seconds,
                                    int64_t *result, int *stuck_page);

/* The host's drawing of page `page` into `rgba` (its starting pixels, which receive the drawing),
 * by app_provider_call: APP_PROVIDER_FAILED where the host returned false. */
AppProviderResult app_provider_call_draw(AppProviderCall **left, AppProviderDraw draw, void *user,
                                         int page, uint32_t width, uint32_t height, uint8_t *rgba,
                                         volatile const int *stop, int *stuck_page);

/* The caller's end: a call left behind frees itself when it returns. */
void app_provider_call_forget(AppProviderCall **left);

#endif
