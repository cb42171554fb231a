/* SPDX-License-Identifier: MIT */
/* A host's page provider's text and links (pagecurl_book_desc.page_text, page_links) taken into
 * the book's own forms (pages/book_source.h's PagesTextChar and PagesLink): the calls
 * pages/provider_call.h makes on a thread of their own. Each gives the host a list of the
 * call's own, checks what comes back (a count outside -1 .. capacity, a box that is not a finite
 * number: the page's list refused; boxes held to the page, corners put in order, code points
 * and addresses made text, a target beyond the book leading nowhere) and writes the book's form
 * into the call's buffer. It touches nothing else: a call left running past its time reads
 * nothing of the book's. */
#ifndef PAGECURL_BOOK_PROVIDED_H
#define PAGECURL_BOOK_PROVIDED_H

#include "../pages/provider_call.h"

#include <stddef.h>
#include <stdint.h>

/* pagecurl_page_text_fn `fn` for page args->page into `buffer` (args->capacity PagesTextChar):
 * their count, or PAGES_PROVIDER_CANNOT, PAGES_PROVIDER_JUNK + the host's count, or
 * PAGES_PROVIDER_NOT_FINITE. A line's end ('\n') given no box ends where the character before it
 * does. */
int64_t book_provided_text(void (*fn)(void), void *user, const PagesProviderArgs *args,
                           void *buffer, size_t bytes);
/* pagecurl_page_links_fn `fn` likewise into args->capacity PagesLink (targets 0-based, -1: none of
 * the args->pages pages). */
int64_t book_provided_links(void (*fn)(void), void *user, const PagesProviderArgs *args,
                            void *buffer, size_t bytes);

#endif
