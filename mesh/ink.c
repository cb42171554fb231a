/* SPDX-License-Identifier: MIT */
#include "ink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool mesh_ink_init(MeshInk *ink, int page_count)
{
    *ink = (MeshInk){.drawing = -1};
    if (page_count < 1 || page_count > MESH_INK_MAX_PAGES)
        return false;
    ink->pages = calloc((size_t)page_count, sizeof *ink->pages);
    if (!ink->pages)
        return false;
    ink->page_count = page_count;
    return true;
}

bool mesh_ink_grow(MeshInk *ink, int page_count)
{
    if (page_count < 1 || page_count > MESH_INK_MAX_PAGES)
        return false;
    if (page_count <= ink->page_count)
        return true;
    MeshInkPage *pages = realloc(ink->pages, (size_t)page_count * sizeof *pages);
    if (!pages)
        return false;
    memset(pages + ink->page_count, 0, (size_t)(page_count - ink->page_count) * sizeof *pages);
    ink->pages = pages;
    ink->page_count = page_count;
    return true;
}

static void stroke_free(MeshInkStroke *stroke)
{
    free(stroke->points);
    *stroke = (MeshInkStroke){0};
}

/* The points of `n` strokes. */
static size_t points_of(const MeshInkStroke *strokes, size_t n)
{
    size_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += strokes[i].count;
    return sum;
}

static void action_free(MeshInkAction *a)
{
    for (size_t i = 0; i < a->count; i++)
        stroke_free(&a->cleared[i]);
    free(a->cleared);
    *a = (MeshInkAction){0};
}

void mesh_ink_reset(MeshInk *ink)
{
    for (int p = 0; p < ink->page_count; p++) {
        for (size_t s = 0; s < ink->pages[p].count; s++)
            stroke_free(&ink->pages[p].strokes[s]);
        ink->pages[p].count = 0;
    }
    for (size_t i = 0; i < ink->actions; i++)
        action_free(&ink->history[i]);
    ink->actions = 0;
    ink->held = ink->points = 0;
    ink->next_serial = 0;
    ink->drawing = -1;
    ink->revision++;
}

void mesh_ink_free(MeshInk *ink)
{
    if (ink->pages)
        mesh_ink_reset(ink);
    for (int p = 0; p < ink->page_count; p++)
        free(ink->pages[p].strokes);
    free(ink->pages);
    free(ink->history);
    *ink = (MeshInk){.drawing = -1};
}

bool mesh_ink_copy(MeshInk *dst, const MeshInk *src)
{
    if (!mesh_ink_init(dst, src->page_count))
        return false;
    dst->next_serial = src->next_serial;
    dst->revision = src->revision;
    dst->points = src->points;
    for (int p = 0; p < src->page_count; p++) {
        const MeshInkPage *from = &src->pages[p];
        MeshInkPage *to = &dst->pages[p];
        if (!from->count)
            continue;
        to->strokes = calloc(from->count, sizeof *to->strokes);
        if (!to->strokes) {
            mesh_ink_free(dst);
            return false;
        }
        to->capacity = from->count;
        for (size_t k = 0; k < from->count; k++) {
            const MeshInkStroke *a = &from->strokes[k];
            MeshInkStroke *b = &to->strokes[k];
            b->points = malloc(a->count * sizeof *b->points);
            if (!b->points) {
                mesh_ink_free(dst);
                return false;
            }
            memcpy(b->points, a->points, a->count * sizeof *b->points);
            b->count = b->capacity = a->count;
            b->serial = a->serial;
            to->count = k + 1;
        }
    }
    return true;
}

float mesh_ink_width(float pressure)
{
    if (!isfinite(pressure) || pressure > 1.0f)
        pressure = 1.0f;
    float w = MESH_INK_WIDTH * (pressure > 0.0f ? pressure : 0.0f);
    return w < MESH_INK_MIN_WIDTH ? MESH_INK_MIN_WIDTH : w;
}

/* On the page, with a finite width (clamped into the kept range). */
static bool point_valid(MeshInkPoint *p)
{
    if (!(p->u >= 0.0f && p->u <= 1.0f && p->v >= 0.0f && p->v <= 1.0f) || !isfinite(p->width))
        return false;
    p->width = fminf(fmaxf(p->width, MESH_INK_MIN_WIDTH), MESH_INK_MAX_WIDTH);
    return true;
}

static bool grow(void **items, size_t *capacity, size_t count, size_t item_size)
{
    if (count < *capacity)
        return true;
    size_t cap = *capacity ? 2 * *capacity : 16;
    void *grown = realloc(*items, cap * item_size);
    if (!grown)
        return false;
    *items = grown;
    *capacity = cap;
    return true;
}

static bool point_push(MeshInkStroke *stroke, MeshInkPoint p)
{
    if (!grow((void **)&stroke->points, &stroke->capacity, stroke->count, sizeof p))
        return false;
    stroke->points[stroke->count++] = p;
    return true;
}

/* Room for one more action in the history. */
static bool action_room(MeshInk *ink)
{
    return grow((void **)&ink->history, &ink->history_capacity, ink->actions, sizeof *ink->history);
}

