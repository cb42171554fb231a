/* SPDX-License-Identifier: MIT */
/* A book's text selection: the text of the page last read (pages/book_source.h's
 * pages_book_source_text, read by the caller), the characters chosen on it between two points, in
 * reading order, their rectangles (one a line) and the string they make. The selection is marked
 * on its page's pixels as a search's matches are (book/search.h), so it bends with the paper.
 * Its calls take a lock: the stream's worker marks pages while the host's thread selects. */
#ifndef PAGECURL_BOOK_SELECTION_H
#define PAGECURL_BOOK_SELECTION_H

#include "../pages/book_source.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct BookSelection BookSelection;

/* The most rectangles (lines) a selection keeps for its mark. */
#define BOOK_SELECTION_RECTS 256

BookSelection *book_selection_create(void);
void book_selection_destroy(BookSelection *s);

/* Whether side `side`'s text is the one held. */
bool book_selection_holds(BookSelection *s, int side);
/* Holds side `side`'s text (`n` characters of `chars`, taken: malloc'd) and its place on its
 * leaf (pages_book_source_text's), dropping the text held before and any selection on it. */
void book_selection_hold(BookSelection *s, int side, PagesTextChar *chars, int n,
                         const float place[4]);
/* The text held, as UTF-8 ('\n' between lines) into `out` (`size` bytes, terminated, cut at a
 * character's boundary): the bytes the whole needs, without the terminator. */
size_t book_selection_page_text(BookSelection *s, char *out, size_t size);

/* Selects, on the page held, the characters from the one nearest leaf point (u0, v0) to the one
 * nearest (u1, v1) (the page's own coordinates, as pagecurl_hit's: v up from its foot), in
 * reading order; with `words`, widened to the words at either end. False (nothing selected)
 * where the page holds no text. */
bool book_selection_select(BookSelection *s, float u0, float v0, float u1, float v1, bool words);
/* Nothing selected (its page drawn again without the mark). */
void book_selection_clear(BookSelection *s);

/* The selection: its side (-1 none), characters, and up to `max` rectangles (fractions
 * of the page's box, y down) into `rects`; their count. */
int book_selection_get(BookSelection *s, int *side, int *chars, PagesFindRect *rects, int max);
/* The selected text, as book_selection_page_text gives the page's. */
size_t book_selection_text(BookSelection *s, char *out, size_t size);

/* As book_search_take_changed and book_search_mark (book/search.h), for the selection's mark. */
void book_selection_take_changed(BookSelection *s, void (*changed)(void *user, int side),
                                 void *user);
void book_selection_mark(BookSelection *s, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                         const PageRegion *region);

#endif
