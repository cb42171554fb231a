/* SPDX-License-Identifier: MIT */
/* Ink: the strokes drawn on a book's pages, as polylines in side coordinates with a width at each
 * point, per side (side i, from 0, is page i + 1). Owns the stroke memory; knows nothing of
 * screens, files or rendering (the window picks the points, app/notebook.c loads and saves them).
 * Coordinates are those of the page side seen face up: u from its left edge (0) to its right edge
 * (1), v from its bottom edge (0) to its top (1); widths are fractions of the page width. Undo
 * takes back the most recent action of the whole book, a stroke or a clear, in the order they were
 * made (a loaded notebook's strokes in file order, before anything drawn since): the history is the
 * session's, never saved. */
#ifndef PAGECURL_MESH_INK_H
#define PAGECURL_MESH_INK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A pen stroke at full pressure is this wide (page widths): 2.5 mm on an A4 page, a felt tip. */
#define MESH_INK_WIDTH 0.012f
/* Widths are kept within these bounds: a stroke at zero pressure is still a hairline, and no
 * point is wider than a thick marker. */
#define MESH_INK_MIN_WIDTH 0.001f
#define MESH_INK_MAX_WIDTH 0.05f
/* A new point closer than this (page widths) to the stroke's last is dropped: 1/4 texel of 1024^2
 * content, so the polyline keeps every visible turn but not the jitter of a held pen. */
#define MESH_INK_MIN_STEP (0.25f / 1024.0f)
/* A book's sides: enough for any notebook we load, small enough that a bad file cannot make us
 * allocate much. */
#define MESH_INK_MAX_SIDES 1000000
/* Points in one stroke and in the whole book (a stroke stops growing at either): at 60 points a
 * second, half an hour of one unbroken stroke and over two hours of drawing; bounds what a
 * notebook costs to load and rasterise. */
#define MESH_INK_MAX_STROKE_POINTS 100000
#define MESH_INK_MAX_POINTS        500000

typedef struct MeshInkPoint {
    float u, v, width;
} MeshInkPoint;

typedef struct MeshInkStroke {
    MeshInkPoint *points;
    size_t count, capacity;
    uint64_t serial; /* when it was begun: undo takes the largest */
} MeshInkStroke;

typedef struct MeshInkSide {
    MeshInkStroke *strokes;
    size_t count, capacity;
} MeshInkSide;

/* One action undo can take back: a stroke added to `side` (then `cleared` is NULL: the stroke is
 * the side's last while every later action is undone), or the side cleared of the `count`
 * strokes `cleared` holds (kept for undo to put back). */
typedef struct MeshInkAction {
    int side;
    MeshInkStroke *cleared;
    size_t count;
} MeshInkAction;

typedef struct MeshInk {
    MeshInkSide *sides; /* side_count of them; side i is the book's page i + 1 */
    int side_count;
    uint64_t next_serial;
    int drawing;            /* the side of the stroke being drawn, -1 when none */
    size_t points;          /* in all strokes: at most MESH_INK_MAX_POINTS */
    uint64_t revision;      /* grows on every change: a renderer or a save can tell it is stale */
    MeshInkAction *history; /* oldest first */
    size_t actions, history_capacity;
    /* Points of cleared strokes kept for undo: at most MESH_INK_MAX_POINTS, beyond which the
     * oldest actions are forgotten (no longer undone) up to the oldest clear. */
    size_t held;
} MeshInk;

/* An empty book of side_count (1 .. MESH_INK_MAX_SIDES) sides; false when out of range or out
 * of memory (ink zeroed). */
bool mesh_ink_init(MeshInk *ink, int side_count);
void mesh_ink_free(MeshInk *ink);
/* The book grows to `side_count` sides (up to MESH_INK_MAX_SIDES), their ink empty; it never
 * shrinks: a book whose pages became fewer keeps the ink of those past its end. False (nothing
 * changed) out of range or out of memory. */
bool mesh_ink_grow(MeshInk *ink, int side_count);
/* Empties the book (strokes and history), keeping its side count. */
void mesh_ink_reset(MeshInk *ink);
/* `dst` (not initialised) becomes a copy of src's sides and strokes, without its history and
 * with no stroke being drawn: what a save writes. False when out of memory (dst zeroed). */
bool mesh_ink_copy(MeshInk *dst, const MeshInk *src);

/* The pressure (0..1, 1 when the device reports none) as a stroke width. */
float mesh_ink_width(float pressure);

/* Starts a stroke on side `side` (0-based) at (u, v); ends any stroke still being drawn. False for
 * a side out of range or a point off the side (u, v outside 0..1), at MESH_INK_MAX_POINTS, or out
 * of memory. */
bool mesh_ink_stroke_begin(MeshInk *ink, int side, MeshInkPoint point);
/* Extends the stroke being drawn; a point within MESH_INK_MIN_STEP of the last is dropped.
 * False when no stroke is being drawn, for a point off the side, at either limit of points, or
 * out of memory. */
bool mesh_ink_stroke_extend(MeshInk *ink, MeshInkPoint point);
/* Ends the stroke being drawn (it stays: a tap leaves a dot). */
void mesh_ink_stroke_end(MeshInk *ink);

/* Appends a whole stroke to a side (a notebook being loaded); the points are copied. False
 * beyond either limit of points, for a point off the side, or out of memory. */
bool mesh_ink_stroke_add(MeshInk *ink, int side, const MeshInkPoint *points, size_t count);

/* Takes back the most recent action anywhere in the book: a stroke is removed, a clear puts its
 * strokes back; returns the side it changed, -1 when there is nothing to undo. */
int mesh_ink_undo(MeshInk *ink);
/* Removes every stroke of a side, kept for undo; returns how many there were (0 also when out of
 * memory: then nothing changed). A side without strokes is no action. */
size_t mesh_ink_clear(MeshInk *ink, int side);

/* Total strokes in the book. */
size_t mesh_ink_stroke_count(const MeshInk *ink);

#endif
