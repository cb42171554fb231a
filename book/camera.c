/* SPDX-License-Identifier: MIT */
#include "camera.h"

#include "../mesh/least.h"
#include "../mesh/reach.h"

#include <cglm/cglm.h>
#include <string.h>

/* A long lens. At rest it looks straight down: the pages are rectangles. In flight it looks down
 * from a little in front of straight above: the pages still read as rectangles (the near edge
 * ~5 % wider than the far one), while the tilt shows a curl's height. */
#define FOV_Y_DEGREES 20.0f
#define TILT_DEGREES  14.0f
#define MAX_POINTS    (8 + MESH_REACH_MAX_POINTS)

BookCameraBook book_camera_book(float width, float height, int single)
{
    return (BookCameraBook){.width = width,
                            .height = height,
                            .lo = single > 0 ? 0.0f : -1.0f,
                            .hi = single < 0 ? 0.0f : 1.0f};
}

/* The extreme points of what `book` frames: the corners of the pages' box, and share `reach` of
 * where a leaf turning about the spine can be (mesh/reach.h), cut to the span framed. */
static int extreme_points(const BookCameraBook *book, float reach, vec3 *out)
{
    float w = book->width, h = book->height;
    float lo = glm_clamp(book->lo, -1.0f, 1.0f) * w, hi = glm_clamp(book->hi, -1.0f, 1.0f) * w;
    float trim = glm_clamp(book->trim, 0.0f, 0.49f) * h;
    int n = 0;
    for (int i = 0; i < 8; i++)
        glm_vec3_copy((vec3){i & 1 ? hi : lo, i & 2 ? h - trim : trim, i & 4 ? -book->depth : 0.0f},
                      out[n++]);
    int reached = mesh_reach_points(w, h, lo, hi, reach, &out[n]);
    /* a trimmed frame holds the reach's points (at reach 0, the page's edges) within the trim,
     * freed as the reach grows: the view opens smoothly from the print to the leaf's sweep */
    for (int i = n; trim > 0.0f && i < n + reached; i++)
        out[i][1] =
            glm_lerp(glm_clamp(out[i][1], trim, h - trim), out[i][1], glm_clamp(reach, 0.0f, 1.0f));
    return n + reached;
}

/* The fitted camera's view-projection for a target of `aspect`, zoomed and panned. */
static void fitted(float aspect, const BookCameraBook *book, mat4 view_proj)
{
    float lift = glm_clamp(book->lift, 0.0f, 1.0f);
    /* What is framed fills `fill` of the view: a margin round the still pages, shrinking to
     * none as the view lifts to frame the share of the leaf's reach its pose needs (which holds
     * the pose with a margin of its own, mesh/reach.h). */
    float fill = BOOK_CAMERA_FILL + (1.0f - BOOK_CAMERA_FILL) * lift;
    float ty = tanf(glm_rad(FOV_Y_DEGREES) * 0.5f) * fill, tx = ty * aspect;
    float tilt = glm_rad(TILT_DEGREES) * lift;
    /* The camera's axes: right along x, up towards the head of the page, forward down and
     * towards the head. */
    vec3 right = {1.0f, 0.0f, 0.0f}, up = {0.0f, cosf(tilt), sinf(tilt)},
         forward = {0.0f, sinf(tilt), -cosf(tilt)};
    vec3 points[MAX_POINTS];
    int n = extreme_points(book, lift, points);
    /* The eye (a, b, c along right, up, forward) as near as every point allows: a point p is in
     * view while |p.a - a| <= tx (p.c - c) and |p.b - b| <= ty (p.c - c). Across, the eye stays
     * over the middle of the span, so a closed book's one page is centred; up and down, both
     * limits are met where the view is tight. */
    float ea = 0.5f * (book->lo + book->hi) * book->width;
    float ec_across = INFINITY, low = -INFINITY, high = INFINITY;
    float c_min = INFINITY, c_max = -INFINITY;
    for (int i = 0; i < n; i++) {
        float a = glm_vec3_dot(points[i], right), b = glm_vec3_dot(points[i], up),
              c = glm_vec3_dot(points[i], forward);
        ec_across = mesh_leastf(ec_across, c - fabsf(a - ea) / tx);
        low = mesh_mostf(low, b - ty * c);
        high = mesh_leastf(high, b + ty * c);
        c_min = mesh_leastf(c_min, c);
        c_max = mesh_mostf(c_max, c);
    }
    float ec = fminf(ec_across, (high - low) / (2.0f * ty)), eb = 0.5f * (low + high);
    vec3 eye, centre;
    glm_vec3_scale(right, ea, eye);
    glm_vec3_muladds(up, eb, eye);
    glm_vec3_muladds(forward, ec, eye);
    glm_vec3_add(eye, forward, centre);
    /* depth only as far as the book reaches: the flat pages lie a leaf's thickness apart */
    float near = 0.5f * (c_min - ec), far = 2.0f * (c_max - ec);
    mat4 view, proj;
    glm_lookat(eye, centre, up, view);
    glm_perspective(glm_rad(FOV_Y_DEGREES), aspect, near, far, proj);
    proj[1][1] *= -1.0f; /* Vulkan's clip-space y points down */
    glm_mat4_mul(proj, view, view_proj);
    const BookZoomView *z = &book->zoom;
    if ((z->scale > 0.0f && z->scale != 1.0f) || z->x != 0.0f || z->y != 0.0f) {
        /* NDC scaled and moved: a fraction u of the view shows at 0.5 + s (u - 0.5) + pan (y down
         * in both, as Vulkan's NDC), so ndc' = s ndc + 2 pan; w, and so depth, stay */
        float s = z->scale > 0.0f ? z->scale : 1.0f;
        mat4 screen = GLM_MAT4_IDENTITY_INIT;
        screen[0][0] = screen[1][1] = s;
        screen[3][0] = 2.0f * z->x, screen[3][1] = 2.0f * z->y;
        mat4 unzoomed;
        glm_mat4_copy(view_proj, unzoomed);
        glm_mat4_mul(screen, unzoomed, view_proj);
    }
}

