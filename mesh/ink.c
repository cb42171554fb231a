/* SPDX-License-Identifier: MIT */
#include "ink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool mesh_ink_init(MeshInk *ink, int side_count)
{
    *ink = (MeshInk){.drawing = -1};
    if (side_count < 1 || side_count > MESH_INK_MAX_SIDES)
        return false;
    ink->sides = calloc((size_t)side_count, sizeof *ink->sides);
    if (!ink->sides)
        return false;
    ink->side_count = side_count;
    return true;
}

bool mesh_ink_grow(MeshInk *ink, int side_count)
{
    if (side_count < 1 || side_count > MESH_INK_MAX_SIDES)
        return false;
    if (side_count <= ink->side_count)
        return true;
    MeshInkSide *sides = realloc(ink->sides, (size_t)side_count * sizeof *sides);
    if (!sides)
        return false;
    memset(sides + ink->side_count, 0, (size_t)(side_count - ink->side_count) * sizeof *sides);
    ink->sides = sides;
    ink->side_count = side_count;
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
    for (int i = 0; i < ink->side_count; i++) {
        for (size_t s = 0; s < ink->sides[i].count; s++)
            stroke_free(&ink->sides[i].strokes[s]);
        ink->sides[i].count = 0;
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
    if (ink->sides)
        mesh_ink_reset(ink);
    for (int i = 0; i < ink->side_count; i++)
        free(ink->sides[i].strokes);
    free(ink->sides);
    free(ink->history);
    *ink = (MeshInk){.drawing = -1};
}

bool mesh_ink_copy(MeshInk *dst, const MeshInk *src)
{
    if (!mesh_ink_init(dst, src->side_count))
        return false;
    dst->next_serial = src->next_serial;
    dst->revision = src->revision;
    dst->points = src->points;
    for (int i = 0; i < src->side_count; i++) {
        const MeshInkSide *from = &src->sides[i];
        MeshInkSide *to = &dst->sides[i];
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

/* On the side, with a finite width (clamped into the kept range). */
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

/* A new empty stroke at the end of the side, its action in the history, or NULL. */
static MeshInkStroke *stroke_push(MeshInk *ink, int side)
{
    MeshInkSide *sd = &ink->sides[side];
    if (!action_room(ink) ||
        !grow((void **)&sd->strokes, &sd->capacity, sd->count, sizeof *sd->strokes))
        return NULL;
    ink->history[ink->actions++] = (MeshInkAction){.side = side};
    MeshInkStroke *s = &sd->strokes[sd->count++];
    *s = (MeshInkStroke){.serial = ink->next_serial++};
    ink->revision++;
    return s;
}

bool mesh_ink_stroke_begin(MeshInk *ink, int side, MeshInkPoint point)
{
    mesh_ink_stroke_end(ink);
    if (side < 0 || side >= ink->side_count || !point_valid(&point) ||
        ink->points >= MESH_INK_MAX_POINTS)
        return false;
    MeshInkStroke *s = stroke_push(ink, side);
    if (!s)
        return false;
    if (!point_push(s, point)) {
        ink->sides[side].count--;
        ink->actions--;
        return false;
    }
    ink->points++;
    ink->drawing = side;
    return true;
}

bool mesh_ink_stroke_extend(MeshInk *ink, MeshInkPoint point)
{
    if (ink->drawing < 0 || !point_valid(&point))
        return false;
    MeshInkSide *sd = &ink->sides[ink->drawing];
    MeshInkStroke *s = &sd->strokes[sd->count - 1];
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

bool mesh_ink_stroke_add(MeshInk *ink, int side, const MeshInkPoint *points, size_t count)
{
    if (side < 0 || side >= ink->side_count || count == 0 || count > MESH_INK_MAX_STROKE_POINTS ||
        count > MESH_INK_MAX_POINTS - ink->points)
        return false;
    MeshInkStroke *s = stroke_push(ink, side);
    if (!s)
        return false;
    s->points = malloc(count * sizeof *points);
    if (!s->points) {
        ink->sides[side].count--;
        ink->actions--;
        return false;
    }
    memcpy(s->points, points, count * sizeof *points);
    s->count = s->capacity = count;
    for (size_t i = 0; i < count; i++)
        if (!point_valid(&s->points[i])) {
            stroke_free(s);
            ink->sides[side].count--;
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
        MeshInkSide *sd = &ink->sides[a.side];
        if (!a.cleared) {
            if (!sd->count)
                continue; /* cannot be: every later action was taken back first */
            if (ink->drawing == a.side)
                ink->drawing = -1;
            ink->points -= sd->strokes[sd->count - 1].count;
            stroke_free(&sd->strokes[--sd->count]);
        } else {
            /* The side is as the clear left it (empty, its strokes array as large as then) */
            if (sd->count || sd->capacity < a.count) {
                action_free(&a);
                continue; /* cannot be, as above */
            }
            memcpy(sd->strokes, a.cleared, a.count * sizeof *sd->strokes);
            sd->count = a.count;
            size_t n = points_of(a.cleared, a.count);
            ink->points += n, ink->held -= n;
            free(a.cleared);
        }
        ink->revision++;
        return a.side;
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

size_t mesh_ink_clear(MeshInk *ink, int side)
{
    if (side < 0 || side >= ink->side_count)
        return 0;
    MeshInkSide *sd = &ink->sides[side];
    size_t n = sd->count;
    MeshInkStroke *kept = n && action_room(ink) ? malloc(n * sizeof *kept) : NULL;
    if (!kept)
        return 0;
    memcpy(kept, sd->strokes, n * sizeof *kept);
    size_t points = points_of(kept, n);
    ink->points -= points, ink->held += points;
    sd->count = 0;
    ink->history[ink->actions++] = (MeshInkAction){side, kept, n};
    if (ink->drawing == side)
        ink->drawing = -1;
    ink->revision++;
    while (ink->held > MESH_INK_MAX_POINTS && forget_oldest_clear(ink))
        ;
    return n;
}

size_t mesh_ink_stroke_count(const MeshInk *ink)
{
    size_t n = 0;
    for (int i = 0; i < ink->side_count; i++)
        n += ink->sides[i].count;
    return n;
}
