/* SPDX-License-Identifier: MIT */
#include "bench.h"
#include "say.h"

#include "../bench/bandwidth.h"
#include "../bench/chain_record.h"
#include "../bench/kernel_stats.h"
#include "../mesh/normals.h"
#include "../book/book.h"
#include "../pages/content.h"
#include "input.h"
#include "../book/leaf.h"
#include "signals.h"
#include "../book/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The scripted turn repeats every this many frames: the same poses on every device. */
#define BENCH_TURN_FRAMES 120
/* The probe copies this much (capped by the device's storage range); a CPU device less. */
#define BENCH_COPY_BYTES     (512ull << 20)
#define BENCH_CPU_COPY_BYTES (128ull << 20)
/* CPU reference normals: at least this many runs, and until this much time has passed. */
#define BENCH_CPU_MIN_RUNS    3
#define BENCH_CPU_MIN_SECONDS 0.3

static AppTurn bench_turn(uint32_t frame)
{
    return app_input_scripted(frame % BENCH_TURN_FRAMES, BENCH_TURN_FRAMES, 0.25f);
}

static void describe(const GpuContext *ctx, const AppOptions *opts, BenchReport *r)
{
    snprintf(r->device, sizeof r->device, "%s", ctx->props.deviceName);
    snprintf(r->driver, sizeof r->driver, "%s %s", ctx->driver.driverName, ctx->driver.driverInfo);
    uint32_t v = ctx->props.apiVersion;
    snprintf(r->api_version, sizeof r->api_version, "%u.%u.%u", VK_API_VERSION_MAJOR(v),
             VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    size_t at = 0;
    for (int i = 0; i < opts->argc && at + 1 < sizeof r->command; i++)
        at += (size_t)snprintf(r->command + at, sizeof r->command - at, "%s%s", i ? " " : "",
                               opts->argv[i]);
}

/* The least each stage must read and write, per the layouts of gpu/leaf.h. */
static void stage_bytes(BenchRun *run)
{
    double v = (double)run->vertices, t = (double)run->triangles, f = sizeof(float);
    bool staging_pack = !strcmp(run->pack, "staging");
    double copy = run->in_place ? 0 : 2; /* a staging copy reads and writes; in place: none */
    run->bytes[GPU_STAGE_DEFORM] = run->gpu_deform ? 3 * v * f : 0; /* positions out */
    run->bytes[GPU_STAGE_UPLOAD] = copy * 3 * v * f;
    /* positions in, the cells' triangle normals out (24 bytes a cell = 3 floats a triangle) */
    run->bytes[GPU_STAGE_TRI_NORMALS] = 3 * v * f + 3 * t * f;
    /* cell normals in; SoA normals out, or positions in and the AoS vertex out */
    run->bytes[GPU_STAGE_VERTEX_NORMALS] =
        3 * t * f + (staging_pack ? 3 * v * f : 3 * v * f + 8 * v * f);
    run->bytes[GPU_STAGE_READBACK_SOA] = 2 * 6 * v * f;
    run->bytes[GPU_STAGE_UPLOAD_VERTICES] = copy * 8 * v * f;
    run->bytes[GPU_STAGE_FUSED] = 3 * v * f + 8 * v * f; /* positions in, AoS out */
    run->bytes[GPU_STAGE_FUSED_DEFORM] = 8 * v * f;      /* AoS out */
}

/* Normals weighted as the reference loop weights them (unit triangle normals), in double from the
 * read-back positions: the float64 truth. */
static void truth_of(BenchRun *run, const MeshGrid *grid, const float *vertices)
{
    size_t n = grid->vertex_count;
    double *acc = calloc(3 * n, sizeof *acc);
    if (!acc)
        return;
    double worst_stretch = 0.0;
    for (size_t t = 0; t < grid->triangle_count; t++) {
        const uint32_t *tri = &grid->indices[3 * t];
        double p[3][3];
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++)
                p[k][c] = vertices[tri[k] * PC_VERTEX_FLOATS + c];
        for (int k = 0; k < 3; k++) { /* edge k -> k+1 against its rest length */
            uint32_t a = tri[k], b = tri[(k + 1) % 3];
            double rx = grid->rest_x[b] - grid->rest_x[a], ry = grid->rest_y[b] - grid->rest_y[a];
            double dx = p[(k + 1) % 3][0] - p[k][0], dy = p[(k + 1) % 3][1] - p[k][1],
                   dz = p[(k + 1) % 3][2] - p[k][2];
            double stretch = sqrt(dx * dx + dy * dy + dz * dz) / sqrt(rx * rx + ry * ry) - 1.0;
            worst_stretch = stretch > worst_stretch ? stretch : worst_stretch;
        }
        double e1[3], e2[3];
        for (int c = 0; c < 3; c++)
            e1[c] = p[1][c] - p[0][c], e2[c] = p[2][c] - p[0][c];
        double nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
        double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        if (len > 0.0)
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    acc[3 * tri[k] + c] += nrm[c] / len;
    }
    double worst_angle = 0.0;
    for (size_t v = 0; v < n; v++) {
        const float *g = &vertices[v * PC_VERTEX_FLOATS + 3];
        double gpu[3] = {g[0], g[1], g[2]};
        double angle = mesh_normal_angle_deg(&acc[3 * v], gpu);
        worst_angle = angle > worst_angle ? angle : worst_angle;
    }
    free(acc);
    run->max_stretch = worst_stretch;
    run->max_normal_error_deg = worst_angle;
}

