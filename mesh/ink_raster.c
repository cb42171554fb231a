/* SPDX-License-Identifier: MIT */
#include "ink_raster.h"

#include "parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* fmin/fmax also order NaNs, which no coordinate here is, and are out-of-line calls without
 * -ffinite-math-only: inside the per-row loop they were a tenth of a heavy stroke's time. */
static inline double lesser(double a, double b)
{
    return a < b ? a : b;
}

static inline double greater(double a, double b)
{
    return a > b ? a : b;
}

static void rect_grow(MeshInkRect *r, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    if (r->x0 >= r->x1 || r->y0 >= r->y1) {
        *r = (MeshInkRect){x0, y0, x1, y1};
        return;
    }
    r->x0 = x0 < r->x0 ? x0 : r->x0, r->y0 = y0 < r->y0 ? y0 : r->y0;
    r->x1 = x1 > r->x1 ? x1 : r->x1, r->y1 = y1 > r->y1 ? y1 : r->y1;
}

/* A segment's axis in texels, y down, with what every row's run needs worked out once: the unit
 * normal (nx, ny), 1 / nx, and the row's foot interval's offset and width (dy / dx, len2 / dx). */
typedef struct Axis {
    double ax, ay, dx, dy, len, len2;
    double nx, ny, inv_nx, slope, span;
} Axis;

static Axis axis_of(double ax, double ay, double dx, double dy)
{
    double len2 = dx * dx + dy * dy, len = sqrt(len2);
    Axis g = {ax, ay, dx, dy, len, len2, 0.0, 0.0, 0.0, 0.0, 0.0};
    if (len > 0.0)
        g.nx = -dy / len, g.ny = dx / len;
    if (fabs(g.nx) > 1e-12)
        g.inv_nx = 1.0 / g.nx;
    if (fabs(dx) > 1e-12)
        g.slope = dy / dx, g.span = len2 / dx;
    return g;
}

/* The run of texel centres x in [*lo, *hi] on the row at height py that lie within `reach` of
 * the axis: the capsule is convex, so it covers one run on a row, the union of the runs of its
 * end discs and of the band between them. False when it misses the row. */
static bool row_run(const Axis *g, double reach, double py, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    double ends[2][2] = {{g->ax, g->ay}, {g->ax + g->dx, g->ay + g->dy}};
    for (int e = 0; e < 2; e++) {
        double h = reach * reach - (py - ends[e][1]) * (py - ends[e][1]);
        if (h >= 0.0)
            *lo = lesser(*lo, ends[e][0] - sqrt(h)), *hi = greater(*hi, ends[e][0] + sqrt(h));
    }
    if (g->len > 0.0) {
        /* the band: |offset across the axis| <= reach and the foot between the ends; each
         * condition is linear in x along the row */
        double c = (py - g->ay) * g->ny;
        double blo = -INFINITY, bhi = INFINITY;
        if (g->inv_nx != 0.0) {
            double u0 = (-reach - c) * g->inv_nx + g->ax, u1 = (reach - c) * g->inv_nx + g->ax;
            blo = lesser(u0, u1), bhi = greater(u0, u1);
        } else if (fabs(c) > reach) {
            blo = INFINITY;
        }
        if (g->span != 0.0) {
            double f0 = g->ax - (py - g->ay) * g->slope, f1 = f0 + g->span;
            blo = greater(blo, lesser(f0, f1)), bhi = lesser(bhi, greater(f0, f1));
        } else if ((py - g->ay) * g->dy < 0.0 || (py - g->ay) * g->dy > g->len2) {
            blo = INFINITY;
        }
        if (blo <= bhi)
            *lo = lesser(*lo, blo), *hi = greater(*hi, bhi);
    }
    return *lo <= *hi;
}

/* The first texel in [x, end) that is not fully covered (or end): a side under many strokes is
 * mostly covered already, so the ramps are skipped eight texels at a time. */
static uint32_t open_texel(const uint8_t *row, uint32_t x, uint32_t end)
{
    for (; x + 8 <= end; x += 8) {
        uint64_t word;
        memcpy(&word, row + x, sizeof word);
        if (word != UINT64_MAX)
            break;
    }
    while (x < end && row[x] == 255)
        x++;
    return x;
}

