/* SPDX-License-Identifier: MIT */
/* The curl map (the drag and pose live in curl_drag.c). Why it is an isometry:
 * with u, v the coordinates of p along the fold line (d) and across it (n), the apex sits at
 * fold.xy - d / kappa. Polar coordinates about it are rho = 1/kappa + w and alpha = kappa sigma, so
 * the flat metric is dw^2 + (1 + kappa w)^2 dsigma^2. The image is
 *     S = P0 + w T(sigma) + P(sigma),   P' = t,   T' = kappa t,
 * with (t, T, N) an orthonormal frame driven by t' = -kappa T + k N, N' = -k t (k: the roll's
 * curvature at P0). Then dS/dw = T and dS/dsigma = (1 + kappa w) t: the metric is the flat one,
 * exactly, for any k(sigma). kappa = 0 is the cylinder S = P0 + w d + c(sigma); nothing divides by
 * kappa, so the family is smooth through it. k(sigma) is piecewise constant (ramp steps, the hold
 * at 1/r, flat after), and on each piece the frame turns about a fixed axis: closed forms. */
#include "curl.h"
#include "parallel.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#define CURL_PI       3.14159265358979323846
#define CURL_SEGMENTS PC_CURL_SEGMENTS

typedef MeshCurlFrame CurlFrame;

/* The pose in double with everything that depends on the pose alone; the profile's pieces and the
 * frame at the start of each live in the cache. */
typedef struct CurlTable {
    double p0[2], n[2], d[2], kappa;
    bool flat;
    const MeshCurlCache *cache;
} CurlTable;

static double finite_or(double v, double fallback)
{
    return isfinite(v) ? v : fallback;
}

/* Piece j of the profile: its turning angle and arc length (the curvature is theta / len). The
 * ramp's steps take the curvature of a linear ramp at their middles, so up and down ramps turn by
 * L / (2r) each and the hold by turn - L / r: `turn` in all (pi: the page ends upside down). */
static void curl_segment(double r, double ramp, double turn, int j, double *theta, double *len)
{
    const int n = PC_CURL_RAMP_STEPS;
    if (j == 2 * n + 1) {
        *theta = 0.0, *len = INFINITY;
    } else if (j == n) {
        *len = fmax(0.0, turn * r - ramp);
        *theta = turn - (ramp > 0.0 ? ramp / r : 0.0);
    } else {
        int i = j < n ? j : 2 * n - j;
        *len = ramp > 0.0 ? ramp / n : 0.0;
        *theta = ramp > 0.0 ? (i + 0.5) * ramp / ((double)n * n * r) : 0.0;
    }
}

/* Moves the frame along a piece of arc length h turning by theta. The frame turns about the fixed
 * axis -(k T + kappa N) by phi = sqrt(theta^2 + kappa^2 h^2); a = sin(phi)/phi and
 * b = (1 - cos phi)/phi^2 carry every division, and both are smooth at phi = 0 (series there).
 * frame_turn_coeffs gives a and b, which do not depend on the frame (the pose solve keeps them). */
static void frame_turn_coeffs(double theta, double h, double kappa, double *a, double *b)
{
    double kh = kappa * h;
    double phi2 = theta * theta + kh * kh;
    if (phi2 < 1e-6) {
        *a = 1.0 - phi2 / 6.0 + phi2 * phi2 / 120.0;
        *b = 0.5 - phi2 / 24.0 + phi2 * phi2 / 720.0;
    } else {
        double phi = sqrt(phi2);
        *a = sin(phi) / phi;
        *b = (1.0 - cos(phi)) / phi2;
    }
}

/* Turns components c0 <= c < c1 of the frame: each component moves on its own. `whole`: all of
 * it; else only P and T, what a position needs (t and N are left as they were). */
