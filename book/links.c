/* SPDX-License-Identifier: MIT */
#include "links.h"

#include <stdlib.h>
#include <string.h>

void book_links_init(BookLinks *l)
{
    *l = (BookLinks){0};
    for (int i = 0; i < BOOK_LINKS_KEPT; i++)
        l->kept[i].side = -1;
}

void book_links_free(BookLinks *l)
{
    for (int i = 0; i < BOOK_LINKS_KEPT; i++)
        free(l->kept[i].links);
    book_links_init(l);
}

const BookLinksSide *book_links_side(BookLinks *l, PagesBookSource *src, int side, bool *failed,
                                     char *message, size_t size)
{
    *failed = false;
    for (int i = 0; i < BOOK_LINKS_KEPT; i++)
        if (l->kept[i].side == side)
            return &l->kept[i];
    /* a page's whole answer is large (its most links' addresses): read into it, kept as long as
     * the page's links */
    PagesLinked *read = malloc(sizeof *read);
    if (!read)
        return NULL;
    int n = pages_book_source_links(src, side, read, message, size);
    *failed = n < 0;
    PagesLink *links = n > 0 ? malloc((size_t)n * sizeof *links) : NULL;
    if (n > 0 && !links) {
        free(read);
        return NULL;
    }
    BookLinksSide *p = &l->kept[l->next];
    l->next = (l->next + 1) % BOOK_LINKS_KEPT;
    free(p->links);
    *p = (BookLinksSide){.side = side, .count = n > 0 ? n : 0, .links = links};
    memcpy(p->place, read->place, sizeof p->place);
    if (n > 0)
        memcpy(links, read->links, (size_t)n * sizeof *links);
    free(read);
    return p;
}

int book_links_at(const BookLinksSide *p, float x, float y)
{
    /* the point on the page's own box: the page lies within its leaf where its shape differs */
    float px = (x - p->place[0]) / p->place[2], py = (y - p->place[1]) / p->place[3];
    for (int k = p->count - 1; k >= 0; k--) {
        const PagesLink *link = &p->links[k];
        if (px >= link->x0 && px <= link->x1 && py >= link->y0 && py <= link->y1)
            return k;
    }
    return -1;
}

static void push(int *stack, int *count, int side)
{
    if (*count == BOOK_HISTORY_MOST) { /* the oldest goes */
        memmove(stack, stack + 1, (BOOK_HISTORY_MOST - 1) * sizeof *stack);
        (*count)--;
    }
    stack[(*count)++] = side;
}

void book_links_went(BookLinks *l, int from)
{
    push(l->back, &l->back_count, from);
    l->ahead_count = 0;
}

int book_links_step(BookLinks *l, int at, bool forward, bool commit)
{
    int *from = forward ? l->ahead : l->back, *to = forward ? l->back : l->ahead;
    int *from_count = forward ? &l->ahead_count : &l->back_count;
    int *to_count = forward ? &l->back_count : &l->ahead_count;
    if (!*from_count)
        return 0;
    int side = from[*from_count - 1];
    if (commit) {
        (*from_count)--;
        push(to, to_count, at);
    }
    return side;
}
