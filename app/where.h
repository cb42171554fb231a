/* SPDX-License-Identifier: MIT */
/* The line that says where the reader is in the book: the pages shown and the book's length
 * ("4-5 / 16"; one number for a single page: "1 / 16"), in the PDF's own page labels where they
 * name the pages otherwise ("xii-xiii (14-15 / 397)"). The window's title and its HUD show it.
 * ASCII only, a label's other characters shown as '?': SDL 2 sets a window's title on X11
 * through the process's locale, which is "C" (pagecurl sets none), and there a title beyond
 * ASCII is mangled (WM_NAME) or not set at all (_NET_WM_NAME); the HUD's font has only ASCII. */
#ifndef PAGECURL_APP_WHERE_H
#define PAGECURL_APP_WHERE_H

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

/* Room for any line app_where_line makes, its terminating zero included. */
#define APP_WHERE_MAX 200

/* The line for spread `spread` (pages 2s | 2s + 1) of `book`, or where `page` (1-based) is not
 * 0, for that page alone (the one-page layout's: pagecurl_state.page). The empty back of a last
 * leaf, which no page is printed on, reads "end". */
void app_where_line(const pagecurl_book *book, int spread, int page, char *out, size_t size);

#endif
