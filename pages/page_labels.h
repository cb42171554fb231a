/* SPDX-License-Identifier: MIT */
/* A book's page labels, as a PDF's /PageLabels number tree gives them: ranges of pages, each
 * numbered in a style (decimal, roman, letters) from a start and after a prefix ("i", "ii", ...,
 * then "1", "2", ..., then "A-1"). The table is filled once, where the document is read, and
 * labels are made from it alone: on any thread, without the document. */
#ifndef PAGECURL_PAGES_PAGE_LABELS_H
#define PAGECURL_PAGES_PAGE_LABELS_H

#include <stdbool.h>
#include <stddef.h>

/* The most ranges a table holds (a hostile tree's entries past it are dropped), and the most bytes
 * of a range's prefix kept. */
#define PAGE_LABELS_MAX_RANGES 4096
#define PAGE_LABELS_MAX_PREFIX 48
/* Room for any label the table makes, its terminating zero included: a longer one is cut at a
 * character's boundary. */
#define PAGE_LABEL_MAX 64

typedef enum PagesLabelStyle {
    PAGES_LABEL_NONE = 0,      /* the prefix alone */
    PAGES_LABEL_DECIMAL,       /* /S /D: 1, 2, 3 */
    PAGES_LABEL_ROMAN_UPPER,   /* /S /R: I, II, III */
    PAGES_LABEL_ROMAN_LOWER,   /* /S /r: i, ii, iii */
    PAGES_LABEL_LETTERS_UPPER, /* /S /A: A .. Z, AA .. ZZ, AAA .. */
    PAGES_LABEL_LETTERS_LOWER, /* /S /a */
} PagesLabelStyle;

typedef struct PagesLabelRange {
    int start;             /* its first side */
    PagesLabelStyle style; /* how its pages are numbered */
    int first;             /* the number of its first page (/St), >= 1 */
    char *prefix;          /* UTF-8 (control characters made spaces), or NULL */
} PagesLabelRange;

typedef struct PageLabels {
    PagesLabelRange *ranges;
    int count, capacity;
} PageLabels;

/* The style a /S name stands for; PAGES_LABEL_NONE for none or another. */
PagesLabelStyle page_label_style(const char *name);
/* One more range, in any order (page_labels_finish sorts them). False, the table unchanged,
 * out of memory or past PAGE_LABELS_MAX_RANGES. A first number below 1 counts as 1. */
bool page_labels_add(PageLabels *labels, int start, PagesLabelStyle style, int first,
                     const char *prefix);
/* Sorted by start, one range a start (the first added), none starting outside 0 .. pages - 1. */
void page_labels_finish(PageLabels *labels, int pages);
/* Side `side`'s label into out (PAGE_LABEL_MAX bytes are always enough); "" where
 * no range covers it or its range makes an empty label. */
void page_labels_text(const PageLabels *labels, int side, char *out, size_t size);
void page_labels_free(PageLabels *labels);

#endif
