/* SPDX-License-Identifier: MIT */
/* The grabbed point on the pointer's ray (mesh/drag_ray.c), checked on screen: for many cameras
 * (the window's own and others around the book, straight down to 55 degrees oblique, near and
 * far, wide and narrow), grabs and pointer pixels, the curled grabbed point is projected with the
 * camera's matrices and compared with the pointer. Within reach: sub-pixel. Out of reach: no
 * sampled reachable pose comes nearer, and the answer moves continuously with the pointer. */
#include "book/book.h"
#include "book/camera.h"
#include "check.h"
#include "mesh/drag_ray.h"
#include "mesh/grid.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#define VW 1280.0
#define VH 720.0

/* The brute-force search (sampled_least_miss) runs for the pointers of the fan whose i + j is a
 * multiple of this. Under the sanitizers for half of those: there it reaches no code that the
 * solve's own checks do not (the same lines and branches of mesh/ and book/ with every sampled
 * pointer or one a grab, gcov), and its 441 poses a pointer cost five times as much. */
#ifdef PAGECURL_SANITIZED
#define LEAST_MISS_EVERY 12
#else
#define LEAST_MISS_EVERY 6
#endif

typedef struct Camera {
    mat4 view_proj, inverse;
    const char *name;
} Camera;

static void camera_look(Camera *c, const char *name, vec3 eye, vec3 centre, float fov_deg)
{
    mat4 view, proj;
    vec3 up = {0.0f, 1.0f, 0.0f};
    if (fabsf(eye[0] - centre[0]) < 1e-6f && fabsf(eye[1] - centre[1]) < 1e-6f)
        up[0] = 0.0f, up[1] = 1.0f, up[2] = 0.0f, eye[1] -= 1e-4f; /* straight down */
    glm_lookat(eye, centre, up, view);
    glm_perspective(glm_rad(fov_deg), (float)(VW / VH), 0.05f, 40.0f, proj);
    proj[1][1] *= -1.0f;
    glm_mat4_mul(proj, view, c->view_proj);
    glm_mat4_inv(c->view_proj, c->inverse);
    c->name = name;
}

/* The pixel (pixel centres at +0.5) where a point of the page frame shows; false behind. */
static bool project(const Camera *c, const double p[3], double px[2])
{
    double clip[4];
    for (int r = 0; r < 4; r++)
        clip[r] = c->view_proj[0][r] * p[0] + c->view_proj[1][r] * p[1] +
                  c->view_proj[2][r] * p[2] + c->view_proj[3][r];
    if (!(clip[3] > 0.0))
        return false;
    px[0] = (clip[0] / clip[3] + 1.0) * 0.5 * VW - 0.5;
    px[1] = (clip[1] / clip[3] + 1.0) * 0.5 * VH - 0.5;
    return true;
}

/* The line of sight through a pixel, as book/camera.c makes it, in double. */
static MeshRay pixel_ray(const Camera *c, double px, double py)
{
    double nx = 2.0 * (px + 0.5) / VW - 1.0, ny = 2.0 * (py + 0.5) / VH - 1.0, a[4], b[4];
    for (int r = 0; r < 4; r++) {
        a[r] = c->inverse[0][r] * nx + c->inverse[1][r] * ny + c->inverse[3][r];
        b[r] = a[r] + c->inverse[2][r];
    }
    MeshRay ray;
    for (int i = 0; i < 3; i++)
        ray.origin[i] = a[i] / a[3], ray.dir[i] = b[i] / b[3] - ray.origin[i];
    return ray;
}

/* Where the curled grabbed point shows for the pose of plane pointer q. */
static bool grab_pixel(const Camera *c, MeshVec2 grab, MeshVec2 q, double px[2])
{
    CurlParams pose = mesh_curl_drag(grab, q, MESH_PAGE_WIDTH, MESH_PAGE_HEIGHT);
    double p[3], n[3];
    mesh_curl_point(&pose, grab.x, grab.y, p, n);
    return project(c, p, px);
}

/* The least miss over a grid of reachable pointers: what a brute-force search finds. */
static double sampled_least_miss(MeshVec2 grab, const MeshRay *ray)
{
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    double best = INFINITY;
    for (int j = 0; j <= 20; j++)
        for (int i = 0; i <= 20; i++) {
            MeshVec2 q = {(float)(-W + 2.0 * W * i / 20), (float)(-0.2 * H + 1.4 * H * j / 20)};
            MeshVec2 r = mesh_curl_reach(grab, q, W, H);
            best = fmin(best, mesh_drag_ray_miss(grab, r, ray, W, H));
        }
    return best;
}

typedef struct Tally {
    size_t on, off, sampled;
    double worst_on_px, worst_old_px, worst_vs_sampled, worst_step_px;
} Tally;

