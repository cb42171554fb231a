/* SPDX-License-Identifier: MIT */
#include "pool.h"

#include <stdlib.h>

bool book_pool_init(BookPool *pool, uint32_t slots)
{
    *pool = (BookPool){.slots = slots};
    pool->leaf = malloc(slots * sizeof *pool->leaf);
    pool->used = calloc(slots, sizeof *pool->used);
    if (!slots || !pool->leaf || !pool->used) {
        book_pool_free(pool);
        return false;
    }
    book_pool_clear(pool);
    return true;
}

void book_pool_free(BookPool *pool)
{
    free(pool->leaf);
    free(pool->used);
    *pool = (BookPool){0};
}

void book_pool_clear(BookPool *pool)
{
    for (uint32_t s = 0; s < pool->slots; s++) {
        pool->leaf[s] = -1;
        pool->used[s] = 0;
    }
    pool->tick = 1;
}

int book_pool_slot(const BookPool *pool, int leaf)
{
    for (uint32_t s = 0; s < pool->slots; s++)
        if (pool->leaf[s] == leaf)
            return (int)s;
    return -1;
}

void book_pool_tick(BookPool *pool)
{
    pool->tick++;
}

int book_pool_take(BookPool *pool, int leaf, bool *fresh)
{
    *fresh = false;
    int s = book_pool_slot(pool, leaf);
    if (s < 0) {
        /* empty slots have used == 0: they go before any that held a leaf */
        for (uint32_t k = 0; k < pool->slots; k++)
            if (pool->used[k] < pool->tick && (s < 0 || pool->used[k] < pool->used[s]))
                s = (int)k;
        if (s < 0)
            return -1;
        pool->leaf[s] = leaf;
        *fresh = true;
    }
    pool->used[s] = pool->tick;
    return s;
}

static uint32_t add(int leaf, int leaves, int *out, uint32_t n, uint32_t max)
{
    if (n >= max || leaf < 0 || leaf >= leaves)
        return n;
    for (uint32_t k = 0; k < n; k++)
        if (out[k] == leaf)
            return n;
    out[n] = leaf;
    return n + 1;
}

uint32_t book_pool_wanted(const int shown[3], int direction, int ahead, int leaves, int *out,
                          uint32_t max)
{
    uint32_t n = 0;
    int lo = leaves, hi = -1;
    for (int k = 0; k < 3; k++) {
        if (shown[k] < 0)
            continue;
        n = add(shown[k], leaves, out, n, max);
        lo = shown[k] < lo ? shown[k] : lo;
        hi = shown[k] > hi ? shown[k] : hi;
    }
    if (hi < 0)
        return n;
    int step = direction < 0 ? -1 : 1;
    int front = step > 0 ? hi : lo, back = step > 0 ? lo : hi;
    for (int k = 1; k <= ahead; k++)
        n = add(front + step * k, leaves, out, n, max);
    for (int k = 1; k <= ahead; k++)
        n = add(back - step * k, leaves, out, n, max);
    return n;
}

uint32_t book_pool_wanted_at_rest(int left, int right, int direction, int ahead, int leaves,
                                  int *out, uint32_t max)
{
    int next = direction < 0 ? (left >= 0 ? left - 1 : -1) : (right >= 0 ? right + 1 : -1);
    const int shown[3] = {left, right, next < leaves ? next : -1};
    return book_pool_wanted(shown, direction, ahead, leaves, out, max);
}
