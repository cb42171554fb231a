#include "book.h"

#include "camera.h"

#include <cglm/cglm.h>
#include <string.h>

/* Flat pages lie this far (in page widths) below the turning leaf's flat part: one leaf's
 * thickness, enough for a 32-bit depth buffer to keep them apart, too little to see. */
#define BOOK_STACK_STEP 0.002f

void app_book_init(MeshFlip *flip, const AppPage *page)
{
    mesh_flip_init(flip, &(MeshFlipDesc){.width = page->grid.width,
                                         .height = page->grid.height,
                                         .page_count = APP_BOOK_LEAVES});
}

void app_book_input(MeshFlip *flip, const AppTraceEvent *e, uint32_t width, uint32_t height,
                    const AppPage *page)
{
    if (e->device == APP_TRACE_KEY) {
        if (e->action == APP_TRACE_NEXT)
            mesh_flip_next(flip, e->time);
        else
            mesh_flip_prev(flip, e->time);
        return;
    }
    if (e->action == APP_TRACE_UP) {
        mesh_flip_release(flip, e->time);
        return;
    }
    float x, y;
    if (!app_camera_unproject(width, height, page->grid.width, page->grid.height,
                              e->x * (float)width, e->y * (float)height, &x, &y))
        return; /* a ray that misses the book's plane holds nothing */
    if (e->action == APP_TRACE_DOWN)
        mesh_flip_press(flip, x, y, e->time);
    else
        mesh_flip_move(flip, x, y, e->time);
}

CurlParams app_book_pose(const MeshFlipView *view, const AppPage *page)
{
    MeshVec2 grab = {view->grab[0], view->grab[1]}, pointer = {view->pointer[0], view->pointer[1]};
    return mesh_curl_drag(grab, pointer, page->grid.width, page->grid.height);
}

AppSpread app_book_spread(const MeshFlipView *view)
{
    return (AppSpread){
        .left = view->left.side != MESH_FLIP_SIDE_NONE,
        .right = view->right.side != MESH_FLIP_SIDE_NONE,
        .turning = view->turning,
        .backward = view->turning && view->direction == MESH_FLIP_BACKWARD,
    };
}

/* base.view_proj x model; placement (sx, sy, sz) is the model's diagonal, `back_up` says the
 * model's +z side is the leaf's back. */
static PcDrawPush placed(const PcDrawPush *base, mat4 model, float sx, float sy, float sz,
                         bool back_up)
{
    PcDrawPush push = *base;
    mat4 view_proj, product;
    memcpy(view_proj, base->view_proj.m, sizeof view_proj);
    glm_mat4_mul(view_proj, model, product);
    memcpy(push.view_proj.m, product, sizeof push.view_proj.m);
    push.placement = (pc_vec4){{sx, sy, sz, back_up ? 1.0f : 0.0f}};
    return push;
}

void app_book_draws(const AppSpread *spread, const AppPage *page, const GpuRenderer *renderer,
                    uint32_t width, uint32_t height, AppBookDraws *out)
{
    float w = page->grid.width, h = page->grid.height;
    PcDrawPush base = app_camera_draw_push(width, height, w, h);
    out->count = 0;
    if (spread->left) { /* the leaf before, turned over about the spine: its back faces up */
        mat4 model = GLM_MAT4_IDENTITY_INIT;
        glm_translate(model, (vec3){0.0f, 0.0f, -BOOK_STACK_STEP * w});
        glm_scale(model, (vec3){-w, h, -1.0f});
        PcDrawPush push = placed(&base, model, -1.0f, 1.0f, -1.0f, false);
        out->draws[out->count++] = gpu_renderer_quad(renderer, &push);
    }
    if (spread->right) {
        mat4 model = GLM_MAT4_IDENTITY_INIT;
        glm_translate(model, (vec3){0.0f, 0.0f, -BOOK_STACK_STEP * w});
        glm_scale(model, (vec3){w, h, 1.0f});
        PcDrawPush push = placed(&base, model, 1.0f, 1.0f, 1.0f, false);
        out->draws[out->count++] = gpu_renderer_quad(renderer, &push);
    }
    if (spread->turning) {
        /* a backward turn's curl is in the leaf's mirrored frame, whose +z side is its back */
        float sx = spread->backward ? -1.0f : 1.0f;
        mat4 model = GLM_MAT4_IDENTITY_INIT;
        glm_scale(model, (vec3){sx, 1.0f, 1.0f});
        PcDrawPush push = placed(&base, model, sx, 1.0f, 1.0f, spread->backward);
        out->draws[out->count++] = gpu_renderer_page(&page->gpu, &push);
    }
}
