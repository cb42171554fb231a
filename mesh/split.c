/* SPDX-License-Identifier: MIT */
#include "split.h"

#include "curl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double sigma_at(const MeshGrid *g, const MeshCurlAcross *a, uint32_t j, uint32_t i)
{
    size_t k = (size_t)j * g->nx + i;
    return mesh_curl_sigma(a, g->rest_x[k], g->rest_y[k]);
}

/* The first vertex of row j, in lo .. hi, whose sigma passes `flat_from` (rising along the row if
 * `rising`), by bisection: sigma is monotone over the part of a row past the fold. */
static uint32_t first_past(const MeshGrid *g, const MeshCurlAcross *a, uint32_t j, uint32_t lo,
                           uint32_t hi, bool rising)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        bool past = sigma_at(g, a, j, mid) >= a->flat_from;
        if (past == rising)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The flat intervals of vertex row `row`: vertices [before[0], before[1]) lie before the fold,
 * [after[0], after[1]) past the roll's end (`ends`: the roll turns the page over whole). A row is a
 * straight line of the page: the fold's side is an interval at one of its ends, and past the fold
 * sigma is monotone, so each interval is found by bisection, not vertex by vertex. */
static void row_flat(const MeshGrid *g, const MeshCurlAcross *a, uint32_t row, bool ends,
                     uint32_t before[2], uint32_t after[2])
{
    uint32_t nx = g->nx;
    bool first = !(sigma_at(g, a, row, 0) > 0.0), last = !(sigma_at(g, a, row, nx - 1) > 0.0);
    uint32_t lo = 0, hi = nx; /* past the fold */
    if (first && last) {
        lo = hi = 0;
    } else if (first || last) {
        uint32_t l = 0, h = nx - 1; /* the first vertex not on the side vertex 0 is on */
        while (l < h) {
            uint32_t m = l + (h - l) / 2;
            if (!(sigma_at(g, a, row, m) > 0.0) != first)
                h = m;
            else
                l = m + 1;
        }
        lo = first ? l : 0;
        hi = first ? nx : l;
    }
    before[0] = first ? 0 : hi;
    before[1] = first ? (lo == hi ? nx : lo) : nx;
    if (!first && !last)
        before[0] = before[1] = 0;
    after[0] = after[1] = 0;
    if (ends && isfinite(a->flat_from) && lo < hi) {
        bool rising = sigma_at(g, a, row, hi - 1) >= sigma_at(g, a, row, lo);
        uint32_t p = first_past(g, a, row, lo, hi, rising);
        after[0] = rising ? p : lo;
        after[1] = rising ? hi : p;
    }
}

/* A cell's class: drawn plain, of the outline, or of the roll (plain or not by the view); while
 * the view splits the roll, a roll cell found plain, or one where n.v changes sign; and a flat
 * cell drawn in a run with its neighbours (merge_flat). */
enum { CELL_PLAIN, CELL_OUTLINE, CELL_ROLL, CELL_ROLL_PLAIN, CELL_CREASE, CELL_MERGED };

/* Each cell's class by the pose alone: plain where it lies flat and MESH_SPLIT_RING cells in. */
static void classify(const MeshGrid *grid, const MeshCurlAcross *a, bool ends, unsigned char *cells)
{
    uint32_t nx = grid->nx, ny = grid->ny;
    uint32_t before[2][2], after[2][2];
    row_flat(grid, a, 0, ends, before[1], after[1]);
    for (uint32_t j = 0; j + 1 < ny; j++) {
        /* the cell row's lower vertex row is the last one's upper */
        before[0][0] = before[1][0], before[0][1] = before[1][1];
        after[0][0] = after[1][0], after[0][1] = after[1][1];
        row_flat(grid, a, j + 1, ends, before[1], after[1]);
        for (uint32_t i = 0; i + 1 < nx; i++) {
            bool ring = i < MESH_SPLIT_RING || j < MESH_SPLIT_RING ||
                        i + 1 + MESH_SPLIT_RING > nx - 1 || j + 1 + MESH_SPLIT_RING > ny - 1;
            bool in_before = true, in_after = true;
            for (int r = 0; r < 2; r++) {
                in_before = in_before && i >= before[r][0] && i + 1 < before[r][1];
                in_after = in_after && i >= after[r][0] && i + 1 < after[r][1];
            }
            cells[(size_t)j * (nx - 1) + i] = ring                               ? CELL_OUTLINE
                                              : a->flat || in_before || in_after ? CELL_PLAIN
                                                                                 : CELL_ROLL;
        }
    }
}

