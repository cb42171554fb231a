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

static void stroke_free(MeshInkStroke *stroke)
{
    free(stroke->points);
    *stroke = (MeshInkStroke){0};
}

void mesh_ink_free(MeshInk *ink)
{
    for (int p = 0; p < ink->page_count; p++) {
        for (size_t s = 0; s < ink->pages[p].count; s++)
            stroke_free(&ink->pages[p].strokes[s]);
        free(ink->pages[p].strokes);
    }
    free(ink->pages);
    *ink = (MeshInk){.drawing = -1};
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

/* A new empty stroke at the end of the page, or NULL. */
static MeshInkStroke *stroke_push(MeshInk *ink, int page)
{
    MeshInkPage *pg = &ink->pages[page];
    if (!grow((void **)&pg->strokes, &pg->capacity, pg->count, sizeof *pg->strokes))
        return NULL;
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
        return false;
    }
    memcpy(s->points, points, count * sizeof *points);
    s->count = s->capacity = count;
    for (size_t i = 0; i < count; i++)
        if (!point_valid(&s->points[i])) {
            stroke_free(s);
            ink->pages[page].count--;
            return false;
        }
    ink->points += count;
    return true;
}

int mesh_ink_undo(MeshInk *ink)
{
    int best = -1;
    uint64_t serial = 0;
    for (int p = 0; p < ink->page_count; p++) {
        const MeshInkPage *pg = &ink->pages[p];
        /* strokes are appended in serial order: a page's newest is its last */
        if (pg->count && (best < 0 || pg->strokes[pg->count - 1].serial > serial))
            best = p, serial = pg->strokes[pg->count - 1].serial;
    }
    if (best < 0)
        return -1;
    if (ink->drawing == best)
        ink->drawing = -1;
    MeshInkPage *pg = &ink->pages[best];
    ink->points -= pg->strokes[pg->count - 1].count;
    stroke_free(&pg->strokes[--pg->count]);
    ink->revision++;
    return best;
}

size_t mesh_ink_clear(MeshInk *ink, int page)
{
    if (page < 0 || page >= ink->page_count)
        return 0;
    MeshInkPage *pg = &ink->pages[page];
    size_t n = pg->count;
    for (size_t s = 0; s < n; s++) {
        ink->points -= pg->strokes[s].count;
        stroke_free(&pg->strokes[s]);
    }
    pg->count = 0;
    if (ink->drawing == page)
        ink->drawing = -1;
    if (n)
        ink->revision++;
    return n;
}

size_t mesh_ink_stroke_count(const MeshInk *ink)
{
    size_t n = 0;
    for (int p = 0; p < ink->page_count; p++)
        n += ink->pages[p].count;
    return n;
}
