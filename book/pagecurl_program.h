/* SPDX-License-Identifier: MIT */
/* libpagecurl's entry points for the pagecurl program and the project's tests, not for a host:
 * exported from libpagecurl.so (PAGECURL_API) but declared only here, a header that is not
 * installed. A file of the program that is a client of the public header may include this one and
 * no other of the library's (tests/public_client.sh). */
#ifndef PAGECURL_BOOK_PAGECURL_PROGRAM_H
#define PAGECURL_BOOK_PAGECURL_PROGRAM_H

#include "../include/pagecurl/pagecurl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Faults injected for tests, to prove the error paths; all zero in normal use. The library reads
 * no environment: the program reads PAGECURL_FAULT (app/fault.h) and hands it over here.
 * submit_after N: the frame submissions after the first N fail with VK_ERROR_DEVICE_LOST;
 * allocate_after N: the device memory allocations after the first N fail as out of memory;
 * draw_ms N: a book file's or a folder's page drawn takes N ms longer for each million texels, as a
 * heavy page would (taken by the books opened from then on);
 * first_wait_ms N: a book's first frame waits N ms at most for its pages drawn sharp (the books
 * opened from then on; 0: the library's own limit), so that a test of it hangs on no clock;
 * find_fail N: the first N pages a book's search reads fail, as a page whose text cannot be read
 * (its search helper gone) does (the books opened from then on). */
typedef struct pagecurl_faults {
    uint32_t submit_after, allocate_after, draw_ms, first_wait_ms, find_fail;
} pagecurl_faults;

/* The faults `faults` asks for on `ctx` from now on, its calls counted from here (NULL: none). */
PAGECURL_API void pagecurl_context_faults(pagecurl_context *ctx, const pagecurl_faults *faults);

/* What the program's window asks of a book it records into its frames, which a host of the
 * public header has no need of: */

/* The first row of the viewport (in its pixels, from its top) below the book's head, its far
 * edge, halfway across what the last update framed: a host that draws over the picture (a HUD
 * panel) keeps above it to stay clear of the pages. 0 before the first update or where the head
 * lies above the viewport. */
PAGECURL_API uint32_t pagecurl_book_head_row(const pagecurl_book *book);

/* Frames show the book as it will be `seconds` (0 .. 0.1) after the time pagecurl_book_update is
 * given, while input and events stay on that clock: a host whose frames reach the screen that
 * long after it records them (its present's latency) shows a moving leaf where it is then. 0 (the
 * default): as at that time. False for a value out of range. */
PAGECURL_API bool pagecurl_book_set_lead(pagecurl_book *book, double seconds);

/* The next update waits up to `seconds` (at most 1) for the pages it shows to be drawn at the
 * density they are shown at (after a step of the zoom: a key, a double click), so that its frame
 * is sharp where the drawing is quick; a page slower than that shows magnified until it is drawn
 * (PAGECURL_EVENT_PAGE_READY). False for a value out of range. */
PAGECURL_API bool pagecurl_book_hold_detail(pagecurl_book *book, double seconds);

/* The next frame recorded (pagecurl_book_record) also copies the turning leaf's mesh out, for
 * pagecurl_book_leaf once the host has waited for that frame (its fence); the book needs
 * leaf_readback. False without it. */
PAGECURL_API bool pagecurl_book_read_leaf(pagecurl_book *book);

#ifdef __cplusplus
}
#endif

#endif