static void check_camera(const Camera *c, Tally *t)
{
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    const MeshVec2 grabs[] = {{W, 0.0f}, {W, 0.25f * H}, {W, 0.5f * H}, {W, H}, {0.6f * W, 0.8f}};
    /* the pixels where the grabbed point shows at rest, and pointers around it */
    for (size_t g = 0; g < sizeof grabs / sizeof grabs[0]; g++) {
        double rest[2], origin_px[2];
        double at[3] = {0.0, 0.5 * H, 0.0}, gp[3] = {grabs[g].x, grabs[g].y, 0.0};
        if (!project(c, at, origin_px) || !project(c, gp, rest))
            continue;
        for (int j = 0; j <= 8; j++)
            for (int i = 0; i <= 12; i++) {
                /* from the grab's rest pixel towards and past the spine's mirror image */
                double fx = -0.2 + 2.6 * i / 12.0, fy = -0.6 + 1.2 * j / 8.0;
                double dx = origin_px[0] - rest[0], dy = origin_px[1] - rest[1];
                double px = rest[0] + fx * dx - fy * dy * 0.8,
                       py = rest[1] + fx * dy + fy * dx * 0.8;
                MeshRay ray = pixel_ray(c, px, py);
                MeshVec2 q = mesh_drag_ray(grabs[g], &ray, W, H);
                double miss = mesh_drag_ray_miss(grabs[g], q, &ray, W, H), shown[2];
                if (!grab_pixel(c, grabs[g], q, shown)) {
                    t->worst_on_px = INFINITY;
                    continue;
                }
                double err = hypot(shown[0] - px, shown[1] - py);
                if (miss < 1e-6) {
                    t->on++;
                    t->worst_on_px = fmax(t->worst_on_px, err);
                    /* the plane mapping's answer, for the record: what the solve corrects */
                    MeshVec2 plane = {
                        (float)(ray.origin[0] - ray.origin[2] / ray.dir[2] * ray.dir[0]),
                        (float)(ray.origin[1] - ray.origin[2] / ray.dir[2] * ray.dir[1])};
                    double old[2];
                    if (grab_pixel(c, grabs[g], plane, old))
                        t->worst_old_px = fmax(t->worst_old_px, hypot(old[0] - px, old[1] - py));
                } else {
                    t->off++;
                }
                if ((i + j) % LEAST_MISS_EVERY == 0) {
                    t->sampled++;
                    double least = sampled_least_miss(grabs[g], &ray);
                    t->worst_vs_sampled = fmax(t->worst_vs_sampled, miss - least);
                }
            }
        /* Continuity: 3 px steps on a line from the grab's rest pixel out past the spine's far
         * side and off the page's reach; the grabbed point's pixel moves at most 4.5 px. */
        double prev[2] = {NAN, NAN};
        for (int k = 0; k <= 900 && g % 2 == 0; k += 3) {
            double dx = origin_px[0] - rest[0], dy = origin_px[1] - rest[1], l = hypot(dx, dy);
            double px = rest[0] + dx / l * k - dy / l * 0.3 * k, py = rest[1] + dy / l * k;
            MeshRay ray = pixel_ray(c, px, py);
            MeshVec2 q = mesh_drag_ray(grabs[g], &ray, W, H);
            double shown[2];
            if (!grab_pixel(c, grabs[g], q, shown))
                continue;
            if (k > 0)
                t->worst_step_px =
                    fmax(t->worst_step_px, hypot(shown[0] - prev[0], shown[1] - prev[1]));
            prev[0] = shown[0], prev[1] = shown[1];
        }
    }
}

/* The camera a view of the flip is drawn with (book/book.c), as a Camera. */
static void view_camera(const MeshFlipView *v, const BookLeaf *leaf, const BookLayout *layout,
                        Camera *c)
{
    BookSpread spread = book_spread(v);
    CurlParams pose = book_pose(v, leaf, layout);
    BookCameraBook book = book_camera(&spread, &pose, leaf, layout, (uint32_t)VW, (uint32_t)VH);
    PcDrawPush push = book_camera_draw_push((uint32_t)VW, (uint32_t)VH, &book);
    memcpy(c->view_proj, push.view_proj.m, sizeof c->view_proj);
    glm_mat4_inv(c->view_proj, c->inverse);
    c->name = "window";
}

/* The book of held_after, at rest. */
static MeshFlip open_book(void)
{
    MeshFlip flip;
    /* open at pages 2 | 3: both sides have a page */
    mesh_flip_init(&flip, &(MeshFlipDesc){.leaf_count = 4, .spread = 1});
    return flip;
}

/* The window's drag, as book_apply_input applies it: a press at path[0], then a move to each
 * later point (pixels); the held view after the last. */
