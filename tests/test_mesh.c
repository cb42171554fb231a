/* SPDX-License-Identifier: MIT */
/* The CPU side of pagecurl against properties derived here, never against numbers copied from a
 * run: the grid (mesh/grid.c), the developable curl and its drag mapping (mesh/curl.c,
 * mesh/curl_drag.c, docs/curl.md), the reference normals (mesh/normals.c) and the scripted
 * turn (app/input.c). No Vulkan.
 * Loops keep the worst case and CHECK it once, so a broken property prints one line per grid and
 * pose, naming its worst offender, instead of thousands. */
#include "../app/input.h"
#include "../mesh/curl.h"
#include "../mesh/grid.h"
#include "../mesh/normals.h"
#include "../mesh/parallel.h"
#include "../mesh/reach.h"
#include "../mesh/split.h"
#include "check.h"
#include "curl_drag_reference.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* The poses every curl property must hold at: the ends, the middle and both sides of it, for
 * bottom-corner, edge-middle and top-corner grabs and between. */
static const float POSE_T[] = {0.0f, 0.1f, 0.25f, 0.5f, 0.75f, 0.9f, 1.0f};
static const float POSE_G[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
#define N_POSE_T (sizeof POSE_T / sizeof POSE_T[0])
#define N_POSE_G (sizeof POSE_G / sizeof POSE_G[0])

/* Under the sanitizers, where a pose costs five times as much and CI's time is bounded, two
 * sweeps are thinned: the continuity sweep checks every tenth 1e-4 step of [0, 1], the drag
 * sample every other pointer of its 13 x 13 fan. Thinned, each still reaches every line and
 * branch of mesh/ that the whole of it does (gcov), and the plain build checks them all. */
#ifdef PAGECURL_SANITIZED
#define SWEEP_EVERY   10
#define DRAG_FAN_STEP 2
#else
#define SWEEP_EVERY   1
#define DRAG_FAN_STEP 1
#endif

typedef struct GridSize {
    uint32_t nx, ny;
    float width, height; /* 0: the defaults */
} GridSize;

static bool make_grid(CheckState *s, GridSize size, MeshGrid *grid)
{
    MeshGridDesc desc = {size.nx, size.ny, size.width, size.height};
    bool ok = mesh_grid_create(&desc, grid);
    CHECK(s, ok, "mesh_grid_create(%ux%u, %g x %g) failed", size.nx, size.ny, size.width,
          size.height);
    return ok;
}

static bool soa_alloc(MeshSoa3 *m, size_t n)
{
    m->x = malloc(n * sizeof(float));
    m->y = malloc(n * sizeof(float));
    m->z = malloc(n * sizeof(float));
    return m->x && m->y && m->z;
}

static void soa_free(MeshSoa3 *m)
{
    free(m->x);
    free(m->y);
    free(m->z);
    memset(m, 0, sizeof *m);
}

static MeshSoa3Const soa_const(MeshSoa3 m)
{
    return (MeshSoa3Const){m.x, m.y, m.z};
}

/* The signed distance of a flat point past the fold line (s of docs/curl.md), computed from
 * the pose alone so that the tests do not trust the map to tell them where its pieces are. */
static double fold_s(const CurlParams *p, double x, double y)
{
    return (x - p->fold.v[0]) * p->fold.v[2] + (y - p->fold.v[1]) * p->fold.v[3];
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double len3(const double a[3])
{
    return sqrt(dot3(a, a));
}

static void soa_get(MeshSoa3 m, size_t k, double out[3])
{
    out[0] = m.x[k], out[1] = m.y[k], out[2] = m.z[k];
}

/* Whether the coarse triangle (a, b, c), in any rotation, is in the coarse mesh. */
static bool coarse_has(const MeshGrid *g, uint32_t a, uint32_t b, uint32_t c)
{
    for (size_t t = 0; t < g->coarse_triangle_count; t++) {
        const uint32_t *tri = &g->coarse_indices[3 * t];
        for (int r = 0; r < 3; r++)
            if (tri[r] == a && tri[(r + 1) % 3] == b && tri[(r + 2) % 3] == c)
                return true;
    }
    return false;
}

/* The coarse triangles with adjacency: each the coarse triangle at 0, 2, 4; across each edge
 * (p, q) the vertex r of the triangle (q, p, r) of the coarse mesh, or p itself where the edge
 * lies on the page's edge. */
static void check_coarse_adjacency(CheckState *s, const MeshGrid *g)
{
    size_t wrong = 0, unmatched = 0, inner = 0;
    for (size_t t = 0; t < g->coarse_triangle_count; t++) {
        const uint32_t *tri = &g->coarse_indices[3 * t], *adj = &g->coarse_adjacency[6 * t];
        wrong += adj[0] != tri[0] || adj[2] != tri[1] || adj[4] != tri[2];
        for (int e = 0; e < 3; e++) {
            uint32_t p = adj[2 * e], q = adj[(2 * e + 2) % 6], r = adj[2 * e + 1];
            if (r == p) {
                /* on the page's edge: both ends on the same side of it */
                uint32_t pi = p % g->nx, pj = p / g->nx, qi = q % g->nx, qj = q / g->nx;
                bool side = (pi == qi && (pi == 0 || pi == g->nx - 1)) ||
                            (pj == qj && (pj == 0 || pj == g->ny - 1));
                inner += !side;
            } else {
                unmatched += !coarse_has(g, q, p, r);
            }
        }
    }
    CHECK(s, wrong == 0, "%ux%u: %zu adjacency triangles not the coarse ones", g->nx, g->ny, wrong);
    CHECK(s, unmatched == 0, "%ux%u: %zu adjacent vertices make no coarse triangle", g->nx, g->ny,
          unmatched);
    CHECK(s, inner == 0, "%ux%u: %zu edges inside the page said to be on its edge", g->nx, g->ny,
          inner);
}

/* The coarse mesh (the low tier's shadow pass): on the grid's vertices, every step-th row and
 * column and the last, at most MESH_COARSE_CELLS cells across, covering the page once: its
 * triangles, wound like the grid's (counter-clockwise from +z), add up to the page's area. */
static void test_grid_coarse(CheckState *s)
{
    static const GridSize sizes[] = {
        {2, 2, 0.0f, 0.0f},   {3, 7, 2.5f, 1.5f},     {64, 90, 0.0f, 0.0f},  {65, 33, 0.0f, 0.0f},
        {100, 3, 1.0f, 0.5f}, {257, 130, 0.0f, 0.0f}, {33, 1000, 0.0f, 0.0f}};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        GridSize sz = sizes[n];
        MeshGrid g;
        if (!make_grid(s, sz, &g))
            continue;
        uint32_t st = g.coarse_step;
        uint32_t across = (g.nx - 1 + st - 1) / st, along = (g.ny - 1 + st - 1) / st;
        CHECK(s,
              st >= 1 && across <= MESH_COARSE_CELLS && along <= 2 * MESH_COARSE_CELLS &&
                  (st == 1 || across > MESH_COARSE_CELLS / 2 || along > MESH_COARSE_CELLS),
              "%ux%u: coarse step %u gives %u x %u cells", sz.nx, sz.ny, st, across, along);
        size_t bad = 0, off_lattice = 0, clockwise = 0;
        double area = 0.0;
        for (size_t t = 0; t < g.coarse_triangle_count; t++) {
            const uint32_t *tri = &g.coarse_indices[3 * t];
            for (int c = 0; c < 3; c++) {
                bad += tri[c] >= g.vertex_count;
                uint32_t i = tri[c] % g.nx, j = tri[c] / g.nx;
                off_lattice += (i % st && i != g.nx - 1) || (j % st && j != g.ny - 1);
            }
            if (bad)
                break;
            double ax = g.rest_x[tri[0]], ay = g.rest_y[tri[0]];
            double cross = (g.rest_x[tri[1]] - ax) * (g.rest_y[tri[2]] - ay) -
                           (g.rest_y[tri[1]] - ay) * (g.rest_x[tri[2]] - ax);
            clockwise += cross <= 0.0;
            area += 0.5 * cross;
        }
        CHECK(s, bad == 0, "%ux%u: coarse indices out of range", sz.nx, sz.ny);
        CHECK(s, off_lattice == 0, "%ux%u: %zu coarse vertices off the step-%u lattice", sz.nx,
              sz.ny, off_lattice, st);
        CHECK(s, clockwise == 0, "%ux%u: %zu coarse triangles not counter-clockwise", sz.nx, sz.ny,
              clockwise);
        double page = (double)g.width * g.height;
        CHECK(s, fabs(area - page) <= 1e-5 * page, "%ux%u: coarse triangles cover %.9g of %.9g",
              sz.nx, sz.ny, area, page);
        check_coarse_adjacency(s, &g);
        mesh_grid_destroy(&g);
    }
}

/* 1. Sizes, rest layout, index range, and the size limits. */
static void test_grid_counts(CheckState *s)
{
    static const GridSize sizes[] = {
        {2, 2, 0.0f, 0.0f}, {3, 7, 2.5f, 1.5f}, {64, 90, 0.0f, 0.0f}, {17, 5, 0.75f, 3.0f}};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        GridSize sz = sizes[n];
        MeshGrid g;
        if (!make_grid(s, sz, &g))
            continue;
        float W = sz.width > 0.0f ? sz.width : MESH_PAGE_WIDTH;
        float H = sz.height > 0.0f ? sz.height : MESH_PAGE_HEIGHT;
        CHECK(s, g.nx == sz.nx && g.ny == sz.ny, "%ux%u: stored as %ux%u", sz.nx, sz.ny, g.nx,
              g.ny);
        CHECK(s, g.width == W && g.height == H, "%ux%u: page %g x %g, want %g x %g", sz.nx, sz.ny,
              g.width, g.height, W, H);
        CHECK(s, g.vertex_count == (size_t)sz.nx * sz.ny, "%ux%u: vertex_count %zu", sz.nx, sz.ny,
              g.vertex_count);
        CHECK(s, g.triangle_count == 2 * (size_t)(sz.nx - 1) * (sz.ny - 1),
              "%ux%u: triangle_count %zu", sz.nx, sz.ny, g.triangle_count);

        /* u, v are within float rounding of i/(nx-1), j/(ny-1), and the rest position is exactly
         * the float product the shaders will also form from the UVs. */
        double worst_uv = 0.0;
        size_t bad_rest = 0;
        for (uint32_t j = 0; j < g.ny; j++) {
            for (uint32_t i = 0; i < g.nx; i++) {
                size_t k = (size_t)j * g.nx + i;
                double du = fabs(g.u[k] - (double)i / (g.nx - 1));
                double dv = fabs(g.v[k] - (double)j / (g.ny - 1));
                worst_uv = fmax(worst_uv, fmax(du, dv));
                if (g.rest_x[k] != g.u[k] * W || g.rest_y[k] != g.v[k] * H)
                    bad_rest++;
            }
        }
        CHECK(s, worst_uv <= FLT_EPSILON, "%ux%u: UV off the lattice by %g", sz.nx, sz.ny,
              worst_uv);
        CHECK(s, bad_rest == 0, "%ux%u: %zu rest positions differ from (u W, v H)", sz.nx, sz.ny,
              bad_rest);
        size_t last = g.vertex_count - 1;
        CHECK(s, g.rest_x[0] == 0.0f && g.rest_y[0] == 0.0f, "%ux%u: first corner (%g, %g)", sz.nx,
              sz.ny, g.rest_x[0], g.rest_y[0]);
        CHECK(s, g.rest_x[last] == W && g.rest_y[last] == H,
              "%ux%u: last corner (%.9g, %.9g), want (%.9g, %.9g)", sz.nx, sz.ny, g.rest_x[last],
              g.rest_y[last], W, H);

        size_t out_of_range = 0, repeated = 0;
        for (size_t t = 0; t < g.triangle_count; t++) {
            const uint32_t *tri = &g.indices[3 * t];
            for (int c = 0; c < 3; c++)
                out_of_range += tri[c] >= g.vertex_count;
            repeated += tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2];
        }
        CHECK(s, out_of_range == 0, "%ux%u: %zu indices out of range", sz.nx, sz.ny, out_of_range);
        CHECK(s, repeated == 0, "%ux%u: %zu triangles repeat a vertex", sz.nx, sz.ny, repeated);
        mesh_grid_destroy(&g);
    }

    static const uint32_t bad[][2] = {
        {1, 2}, {2, 1}, {0, 5}, {5, 0}, {MESH_GRID_MAX_SIDE + 1, 2}, {2, MESH_GRID_MAX_SIDE + 1}};
    for (size_t n = 0; n < sizeof bad / sizeof bad[0]; n++) {
        MeshGridDesc desc = {bad[n][0], bad[n][1], 0.0f, 0.0f};
        MeshGrid g;
        memset(&g, 0xAB, sizeof g); /* garbage, so that "zeroed on failure" is observable */
        bool ok = mesh_grid_create(&desc, &g);
        CHECK(s, !ok, "mesh_grid_create accepted %ux%u", desc.nx, desc.ny);
        CHECK(s, g.vertex_count == 0 && g.indices == NULL && g.rest_x == NULL,
              "%ux%u: *out not zeroed on failure", desc.nx, desc.ny);
        if (ok)
            mesh_grid_destroy(&g);
    }
    /* The limit itself is inside the range. */
    MeshGrid g;
    MeshGridDesc edge = {MESH_GRID_MAX_SIDE, 2, 0.0f, 0.0f};
    bool ok = mesh_grid_create(&edge, &g);
    CHECK(s, ok, "mesh_grid_create rejected %ux2, the largest side", MESH_GRID_MAX_SIDE);
    if (ok)
        mesh_grid_destroy(&g);
}

