/* SPDX-License-Identifier: MIT */
/* The GPU frame against the CPU oracle, validation and synchronization validation on (lavapipe
 * in ctest): read back the AoS vertex buffer after deform/upload -> tri_normals ->
 * vertex_normals -> pack and compare with mesh/. Both deform paths: the CPU's positions must come
 * back bit for bit, deform.comp's within 1e-5 page widths; normals within 1e-3 degrees of the
 * reference loop run on the read-back positions. Grid sizes include ones that are not multiples of
 * the workgroup size and a 2x2 page (a single cell).
 * usage: test_gpu_normals [--no-validation] [--dispatch-max-x N] [NXxNY ...]
 * (the arguments serve GPU machines without the validation layer, sizes too large for CI, and
 * forcing the second dispatch dimension there) */
#include "../book/book.h"
#include "../pages/content.h"
#include "../app/input.h"
#include "../book/leaf.h"
#include "../book/view.h"
#include "../mesh/normals.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The bounds. */
#define MAX_ANGLE_DEG        1e-3
#define MAX_GPU_DEFORM_ERROR 1e-5 /* page widths */

/* One frame at `pose`, its vertices read back into the page's gpu.readback. */
static bool run_frame(const GpuContext *ctx, BookView *view, const CurlParams *pose, GpuError *err)
{
    BookViewFrame frame = {.pose = *pose, .readback_vertices = true};
    return book_view_frame(ctx, view, &frame, NULL, err) && book_view_wait(ctx, view, err);
}

/* The chain alone, for `leaf`. */
static bool compute_view(const GpuContext *ctx, BookLeaf *leaf, BookView *out, GpuError *err)
{
    return book_view_create(ctx, &(BookViewDesc){.kind = BOOK_VIEW_COMPUTE}, leaf, out, err);
}

typedef struct Worst {
    double value;
    size_t at;
} Worst;

static void worse(Worst *w, double value, size_t at)
{
    if (!(value <= w->value)) { /* NaN counts as the worst */
        w->value = isnan(value) ? INFINITY : value;
        w->at = at;
    }
}

/* Compares one read-back frame with the CPU; positions `x, y, z` are mesh/'s for the pose. */
static void compare(CheckState *s, const BookLeaf *leaf, const float *v, const float *x,
                    const float *y, const float *z, bool cpu_deform, const char *what)
{
    size_t n = leaf->grid.vertex_count;
    float *buf = malloc(6 * n * sizeof *buf);
    if (!buf) {
        CHECK(s, false, "%s: out of memory", what);
        return;
    }
    MeshSoa3 got = {buf, buf + n, buf + 2 * n}, cpu = {buf + 3 * n, buf + 4 * n, buf + 5 * n};
    Worst pos = {0}, normal = {0};
    size_t bad_uv = 0;
    for (size_t k = 0; k < n; k++) {
        const float *vk = &v[k * PC_VERTEX_FLOATS];
        got.x[k] = vk[0], got.y[k] = vk[1], got.z[k] = vk[2];
        double d = fmax(fabs((double)vk[0] - x[k]),
                        fmax(fabs((double)vk[1] - y[k]), fabs((double)vk[2] - z[k])));
        worse(&pos, d, k);
        /* every path forms u = i * step as mesh/ does (pc_grid_coord): exact */
        bad_uv += vk[6] != leaf->grid.u[k] || vk[7] != leaf->grid.v[k];
    }
    mesh_normals_reference(&leaf->grid, (MeshSoa3Const){got.x, got.y, got.z}, cpu);
    for (size_t k = 0; k < n; k++) {
        const float *g = &v[k * PC_VERTEX_FLOATS + 3];
        double gpu[3] = {g[0], g[1], g[2]}, c[3] = {cpu.x[k], cpu.y[k], cpu.z[k]};
        worse(&normal, mesh_normal_angle_deg(gpu, c), k);
    }
    uint32_t nx = leaf->grid.nx;
    if (cpu_deform)
        CHECK(s, pos.value == 0.0, "%s: uploaded position of vertex (%zu, %zu) off by %g", what,
              pos.at % nx, pos.at / nx, pos.value);
    else
        CHECK(s, pos.value <= MAX_GPU_DEFORM_ERROR,
              "%s: deform.comp's vertex (%zu, %zu) is %g page widths from mesh/'s", what,
              pos.at % nx, pos.at / nx, pos.value);
    CHECK(s, bad_uv == 0, "%s: %zu UVs differ", what, bad_uv);
    CHECK(s, normal.value <= MAX_ANGLE_DEG,
          "%s: GPU normal of vertex (%zu, %zu) %.3g deg from the CPU's", what, normal.at % nx,
          normal.at / nx, normal.value);
    printf("%s: max position error %.2e, max normal angle %.2e deg\n", what, pos.value,
           normal.value);
    free(buf);
}