static MeshFlipView held_after(const BookLeaf *leaf, const BookLayout *layout,
                               const double (*path)[2], int n)
{
    MeshFlip flip = open_book();
    for (int i = 0; i < n; i++) {
        BookInput e = {.time = 0.1 * i,
                       .device = BOOK_INPUT_MOUSE,
                       .action = i ? BOOK_INPUT_MOVE : BOOK_INPUT_DOWN,
                       .x = (float)(path[i][0] / VW),
                       .y = (float)(path[i][1] / VH),
                       .pressure = 1.0f};
        book_apply_input(&flip, NULL, NULL, &e, (uint32_t)VW, (uint32_t)VH, leaf, layout);
    }
    return mesh_flip_view(&flip);
}

/* Latest pointer wins: a slow frame hands the drag its whole path as one move. Where the page held
 * shows must not depend on how many moves, or which detour, led to the pointer: one move, ten,
 * and a path through the far side of the reach and back each show the grabbed point on the final
 * pointer's ray (within reach), each through the camera its own view is drawn with (which keeps
 * the most the drag has needed, so the poses themselves may differ). Returns the worst distance,
 * in pixels, between the grabbed point's images of the three. */
static double path_spread(const BookLeaf *leaf, const BookLayout *layout, MeshVec2 grab, double fx,
                          double *worst_on_px, size_t *on)
{
    const float W = leaf->grid.width, H = leaf->grid.height;
    MeshFlip book = open_book();
    MeshFlipView still = mesh_flip_view(&book);
    Camera rest_camera, cams[3], *c = &rest_camera;
    view_camera(&still, leaf, layout, &rest_camera); /* where the press finds the page */
    /* project() leaves a point behind the eye unset */
    double rest[2] = {0}, spine[2] = {0}, at[3] = {grab.x, grab.y, 0.0},
           mid[3] = {0.0, 0.5 * H, 0.0};
    project(c, at, rest), project(c, mid, spine);
    double to[2] = {rest[0] + fx * (spine[0] - rest[0]), rest[1] + fx * (spine[1] - rest[1])};
    double one[2][2] = {{rest[0], rest[1]}, {to[0], to[1]}}, ten[11][2],
           detour[4][2] = {
               {rest[0], rest[1]},
               {rest[0] + 2.2 * (spine[0] - rest[0]), rest[1] + 0.3 * (spine[0] - rest[0])},
               {rest[0] + 1.6 * (spine[0] - rest[0]), rest[1] - 0.4 * (spine[0] - rest[0])},
               {to[0], to[1]}};
    for (int i = 0; i <= 10; i++)
        ten[i][0] = rest[0] + (to[0] - rest[0]) * i / 10,
        ten[i][1] = rest[1] + (to[1] - rest[1]) * i / 10;
    MeshFlipView v[3] = {held_after(leaf, layout, one, 2), held_after(leaf, layout, ten, 11),
                         held_after(leaf, layout, detour, 4)};
    double shown[3][2], spread = 0.0;
    for (int k = 0; k < 3; k++) {
        c = &cams[k];
        view_camera(&v[k], leaf, layout, c);
        if (v[k].phase != MESH_FLIP_DRAGGING ||
            !grab_pixel(c, (MeshVec2){v[k].grab[0], v[k].grab[1]},
                        (MeshVec2){v[k].pointer[0], v[k].pointer[1]}, shown[k]))
            return INFINITY;
        MeshRay ray = pixel_ray(c, to[0], to[1]);
        if (mesh_drag_ray_miss((MeshVec2){v[k].grab[0], v[k].grab[1]},
                               (MeshVec2){v[k].pointer[0], v[k].pointer[1]}, &ray, W, H) < 1e-6) {
            *worst_on_px = fmax(*worst_on_px, hypot(shown[k][0] - to[0], shown[k][1] - to[1]));
            ++*on;
        }
        spread = fmax(spread, hypot(shown[k][0] - shown[0][0], shown[k][1] - shown[0][1]));
    }
    return spread;
}

