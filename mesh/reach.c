/* SPDX-License-Identifier: MIT */
#include "reach.h"

#include "least.h"

#include <math.h>
#include <stdbool.h>

#define PI 3.14159265358979323846

/* The leaf's points sampled for its share: finer than any feature of a curl's silhouette that
 * reaches further than the margin between two samples. */
#define SHARE_NX 12
#define SHARE_NY 16

float mesh_reach_overhang(float width, float height)
{
    return sqrtf(width * width + height * height) - height;
}

int mesh_reach_points(float width, float height, float x_lo, float x_hi, float share,
                      float out[][3])
{
    enum { PER = 2 * MESH_REACH_ANGLES + 3, HALF = MESH_REACH_ANGLES / 2 };
    double w = width, h = height, s = mesh_least(1.0, mesh_most(0.0, (double)share));
    double grow = 1.0 / cos(0.5 * PI / MESH_REACH_ANGLES); /* the polygon holds the arc */
    /* the directions about the spine, each with its height's scale: the squashed half-circle,
     * then the two wedges' arcs (from the page plane up) */
    double c[PER], sn[PER];
    for (int a = 0; a < PER; a++) {
        double angle, z_scale = 1.0;
        if (a <= MESH_REACH_ANGLES)
            angle = PI * a / MESH_REACH_ANGLES, z_scale = s;
        else if (a <= MESH_REACH_ANGLES + 1 + HALF)
            angle = 0.5 * PI * s * (a - MESH_REACH_ANGLES - 1) / HALF;
        else
            angle = PI - 0.5 * PI * s * (a - MESH_REACH_ANGLES - 2 - HALF) / HALF;
        c[a] = grow * cos(angle), sn[a] = z_scale * grow * sin(angle);
    }
    int n = 0;
    double past = s * mesh_reach_overhang(width, height);
    /* Along one direction the points run from the spine out, straight where the span does not
     * cut them and up its edge where it does: a point between two others on one straight run lies
     * on the segment between them, inside the hull of the rest, so it is left out. What is kept
     * (the spine's point once, each direction's outermost, and each point where the run bends)
     * has the hull of all of them, and so the same extremes in every direction. */
    for (int a = 0; a < PER; a++) {
        double x[MESH_REACH_RADII + 1], z[MESH_REACH_RADII + 1];
        bool keep[MESH_REACH_RADII + 1] = {false};
        int was = 0;
        for (int r = 0; r <= MESH_REACH_RADII; r++) {
            double rho = w * r / MESH_REACH_RADII, along = rho * c[a];
            x[r] = mesh_least((double)x_hi, mesh_most((double)x_lo, along)), z[r] = rho * sn[a];
            int cut = along < (double)x_lo ? -1 : along > (double)x_hi ? 1 : 0;
            if (r > 0 && cut != was)
                keep[r - 1] = keep[r] = true; /* the run bends between them */
            was = cut;
        }
        keep[0] = a == 0; /* the spine's point, the same in every direction */
        keep[MESH_REACH_RADII] = true;
        for (int r = 0; r <= MESH_REACH_RADII; r++)
            for (int end = 0; end < 2 && keep[r]; end++) {
                out[n][0] = (float)x[r];
                out[n][1] = (float)(end ? h + past : -past);
                out[n][2] = (float)z[r];
                n++;
            }
    }
    return n;
}

/* The least share whose squashed half-circle holds a point at |x| = ax < W, height z >= 0: its
 * distance from the spine's line with the height scaled back (z / s) within W. */
static double squashed_share(double ax, double z, double w)
{
    return z / sqrt(w * w - ax * ax);
}

/* The least share whose wedges hold a point: its angle above the page. */
static double wedge_share(double ax, double z)
{
    return atan2(z, ax) / (0.5 * PI);
}

/* A point's share worked out but for the wedges' (an arc tangent), which can only lower it: `hi`
 * is never less than the share (point_share_of gives it). */
typedef struct PointShare {
    double hi;
    double ax, z, squashed, past; /* the point, onto the reach; the shares but the wedges' */
    bool wedged;                  /* above the page: the wedges' share counts */
} PointShare;

/* `overhang`: mesh_reach_overhang of the page. */
static PointShare point_share(const double p[3], double width, double height, double overhang)
{
    double w = width, h = height, ax = fabs(p[0]), z = mesh_most(0.0, p[2]);
    /* past head or foot, less what rounding puts there */
    double e = mesh_most(0.0, mesh_most(-p[1], p[1] - h) - 1e-7 * w);
    if (!isfinite(ax) || !isfinite(z) || !isfinite(e))
        return (PointShare){.hi = 1.0};
    /* past the reach by rounding (a leaf stretches by none): onto its edge. hypot <= ax + z, to
     * within an ulp: where their sum is short of w by more than rounding, so is hypot */
    if (ax + z > w * (1.0 - 1e-12)) {
        double r = hypot(ax, z);
        if (r > w)
            ax *= w / r, z *= w / r;
    }
    PointShare s = {.ax = ax,
                    .z = z,
                    .squashed = z > 0.0 ? (ax < w ? squashed_share(ax, z, w) : 1.0) : 0.0,
                    .past = e / overhang,
                    .wedged = z > 0.0};
    s.hi = mesh_least(1.0, mesh_most(s.squashed, s.past));
    return s;
}

static double point_share_of(const PointShare *s)
{
    if (!s->wedged)
        return s->hi;
    double above = mesh_least(s->squashed, wedge_share(s->ax, s->z));
    return mesh_least(1.0, mesh_most(above, s->past));
}

