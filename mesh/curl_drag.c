/* SPDX-License-Identifier: MIT */
/* From a drag to a pose of the map in curl.c. The grabbed point G may go anywhere no further from
 * either spine end than it is at rest (a lens through G and its mirror G'); the roll radius shrinks
 * to 0 towards the lens's edge, where the only pose left is the flat fold along the bisector of G
 * and the pointer, so the whole lens is reachable. Inside, the fold's angle and offset are solved
 * (2-D Newton) so that G's image lies over the pointer; the cone's kappa follows the grab
 * height. */
#include "curl.h"

#include <math.h>
#include <stdbool.h>

#define DRAG_PI 3.14159265358979323846
/* How far the scripted pointer path of mesh_curl_pose bows away from the grab height, in page
 * widths: a corner grab leads with its corner, as a hand turns a page. Small enough to keep the
 * path inside the lens for every g (checked in tests/test_mesh.c). */
#define DRAG_LIFT 0.6
/* The roll may use this share of the room between the bisector and the nearer spine end: the
 * fold sits at most a roll's arc length (pi + ramp) r past the bisector. */
#define DRAG_SPINE_SHARE 0.7
/* The apex stays outside the rolled part of the page: 1 + kappa u >= this everywhere there, so the
 * curvature grows by at most 1 / DRAG_APEX_MIN towards the apex. */
#define DRAG_APEX_MIN     0.35
#define DRAG_NEWTON_STEPS 40

