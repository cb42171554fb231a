/* SPDX-License-Identifier: MIT */
/* Inside the reach lens, mesh_curl_drag puts the grabbed point's image over the plane pointer Q
 * and lifts it by some h(Q) >= 0: its locus is the height field (Q, h(Q)), and h = 0 on the lens's
 * edge (the roll shrinks to a flat fold there). A ray meets that field where its height z equals
 * h of its own ground point: a root of g(z) = z - h(P(z)). g is sampled down the ray from above
 * every lift to the plane, and the topmost crossing (the one the eye sees) is closed by
 * bracketing. Mostly h rises gently (by ~0.4 per unit of Q), but next to the lens's edge on either
 * side of the grab it rises by up to ~8: rays there may cross the field even where they meet the
 * plane outside the lens, so the sampling does not stop at the lens. A ray that never crosses it
 * has no pose on it; the nearest one, in angle from the ray's origin, is the lens edge's nearest
 * point (the lens is convex: unique, continuous in the ray) or a ridge of the field next to it or
 * to the scan's nearest miss, found by a projected Gauss-Newton search from those starts. */
#include "drag_ray.h"

#include <math.h>
#include <stdbool.h>

#define DRAG_RAY_PI 3.14159265358979323846

/* The root's bracket is closed to this height (page widths): 1e-9 W is ~1e-6 px. */
#define RAY_ROOT_TOL   1e-9
#define RAY_ROOT_STEPS 60
/* First guess at a height above every lift, in page widths: the roll's diameter is at most
 * 2 * MESH_CURL_RADIUS_MID = 0.32; doubled while the guess is not above the field. */
#define RAY_LIFT_MAX 0.6
/* Samples along each of the lens's two arcs before the golden-section refinement. */
#define RAY_EDGE_SAMPLES 64
#define RAY_EDGE_REFINE  60
/* Samples of g down the ray: a ridge of the field that pokes above the ray between two samples
 * (under 1/32 of the lift range) is missed, and the pose then comes from the nearest-pose search.
 */
#define RAY_SCAN 32
/* Finite-difference step of the nearest-pose search, in page widths: far above the float pose's
 * noise (~1e-7 W), far under the scale on which the lift bends. */
#define RAY_DIFF_STEP  1e-4
#define RAY_NEAR_STEPS 30
/* A point at or behind the ray's origin counts as this far along it (page widths). */
#define RAY_MIN_ALONG 1e-6

typedef struct RayFrame {
    double o[3], d[3], e1[3], e2[3]; /* origin, unit direction, unit axes across it */
    MeshVec2 grab;
    float w, h;
} RayFrame;

static bool ray_frame(MeshVec2 grab, const MeshRay *ray, float width, float height, RayFrame *f)
{
    double len = sqrt(mesh_dot3(ray->dir, ray->dir));
    if (!(width > 0.0f && height > 0.0f && isfinite(width) && isfinite(height) && len > 0.0 &&
          isfinite(len) && isfinite(mesh_dot3(ray->origin, ray->origin)) && isfinite(grab.x) &&
          isfinite(grab.y)))
        return false;
    for (int i = 0; i < 3; i++)
        f->o[i] = ray->origin[i], f->d[i] = ray->dir[i] / len;
    mesh_ray_across(f->d, f->e1, f->e2);
    f->grab.x = fminf(fmaxf(grab.x, 0.0f), width);
    f->grab.y = fminf(fmaxf(grab.y, 0.0f), height);
    f->w = width, f->h = height;
    return true;
}

/* The angle between the ray and the direction from its origin to p. */
static double angle_to(const RayFrame *f, const double p[3])
{
    double r[3] = {p[0] - f->o[0], p[1] - f->o[1], p[2] - f->o[2]};
    double along = mesh_dot3(r, f->d);
    double c[3];
    mesh_cross3(r, f->d, c);
    return atan2(sqrt(mesh_dot3(c, c)), along);
}

/* The curled grabbed point for plane pointer q. */
static void grabbed(const RayFrame *f, MeshVec2 q, double p[3])
{
    CurlParams pose = mesh_curl_drag(f->grab, q, f->w, f->h);
    double n[3];
    mesh_curl_point(&pose, f->grab.x, f->grab.y, p, n);
}

/* The curled grabbed point's offset across the ray over its distance along it: about the angle,
 * split in two smooth components for Gauss-Newton. */
static void miss2(const RayFrame *f, MeshVec2 q, double out[2])
{
    double p[3];
    grabbed(f, q, p);
    double r[3] = {p[0] - f->o[0], p[1] - f->o[1], p[2] - f->o[2]};
    double along = fmax(mesh_dot3(r, f->d), RAY_MIN_ALONG * f->w);
    out[0] = mesh_dot3(r, f->e1) / along, out[1] = mesh_dot3(r, f->e2) / along;
}

static bool reachable(const RayFrame *f, MeshVec2 q)
{
    MeshVec2 r = mesh_curl_reach(f->grab, q, f->w, f->h);
    return r.x == q.x && r.y == q.y;
}

