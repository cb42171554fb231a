/* SPDX-License-Identifier: MIT */
/* Benchmark mode: a deterministic scripted turn played headless on one or more grid sizes, each
 * stage timed by device timestamps; beside it the device's copy bandwidth, the CPU reference
 * normals on the same mesh, and the geometric truth of the result. Measures; report.c prints and
 * writes. */
#ifndef PAGECURL_APP_BENCH_H
#define PAGECURL_APP_BENCH_H

#include "../bench/kernel_stats.h"
#include "../gpu/chain.h"
#include "options.h"
#include "stats.h"

/* The rows: the stages a benchmark frame can run (gpu/chain.h's, all but readback). deform (when
 * on the CPU) and the staging pack's host stage `pack` are timed by the CPU clock, the others by
 * device timestamps. readback_soa, pack and upload_vertices run only with --pack staging. */
#define BENCH_STAGE_COUNT GPU_STAGE_READBACK

typedef struct BenchRun {
    uint32_t nx, ny;
    uint64_t vertices, triangles;
    uint32_t frames;
    uint32_t repeat; /* each kernel's dispatches a frame (--repeat): its stage time is the mean */
    bool skipped;    /* beyond the device's limits: never started */
    bool failed;     /* started, then the GPU failed: what was measured is not reported */
    bool partial;    /* stopped by a signal: `frames` is what was measured, with no truth or CPU
                        reference (those would have to run to the end) */
    char note[320];  /* why it was skipped or failed */
    double *stage_ms[BENCH_STAGE_COUNT]; /* per frame */
    double *frame_ms;                    /* wall time per frame (start to start) */
    uint32_t recorded_frames;            /* measured frames that recorded their commands (the others
                                          * submitted their slot's again) */
    double *cpu_ms, *host_wall_ms;       /* the host's recording and submission: thread CPU
                                          * time, and wall time */
    bool ran[BENCH_STAGE_COUNT];         /* upload runs only with --deform cpu */
    bool gpu_deform;                     /* deform timed on the device, not the CPU clock */
    AppStats stages[BENCH_STAGE_COUNT], frame, cpu, host_wall;
    double bytes[BENCH_STAGE_COUNT]; /* what a stage must move at least, 0 if not a copy/kernel */
    double fps;
    const char *path;      /* two-pass, fused, fused-deform */
    const char *pack;      /* gpu, staging */
    bool in_place;         /* the CPU wrote device-local memory directly (--staging) */
    const char *quality;   /* the renderer's tier: low or high */
    uint32_t samples;      /* MSAA samples per pixel the render stage drew with */
    double gpu_normals_ms; /* median of the stages that make the normals (fused ones pack too) */
    double compute_ms;     /* median of all GPU stages before render: the compute chain */
    double cpu_reference_normals_ms, speedup_vs_cpu; /* the CPU reference loop vs gpu_normals_ms */
    double max_stretch, max_normal_error_deg;
    /* the compiler's statistics of the kernels the path ran, where the driver reports them */
    uint32_t kernel_count;
    const char *kernel_names[BENCH_MAX_KERNELS];
    char kernel_stats[BENCH_MAX_KERNELS][512];
} BenchRun;

typedef struct BenchReport {
    char device[256], driver[512], api_version[32], date[32], command[1024];
    double copy_gbps;
    char stopped_by[16]; /* the signal that stopped the sweep early; empty when it ran through */
    uint32_t run_count;
    BenchRun runs[APP_MAX_GRIDS];
} BenchReport;

/* Runs every grid of opts; fills report. Returns the exit status (0, or 1 on a GPU failure). A
 * stop signal (app/signals.h) ends it after the frame in progress: the grid being measured is
 * kept as a partial run, the grids after it are left out. */
int app_bench_run(const GpuContext *ctx, const AppOptions *opts, BenchReport *report);
void app_bench_free(BenchReport *report);

#endif
