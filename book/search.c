/* SPDX-License-Identifier: MIT */
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct SideMatches {
    int matches; /* -1: not read yet for this query */
    int rects;   /* in `rect` */
    PagesFindRect *rect;
    bool *first;    /* rect i begins a match */
    float place[4]; /* where the page lies on its leaf (fractions): for the highlight */
} SideMatches;

struct BookSearch {
    PagesBookSource *src;
    int pages;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool started, quit;
    /* under `lock`: the query asked for and the pages read for it */
    char query[PAGES_FIND_MAX_QUERY + 1];
    int from;
    uint64_t generation; /* bumped by each start */
    int pages_read, matches;
    bool failed_page;
    SideMatches *sides;
    bool *changed; /* per page: its marks changed since book_search_take_changed */
    bool any_changed;
    uint32_t fail_first; /* a test's: the counting thread's first page reads fail */
};

static void clear_sides(BookSearch *s)
{
    for (int p = 0; p < s->pages; p++) {
        if (s->sides[p].rects > 0 && s->changed)
            s->changed[p] = s->any_changed = true;
        free(s->sides[p].rect);
        free(s->sides[p].first);
        s->sides[p] = (SideMatches){.matches = -1};
    }
}

static void *count(void *user)
{
    BookSearch *s = user;
    PagesFindRect *rects = malloc(PAGES_FIND_MAX_RECTS * sizeof *rects);
    bool *first = malloc(PAGES_FIND_MAX_RECTS * sizeof *first);
    char query[PAGES_FIND_MAX_QUERY + 1];
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->quit && (!s->query[0] || s->pages_read >= s->pages))
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->quit)
            break;
        uint64_t generation = s->generation;
        int side = (s->from + s->pages_read) % s->pages;
        memcpy(query, s->query, sizeof query);
        pthread_mutex_unlock(&s->lock);
        char line[512];
        float place[4] = {0.0f, 0.0f, 1.0f, 1.0f};
        /* a page whose text could not be read is read once more: the search's helper, gone
         * (killed for its time, or crashed on another page), is started again by the read */
        int n = -1;
        for (int attempt = 0; attempt < 2 && n < 0 && rects && first; attempt++) {
            if (attempt) { /* not for a query a newer one took over, nor a search stopped */
                pthread_mutex_lock(&s->lock);
                bool stale = s->generation != generation || s->quit;
                pthread_mutex_unlock(&s->lock);
                if (stale)
                    break;
            }
            if (s->fail_first) { /* a test's failure: only this thread reads it once started */
                s->fail_first--;
                continue;
            }
            n = pages_book_source_find(s->src, side, query, rects, first, PAGES_FIND_MAX_RECTS,
                                       place, line, sizeof line);
        }
        PagesFindRect *keep = n > 0 ? malloc((size_t)n * sizeof *keep) : NULL;
        bool *keep_first = n > 0 ? malloc((size_t)n * sizeof *keep_first) : NULL;
        if (n > 0 && (!keep || !keep_first))
            n = -1;
        int matches = 0;
        for (int i = 0; i < n; i++) {
            keep[i] = rects[i], keep_first[i] = first[i];
            matches += first[i];
        }
        pthread_mutex_lock(&s->lock);
        if (s->generation != generation || s->quit) { /* a newer query took over */
            free(keep);
            free(keep_first);
            pages_book_source_find_resume(s->src);
            continue;
        }
        SideMatches *pm = &s->sides[side];
        pm->matches = matches, pm->rects = n > 0 ? n : 0, pm->rect = keep, pm->first = keep_first;
        memcpy(pm->place, place, sizeof place);
        if (n > 0)
            s->changed[side] = s->any_changed = true;
        s->matches += matches;
        s->failed_page |= n < 0;
        s->pages_read++;
    }
    pthread_mutex_unlock(&s->lock);
    free(rects);
    free(first);
    return NULL;
}

BookSearch *book_search_create(PagesBookSource *src)
{
    BookSearch *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->src = src;
    s->pages = pages_book_source_pages(src);
    s->sides = calloc((size_t)s->pages, sizeof *s->sides);
    s->changed = calloc((size_t)s->pages, sizeof *s->changed);
    if (!s->sides || !s->changed || pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s->sides);
        free(s->changed);
        free(s);
        return NULL;
    }
    pthread_cond_init(&s->wake, NULL);
    clear_sides(s);
    return s;
}

void book_search_stop(BookSearch *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    if (s->started) {
        pages_book_source_find_abort(s->src); /* a page being read is given up, not waited for */
        pthread_join(s->thread, NULL);
        pages_book_source_find_resume(s->src);
        s->started = false;
    }
}