/* The CPU reference loop on the same mesh, median of several runs. */
static double cpu_reference_ms(const MeshGrid *grid, AppTurn turn)
{
    size_t n = grid->vertex_count;
    float *buf = malloc(6 * n * sizeof *buf);
    if (!buf)
        return 0.0;
    MeshSoa3 pos = {buf, buf + n, buf + 2 * n}, out = {buf + 3 * n, buf + 4 * n, buf + 5 * n};
    CurlParams pose = mesh_curl_pose(turn.t, turn.g, grid->width, grid->height);
    mesh_curl_apply(&pose, grid->rest_x, grid->rest_y, n, pos.x, pos.y, pos.z);
    double times[64];
    size_t runs = 0;
    double spent = 0.0;
    while (runs < 64 && (runs < BENCH_CPU_MIN_RUNS || spent < BENCH_CPU_MIN_SECONDS * 1e3)) {
        double t0 = gpu_clock_ms(CLOCK_MONOTONIC);
        mesh_normals_reference(grid, (MeshSoa3Const){pos.x, pos.y, pos.z}, out);
        times[runs] = gpu_clock_ms(CLOCK_MONOTONIC) - t0;
        spent += times[runs++];
    }
    free(buf);
    return app_stats_of(times, runs).median;
}

/* What one grid size's run owns. */
typedef struct BenchGpu {
    BookLeaf leaf;
    BookView view;
    BenchRun *run;
    uint32_t warmup;         /* frames before the first measured one */
    BenchChainRecord record; /* how its frames record the chain */
} BenchGpu;

static void bench_gpu_destroy(const GpuContext *ctx, BenchGpu *g)
{
    book_view_destroy(ctx, &g->view); /* waits for what is in flight */
    book_leaf_destroy(ctx, &g->leaf);
}

static bool alloc_series(BenchRun *run)
{
    for (int s = 0; s < BENCH_STAGE_COUNT; s++)
        if (!(run->stage_ms[s] = calloc(run->frames, sizeof(double))))
            return false;
    run->frame_ms = calloc(run->frames, sizeof(double));
    run->cpu_ms = calloc(run->frames, sizeof(double));
    run->host_wall_ms = calloc(run->frames, sizeof(double));
    return run->frame_ms && run->cpu_ms && run->host_wall_ms;
}

/* A finished frame's device times, into its measured frame (the warm-up's and the untimed
 * readback frame's are dropped). */
static void store(void *user, const BookViewTimes *times)
{
    BenchGpu *g = user;
    BenchRun *run = g->run;
    if (times->frame < g->warmup || times->frame - g->warmup >= run->frames)
        return;
    uint64_t measured = times->frame - g->warmup;
    for (int s = 0; s < BENCH_STAGE_COUNT; s++) {
        if (times->ran[s]) {
            /* a GPU deform's replaces the CPU's; a repeated kernel's is one dispatch's share */
            run->stage_ms[s][measured] =
                times->ms[s] / (bench_stage_is_kernel((GpuStage)s) ? run->repeat : 1);
            run->ran[s] = true;
        }
    }
}

/* The compiler's report on each kernel the run's path uses (registers, shared memory...). */
static void kernel_statistics(const GpuContext *ctx, const BookLeaf *leaf, BenchRun *run)
{
    BenchKernelStats stats[BENCH_MAX_KERNELS];
    run->kernel_count = bench_kernel_stats(ctx, &leaf->chain, &leaf->gpu, stats);
    for (uint32_t k = 0; k < run->kernel_count; k++) {
        run->kernel_names[k] = stats[k].name;
        snprintf(run->kernel_stats[k], sizeof run->kernel_stats[k], "%s", stats[k].stats);
    }
}

/* Records and submits frame f (measured frame `measured`, or -1 in the warm-up and the readback
 * frame) without waiting for it: frames overlap as they do in the window. */