static inline void frame_turn(const CurlFrame *f, double theta, double h, double kappa, double a,
                              double b, int c0, int c1, bool whole, CurlFrame *out)
{
    double kh = kappa * h;
    double phi2 = theta * theta + kh * kh;
    for (int c = c0; c < c1; c++) {
        double T = f->T[c], t = f->t[c], N = f->N[c];
        out->P[c] = f->P[c] + h * a * t + h * b * (theta * N - kh * T);
        out->T[c] = (1.0 - kh * kh * b) * T + kh * a * t + theta * kh * b * N;
        if (!whole)
            continue;
        out->t[c] = (1.0 - phi2 * b) * t + a * (theta * N - kh * T);
        out->N[c] = (1.0 - theta * theta * b) * N - theta * a * t + theta * kh * b * T;
    }
}

static void frame_step(const CurlFrame *f, double theta, double h, double kappa, bool whole,
                       CurlFrame *out)
{
    double a, b;
    frame_turn_coeffs(theta, h, kappa, &a, &b);
    frame_turn(f, theta, h, kappa, a, b, 0, 3, whole, out);
}

static bool same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The table of a pose, its pieces and frames taken from the cache where the pose shares them with
 * the cache's last one: the pieces (and their turns) depend on r, the ramp and kappa alone, the
 * frames on those and the fold's direction; the same operations on the same inputs, so the same
 * bits as worked out afresh. */
static void curl_table_cached(const CurlParams *params, MeshCurlCache *cache, CurlTable *tab)
{
    double nx = finite_or(params->fold.v[2], 1.0), ny = finite_or(params->fold.v[3], 0.0);
    double nl = sqrt(nx * nx + ny * ny);
    if (!(nl > 1e-30))
        nx = 1.0, ny = 0.0, nl = 1.0;
    tab->n[0] = nx / nl, tab->n[1] = ny / nl;
    tab->d[0] = -tab->n[1], tab->d[1] = tab->n[0];
    tab->p0[0] = params->fold.v[0], tab->p0[1] = params->fold.v[1];
    /* A fold point that is not finite cannot place a fold: the page stays flat. */
    tab->flat = !isfinite(tab->p0[0]) || !isfinite(tab->p0[1]);
    double r = finite_or(params->shape.v[0], 0.0);
    r = r > 0.0 ? r : 0.0;
    tab->kappa = finite_or(params->shape.v[1], 0.0);
    double turn = finite_or(params->shape.v[3], 0.0);
    turn = turn > 0.0 && turn < CURL_PI ? turn : CURL_PI;
    double ramp = finite_or(params->shape.v[2], 0.0);
    ramp = ramp > 0.0 ? fmin(ramp, turn * r) : 0.0;

    bool pieces = cache->have >= MESH_CURL_CACHED_PIECES && same_bits(cache->r, r) &&
                  same_bits(cache->ramp, ramp) && same_bits(cache->kappa, tab->kappa) &&
                  same_bits(cache->turn, turn);
    if (!pieces) {
        cache->r = r, cache->ramp = ramp, cache->kappa = tab->kappa, cache->turn = turn;
        /* the frames' z components start at (0, 0, 1, 0) whatever the fold's direction */
        CurlFrame *f = cache->frame;
        f[0].T[2] = 0.0, f[0].t[2] = 0.0, f[0].N[2] = 1.0, f[0].P[2] = 0.0;
        double s = 0.0;
        for (int j = 0; j < CURL_SEGMENTS; j++) {
            curl_segment(r, ramp, turn, j, &cache->theta[j], &cache->len[j]);
            cache->start[j] = s;
            if (j + 1 < CURL_SEGMENTS) {
                frame_turn_coeffs(cache->theta[j], cache->len[j], tab->kappa, &cache->a[j],
                                  &cache->b[j]);
                frame_turn(&f[j], cache->theta[j], cache->len[j], tab->kappa, cache->a[j],
                           cache->b[j], 2, 3, true, &f[j + 1]);
                s += cache->len[j];
            }
        }
        cache->have = MESH_CURL_CACHED_PIECES;
    }
    if (cache->have < MESH_CURL_CACHED_FRAMES || !same_bits(cache->n[0], tab->n[0]) ||
        !same_bits(cache->n[1], tab->n[1])) {
        cache->n[0] = tab->n[0], cache->n[1] = tab->n[1];
        CurlFrame *f = cache->frame;
        for (int c = 0; c < 2; c++)
            f[0].T[c] = tab->d[c], f[0].t[c] = tab->n[c], f[0].N[c] = 0.0, f[0].P[c] = 0.0;
        for (int j = 0; j + 1 < CURL_SEGMENTS; j++)
            frame_turn(&f[j], cache->theta[j], cache->len[j], tab->kappa, cache->a[j], cache->b[j],
                       0, 2, true, &f[j + 1]);
        cache->have = MESH_CURL_CACHED_FRAMES;
    }
    tab->cache = cache;
}

