/* SPDX-License-Identifier: MIT */
/* A page's text as characters with their boxes (the library's form of MuPDF's structured text,
 * and of a host's page provider's text, book/provided.h), and a search in it as the page helper
 * searches MuPDF's (helper/decoder.c's FIND), so that a host's pages are found alike: case
 * folded, a run of white space (a line's end too) one space, a hyphen that ends a line before
 * another dropped so that the word it breaks reads whole, matches not overlapping. Letters are
 * folded as MuPDF folds them in the Latin, Greek and Cyrillic scripts. */
#ifndef PAGECURL_PAGES_TEXT_FIND_H
#define PAGECURL_PAGES_TEXT_FIND_H

#include <stdbool.h>
#include <stdint.h>

/* The longest query (bytes). */
#define PAGES_FIND_MAX_QUERY 256
/* A rectangle on a page (a match's, a character's), as fractions of its page's own box (0..1,
 * y down). */
typedef struct PagesFindRect {
    float x0, y0, x1, y1;
} PagesFindRect;
/* A character of a page's text, in reading order, with its box; '\n' ends a line (its box the
 * line's last character's right edge). */
typedef struct PagesTextChar {
    uint32_t c; /* a Unicode code point: a control character or a surrogate reads as a space */
    PagesFindRect box;
} PagesTextChar;

/* The matches of `query` (UTF-8) in `n` characters of `chars` (reading order, '\n' ending a line,
 * boxes as fractions of the page's box): up to `max` rectangles, one a line a match crosses,
 * first[i] true where rectangle i begins a match. Their count; 0 for an empty query. */
int pages_text_find(const PagesTextChar *chars, int n, const char *query, PagesFindRect *rects,
                    bool *first, int max);

#endif