static bool bench_frame(const GpuContext *ctx, BenchGpu *g, uint32_t f, bool readback,
                        BenchRun *run, long measured, GpuError *err)
{
    AppTurn turn = bench_turn(f);
    BookViewFrame frame = {
        .pose = mesh_curl_pose(turn.t, turn.g, g->leaf.grid.width, g->leaf.grid.height),
        .spread = BOOK_SPREAD_FIRST_TURN,
        .readback_vertices = readback,
    };
    frame.spread.progress = turn.t; /* the camera frames the leaf as the window's would */
    BookViewHost host;
    if (!book_view_frame(ctx, &g->view, &frame, &host, err))
        return false;
    if (measured >= 0) {
        run->cpu_ms[measured] = host.cpu;
        run->recorded_frames += host.recorded;
        run->host_wall_ms[measured] = host.wall;
        run->stage_ms[GPU_STAGE_DEFORM][measured] = host.deform;
        run->ran[GPU_STAGE_DEFORM] = !run->gpu_deform; /* on the GPU, its timestamp says so */
        if (g->leaf.path->host_stage) {
            run->stage_ms[GPU_STAGE_PACK][measured] = host.pack;
            run->ran[GPU_STAGE_PACK] = true;
        }
    }
    return true;
}

/* Creates what a grid size needs; false with the reason when the device cannot hold it. */
static bool bench_gpu_create(const GpuContext *ctx, const AppOptions *opts, uint32_t nx,
                             uint32_t ny, BenchGpu *g, GpuError *err)
{
    /* repeated kernels are timed apart: a span may hold a copy */
    *g = (BenchGpu){
        .record = {.repeat = opts->repeat, .stage_times = opts->bench_stages || opts->repeat > 1}};
    BookLeafDesc desc = {.nx = nx,
                         .ny = ny,
                         .readback = true,
                         .cpu_deform = opts->cpu_deform,
                         .normals = opts->normals,
                         .pack = opts->pack,
                         .staging = opts->staging};
    if (!book_leaf_create(ctx, &desc, &g->leaf, err))
        return false;
    BookViewDesc vdesc = {.kind = BOOK_VIEW_OFFSCREEN,
                          .width = opts->width,
                          .height = opts->height,
                          .renderer = {.quality = opts->quality,
                                       .max_samples = opts->msaa,
                                       .show_through = opts->show_through},
                          .timed = true,
                          .record = bench_chain_record,
                          .record_user = &g->record,
                          /* only the leaves of the spread it draws (BOOK_SPREAD_FIRST_TURN) */
                          .leaves = 2};
    if (!book_view_create(ctx, &vdesc, &g->leaf, &g->view, err)) {
        book_leaf_destroy(ctx, &g->leaf);
        return false;
    }
    g->view.on_times = store;
    g->view.times_user = g;
    return true;
}

/* The statistics of a run's measured frames. */
static void summarise(BenchRun *run)
{
    for (int s = 0; s < BENCH_STAGE_COUNT; s++)
        run->stages[s] = app_stats_of(run->stage_ms[s], run->frames);
    run->frame = app_stats_of(run->frame_ms, run->frames);
    run->cpu = app_stats_of(run->cpu_ms, run->frames);
    run->host_wall = app_stats_of(run->host_wall_ms, run->frames);
    run->fps = run->frame.median > 0 ? 1e3 / run->frame.median : 0.0;
    run->gpu_normals_ms =
        run->stages[GPU_STAGE_TRI_NORMALS].median + run->stages[GPU_STAGE_VERTEX_NORMALS].median +
        run->stages[GPU_STAGE_FUSED].median + run->stages[GPU_STAGE_FUSED_DEFORM].median;
    /* the chain's stages end to end in one frame, then the median over frames */
    double *chain = calloc(run->frames, sizeof *chain);
    for (uint32_t f = 0; chain && f < run->frames; f++)
        for (int s = 0; s < GPU_STAGE_RENDER; s++)
            if ((s != GPU_STAGE_DEFORM || run->gpu_deform) && s != GPU_STAGE_PACK)
                chain[f] += run->stage_ms[s][f];
    run->compute_ms = chain ? app_stats_of(chain, run->frames).median : 0.0;
    free(chain);
}