int main(void)
{
    CheckState s = {0};
    const float W = MESH_PAGE_WIDTH, H = MESH_PAGE_HEIGHT;
    Camera cams[8];
    int n = 0;
    /* the window's camera at 1280x720 on a spread with pages on both sides, a leaf in flight
     * (pulled back as far as it goes: at rest it looks straight down, as the next one does) */
    BookLeaf leaf = {.grid = {.width = W, .height = H}};
    BookLayout layout = {0}; /* left-bound, the spread */
    BookSpread open = {.left = true, .right = true, .lift = 1.0f};
    BookCameraBook book = book_camera(&open, NULL, &leaf, &layout, (uint32_t)VW, (uint32_t)VH);
    PcDrawPush push = book_camera_draw_push((uint32_t)VW, (uint32_t)VH, &book);
    memcpy(cams[n].view_proj, push.view_proj.m, sizeof cams[n].view_proj);
    glm_mat4_inv(cams[n].view_proj, cams[n].inverse);
    cams[n++].name = "window";
    camera_look(&cams[n++], "straight down", (vec3){0.0f, 0.5f * H, 4.0f},
                (vec3){0.0f, 0.5f * H, 0.0f}, 30.0f);
    camera_look(&cams[n++], "reader, 35 deg", (vec3){0.0f, 0.5f * H - 2.3f, 3.3f},
                (vec3){0.0f, 0.5f * H, 0.0f}, 30.0f);
    camera_look(&cams[n++], "reader, 55 deg, near, wide", (vec3){0.2f, 0.5f * H - 2.0f, 1.4f},
                (vec3){0.0f, 0.5f * H, 0.0f}, 60.0f);
    camera_look(&cams[n++], "from the right, 40 deg", (vec3){3.0f, 0.5f * H, 3.6f},
                (vec3){0.0f, 0.5f * H, 0.0f}, 35.0f);
    camera_look(&cams[n++], "from the left and far side", (vec3){-2.0f, 0.5f * H + 2.0f, 3.5f},
                (vec3){0.3f, 0.5f * H, 0.0f}, 30.0f);
    camera_look(&cams[n++], "far, narrow", (vec3){0.5f, 0.5f * H - 3.0f, 9.0f},
                (vec3){0.0f, 0.5f * H, 0.0f}, 12.0f);
    for (int i = 0; i < n; i++) {
        Tally t = {0};
        check_camera(&cams[i], &t);
        printf("camera %-28s %3zu on the ray (worst %.4f px; plane mapping %.1f px), %3zu out of "
               "reach (%zu sampled: %.2g rad nearer than the best sample), step %.2f px\n",
               cams[i].name, t.on, t.worst_on_px, t.worst_old_px, t.off, t.sampled,
               -t.worst_vs_sampled, t.worst_step_px);
        CHECK(&s, t.on > 100 && t.off > 20, "%s: vacuous sample (%zu on, %zu off)", cams[i].name,
              t.on, t.off);
        CHECK(&s, t.worst_on_px <= 0.05, "%s: the grabbed point shows %g px from the pointer",
              cams[i].name, t.worst_on_px);
        CHECK(&s, t.worst_vs_sampled <= 5e-4, "%s: a sampled pose lies %g rad nearer the ray",
              cams[i].name, t.worst_vs_sampled);
        CHECK(&s, t.worst_step_px <= 4.5, "%s: a 3 px pointer step moved the grabbed point %g px",
              cams[i].name, t.worst_step_px);
    }

    /* The window's drag does not depend on the pointer's path. */
    const MeshVec2 held[] = {{0.98f * W, 0.02f * H}, {0.98f * W, 0.98f * H}, {0.9f * W, 0.5f * H}};
    double worst_spread = 0.0, worst_on = 0.0;
    size_t on = 0;
    for (size_t g = 0; g < sizeof held / sizeof held[0]; g++)
        for (double fx = 0.2; fx < 1.9; fx += 0.3)
            worst_spread =
                fmax(worst_spread, path_spread(&leaf, &layout, held[g], fx, &worst_on, &on));
    printf("window drag by 1, 10 and a detour of moves: the grabbed point's images %.4f px apart, "
           "%zu on the ray within %.4f px\n",
           worst_spread, on, worst_on);
    /* the camera keeps the lift of the move before where that holds the pose with 0.02 to spare
     * (book/book.c's drag_lift): paths may differ by that much of the view's pull-back */
    CHECK(&s, worst_spread <= 0.5, "the held page depends on the path: %g px apart", worst_spread);
    CHECK(&s, on >= 20, "vacuous: only %zu held poses on the ray", on);
    CHECK(&s, worst_on <= 0.05, "a held grabbed point shows %g px from the pointer", worst_on);

    /* Hostile input: finite answers inside the reach, never NaN. */
    const double bad[] = {NAN, INFINITY, -INFINITY, 0.0, 1e300, -1e300, 0.5};
    size_t nonfinite = 0;
    for (size_t i = 0; i < 7; i++)
        for (size_t j = 0; j < 7; j++) {
            MeshRay ray = {{bad[i], 0.5, 3.0}, {0.1, bad[j], -1.0}};
            MeshVec2 q[3] = {mesh_drag_ray((MeshVec2){W, 0.3f}, &ray, W, H),
                             mesh_drag_ray((MeshVec2){(float)bad[i], (float)bad[j]}, &ray, W, H),
                             mesh_drag_ray((MeshVec2){W, 0.3f}, &ray, (float)bad[i], H)};
            for (int k = 0; k < 3; k++)
                nonfinite += !isfinite(q[k].x) || !isfinite(q[k].y);
        }
    CHECK(&s, nonfinite == 0, "%zu non-finite answers from hostile input", nonfinite);
    return check_finish(&s, "drag");
}