/* The ways through the compute chain, each compared with mesh/. */
static const struct {
    bool cpu_deform;
    GpuNormalsPath path;
    GpuPackPath pack;
    const char *name;
} PATHS[] = {
    {true, GPU_NORMALS_TWO_PASS, GPU_PACK_GPU, "cpu deform, two-pass"},
    {false, GPU_NORMALS_TWO_PASS, GPU_PACK_GPU, "gpu deform, two-pass"},
    {true, GPU_NORMALS_TWO_PASS, GPU_PACK_STAGING, "cpu deform, two-pass, staging pack"},
    {false, GPU_NORMALS_TWO_PASS, GPU_PACK_STAGING, "gpu deform, two-pass, staging pack"},
    {true, GPU_NORMALS_FUSED, GPU_PACK_GPU, "cpu deform, fused"},
    {false, GPU_NORMALS_FUSED, GPU_PACK_GPU, "gpu deform, fused"},
    {false, GPU_NORMALS_FUSED_DEFORM, GPU_PACK_GPU, "fused-deform"},
};
#define PATH_COUNT (sizeof PATHS / sizeof PATHS[0])

static const float POSES[][2] = {{0.0f, 0.25f}, {0.3f, 0.0f},  {0.45f, 0.25f},
                                 {0.6f, 0.5f},  {0.85f, 1.0f}, {1.0f, 0.25f}};
#define POSE_COUNT (sizeof POSES / sizeof POSES[0])

static CurlParams pose_of(const BookLeaf *leaf, size_t p)
{
    return mesh_curl_pose(POSES[p][0], POSES[p][1], leaf->grid.width, leaf->grid.height);
}

static void check_grid(CheckState *s, const GpuContext *ctx, uint32_t nx, uint32_t ny, size_t way)
{
    GpuError err = {0};
    BookLeaf leaf;
    BookView view;
    bool cpu_deform = PATHS[way].cpu_deform;
    BookLeafDesc desc = {.nx = nx,
                         .ny = ny,
                         .readback = true,
                         .cpu_deform = cpu_deform,
                         .normals = PATHS[way].path,
                         .pack = PATHS[way].pack};
    if (!book_leaf_create(ctx, &desc, &leaf, &err)) {
        CHECK(s, false, "leaf %ux%u: %s", nx, ny, err.message);
        return;
    }
    if (!compute_view(ctx, &leaf, &view, &err)) {
        CHECK(s, false, "view: %s", err.message);
        book_leaf_destroy(ctx, &leaf);
        return;
    }
    size_t n = leaf.grid.vertex_count;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    for (size_t p = 0; x && y && z && p < POSE_COUNT; p++) {
        CurlParams pose = pose_of(&leaf, p);
        if (!run_frame(ctx, &view, &pose, &err)) {
            CHECK(s, false, "frame %ux%u: %s", nx, ny, err.message);
            break;
        }
        mesh_curl_apply(&pose, leaf.grid.rest_x, leaf.grid.rest_y, n, x, y, z);
        gpu_buffer_invalidate(ctx, &leaf.gpu.readback);
        char what[128];
        snprintf(what, sizeof what, "grid %ux%u %s t=%.2f g=%.2f", nx, ny, PATHS[way].name,
                 POSES[p][0], POSES[p][1]);
        compare(s, &leaf, leaf.gpu.readback.mapped, x, y, z, cpu_deform, what);
    }
    free(x), free(y), free(z);
    book_view_destroy(ctx, &view);
    book_leaf_destroy(ctx, &leaf);
}

/* One combination of --deform x --normals x --pack x --staging. */
typedef struct Combo {
    bool cpu_deform;
    GpuNormalsPath path;
    GpuPackPath pack;
    GpuStaging staging;
} Combo;

/* The vertex buffers of every pose for one combination, PC_VERTEX_FLOATS a vertex; NULL when
 * the combination cannot run here (--staging never without shared memory) or failed. */
