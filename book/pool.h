/* SPDX-License-Identifier: MIT */
/* Which leaves of a long book have texture layers: a fixed pool of slots (each a leaf's front and
 * back layers), given to the leaves around the open spread and those a turn reaches next, the
 * least recently used slot reused first. Pure bookkeeping: no GPU, no threads (tests/test_pool.c).
 * Owns its two arrays. */
#ifndef PAGECURL_BOOK_POOL_H
#define PAGECURL_BOOK_POOL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct BookPool {
    uint32_t slots;
    int *leaf;      /* per slot: the leaf it holds, -1 none */
    uint64_t *used; /* per slot: the tick it was last wanted */
    uint64_t tick;
} BookPool;

/* False when out of memory (slots >= 1). */
bool book_pool_init(BookPool *pool, uint32_t slots);
void book_pool_free(BookPool *pool);
/* Forgets every leaf (a new texture). */
void book_pool_clear(BookPool *pool);

/* The slot holding `leaf`, or -1. */
int book_pool_slot(const BookPool *pool, int leaf);

/* Starts a new round of book_pool_take: what it takes now is "recently used". */
void book_pool_tick(BookPool *pool);
/* A slot for `leaf`: its own, else an empty one, else the least recently used one not taken this
 * round. *fresh says it was (re)assigned and holds nothing of the leaf yet. -1 when every slot was
 * taken this round. */
int book_pool_take(BookPool *pool, int leaf, bool *fresh);

/* The leaves a spread wants, most wanted first, into out[0 .. max-1]; returns how many: those
 * shown (`shown`, -1 entries skipped), then `ahead` leaves past them in the direction of turning
 * (+1 forward, -1 back), then as many behind, all within 0 .. leaves-1 and each once. */
uint32_t book_pool_wanted(const int shown[3], int direction, int ahead, int leaves, int *out,
                          uint32_t max);
/* The same for a spread at rest showing leaves left | right (-1: none): it also holds the leaf
 * that a turn in `direction` uncovers next, so that the rest's leaves include all that turn wants
 * and its first frames have nothing to draw or upload. */
uint32_t book_pool_wanted_at_rest(int left, int right, int direction, int ahead, int leaves,
                                  int *out, uint32_t max);

#endif
