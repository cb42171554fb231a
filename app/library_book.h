/* SPDX-License-Identifier: MIT */
/* A libpagecurl book as the program's options ask for it, for both of its modes (window and
 * headless): the description the options make, --page read as the book's label or number, the
 * outputs checked against the book, an error's exit status. */
#ifndef PAGECURL_APP_LIBRARY_BOOK_H
#define PAGECURL_APP_LIBRARY_BOOK_H

#include "options.h"

#include <pagecurl/pagecurl.h>

/* The exit status of a failed call: 2 for bad usage, else 1. */
int app_library_status(const pagecurl_error *err);

/* The tier the options name, as the header's. */
pagecurl_quality app_library_quality(GpuQuality q);

/* The book's description from the options (its page, binding, layout, cover, tier, samples,
 * show-through, grid, reduced motion, leaf read back for --export-obj); the mode adds its own. */
pagecurl_book_desc app_library_book_desc(const AppOptions *o);

/* --page read as the book's label or number (o->page; a number where the book labels its pages
 * otherwise is said). 0, or 2 (said). */
int app_library_find_page(const pagecurl_book *book, AppOptions *o);
/* --find: the book searched for its text (the whole count waited for); o->page set to the first
 * match's page (o->page_text too where --page did not say it). 0, or 1 (said in one line) where
 * the book has no text or no match, or a signal ended the wait. */
int app_library_find_text(pagecurl_book *book, AppOptions *o);
/* --list-links PAGE (a label or a number, as --page): the page's links on stdout, one a line,
 * "x0 y0 x1 y1 page N" or "x0 y0 x1 y1 uri ADDRESS" (the rectangle as fractions of the page's box
 * from its top left corner). 0, 2 for a page the book lacks, 1 where its links cannot be read
 * (each said). */
int app_library_list_links(pagecurl_book *book, const char *page_text);

/* A run's end: the context destroyed (NULL: none), and its exit status `status` unless a signal
 * stopped the run (128 + the signal) or the validation layer reported messages (1), each said. */
/* --text: the page's text printed on stdout. 0; 1 where it has none or cannot be read (one line);
 * 2 for a page the book lacks. */
int app_library_print_text(pagecurl_book *book, const AppOptions *o);
int app_library_finish(pagecurl_context *ctx, int status);

/* The book is never an output (app_output_check_book). 0, or 2 (said). */
int app_library_check_outputs(const pagecurl_book *book, const AppOptions *o);
/* A note on stderr where the book's file was damaged and is read as far as it goes. */
void app_library_note_damage(const pagecurl_book *book);

#endif
