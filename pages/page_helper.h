/* SPDX-License-Identifier: MIT */
/* The page helper, from the library's side: `pagecurl-pages`, the program that parses a book's
 * files (MuPDF's PDF interpreter and image readers crash on some files and loop inside one
 * drawing operator on others), started with posix_spawn and talked to over a socket pair
 * (pages/page_wire.h; docs/page-helper.md). Found through PAGECURL_PAGES_HELPER where the
 * environment sets it, else beside the library's own file: libexec/pagecurl/ of its prefix
 * (moved prefixes too) or of the build tree. A helper that dies (its socket's end closes at once)
 * takes only the request it was working on with it; one told to stop is killed; the next request
 * starts another. Pixels come back through memory shared with it (a sealed memfd). One thread
 * at a time. */
#ifndef PAGECURL_PAGES_PAGE_HELPER_H
#define PAGECURL_PAGES_PAGE_HELPER_H

#include "page_wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The environment variable that names the helper's path, overriding the search. */
#define PAGES_HELPER_ENV "PAGECURL_PAGES_HELPER"

typedef enum PagesHelperCall {
    PAGES_HELPER_ANSWERED, /* the answer is in *answer */
    PAGES_HELPER_DIED,     /* the helper died or broke the protocol (`why` says which): gone */
    PAGES_HELPER_STOPPED,  /* `*stop` became non-zero: the helper was killed */
    PAGES_HELPER_NONE      /* no helper could be started (`why` says why): nothing ran */
} PagesHelperCall;

typedef struct PageHelper PageHelper;

/* A helper not started yet; NULL out of memory. */
PageHelper *page_helper_create(void);
/* Its process killed, if it has one, and its memory freed. */
void page_helper_destroy(PageHelper *h);
/* Whether a process runs now: false after one died or was stopped (the next call starts one). */
bool page_helper_running(PageHelper *h);
/* Sends `type` with `payload` (and `fd`, -1: none), starting the process first where none runs
 * and `type` is PAGES_WIRE_OPEN (a helper begins with its book; another request finds it dead),
 * and waits for its answer: `*answer` (malloc'd, free it) of *answer_size bytes, its type in
 * *answer_type. */
PagesHelperCall page_helper_call(PageHelper *h, uint32_t type, const PagesWireOut *payload, int fd,
                                 uint32_t *answer_type, uint8_t **answer, size_t *answer_size,
                                 const volatile int *stop, char *why, size_t size);
/* The same, the helper killed (PAGES_HELPER_STOPPED, `why` saying so) where its answer has not
 * come within `ceiling` seconds (0: no ceiling): for a caller that cannot be stopped from
 * another thread. */
PagesHelperCall page_helper_call_within(PageHelper *h, uint32_t type, const PagesWireOut *payload,
                                        int fd, uint32_t *answer_type, uint8_t **answer,
                                        size_t *answer_size, const volatile int *stop,
                                        double ceiling, char *why, size_t size);
/* Shared memory for `bytes` of pixels (grown as needed; NULL: none could be made). *fd is the
 * descriptor to send with the next request where the running helper has not been given it,
 * else -1; it counts as given from then on. */
uint8_t *page_helper_pixels(PageHelper *h, size_t bytes, int *fd);
/* The helper's process killed and reaped, if one runs. */
void page_helper_stop(PageHelper *h);

#endif