double mesh_reach_share_point(const double p[3], double width, double height)
{
    PointShare s = point_share(p, width, height, mesh_reach_overhang((float)width, (float)height));
    return point_share_of(&s);
}

/* A length grown by the margin m: by itself where it is short, by m once it is longer (so the
 * share stays continuous where a point leaves the page). */
static double grown(double v, double m)
{
    return v > 0.0 ? v + mesh_least(v, m) : v;
}

/* How far outside [lo, hi] x lies (0 inside). */
static double outside(double x, double lo, double hi)
{
    return x < lo ? lo - x : x > hi ? x - hi : 0.0;
}

/* The share that moves the span's edge out past a point `out` beyond it (the edge moves by
 * share x grow). An edge that does not move is the spread's own, past which no leaf reaches
 * (what passes it, passes by rounding). */
static double span_share(double out, double grow)
{
    if (!(out > 0.0) || !(grow > 0.0))
        return 0.0;
    return mesh_least(1.0, out / grow);
}

/* The most share a point of column u (its distance from the spine in the page) can need, or 1
 * where no bound is worked out. Paper does not stretch and the spine stays put, so the point lies
 * within its distance in the page of every point of the spine: within u of the spine's line
 * (which holds its squashed share to u / W, the margin aside), and within sqrt(u^2 + H^2) of the
 * spine's far end, which holds it past the head or the foot to the overhang of a page u wide
 * (mesh_reach_overhang). Each bound is the shares' own steps applied to the most each input can
 * be, so it never falls short of a point's share but by rounding, which the slack covers a
 * hundred times over. */
static double column_bound(double u, double width, double height, double overhang, double m,
                           const MeshReachSpan *span)
{
    const double slack = 1e-4; /* the curl keeps distances to ~1e-6 of a width (test_mesh) */
    double w = width, h = height, reach = u + slack * w;
    /* within w of the spine's line, margin and all: point_share moves none onto the reach */
    if (!(reach + m < w * (1.0 - 1e-6)))
        return 1.0;
    double squashed = reach / w + m / sqrt(w * w - reach * reach);
    double past = (sqrt(reach * reach + h * h) - h + m + slack * w) / overhang;
    double need = mesh_least(1.0, mesh_most(squashed, past));
    if (!span->cut) {
        double out_lo = mesh_most(0.0, span->lo + reach), out_hi = mesh_most(0.0, reach - span->hi);
        need = mesh_most(need, span_share(grown(out_lo, m), span->grow_lo));
        need = mesh_most(need, span_share(grown(out_hi, m), span->grow_hi));
    }
    return need + slack;
}

float mesh_reach_share(const CurlParams *pose, float width, float height, const MeshReachSpan *span)
{
    enum { N = SHARE_NY + 1 };
    double share = 0.0, m = MESH_REACH_MARGIN * width, fade = MESH_REACH_FADE * width;
    double h = height, lo = span->lo, hi = span->hi, overhang = mesh_reach_overhang(width, height);
    /* The bounds hold for a leaf whose spine the pose leaves flat (both its ends on the fold's
     * flat side), as every turn's does; a pose that folds the spine, a cone far tighter than any
     * pose makes, or a page without size is worked out whole. */
    double fx = pose->fold.v[0], fy = pose->fold.v[1], nx = pose->fold.v[2], ny = pose->fold.v[3];
    bool spine_flat =
        nx * nx + ny * ny > 1e-20 && -fx * nx - fy * ny <= 0.0 && -fx * nx + (h - fy) * ny <= 0.0;
    bool bounded = spine_flat && fabs((double)pose->shape.v[1]) * width <= 64.0 && width > 0.0f &&
                   height > 0.0f && overhang > 0.0;
    MeshCurlCache cache;
    cache.have = MESH_CURL_CACHED_NOTHING; /* the rest is written before it is read */
    /* From the free edge in, where a leaf reaches furthest: a column whose bound cannot raise the
     * share cannot (nor can any nearer the spine, whose bounds are less); the same bits as every
     * point worked out, as the most of them is. */
    for (int i = SHARE_NX; i >= 0; i--) {
        double u = (double)width * i / SHARE_NX;
        if (bounded && column_bound(u, width, height, overhang, m, span) < share)
            break;
        double xy[2 * N], pos[3 * N];
        for (int j = 0; j < N; j++)
            xy[2 * j] = u, xy[2 * j + 1] = (double)height * j / SHARE_NY;
        mesh_curl_points_cached(pose, &cache, N, xy, pos, NULL);
        for (int k = 0; k < N; k++) {
            const double *p = &pos[3 * k];
            double y = p[1] < 0.0 ? -grown(-p[1], m) : p[1] > h ? h + grown(p[1] - h, m) : p[1];
            double q[3] = {p[0], y, grown(p[2], m)};
            PointShare s = point_share(q, width, height, overhang);
            /* past_span stays 0 where it does not count: a share is never below it */
            double weight = 1.0, past_span = 0.0, out = outside(p[0], lo, hi);
            if (span->cut) {
                double t = mesh_least(1.0, out / fade);
                weight = 1.0 - t * t * (3.0 - 2.0 * t);
            } else if (out > 0.0) {
                double grow = p[0] < lo ? span->grow_lo : span->grow_hi;
                past_span = span_share(grown(out, m), grow);
            }
            /* the wedges' share only where the bound without it could raise the share: every
             * step after it is monotone, so where the bound cannot, the point cannot (the same
             * bits) */
            double need = mesh_most(s.hi, past_span);
            if (weight * need > share)
                need = mesh_most(point_share_of(&s), past_span);
            share = mesh_most(share, weight * need);
        }
    }
    return (float)share;
}
