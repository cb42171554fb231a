/* SPDX-License-Identifier: MIT */
/* A host's page drawing (libpagecurl's page provider) called on a thread of its own, so that a
 * call that never returns can be left to itself: the thread that asked waits for it only while
 * it is not told to stop (a page past its time, a book being destroyed), then goes on without
 * it. A call left behind draws into pixels of its own, which it frees when (if ever) it returns;
 * it touches nothing else of the caller's. Until it returns the provider is not called again
 * (one call at a time, as the host was promised): a page asked meanwhile fails at once. */
#ifndef PAGECURL_PAGES_PROVIDER_CALL_H
#define PAGECURL_PAGES_PROVIDER_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The host's drawing: page `page` (1-based, the host's count) into width x height RGBA8. */
typedef bool (*AppProviderDraw)(void *user, int page, uint32_t width, uint32_t height,
                                uint8_t *rgba);

typedef struct AppProviderCall AppProviderCall;

/* What app_provider_call_draw did. */
typedef enum AppProviderResult {
    APP_PROVIDER_DRAWN,  /* the host drew the page: `rgba` holds it */
    APP_PROVIDER_FAILED, /* the host returned false, or no thread could run the call */
    APP_PROVIDER_LEFT,   /* `*stop` became non-zero first: the call was left running */
    APP_PROVIDER_STUCK,  /* a call left earlier has not returned: the host was not called */
} AppProviderResult;

/* Calls draw(user, page, ...) on a new thread (all signals blocked there) and waits for it,
 * polling `*stop` a few times a tenth of a second; `rgba` holds the page's starting pixels and
 * receives the drawing. `*left` is the call left behind before (NULL: none), kept or forgotten
 * here: pass the same pointer every time, and app_provider_call_forget it at the end. On
 * APP_PROVIDER_STUCK and APP_PROVIDER_LEFT `*stuck_page` is the page of the call left. */
AppProviderResult app_provider_call_draw(AppProviderCall **left, AppProviderDraw draw, void *user,
                                         int page, uint32_t width, uint32_t height, uint8_t *rgba,
                                         volatile const int *stop, int *stuck_page);

/* The caller's end: a call left behind frees itself when it returns. */
void app_provider_call_forget(AppProviderCall **left);

#endif
