/* SPDX-License-Identifier: MIT */
/* A book's files read and drawn: a folder's images, a PDF, EPUB, FB2, XPS or comic book (CBZ), in
 * the page helper (pagecurl-pages) or a fuzzer, never in the library. Images and PDFs are decoded
 * by MuPDF (its own image loaders and libjpeg-turbo), with its memory bounded; a build without
 * MuPDF reads no PDFs and decodes images with stb_image, screened (8-bit PNG, JPEG, BMP, GIF and
 * binary PGM/PPM only). Every page is decoded from memory, the same code for files and for the
 * fuzzers (pages_decoder_open_memory). Opening checks what can be checked cheaply (every image's
 * header, a PDF's password and real page count, page 1's size) and names the first problem in one
 * line; it reads what the library shows of the book (labels, outline, id, shape). A page that fails
 * when it is drawn says why. Not thread-safe: one thread at a time. */
#ifndef PAGECURL_HELPER_DECODER_H
#define PAGECURL_HELPER_DECODER_H

#include "../pages/book_source.h"
#include "../pages/page_labels.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct PagesDecoder PagesDecoder;

/* The document open as `fd` (taken), what it is told by its content: a PDF, an EPUB or an FB2
 * book (reflowable: laid out to `layout`'s page and type; NULL: the defaults), an XPS document, or
 * a zip of images (a comic book, CBZ: its images read as a folder's are, in natural name order,
 * right to left where its ComicInfo.xml says Manga YesAndRightToLeft). `shown` names it in the
 * open's lines, `name` (its absolute path) in a page's. 0, or the exit status with the one line
 * (1: it cannot be read, or unpacks to too much; 2: too many pages, a zip of no book). */
int pages_decoder_open_pdf(int fd, const char *shown, const char *name,
                           const PagesTextLayout *layout, PagesDecoder **out, char *message,
                           size_t size);
/* The folder open as `dir` (taken), named `shown`, whose pages are the files `names` (`pages` of
 * them, in order) in it: every page's header checked (a sample of a long book's). */
int pages_decoder_open_folder(int dir, const char *shown, char **names, int pages,
                              PagesDecoder **out, char *message, size_t size);
/* The same from bytes in memory (copied): a PDF (`pdf`), or a book of one page, the image they
 * hold. What the fuzzers open: the checks and the drawing are a file's. */
int pages_decoder_open_memory(const uint8_t *bytes, size_t n, bool pdf, PagesDecoder **out,
                              char *message, size_t size);
void pages_decoder_close(PagesDecoder *src);

int pages_decoder_pages(const PagesDecoder *src);
float pages_decoder_aspect(const PagesDecoder *src);
const PageLabels *pages_decoder_labels(const PagesDecoder *src);
int pages_decoder_outline_count(const PagesDecoder *src);
const PagesOutlineEntry *pages_decoder_outline(const PagesDecoder *src, int i);
const char *pages_decoder_id(const PagesDecoder *src);
bool pages_decoder_repaired(const PagesDecoder *src);
bool pages_decoder_right_to_left(const PagesDecoder *src);
/* Whether its pages are its text laid out (an EPUB, an FB2 book), not pages of their own. */
bool pages_decoder_reflowable(const PagesDecoder *src);
/* A reflowable book laid out again to `layout`: its pages, shape, outline and id are the new
 * layout's, and moved[i] is the page (0-based) that now holds the text page pages[i] began with
 * (MuPDF's bookmarks), for `count` pages. 0, or the status with the line (2: a book whose pages
 * are its own). A failure leaves the book unusable: the caller closes it. */
int pages_decoder_relayout(PagesDecoder *src, const PagesTextLayout *layout, const int *pages,
                           int *moved, int count, char *message, size_t size);

/* Where page `page` (0-based) of a reflowable book begins in its text, whatever the layout:
 * place[0] its chapter, place[1] the page's index in it, place[2] the characters of the chapter
 * before it (the place relayout keeps). 0, or the status with the line (2: a book whose pages are
 * its own, a page it lacks). */
int pages_decoder_text_place(PagesDecoder *src, int page, int32_t place[3], char *message,
                             size_t size);
/* The page (0-based) that holds that place as the book is laid out now: where it lies in a
 * chapter no longer there, -1. */
int pages_decoder_text_place_page(PagesDecoder *src, const int32_t place[3]);

/* Page `page` (0-based) drawn into `rgba` (width x height RGBA8, sRGB, top row first, on paper):
 * as pages_book_source_draw draws it. False with "FILE: reason" in message. */
bool pages_decoder_draw(PagesDecoder *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                        char *message, size_t size);
/* The share of its layer's width and height that the last page pages_decoder_draw drew covers (its
 * print fitted, centred: 1 x 1 for a page of the leaf's shape, or one that could not be drawn):
 * what the library frames when it shows that page alone at its own shape (DRAWN). */
void pages_decoder_drawn_print(const PagesDecoder *src, float print[2]);
/* A region of it, as pages_book_source_draw_region draws it. */
bool pages_decoder_draw_region(PagesDecoder *src, int page, const PageRegion *region, uint8_t *rgba,
                               char *message, size_t size);

/* The matches of `query` (UTF-8, case-insensitive; a word hyphen-broken across a line end is
 * found whole) in page `page`'s text (MuPDF's structured text): up to `max` rectangles into
 * `rects`, `first[i]` true where rectangle i begins a match (a match broken across lines has
 * one a line). The rectangles' count, or -1 with the reason in message. A book of images has
 * no text: 0. `place` (left, top, width, height): where the page lies on its leaf, as fractions of
 * the leaf, as pages_decoder_draw fits it. */
int pages_decoder_find(PagesDecoder *src, int page, const char *query, PagesFindRect *rects,
                       bool *first, int max, float place[4], char *message, size_t size);

/* Page `page`'s links (MuPDF's, of its annotations): up to `max` into `links`, each rectangle as
 * fractions of the page's own box, an internal link's target resolved to a page (-1 where it
 * leads nowhere in the book), an external one's address kept (a link to an address longer than
 * PAGES_LINK_URI_MAX left out). Their count, or -1 with the reason in message; a book of images
 * has none. `place` as pages_decoder_find's. */
int pages_decoder_links(PagesDecoder *src, int page, PagesLink *links, int max, float place[4],
                        char *message, size_t size);

/* Page `page`'s text (MuPDF's structured text), as pages_book_source_text gives it: up to `max`
 * characters in reading order into `out`, '\n' after each line but the last. Its count, or -1
 * with the reason in message; a book of images: 0. `place` as pages_decoder_find's. */
int pages_decoder_text(PagesDecoder *src, int page, PagesTextChar *out, int max, float place[4],
                       char *message, size_t size);

#endif
