/* SPDX-License-Identifier: MIT */
/* The pointers that act on a book while they are down: one turns pages, one draws (a pen writes
 * while a finger holds the page). Which of a host's pointers is which, by the id it gives; what a
 * pointer does is the book's (book/open_book.c). */
#ifndef PAGECURL_BOOK_POINTERS_H
#define PAGECURL_BOOK_POINTERS_H

#include "event.h"

#include <stdbool.h>
#include <stdint.h>

/* A pointer's event: device MOUSE, FINGER or INK (a pen), action DOWN, MOVE, UP or CANCEL, at
 * (x, y) in target pixels, pressure 0 .. 1. */
typedef struct BookPointerInput {
    BookInputDevice device;
    BookInputAction action;
    uint64_t id;
    double x, y, time;
    float pressure;
} BookPointerInput;

/* A pointer that acts, while it is down. */
typedef struct BookPointer {
    bool down;
    uint64_t id;
    double x0, y0; /* where it went down, target pixels */
    bool swiped;   /* its swipe stepped the one-page view already */
} BookPointer;

typedef struct BookPointers {
    BookPointer turning, inking;
} BookPointers;

/* Pointer `id` down at (x, y) to draw (`ink`) or to turn: the pointer that acts for it, NULL
 * where another of that kind is down already. */
BookPointer *book_pointers_press(BookPointers *p, bool ink, uint64_t id, double x, double y);
/* The pointer down for `id` (the drawing one first), NULL: none. */
BookPointer *book_pointers_find(BookPointers *p, uint64_t id);

#endif
