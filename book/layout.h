/* SPDX-License-Identifier: MIT */
/* How a book lies open, as plain data (no Vulkan): the command line and the library's description
 * pick it, the book frames its pages by it. */
#ifndef PAGECURL_BOOK_LAYOUT_H
#define PAGECURL_BOOK_LAYOUT_H

#include <stdbool.h>

typedef enum AppLayout {
    APP_LAYOUT_AUTO = 0, /* the spread, or one page where the view is taller than wide */
    APP_LAYOUT_SPREAD,
    APP_LAYOUT_SINGLE, /* one page: the spread's side the reader is on (AppBookLayout.left_page) */
} AppLayout;

typedef enum AppBinding {
    APP_BINDING_BOOK = 0, /* the book's own: right for a PDF that reads right to left, else left */
    APP_BINDING_LEFT,
    APP_BINDING_RIGHT,
} AppBinding;

/* How the book lies open: whoever owns the book and its spread (book/pagecurl.c's book, a test's)
 * keeps one and hands it to book/book.c's drawing, picking, camera and input. Zero: bound on the
 * left, paper covers, APP_LAYOUT_AUTO. */
typedef struct AppBookLayout {
    /* The book binds on the right (--rtl): book/book.c draws, picks and unprojects the spread
     * mirrored, so the flip state, the pool and the ink keep working in book pages. */
    bool rtl;
    /* --cover hard: the first and last leaves turn as rigid boards of APP_BOOK_BOARD thickness
     * (book/book.c) */
    bool hard_cover;
    AppLayout layout;
    /* Where the one-page layout's view rests across the spread, in the book's left-bound frame
     * (the binding mirrors it as it mirrors the rest): 0 on the right-hand page (the odd page, a
     * leaf's front), 1 on the left-hand one (the even page, the back of the leaf turned before);
     * between, the view slides from one to the other, in flight too. The owner keeps it for the
     * moment it draws or reads input at (book/pagecurl.c, through book/reader.h: the page the
     * reader is on, and the slide to it, with a settling leaf's progress to the page it lands
     * on). At 0 or 1 only that page is drawn. The spread layout ignores it. */
    float left_page;
} AppBookLayout;

/* Whether a book that says it reads right to left (`book_rtl`) or not binds on the right. */
static inline bool app_binds_right(AppBinding binding, bool book_rtl)
{
    return binding == APP_BINDING_RIGHT || (binding == APP_BINDING_BOOK && book_rtl);
}

#endif