/* The ray's point at height z. */
static MeshVec2 ground(const RayFrame *f, double z)
{
    double t = (z - f->o[2]) / f->d[2];
    return (MeshVec2){(float)(f->o[0] + t * f->d[0]), (float)(f->o[1] + t * f->d[1])};
}

/* g(z): the ray's height over the grabbed point's lift at the ray's ground point there. */
static double above(const RayFrame *f, double z)
{
    double p[3];
    grabbed(f, mesh_curl_reach(f->grab, ground(f, z), f->w, f->h), p);
    return z - p[2];
}

/* The ray's topmost crossing into the field: g sampled from above every lift down to the plane,
 * then Illinois (regula falsi that halves a stale end's weight) on the first bracket. False when
 * the ray stays above the field; *near then holds the sample whose pose comes nearest the ray. */
static bool on_ray(const RayFrame *f, MeshVec2 *q, MeshVec2 *near)
{
    double top = fmin(RAY_LIFT_MAX * f->w, f->o[2]), ghi = above(f, top);
    while (ghi <= 0.0 && top < f->o[2] && top < 8.0 * f->w) {
        top = fmin(2.0 * top, f->o[2]);
        ghi = above(f, top);
    }
    double hi = top, lo = 0.0, glo = 0.0, least = INFINITY;
    bool bracket = false;
    *near = mesh_curl_reach(f->grab, ground(f, 0.0), f->w, f->h);
    for (int i = RAY_SCAN - 1; i >= 0 && !bracket; i--) {
        double z = top * i / RAY_SCAN;
        MeshVec2 p = mesh_curl_reach(f->grab, ground(f, z), f->w, f->h);
        if (z > 0.0 && !reachable(f, ground(f, z))) {
            hi = z, ghi = z; /* off the lens the field is flat: the ray is above it */
            continue;
        }
        double g[3], gz;
        grabbed(f, p, g);
        gz = z - g[2];
        if (gz <= 0.0 && (z > 0.0 || reachable(f, ground(f, 0.0)))) {
            lo = z, glo = gz, bracket = true;
        } else {
            hi = z, ghi = gz;
            double a = angle_to(f, g);
            if (a < least)
                least = a, *near = p;
        }
    }
    if (!bracket)
        return false;
    int side = 0;
    for (int it = 0; it < RAY_ROOT_STEPS && hi - lo > RAY_ROOT_TOL * f->w && glo < 0.0; it++) {
        double z = (lo * ghi - hi * glo) / (ghi - glo);
        if (!(z > lo && z < hi))
            z = 0.5 * (lo + hi);
        double gz = above(f, z);
        if (gz <= 0.0) {
            lo = z, glo = gz;
            if (side == -1)
                ghi *= 0.5;
            side = -1;
        } else {
            hi = z, ghi = gz;
            if (side == 1)
                glo *= 0.5;
            side = 1;
        }
    }
    *q = ground(f, glo == 0.0 ? lo : 0.5 * (lo + hi));
    return true;
}

/* Damped Gauss-Newton (Levenberg-Marquardt) on the plane pointer towards the pose nearest the
 * ray, every step projected back into the lens: from a near miss of the scan, where the ray
 * passes just above a ridge of the field. */
static MeshVec2 refine_near(const RayFrame *f, MeshVec2 q, double *angle)
{
    double r[2], cost, damping = 1e-3;
    const double h = RAY_DIFF_STEP * f->w;
    miss2(f, q, r);
    cost = r[0] * r[0] + r[1] * r[1];
    for (int it = 0; it < RAY_NEAR_STEPS; it++) {
        double a[2], b[2], c[2], e[2];
        miss2(f, (MeshVec2){(float)(q.x + h), q.y}, a);
        miss2(f, (MeshVec2){(float)(q.x - h), q.y}, b);
        miss2(f, (MeshVec2){q.x, (float)(q.y + h)}, c);
        miss2(f, (MeshVec2){q.x, (float)(q.y - h)}, e);
        double j00 = (a[0] - b[0]) / (2 * h), j10 = (a[1] - b[1]) / (2 * h);
        double j01 = (c[0] - e[0]) / (2 * h), j11 = (c[1] - e[1]) / (2 * h);
        double m00 = j00 * j00 + j10 * j10, m01 = j00 * j01 + j10 * j11;
        double m11 = j01 * j01 + j11 * j11;
        double g0 = j00 * r[0] + j10 * r[1], g1 = j01 * r[0] + j11 * r[1];
        bool better = false;
        while (!better && damping < 1e12) {
            double a00 = m00 * (1.0 + damping) + 1e-30, a11 = m11 * (1.0 + damping) + 1e-30;
            double det = a00 * a11 - m01 * m01;
            double dx = -(a11 * g0 - m01 * g1) / det, dy = -(a00 * g1 - m01 * g0) / det;
            if (!isfinite(dx) || !isfinite(dy))
                break;
            MeshVec2 cand = mesh_curl_reach(
                f->grab, (MeshVec2){(float)(q.x + dx), (float)(q.y + dy)}, f->w, f->h);
            double rc[2];
            miss2(f, cand, rc);
            double cc = rc[0] * rc[0] + rc[1] * rc[1];
            if (cc < cost) {
                q = cand, r[0] = rc[0], r[1] = rc[1], cost = cc;
                damping = fmax(damping * 0.1, 1e-9);
                better = true;
            } else {
                damping *= 10.0;
            }
        }
        if (!better)
            break;
    }
    double p[3];
    grabbed(f, q, p);
    *angle = angle_to(f, p);
    return q;
}