/* The first texel in [x, end) below `cap` (or end): one at or above the most this segment can
 * cover a texel is left as it is (each keeps the largest), so it is not worked out. */
static uint32_t open_below(const uint8_t *row, uint32_t x, uint32_t end, uint8_t cap)
{
    if (cap == 255)
        return open_texel(row, x, end);
    while (x < end && row[x] >= cap)
        x++;
    return x;
}

/* The segment's texels on rows [band_y0, band_y1) only. */
static void raster_rows(MeshInkPoint a, MeshInkPoint b, uint32_t width, uint32_t height,
                        uint32_t band_y0, uint32_t band_y1, uint8_t *image, MeshInkRect *dirty)
{
    if (width == 0 || height == 0)
        return;
    /* in texels, y down; a width is in page widths, `width` texels */
    double s = width, rows = height;
    double ax = a.u * s, ay = (1.0 - a.v) * rows, bx = b.u * s, by = (1.0 - b.v) * rows;
    double ra = 0.5 * a.width * s, rb = 0.5 * b.width * s;
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    Axis axis = axis_of(ax, ay, dx, dy);
    double reach = greater(ra, rb) + 1.0; /* the AA ramp reaches half a texel past the edge */
    /* Within this of the axis a texel is covered whole (its edge distance is >= half a texel
     * at the thinner end): filled without the distance, which is most of a wide stroke. */
    double solid = lesser(ra, rb) - 0.5;
    /* the most it covers a texel: a thin stroke's axis, a ramp never above it */
    uint8_t cap = (uint8_t)(lesser(greater(ra, rb) + 0.5, 1.0) * 255.0 + 0.5);
    double lo_x = greater(lesser(ax, bx) - reach, 0.0), hi_x = lesser(greater(ax, bx) + reach, s);
    double lo_y = greater(lesser(ay, by) - reach, 0.0),
           hi_y = lesser(greater(ay, by) + reach, rows);
    if (!(lo_x < hi_x && lo_y < hi_y))
        return;
    uint32_t x0 = (uint32_t)lo_x, x1 = (uint32_t)ceil(hi_x);
    uint32_t y0 = (uint32_t)lo_y, y1 = (uint32_t)ceil(hi_y);
    if (dirty)
        rect_grow(dirty, x0, y0, x1, y1);
    for (uint32_t y = y0 > band_y0 ? y0 : band_y0; y < y1 && y < band_y1; y++) {
        double py = y + 0.5, lo, hi;
        if (!row_run(&axis, reach, py, &lo, &hi))
            continue;
        double from = greater(floor(lo), (double)x0), to = lesser(ceil(hi) + 1.0, (double)x1);
        if (!(from < to))
            continue; /* beside the page */
        uint8_t *row = &image[(size_t)y * width];
        if (open_below(row, (uint32_t)from, (uint32_t)to, cap) >= (uint32_t)to)
            continue; /* covered whole already: a heavy stroke crosses itself often */
        /* the solid run's texels: centres x + 0.5 within [inner_lo, inner_hi] */
        double inner_lo, inner_hi, fill_from = to, fill_to = to;
        if (solid > 0.0 && row_run(&axis, solid, py, &inner_lo, &inner_hi)) {
            fill_from = lesser(greater(ceil(inner_lo - 0.5), from), to);
            fill_to = lesser(greater(floor(inner_hi - 0.5) + 1.0, fill_from), to);
            memset(row + (size_t)fill_from, 255, (size_t)(fill_to - fill_from));
        }
        /* the ramp: the texels of the run outside the solid part, on either side of it */
        uint32_t ramps[2][2] = {{(uint32_t)from, (uint32_t)fill_from},
                                {(uint32_t)fill_to, (uint32_t)to}};
        for (int side = 0; side < 2; side++)
            for (uint32_t x = open_below(row, ramps[side][0], ramps[side][1], cap);
                 x < ramps[side][1]; x = open_below(row, x + 1, ramps[side][1], cap)) {
                double px = x + 0.5;
                double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0, dist;
                if (t > 0.0 && t < 1.0) {
                    /* beside the axis the distance is the offset across it: no root */
                    dist = fabs((px - ax) * axis.nx + (py - ay) * axis.ny);
                } else {
                    t = t > 0.0 ? 1.0 : 0.0;
                    double ex = px - (ax + t * dx), ey = py - (ay + t * dy);
                    dist = sqrt(ex * ex + ey * ey);
                }
                double edge = ra + t * (rb - ra) - dist;
                double cover = lesser(greater(edge + 0.5, 0.0), 1.0);
                uint8_t v = (uint8_t)(cover * 255.0 + 0.5);
                if (v > row[x])
                    row[x] = v;
            }
    }
}