static int bench_grid(const GpuContext *ctx, const AppOptions *opts, BenchRun *run)
{
    GpuError err = {0};
    BenchGpu g;
    run->vertices = (uint64_t)run->nx * run->ny;
    run->triangles = 2 * (uint64_t)(run->nx - 1) * (run->ny - 1);
    if (!bench_gpu_create(ctx, opts, run->nx, run->ny, &g, &err)) {
        run->skipped = true;
        snprintf(run->note, sizeof run->note, "%s", err.message);
        return 0;
    }
    if (!alloc_series(run)) {
        bench_gpu_destroy(ctx, &g);
        run->skipped = true;
        snprintf(run->note, sizeof run->note, "out of host memory for the timings");
        return 0;
    }
    run->gpu_deform = !g.leaf.path->cpu_deform;
    run->path = g.leaf.path->normals_name;
    run->pack = g.leaf.path->pack_name;
    run->in_place = g.leaf.gpu.in_place;
    run->quality = gpu_quality_name(g.view.renderer.quality);
    run->samples = (uint32_t)g.view.renderer.samples;
    kernel_statistics(ctx, &g.leaf, run);
    stage_bytes(run);
    g.run = run;
    g.warmup = opts->warmup;
    bool progress = isatty(STDERR_FILENO);
    uint32_t total = opts->warmup + run->frames;
    bool ok = true;
    /* A measured frame's wall time: from its start to the next frame's start, the
     * period at which the loop runs with frames in flight. */
    double wall_prev = 0;
    uint32_t f = 0;
    for (; f < total && ok && !app_signals_caught(); f++) {
        double wall = gpu_clock_ms(CLOCK_MONOTONIC);
        if (f > opts->warmup) {
            run->frame_ms[f - 1 - opts->warmup] = wall - wall_prev;
        }
        wall_prev = wall;
        long measured = f < opts->warmup ? -1 : (long)(f - opts->warmup);
        ok = bench_frame(ctx, &g, f, false, run, measured, &err);
        if (progress && (f % 16 == 0 || f + 1 == total))
            fprintf(stderr, "\rbench %ux%u: frame %u/%u ", run->nx, run->ny, f + 1, total);
    }
    /* a stop signal: the frames measured so far are the run, marked partial */
    uint32_t measured = f > opts->warmup ? f - opts->warmup : 0;
    bool stopped = ok && measured < run->frames;
    /* the last measured frame ends when the GPU has finished it */
    ok = ok && book_view_wait(ctx, &g.view, &err);
    if (measured)
        run->frame_ms[measured - 1] = gpu_clock_ms(CLOCK_MONOTONIC) - wall_prev;
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    if (ok && stopped) {
        bench_gpu_destroy(ctx, &g);
        if (!measured) {
            run->failed = true;
            snprintf(run->note, sizeof run->note, "stopped by %s before a frame was measured",
                     app_signals_name(app_signals_caught()));
            return 0;
        }
        run->partial = true;
        run->frames = measured;
        summarise(run);
        return 0;
    }
    AppTurn last = bench_turn(total - 1);
    /* One more frame, untimed, reads the vertices back for the geometric truth. */
    ok = ok && bench_frame(ctx, &g, total - 1, true, run, -1, &err) &&
         book_view_wait(ctx, &g.view, &err);
    if (ok) {
        gpu_buffer_invalidate(ctx, &g.leaf.gpu.readback);
        truth_of(run, &g.leaf.grid, g.leaf.gpu.readback.mapped);
        summarise(run);
        run->cpu_reference_normals_ms = cpu_reference_ms(&g.leaf.grid, last);
        run->speedup_vs_cpu =
            run->gpu_normals_ms > 0 ? run->cpu_reference_normals_ms / run->gpu_normals_ms : 0;
    } else {
        app_say(stderr, "%s", err.message);
        run->failed = true;
        snprintf(run->note, sizeof run->note, "%s", err.message);
    }
    bench_gpu_destroy(ctx, &g);
    return ok ? 0 : 1;
}

int app_bench_run(const GpuContext *ctx, const AppOptions *opts, BenchReport *report)
{
    memset(report, 0, sizeof *report);
    describe(ctx, opts, report);
    GpuError err = {0};
    /* A CPU device copies at memory speed from any size well past its caches, and the full size
     * would hold a stop signal for seconds there (the probe is one submission). */
    bool cpu = ctx->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    uint64_t bytes = cpu ? BENCH_CPU_COPY_BYTES : BENCH_COPY_BYTES;
    if (!bench_bandwidth_measure(ctx, bytes, 10, &report->copy_gbps, &err)) {
        app_say(stderr, "%s", err.message);
        return 1;
    }
    int status = 0;
    for (uint32_t i = 0; i < opts->grid_count && status == 0 && !app_signals_caught(); i++) {
        BenchRun *run = &report->runs[report->run_count++];
        run->nx = opts->grids[i][0];
        run->ny = opts->grids[i][1];
        run->frames = opts->frames ? opts->frames : APP_BENCH_FRAMES;
        run->repeat = opts->repeat ? opts->repeat : 1;
        status = bench_grid(ctx, opts, run);
    }
    if (app_signals_caught())
        snprintf(report->stopped_by, sizeof report->stopped_by, "%s",
                 app_signals_name(app_signals_caught()));
    return status;
}

void app_bench_free(BenchReport *report)
{
    for (uint32_t i = 0; i < report->run_count; i++) {
        BenchRun *run = &report->runs[i];
        for (int s = 0; s < BENCH_STAGE_COUNT; s++)
            free(run->stage_ms[s]);
        free(run->frame_ms);
        free(run->cpu_ms);
        free(run->host_wall_ms);
    }
    memset(report, 0, sizeof *report);
}
