/* SPDX-License-Identifier: MIT */
#include "pick.h"

#include <math.h>
#include <stdlib.h>

/* Newton stops when a step moves the rest point less than this (page widths): far below the
 * 1/1024 of a texel of the largest content, far above double's noise. */
#define PICK_STEP_DONE      1e-11
#define PICK_MAX_ITERATIONS 24
/* The refined point must lie this close to the ray (page widths); beyond it the start was a
 * graze off the page's edge. A tenth of a texel of 1024^2 content: well above the few 1e-6 by
 * which a ray unprojected through float matrices misses the point it was projected from. */
#define PICK_ON_RAY 1e-4
/* Vertices of the coarse mesh this close to the ray (in cells) also start a refinement: near the
 * roll's silhouette the ray can pass between the true surface and its chords. */
#define PICK_NEAR_CELLS 1.5
/* Most starts refined: the nearest along the ray first, so this many only on a ray that skims
 * along the whole page. */
#define PICK_MAX_STARTS 96

typedef struct Start {
    double x, y, t;
} Start;

double mesh_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void mesh_cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void mesh_ray_across(const double d[3], double e1[3], double e2[3])
{
    /* any axis not along d: x unless d lies near it */
    double a[3] = {fabs(d[0]) < 0.9 ? 1.0 : 0.0, fabs(d[0]) < 0.9 ? 0.0 : 1.0, 0.0};
    mesh_cross3(d, a, e1);
    double l1 = sqrt(mesh_dot3(e1, e1));
    e1[0] /= l1, e1[1] /= l1, e1[2] /= l1;
    mesh_cross3(d, e1, e2);
}

/* Moeller-Trumbore: the ray parameter and barycentrics (b1, b2) of the hit, if any. */
static bool ray_triangle(const MeshRay *ray, const double *a, const double *b, const double *c,
                         double *t, double *b1, double *b2)
{
    double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double p[3], q[3], s[3] = {ray->origin[0] - a[0], ray->origin[1] - a[1], ray->origin[2] - a[2]};
    mesh_cross3(ray->dir, e2, p);
    double det = mesh_dot3(e1, p);
    if (fabs(det) < 1e-300)
        return false;
    double inv = 1.0 / det;
    double u = mesh_dot3(s, p) * inv;
    if (u < 0.0 || u > 1.0)
        return false;
    mesh_cross3(s, e1, q);
    double v = mesh_dot3(ray->dir, q) * inv;
    if (v < 0.0 || u + v > 1.0)
        return false;
    *t = mesh_dot3(e2, q) * inv;
    *b1 = u, *b2 = v;
    return *t > 0.0;
}

static void start_add(Start *starts, int *count, Start s)
{
    if (*count < PICK_MAX_STARTS) {
        starts[(*count)++] = s;
        return;
    }
    int far = 0; /* full: the start furthest along the ray gives way to a nearer one */
    for (int i = 1; i < *count; i++)
        if (starts[i].t > starts[far].t)
            far = i;
    if (s.t < starts[far].t)
        starts[far] = s;
}

static int by_t(const void *a, const void *b)
{
    double ta = ((const Start *)a)->t, tb = ((const Start *)b)->t;
    return (ta > tb) - (ta < tb);
}

/* Where refinements start, nearest along the ray first: every coarse triangle the ray crosses
 * and every coarse vertex close to the ray. */
static int coarse_starts(const CurlParams *pose, double w, double h, const MeshRay *ray,
                         Start *starts)
{
    int nx = MESH_PICK_CELLS + 1;
    int ny = (int)ceil(MESH_PICK_CELLS * h / w) + 1;
    double *pos = malloc((size_t)nx * (size_t)ny * 3 * sizeof *pos);
    if (!pos)
        return 0;
    for (int j = 0; j < ny; j++) { /* a row at a time: the pose's profile once per row */
        double xy[MESH_PICK_CELLS + 1][2];
        for (int i = 0; i < nx; i++)
            xy[i][0] = w * i / (nx - 1), xy[i][1] = h * j / (ny - 1);
        mesh_curl_points(pose, (size_t)nx, &xy[0][0], &pos[3 * (size_t)j * nx], NULL);
    }
    int count = 0;
    double near = PICK_NEAR_CELLS * w / MESH_PICK_CELLS, dd = mesh_dot3(ray->dir, ray->dir);
    for (int k = 0; k < nx * ny; k++) {
        const double *q = &pos[3 * k];
        double r[3] = {q[0] - ray->origin[0], q[1] - ray->origin[1], q[2] - ray->origin[2]};
        double along = mesh_dot3(r, ray->dir) / dd;
        double off[3] = {r[0] - along * ray->dir[0], r[1] - along * ray->dir[1],
                         r[2] - along * ray->dir[2]};
        if (along > 0.0 && mesh_dot3(off, off) < near * near)
            start_add(starts, &count,
                      (Start){w * (k % nx) / (nx - 1), h * (k / nx) / (ny - 1), along});
    }
    /* the cell's two triangles, as the grid splits it (mesh/grid.h) */
    static const int corner[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 1}, {0, 1}}};
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++)
            for (int k = 0; k < 2; k++) {
                const double *v[3];
                for (int c = 0; c < 3; c++)
                    v[c] = &pos[3 * ((j + corner[k][c][1]) * nx + i + corner[k][c][0])];
                double t = 0.0, b1 = 0.0, b2 = 0.0;
                if (!ray_triangle(ray, v[0], v[1], v[2], &t, &b1, &b2))
                    continue;
                double b0 = 1.0 - b1 - b2, gx = i, gy = j;
                for (int c = 0; c < 3; c++) {
                    double b = c == 0 ? b0 : c == 1 ? b1 : b2;
                    gx += b * corner[k][c][0], gy += b * corner[k][c][1];
                }
                start_add(starts, &count, (Start){w * gx / (nx - 1), h * gy / (ny - 1), t});
            }
    free(pos);
    qsort(starts, (size_t)count, sizeof *starts, by_t);
    return count;
}

