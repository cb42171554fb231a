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
 * heavy page would (taken by the books opened from then on). */
typedef struct pagecurl_faults {
    uint32_t submit_after, allocate_after, draw_ms;
} pagecurl_faults;

/* The faults `faults` asks for on `ctx` from now on, its calls counted from here (NULL: none). */
PAGECURL_API void pagecurl_context_faults(pagecurl_context *ctx, const pagecurl_faults *faults);

#ifdef __cplusplus
}
#endif

#endif
