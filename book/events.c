/* SPDX-License-Identifier: MIT */
#include "events.h"

#include <stdio.h>

void book_events_spread_pages(int pages, bool rtl, int s, int *left, int *right)
{
    int l = s >= 1 && 2 * s <= pages ? 2 * s : 0;
    int r = 2 * s + 1 <= pages ? 2 * s + 1 : 0;
    *left = rtl ? r : l;
    *right = rtl ? l : r;
}

void book_events_init(BookEvents *q, int spread, uint64_t ink_revision)
{
    *q = (BookEvents){.told_spread = spread, .ink_seen = ink_revision};
}

BookEvent *book_events_push(BookEvents *q, BookEventType type)
{
    if (q->count == BOOK_EVENTS_KEPT) { /* the oldest goes */
        q->head = (q->head + 1) % BOOK_EVENTS_KEPT;
        q->count--;
    }
    BookEvent *e = &q->ring[(q->head + q->count++) % BOOK_EVENTS_KEPT];
    *e = (BookEvent){.type = type};
    return e;
}

void book_events_error(BookEvents *q, int page, const char *line)
{
    BookEvent *e = book_events_push(q, BOOK_EVENT_ERROR);
    e->page = page;
    snprintf(e->message, sizeof e->message, "%s", line);
}

bool book_events_poll(BookEvents *q, BookEvent *out)
{
    if (!q->count)
        return false;
    *out = q->ring[q->head];
    q->head = (q->head + 1) % BOOK_EVENTS_KEPT;
    q->count--;
    return true;
}

void book_events_ink_touched(BookEvents *q, int side)
{
    if (side < 0)
        return;
    for (int i = 0; i < q->ink_pending; i++)
        if (q->ink_sides[i] == side)
            return;
    if (q->ink_pending < BOOK_EVENTS_INK_SIDES)
        q->ink_sides[q->ink_pending++] = side;
    else
        q->ink_more = true;
}

void book_events_take_turns(BookEvents *q, MeshFlip *flip, int pages, bool rtl)
{
    MeshFlipEvent fe;
    while (mesh_flip_take_event(flip, &fe)) {
        BookEvent *e =
            book_events_push(q, fe.started ? BOOK_EVENT_TURN_STARTED : BOOK_EVENT_TURN_ENDED);
        e->forward = fe.forward; /* the turn's, though it fell back the other way */
        e->completed = !fe.started && fe.completed;
        book_events_spread_pages(pages, rtl, fe.spread, &e->left, &e->right);
        if (!fe.started && fe.spread != q->told_spread) {
            e = book_events_push(q, BOOK_EVENT_SPREAD_CHANGED);
            book_events_spread_pages(pages, rtl, fe.spread, &e->left, &e->right);
            q->told_spread = fe.spread;
        }
    }
}

void book_events_derive(BookEvents *q, MeshFlip *flip, const MeshFlipView *now, const MeshInk *ink,
                        int pages, bool rtl)
{
    book_events_take_turns(q, flip, pages, rtl);
    if (!now->turning && now->spread != q->told_spread) {
        BookEvent *e = book_events_push(q, BOOK_EVENT_SPREAD_CHANGED);
        book_events_spread_pages(pages, rtl, now->spread, &e->left, &e->right);
        q->told_spread = now->spread;
    }
    if (ink->revision != q->ink_seen && ink->drawing < 0) {
        for (int i = 0; i < q->ink_pending; i++)
            book_events_push(q, BOOK_EVENT_INK_CHANGED)->page = q->ink_sides[i] + 1;
        if (q->ink_more)
            book_events_push(q, BOOK_EVENT_INK_CHANGED)->page = 0;
        q->ink_pending = 0, q->ink_more = false;
        q->ink_seen = ink->revision;
    }
}