static float *render_combo(CheckState *s, const GpuContext *ctx, uint32_t nx, uint32_t ny,
                           const Combo *c, bool *in_place)
{
    GpuError err = {0};
    BookLeaf leaf;
    BookView view = {0};
    BookLeafDesc desc = {.nx = nx,
                         .ny = ny,
                         .readback = true,
                         .cpu_deform = c->cpu_deform,
                         .normals = c->path,
                         .pack = c->pack,
                         .staging = c->staging};
    if (c->staging == GPU_STAGING_NEVER && gpu_buffer_shared_heap(ctx) == 0)
        return NULL; /* refused with a line by design; test_cli checks that line */
    if (!book_leaf_create(ctx, &desc, &leaf, &err)) {
        CHECK(s, false, "leaf %ux%u: %s", nx, ny, err.message);
        return NULL;
    }
    *in_place = leaf.gpu.in_place;
    size_t floats = leaf.grid.vertex_count * PC_VERTEX_FLOATS;
    float *out = malloc(POSE_COUNT * floats * sizeof *out);
    bool ok = out && compute_view(ctx, &leaf, &view, &err);
    for (size_t p = 0; ok && p < POSE_COUNT; p++) {
        CurlParams pose = pose_of(&leaf, p);
        ok = run_frame(ctx, &view, &pose, &err);
        gpu_buffer_invalidate(ctx, &leaf.gpu.readback);
        if (ok)
            memcpy(out + p * floats, leaf.gpu.readback.mapped, floats * sizeof *out);
    }
    CHECK(s, ok, "grid %ux%u: %s", nx, ny, err.message);
    book_view_destroy(ctx, &view);
    book_leaf_destroy(ctx, &leaf);
    if (!ok)
        free(out), out = NULL;
    return out;
}

/* Every combination on one grid: the two-pass ones (both packs, every staging mode) give the
 * same vertex buffer bit for bit as the reference (two-pass, GPU pack, staging always) of the same
 * deform; the fused ones the same within float rounding (2e-6: a few ulps of a unit normal or a
 * page-width position; their UVs are exact). */
static void check_combinations(CheckState *s, const GpuContext *ctx, uint32_t nx, uint32_t ny)
{
    const GpuStaging stagings[] = {GPU_STAGING_AUTO, GPU_STAGING_ALWAYS, GPU_STAGING_NEVER};
    const char *staging_names[] = {"auto", "always", "never"};
    const char *path_names[] = {"", "two-pass", "fused", "fused-deform"};
    size_t floats = (size_t)nx * ny * PC_VERTEX_FLOATS * POSE_COUNT;
    int compared = 0, in_place_runs = 0;
    for (int cpu = 0; cpu < 2; cpu++) {
        bool unused;
        Combo ref_combo = {cpu, GPU_NORMALS_TWO_PASS, GPU_PACK_GPU, GPU_STAGING_ALWAYS};
        float *ref = render_combo(s, ctx, nx, ny, &ref_combo, &unused);
        for (int path = GPU_NORMALS_TWO_PASS; ref && path <= GPU_NORMALS_FUSED_DEFORM; path++) {
            for (int pack = 0; pack < 2; pack++) {
                for (size_t st = 0; st < 3; st++) {
                    if ((cpu && path == GPU_NORMALS_FUSED_DEFORM) ||
                        (pack == GPU_PACK_STAGING && path != GPU_NORMALS_TWO_PASS))
                        continue; /* refused by the command line */
                    Combo c = {cpu, path, pack, stagings[st]};
                    bool in_place = false;
                    float *got = render_combo(s, ctx, nx, ny, &c, &in_place);
                    if (!got)
                        continue;
                    in_place_runs += in_place;
                    double worst = 0;
                    size_t at = 0;
                    for (size_t k = 0; k < floats; k++) {
                        double d = fabs((double)got[k] - ref[k]);
                        if (!(d <= worst))
                            worst = isnan(d) ? INFINITY : d, at = k;
                    }
                    double limit = path == GPU_NORMALS_TWO_PASS ? 0.0 : 2e-6;
                    CHECK(s, worst <= limit,
                          "grid %ux%u, deform %s, %s, pack %s, staging %s: float %zu of vertex "
                          "%zu differs from two-pass by %g (limit %g)",
                          nx, ny, cpu ? "cpu" : "gpu", path_names[path], pack ? "staging" : "gpu",
                          staging_names[st], at % PC_VERTEX_FLOATS,
                          at / PC_VERTEX_FLOATS % ((size_t)nx * ny), worst, limit);
                    compared++;
                    free(got);
                }
            }
        }
        free(ref);
    }
    printf("grid %ux%u: %d combinations compared with two-pass (%d writing in place)\n", nx, ny,
           compared, in_place_runs);
}