/* 2. Counter-clockwise from +z: the renderer's culling and every normal's sign depend on it. */
static void test_winding(CheckState *s)
{
    static const GridSize sizes[] = {
        {2, 2, 0.0f, 0.0f}, {3, 7, 2.5f, 1.5f}, {64, 90, 0.0f, 0.0f}, {17, 5, 0.75f, 3.0f}};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        MeshGrid g;
        if (!make_grid(s, sizes[n], &g))
            continue;
        size_t not_up = 0, first = 0;
        for (size_t t = 0; t < g.triangle_count; t++) {
            const uint32_t *tri = &g.indices[3 * t];
            double e1[3] = {(double)g.rest_x[tri[1]] - g.rest_x[tri[0]],
                            (double)g.rest_y[tri[1]] - g.rest_y[tri[0]], 0.0};
            double e2[3] = {(double)g.rest_x[tri[2]] - g.rest_x[tri[0]],
                            (double)g.rest_y[tri[2]] - g.rest_y[tri[0]], 0.0};
            double c[3];
            cross3(e1, e2, c);
            if (!(c[2] > 0.0 && c[0] == 0.0 && c[1] == 0.0)) {
                if (not_up++ == 0)
                    first = t;
            }
        }
        CHECK(s, not_up == 0, "%ux%u: %zu triangles not facing +z, first %zu", g.nx, g.ny, not_up,
              first);

        MeshSoa3 nrm;
        float *zero = calloc(g.vertex_count, sizeof(float));
        if (soa_alloc(&nrm, g.vertex_count) && zero) {
            mesh_normals_reference(&g, (MeshSoa3Const){g.rest_x, g.rest_y, zero}, nrm);
            size_t off = 0, first_v = 0;
            for (size_t k = 0; k < g.vertex_count; k++) {
                if (!(nrm.x[k] == 0.0f && nrm.y[k] == 0.0f && nrm.z[k] == 1.0f)) {
                    if (off++ == 0)
                        first_v = k;
                }
            }
            CHECK(s, off == 0,
                  "%ux%u: %zu flat-grid reference normals not (0,0,1), first %zu = (%g, "
                  "%g, %.9g)",
                  g.nx, g.ny, off, first_v, nrm.x[first_v], nrm.y[first_v], nrm.z[first_v]);
        } else {
            CHECK(s, false, "out of memory");
        }
        free(zero);
        soa_free(&nrm);
        mesh_grid_destroy(&g);
    }
}

/* 3. The fixed gather order must name exactly the triangles that hold the vertex: one missing
 * or doubled would skew the GPU normals while the CPU reference loop still looks right. */
#define MAX_INCIDENT 16 /* more than any vertex can have, so overflow is itself a finding */

static void test_incident_triangles(CheckState *s)
{
    static const GridSize sizes[] = {
        {2, 2, 0.0f, 0.0f}, {3, 7, 0.0f, 0.0f}, {17, 5, 0.0f, 0.0f}, {64, 90, 0.0f, 0.0f}};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        MeshGrid g;
        if (!make_grid(s, sizes[n], &g))
            continue;
        /* The brute-force incidence: one scan of the index buffer. */
        uint32_t *list = malloc(g.vertex_count * MAX_INCIDENT * sizeof(uint32_t));
        int *count = calloc(g.vertex_count, sizeof(int));
        if (!list || !count) {
            CHECK(s, false, "out of memory");
            free(list);
            free(count);
            mesh_grid_destroy(&g);
            continue;
        }
        for (size_t t = 0; t < g.triangle_count; t++) {
            for (int c = 0; c < 3; c++) {
                uint32_t v = g.indices[3 * t + c];
                if (count[v] < MAX_INCIDENT)
                    list[(size_t)v * MAX_INCIDENT + count[v]] = (uint32_t)t;
                count[v]++;
            }
        }
        size_t mismatched = 0, wrong_valence = 0;
        uint32_t mi = 0, mj = 0;
        for (uint32_t j = 0; j < g.ny; j++) {
            for (uint32_t i = 0; i < g.nx; i++) {
                size_t v = (size_t)j * g.nx + i;
                uint32_t got[6];
                int m = mesh_grid_vertex_triangles(&g, i, j, got);
                bool same = m == count[v] && m <= 6;
                for (int a = 0; same && a < m; a++) {
                    bool found = false;
                    for (int b = 0; b < count[v]; b++)
                        found |= got[a] == list[v * MAX_INCIDENT + b];
                    for (int b = 0; b < a; b++)
                        same &= got[b] != got[a]; /* each triangle once */
                    same &= found;
                }
                if (!same && mismatched++ == 0)
                    mi = i, mj = j;

                bool left = i == 0, right = i == g.nx - 1, bottom = j == 0, top = j == g.ny - 1;
                int want;
                if ((left && bottom) || (right && top))
                    want = 2; /* the corners the fixed diagonal passes through */
                else if ((right && bottom) || (left && top))
                    want = 1;
                else if (left || right || bottom || top)
                    want = 3;
                else
                    want = 6;
                wrong_valence += m != want;
            }
        }
        CHECK(s, mismatched == 0,
              "%ux%u: %zu vertices whose gather set differs from the index buffer, first (%u,%u)",
              g.nx, g.ny, mismatched, mi, mj);
        CHECK(s, wrong_valence == 0, "%ux%u: %zu vertices with the wrong triangle count", g.nx,
              g.ny, wrong_valence);
        free(list);
        free(count);
        mesh_grid_destroy(&g);
    }
}