/* What a vertex row holds per vertex: n.v, the place on screen (pixels), the paper's thickness
 * there on screen seen edge on (pixels), and whether it lies in front of the eye. */
enum { SEEN_NV, SEEN_X, SEEN_Y, SEEN_THICK, SEEN_FRONT, SEEN_FIELDS };

/* A posed point and its unit normal as page.vert and page.frag see them (world = model * scale). */
static void seen(const MeshSplitView *v, const double p[3], const double n[3], float thickness,
                 float out[SEEN_FIELDS])
{
    const float *m = v->clip;
    double c[4];
    for (int r = 0; r < 4; r++)
        c[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    out[SEEN_FRONT] = c[3] > 1e-6 ? 1.0f : 0.0f;
    if (!(c[3] > 1e-6))
        return;
    /* the normal in the world is the model's times the scale's signs, the way to the eye the
     * model's times the scale: their product takes each axis's |scale| once */
    double to2 = 0.0, dot = 0.0, row_y2 = 0.0;
    for (int k = 0; k < 3; k++) {
        double to = ((double)v->eye[k] - p[k]) * v->scale[k];
        to2 += to * to;
        dot += n[k] * to;
        double ry = m[4 * k + 1] / (v->scale[k] > 0.0f ? v->scale[k] : 1.0f);
        row_y2 += ry * ry;
    }
    out[SEEN_NV] = (float)(dot / sqrt(to2 > 0.0 ? to2 : 1e-30));
    out[SEEN_X] = (float)(c[0] / c[3] * v->pixels[0]);
    out[SEEN_Y] = (float)(c[1] / c[3] * v->pixels[1]);
    /* page.vert draws the cut edge at least a pixel thick */
    out[SEEN_THICK] = (float)fmax(1.0, thickness * v->pixels[1] * sqrt(row_y2) / c[3]);
}

/* Whether no pixel of the triangle, whose corners lie in front of the eye with n.v of one sign,
 * is one of the roll's outline: n.v lies, in every corner, further from 0 than page.frag's coverage
 * ramp (n.v over its screen gradient below 1) and cut edge band (below 2 (1 + the thickness on
 * screen)) reach, with a margin for the interpolated normal's curvature; and the page's edges
 * further off than their ramp and band. The gradients are the triangle's own, over its place on
 * screen. */
static bool triangle_plain(const float *corner[3], const float uv[3][2])
{
    float x0 = corner[0][SEEN_X], y0 = corner[0][SEEN_Y];
    float e1x = corner[1][SEEN_X] - x0, e1y = corner[1][SEEN_Y] - y0;
    float e2x = corner[2][SEEN_X] - x0, e2y = corner[2][SEEN_Y] - y0;
    float det = e1x * e2y - e1y * e2x;
    if (!(fabsf(det) > 1e-6f))
        return false; /* edge on, or under a pixel */
    /* a linear quantity's screen gradient over the triangle: |d/dx| + |d/dy|, as fwidth */
    float q[3][3];
    for (int c = 0; c < 3; c++)
        q[0][c] = corner[c][SEEN_NV], q[1][c] = uv[c][0], q[2][c] = uv[c][1];
    float fw[3];
    for (int k = 0; k < 3; k++) {
        float d1 = q[k][1] - q[k][0], d2 = q[k][2] - q[k][0];
        fw[k] = fabsf((d1 * e2y - d2 * e1y) / det) + fabsf((d2 * e1x - d1 * e2x) / det);
    }
    for (int c = 0; c < 3; c++) {
        float nv = q[0][c], thick = corner[c][SEEN_THICK];
        float reach = 2.0f * (1.0f + 1.25f * thick) + 2.0f; /* pixels, the margin in it */
        if (!(fabsf(nv) >= reach * fw[0]))
            return false;
        float u = uv[c][0], v = uv[c][1];
        float edge = 1.5f + 1.25f * thick + 1.0f;
        if (!(fminf(u, 1.0f - u) >= edge * fw[1] && fminf(v, 1.0f - v) >= edge * fw[2]))
            return false;
    }
    return true;
}

/* The roll's cells of cell row j classed by the view, from the vertex rows j and j + 1 in `rows`:
 * a crease where n.v changes sign over it (or it reaches behind the eye), plain where both its
 * triangles hold no pixel of the outline (triangle_plain), else the outline's. */
static void roll_row(const MeshGrid *grid, uint32_t j, const float *rows, unsigned char *cells)
{
    uint32_t nx = grid->nx;
    for (uint32_t i = 0; i + 1 < nx; i++) {
        size_t cell = (size_t)j * (nx - 1) + i;
        if (cells[cell] != CELL_ROLL)
            continue;
        const uint32_t *tri = grid->indices + 6 * cell;
        int up = 0, down = 0;
        for (int c = 0; c < 6; c++) {
            uint32_t k = tri[c];
            const float *e = rows + ((size_t)((k / nx) & 1) * nx + k % nx) * SEEN_FIELDS;
            up += e[SEEN_FRONT] != 0.0f && e[SEEN_NV] > 0.0f;
            down += e[SEEN_FRONT] != 0.0f && e[SEEN_NV] < 0.0f;
        }
        if (up != 6 && down != 6) {
            cells[cell] = CELL_CREASE;
            continue;
        }
        bool plain = true;
        for (int t = 0; t < 2 && plain; t++) {
            const float *corner[3];
            float uv[3][2];
            for (int c = 0; c < 3; c++) {
                uint32_t k = tri[3 * t + c], row = k / nx;
                corner[c] = rows + ((size_t)(row & 1) * nx + k % nx) * SEEN_FIELDS;
                uv[c][0] = grid->u[k], uv[c][1] = grid->v[k];
            }
            plain = triangle_plain(corner, uv);
        }
        cells[cell] = plain ? CELL_ROLL_PLAIN : CELL_OUTLINE;
    }
}

/* Where the paper folds back over itself within a cell or two (a roll tighter than the grid, late
 * in a turn), its two sides meet on screen at the crease at depths that differ by rounding, so
 * which of them the edge round's depth test lets through there depends on which pipeline drew
 * the one beside it: the cells around a crease stay the outline's, drawn as before. */
static void keep_creases(const MeshGrid *grid, MeshSplitScratch *sc)
{
    uint32_t cx = grid->nx - 1, cy = grid->ny - 1;
    sc->rolled = 0;
    for (uint32_t j = 0; j < cy; j++)
        for (uint32_t i = 0; i < cx; i++) {
            unsigned char *c = &sc->cells[(size_t)j * cx + i];
            if (*c != CELL_ROLL_PLAIN)
                continue; /* (each is seen once: only crease cells are looked at around it) */
            bool near = false;
            for (uint32_t y = j ? j - 1 : 0; y <= j + 1 && y < cy && !near; y++)
                for (uint32_t x = i ? i - 1 : 0; x <= i + 1 && x < cx && !near; x++)
                    near = sc->cells[(size_t)y * cx + x] == CELL_CREASE;
            *c = near ? CELL_OUTLINE : CELL_ROLL_PLAIN;
            sc->rolled += !near;
        }
    size_t count = (size_t)cx * cy;
    for (size_t c = 0; c < count; c++)
        sc->cells[c] = sc->cells[c] == CELL_CREASE ? CELL_OUTLINE : sc->cells[c];
}

/* The roll's cells told apart by the view: each vertex row's vertices that a roll cell of the
 * rows beside it uses are posed in one batch and seen. */
static void split_roll(const MeshGrid *grid, const CurlParams *pose, const MeshSplitView *view,
                       float thickness, MeshSplitScratch *sc)
{
    uint32_t nx = grid->nx, ny = grid->ny;
    MeshCurlCache cache;
    cache.have = MESH_CURL_CACHED_NOTHING; /* the rest is written before it is read */
    double *xy = sc->batch, *pos = xy + 2 * (size_t)nx, *nrm = pos + 3 * (size_t)nx;
    for (uint32_t r = 0; r < ny; r++) {
        uint32_t lo = nx, hi = 0; /* the vertices of the roll's cells either side of the row */
        for (uint32_t j = r ? r - 1 : 0; j <= r && j + 1 < ny; j++)
            for (uint32_t i = 0; i + 1 < nx; i++)
                if (sc->cells[(size_t)j * (nx - 1) + i] == CELL_ROLL) {
                    lo = i < lo ? i : lo;
                    hi = i + 2 > hi ? i + 2 : hi;
                }
        for (uint32_t i = lo; i < hi; i++) {
            size_t k = (size_t)r * nx + i;
            xy[2 * (i - lo)] = grid->rest_x[k], xy[2 * (i - lo) + 1] = grid->rest_y[k];
        }
        if (lo < hi)
            mesh_curl_points_cached(pose, &cache, hi - lo, xy, pos, nrm);
        float *row = sc->rows + (size_t)(r & 1) * nx * SEEN_FIELDS;
        for (uint32_t i = lo; i < hi; i++)
            seen(view, &pos[3 * (i - lo)], &nrm[3 * (i - lo)], thickness,
                 row + (size_t)i * SEEN_FIELDS);
        if (r > 0)
            roll_row(grid, r - 1, sc->rows, sc->cells);
    }
}

/* Writes the cells of the class `cls` to `out` in the grid's order; returns how many indices. */
static size_t write_cells(const MeshGrid *grid, const unsigned char *cells, int cls, uint32_t *out)
{
    size_t written = 0, count = (size_t)(grid->nx - 1) * (grid->ny - 1);
    for (size_t c = 0; c < count; c++) {
        if (cells[c] != cls)
            continue;
        for (int k = 0; k < 6; k++)
            out[written + (size_t)k] = grid->indices[6 * c + (size_t)k];
        written += 6;
    }
    return written;
}

/* Whether vertex x of a flat run's edge is a corner of a triangle of cell row `other` (the row
 * across that edge): it is, unless the cells either side of it there are flat too, and so the
 * inside of a run of that row, which has no vertex there either. A run's edge through every such
 * vertex meets its neighbours' edges vertex to vertex: no T-junction, where rasterising the two
 * sides' edges apart could leave a pixel between them uncovered. */
static bool used_across(const MeshGrid *grid, const unsigned char *cells, uint32_t other,
                        uint32_t x)
{
    uint32_t cx = grid->nx - 1;
    const unsigned char *row = cells + (size_t)other * cx;
    return !(x > 0 && x < cx && row[x - 1] == CELL_MERGED && row[x] == CELL_MERGED);
}

/* A flat run's edge on vertex row r, from x0 to x1: the vertices on it that a triangle across it
 * uses, ends included, into `xs`; returns how many. */
static uint32_t run_edge(const MeshGrid *grid, const unsigned char *cells, uint32_t other,
                         uint32_t x0, uint32_t x1, uint32_t *xs)
{
    uint32_t n = 0;
    xs[n++] = x0;
    for (uint32_t x = x0 + 1; x < x1; x++)
        if (used_across(grid, cells, other, x))
            xs[n++] = x;
    xs[n++] = x1;
    return n;
}

/* The flat cells whose corners' normals are the plane's own merged into runs: the device gives a
 * vertex the mean of its triangles' normals, so a vertex beside the roll has one of its own,
 * which a run's triangle would spread over the whole run (a band of other light along the roll).
 * A flat cell whose eight neighbours are flat has four such corners. */
static void merge_flat(const MeshGrid *grid, unsigned char *cells)
{
    uint32_t cx = grid->nx - 1, cy = grid->ny - 1;
    /* flat cells lie MESH_SPLIT_RING cells in: each has its eight neighbours */
    for (uint32_t j = 1; j + 1 < cy; j++)
        for (uint32_t i = 1; i + 1 < cx; i++) {
            bool flat = true;
            for (uint32_t y = j - 1; y <= j + 1 && flat; y++)
                for (uint32_t x = i - 1; x <= i + 1 && flat; x++) {
                    unsigned char c = cells[(size_t)y * cx + x];
                    flat = c == CELL_PLAIN || c == CELL_MERGED;
                }
            if (flat)
                cells[(size_t)j * cx + i] = CELL_MERGED;
        }
}

/* The merged cells of cell row j, each run of them as few triangles as its neighbours allow: a flat
 * run lies in one plane (before the fold, or past the roll: a run of each kind has the roll's
 * cells between), so the grid's vertices inside it add nothing but triangles, which a CPU
 * rasteriser sets up one by one. Between its two edges' vertices (run_edge) the run is zipped:
 * each triangle takes the next vertex of the edge that reaches it first, wound as the grid's
 * cells. The run's ends are whole edges of the cells beside it. Returns how many indices. */
static size_t write_runs(const MeshGrid *grid, const unsigned char *cells, uint32_t j, uint32_t *xs,
                         uint32_t *out)
{
    uint32_t nx = grid->nx, cx = nx - 1;
    const unsigned char *row = cells + (size_t)j * cx;
    size_t written = 0;
    for (uint32_t i = 0; i < cx;) {
        if (row[i] != CELL_MERGED) {
            i++;
            continue;
        }
        uint32_t end = i;
        while (end < cx && row[end] == CELL_MERGED)
            end++;
        /* flat cells lie MESH_SPLIT_RING cells in: both rows across the run's edges exist */
        uint32_t *lo = xs, *hi = xs + nx;
        uint32_t nlo = run_edge(grid, cells, j - 1, i, end, lo);
        uint32_t nhi = run_edge(grid, cells, j + 1, i, end, hi);
        uint32_t base_lo = j * nx, base_hi = (j + 1) * nx, a = 0, b = 0;
        while (a + 1 < nlo || b + 1 < nhi) {
            bool along_lo = b + 1 >= nhi || (a + 1 < nlo && lo[a + 1] <= hi[b + 1]);
            uint32_t *t = out + written;
            if (along_lo) {
                t[0] = base_lo + lo[a], t[1] = base_lo + lo[a + 1], t[2] = base_hi + hi[b];
                a++;
            } else {
                t[0] = base_lo + lo[a], t[1] = base_hi + hi[b + 1], t[2] = base_hi + hi[b];
                b++;
            }
            written += 3;
        }
        i = end;
    }
    return written;
}

bool mesh_split_scratch_create(const MeshGrid *grid, MeshSplitScratch *out)
{
    memset(out, 0, sizeof *out);
    out->nx = grid->nx, out->ny = grid->ny;
    out->cells = malloc((size_t)(grid->nx - 1) * (grid->ny - 1));
    out->rows = malloc(2 * (size_t)grid->nx * SEEN_FIELDS * sizeof *out->rows);
    out->batch = malloc(8 * (size_t)grid->nx * sizeof *out->batch);
    out->edges = malloc(2 * (size_t)grid->nx * sizeof *out->edges);
    if (out->cells && out->rows && out->batch && out->edges)
        return true;
    mesh_split_scratch_destroy(out);
    return false;
}

void mesh_split_scratch_destroy(MeshSplitScratch *scratch)
{
    free(scratch->cells);
    free(scratch->rows);
    free(scratch->batch);
    free(scratch->edges);
    memset(scratch, 0, sizeof *scratch);
}

MeshSplit mesh_split_plain(const MeshGrid *grid, const CurlParams *pose, const MeshSplitView *view,
                           MeshSplitScratch *scratch, uint32_t *out)
{
    MeshSplit none = {0, 0};
    if (scratch->nx != grid->nx || scratch->ny != grid->ny)
        return none; /* made for another grid: every cell is the outline's */
    scratch->rolled = 0;
    MeshCurlAcross a;
    mesh_curl_across(pose, &a);
    /* a roll that stops short of a whole turn leaves its flat part at a slant */
    bool ends = !(pose->shape.v[3] > 0.0f && pose->shape.v[3] < 3.14159f);
    if (!ends && !a.flat)
        return none;
    classify(grid, &a, ends, scratch->cells);
    size_t count = (size_t)(grid->nx - 1) * (grid->ny - 1);
    if (view) {
        split_roll(grid, pose, view, view->thickness, scratch);
        keep_creases(grid, scratch);
    } else
        for (size_t c = 0; c < count; c++)
            scratch->cells[c] = scratch->cells[c] == CELL_ROLL ? CELL_OUTLINE : scratch->cells[c];
    /* The plain part row by row (its order does not matter: it is drawn unblended, its pixels
     * covered whole); the outline in the grid's order, drawn as before, so that where the roll's
     * edge pixels overlap they blend in the same order. */
    if (!scratch->unmerged)
        merge_flat(grid, scratch->cells);
    MeshSplit split = {0, 0};
    for (uint32_t j = 0; j + 1 < grid->ny; j++)
        split.plain += write_runs(grid, scratch->cells, j, scratch->edges, out + split.plain);
    split.plain += write_cells(grid, scratch->cells, CELL_PLAIN, out + split.plain);
    split.plain += write_cells(grid, scratch->cells, CELL_ROLL_PLAIN, out + split.plain);
    split.count = split.plain + write_cells(grid, scratch->cells, CELL_OUTLINE, out + split.plain);
    return split;
}
