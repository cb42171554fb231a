/* SPDX-License-Identifier: MIT */
/* What the library's own tests read of a context and its books that the public header does not
 * show: the device work counted on the context (gpu/context.h's GpuCounters), so that a test holds
 * a host's steady state to no queue idle, no submission waited for, no device memory allocated and
 * no pipeline made. Not exported from libpagecurl.so (no PAGECURL_API): the tests that read it
 * link the library's code into themselves. */
#ifndef PAGECURL_BOOK_PAGECURL_INTERNAL_H
#define PAGECURL_BOOK_PAGECURL_INTERNAL_H

#include "../gpu/context.h"
#include "../include/pagecurl/pagecurl.h"

/* The counts so far on `ctx`'s device work (all zero for NULL). */
GpuCounters pagecurl_context_counters(const pagecurl_context *ctx);

#endif