/* A page posed for a check: its grid, its positions for the pose, the pose and its (t, g). */
typedef struct Posed {
    const MeshGrid *g;
    MeshSoa3 p;
    CurlParams cp;
    float t, gg;
} Posed;

typedef void (*PosedCheck)(CheckState *s, const Posed *posed, void *user);

/* Runs `check` on every grid of `sizes` at every tested pose (POSE_T x POSE_G). */
static void for_each_pose(CheckState *s, const GridSize *sizes, size_t count, PosedCheck check,
                          void *user)
{
    for (size_t n = 0; n < count; n++) {
        MeshGrid g;
        if (!make_grid(s, sizes[n], &g))
            continue;
        MeshSoa3 p;
        if (!soa_alloc(&p, g.vertex_count)) {
            CHECK(s, false, "out of memory");
            soa_free(&p);
            mesh_grid_destroy(&g);
            continue;
        }
        for (size_t a = 0; a < N_POSE_T; a++) {
            for (size_t b = 0; b < N_POSE_G; b++) {
                Posed posed = {&g, p, mesh_curl_pose(POSE_T[a], POSE_G[b], g.width, g.height),
                               POSE_T[a], POSE_G[b]};
                mesh_curl_apply(&posed.cp, g.rest_x, g.rest_y, g.vertex_count, p.x, p.y, p.z);
                check(s, &posed, user);
            }
        }
        soa_free(&p);
        mesh_grid_destroy(&g);
    }
}

static void check_pose(CheckState *s, const Posed *q, void *user)
{
    (void)user;
    const MeshGrid *g = q->g;
    MeshSoa3 p = q->p;
    if (q->t == 0.0f) {
        size_t moved = 0;
        for (size_t k = 0; k < g->vertex_count; k++)
            moved += p.x[k] != g->rest_x[k] || p.y[k] != g->rest_y[k] || p.z[k] != 0.0f;
        CHECK(s, moved == 0, "%ux%u g=%g: %zu vertices moved at t = 0", g->nx, g->ny, q->gg, moved);
    }
    double spine = 0.0, zmin = 0.0;
    for (uint32_t j = 0; j < g->ny; j++) {
        size_t k = (size_t)j * g->nx;
        spine = fmax(spine, fmax(fabs((double)p.x[k] - g->rest_x[k]),
                                 fmax(fabs((double)p.y[k] - g->rest_y[k]), fabs((double)p.z[k]))));
    }
    /* Between the vertices too: the spine is a line, not a set of points. */
    for (int m = 0; m <= 1000; m++) {
        double y = g->height * m / 1000.0, pos[3], nrm[3];
        mesh_curl_point(&q->cp, 0.0, y, pos, nrm);
        spine = fmax(spine, fmax(fabs(pos[0]), fmax(fabs(pos[1] - y), fabs(pos[2]))));
    }
    for (size_t k = 0; k < g->vertex_count; k++)
        zmin = fmin(zmin, p.z[k]);
    CHECK(s, spine <= 1e-6, "%ux%u t=%g g=%g: spine moved by %g", g->nx, g->ny, q->t, q->gg, spine);
    /* -1e-9 W: a turned-flat part's height is 0 only up to double rounding (~1e-16); a real
     * dive under the stack is a fraction of the roll radius. */
    CHECK(s, zmin >= -1e-9, "%ux%u t=%g g=%g: z down to %g, below the stack", g->nx, g->ny, q->t,
          q->gg, zmin);
}

/* 4. The pose: flat at t = 0, the spine glued, nothing below the stack, on ordinary pages and
 * on odd proportions (a wide short page, a page eight widths tall) where the fold's reach to the
 * spine ends is most constrained. */
static void test_curl_pose(CheckState *s)
{
    static const GridSize sizes[] = {
        {64, 90, 0.0f, 0.0f}, {33, 47, 0.0f, 0.0f}, {7, 5, 2.0f, 1.5f}, {9, 81, 1.0f, 8.0f}};
    for_each_pose(s, sizes, sizeof sizes / sizeof sizes[0], check_pose, NULL);
}

static void check_stretch(CheckState *s, const Posed *q, void *user)
{
    double *worst_all = user;
    const MeshGrid *g = q->g;
    MeshSoa3 p = q->p;
    double worst = -1.0;
    uint32_t wa = 0, wb = 0;
    for (size_t tri = 0; tri < g->triangle_count; tri++) {
        for (int e = 0; e < 3; e++) {
            uint32_t va = g->indices[3 * tri + e], vb = g->indices[3 * tri + (e + 1) % 3];
            double rest[3] = {(double)g->rest_x[vb] - g->rest_x[va],
                              (double)g->rest_y[vb] - g->rest_y[va], 0.0};
            double now[3] = {(double)p.x[vb] - p.x[va], (double)p.y[vb] - p.y[va],
                             (double)p.z[vb] - p.z[va]};
            double grow = len3(now) / len3(rest) - 1.0;
            if (grow > worst)
                worst = grow, wa = va, wb = vb;
        }
    }
    *worst_all = fmax(*worst_all, worst);
    CHECK(s, worst <= 1e-4, "%ux%u t=%g g=%g: edge %u-%u stretched by %g relative", g->nx, g->ny,
          q->t, q->gg, wa, wb, worst);
}

/* 5. A chord of a bent sheet is never longer than the sheet between its ends: an edge that grew
 * is a stretch. 1e-4 relative is far above float rounding of ~1/60-wide edges (~1e-5). */
static void test_no_stretch(CheckState *s)
{
    static const GridSize sizes[] = {
        {64, 90, 0.0f, 0.0f}, {33, 47, 0.0f, 0.0f}, {9, 81, 1.0f, 8.0f}};
    double worst_all = 0.0;
    for_each_pose(s, sizes, sizeof sizes / sizeof sizes[0], check_stretch, &worst_all);
    printf("no stretch: worst edge growth %.3g relative\n", worst_all);
}

/* 6. The continuous map is an isometry (first fundamental form = identity) and its analytic
 * normal is the true one. Central differences with h = 1e-5 are accurate to ~h^2 k^2 ~ 1e-7 for
 * the tightest curvature here. The profile's curvature is piecewise constant (ramp steps), so the
 * tangent is continuous everywhere and no band is strictly needed; the 1e-4 bands around the fold
 * line (s = 0) and s = pi r are kept as a cheap guard where the steps crowd together. */
static void test_analytic_isometry(CheckState *s)
{
    const double W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT, h = 1e-5;
    const int SX = 41, SY = 57;
    size_t in_band = 0, tested = 0;
    double worst_metric = 0.0, worst_normal = 0.0;
    for (size_t a = 0; a < N_POSE_T; a++) {
        for (size_t b = 0; b < N_POSE_G; b++) {
            float t = POSE_T[a], gg = POSE_G[b];
            CurlParams cp = mesh_curl_pose(t, gg, (float)W, (float)H);
            double r = cp.shape.v[0];
            /* The roll has room only strictly inside the turn: r = 0 flat and fully turned. */
            CHECK(s, (t > 0.0f && t < 1.0f) ? r > 0.0 : r == 0.0, "t=%g g=%g: radius %g", t, gg, r);
            double metric = 0.0, normal = 0.0, fx = 0, fy = 0;
            for (int jy = 0; jy < SY; jy++) {
                for (int ix = 0; ix < SX; ix++) {
                    double x = W * ix / (SX - 1), y = H * jy / (SY - 1);
                    double sv = fold_s(&cp, x, y);
                    if (fabs(sv) < 1e-4 || fabs(sv - PI * r) < 1e-4)
                        continue;
                    double pxp[3], pxm[3], pyp[3], pym[3], pos[3], nrm[3], unused[3];
                    mesh_curl_point(&cp, x + h, y, pxp, unused);
                    mesh_curl_point(&cp, x - h, y, pxm, unused);
                    mesh_curl_point(&cp, x, y + h, pyp, unused);
                    mesh_curl_point(&cp, x, y - h, pym, unused);
                    mesh_curl_point(&cp, x, y, pos, nrm);
                    double dx[3], dy[3], c[3];
                    for (int k = 0; k < 3; k++) {
                        dx[k] = (pxp[k] - pxm[k]) / (2.0 * h);
                        dy[k] = (pyp[k] - pym[k]) / (2.0 * h);
                    }
                    double e =
                        fmax(fabs(len3(dx) - 1.0), fmax(fabs(len3(dy) - 1.0), fabs(dot3(dx, dy))));
                    cross3(dx, dy, c);
                    double cl = len3(c), dn = 0.0;
                    for (int k = 0; k < 3; k++)
                        dn = fmax(dn, fabs(c[k] / cl - nrm[k]));
                    if (e > metric)
                        metric = e, fx = x, fy = y;
                    if (dn > normal)
                        normal = dn;
                    tested++;
                    in_band += sv > 0.0 && sv < PI * r;
                }
            }
            worst_metric = fmax(worst_metric, metric);
            worst_normal = fmax(worst_normal, normal);
            CHECK(s, metric <= 1e-6,
                  "t=%g g=%g: first fundamental form off identity by %g at (%g, %g)", t, gg, metric,
                  fx, fy);
            CHECK(s, normal <= 1e-5, "t=%g g=%g: analytic normal off the true one by %g", t, gg,
                  normal);
        }
    }
    /* Guard against a vacuous pass: the rolled band itself must have been sampled. */
    CHECK(s, in_band > 100, "only %zu of %zu samples on the roll", in_band, tested);
    printf("analytic map: %zu samples (%zu on the roll), worst metric error %.3g, worst normal "
           "error %.3g\n",
           tested, in_band, worst_metric, worst_normal);
}

