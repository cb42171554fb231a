#include "split.h"

#include "curl.h"

#include <math.h>

static double sigma_at(const PageGrid *g, const MeshCurlAcross *a, uint32_t j, uint32_t i)
{
    size_t k = (size_t)j * g->nx + i;
    return mesh_curl_sigma(a, g->rest_x[k], g->rest_y[k]);
}

/* The first vertex of row j, in lo .. hi, whose sigma passes `flat_from` (rising along the row if
 * `rising`), by bisection: sigma is monotone over the part of a row past the fold. */
static uint32_t first_past(const PageGrid *g, const MeshCurlAcross *a, uint32_t j, uint32_t lo,
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
static void row_flat(const PageGrid *g, const MeshCurlAcross *a, uint32_t row, bool ends,
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

/* Writes the cells of the class `flat` (the flat ones, or the others) to `out` in the grid's
 * order; returns how many indices. */
static size_t write_cells(const PageGrid *grid, const MeshCurlAcross *a, bool ends, bool flat,
                          uint32_t *out)
{
    uint32_t nx = grid->nx, ny = grid->ny;
    size_t written = 0;
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
            if ((!ring && (a->flat || in_before || in_after)) != flat)
                continue;
            const uint32_t *tri = grid->indices + 6 * ((size_t)j * (nx - 1) + i);
            for (int k = 0; k < 6; k++)
                out[written + (size_t)k] = tri[k];
            written += 6;
        }
    }
    return written;
}

size_t mesh_split_flat(const PageGrid *grid, const CurlParams *pose, uint32_t *out)
{
    MeshCurlAcross a;
    mesh_curl_across(pose, &a);
    /* a roll that stops short of a whole turn leaves its flat part at a slant */
    bool ends = !(pose->shape.v[3] > 0.0f && pose->shape.v[3] < 3.14159f);
    if (!ends && !a.flat)
        return 0;
    /* Each part in the grid's order: the rest drawn as before, so that where the roll's edge
     * pixels overlap they blend in the same order. */
    size_t flat = write_cells(grid, &a, ends, true, out);
    write_cells(grid, &a, ends, false, out + flat);
    return flat;
}
