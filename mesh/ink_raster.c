/* SPDX-License-Identifier: MIT */
#include "ink_raster.h"

#include <math.h>
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

/* The first texel in [x, end) that is not fully covered (or end): a page under many strokes is
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
        if (open_texel(row, (uint32_t)from, (uint32_t)to) >= (uint32_t)to)
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
            for (uint32_t x = open_texel(row, ramps[side][0], ramps[side][1]); x < ramps[side][1];
                 x = open_texel(row, x + 1, ramps[side][1])) {
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
 * step. Each texel keeps the largest coverage, so the order does not change the result. */
#define BAND_ROWS 16u

void mesh_ink_raster_page(const MeshInkPage *page, uint32_t width, uint32_t height, uint8_t *image)
{
    memset(image, 0, (size_t)width * height);
    for (uint32_t band = 0; band < height; band += BAND_ROWS) {
        uint32_t end = band + BAND_ROWS < height ? band + BAND_ROWS : height;
        /* the band in v, widened by the widest reach: segments wholly outside are skipped */
        double v_hi = 1.0 - band / (double)height, v_lo = 1.0 - end / (double)height;
        for (size_t k = 0; k < page->count; k++) {
            const MeshInkStroke *st = &page->strokes[k];
            for (size_t i = 0; i < st->count; i++) {
                MeshInkPoint a = st->points[i ? i - 1 : 0], b = st->points[i];
                if (i == 0 && st->count > 1)
                    continue; /* a dot only when the stroke is one point */
                double reach = (greater(a.width, b.width) * 0.5 * width + 1.0) / height;
                if (lesser(a.v, b.v) - reach > v_hi || greater(a.v, b.v) + reach < v_lo)
                    continue;
                raster_rows(a, b, width, height, band, end, image, NULL);
            }
        }
    }
}
