/* SPDX-License-Identifier: MIT */
/* The page the reader is on, which the one-page layout shows at rest (book/layout.h's
 * left_page), and the slide of the view between the two sides of a spread. The flip state turns
 * leaves and knows spreads; the reader knows pages: in the one-page layout a key steps one page,
 * to the other side of the spread by a slide of the view (no leaf moves), to the next spread by
 * a turn, with which the view slides to the page the leaf lands on (a forward turn's left-hand
 * page, the leaf's back). Pure C on the flip's views: no Vulkan, no clock reads (every call
 * takes the time in seconds). */
#ifndef PAGECURL_BOOK_READER_H
#define PAGECURL_BOOK_READER_H

#include "../mesh/flip.h"

#include <stdbool.h>

/* A slide from one side of the spread to the other (a key's step to the spread's other page)
 * takes this long, eased in and out: a glance across the spine. A slide that goes with a leaf
 * to the page it lands on follows the leaf's progress instead, and arrives as it lies down;
 * where the leaf is let go with less than half its way to go, the slide takes the longer time,
 * which moves no page corner more than 4 % of a portrait window a frame as the view eases back
 * from a drag (test_camera's bound for a view that moves on its own). */
#define BOOK_READER_SLIDE_TIME   0.45
#define BOOK_READER_LANDING_TIME 1.2

typedef struct BookReader {
    /* 1-based; the book's length + 1 where a book of an odd length lies closed on its last
     * leaf's blank back (no page is printed there) */
    int page;
    int pages;
    int spread; /* the flip's, as last followed */
    /* The slide from `from` to `to` (0 the right-hand page, 1 the left-hand one, in the book's
     * left-bound frame): on the clock from `since` over `duration` seconds, or `with_leaf`, as
     * leaf `leaf`'s progress goes from p_from to p_to. */
    float from, to;
    double since, duration;
    bool with_leaf;
    int leaf;
    float p_from, p_to;
    double seen; /* the latest moment followed: an earlier one is read, not followed */
} BookReader;

/* A book of `pages` pages open at spread `spread` (mesh/flip.h), the reader on `page` (1-based;
 * 0: the spread's first page), the view at rest there. */
void book_reader_init(BookReader *r, int pages, int page, int spread);

/* The page the reader is on while the flip shows `view`: the reader's own where it lies on the
 * spread the book heads for; else (a turn by hand, a spread's turn, neither of which chose a
 * page) the first page that turn uncovers: a forward turn's left-hand page (the back of the leaf
 * turned), a backward turn's right-hand one. */
int book_reader_page(const BookReader *r, const MeshFlipView *view);

/* The reader follows the flip's `view` at `time`: the page is book_reader_page's, and the view
 * slides (at once with reduced motion) to its side where it lies on the spread shown or on the
 * one the leaf in flight lands on, going with the leaf's progress to the page it lands on (a
 * leaf held by the hand moves no view: it goes once let go); with more leaves to turn after
 * that one (thumbing through), to the side they lift from. A time before the latest one
 * followed (input on the clock behind frames shown ahead of it) changes nothing. */
void book_reader_follow(BookReader *r, const MeshFlipView *view, double time);

/* Where the one-page view rests across the spread at `time` while the flip shows `view`
 * (book/layout.h's left_page). */
float book_reader_left_page(const BookReader *r, const MeshFlipView *view, double time);
/* Whether the view still slides then. */
bool book_reader_sliding(const BookReader *r, const MeshFlipView *view, double time);

/* The reader moves to `page`, on the spread the book heads for in `view` (a key's step that
 * slides, or one whose turn the flip has taken): the view slides as book_reader_follow says, at
 * once where `cut` (reduced motion). */
void book_reader_step(BookReader *r, int page, const MeshFlipView *view, double time, bool cut);

/* The reader opens the book at `page` on spread `spread` (go to page, Home, End): the view there
 * at once. */
void book_reader_jump(BookReader *r, int page, int spread, double time);

#endif
