/* SPDX-License-Identifier: MIT */
/* How a book lies open, as plain data (no Vulkan): the command line and the library's description
 * pick it, the book frames its pages by it. */
#ifndef PAGECURL_BOOK_LAYOUT_H
#define PAGECURL_BOOK_LAYOUT_H

#include <stdbool.h>

typedef enum BookLayoutKind {
    BOOK_LAYOUT_AUTO = 0, /* the spread, or one page where the view is taller than wide */
    BOOK_LAYOUT_SPREAD,
    BOOK_LAYOUT_SINGLE, /* one page: the spread's side the reader is on (BookLayout.left_page) */
} BookLayoutKind;

typedef enum BookBinding {
    BOOK_BINDING_BOOK = 0, /* the book's own: right for a PDF that reads right to left, else left */
    BOOK_BINDING_LEFT,
    BOOK_BINDING_RIGHT,
} BookBinding;

/* How the book lies open: whoever owns the book and its spread (book/open_book.c's book, a test's)
 * keeps one and hands it to book/book.c's drawing, picking, camera and input. Zero: bound on the
 * left, paper covers, BOOK_LAYOUT_AUTO. */
typedef struct BookLayout {
    /* The book binds on the right (--rtl): book/book.c draws, picks and unprojects the spread
     * mirrored, so the flip state, the pool and the ink keep working in book pages. */
    bool rtl;
    /* --cover hard: the first and last leaves turn as rigid boards of BOOK_BOARD thickness
     * (book/book.c) */
    bool hard_cover;
    BookLayoutKind layout;
    /* Where the one-page layout's view rests across the spread, in the book's left-bound frame
     * (the binding mirrors it as it mirrors the rest): 0 on the right-hand page (the odd page, a
     * leaf's front), 1 on the left-hand one (the even page, the back of the leaf turned before);
     * between, the view slides from one to the other, in flight too. The owner keeps it for the
     * moment it draws or reads input at (book/open_book.c, through book/reader.h: the page the
     * reader is on, and the slide to it, with a settling leaf's progress to the page it lands
     * on). At 0 or 1 only that page is drawn. The spread layout ignores it. */
    float left_page;
    /* Each page's own shape (issue 50): the share of its leaf's width and height that the print
     * of the page lying flat on each side covers ([0] the right-hand page, [1] the left-hand one,
     * in the left-bound frame), centred on the leaf, where a page of another shape than the
     * book's is fitted inside its leaf (pages/book_source.h). The one-page layout frames the
     * print of the page it rests on, not its leaf, so that a landscape page in a portrait book
     * is shown as large as the view allows for it; between the two pages, and as the view lifts
     * for a turning leaf, the framing moves smoothly to the other's print and to the leaf. The
     * owner keeps it from its stream (book/book_stream.h's book_stream_prints). 0 (or 1):
     * the whole leaf. The spread layout ignores it. */
    float print[2][2];
    /* BOOK_LAYOUT_AUTO in a view wider than tall: how far the view has gone from the spread (0) to
     * the one-page view (1) of the page left_page rests on, for a spread that shows a page alone
     * (book/book.h's book_alone: one that would be small beside its neighbour). The owner
     * eases it from one to the other at rest, so that the view never jumps; at 1 the book is in
     * the one-page layout (book_one_page). Other layouts ignore it. */
    float alone;
} BookLayout;

/* Whether a book that says it reads right to left (`book_rtl`) or not binds on the right. */
static inline bool book_binds_right(BookBinding binding, bool book_rtl)
{
    return binding == BOOK_BINDING_RIGHT || (binding == BOOK_BINDING_BOOK && book_rtl);
}

#endif
