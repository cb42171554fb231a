/* SPDX-License-Identifier: MIT */
/* The public header's errors (pagecurl_error) as libpagecurl's functions set them: a line with a
 * status, the inside's GpuError told by its cause, a description's .size checked. For the facade
 * (book/pagecurl.c, pagecurl_text.c, context.c) alone: the book and what it stands on report
 * GpuError. */
#ifndef PAGECURL_BOOK_API_ERROR_H
#define PAGECURL_BOOK_API_ERROR_H

#include "../gpu/error.h"
#include "../include/pagecurl/pagecurl.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* err's status and its line, printf style (NULL err: nothing). */
void api_error_set(pagecurl_error *err, pagecurl_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The inside's error `g` as the host reads it: usage, out of memory, a lost device, or runtime. */
void api_error_from_gpu(pagecurl_error *err, const GpuError *g);
/* Whether a description's `size` covers the fields this version reads up to `need`; false with
 * err (USAGE) naming `what`. */
bool api_error_sized(uint32_t size, size_t need, const char *what, pagecurl_error *err);

#endif