/* A new empty stroke at the end of the page, its action in the history, or NULL. */
static MeshInkStroke *stroke_push(MeshInk *ink, int page)
{
    MeshInkPage *pg = &ink->pages[page];
    if (!action_room(ink) ||
        !grow((void **)&pg->strokes, &pg->capacity, pg->count, sizeof *pg->strokes))
        return NULL;
    ink->history[ink->actions++] = (MeshInkAction){.page = page};
    MeshInkStroke *s = &pg->strokes[pg->count++];
    *s = (MeshInkStroke){.serial = ink->next_serial++};
    ink->revision++;
    return s;
}

bool mesh_ink_stroke_begin(MeshInk *ink, int page, MeshInkPoint point)
{
    mesh_ink_stroke_end(ink);
    if (page < 0 || page >= ink->page_count || !point_valid(&point) ||
        ink->points >= MESH_INK_MAX_POINTS)
        return false;
    MeshInkStroke *s = stroke_push(ink, page);
    if (!s)
        return false;
    if (!point_push(s, point)) {
        ink->pages[page].count--;
        ink->actions--;
        return false;
    }
    ink->points++;
    ink->drawing = page;
    return true;
}

bool mesh_ink_stroke_extend(MeshInk *ink, MeshInkPoint point)
{
    if (ink->drawing < 0 || !point_valid(&point))
        return false;
    MeshInkPage *pg = &ink->pages[ink->drawing];
    MeshInkStroke *s = &pg->strokes[pg->count - 1];
    MeshInkPoint last = s->points[s->count - 1];
    if (hypotf(point.u - last.u, point.v - last.v) < MESH_INK_MIN_STEP)
        return true;
    if (s->count >= MESH_INK_MAX_STROKE_POINTS || ink->points >= MESH_INK_MAX_POINTS ||
        !point_push(s, point))
        return false;
    ink->points++;
    ink->revision++;
    return true;
}

void mesh_ink_stroke_end(MeshInk *ink)
{
    ink->drawing = -1;
}

bool mesh_ink_stroke_add(MeshInk *ink, int page, const MeshInkPoint *points, size_t count)
{
    if (page < 0 || page >= ink->page_count || count == 0 || count > MESH_INK_MAX_STROKE_POINTS ||
        count > MESH_INK_MAX_POINTS - ink->points)
        return false;
    MeshInkStroke *s = stroke_push(ink, page);
    if (!s)
        return false;
    s->points = malloc(count * sizeof *points);
    if (!s->points) {
        ink->pages[page].count--;
        ink->actions--;
        return false;
    }
    memcpy(s->points, points, count * sizeof *points);
    s->count = s->capacity = count;
    for (size_t i = 0; i < count; i++)
        if (!point_valid(&s->points[i])) {
            stroke_free(s);
            ink->pages[page].count--;
            ink->actions--;
            return false;
        }
    ink->points += count;
    return true;
}

int mesh_ink_undo(MeshInk *ink)
{
    while (ink->actions) {
        MeshInkAction a = ink->history[--ink->actions];
        MeshInkPage *pg = &ink->pages[a.page];
        if (!a.cleared) {
            if (!pg->count)
                continue; /* cannot be: every later action was taken back first */
            if (ink->drawing == a.page)
                ink->drawing = -1;
            ink->points -= pg->strokes[pg->count - 1].count;
            stroke_free(&pg->strokes[--pg->count]);
        } else {
            /* The page is as the clear left it (empty, its strokes array as large as then) */
            if (pg->count || pg->capacity < a.count) {
                action_free(&a);
                continue; /* cannot be, as above */
            }
            memcpy(pg->strokes, a.cleared, a.count * sizeof *pg->strokes);
            pg->count = a.count;
            size_t n = points_of(a.cleared, a.count);
            ink->points += n, ink->held -= n;
            free(a.cleared);
        }
        ink->revision++;
        return a.page;
    }
    return -1;
}

/* Forgets the history up to and including its oldest clear (its strokes freed); false when it
 * holds no clear. */
static bool forget_oldest_clear(MeshInk *ink)
{
    size_t k = 0;
    while (k < ink->actions && !ink->history[k].cleared)
        k++;
    if (k == ink->actions)
        return false;
    ink->held -= points_of(ink->history[k].cleared, ink->history[k].count);
    action_free(&ink->history[k]);
    memmove(ink->history, ink->history + k + 1, (ink->actions - k - 1) * sizeof *ink->history);
    ink->actions -= k + 1;
    return true;
}

size_t mesh_ink_clear(MeshInk *ink, int page)
{
    if (page < 0 || page >= ink->page_count)
        return 0;
    MeshInkPage *pg = &ink->pages[page];
    size_t n = pg->count;
    MeshInkStroke *kept = n && action_room(ink) ? malloc(n * sizeof *kept) : NULL;
    if (!kept)
        return 0;
    memcpy(kept, pg->strokes, n * sizeof *kept);
    size_t points = points_of(kept, n);
    ink->points -= points, ink->held += points;
    pg->count = 0;
    ink->history[ink->actions++] = (MeshInkAction){page, kept, n};
    if (ink->drawing == page)
        ink->drawing = -1;
    ink->revision++;
    while (ink->held > MESH_INK_MAX_POINTS && forget_oldest_clear(ink))
        ;
    return n;
}

size_t mesh_ink_stroke_count(const MeshInk *ink)
{
    size_t n = 0;
    for (int p = 0; p < ink->page_count; p++)
        n += ink->pages[p].count;
    return n;
}
