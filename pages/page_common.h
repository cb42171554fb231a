/* SPDX-License-Identifier: MIT */
/* What both ends of the page helper share about a book's pages (pages/book_source.h in the
 * library, helper/decoder.h in pagecurl-pages): the order of a folder's names, which names are
 * pages, the shape most pages have, and the paper a page lies on. Plain functions of their
 * arguments: no file is read here. */
#ifndef PAGECURL_PAGES_PAGE_COMMON_H
#define PAGECURL_PAGES_PAGE_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* sRGB bytes of the paper a fitted page lies on, and of a bad page's cross. */
extern const uint8_t PAGES_PAPER[3];
extern const uint8_t PAGES_MARK[3];

/* A page not drawn yet: plain paper; `marked`: a page that could not be read (crossed out). */
void pages_book_placeholder(uint32_t width, uint32_t height, bool marked, uint8_t *rgba);

/* Where a page of shape `aspect` (height / width) lies in a width x height layer: the whole of it
 * where it has the layer's shape (within 1 %), else fitted, centred, inside a margin of 4 % of
 * the width on paper, never stretched (a fold-out in a real book). The box's corner (x, y) and
 * size (w, h), in whole texels. */
void pages_book_fit(float aspect, uint32_t width, uint32_t height, uint32_t *x, uint32_t *y,
                    uint32_t *w, uint32_t *h);

/* Natural order of names: runs of digits compare as numbers (page2 < page10). */
int pages_book_name_compare(const char *a, const char *b);

/* The shape (height / width) most of `n` (>= 1) pages have: those within 1 % of one another
 * count as one. Sorts `aspects`. */
float pages_book_common_aspect(float *aspects, int n);

/* Whether `name` ends in `suffix`, ASCII letters in either case. */
bool pages_book_has_suffix(const char *name, const char *suffix);
/* Whether a folder's entry `name` is a page by its name (.png, .jpg, ... ; no hidden file). */
bool pages_book_image_name(const char *name);

#endif
