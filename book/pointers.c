/* SPDX-License-Identifier: MIT */
#include "pointers.h"

#include <stddef.h>

BookPointer *book_pointers_press(BookPointers *p, bool ink, uint64_t id, double x, double y)
{
    BookPointer *at = ink ? &p->inking : &p->turning;
    if (at->down)
        return NULL; /* another pointer acts */
    *at = (BookPointer){.down = true, .id = id, .x0 = x, .y0 = y};
    return at;
}

BookPointer *book_pointers_find(BookPointers *p, uint64_t id)
{
    return p->inking.down && id == p->inking.id     ? &p->inking
           : p->turning.down && id == p->turning.id ? &p->turning
                                                    : NULL;
}