/* mesh_curl_apex: the curl maps each ruling from the apex to a line from it (the low tier's vertex
 * shader takes the page's tangent frame from that, shaders/page.vert): at every sample of every
 * pose and of hinged boards, the tangents it gives (the rest ruling kappa p - a to kappa P - a,
 * its perpendicular to N times that) equal the map's own (central differences) within 1e-5, off
 * the crease of a fold of radius 0 (fully turned, a board's hinge). */
static void test_curl_apex(CheckState *s)
{
    const double W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT, h = 1e-5;
    const int SX = 21, SY = 29;
    double worst = 0.0;
    size_t tested = 0;
    for (size_t a = 0; a < N_POSE_T + 3; a++) {
        for (size_t b = 0; b < (a < N_POSE_T ? N_POSE_G : 1); b++) {
            CurlParams cp = a < N_POSE_T ? mesh_curl_pose(POSE_T[a], POSE_G[b], (float)W, (float)H)
                                         : mesh_curl_hinge(0.5f + 1.0f * (float)(a - N_POSE_T));
            float ap[3];
            mesh_curl_apex(&cp, ap);
            double err = 0.0;
            for (int jy = 0; jy < SY; jy++) {
                for (int ix = 0; ix < SX; ix++) {
                    double x = W * ix / (SX - 1), y = H * jy / (SY - 1);
                    double rest[2] = {ap[2] * x - ap[0], ap[2] * y - ap[1]};
                    double rl = hypot(rest[0], rest[1]);
                    double pos[3], nrm[3], pxp[3], pxm[3], pyp[3], pym[3], unused[3];
                    mesh_curl_point(&cp, x, y, pos, nrm);
                    double ruling[3] = {ap[2] * pos[0] - ap[0], ap[2] * pos[1] - ap[1],
                                        ap[2] * pos[2]};
                    double pl = len3(ruling);
                    if (rl < 1e-3 || pl < 1e-3 || fabs(fold_s(&cp, x, y)) < 1e-4)
                        continue; /* at the apex no ruling to follow, on a crease no tangent */
                    mesh_curl_point(&cp, x + h, y, pxp, unused);
                    mesh_curl_point(&cp, x - h, y, pxm, unused);
                    mesh_curl_point(&cp, x, y + h, pyp, unused);
                    mesh_curl_point(&cp, x, y - h, pym, unused);
                    double tr[2] = {rest[0] / rl, rest[1] / rl}, br[2] = {-tr[1], tr[0]};
                    double tp[3], bp[3];
                    for (int k = 0; k < 3; k++)
                        tp[k] = ruling[k] / pl;
                    cross3(nrm, tp, bp);
                    for (int k = 0; k < 3; k++) {
                        double du = tr[0] * tp[k] + br[0] * bp[k];
                        double dv = tr[1] * tp[k] + br[1] * bp[k];
                        err = fmax(err, fabs(du - (pxp[k] - pxm[k]) / (2.0 * h)));
                        err = fmax(err, fabs(dv - (pyp[k] - pym[k]) / (2.0 * h)));
                    }
                    tested++;
                }
            }
            CHECK(s, err <= 1e-5, "pose %zu/%zu: the apex's frame off the curl's by %g", a, b, err);
            worst = fmax(worst, err);
        }
    }
    CHECK(s, tested > 1000, "only %zu samples away from the apex", tested);
    float flat[3];
    CurlParams none = mesh_curl_pose(0.0f, 0.5f, (float)W, (float)H);
    none.fold.v[0] = NAN;
    mesh_curl_apex(&none, flat);
    CHECK(s, flat[0] == 0.0f && flat[1] == 0.0f && flat[2] == 0.0f, "a flat pose's apex (%g %g %g)",
          flat[0], flat[1], flat[2]);
    printf("curl apex: %zu samples, the frame within %.3g of the curl's\n", tested, worst);
}

typedef struct NormalsTally {
    double worst_angle;
    size_t flat_tested;
} NormalsTally;

static void check_normals(CheckState *s, const Posed *q, void *user)
{
    NormalsTally *tally = user;
    const MeshGrid *g = q->g;
    MeshSoa3 reference = {0}, tri = {0}, gathered = {0};
    if (!soa_alloc(&reference, g->vertex_count) || !soa_alloc(&tri, g->triangle_count) ||
        !soa_alloc(&gathered, g->vertex_count)) {
        CHECK(s, false, "out of memory");
        goto done;
    }
    mesh_normals_reference(g, soa_const(q->p), reference);
    mesh_normals_triangles(g, soa_const(q->p), tri);
    mesh_normals_gather(g, soa_const(tri), gathered);
    double cw = g->width / (g->nx - 1), ch = g->height / (g->ny - 1);
    /* A cell's diagonal: no neighbour of a vertex is further, so at s <= -2 diagonals every
     * incident triangle lies wholly on the flat side. */
    double cell = sqrt(cw * cw + ch * ch);
    double angle = 0.0, unit = 0.0;
    size_t worst_v = 0, not_flat = 0;
    for (size_t k = 0; k < g->vertex_count; k++) {
        double a3[3], b3[3];
        soa_get(reference, k, a3);
        soa_get(gathered, k, b3);
        double d = mesh_normal_angle_deg(a3, b3);
        if (d > angle)
            angle = d, worst_v = k;
        unit = fmax(unit, fmax(fabs(len3(a3) - 1.0), fabs(len3(b3) - 1.0)));
        if (fold_s(&q->cp, g->rest_x[k], g->rest_y[k]) <= -2.0 * cell) {
            double pos[3], an[3];
            mesh_curl_point(&q->cp, g->rest_x[k], g->rest_y[k], pos, an);
            bool exact = an[0] == 0.0 && an[1] == 0.0 && an[2] == 1.0;
            for (int c = 0; c < 3; c++)
                exact &= a3[c] == an[c] && b3[c] == an[c];
            not_flat += !exact;
            tally->flat_tested++;
        }
    }
    tally->worst_angle = fmax(tally->worst_angle, angle);
    CHECK(s, angle <= 1e-4,
          "%ux%u t=%g g=%g: reference and two-pass normals %g deg apart at vertex %zu", g->nx,
          g->ny, q->t, q->gg, angle, worst_v);
    CHECK(s, unit <= 1e-5, "%ux%u t=%g g=%g: a normal's length is off 1 by %g", g->nx, g->ny, q->t,
          q->gg, unit);
    CHECK(s, not_flat == 0,
          "%ux%u t=%g g=%g: %zu flat-side vertices whose normals are not exactly (0,0,1)", g->nx,
          g->ny, q->t, q->gg, not_flat);
done:
    soa_free(&reference);
    soa_free(&tri);
    soa_free(&gathered);
}

/* 7. The two CPU normal forms sum the same unit normals in different orders, so they differ
 * only by float rounding; on the flat side every incident triangle is exactly flat.
 * 1e-4 degrees: one ulp of a unit normal's component is ~3.4e-6 deg, plain x86-64 code reaches
 * 9.8e-6 deg and FMA contraction ~1.03e-5, so a tighter bound would test the compiler; a real
 * gather fault is far above it (a wrong slot: degrees; a dropped triangle: ~3e-3 deg). */
static void test_cpu_normals(CheckState *s)
{
    static const GridSize sizes[] = {{64, 90, 0.0f, 0.0f}, {7, 5, 0.0f, 0.0f}};
    NormalsTally tally = {0};
    for_each_pose(s, sizes, sizeof sizes / sizeof sizes[0], check_normals, &tally);
    CHECK(s, tally.flat_tested > 0, "no vertex was on the flat side at any pose");
    printf("cpu normals: worst reference vs two-pass angle %.3g deg, %zu flat-side vertex checks\n",
           tally.worst_angle, tally.flat_tested);
}

/* The largest distance, in page widths, between a grid's vertices at two poses. */
/* The grid curled by pose (t, gg) into `out`. */
static void posed(const MeshGrid *g, float t, float gg, MeshSoa3 out)
{
    CurlParams c = mesh_curl_pose(t, gg, g->width, g->height);
    mesh_curl_apply(&c, g->rest_x, g->rest_y, g->vertex_count, out.x, out.y, out.z);
}

/* The largest distance between a vertex in `a` and in `b`, in page widths. */
static double max_apart(const MeshGrid *g, MeshSoa3 a, MeshSoa3 b)
{
    double worst = 0.0;
    for (size_t k = 0; k < g->vertex_count; k++) {
        double pa[3], pb[3];
        soa_get(a, k, pa);
        soa_get(b, k, pb);
        double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        worst = fmax(worst, len3(d));
    }
    return worst / g->width;
}

static double max_move(const MeshGrid *g, float t1, float g1, float t2, float g2, MeshSoa3 a,
                       MeshSoa3 b)
{
    posed(g, t1, g1, a);
    posed(g, t2, g2, b);
    return max_apart(g, a, b);
}

