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
    for (int r = 0; r <= MESH_REACH_RADII; r++) {
        double rho = w * r / MESH_REACH_RADII;
        for (int a = 0; a < PER; a++) {
            double x = mesh_least((double)x_hi, mesh_most((double)x_lo, rho * c[a])),
                   z = rho * sn[a];
            for (int end = 0; end < 2; end++) {
                out[n][0] = (float)x;
                out[n][1] = (float)(end ? h + past : -past);
                out[n][2] = (float)z;
                n++;
            }
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

float mesh_reach_share(const CurlParams *pose, float width, float height, const MeshReachSpan *span)
{
    enum { N = (SHARE_NX + 1) * (SHARE_NY + 1) };
    double xy[2 * N], pos[3 * N];
    for (int j = 0, k = 0; j <= SHARE_NY; j++)
        for (int i = 0; i <= SHARE_NX; i++, k++) {
            xy[2 * k] = (double)width * i / SHARE_NX;
            xy[2 * k + 1] = (double)height * j / SHARE_NY;
        }
    mesh_curl_points(pose, N, xy, pos, NULL);
    double share = 0.0, m = MESH_REACH_MARGIN * width, fade = MESH_REACH_FADE * width;
    double h = height, lo = span->lo, hi = span->hi, overhang = mesh_reach_overhang(width, height);
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
        /* the wedges' share only where the bound without it could raise the share: every step
         * after it is monotone, so where the bound cannot, the point cannot (the same bits) */
        double need = mesh_most(s.hi, past_span);
        if (weight * need > share)
            need = mesh_most(point_share_of(&s), past_span);
        share = mesh_most(share, weight * need);
    }
    return (float)share;
}