PcDrawPush book_camera_draw_push(uint32_t width, uint32_t height, const BookCameraBook *book)
{
    mat4 view_proj;
    if (book->zoom.hosted)
        memcpy(view_proj, book->zoom.host, sizeof view_proj);
    else
        fitted(width && height ? (float)width / (float)height : 1.0f, book, view_proj);
    vec3 light = {-0.5f, 0.45f, 0.72f}; /* from the upper left, in front, low enough to cast */
    glm_vec3_normalize(light);
    PcDrawPush push;
    memcpy(push.view_proj.m, view_proj, sizeof push.view_proj.m);
    push.light_dir = (pc_vec4){{light[0], light[1], light[2], 0.0f}};
    push.page = (pc_vec4){{book->width, book->height, 0.0f, 0.0f}}; /* leaf 0; book/book.c picks */
    push.frame = (pc_vec4){{0.0f, 0.0f, 0.0f, 0.0f}}; /* book/book.c marks each page's */
    push.model = (pc_vec4){{1.0f, 1.0f, 1.0f, 0.0f}};
    return push;
}

bool book_camera_invertible(const float view_proj[16])
{
    mat4 m, inverse;
    for (int i = 0; i < 16; i++) {
        if (!isfinite(view_proj[i]))
            return false;
        m[i / 4][i % 4] = view_proj[i];
    }
    float det = glm_mat4_det(m);
    if (!isfinite(det) || fabsf(det) < 1e-30f)
        return false;
    glm_mat4_inv(m, inverse);
    for (int i = 0; i < 16; i++)
        if (!isfinite(inverse[i / 4][i % 4]))
            return false;
    return true;
}

bool book_camera_ray(uint32_t width, uint32_t height, const BookCameraBook *book, float px,
                     float py, double origin[3], double dir[3])
{
    PcDrawPush push = book_camera_draw_push(width, height, book);
    mat4 view_proj, inverse;
    memcpy(view_proj, push.view_proj.m, sizeof view_proj);
    glm_mat4_inv(view_proj, inverse);
    /* Pixel centre to Vulkan NDC (y down, as the flipped projection expects), depth 0 and 1. */
    float nx = 2.0f * (px + 0.5f) / (float)width - 1.0f;
    float ny = 2.0f * (py + 0.5f) / (float)height - 1.0f;
    vec4 near = {nx, ny, 0.0f, 1.0f}, far = {nx, ny, 1.0f, 1.0f}, a, b;
    glm_mat4_mulv(inverse, near, a);
    glm_mat4_mulv(inverse, far, b);
    if (a[3] == 0.0f || b[3] == 0.0f)
        return false;
    for (int i = 0; i < 3; i++) {
        origin[i] = (double)a[i] / a[3];
        dir[i] = (double)b[i] / b[3] - origin[i];
    }
    return dir[0] != 0.0 || dir[1] != 0.0 || dir[2] != 0.0;
}

bool book_camera_project(uint32_t width, uint32_t height, const BookCameraBook *book,
                         const double p[3], float *px, float *py)
{
    PcDrawPush push = book_camera_draw_push(width, height, book);
    mat4 view_proj;
    memcpy(view_proj, push.view_proj.m, sizeof view_proj);
    vec4 at = {(float)p[0], (float)p[1], (float)p[2], 1.0f}, clip;
    glm_mat4_mulv(view_proj, at, clip);
    if (!(clip[3] > 0.0f))
        return false;
    /* Vulkan NDC (y down) to pixels, as book_camera_ray's inverse */
    *px = (clip[0] / clip[3] + 1.0f) * 0.5f * (float)width - 0.5f;
    *py = (clip[1] / clip[3] + 1.0f) * 0.5f * (float)height - 0.5f;
    return isfinite(*px) && isfinite(*py);
}

bool book_camera_unproject(uint32_t width, uint32_t height, const BookCameraBook *book, float px,
                           float py, float *x, float *y)
{
    double o[3], d[3];
    if (!book_camera_ray(width, height, book, px, py, o, d) || fabs(d[2]) < 1e-12)
        return false;
    double s = -o[2] / d[2]; /* where the ray meets z = 0 */
    if (s < 0.0)
        return false;
    *x = (float)(o[0] + s * d[0]);
    *y = (float)(o[1] + s * d[1]);
    return true;
}
