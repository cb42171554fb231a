/* SPDX-License-Identifier: MIT */
/* PDFs the tests write by hand: objects numbered from 1 in the order they are begun (object 1 the
 * catalogue), each at a byte offset the cross-reference table then lists. */
#ifndef PAGECURL_TESTS_PDF_FILE_H
#define PAGECURL_TESTS_PDF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct PdfFile {
    FILE *f; /* what an object holds is written here, between begin and end */
    long *at;
    int objects, most;
    bool failed; /* out of memory for the offsets */
} PdfFile;

/* The file made and its header written; false when it cannot be. */
bool pdf_file_open(PdfFile *pdf, const char *path);
/* The next object begun; its number. */
int pdf_file_begin(PdfFile *pdf);
void pdf_file_end(PdfFile *pdf);
/* A whole object: the formatted text. */
int pdf_file_object(PdfFile *pdf, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* A stream object of `size` bytes with `dictionary`'s entries (besides /Length) in its dictionary.
 */
int pdf_file_stream(PdfFile *pdf, const char *dictionary, const void *bytes, size_t size);
/* The page tree as object 2 (the next object begun, after the catalogue): `pages` kids, the
 * first object `first_kid`, each `step` objects after the one before. */
void pdf_file_page_tree(PdfFile *pdf, int pages, int first_kid, int step);
/* The cross-reference table and trailer written, the file closed; false where any of it failed. */
bool pdf_file_close(PdfFile *pdf);

/* A PDF of one 200 x 280 pt page drawn by `content` (`dictionary`'s entries in its stream's
 * dictionary: "/Filter /FlateDecode " for deflated bytes), whose page tree says it has `count`
 * pages. */
bool pdf_file_one_page(const char *path, int count, const char *dictionary, const void *content,
                       size_t size);

/* A PDF of `pages` 200 x 280 pt pages of text in Helvetica 12 pt: page p (1-based) shows
 * `text[p - 1]` (NULL or "": none), one line for each '\n'-ended line, the first at (20, 250)
 * from the bottom left, 20 pt apart. */
bool pdf_file_text(const char *path, int pages, const char *const *text);
/* The same with link annotations: each on its page (1-based) at its rectangle (x0, y0, x1, y1 in
 * points from the page's bottom left corner), to page `target` (1-based) or, where `uri` is set,
 * to that address. */
typedef struct PdfLink {
    int page;
    float rect[4];
    int target;
    const char *uri;
} PdfLink;
bool pdf_file_text_links(const char *path, int pages, const char *const *text, const PdfLink *links,
                         int count);
/* The tests' book of links (tests/fuzz/pdf/links.pdf is one): six pages of text; on page 1 a link
 * to page 4 at (40, 80)-(160, 200) pt, in the page's box (0.2, 0.2857)-(0.8, 0.7143) from its top
 * left corner, and one to https://example.org/pagecurl at (20, 20)-(100, 50) pt, (0.1, 0.8214)-
 * (0.5, 0.9286); on page 4 a link to page 6 where page 1's to page 4 is. */
bool pdf_file_links_book(const char *path);

#endif