void book_search_destroy(BookSearch *s)
{
    if (!s)
        return;
    book_search_stop(s);
    clear_sides(s);
    free(s->sides);
    free(s->changed);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void book_search_fail_first(BookSearch *s, uint32_t pages)
{
    s->fail_first = pages;
}

bool book_search_start(BookSearch *s, const char *query, int from)
{
    if (query && strlen(query) > PAGES_FIND_MAX_QUERY)
        return false;
    pthread_mutex_lock(&s->lock);
    bool same = query && !strcmp(query, s->query) && s->generation;
    if (!same) {
        snprintf(s->query, sizeof s->query, "%s", query ? query : "");
        s->from = from >= 0 && from < s->pages ? from : 0;
        s->generation++;
        s->pages_read = s->matches = 0;
        s->failed_page = false;
        clear_sides(s);
        if (!s->started && !s->quit && s->query[0] && pages_book_source_has_text(s->src))
            s->started = pthread_create(&s->thread, NULL, count, s) == 0;
        if (!pages_book_source_has_text(s->src))
            s->pages_read = s->pages; /* no text: done at once, with none */
        pthread_cond_signal(&s->wake);
    }
    pthread_mutex_unlock(&s->lock);
    return true;
}

void book_search_progress(BookSearch *s, BookSearchProgress *out)
{
    pthread_mutex_lock(&s->lock);
    *out = (BookSearchProgress){.generation = s->query[0] ? s->generation : 0,
                                .pages_read = s->query[0] ? s->pages_read : 0,
                                .pages = s->pages,
                                .matches = s->matches,
                                .done = !s->query[0] || s->pages_read >= s->pages,
                                .failed_page = s->failed_page};
    pthread_mutex_unlock(&s->lock);
}

/* Match `k` of side `p` (locked). */
static void side_match(const SideMatches *pm, int p, int k, BookSearchMatch *out)
{
    *out = (BookSearchMatch){.side = p};
    int at = -1;
    for (int i = 0; i < pm->rects; i++) {
        at += pm->first[i];
        if (at == k && out->rects < BOOK_SEARCH_MATCH_RECTS)
            out->rect[out->rects++] = pm->rect[i];
        if (at > k)
            break;
    }
}

bool book_search_match(BookSearch *s, int k, BookSearchMatch *out)
{
    bool found = false;
    pthread_mutex_lock(&s->lock);
    for (int p = 0; k >= 0 && p < s->pages && !found; p++) {
        const SideMatches *pm = &s->sides[p];
        if (pm->matches > k)
            side_match(pm, p, k, out), found = true;
        else if (pm->matches > 0)
            k -= pm->matches;
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int book_search_next(BookSearch *s, int side, bool forward)
{
    int found = -1, n = s->pages;
    pthread_mutex_lock(&s->lock);
    /* The count reads from the page shown onwards, round the book: a side not read yet may hold
     * the next match (and a match's number counts those of every side before it), so the next
     * is known only once the sides between and before it are read. Going round with half the
     * book read took the first match found so far, on the spread shown, for the book's first. */
    for (int i = 1; n > 0 && i <= n; i++) {
        int p = ((side + (forward ? i : -i)) % n + n) % n;
        const SideMatches *pm = &s->sides[p];
        if (pm->matches < 0)
            break;
        if (pm->matches == 0)
            continue;
        int k = 0;
        for (int q = 0; q < p && k >= 0; q++)
            k = s->sides[q].matches < 0 ? -1 : k + s->sides[q].matches;
        found = k < 0 ? -1 : forward ? k : k + pm->matches - 1;
        break;
    }
    pthread_mutex_unlock(&s->lock);
    return found;
}

int book_search_side_rects(BookSearch *s, int side, PagesFindRect *out, int max)
{
    int n = 0;
    pthread_mutex_lock(&s->lock);
    if (side >= 0 && side < s->pages)
        for (int i = 0; i < s->sides[side].rects && n < max; i++)
            out[n++] = s->sides[side].rect[i];
    pthread_mutex_unlock(&s->lock);
    return n;
}

void book_mark_rects(const float place[4], const PagesFindRect *rects, int n, const uint8_t tint[3],
                     uint8_t *rgba, uint32_t width, uint32_t height, const PageRegion *region)
{
    /* the layer's size and where the pixels lie in it */
    float lw = region ? region->full_width : (float)width;
    float lh = region ? region->full_height : (float)height;
    float ox = region ? region->x : 0.0f, oy = region ? region->y : 0.0f;
    for (int i = 0; i < n; i++) {
        const PagesFindRect *r = &rects[i];
        /* the glyphs' boxes (a line's height already), a hair wider: not into a neighbour */
        float pad = 0.02f * (r->y1 - r->y0) * place[3] * lh / (place[2] * lw);
        float x0 = (place[0] + place[2] * (r->x0 - pad)) * lw - ox;
        float x1 = (place[0] + place[2] * (r->x1 + pad)) * lw - ox;
        float y0 = (place[1] + place[3] * r->y0) * lh - oy;
        float y1 = (place[1] + place[3] * r->y1) * lh - oy;
        int i0 = x0 < 0.0f ? 0 : x0 > (float)width ? (int)width : (int)x0;
        int i1 = x1 < 0.0f ? 0 : x1 > (float)width ? (int)width : (int)ceilf(x1);
        int j0 = y0 < 0.0f ? 0 : y0 > (float)height ? (int)height : (int)y0;
        int j1 = y1 < 0.0f ? 0 : y1 > (float)height ? (int)height : (int)ceilf(y1);
        for (int j = j0; j < j1; j++)
            for (int k = i0; k < i1; k++) {
                /* multiplied, as a highlighter's ink is: the print stays dark under it */
                uint8_t *p = rgba + ((size_t)j * width + (size_t)k) * 4;
                p[0] = (uint8_t)(p[0] * tint[0] / 255u);
                p[1] = (uint8_t)(p[1] * tint[1] / 255u);
                p[2] = (uint8_t)(p[2] * tint[2] / 255u);
            }
    }
}

void book_search_mark(BookSearch *s, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                      const PageRegion *region)
{
    static const uint8_t yellow[3] = {255, 226, 80};
    pthread_mutex_lock(&s->lock);
    const SideMatches *pm = side >= 0 && side < s->pages ? &s->sides[side] : NULL;
    if (pm)
        book_mark_rects(pm->place, pm->rect, pm->rects, yellow, rgba, width, height, region);
    pthread_mutex_unlock(&s->lock);
}

void book_search_take_changed(BookSearch *s, void (*changed)(void *user, int side), void *user)
{
    pthread_mutex_lock(&s->lock);
    for (int p = 0; s->any_changed && p < s->pages; p++)
        if (s->changed[p]) {
            s->changed[p] = false;
            changed(user, p);
        }
    s->any_changed = false;
    pthread_mutex_unlock(&s->lock);
}