static CurlParams flat_pose(void)
{
    /* A fold line far beyond any page: nothing is past it. */
    CurlParams p = {.fold = {{3.0e38f, 0.0f, 1.0f, 0.0f}}, .shape = {{0.0f, 0.0f, 0.0f, 0.0f}}};
    return p;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Limits kappa so that the apex lies outside the rolled part of the page: the extremes of u over
 * that polygon are at its corners (page corners past the fold, fold line x page border). */
static double apex_clamp(double kappa, const double p0[2], const double n[2], double W, double H)
{
    double d[2] = {-n[1], n[0]}, umin = INFINITY, umax = -INFINITY;
    const double cx[4] = {0.0, W, W, 0.0}, cy[4] = {0.0, 0.0, H, H};
    for (int c = 0; c < 4; c++) {
        double ex = cx[c] - p0[0], ey = cy[c] - p0[1];
        if (ex * n[0] + ey * n[1] > 0.0) {
            double u = ex * d[0] + ey * d[1];
            umin = fmin(umin, u), umax = fmax(umax, u);
        }
        /* where the fold line (along d) crosses the border edge from corner c to c + 1 */
        double ax = cx[c], ay = cy[c], bx = cx[(c + 1) % 4], by = cy[(c + 1) % 4];
        double va = (ax - p0[0]) * n[0] + (ay - p0[1]) * n[1];
        double vb = (bx - p0[0]) * n[0] + (by - p0[1]) * n[1];
        if ((va <= 0.0) != (vb <= 0.0)) {
            double f = va / (va - vb);
            double u = (ax + f * (bx - ax) - p0[0]) * d[0] + (ay + f * (by - ay) - p0[1]) * d[1];
            umin = fmin(umin, u), umax = fmax(umax, u);
        }
    }
    if (kappa > 0.0 && umin < 0.0)
        kappa = fmin(kappa, (1.0 - DRAG_APEX_MIN) / -umin);
    if (kappa < 0.0 && umax > 0.0)
        kappa = fmax(kappa, -(1.0 - DRAG_APEX_MIN) / umax);
    return kappa;
}

typedef struct DragShape {
    double gx, gy, r, kappa, W, H;
    /* what the residuals share: most keep the roll, many the fold's direction too */
    MeshCurlCache *cache;
} DragShape;

static CurlParams make_pose(const DragShape *sh, double phi, double s)
{
    double n[2] = {cos(phi), sin(phi)};
    double p0[2] = {sh->gx - s * n[0], sh->gy - s * n[1]};
    double kappa = apex_clamp(sh->kappa, p0, n, sh->W, sh->H);
    CurlParams p = {
        .fold = {{(float)p0[0], (float)p0[1], (float)n[0], (float)n[1]}},
        .shape = {{(float)sh->r, (float)kappa, (float)(MESH_CURL_RAMP * sh->r), 0.0f}},
    };
    return p;
}

/* Where G lands (x, y) minus the pointer. */
static void residual(const DragShape *sh, double phi, double s, double qx, double qy, double out[2])
{
    CurlParams p = make_pose(sh, phi, s);
    double pos[3], nrm[3];
#ifdef MESH_CURL_DRAG_REFERENCE /* tests/curl_drag_reference.c: every residual from scratch */
    mesh_curl_point(&p, sh->gx, sh->gy, pos, nrm);
#else
    mesh_curl_point_cached(&p, sh->cache, sh->gx, sh->gy, pos, nrm);
#endif
    out[0] = pos[0] - qx, out[1] = pos[1] - qy;
}

/* Damped Newton with a central-difference Jacobian; returns the final residual's length. */
static double solve(const DragShape *sh, double qx, double qy, double *phi, double *s)
{
    double f[2], eps_s = 1e-4 * sh->W, eps_phi = 1e-4;
    residual(sh, *phi, *s, qx, qy, f);
    double norm = hypot(f[0], f[1]);
    for (int it = 0; it < DRAG_NEWTON_STEPS && norm > 1e-7 * sh->W; it++) {
        double a[2], b[2], c[2], e[2];
        /* the s steps first: they keep the fold's direction, whose frames the cache holds */
        residual(sh, *phi, *s + eps_s, qx, qy, c);
        residual(sh, *phi, *s - eps_s, qx, qy, e);
        residual(sh, *phi + eps_phi, *s, qx, qy, a);
        residual(sh, *phi - eps_phi, *s, qx, qy, b);
        double j00 = (a[0] - b[0]) / (2 * eps_phi), j10 = (a[1] - b[1]) / (2 * eps_phi);
        double j01 = (c[0] - e[0]) / (2 * eps_s), j11 = (c[1] - e[1]) / (2 * eps_s);
        double det = j00 * j11 - j01 * j10;
        if (!(fabs(det) > 1e-300))
            break;
        double dphi = (j11 * f[0] - j01 * f[1]) / det, ds = (-j10 * f[0] + j00 * f[1]) / det;
        double lambda = 1.0;
        bool better = false;
        for (int k = 0; k < 12 && !better; k++, lambda *= 0.5) {
            double g[2];
            residual(sh, *phi - lambda * dphi, *s - lambda * ds, qx, qy, g);
            if (hypot(g[0], g[1]) < norm) {
                *phi -= lambda * dphi, *s -= lambda * ds;
                f[0] = g[0], f[1] = g[1], norm = hypot(g[0], g[1]);
                better = true;
            }
        }
        if (!better)
            break;
    }
    return norm;
}

/* The lens: |Q| <= |G| and |Q - (0, H)| <= |G - (0, H)|; every spine point (0, y) lies between
 * the two ends, and |Q - (0, y)|^2 - |G - (0, y)|^2 is linear in y, so the ends bound it. */
static void reach(double gx, double gy, double H, double *qx, double *qy)
{
    const double ex[2] = {0.0, 0.0}, ey[2] = {0.0, H};
    double rad[2] = {hypot(gx - ex[0], gy - ey[0]), hypot(gx - ex[1], gy - ey[1])};
    double tol = 1e-12 * (rad[0] + rad[1]);
    bool in[2];
    for (int i = 0; i < 2; i++)
        in[i] = hypot(*qx - ex[i], *qy - ey[i]) <= rad[i];
    if (in[0] && in[1])
        return;
    /* Nearest point on the boundary: a circle's radial projection if it lies on the lens's arc,
     * else one of the corners G, G'. */
    double best[2] = {gx, gy}, bd = hypot(*qx - gx, *qy - gy);
    if (hypot(*qx + gx, *qy - gy) < bd)
        best[0] = -gx, best[1] = gy, bd = hypot(*qx + gx, *qy - gy);
    for (int i = 0; i < 2; i++) {
        double dx = *qx - ex[i], dy = *qy - ey[i], l = hypot(dx, dy);
        if (in[i] || !(l > 0.0))
            continue;
        double px = ex[i] + dx / l * rad[i], py = ey[i] + dy / l * rad[i];
        int o = 1 - i;
        if (hypot(px - ex[o], py - ey[o]) <= rad[o] + tol && hypot(*qx - px, *qy - py) < bd)
            best[0] = px, best[1] = py, bd = hypot(*qx - px, *qy - py);
    }
    *qx = best[0], *qy = best[1];
}

static bool page_ok(double W, double H)
{
    return isfinite(W) && isfinite(H) && W > 0.0 && H > 0.0;
}

MeshVec2 mesh_curl_reach(MeshVec2 grab, MeshVec2 pointer, float width, float height)
{
    double W = width, H = height;
    if (!page_ok(W, H) || isnan(grab.x) || isnan(grab.y) || isnan(pointer.x) || isnan(pointer.y))
        return grab;
    double gx = clampd(grab.x, 0.0, W), gy = clampd(grab.y, 0.0, H);
    double big = 4.0 * (W + H); /* infinities become far points, in the same direction */
    double qx = clampd(pointer.x, -big, big), qy = clampd(pointer.y, -big, big);
    reach(gx, gy, H, &qx, &qy);
    return (MeshVec2){(float)qx, (float)qy};
}

static CurlParams drag(double gx, double gy, double qx, double qy, double W, double H)
{
    reach(gx, gy, H, &qx, &qy);
    double dist = hypot(gx - qx, gy - qy);
    if (!(dist > 1e-7 * W))
        return flat_pose();
    double n0[2] = {(gx - qx) / dist, (gy - qy) / dist};
    double mx = 0.5 * (gx + qx), my = 0.5 * (gy + qy);
    /* Room between the bisector and the nearer spine end, on the flat side. */
    double room = fmax(0.0, fmin(mx * n0[0] + my * n0[1], mx * n0[0] + (my - H) * n0[1]));
    double arc = DRAG_PI + MESH_CURL_RAMP;
    MeshCurlCache cache = {0};
    DragShape sh = {gx, gy, 0.0, 0.0, W, H, &cache};
    /* dist / 5 keeps G past the roll, so the cylinder's offset below is exact. */
    sh.r = fmin(MESH_CURL_RADIUS_MID * W, fmin(dist / 5.0, DRAG_SPINE_SHARE * room / arc));
    double kappa = MESH_CURL_KAPPA_MAX / W * (1.0 - 2.0 * gy / H);

    for (int attempt = 0; attempt < 24; attempt++) {
        /* The cylinder's answer (G mirrored across a line arc r / 2 past the bisector), then
         * kappa in steps from 0: each solve starts next to its answer. */
        double phi = atan2(n0[1], n0[0]), s = 0.5 * (dist + arc * sh.r);
        double phi_ok = phi, s_ok = s;
        double kappa_ok = 0.0;
        for (int step = 0; step <= 4; step++) {
            sh.kappa = kappa * step / 4.0;
            if (solve(&sh, qx, qy, &phi, &s) > 1e-6 * W)
                break;
            phi_ok = phi, s_ok = s, kappa_ok = sh.kappa;
        }
        sh.kappa = kappa_ok;
        CurlParams p = make_pose(&sh, phi_ok, s_ok);
        /* The spine ends stay on the flat side; if the cone's fold strays past one, a smaller roll
         * brings it back towards the bisector (r = 0 is the bisector itself). */
        double pv0 = -p.fold.v[0] * p.fold.v[2] - p.fold.v[1] * p.fold.v[3];
        double pv1 = pv0 + H * p.fold.v[3];
        if ((pv0 <= 0.0 && pv1 <= 0.0) || sh.r == 0.0)
            return p;
        sh.r = attempt < 22 ? 0.5 * sh.r : 0.0;
    }
    return flat_pose();
}

CurlParams mesh_curl_drag(MeshVec2 grab, MeshVec2 pointer, float width, float height)
{
    double W = width, H = height;
    if (!page_ok(W, H) || isnan(grab.x) || isnan(grab.y) || isnan(pointer.x) || isnan(pointer.y))
        return flat_pose();
    double gx = clampd(grab.x, 0.0, W), gy = clampd(grab.y, 0.0, H);
    double big = 4.0 * (W + H);
    return drag(gx, gy, clampd(pointer.x, -big, big), clampd(pointer.y, -big, big), W, H);
}

CurlParams mesh_curl_pose(float t_in, float g_in, float width, float height)
{
    double W = width, H = height;
    if (!page_ok(W, H))
        return flat_pose();
    double t = isnan(t_in) ? 0.0 : clampd(t_in, 0.0, 1.0);
    double g = isnan(g_in) ? 0.5 : clampd(g_in, 0.0, 1.0);
    double gx = W, gy = g * H;
    /* The pointer path: straight across to the mirror G', bowed towards the page's middle for
     * off-centre grabs. The bow grows as t^2, so the path leaves G along -x: the fold line starts
     * parallel to the free edge and nothing jumps at t = 0 (a fold through G at a finite tilt
     * would cut off a finite corner of the page at once). */
    double qx = W * (1.0 - 2.0 * t);
    double qy = gy + (1.0 - 2.0 * g) * DRAG_LIFT * W * sin(DRAG_PI * t) * sin(0.5 * DRAG_PI * t);
    return drag(gx, gy, qx, qy, W, H);
}
