#include "camera.h"

#include <cglm/cglm.h>
#include <string.h>

#define FOV_Y_DEGREES 30.0f

bool app_camera_ray(uint32_t width, uint32_t height, float page_width, float page_height,
                    int single, float px, float py, double origin[3], double dir[3])
{
    PcDrawPush push = app_camera_draw_push(width, height, page_width, page_height, single);
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

bool app_camera_unproject(uint32_t width, uint32_t height, float page_width, float page_height,
                          int single, float px, float py, float *x, float *y)
{
    double o[3], d[3];
    if (!app_camera_ray(width, height, page_width, page_height, single, px, py, o, d) ||
        fabs(d[2]) < 1e-12)
        return false;
    double s = -o[2] / d[2]; /* where the ray meets z = 0 */
    if (s < 0.0)
        return false;
    *x = (float)(o[0] + s * d[0]);
    *y = (float)(o[1] + s * d[1]);
    return true;
}

PcDrawPush app_camera_draw_push(uint32_t width, uint32_t height, float page_width,
                                float page_height, int single)
{
    float aspect = height ? (float)width / (float)height : 1.0f;
    /* Frame the whole spread (both pages, 2W x H), or the one page, with a margin, whatever the
     * aspect ratio. */
    float half_h = 0.5f * page_height * 1.12f;
    float half_w = (single ? 0.5f : 1.0f) * page_width * 1.08f;
    float tan_half = tanf(glm_rad(FOV_Y_DEGREES) * 0.5f);
    float need = half_h > half_w / aspect ? half_h : half_w / aspect;
    float distance = need / tan_half;
    vec3 center = {0.5f * (float)single * page_width, 0.5f * page_height, 0.0f};
    /* Tilted a little towards the reader so the curl's height reads as height. */
    vec3 eye = {center[0], center[1] - 0.35f * distance, 0.94f * distance};
    vec3 up = {0.0f, 1.0f, 0.0f};
    mat4 view, proj, view_proj;
    glm_lookat(eye, center, up, view);
    glm_perspective(glm_rad(FOV_Y_DEGREES), aspect, 0.05f * distance, 4.0f * distance, proj);
    proj[1][1] *= -1.0f; /* Vulkan's clip-space y points down */
    glm_mat4_mul(proj, view, view_proj);

    vec3 light = {-0.5f, 0.45f, 0.72f}; /* from the upper left, in front, low enough to cast */
    glm_vec3_normalize(light);
    PcDrawPush push;
    memcpy(push.view_proj.m, view_proj, sizeof push.view_proj.m);
    push.light_dir = (pc_vec4){{light[0], light[1], light[2], 0.0f}};
    push.page = (pc_vec4){{page_width, page_height, 0.0f, 0.0f}}; /* leaf 0; app/book.c picks */
    push.placement = (pc_vec4){{1.0f, 1.0f, 1.0f, 0.0f}}; /* as laid; app/book.c places pages */
    push.model = (pc_vec4){{1.0f, 1.0f, 1.0f, 0.0f}};
    return push;
}