/* `count` frames of the view's page with GPU_FRAMES_IN_FLIGHT overlapping (no wait on the frame
 * just submitted), the pose changing every frame, rendered offscreen; the last frame's vertices
 * are read back and checked against mesh/. False when Vulkan failed (reported). */
static bool frames_play(CheckState *s, const GpuContext *ctx, BookView *view, uint32_t count)
{
    GpuError err = {0};
    BookLeaf *leaf = view->leaf;
    CurlParams pose = {0};
    bool ok = true;
    for (uint32_t f = 0; ok && f < count; f++) {
        AppTurn turn = app_input_scripted(f % 60, 60, (float)(f % 5) / 4.0f);
        pose = mesh_curl_pose(turn.t, turn.g, leaf->grid.width, leaf->grid.height);
        BookViewFrame frame = {.pose = pose,
                               .spread = BOOK_SPREAD_FIRST_TURN,
                               .readback_pixels = f + 1 == count,
                               .readback_vertices = f + 1 == count};
        ok = book_view_frame(ctx, view, &frame, NULL, &err);
    }
    ok = ok && book_view_wait(ctx, view, &err);
    CHECK(s, ok, "frames in flight, grid %ux%u: %s", leaf->grid.nx, leaf->grid.ny, err.message);
    if (!ok)
        return false;
    size_t n = leaf->grid.vertex_count;
    float *x = malloc(3 * n * sizeof *x);
    if (x) {
        mesh_curl_apply(&pose, leaf->grid.rest_x, leaf->grid.rest_y, n, x, x + n, x + 2 * n);
        gpu_buffer_invalidate(ctx, &leaf->gpu.readback);
        char what[64];
        snprintf(what, sizeof what, "frames in flight, last frame of %ux%u", leaf->grid.nx,
                 leaf->grid.ny);
        compare(s, leaf, leaf->gpu.readback.mapped, x, x + n, x + 2 * n, leaf->path->cpu_deform,
                what);
        free(x);
    }
    return true;
}

/* The table of paths (gpu/paths.h): each choice of the command line finds its row, the default the
 * fastest; a leaf made for a row has the row's stages in its chain (the lists gpu/chain.c built by
 * branches before the table: the same, stage for stage), the kernels of those stages and no
 * other, and the buffers the row says the CPU writes; the one choice with no row is refused. */