/* The lens's edge: arc 0 of the circle about the spine's foot (0, 0) through the grab, where
 * y >= the grab's y; arc 1 of the circle about its head (0, H), where y <= the grab's y. Both run
 * from the grab (s = 0) to its mirror (s = 1). */
static MeshVec2 edge(const RayFrame *f, int arc, double s)
{
    double cy = arc ? f->h : 0.0, gx = f->grab.x, gy = f->grab.y - cy;
    double r = hypot(gx, gy), a0 = atan2(gy, gx), a1 = (arc ? -DRAG_RAY_PI : DRAG_RAY_PI) - a0;
    double a = a0 + s * (a1 - a0);
    return (MeshVec2){(float)(r * cos(a)), (float)(cy + r * sin(a))};
}

static double edge_angle(const RayFrame *f, int arc, double s)
{
    MeshVec2 q = mesh_curl_reach(f->grab, edge(f, arc, s), f->w, f->h);
    double p[3] = {q.x, q.y, 0.0};
    return angle_to(f, p);
}

/* The point of one arc nearest the ray in angle: samples, then golden sections around the best. */
static double nearest_on_arc(const RayFrame *f, int arc, double *angle)
{
    double best_s = 0.0, best = INFINITY;
    for (int i = 0; i <= RAY_EDGE_SAMPLES; i++) {
        double s = (double)i / RAY_EDGE_SAMPLES, a = edge_angle(f, arc, s);
        if (a < best)
            best = a, best_s = s;
    }
    const double phi = 0.5 * (sqrt(5.0) - 1.0);
    double lo = fmax(0.0, best_s - 1.0 / RAY_EDGE_SAMPLES);
    double hi = fmin(1.0, best_s + 1.0 / RAY_EDGE_SAMPLES);
    double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
    double f1 = edge_angle(f, arc, x1), f2 = edge_angle(f, arc, x2);
    for (int it = 0; it < RAY_EDGE_REFINE; it++) {
        if (f1 < f2)
            hi = x2, x2 = x1, f2 = f1, x1 = hi - phi * (hi - lo), f1 = edge_angle(f, arc, x1);
        else
            lo = x1, x1 = x2, f1 = f2, x2 = lo + phi * (hi - lo), f2 = edge_angle(f, arc, x2);
    }
    double s = 0.5 * (lo + hi), a = edge_angle(f, arc, s);
    *angle = a < best ? a : best;
    return a < best ? s : best_s;
}

/* The point of the lens's edge nearest the ray in angle. The lens is convex, so that point is
 * unique; each arc is searched on its own, as the nearest may lie on either next to a corner. */
static MeshVec2 nearest_edge(const RayFrame *f)
{
    double a0, a1, s0 = nearest_on_arc(f, 0, &a0), s1 = nearest_on_arc(f, 1, &a1);
    MeshVec2 q = a0 <= a1 ? edge(f, 0, s0) : edge(f, 1, s1);
    return mesh_curl_reach(f->grab, q, f->w, f->h);
}

MeshVec2 mesh_drag_ray(MeshVec2 grab, const MeshRay *ray, float width, float height)
{
    RayFrame f;
    if (!ray_frame(grab, ray, width, height, &f))
        return isfinite(grab.x) && isfinite(grab.y) ? grab : (MeshVec2){0.0f, 0.0f};
    MeshVec2 q, near;
    if (f.d[2] < 0.0 && f.o[2] > 0.0) {
        if (on_ray(&f, &q, &near))
            return mesh_curl_reach(f.grab, q, f.w, f.h);
    } else {
        near = f.grab;
    }
    /* No pose on the ray: the nearest is the edge's nearest point, or a ridge of the field next
     * to it or to the scan's nearest miss (the lift can rise faster than the ray falls). */
    MeshVec2 best = nearest_edge(&f);
    double p[3], a_best;
    grabbed(&f, best, p);
    a_best = angle_to(&f, p);
    MeshVec2 starts[2] = {best, near};
    for (int i = 0; i < 2; i++) {
        double a;
        MeshVec2 n = refine_near(&f, starts[i], &a);
        if (a < a_best)
            best = n, a_best = a;
    }
    return best;
}

double mesh_drag_ray_miss(MeshVec2 grab, MeshVec2 pointer, const MeshRay *ray, float width,
                          float height)
{
    RayFrame f;
    if (!ray_frame(grab, ray, width, height, &f))
        return INFINITY;
    double p[3];
    grabbed(&f, pointer, p);
    return angle_to(&f, p);
}