static void curl_table(const CurlParams *params, MeshCurlCache *own, CurlTable *tab)
{
    own->have = MESH_CURL_CACHED_NOTHING;
    curl_table_cached(params, own, tab);
}

/* atan(z) / z, smooth at 0. */
static double atanc(double z)
{
    return fabs(z) < 1e-4 ? 1.0 - z * z / 3.0 : atan(z) / z;
}

/* sigma of the point at (u, v) in the fold's frame (curl_eval's). */
static double fold_sigma(double kappa, double u, double v)
{
    if (!(v > 0.0))
        return 0.0;
    double x = 1.0 + kappa * u, y = kappa * v;
    return x > 0.0 ? v / x * atanc(y / x) : atan2(y, x) / kappa;
}

void mesh_curl_across(const CurlParams *params, MeshCurlAcross *out)
{
    MeshCurlCache cache;
    CurlTable tab;
    curl_table(params, &cache, &tab);
    for (int c = 0; c < 2; c++)
        out->p0[c] = tab.p0[c], out->n[c] = tab.n[c], out->d[c] = tab.d[c];
    out->kappa = tab.kappa;
    out->flat = tab.flat;
    /* the last piece is the flat one after the roll (curl_segment) */
    out->flat_from = cache.start[CURL_SEGMENTS - 1];
}

double mesh_curl_sigma(const MeshCurlAcross *a, double px, double py)
{
    if (a->flat)
        return 0.0;
    double ex = px - a->p0[0], ey = py - a->p0[1];
    return fold_sigma(a->kappa, ex * a->d[0] + ey * a->d[1], ex * a->n[0] + ey * a->n[1]);
}

/* The point's position and, where `normal` is not NULL, its unit normal. */
static void curl_eval(const CurlTable *tab, double px, double py, double pos[3], double normal[3])
{
    double ex = px - tab->p0[0], ey = py - tab->p0[1];
    double u = ex * tab->d[0] + ey * tab->d[1], v = ex * tab->n[0] + ey * tab->n[1];
    if (tab->flat || !(v > 0.0)) {
        pos[0] = px, pos[1] = py, pos[2] = 0.0;
        if (normal)
            normal[0] = 0.0, normal[1] = 0.0, normal[2] = 1.0;
        return;
    }
    double k = tab->kappa, x = 1.0 + k * u, y = k * v;
    /* sigma = alpha / kappa, w = rho - 1/kappa, both written without 1/kappa. x <= 0 (behind the
     * apex) only happens for |kappa u| >= 1, so kappa is not small there. */
    double sigma = fold_sigma(k, u, v);
    double w = (2.0 * u + k * (u * u + v * v)) / (sqrt(x * x + y * y) + 1.0);
    const MeshCurlCache *pc = tab->cache;
    int j = 0;
    while (j + 1 < CURL_SEGMENTS && sigma >= pc->start[j + 1])
        j++;
    double h = sigma - pc->start[j];
    double theta = pc->len[j] > 0.0 && isfinite(pc->len[j]) ? pc->theta[j] * h / pc->len[j] : 0.0;
    CurlFrame f;
    frame_step(&pc->frame[j], theta, h, k, normal != NULL, &f);
    for (int c = 0; c < 3; c++)
        pos[c] = w * f.T[c] + f.P[c];
    pos[0] += tab->p0[0], pos[1] += tab->p0[1];
    if (!normal)
        return;
    for (int c = 0; c < 3; c++)
        normal[c] = f.N[c];
    double nl = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    for (int c = 0; c < 3; c++)
        normal[c] /= nl;
}