/* The offsets from the ray, in the plane across it (basis e1, e2), of S at (x, y) and at the four
 * points +-step along x and y around it: f[0..1] at the centre, then x+, x-, y+, y-. */
static void residuals(const CurlParams *pose, const MeshRay *ray, const double e1[3],
                      const double e2[3], double x, double y, double step, double f[5][2])
{
    double xy[5][2] = {{x, y}, {x + step, y}, {x - step, y}, {x, y + step}, {x, y - step}};
    double p[5][3];
    mesh_curl_points(pose, 5, &xy[0][0], &p[0][0], NULL);
    for (int k = 0; k < 5; k++) {
        double r[3] = {p[k][0] - ray->origin[0], p[k][1] - ray->origin[1],
                       p[k][2] - ray->origin[2]};
        f[k][0] = mesh_dot3(r, e1), f[k][1] = mesh_dot3(r, e2);
    }
}

/* Newton on F(x, y) = 0 from a start, with a central-difference Jacobian (the map is C1; its
 * curvature steps make second derivatives jump, which Newton near the root does not mind).
 * False when it ends off the ray. */
static bool refine(const CurlParams *pose, double w, double h, const MeshRay *ray,
                   const double e1[3], const double e2[3], double *x, double *y)
{
    const double step = 1e-6 * w;
    double f[5][2];
    for (int it = 0; it < PICK_MAX_ITERATIONS; it++) {
        residuals(pose, ray, e1, e2, *x, *y, step, f);
        double j00 = (f[1][0] - f[2][0]) / (2 * step), j10 = (f[1][1] - f[2][1]) / (2 * step);
        double j01 = (f[3][0] - f[4][0]) / (2 * step), j11 = (f[3][1] - f[4][1]) / (2 * step);
        double det = j00 * j11 - j01 * j10;
        if (!(fabs(det) > 1e-300))
            break; /* the sheet is seen exactly edge-on */
        double dx = -(j11 * f[0][0] - j01 * f[0][1]) / det;
        double dy = -(-j10 * f[0][0] + j00 * f[0][1]) / det;
        /* near the silhouette the Jacobian is nearly singular: no step beyond a coarse cell */
        double limit = w / MESH_PICK_CELLS, length = hypot(dx, dy);
        if (length > limit)
            dx *= limit / length, dy *= limit / length;
        double nx = fmin(fmax(*x + dx, 0.0), w), ny = fmin(fmax(*y + dy, 0.0), h);
        double moved = hypot(nx - *x, ny - *y);
        *x = nx, *y = ny;
        if (moved < PICK_STEP_DONE * w)
            break;
    }
    residuals(pose, ray, e1, e2, *x, *y, step, f);
    return hypot(f[0][0], f[0][1]) <= PICK_ON_RAY * w;
}

bool mesh_pick_curl(const CurlParams *pose, float width, float height, const MeshRay *ray,
                    MeshPick *out)
{
    double w = width, h = height, len = sqrt(mesh_dot3(ray->dir, ray->dir));
    if (!(w > 0.0 && h > 0.0 && len > 0.0 && isfinite(len)))
        return false;
    Start starts[PICK_MAX_STARTS];
    int count = coarse_starts(pose, w, h, ray, starts);
    /* an orthonormal basis across the ray */
    double d[3] = {ray->dir[0] / len, ray->dir[1] / len, ray->dir[2] / len};
    double e1[3], e2[3];
    mesh_ray_across(d, e1, e2);
    /* A start lies within a few cells of the point it refines to: once a hit is found, starts
     * further along the ray than that cannot give a nearer one. */
    double reach = 4.0 * w / MESH_PICK_CELLS / len;
    bool found = false;
    for (int i = 0; i < count && !(found && starts[i].t > out->t + reach); i++) {
        double x = starts[i].x, y = starts[i].y;
        if (!refine(pose, w, h, ray, e1, e2, &x, &y))
            continue;
        double p[3], n[3];
        mesh_curl_point(pose, x, y, p, n);
        double r[3] = {p[0] - ray->origin[0], p[1] - ray->origin[1], p[2] - ray->origin[2]};
        double t = mesh_dot3(r, ray->dir) / (len * len);
        if (t > 0.0 && (!found || t < out->t)) {
            *out = (MeshPick){.x = x, .y = y, .t = t, .plus_z = mesh_dot3(n, ray->dir) < 0.0};
            found = true;
        }
    }
    return found;
}