/* 8. Continuity in t and g. The fold line sweeps ~W per unit t, turns by at most
 * pi * CURL_MAX_TILT ~ 1.6 rad per unit t (moving points up to ~H ~ 1.4 W away by ~2.2 W), the
 * radius grows by ~0.44 W per unit t, and the turned-over part moves twice as fast as the fold:
 * together under ~10 W per unit t, so a step of 1e-4 moves a point by at most ~1e-3 W. A jump
 * anywhere (a clamp that snaps, a piece boundary that does not meet) shows up far above the
 * 0.01 W bound. The g map turns the fold by at most 1 rad per unit g: smaller still.
 * Steps from the tested poses alone would miss a jump between them, so a coarser grid is also
 * swept over the whole of [0, 1] in steps of 1e-4, covering every interval (every tenth under the
 * sanitizers: SWEEP_EVERY). */
static void test_continuity(CheckState *s)
{
    static const GridSize sizes[] = {{33, 47, 0.0f, 0.0f}, {7, 5, 0.0f, 0.0f}};
    static const GridSize sweep_size = {9, 13, 0.0f, 0.0f};
    const float dt = 1e-4f;
    const int steps = 10000; /* 1 / dt */
    double worst_t = 0.0, worst_g = 0.0;
    for (size_t n = 0; n <= sizeof sizes / sizeof sizes[0]; n++) {
        bool sweep = n == sizeof sizes / sizeof sizes[0];
        MeshGrid g;
        if (!make_grid(s, sweep ? sweep_size : sizes[n], &g))
            continue;
        MeshSoa3 a = {0}, b = {0};
        if (!soa_alloc(&a, g.vertex_count) || !soa_alloc(&b, g.vertex_count)) {
            CHECK(s, false, "out of memory");
            goto next;
        }
        for (size_t i = 0; !sweep && i < N_POSE_T; i++) {
            for (size_t j = 0; j < N_POSE_G; j++) {
                float t = POSE_T[i], gg = POSE_G[j];
                /* Step inwards at the ends, where the pose clamps and a step out would be 0. */
                float t2 = t + dt <= 1.0f ? t + dt : t - dt;
                float g2 = gg + dt <= 1.0f ? gg + dt : gg - dt;
                double mt = max_move(&g, t, gg, t2, gg, a, b);
                double mg = max_move(&g, t, gg, t, g2, a, b);
                worst_t = fmax(worst_t, mt);
                worst_g = fmax(worst_g, mg);
                CHECK(s, mt <= 0.01, "%ux%u t=%g g=%g: t -> %g moved a vertex %g W", g.nx, g.ny, t,
                      gg, t2, mt);
                CHECK(s, mg <= 0.01, "%ux%u t=%g g=%g: g -> %g moved a vertex %g W", g.nx, g.ny, t,
                      gg, g2, mg);
            }
        }
        /* Each step's end is the next one's start: posed once, its buffer kept (the same
         * pose of the same float, so the same vertices). */
        for (size_t j = 0; sweep && j < N_POSE_G; j++) {
            double m = 0.0;
            float at = 0.0f;
            MeshSoa3 from = a, to = b;
            posed(&g, 0.0f, POSE_G[j], from);
            for (int k = 0; k < steps; k += SWEEP_EVERY) {
                if (k > 0 && SWEEP_EVERY > 1) /* not the step before's end */
                    posed(&g, (float)k / steps, POSE_G[j], from);
                posed(&g, (float)(k + 1) / steps, POSE_G[j], to);
                double d = max_apart(&g, from, to);
                if (d > m)
                    m = d, at = (float)k / steps;
                MeshSoa3 swap = from;
                from = to, to = swap;
            }
            worst_t = fmax(worst_t, m);
            CHECK(s, m <= 0.01, "sweep g=%g: t %g -> %g moved a vertex %g W", POSE_G[j], at,
                  at + dt, m);
        }
        for (size_t i = 0; sweep && i < N_POSE_T; i++) {
            double m = 0.0;
            float at = 0.0f;
            MeshSoa3 from = a, to = b;
            posed(&g, POSE_T[i], 0.0f, from);
            for (int k = 0; k < steps; k += SWEEP_EVERY) {
                if (k > 0 && SWEEP_EVERY > 1)
                    posed(&g, POSE_T[i], (float)k / steps, from);
                posed(&g, POSE_T[i], (float)(k + 1) / steps, to);
                double d = max_apart(&g, from, to);
                if (d > m)
                    m = d, at = (float)k / steps;
                MeshSoa3 swap = from;
                from = to, to = swap;
            }
            worst_g = fmax(worst_g, m);
            CHECK(s, m <= 0.01, "sweep t=%g: g %g -> %g moved a vertex %g W", POSE_T[i], at,
                  at + dt, m);
        }
    next:
        soa_free(&a);
        soa_free(&b);
        mesh_grid_destroy(&g);
    }
    printf("continuity: worst move per 1e-4 step: %.3g W in t, %.3g W in g\n", worst_t, worst_g);
}

/* 9. Input: the scripted turn (the pointer is mesh/flip.c's, tested in test_flip.c). */
static void test_input(CheckState *s)
{
    static const uint32_t frames[] = {2, 3, 10, 60, 240, 1001};
    static const float grabs[] = {0.0f, 0.3f, 1.0f};
    for (size_t n = 0; n < sizeof frames / sizeof frames[0]; n++) {
        for (size_t m = 0; m < sizeof grabs / sizeof grabs[0]; m++) {
            uint32_t N = frames[n];
            float gr = grabs[m];
            AppTurn first = app_input_scripted(0, N, gr), last = app_input_scripted(N - 1, N, gr);
            CHECK(s, first.t == 0.0f, "scripted(0, %u).t = %.9g", N, first.t);
            CHECK(s, last.t == 1.0f, "scripted(%u, %u).t = %.9g", N - 1, N, last.t);
            uint32_t bad = 0, at = 0;
            float prev = first.t;
            for (uint32_t f = 0; f < N; f++) {
                AppTurn tt = app_input_scripted(f, N, gr);
                if (tt.t < prev || tt.t < 0.0f || tt.t > 1.0f || tt.g != gr) {
                    if (bad++ == 0)
                        at = f;
                }
                prev = tt.t;
            }
            CHECK(s, bad == 0, "scripted over %u frames (g=%g): %u bad frames, first %u", N, gr,
                  bad, at);
        }
    }
}

/* 10. The drag mapping and the model over many grabs and pointers (curl_drag.c): the grabbed point
 * lands under the pointer; out-of-reach pointers go to the lens's boundary; every pose is an
 * isometry (first fundamental form, double, central differences h = 1e-6: error ~ h^2 k^2 with
 * k <= 1/(0.35 r), r >= 1e-3 below, so <= 1e-5^... far under 1e-6; the curvature steps of the ramp
 * are only C1 seams, where the central difference still sees a continuous tangent and errs by O(h^2
 * dk): no band is needed; creases (r = 0) are skipped), keeps z >= 0 and the spine, and its
 * analytic normals agree with the mesh's two-pass normals within cell diagonal x largest curvature
 * (each triangle's normal is the surface normal somewhere in the triangle, and the normal turns by
 * at most k per unit length, so a vertex's average is off by at most ~diag * k). */
static void drag_sample(double W, double H, int a, int b, int c, int e, MeshVec2 *grab,
                        MeshVec2 *ptr)
{
    grab->x = (float)(W * (0.3 + 0.7 * a / 4.0)), grab->y = (float)(H * b / 4.0);
    ptr->x = (float)(W * (-1.2 + 2.4 * c / 12.0)), ptr->y = (float)(H * (-0.2 + 1.4 * e / 12.0));
}

