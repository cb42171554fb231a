/* SPDX-License-Identifier: MIT */
/* What libpagecurl's public functions share across their files (book/pagecurl.c, a book's;
 * book/pagecurl_text.c, what its pages say; book/context.c, a context's): the handles a host
 * holds. A context is a GpuContext, its own or adopted from the host's device; a book, a book held
 * open (book/open_book.h). */
#ifndef PAGECURL_BOOK_FACADE_H
#define PAGECURL_BOOK_FACADE_H

#include "../gpu/context.h"
#include "../include/pagecurl/pagecurl.h"
#include "api_error.h"
#include "open_book.h"
#include "open_frame.h"

/* No state of the process's: a context owns its Vulkan functions (gpu/vk.h), its device's objects
 * and its books' threads and page helpers, so any number live at once, each on its own thread:
 * on one device, on several, on other drivers or under other layers. */
struct pagecurl_context {
    GpuContext gpu;
    GpuMessages messages;
};

struct pagecurl_book {
    BookOpen *open;
};

/* The book's pages (book_open_source); NULL for no book. */
static inline PagesBookSource *facade_source(const pagecurl_book *b)
{
    return b ? book_open_source(b->open) : NULL;
}

#endif