void mesh_curl_point(const CurlParams *params, double px, double py, double pos[3],
                     double normal[3])
{
    MeshCurlCache own;
    CurlTable tab;
    curl_table(params, &own, &tab);
    curl_eval(&tab, finite_or(px, 0.0), finite_or(py, 0.0), pos, normal);
}

void mesh_curl_point_cached(const CurlParams *params, MeshCurlCache *cache, double px, double py,
                            double pos[3], double normal[3])
{
    CurlTable tab;
    curl_table_cached(params, cache, &tab);
    curl_eval(&tab, finite_or(px, 0.0), finite_or(py, 0.0), pos, normal);
}

void mesh_curl_points_cached(const CurlParams *params, MeshCurlCache *cache, size_t n,
                             const double *xy, double *pos, double *normal)
{
    CurlTable tab;
    curl_table_cached(params, cache, &tab);
    for (size_t k = 0; k < n; k++)
        curl_eval(&tab, finite_or(xy[2 * k], 0.0), finite_or(xy[2 * k + 1], 0.0), &pos[3 * k],
                  normal ? &normal[3 * k] : NULL);
}

void mesh_curl_points(const CurlParams *params, size_t n, const double *xy, double *pos,
                      double *normal)
{
    MeshCurlCache own;
    own.have = MESH_CURL_CACHED_NOTHING; /* as curl_table: the rest is written before it is read */
    mesh_curl_points_cached(params, &own, n, xy, pos, normal);
}

void mesh_curl_apex(const CurlParams *params, float out[3])
{
    MeshCurlCache own;
    CurlTable tab;
    curl_table(params, &own, &tab);
    if (tab.flat) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    /* the apex p0 - d / kappa, times kappa */
    for (int c = 0; c < 2; c++)
        out[c] = (float)(tab.kappa * tab.p0[c] - tab.d[c]);
    out[2] = (float)tab.kappa;
}

void mesh_curl_segments(const CurlParams *params, CurlSegments *out)
{
    MeshCurlCache own;
    CurlTable tab;
    curl_table(params, &own, &tab);
    for (int j = 0; j < CURL_SEGMENTS; j++) {
        const CurlFrame *f = &own.frame[j];
        CurlSegment *s = &out->seg[j];
        /* a flat pose (non-finite fold point) never reaches the table: the shader's v test
         * keeps every point flat first */
        for (int c = 0; c < 3; c++) {
            s->T.v[c] = (float)f->T[c];
            s->t.v[c] = (float)f->t[c];
            s->N.v[c] = (float)f->N[c];
            s->P.v[c] = (float)f->P[c];
        }
        s->T.v[3] = (float)own.start[j];
        s->t.v[3] = (float)own.theta[j];
        s->N.v[3] = isfinite(own.len[j]) ? (float)own.len[j] : 3.0e38f;
        s->P.v[3] = 0.0f;
    }
    out->pose = *params;
}

typedef struct ApplyJob {
    CurlTable tab;
    const float *rx, *ry;
    float *x, *y, *z;
} ApplyJob;

static void apply_range(void *ctx, size_t begin, size_t end)
{
    const ApplyJob *job = ctx;
    for (size_t k = begin; k < end; k++) {
        double pos[3], normal[3];
        curl_eval(&job->tab, finite_or(job->rx[k], 0.0), finite_or(job->ry[k], 0.0), pos, normal);
        job->x[k] = (float)pos[0], job->y[k] = (float)pos[1], job->z[k] = (float)pos[2];
    }
}

void mesh_curl_apply(const CurlParams *params, const float *rx, const float *ry, size_t n, float *x,
                     float *y, float *z)
{
    MeshCurlCache own;
    ApplyJob job = {.rx = rx, .ry = ry, .x = x, .y = y, .z = z};
    curl_table(params, &own, &job.tab);
    mesh_parallel_for(n, mesh_parallel_threads(), apply_range, &job);
}

CurlParams mesh_curl_hinge(float angle)
{
    float a = isfinite(angle) ? angle : 0.0f;
    a = fminf(fmaxf(a, 1e-6f), (float)CURL_PI - 1e-6f);
    return (CurlParams){.fold = {{0.0f, 0.0f, 1.0f, 0.0f}}, .shape = {{0.0f, 0.0f, 0.0f, a}}};
}