static void check_paths_table(CheckState *s, const GpuContext *ctx)
{
    static const struct {
        bool cpu_deform;
        GpuNormalsPath normals;
        GpuPackPath pack;
        const char *stages;
    } want[] = {
        {false, GPU_NORMALS_DEFAULT, GPU_PACK_GPU, "fused_deform readback render"},
        {true, GPU_NORMALS_DEFAULT, GPU_PACK_GPU, "upload fused readback render"},
        {false, GPU_NORMALS_FUSED, GPU_PACK_GPU, "deform fused readback render"},
        {false, GPU_NORMALS_TWO_PASS, GPU_PACK_GPU,
         "deform tri_normals vertex_normals readback render"},
        {true, GPU_NORMALS_TWO_PASS, GPU_PACK_GPU,
         "upload tri_normals vertex_normals readback render"},
        {false, GPU_NORMALS_TWO_PASS, GPU_PACK_STAGING,
         "deform tri_normals vertex_normals readback_soa pack upload_vertices readback render"},
        {true, GPU_NORMALS_TWO_PASS, GPU_PACK_STAGING,
         "upload tri_normals vertex_normals readback_soa pack upload_vertices readback render"},
        {true, GPU_NORMALS_DEFAULT, GPU_PACK_STAGING,
         "upload tri_normals vertex_normals readback_soa pack upload_vertices readback render"},
    };
    uint32_t found = 0; /* the rows the choices reached, a bit each */
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        BookLeafDesc desc = {.nx = 5,
                             .ny = 4,
                             .cpu_deform = want[w].cpu_deform,
                             .normals = want[w].normals,
                             .pack = want[w].pack,
                             .staging = GPU_STAGING_ALWAYS};
        BookLeaf leaf;
        GpuError err = {0};
        bool made = book_leaf_create(ctx, &desc, &leaf, &err);
        CHECK(s, made, "path %zu: %s", w, err.message);
        if (!made)
            continue;
        const GpuPath *row = leaf.path;
        for (uint32_t i = 0; i < gpu_path_count(); i++)
            found |= gpu_path_at(i) == row ? 1u << i : 0u;
        char stages[256] = "";
        bool host = false, deform = false, tri = false, fused = false;
        for (uint32_t i = 0; i < leaf.chain.count; i++) {
            GpuStage st = leaf.chain.stages[i].stage;
            snprintf(stages + strlen(stages), sizeof stages - strlen(stages), "%s%s", i ? " " : "",
                     gpu_stage_name(st));
            CHECK(s, leaf.chain.stages[i].stage == row->stages[i].stage,
                  "%s: the chain's stage %u is not the row's", row->name, i);
            host = host || leaf.chain.stages[i].host;
            deform = deform || st == GPU_STAGE_DEFORM;
            tri = tri || st == GPU_STAGE_TRI_NORMALS;
            fused = fused || st == GPU_STAGE_FUSED || st == GPU_STAGE_FUSED_DEFORM;
        }
        CHECK(s, !strcmp(stages, want[w].stages), "%s: stages \"%s\", \"%s\" expected", row->name,
              stages, want[w].stages);
        CHECK(s, leaf.chain.count == row->stage_count && host == row->host_stage,
              "%s: %u stages, a host stage %d (the row: %u, %d)", row->name, leaf.chain.count, host,
              row->stage_count, row->host_stage);
        CHECK(s,
              !leaf.chain.deform.kernel.pipeline == !deform &&
                  !leaf.chain.normals.tri.pipeline == !tri &&
                  !leaf.chain.fused.fused.pipeline == !fused,
              "%s: kernels made (deform %d, two-pass %d, fused %d) that its stages do not use",
              row->name, leaf.chain.deform.kernel.pipeline != VK_NULL_HANDLE,
              leaf.chain.normals.tri.pipeline != VK_NULL_HANDLE,
              leaf.chain.fused.fused.pipeline != VK_NULL_HANDLE);
        CHECK(s,
              !leaf.gpu.slots[0].positions_staging.buffer == !row->cpu_deform &&
                  !leaf.gpu.slots[0].vertex_staging.buffer == !row->cpu_vertices &&
                  !leaf.gpu.vertex_normals.buffer == !row->soa_normals,
              "%s: the CPU's buffers are not the row's", row->name);
        CHECK(s, gpu_path_find(row->normals, row->pack, row->cpu_deform, NULL) == row,
              "%s: its own choices find another row", row->name);
        book_leaf_destroy(ctx, &leaf);
    }
    CHECK(s,
          found == (1u << gpu_path_count()) - 1 &&
              gpu_path_at(0)->normals == GPU_NORMALS_FUSED_DEFORM,
          "the choices reached rows %#x of %u; the first (the default) fused-deform", found,
          gpu_path_count());
    /* the kernel that curls the page itself with the CPU's curl, the staging pack after a fused
     * kernel: one line each, no leaf */
    const BookLeafDesc none[] = {
        {.nx = 5, .ny = 4, .cpu_deform = true, .normals = GPU_NORMALS_FUSED_DEFORM},
        {.nx = 5, .ny = 4, .normals = GPU_NORMALS_FUSED, .pack = GPU_PACK_STAGING},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        BookLeaf leaf;
        GpuError err = {0};
        bool made = book_leaf_create(ctx, &none[i], &leaf, &err);
        CHECK(s, !made && strstr(err.message, "--normals") && !strchr(err.message, '\n'),
              "a choice with no row: made %d, \"%s\"", made, err.message);
        if (made)
            book_leaf_destroy(ctx, &leaf);
    }
}

/* 150 frames per leaf, then the same leaf given another grid (book_leaf_regrid: new buffers, the
 * same kernels bound to them) and 150 more, and so on for four kinds of leaf: the validation
 * layer (synchronization included) must stay silent, and each run's last frame must be right. */