static void test_drag(CheckState *s)
{
    const double W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    MeshGrid g;
    if (!make_grid(s, (GridSize){33, 47, 0.0f, 0.0f}, &g))
        return;
    MeshSoa3 p = {0}, tri = {0}, nrm = {0}, p2 = {0};
    if (!soa_alloc(&p, g.vertex_count) || !soa_alloc(&tri, g.triangle_count) ||
        !soa_alloc(&nrm, g.vertex_count) || !soa_alloc(&p2, g.vertex_count)) {
        CHECK(s, false, "out of memory");
        goto done;
    }
    double cw = W / (g.nx - 1), ch = H / (g.ny - 1), diag = sqrt(cw * cw + ch * ch);
    double worst_land = 0, worst_bound = 0, worst_metric = 0, worst_stretch = -1, zmin = 0,
           spine = 0, worst_nratio = 0, worst_move = 0;
    size_t reachable = 0, unreachable = 0, curled = 0;
    for (int a = 0; a <= 4; a++)
        for (int b = 0; b <= 4; b++)
            for (int c = 0; c <= 12; c += DRAG_FAN_STEP)
                for (int e = 0; e <= 12; e += DRAG_FAN_STEP) {
                    MeshVec2 G, Q;
                    drag_sample(W, H, a, b, c, e, &G, &Q);
                    MeshVec2 R = mesh_curl_reach(G, Q, (float)W, (float)H);
                    double r0 = hypot(G.x, G.y), r1 = hypot(G.x, G.y - H);
                    double q0 = hypot(R.x, R.y) - r0, q1 = hypot(R.x, R.y - H) - r1;
                    if (R.x == Q.x && R.y == Q.y) {
                        reachable++;
                        CHECK(s, q0 <= 1e-6 && q1 <= 1e-6, "reach kept an outside pointer");
                    } else {
                        unreachable++;
                        /* on the boundary: inside both discs, on one circle */
                        worst_bound = fmax(worst_bound, fmax(fmax(q0, q1), fabs(fmax(q0, q1))));
                    }
                    CurlParams cp = mesh_curl_drag(G, Q, (float)W, (float)H);
                    double pos[3], an[3];
                    mesh_curl_point(&cp, G.x, G.y, pos, an);
                    worst_land = fmax(worst_land, hypot(pos[0] - R.x, pos[1] - R.y) / W);
                    mesh_curl_apply(&cp, g.rest_x, g.rest_y, g.vertex_count, p.x, p.y, p.z);
                    for (size_t k = 0; k < g.vertex_count; k++)
                        zmin = fmin(zmin, p.z[k]);
                    for (int m = 0; m <= 200; m++) {
                        double y = H * m / 200.0;
                        mesh_curl_point(&cp, 0.0, y, pos, an);
                        spine =
                            fmax(spine, fmax(fabs(pos[0]), fmax(fabs(pos[1] - y), fabs(pos[2]))));
                    }
                    for (size_t t = 0; t < g.triangle_count; t++)
                        for (int q = 0; q < 3; q++) {
                            uint32_t va = g.indices[3 * t + q], vb = g.indices[3 * t + (q + 1) % 3];
                            double rest = hypot((double)g.rest_x[vb] - g.rest_x[va],
                                                (double)g.rest_y[vb] - g.rest_y[va]);
                            double now[3] = {(double)p.x[vb] - p.x[va], (double)p.y[vb] - p.y[va],
                                             (double)p.z[vb] - p.z[va]};
                            worst_stretch = fmax(worst_stretch, len3(now) / rest - 1.0);
                        }
                    double r = cp.shape.v[0];
                    if (!(r >= 1e-3 * W))
                        continue; /* a crease (r = 0, the lens's edge): C0, no metric to test */
                    curled++;
                    double kmax = 1.0 / (0.35 * r);
                    mesh_normals_triangles(&g, soa_const(p), tri);
                    mesh_normals_gather(&g, soa_const(tri), nrm);
                    for (size_t k = 0; k < g.vertex_count; k++) {
                        double m3[3];
                        mesh_curl_point(&cp, g.rest_x[k], g.rest_y[k], pos, an);
                        soa_get(nrm, k, m3);
                        double ang = mesh_normal_angle_deg(an, m3) * PI / 180.0;
                        worst_nratio = fmax(worst_nratio, ang / (diag * kmax));
                    }
                    const double h = 1e-6;
                    for (int jy = 0; jy <= 20; jy++)
                        for (int ix = 0; ix <= 14; ix++) {
                            double x = W * (0.01 + 0.98 * ix / 14.0),
                                   y = H * (0.01 + 0.98 * jy / 20.0);
                            double xp[3], xm[3], yp[3], ym[3], dx[3], dy[3];
                            mesh_curl_point(&cp, x + h, y, xp, an);
                            mesh_curl_point(&cp, x - h, y, xm, an);
                            mesh_curl_point(&cp, x, y + h, yp, an);
                            mesh_curl_point(&cp, x, y - h, ym, an);
                            for (int k = 0; k < 3; k++)
                                dx[k] = (xp[k] - xm[k]) / (2 * h),
                                dy[k] = (yp[k] - ym[k]) / (2 * h);
                            worst_metric = fmax(worst_metric,
                                                fmax(fabs(len3(dx) - 1),
                                                     fmax(fabs(len3(dy) - 1), fabs(dot3(dx, dy)))));
                        }
                    /* Continuity in the pointer and the grab: a 1e-4 W step of either moves
                     * the fold and the apex by O(1e-4 W) times the Newton solution's
                     * sensitivity (~ a few) and turned-over points by twice that: bound 0.01 W,
                     * far under a jump (a flipped region moves by ~ its size). */
                    if (hypot(G.x - R.x, G.y - R.y) > 0.05 * W) {
                        MeshVec2 Q2 = {Q.x + 1e-4f, Q.y + 1e-4f}, G2 = {G.x - 1e-4f, G.y + 1e-4f};
                        for (int which = 0; which < 2; which++) {
                            CurlParams c2 = which ? mesh_curl_drag(G2, Q, (float)W, (float)H)
                                                  : mesh_curl_drag(G, Q2, (float)W, (float)H);
                            mesh_curl_apply(&c2, g.rest_x, g.rest_y, g.vertex_count, p2.x, p2.y,
                                            p2.z);
                            for (size_t k = 0; k < g.vertex_count; k++) {
                                double d3[3] = {(double)p2.x[k] - p.x[k], (double)p2.y[k] - p.y[k],
                                                (double)p2.z[k] - p.z[k]};
                                worst_move = fmax(worst_move, len3(d3) / W);
                            }
                        }
                    }
                }
    CHECK(s, reachable > 100 && unreachable > 100 && curled > 100,
          "vacuous drag sample: %zu reachable, %zu not, %zu curled", reachable, unreachable,
          curled);
    CHECK(s, worst_land <= 1e-4, "grabbed point lands %g W from the (projected) pointer",
          worst_land);
    CHECK(s, worst_bound <= 1e-6, "projected pointer %g W off the lens's boundary", worst_bound);
    CHECK(s, worst_metric <= 1e-6, "drag poses: first fundamental form off by %g", worst_metric);
    CHECK(s, worst_stretch <= 1e-4, "drag poses: an edge stretched by %g", worst_stretch);
    CHECK(s, zmin >= -1e-9, "drag poses: z down to %g (tolerance: see test_curl_pose)", zmin);
    CHECK(s, spine <= 1e-6, "drag poses: spine moved by %g", spine);
    CHECK(s, worst_nratio <= 1.0, "analytic vs mesh normals: %g x the bound diag * kmax",
          worst_nratio);
    CHECK(s, worst_move <= 0.01, "a 1e-4 W drag step moved a vertex %g W", worst_move);
    printf("drag: %zu reachable, %zu projected, %zu curled poses; landing %.3g W, boundary %.3g, "
           "metric %.3g, stretch %.3g, zmin %.3g, spine %.3g, normals %.3g of bound, step move "
           "%.3g W\n",
           reachable, unreachable, curled, worst_land, worst_bound, worst_metric, worst_stretch,
           zmin, spine, worst_nratio, worst_move);

    /* 11. Hostile inputs give finite poses and finite points, never NaN. */
    const float bad[] = {NAN, INFINITY, -INFINITY, -5.0f, 1e30f, -1e30f, 0.5f, 0.0f};
    size_t nonfinite = 0;
    for (size_t i = 0; i < 8; i++)
        for (size_t j = 0; j < 8; j++) {
            CurlParams cps[4] = {
                mesh_curl_pose(bad[i], bad[j], 1.0f, 1.4f),
                mesh_curl_pose(0.5f, 0.2f, bad[i], bad[j]),
                mesh_curl_drag((MeshVec2){bad[i], 0.3f}, (MeshVec2){bad[j], bad[i]}, 1.0f, 1.4f),
                mesh_curl_drag((MeshVec2){1.0f, bad[j]}, (MeshVec2){0.1f, 0.2f}, bad[i], 1.4f)};
            for (int q = 0; q < 4; q++) {
                mesh_curl_apply(&cps[q], g.rest_x, g.rest_y, g.vertex_count, p.x, p.y, p.z);
                for (size_t k = 0; k < g.vertex_count; k++)
                    nonfinite += !isfinite(p.x[k]) || !isfinite(p.y[k]) || !isfinite(p.z[k]);
            }
            /* a hand-made pose with garbage in every field */
            CurlParams junk = {{{bad[i], bad[j], bad[j], bad[i]}}, {{bad[j], bad[i], bad[j], 0}}};
            double pos[3], an[3];
            mesh_curl_point(&junk, 0.7, 0.3, pos, an);
            for (int k = 0; k < 3; k++)
                nonfinite += !isfinite(pos[k]) || !isfinite(an[k]);
        }
    CHECK(s, nonfinite == 0, "%zu non-finite outputs from hostile inputs", nonfinite);
done:
    soa_free(&p);
    soa_free(&tri);
    soa_free(&nrm);
    soa_free(&p2);
    mesh_grid_destroy(&g);
}

/* The angle the normal checks measure with: right, parallel, opposite, unnormalised, and an
 * angle of 1e-7 radians, which acos(dot) would round to zero. */
static void test_normal_angle(CheckState *s)
{
    const double x[3] = {1, 0, 0}, y[3] = {0, 2, 0}, mx[3] = {-3, 0, 0}, x2[3] = {5, 0, 0};
    const double tiny[3] = {cos(1e-7), sin(1e-7), 0};
    CHECK(s, fabs(mesh_normal_angle_deg(x, y) - 90.0) < 1e-12, "x, y: %g",
          mesh_normal_angle_deg(x, y));
    CHECK(s, mesh_normal_angle_deg(x, x2) == 0.0, "x, 5x: %g", mesh_normal_angle_deg(x, x2));
    CHECK(s, fabs(mesh_normal_angle_deg(x, mx) - 180.0) < 1e-12, "x, -3x: %g",
          mesh_normal_angle_deg(x, mx));
    double t = mesh_normal_angle_deg(x, tiny) * PI / 180.0;
    CHECK(s, fabs(t - 1e-7) < 1e-15, "1e-7 rad: %g", t);
}

/* The pose solve shares what its residuals have in common through a MeshCurlCache; the poses must
 * be those of the solve that works every residual out afresh, bit for bit (goldens and traces
 * depend on them), over many turns, grab heights, pages and free drags. And the cached map itself
 * must give mesh_curl_point's bits whatever pose the cache last saw: poses that share the roll
 * but not the fold's direction, or the direction but not the cone. */
