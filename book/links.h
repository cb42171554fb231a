/* SPDX-License-Identifier: MIT */
/* A book's links and the way a reader follows them: each page's links as the page helper reads
 * them (pages/book_source.h's pages_book_source_links), asked on the host's thread at the first
 * question about the page and kept for the last few pages asked (a pointer moving over a page
 * asks again and again); and the pages left by following a link, to go back to (and forward
 * again), as a browser keeps them. */
#ifndef PAGECURL_BOOK_LINKS_H
#define PAGECURL_BOOK_LINKS_H

#include "../pages/book_source.h"

#include <stdbool.h>

/* Pages whose links are kept, and the places the way back (and forward) holds. */
#define BOOK_LINKS_KEPT   8
#define BOOK_HISTORY_MOST 64

typedef struct BookLinksSide {
    int side; /* -1: none kept here */
    float place[4];
    int count;
    PagesLink *links;
} BookLinksSide;

typedef struct BookLinks {
    BookLinksSide kept[BOOK_LINKS_KEPT];
    int next; /* the slot the next page read takes */
    /* the way back and the way forward: pages (1-based), the newest last */
    int back[BOOK_HISTORY_MOST], ahead[BOOK_HISTORY_MOST];
    int back_count, ahead_count;
} BookLinks;

void book_links_init(BookLinks *l);
void book_links_free(BookLinks *l);
/* Side `side`'s links, read through `src` where they are not kept (a page whose links
 * cannot be read is kept as one without, the line in `message` this once: `*failed` true). NULL
 * out of memory. */
const BookLinksSide *book_links_side(BookLinks *l, PagesBookSource *src, int side, bool *failed,
                                     char *message, size_t size);
/* The link on the page at (x, y) (fractions of the page's leaf, x right, y down from its top
 * left corner): the last of those that hold the point (the one drawn on top); -1 for none. */
int book_links_at(const BookLinksSide *p, float x, float y);

/* A link followed from page `from`: the way back gets it, the way forward is forgotten (the
 * oldest place dropped past BOOK_HISTORY_MOST). */
void book_links_went(BookLinks *l, int from);
/* Back from page `at`: the page to go to (`at` then on the way forward); 0 where the way back is
 * empty. `forward`: the other way. Taken only where `commit` (a caller that cannot go there asks
 * first). */
int book_links_step(BookLinks *l, int at, bool forward, bool commit);

#endif