void mesh_ink_raster_segment(MeshInkPoint a, MeshInkPoint b, uint32_t width, uint32_t height,
                             uint8_t *image, MeshInkRect *dirty)
{
    raster_rows(a, b, width, height, 0, height, image, dirty);
}

/* Rows drawn together: a band of the image stays in the first-level cache while every segment
 * that crosses it is drawn, where segment by segment a long stroke's rows miss the cache at each
 * step. Each texel keeps the largest coverage, so the order does not change the result, and the
 * bands, whose rows no other band touches, are shared among the cores. */
#define BAND_ROWS 16u

/* What drawing costs, in units of one texel's coverage worked out (measured on the 2-core
 * machine: about a nanosecond each): a segment costs the texels of its capsule, plus this much
 * for each row it crosses (the run's ends on the row, the covered texels skipped) and for each
 * band (its axis set up again). */
#define WORK_ROW  40.0
#define WORK_BAND 60.0
/* MESH_INK_RASTER_BUDGET: a notebook within its limits can hold 500,000 segments each across the
 * whole side (over 10^11 units at full scale: minutes), which is then drawn at half the texels
 * across and down (a quarter of the area, half the rows), or a quarter, ..., until it fits, and
 * scaled up: ink so dense is a smear at any scale. */
#define RASTER_BUDGET MESH_INK_RASTER_BUDGET
/* The coarsest scale: 1/128 of the texels across (8 x 11 texels of a 1024 x 1448 side). */
#define RASTER_MAX_SCALE 128u

/* One side to draw: its strokes, into `image` (width x height, the scale's). */
typedef struct SideJob {
    const MeshInkSide *side;
    const uint8_t *repeat; /* repeats(side); NULL: none */
    uint32_t width, height;
    uint8_t *image;
} SideJob;

static bool bit(const uint8_t *bits, size_t i)
{
    return bits && bits[i / 8] >> (i % 8) & 1;
}

typedef struct Seen {
    const MeshInkPoint *a, *b;
} Seen;