static void test_pose_cache(CheckState *s)
{
    static const float pages[][2] = {{1.0f, 1.4f}, {0.7f, 1.0f}, {210.0f, 297.0f}, {1.0f, 1.0f}};
    size_t poses = 0, differ = 0;
    float bad_t = 0.0f, bad_g = 0.0f;
    for (size_t p = 0; p < sizeof pages / sizeof pages[0]; p++)
        for (int i = 0; i <= 100; i++)
            for (int k = 0; k <= 20; k++) {
                float t = i / 100.0f, g = k / 20.0f, W = pages[p][0], H = pages[p][1];
                CurlParams a = mesh_curl_pose(t, g, W, H), b = reference_curl_pose(t, g, W, H);
                poses++;
                if (memcmp(&a, &b, sizeof a) != 0)
                    differ++, bad_t = t, bad_g = g;
            }
    CHECK(s, differ == 0, "%zu of %zu poses differ from the uncached solve, e.g. t %g g %g", differ,
          poses, bad_t, bad_g);

    unsigned seed = 12345u;
    size_t drags = 0, drag_differ = 0;
    for (int k = 0; k < 2000; k++) {
        float v[4];
        for (int c = 0; c < 4; c++) {
            seed = seed * 1664525u + 1013904223u;
            v[c] = (float)(seed >> 8) / 16777216.0f;
        }
        MeshVec2 grab = {v[0], 1.4f * v[1]}, pointer = {3.0f * v[2] - 1.5f, 2.0f * v[3] - 0.3f};
        CurlParams a = mesh_curl_drag(grab, pointer, 1.0f, 1.4f);
        CurlParams b = reference_curl_drag(grab, pointer, 1.0f, 1.4f);
        drags++;
        drag_differ += memcmp(&a, &b, sizeof a) != 0;
    }
    CHECK(s, drag_differ == 0, "%zu of %zu drags differ from the uncached solve", drag_differ,
          drags);

    /* one cache through poses that share parts with each other in every combination */
    MeshCurlCache cache = {0};
    size_t points = 0, point_differ = 0;
    for (int k = 0; k < 50; k++) {
        CurlParams base = mesh_curl_pose((k % 10) / 9.0f, (k / 10) / 4.0f, 1.0f, 1.4f);
        for (int variant = 0; variant < 4; variant++) {
            CurlParams p = base;
            if (variant & 1) /* the same roll, another cone */
                p.shape.v[1] = 0.5f * p.shape.v[1] + 0.1f;
            if (variant & 2) /* the same roll and cone, the fold turned */
                p.fold.v[2] = 0.6f, p.fold.v[3] = 0.8f;
            for (int q = 0; q < 55; q++) {
                double x = (q % 11) / 10.0, y = 0.35 * (q / 11), pa[3], na[3], pb[3], nb[3];
                mesh_curl_point_cached(&p, &cache, x, y, pa, na);
                mesh_curl_point(&p, x, y, pb, nb);
                points++;
                point_differ += memcmp(pa, pb, sizeof pa) != 0 || memcmp(na, nb, sizeof na) != 0;
            }
        }
    }
    CHECK(s, point_differ == 0, "%zu of %zu cached points differ from mesh_curl_point",
          point_differ, points);
}

/* Each index of a split loop is visited exactly once, whatever the length and thread count. */
typedef struct Visits {
    unsigned char *seen;
} Visits;

static void visit(void *ctx, size_t begin, size_t end)
{
    Visits *v = ctx;
    for (size_t k = begin; k < end; k++)
        v->seen[k]++;
}

static void test_parallel(CheckState *s)
{
    static const size_t lengths[] = {0,
                                     1,
                                     MESH_PARALLEL_MIN_ITEMS - 1,
                                     MESH_PARALLEL_MIN_ITEMS,
                                     2 * MESH_PARALLEL_MIN_ITEMS + 7,
                                     40 * MESH_PARALLEL_MIN_ITEMS};
    static const unsigned threads[] = {0, 1, 2, 3, 7, MESH_PARALLEL_MAX_THREADS, 1000};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
            size_t n = lengths[i], wrong = 0;
            Visits v = {calloc(n ? n : 1, 1)};
            if (!v.seen)
                continue;
            mesh_parallel_for(n, threads[t], visit, &v);
            for (size_t k = 0; k < n; k++)
                wrong += v.seen[k] != 1;
            CHECK(s, wrong == 0, "%zu of %zu indices not visited once on %u threads", wrong, n,
                  threads[t]);
            free(v.seen);
        }
    unsigned cores = mesh_parallel_threads();
    CHECK(s, cores >= 1 && cores <= MESH_PARALLEL_MAX_THREADS, "%u threads", cores);

    /* A large grid's deform, split across threads, is bit for bit the one-point-at-a-time one. */
    MeshGrid grid;
    bool made = mesh_grid_create(&(MeshGridDesc){.nx = 320, .ny = 320}, &grid);
    CHECK(s, made, "mesh_grid_create(320x320) failed");
    if (!made)
        return;
    size_t n = grid.vertex_count;
    float *buf = malloc(6 * n * sizeof *buf);
    if (!buf) {
        mesh_grid_destroy(&grid);
        return;
    }
    CurlParams pose = mesh_curl_pose(0.6f, 0.3f, grid.width, grid.height);
    mesh_curl_apply(&pose, grid.rest_x, grid.rest_y, n, buf, buf + n, buf + 2 * n);
    for (size_t k = 0; k < n; k++)
        mesh_curl_apply(&pose, grid.rest_x + k, grid.rest_y + k, 1, buf + 3 * n + k,
                        buf + 4 * n + k, buf + 5 * n + k);
    CHECK(s, n > 2 * MESH_PARALLEL_MIN_ITEMS && memcmp(buf, buf + 3 * n, 3 * n * sizeof *buf) == 0,
          "the split deform of %zu vertices differs from the serial one", n);
    free(buf);
    mesh_grid_destroy(&grid);
}

/* The leaf's share of the reach (mesh/reach.h) holds every point of the leaf, on a grid four
 * times finer than the share samples, for turns, drags and hard covers, and for a pose made for
 * a shorter page, which folds the spine of this one (the share then works out every sample: the
 * bounds that let it skip the columns near the spine hold only while the spine stays put, as
 * paper's distances then do: within its distance in the page of every point of the spine). */
static void test_reach_share(CheckState *s)
{
    const double W = 1.0, H = 1.4142;
    int poses = 0, lifted = 0;
    double worst_short = 0.0, worst_stretch = 0.0;
    for (int k = 0; k < 160; k++) {
        CurlParams pose;
        int kind = k % 4;
        float a = (float)((k / 4) % 8) / 7.0f, b = (float)(k / 32) / 4.0f;
        if (kind == 0)
            pose = mesh_curl_pose(0.02f + 0.96f * a, b, (float)W, (float)H);
        else if (kind == 1)
            pose = mesh_curl_drag((MeshVec2){(float)W, (float)(b * H)},
                                  (MeshVec2){(float)((1.0 - 2.0 * a) * W), (float)(0.8 * b * H)},
                                  (float)W, (float)H);
        else if (kind == 2)
            pose = mesh_curl_hinge(0.1f + 3.0f * a);
        else { /* a turn's fold moved past the spine, which it then folds */
            pose = mesh_curl_pose(0.1f + 0.8f * a, b, (float)W, (float)H);
            pose.fold.v[0] = (float)(-0.4 * W), pose.fold.v[1] = (float)(H * (k % 5) / 4);
        }
        bool folds_spine = kind == 3;
        MeshReachSpan spans[2] = {{.lo = (float)-W, .hi = (float)W},
                                  {.lo = 0.0f, .hi = (float)W, .grow_lo = (float)W}};
        for (int sp = 0; sp < 2; sp++) {
            float share = mesh_reach_share(&pose, (float)W, (float)H, &spans[sp]);
            double need = 0.0;
            /* a pose that folds the spine is held at the share's own samples, each with its
             * margin (MESH_REACH_MARGIN, as mesh_reach_share grows them): a fold that folds
             * the spine is not one the margin between samples is made for */
            int step = folds_spine ? 4 : 1;
            double margin = folds_spine ? MESH_REACH_MARGIN * W : 0.0;
            for (int i = 0; i <= 48; i += step)
                for (int j = 0; j <= 64; j += step) {
                    double u = W * i / 48, v = H * j / 64, p[3];
                    mesh_curl_point(&pose, u, v, p, NULL);
                    /* less what rounding puts there: a leaf turned flat over the spine lies
                     * at z ~1e-16, with its edge at |x| ~W + 1e-16, past the reach */
                    double e = fmax(-p[1], p[1] - H), z = fmax(0.0, p[2] - 1e-9 * W);
                    double q[3] = {p[0] * (1.0 - 1e-9),
                                   e > 0.0 ? (p[1] < 0.0 ? -1.0 : 1.0) * fmin(e, margin) + p[1]
                                           : p[1],
                                   z + fmin(z, margin)};
                    double n = mesh_reach_share_point(q, W, H);
                    if (p[0] < spans[sp].lo && spans[sp].grow_lo > 0.0f)
                        n = fmax(n, fmin(1.0, (spans[sp].lo - p[0]) / spans[sp].grow_lo));
                    need = fmax(need, n);
                    if (sp || folds_spine)
                        continue;
                    for (int m = 0; m <= 16; m++) { /* the property the share's bounds rest on */
                        double w = H * m / 16,
                               d = sqrt(p[0] * p[0] + (p[1] - w) * (p[1] - w) + p[2] * p[2]);
                        worst_stretch = fmax(worst_stretch, d - sqrt(u * u + (v - w) * (v - w)));
                    }
                }
            worst_short = fmax(worst_short, need - share);
            poses++;
            lifted += need > 0.05;
        }
    }
    CHECK(s, worst_short <= 1e-6, "a leaf's share falls short of one of its points by %.3g",
          worst_short);
    CHECK(s, worst_stretch <= 1e-6, "a point lies %.3g further from the spine than in the page",
          worst_stretch);
    CHECK(s, lifted > poses / 2, "vacuous share sample: %d of %d poses lifted", lifted, poses);
    printf("reach share: %d poses (%d lifted), short by at most %.3g, stretched %.3g\n", poses,
           lifted, worst_short, worst_stretch);
}

