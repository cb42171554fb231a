/* SPDX-License-Identifier: MIT */
/* A book's text search, counted in the background: a thread of its own reads page after page
 * (through the book source's own search helper, pages/book_source.h's pages_book_source_find),
 * from the page the reader is at onwards and round to it, and keeps each page's matches (a page
 * whose text cannot be read is read once more, its helper started again, before it counts as
 * failed: none found there, `failed_page` said). A new
 * query takes over at once: the thread drops the old one between two pages (one page's text is
 * milliseconds), so no caller ever waits for a count. Every function but create and destroy may
 * be called while the thread counts; none blocks for more than a copy under a lock. */
#ifndef PAGECURL_BOOK_SEARCH_H
#define PAGECURL_BOOK_SEARCH_H

#include "../pages/book_source.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct BookSearch BookSearch;

/* The most rectangles one match keeps (a match across more lines is kept by its first ones). */
#define BOOK_SEARCH_MATCH_RECTS 8

/* A search over `src` (borrowed: destroy the search before closing it); NULL out of memory. Its
 * thread starts at the first query. */
BookSearch *book_search_create(PagesBookSource *src);
/* A test's fault (pagecurl_faults.find_fail), before the first query: the first `pages` page
 * reads fail as unreadable text does (each page read twice before it counts as failed). */
void book_search_fail_first(BookSearch *s, uint32_t pages);
/* The thread stopped (a page being read is abandoned: its helper killed); what it found is kept
 * (a page still being drawn may be marked) until destroy, which stops it too and frees it all. */
void book_search_stop(BookSearch *s);
void book_search_destroy(BookSearch *s);
/* Starts counting `query` (NULL or "": no search) from side `from` on, wrapping; the
 * previous query's matches are dropped. False for a query longer than PAGES_FIND_MAX_QUERY. */
bool book_search_start(BookSearch *s, const char *query, int from);

typedef struct BookSearchProgress {
    uint64_t generation; /* which query (1 the first; 0 none) */
    int pages_read, pages;
    int matches; /* found so far */
    bool done;
    bool failed_page; /* a page whose text could not be read (counted as none) */
} BookSearchProgress;
void book_search_progress(BookSearch *s, BookSearchProgress *out);

typedef struct BookSearchMatch {
    int side;
    int rects;
    PagesFindRect rect[BOOK_SEARCH_MATCH_RECTS];
} BookSearchMatch;
/* Match `k` (counted from 0) of those found so far, in side order (indices settle once done). */
bool book_search_match(BookSearch *s, int k, BookSearchMatch *out);
/* The index of the first match on a side after `side` (`forward`), else the last before it,
 * wrapping round the book; -1 for none, or none known yet: the count has not read a side
 * between (or one before the match, whose number it would change). `side` -1 forward: the
 * first match. */
int book_search_next(BookSearch *s, int side, bool forward);
/* Side `side`'s matches' rectangles (all of them, for a highlight) into `out` (up to `max`): how
 * many. */
int book_search_side_rects(BookSearch *s, int side, PagesFindRect *out, int max);

/* Calls `changed` for each page whose marks changed (matches found on it, or a new query dropped
 * its old ones) since the last call; cheap where none did. */
void book_search_take_changed(BookSearch *s, void (*changed)(void *user, int side), void *user);
/* Side `side`'s matches marked on its pixels as a highlighter would (the page's layer, width x
 * height RGBA8; or a `region` of it, pages_book_source_draw_region's): drawn with the page, they
 * bend with the paper at every zoom. */
void book_search_mark(BookSearch *s, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                      const PageRegion *region);
/* `n` rectangles (fractions of a page's box, y down) of a page lying at `place` on its leaf
 * (pages_book_source_find's) marked on its pixels as above, multiplied by `tint` (sRGB). */
void book_mark_rects(const float place[4], const PagesFindRect *rects, int n, const uint8_t tint[3],
                     uint8_t *rgba, uint32_t width, uint32_t height, const PageRegion *region);

#endif