static uint64_t segment_hash(const MeshInkPoint *a, const MeshInkPoint *b)
{
    uint64_t h = 14695981039346656037ull;
    const MeshInkPoint *ends[2] = {a, b};
    for (int e = 0; e < 2; e++) {
        const unsigned char *bytes = (const unsigned char *)ends[e];
        for (size_t i = 0; i < sizeof *a; i++)
            h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

/* The segments of `side` that repeat one before them (the same ends and widths, in the same
 * order): drawn again they would change no texel (each keeps the largest coverage), so they are
 * not drawn; a notebook within its limits can hold one segment across the side 500,000 times.
 * A bit a point (for the segment that ends there, or a stroke's one dot); NULL without the
 * memory (then every segment is drawn). */
static uint8_t *repeats(const MeshInkSide *side)
{
    size_t n = 0;
    for (size_t k = 0; k < side->count; k++)
        n += side->strokes[k].count;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint8_t *bits = calloc(n / 8 + 1, 1);
    Seen *table = calloc(cap, sizeof *table);
    if (!bits || !table) {
        free(bits);
        free(table);
        return NULL;
    }
    size_t index = 0;
    for (size_t k = 0; k < side->count; k++) {
        const MeshInkStroke *st = &side->strokes[k];
        for (size_t i = 0; i < st->count; i++, index++) {
            if (i == 0 && st->count > 1)
                continue; /* no segment ends at a stroke's first point */
            const MeshInkPoint *a = &st->points[i ? i - 1 : 0], *b = &st->points[i];
            for (size_t slot = segment_hash(a, b) & (cap - 1);; slot = (slot + 1) & (cap - 1)) {
                if (!table[slot].b) {
                    table[slot] = (Seen){a, b};
                    break;
                }
                if (!memcmp(table[slot].a, a, sizeof *a) && !memcmp(table[slot].b, b, sizeof *b)) {
                    bits[index / 8] |= (uint8_t)(1u << (index % 8));
                    break;
                }
            }
        }
    }
    free(table);
    return bits;
}

typedef struct SidesJob {
    const SideJob *jobs;
    const size_t *first; /* the first task (band) of each job, and of none past the last */
    size_t count;
} SidesJob;

static void draw_band(const SideJob *job, uint32_t band)
{
    uint32_t width = job->width, height = job->height;
    uint32_t end = band + BAND_ROWS < height ? band + BAND_ROWS : height;
    /* the band in v, widened by the widest reach: segments wholly outside are skipped */
    double v_hi = 1.0 - band / (double)height, v_lo = 1.0 - end / (double)height;
    const MeshInkSide *side = job->side;
    size_t index = 0;
    for (size_t k = 0; k < side->count; k++) {
        const MeshInkStroke *st = &side->strokes[k];
        for (size_t i = 0; i < st->count; i++, index++) {
            MeshInkPoint a = st->points[i ? i - 1 : 0], b = st->points[i];
            if ((i == 0 && st->count > 1) || bit(job->repeat, index))
                continue; /* a dot only when the stroke is one point; a repeat drawn already */
            double reach = (greater(a.width, b.width) * 0.5 * width + 1.0) / height;
            if (lesser(a.v, b.v) - reach > v_hi || greater(a.v, b.v) + reach < v_lo)
                continue;
            raster_rows(a, b, width, height, band, end, job->image, NULL);
        }
    }
}

static void draw_task(void *user, size_t task)
{
    const SidesJob *all = user;
    size_t j = 0;
    while (j + 1 < all->count && all->first[j + 1] <= task)
        j++;
    draw_band(&all->jobs[j], (uint32_t)(task - all->first[j]) * BAND_ROWS);
}

/* The work of drawing the segment a -> b on a width x height image (WORK_ROW). */
static double segment_work(MeshInkPoint a, MeshInkPoint b, double width, double height)
{
    double dx = (b.u - a.u) * width, dy = (b.v - a.v) * height;
    double reach = greater(a.width, b.width) * 0.5 * width + 1.0;
    double rows = lesser(fabs(dy) + 2.0 * reach, height);
    double area = lesser((sqrt(dx * dx + dy * dy) + 2.0 * reach) * 2.0 * reach, width * height);
    return rows * WORK_ROW + (rows / BAND_ROWS + 1.0) * WORK_BAND + area;
}

double mesh_ink_raster_work(const MeshInkStroke *stroke, size_t from, uint32_t width,
                            uint32_t height)
{
    double work = 0.0;
    if (stroke->count == 1 && from == 0)
        work = segment_work(stroke->points[0], stroke->points[0], width, height);
    for (size_t i = from; i + 1 < stroke->count; i++)
        work += segment_work(stroke->points[i], stroke->points[i + 1], width, height);
    return work;
}

/* The work of drawing the side at width x height, its repeats left out, counted until it passes
 * `most`. */
static double side_work(const MeshInkSide *side, const uint8_t *repeat, uint32_t width,
                        uint32_t height, double most)
{
    double work = 0.0;
    size_t index = 0;
    for (size_t k = 0; k < side->count && work <= most; k++) {
        const MeshInkStroke *st = &side->strokes[k];
        for (size_t i = 0; i < st->count; i++, index++)
            if (!(i == 0 && st->count > 1) && !bit(repeat, index))
                work += segment_work(st->points[i ? i - 1 : 0], st->points[i], width, height);
    }
    return work;
}

/* `src` (sw x sh) scaled up to `dst` (w x h), bilinear over the texels' centres. */
static void scale_up(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t w,
                     uint32_t h)
{
    for (uint32_t y = 0; y < h; y++) {
        double fy = greater((y + 0.5) * sh / h - 0.5, 0.0);
        uint32_t y0 = (uint32_t)fy, y1 = y0 + 1 < sh ? y0 + 1 : y0;
        double ty = fy - y0;
        const uint8_t *r0 = src + (size_t)y0 * sw, *r1 = src + (size_t)y1 * sw;
        for (uint32_t x = 0; x < w; x++) {
            double fx = greater((x + 0.5) * sw / w - 0.5, 0.0);
            uint32_t x0 = (uint32_t)fx, x1 = x0 + 1 < sw ? x0 + 1 : x0;
            double tx = fx - x0;
            double top = r0[x0] + tx * (r0[x1] - r0[x0]), bottom = r1[x0] + tx * (r1[x1] - r1[x0]);
            dst[(size_t)y * w + x] = (uint8_t)(top + ty * (bottom - top) + 0.5);
        }
    }
}

/* Each side's scale: 1 for all where their work together is within the budget; else the side
 * with the most work is drawn at half its scale, again and again, so that light sides stay
 * sharp beside a heavy one. */
static void choose_scales(const SideJob *jobs, size_t count, uint32_t width, uint32_t height,
                          uint32_t *scales, double *work)
{
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        scales[i] = 1;
        work[i] = side_work(jobs[i].side, jobs[i].repeat, width, height, 2.0 * RASTER_BUDGET);
        total += work[i];
    }
    while (total > RASTER_BUDGET) {
        size_t most = count;
        for (size_t i = 0; i < count; i++)
            if (scales[i] < RASTER_MAX_SCALE && width / scales[i] > 1 && height / scales[i] > 1 &&
                (most == count || work[i] > work[most]))
                most = i;
        if (most == count)
            break; /* every side as coarse as it goes */
        uint32_t s = scales[most] *= 2;
        total -= work[most];
        work[most] = side_work(jobs[most].side, jobs[most].repeat, width / s, height / s,
                               2.0 * RASTER_BUDGET);
        total += work[most];
    }
}

void mesh_ink_raster_sides(const MeshInkSide *const *sides, uint8_t *const *images, size_t count,
                           uint32_t width, uint32_t height, uint32_t *scales)
{
    if (width == 0 || height == 0 || count == 0)
        return;
    SideJob *jobs = calloc(count, sizeof *jobs);
    size_t *first = calloc(count + 1, sizeof *first);
    double *work = calloc(count, sizeof *work);
    uint32_t *scale = calloc(count, sizeof *scale);
    if (!jobs || !first || !work || !scale) { /* side by side, at full scale */
        for (size_t i = 0; i < count; i++) {
            memset(images[i], 0, (size_t)width * height);
            SideJob one = {sides[i], NULL, width, height, images[i]};
            for (uint32_t band = 0; band < height; band += BAND_ROWS)
                draw_band(&one, band);
            if (scales)
                scales[i] = 1;
        }
        free(jobs), free(first), free(work), free(scale);
        return;
    }
    for (size_t i = 0; i < count; i++)
        jobs[i] = (SideJob){sides[i], repeats(sides[i]), width, height, images[i]};
    choose_scales(jobs, count, width, height, scale, work);
    for (size_t i = 0; i < count; i++) {
        uint32_t w = width / scale[i], h = height / scale[i];
        /* coarser: into an image of its own, scaled up after (without the memory for one, at
         * full scale: slow, but drawn) */
        uint8_t *coarse = scale[i] > 1 ? malloc((size_t)w * h) : NULL;
        if (!coarse)
            w = width, h = height, scale[i] = 1;
        jobs[i].width = w, jobs[i].height = h, jobs[i].image = coarse ? coarse : images[i];
        memset(jobs[i].image, 0, (size_t)w * h);
        first[i + 1] = first[i] + (h + BAND_ROWS - 1) / BAND_ROWS;
    }
    SidesJob all = {jobs, first, count};
    mesh_parallel_tasks(first[count], mesh_parallel_threads(), draw_task, &all);
    for (size_t i = 0; i < count; i++) {
        if (scale[i] > 1) {
            scale_up(jobs[i].image, jobs[i].width, jobs[i].height, images[i], width, height);
            free(jobs[i].image);
        }
        free((void *)jobs[i].repeat);
        if (scales)
            scales[i] = scale[i];
    }
    free(jobs), free(first), free(work), free(scale);
}

uint32_t mesh_ink_raster_side(const MeshInkSide *side, uint32_t width, uint32_t height,
                              uint8_t *image)
{
    uint32_t scale = 1;
    mesh_ink_raster_sides(&side, &image, 1, width, height, &scale);
    return scale;
}