/* mesh_split_plain by the pose alone (no view) against the map itself, over a turn's poses
 * (corner, mid and top grabs, a small grid and the program's). The outline part is the grid's
 * own triangles of the cells left out of the plain part, in the grid's order. The plain part's
 * triangles each lie across one row of cells, wound as the grid's, over cells that lie
 * MESH_SPLIT_RING cells in from the edges and flat in the pose (the map's normal the same at
 * their four corners: on the page, or in the plane the roll leaves the page in, which a cone's
 * tilts); together they cover each such cell once (per row, their area is the row's flat cells',
 * and no cell is in both parts); every such cell is in it; and no grid vertex that a triangle
 * uses lies inside another's edge (a T-junction, which rasterising leaves pixels open along).
 * Most triangles are merged: the plain part has fewer than the cells' own. A hinged board's pose
 * has no plain part. */
/* Cell (i, j) lies MESH_SPLIT_RING cells in from the edges and flat by the map's normals `nrm`. */
static bool flat_cell(const MeshGrid *g, const double *nrm, uint32_t i, uint32_t j)
{
    uint32_t cx = g->nx - 1, cy = g->ny - 1, v0 = j * g->nx + i;
    uint32_t corner[4] = {v0, v0 + 1, v0 + g->nx, v0 + g->nx + 1};
    if (i < MESH_SPLIT_RING || j < MESH_SPLIT_RING || i + 1 + MESH_SPLIT_RING > cx ||
        j + 1 + MESH_SPLIT_RING > cy)
        return false;
    for (int m = 1; m < 4; m++)
        for (int e = 0; e < 3; e++)
            if (!(fabs(nrm[3 * corner[m] + e] - nrm[3 * corner[0] + e]) < 1e-9))
                return false;
    return true;
}

static void test_split(CheckState *s)
{
    const uint32_t sizes[][2] = {{8, 11}, {64, 90}};
    for (size_t z = 0; z < 2; z++) {
        MeshGrid g;
        if (!make_grid(s, (GridSize){sizes[z][0], sizes[z][1], 0, 0}, &g))
            continue;
        uint32_t cx = g.nx - 1, cy = g.ny - 1;
        size_t n = g.triangle_count * 3, cells = (size_t)cx * cy;
        uint32_t *out = malloc(n * sizeof *out);
        MeshSplitScratch scratch;
        CHECK(s, mesh_split_scratch_create(&g, &scratch), "out of memory for the split");
        double *nrm = malloc(g.vertex_count * 3 * sizeof *nrm); /* the map's normals */
        unsigned char *outline = calloc(cells, 1), *used = calloc(g.vertex_count, 1);
        double *area = calloc(cy, sizeof *area); /* per row, in cells */
        size_t bad_outline = 0, bad_plain = 0, unsound = 0, missed = 0, gaps = 0, t_joins = 0;
        size_t plain_total = 0, plain_cells = 0;
        for (int k = 0; out && nrm && outline && used && area && k <= 20; k++) {
            float t = (float)k / 20.0f, grab = (float)(k % 3) * 0.5f;
            CurlParams pose = mesh_curl_pose(t, grab, g.width, g.height);
            MeshSplit split = mesh_split_plain(&g, &pose, NULL, &scratch, out);
            plain_total += split.plain / 3;
            for (size_t v = 0; v < g.vertex_count; v++) {
                double pos[3];
                mesh_curl_point(&pose, g.rest_x[v], g.rest_y[v], pos, nrm + 3 * v);
            }
            memset(outline, 0, cells);
            memset(used, 0, g.vertex_count);
            memset(area, 0, cy * sizeof *area);
            size_t last = 0;
            for (size_t q = split.plain; q + 6 <= split.count; q += 6) {
                uint32_t a = out[q], i = a % g.nx, j = a / g.nx;
                size_t c = (size_t)j * cx + i;
                if (i >= cx || j >= cy || (q > split.plain && c <= last) ||
                    memcmp(out + q, g.indices + 6 * c, 6 * sizeof *out) != 0) {
                    bad_outline++;
                    continue;
                }
                last = c;
                outline[c] = 1;
            }
            bad_outline += (split.count - split.plain) % 6 != 0 || split.count > n;
            for (size_t q = 0; q < split.count && q < n; q++)
                used[out[q]] = 1;
            for (size_t q = 0; q + 3 <= split.plain; q += 3) {
                const uint32_t *tri = out + q;
                uint32_t row[3], col[3], lo = UINT32_MAX, hi = 0, rlo = UINT32_MAX;
                for (int c = 0; c < 3; c++) {
                    row[c] = tri[c] / g.nx, col[c] = tri[c] % g.nx;
                    lo = col[c] < lo ? col[c] : lo, hi = col[c] > hi ? col[c] : hi;
                    rlo = row[c] < rlo ? row[c] : rlo;
                }
                /* wound as the grid's (counter-clockwise in u, v), over one row of cells */
                double cross = ((double)col[1] - col[0]) * ((double)row[2] - row[0]) -
                               ((double)col[2] - col[0]) * ((double)row[1] - row[0]);
                bool one_row = rlo + 1 < g.ny;
                for (int c = 0; c < 3; c++)
                    one_row = one_row && (row[c] == rlo || row[c] == rlo + 1);
                if (!(cross > 0.0) || !one_row || hi >= g.nx) {
                    bad_plain++;
                    continue;
                }
                area[rlo] += 0.5 * cross;
                /* each cell it spans: flat, in from the edges, in no other part */
                for (uint32_t i = lo; i < hi; i++) {
                    unsound += !flat_cell(&g, nrm, i, rlo) || outline[(size_t)rlo * cx + i];
                }
                /* an edge along a row holds no vertex that a triangle uses */
                for (int e = 0; e < 3; e++) {
                    int f = (e + 1) % 3;
                    if (row[e] != row[f])
                        continue;
                    uint32_t a = col[e] < col[f] ? col[e] : col[f];
                    uint32_t b = col[e] < col[f] ? col[f] : col[e];
                    for (uint32_t x = a + 1; x < b; x++)
                        t_joins += used[row[e] * g.nx + x];
                }
            }
            for (uint32_t j = 0; j < cy; j++) {
                double flat_cells = 0.0;
                for (uint32_t i = 0; i < cx; i++) {
                    size_t c = (size_t)j * cx + i;
                    bool flat = flat_cell(&g, nrm, i, j) && split.plain > 0;
                    missed += flat && outline[c];
                    gaps += !flat && !outline[c] && split.count > 0;
                    flat_cells += flat;
                }
                plain_cells += (size_t)flat_cells;
                gaps += fabs(area[j] - flat_cells) > 1e-9;
            }
        }
        CHECK(s, bad_outline == 0, "%ux%u: the outline part is not the grid's cells in order (%zu)",
              g.nx, g.ny, bad_outline);
        CHECK(s, bad_plain == 0, "%ux%u: %zu plain triangles wound otherwise or across rows", g.nx,
              g.ny, bad_plain);
        CHECK(s, unsound == 0, "%ux%u: %zu plain triangles over cells that are not flat", g.nx,
              g.ny, unsound);
        CHECK(s, missed == 0, "%ux%u: %zu flat cells left with the rest", g.nx, g.ny, missed);
        CHECK(s, gaps == 0, "%ux%u: %zu cells or rows not covered once", g.nx, g.ny, gaps);
        CHECK(s, t_joins == 0, "%ux%u: %zu T-junctions", g.nx, g.ny, t_joins);
        /* the small grid's flat cells all border the roll or the ring: none merged there */
        CHECK(s,
              plain_cells > 0 && plain_total <= 2 * plain_cells &&
                  (z == 0 || 3 * plain_total < plain_cells),
              "%ux%u: %zu plain triangles for %zu flat cells", g.nx, g.ny, plain_total,
              plain_cells);
        printf("split %ux%u: %zu flat cells drawn by %zu triangles over the turn\n", g.nx, g.ny,
               plain_cells, plain_total);
        CurlParams hinge = mesh_curl_hinge(1.0f);
        CHECK(s, out && mesh_split_plain(&g, &hinge, NULL, &scratch, out).count == 0,
              "a hinged pose split as flat");
        mesh_split_scratch_destroy(&scratch);
        free(out);
        free(nrm);
        free(outline);
        free(used);
        free(area);
        mesh_grid_destroy(&g);
    }
}

int main(void)
{
    CheckState s = {0};
    test_grid_counts(&s);
    test_grid_coarse(&s);
    test_winding(&s);
    test_incident_triangles(&s);
    test_curl_pose(&s);
    test_no_stretch(&s);
    test_analytic_isometry(&s);
    test_curl_apex(&s);
    test_normal_angle(&s);
    test_cpu_normals(&s);
    test_continuity(&s);
    test_input(&s);
    test_drag(&s);
    test_pose_cache(&s);
    test_parallel(&s);
    test_reach_share(&s);
    test_split(&s);
    return check_finish(&s, "test_mesh");
}
