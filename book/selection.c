/* SPDX-License-Identifier: MIT */
#include "selection.h"
#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct BookSelection {
    pthread_mutex_t lock;
    int side; /* whose text is held; -1 none */
    PagesTextChar *chars;
    int count;
    float place[4];
    int first, last; /* the selection: characters first .. last; first -1: none */
    int rects;
    PagesFindRect rect[BOOK_SELECTION_RECTS];
    /* pages whose mark changed since book_selection_take_changed (-1: none): the selection's
     * page before and now */
    int changed[2];
};

BookSelection *book_selection_create(void)
{
    BookSelection *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    s->side = s->first = s->changed[0] = s->changed[1] = -1;
    return s;
}

void book_selection_destroy(BookSelection *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->chars);
    free(s);
}

/* Side `side`'s mark changed (locked). */
static void touched(BookSelection *s, int side)
{
    if (side < 0 || side == s->changed[0] || side == s->changed[1])
        return;
    s->changed[s->changed[0] < 0 ? 0 : 1] = side;
}

/* The selection dropped (locked). */
static void drop(BookSelection *s)
{
    if (s->first >= 0)
        touched(s, s->side);
    s->first = s->last = -1;
    s->rects = 0;
}

bool book_selection_holds(BookSelection *s, int side)
{
    pthread_mutex_lock(&s->lock);
    bool holds = s->side == side && side >= 0;
    pthread_mutex_unlock(&s->lock);
    return holds;
}

void book_selection_hold(BookSelection *s, int side, PagesTextChar *chars, int n,
                         const float place[4])
{
    pthread_mutex_lock(&s->lock);
    drop(s);
    free(s->chars);
    s->side = side, s->chars = chars, s->count = chars ? n : 0;
    memcpy(s->place, place, sizeof s->place);
    pthread_mutex_unlock(&s->lock);
}

/* Code point c as UTF-8 into out (4 bytes): its length. */
static size_t utf8(uint32_t c, char *out)
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xc0 | c >> 6), out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xe0 | c >> 12), out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | c >> 18), out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f)), out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

/* Characters from .. to (locked) as UTF-8 into out, as book_selection_page_text. */
static size_t encode(const BookSelection *s, int from, int to, char *out, size_t size)
{
    size_t need = 0, put = 0;
    for (int i = from; i >= 0 && i <= to && i < s->count; i++) {
        char b[4];
        size_t k = utf8(s->chars[i].c, b);
        if (out && put + k < size) {
            memcpy(out + put, b, k);
            put += k;
        }
        need += k;
    }
    if (out && size)
        out[put] = '\0';
    return need;
}

size_t book_selection_page_text(BookSelection *s, char *out, size_t size)
{
    pthread_mutex_lock(&s->lock);
    size_t n = encode(s, 0, s->count - 1, out, size);
    pthread_mutex_unlock(&s->lock);
    return n;
}

/* The character (not a line's end) nearest page point (x, y) (fractions of its box, y down). */
static int nearest(const BookSelection *s, float x, float y)
{
    int best = -1;
    float best_d = INFINITY;
    for (int i = 0; i < s->count; i++) {
        const PagesFindRect *r = &s->chars[i].box;
        if (s->chars[i].c == '\n')
            continue;
        float dx = fmaxf(fmaxf(r->x0 - x, x - r->x1), 0.0f);
        float dy = fmaxf(fmaxf(r->y0 - y, y - r->y1), 0.0f);
        /* across the line first: a point beside a line takes that line's nearest character */
        float d = dx * dx + 16.0f * dy * dy;
        if (d < best_d)
            best = i, best_d = d;
    }
    return best;
}

/* Whether c is part of a word: a letter, a digit, anything past ASCII but a space. */
static bool word_char(uint32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (c >= 0x80 && c != 0xa0 && !(c >= 0x2000 && c <= 0x200b));
}

bool book_selection_select(BookSelection *s, float u0, float v0, float u1, float v1, bool words)
{
    pthread_mutex_lock(&s->lock);
    const float *p = s->place;
    int a = nearest(s, (u0 - p[0]) / p[2], (1.0f - v0 - p[1]) / p[3]);
    int b = nearest(s, (u1 - p[0]) / p[2], (1.0f - v1 - p[1]) / p[3]);
    bool any = a >= 0 && b >= 0;
    if (any) {
        drop(s);
        if (a > b) {
            int t = a;
            a = b, b = t;
        }
        if (words && word_char(s->chars[a].c))
            while (a > 0 && word_char(s->chars[a - 1].c))
                a--;
        if (words && word_char(s->chars[b].c))
            while (b + 1 < s->count && word_char(s->chars[b + 1].c))
                b++;
        s->first = a, s->last = b;
        /* one rectangle a line: the union of its characters' boxes */
        bool open = false;
        for (int i = a; i <= b; i++) {
            const PagesFindRect *r = &s->chars[i].box;
            if (s->chars[i].c == '\n') {
                open = false;
            } else if (!open) {
                if (s->rects == BOOK_SELECTION_RECTS)
                    break;
                s->rect[s->rects++] = *r;
                open = true;
            } else {
                PagesFindRect *u = &s->rect[s->rects - 1];
                u->x0 = fminf(u->x0, r->x0), u->y0 = fminf(u->y0, r->y0);
                u->x1 = fmaxf(u->x1, r->x1), u->y1 = fmaxf(u->y1, r->y1);
            }
        }
        touched(s, s->side);
    }
    pthread_mutex_unlock(&s->lock);
    return any;
}

void book_selection_clear(BookSelection *s)
{
    pthread_mutex_lock(&s->lock);
    drop(s);
    pthread_mutex_unlock(&s->lock);
}

int book_selection_get(BookSelection *s, int *side, int *chars, PagesFindRect *rects, int max)
{
    pthread_mutex_lock(&s->lock);
    bool any = s->first >= 0;
    *side = any ? s->side : -1;
    *chars = any ? s->last - s->first + 1 : 0;
    int n = 0;
    for (; any && n < s->rects && n < max; n++)
        rects[n] = s->rect[n];
    pthread_mutex_unlock(&s->lock);
    return n;
}

size_t book_selection_text(BookSelection *s, char *out, size_t size)
{
    pthread_mutex_lock(&s->lock);
    size_t n = encode(s, s->first, s->last, out, size);
    pthread_mutex_unlock(&s->lock);
    return n;
}

void book_selection_take_changed(BookSelection *s, void (*changed)(void *user, int side),
                                 void *user)
{
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < 2; i++)
        if (s->changed[i] >= 0)
            changed(user, s->changed[i]);
    s->changed[0] = s->changed[1] = -1;
    pthread_mutex_unlock(&s->lock);
}

void book_selection_mark(BookSelection *s, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                         const PageRegion *region)
{
    /* a selection's blue, multiplied as the search's yellow is */
    static const uint8_t blue[3] = {150, 190, 255};
    pthread_mutex_lock(&s->lock);
    if (side == s->side && s->first >= 0)
        book_mark_rects(s->place, s->rect, s->rects, blue, rgba, width, height, region);
    pthread_mutex_unlock(&s->lock);
}