static void check_frames_in_flight(CheckState *s, const GpuContext *ctx)
{
    GpuError err = {0};
    BookView view = {0};
    bool ok = true;
    const BookLeafDesc leaves[] = {
        {.nx = 33, .ny = 47, .readback = true, .cpu_deform = true, .normals = GPU_NORMALS_TWO_PASS},
        {.nx = 64, .ny = 90, .readback = true, .normals = GPU_NORMALS_FUSED_DEFORM},
        {.nx = 40,
         .ny = 20,
         .readback = true,
         .cpu_deform = true,
         .normals = GPU_NORMALS_TWO_PASS,
         .pack = GPU_PACK_STAGING,
         .staging = GPU_STAGING_ALWAYS},
        {.nx = 29, .ny = 61, .readback = true, .normals = GPU_NORMALS_TWO_PASS},
    };
    for (size_t p = 0; ok && p < sizeof leaves / sizeof leaves[0]; p++) {
        BookLeaf leaf;
        ok = book_leaf_create(ctx, &leaves[p], &leaf, &err);
        CHECK(s, ok, "leaf: %s", err.message);
        if (!ok)
            break;
        /* one view for every leaf: the leaves change under it, between frames */
        if (p == 0) {
            BookViewDesc desc = {.kind = BOOK_VIEW_OFFSCREEN, .width = 160, .height = 120};
            ok = book_view_create(ctx, &desc, &leaf, &view, &err);
            CHECK(s, ok, "frames in flight: %s", err.message);
        }
        view.leaf = &leaf;
        ok = ok && frames_play(s, ctx, &view, 150);
        /* a grid of another shape: every buffer changes size */
        if (ok) {
            ok = book_leaf_regrid(ctx, &leaf, leaves[p].ny + 3, leaves[p].nx + 5, &err);
            CHECK(s, ok, "regrid: %s", err.message);
        }
        ok = ok && frames_play(s, ctx, &view, 150);
        book_leaf_destroy(ctx, &leaf); /* the leaf changes mid-run */
    }
    book_view_destroy(ctx, &view);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    bool validation = true;
    uint32_t grids[16][2] = {{2, 2}, {3, 7}, {64, 90}, {100, 33}, {257, 130}, {16, 16}};
    size_t grid_count = 6, given = 0;
    unsigned max_x = 0;
    for (int i = 1; i < argc; i++) {
        unsigned a, b;
        if (!strcmp(argv[i], "--no-validation"))
            validation = false;
        else if (!strcmp(argv[i], "--dispatch-max-x") && i + 1 < argc)
            max_x = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (given < 16 && sscanf(argv[i], "%ux%u", &a, &b) == 2 && a >= 2 && b >= 2)
            grids[given][0] = a, grids[given][1] = b, grid_count = ++given;
        else
            return fprintf(stderr, "usage: test_gpu_normals [--no-validation] [NXxNY ...]\n"), 2;
    }
    GpuMessages messages = {0};
    GpuContext ctx;
    GpuError err = {0};
    GpuContextDesc desc = {.validation = validation, .device_index = -1, .messages = &messages};
    if (!gpu_context_create(&desc, &ctx, &err)) {
        fprintf(stderr, "test_gpu_normals: %s\n", err.message);
        return 1;
    }
    printf("device: %s\n", ctx.props.deviceName);
    if (max_x)
        ctx.dispatch_max_x = max_x;
    for (size_t g = 0; g < grid_count; g++)
        for (size_t way = 0; way < PATH_COUNT; way++)
            check_grid(&s, &ctx, grids[g][0], grids[g][1], way);
    /* Extents past the device's workgroup limit spill into a second dispatch dimension. No CI
     * grid is that large, so lower the limit to make the kernels use the spill. */
    uint32_t device_max_x = ctx.dispatch_max_x;
    ctx.dispatch_max_x = 5;
    printf("dispatch limited to 5 workgroups in x:\n");
    check_grid(&s, &ctx, 257, 130, 1);
    check_grid(&s, &ctx, 63, 17, 0);
    ctx.dispatch_max_x = device_max_x;
    /* grids that are not multiples of the workgroup or the tile; the last one large enough that
     * the staging pack's interleave is split across two cores where there are two (ranges of at
     * least MESH_PARALLEL_MIN_ITEMS) */
    const uint32_t combo_grids[][2] = {{2, 2}, {3, 7}, {33, 47}, {257, 129}, {301, 230}};
    for (size_t g = 0; !given && g < sizeof combo_grids / sizeof combo_grids[0]; g++)
        check_combinations(&s, &ctx, combo_grids[g][0], combo_grids[g][1]);
    check_frames_in_flight(&s, &ctx);
    check_paths_table(&s, &ctx);
    gpu_context_destroy(&ctx);
    CHECK(&s, messages.errors + messages.warnings == 0, "%u validation errors, %u warnings",
          messages.errors, messages.warnings);
    return check_finish(&s, "test_gpu_normals");
}
