/* SPDX-License-Identifier: MIT */
#include "report.h"

#include "json_text.h"

#include "../files/safe_write.h"

#include <string.h>

static void print_stats_row(FILE *out, const char *name, AppStats s, double bytes, double copy)
{
    fprintf(out, "  %-16s %9.4f %10.4f %9.4f", name, s.min, s.median, s.p99);
    if (bytes > 0 && s.median > 0) {
        double gbps = bytes / (s.median * 1e-3) / 1e9;
        fprintf(out, " %11.2f %9.1f %8.1f%%", bytes / 1e6, gbps, copy > 0 ? 100 * gbps / copy : 0);
    }
    fputc('\n', out);
}

void app_report_table(FILE *out, const BenchReport *r)
{
    fprintf(out, "pagecurl --bench on %s (%s), Vulkan %s\n", r->device, r->driver, r->api_version);
    fprintf(out,
            "copy bandwidth %.1f GB/s (compute copy, 16-byte loads and stores, read + write)\n",
            r->copy_gbps);
    for (uint32_t i = 0; i < r->run_count; i++) {
        const BenchRun *run = &r->runs[i];
        fprintf(out, "\ngrid %ux%u: %llu vertices, %llu triangles", run->nx, run->ny,
                (unsigned long long)run->vertices, (unsigned long long)run->triangles);
        if (run->skipped || run->failed) {
            fprintf(out, ": %s, %s\n", run->skipped ? "skipped" : "failed", run->note);
            continue;
        }
        fprintf(out,
                ", %u frames%s, %s quality (%u sample%s a pixel), %s normals, pack on the %s, "
                "deform on the %s%s%s\n",
                run->frames, run->partial ? " (partial: stopped)" : "", run->quality, run->samples,
                run->samples == 1 ? "" : "s", run->path,
                strcmp(run->pack, "gpu") ? "CPU (staging)" : "GPU", run->gpu_deform ? "GPU" : "CPU",
                run->in_place ? ", CPU writes in place (no staging copy)" : "",
                run->repeat > 1 ? ", each kernel's time the mean of its back-to-back dispatches "
                                  "(--repeat)"
                                : "");
        fprintf(out, "  %-16s %9s %10s %9s %11s %9s %9s\n", "stage", "min ms", "median ms",
                "p99 ms", "MB moved", "GB/s", "of copy");
        for (int s = 0; s < BENCH_STAGE_COUNT; s++)
            if (run->ran[s])
                print_stats_row(out,
                                s == GPU_STAGE_DEFORM && !run->gpu_deform ? "deform (cpu)"
                                : s == GPU_STAGE_PACK                     ? "pack (cpu)"
                                                                          : gpu_stage_name(s),
                                run->stages[s], run->bytes[s], r->copy_gbps);
        print_stats_row(out, "frame (wall)", run->frame, 0, 0);
        print_stats_row(out, "cpu per frame", run->cpu, 0, 0);
        print_stats_row(out, "cpu wall time", run->host_wall, 0, 0);
        fprintf(out, "  commands recorded in %u of %u frames, submitted again in %u\n",
                run->recorded_frames, run->frames, run->frames - run->recorded_frames);
        for (uint32_t k = 0; k < run->kernel_count; k++)
            fprintf(out, "  compiler, %s: %s\n", run->kernel_names[k], run->kernel_stats[k]);
        if (run->partial) {
            fprintf(out,
                    "  compute chain %.4f ms; %.1f frames/s (no CPU reference, no truth: "
                    "stopped)\n",
                    run->compute_ms, run->fps);
            continue;
        }
        if (run->gpu_normals_ms > 0)
            fprintf(out,
                    "  compute chain %.4f ms; %.1f frames/s; CPU reference normals %.4f ms, GPU "
                    "normals %.4f ms: %.1fx\n",
                    run->compute_ms, run->fps, run->cpu_reference_normals_ms, run->gpu_normals_ms,
                    run->speedup_vs_cpu);
        else
            fprintf(out,
                    "  compute chain %.4f ms; %.1f frames/s; CPU reference normals %.4f ms, GPU "
                    "normals timed within the chain (--bench-stages times them apart)\n",
                    run->compute_ms, run->fps, run->cpu_reference_normals_ms);
        fprintf(out,
                "  max edge stretch %.3g (relative), max GPU normal error vs float64 %.3g deg\n",
                run->max_stretch, run->max_normal_error_deg);
    }
    if (r->stopped_by[0])
        fprintf(out, "\nstopped by %s: the last grid is partial, any after it left out\n",
                r->stopped_by);
    if (r->run_count < 2)
        return;
    fprintf(out, "\n%-12s %10s %-13s %9s %9s %9s %9s %11s %9s\n", "grid", "vertices", "normals",
            "compute", "normals", "frame", "fps", "cpu normals", "speed-up");
    for (uint32_t i = 0; i < r->run_count; i++) {
        const BenchRun *run = &r->runs[i];
        char grid[32];
        snprintf(grid, sizeof grid, "%ux%u", run->nx, run->ny);
        if (run->skipped || run->failed) {
            fprintf(out, "%-12s %s: %s\n", grid, run->skipped ? "skipped" : "failed", run->note);
            continue;
        }
        char normals[16] = "-", speedup[16] = "-"; /* not timed apart from the chain */
        if (run->gpu_normals_ms > 0) {
            snprintf(normals, sizeof normals, "%.4f", run->gpu_normals_ms);
            snprintf(speedup, sizeof speedup, "%.1fx", run->speedup_vs_cpu);
        }
        fprintf(out, "%-12s %10llu %-13s %9.4f %9s %9.3f %9.1f %11.3f %9s\n", grid,
                (unsigned long long)run->vertices, run->path, run->compute_ms, normals,
                run->frame.median, run->fps, run->cpu_reference_normals_ms, speedup);
    }
    fprintf(out, "(median ms per frame; compute = the GPU stages before render; GPU stages by "
                 "device timestamps, a CPU deform and the frame by the CPU clock)\n");
}

static void json_stats(FILE *f, AppStats s)
{
    fprintf(f, "{\"min_ms\": %.6g, \"median_ms\": %.6g, \"p99_ms\": %.6g}", s.min, s.median, s.p99);
}

/* A figure, or null where it was not measured (0: the normals timed within the chain's span). */
static void json_number_or_null(FILE *f, double v)
{
    if (v > 0)
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static bool write_json(FILE *f, const void *user)
{
    const BenchReport *r = user;
    fputs("{\n  \"context\": {\"device\": ", f);
    app_json_write_string(f, r->device);
    fputs(", \"driver\": ", f);
    app_json_write_string(f, r->driver);
    fputs(", \"api_version\": ", f);
    app_json_write_string(f, r->api_version);
    fputs(", \"date\": ", f);
    app_json_write_string(f, r->date);
    fputs(", \"command\": ", f);
    app_json_write_string(f, r->command);
    fprintf(f, ", \"copy_gbps\": %.6g", r->copy_gbps);
    if (r->stopped_by[0]) /* a sweep cut short: the last run partial, the later grids left out */
        fprintf(f, ", \"partial\": true, \"stopped_by\": \"%s\"", r->stopped_by);
    fputs("},\n  \"runs\": [", f);
    for (uint32_t i = 0; i < r->run_count; i++) {
        const BenchRun *run = &r->runs[i];
        fprintf(f, "%s\n    {\"grid\": [%u, %u], \"vertices\": %llu, \"triangles\": %llu",
                i ? "," : "", run->nx, run->ny, (unsigned long long)run->vertices,
                (unsigned long long)run->triangles);
        if (run->skipped || run->failed) {
            fputs(run->skipped ? ", \"skipped\": " : ", \"error\": ", f);
            app_json_write_string(f, run->note);
            fputc('}', f);
            continue;
        }
        fprintf(f,
                ", \"quality\": \"%s\", \"samples\": %u, \"deform_on\": \"%s\", \"frames\": %u, "
                "\"repeat\": %u, \"stages\": {",
                run->quality, run->samples, run->gpu_deform ? "gpu" : "cpu", run->frames,
                run->repeat);
        for (int s = 0, first = 1; s < BENCH_STAGE_COUNT; s++) {
            if (!run->ran[s])
                continue;
            fprintf(f, "%s\"%s\": ", first ? "" : ", ", gpu_stage_name(s));
            json_stats(f, run->stages[s]);
            first = 0;
        }
        fputs("}, \"frame\": ", f);
        json_stats(f, run->frame);
        fputs(", \"cpu_per_frame\": ", f);
        json_stats(f, run->cpu);
        fputs(", \"cpu_wall_per_frame\": ", f);
        json_stats(f, run->host_wall);
        fprintf(f, ", \"recorded_frames\": %u", run->recorded_frames);
        fputs(", \"kernels\": {", f);
        for (uint32_t k = 0; k < run->kernel_count; k++) {
            fprintf(f, "%s", k ? ", " : "");
            app_json_write_string(f, run->kernel_names[k]);
            fputs(": ", f);
            app_json_write_string(f, run->kernel_stats[k]);
        }
        fputc('}', f);
        fprintf(f,
                ", \"normals\": \"%s\", \"pack\": \"%s\", \"in_place\": %s, \"compute_ms\": %.6g, "
                "\"gpu_normals_ms\": ",
                run->path, run->pack, run->in_place ? "true" : "false", run->compute_ms);
        json_number_or_null(f, run->gpu_normals_ms);
        fprintf(f, ", \"fps\": %.6g", run->fps);
        if (run->partial) {
            fputs(", \"partial\": true}", f);
            continue;
        }
        fprintf(f, ", \"cpu_reference_normals_ms\": %.6g, \"speedup_vs_cpu\": ",
                run->cpu_reference_normals_ms);
        json_number_or_null(f, run->gpu_normals_ms > 0 ? run->speedup_vs_cpu : 0);
        fprintf(f, ", \"max_stretch\": %.6g, \"max_normal_error_deg\": %.6g}", run->max_stretch,
                run->max_normal_error_deg);
    }
    fputs("\n  ]\n}\n", f);
    return true;
}

bool app_report_json(const char *path, const BenchReport *report, char *message, size_t size)
{
    return files_safe_write(path, false, write_json, report, message, size);
}

static bool write_csv(FILE *f, const void *user)
{
    const BenchReport *r = user;
    /* every stage has a column; one that did not run reads 0 */
    fputs("nx,ny,frame", f);
    for (int s = 0; s < BENCH_STAGE_COUNT; s++)
        fprintf(f, ",%s_ms", gpu_stage_name(s));
    fputs(",frame_ms,cpu_ms,cpu_wall_ms\n", f);
    for (uint32_t i = 0; i < r->run_count; i++) {
        const BenchRun *run = &r->runs[i];
        for (uint32_t k = 0; !run->skipped && !run->failed && k < run->frames; k++) {
            fprintf(f, "%u,%u,%u", run->nx, run->ny, k);
            for (int s = 0; s < BENCH_STAGE_COUNT; s++)
                fprintf(f, ",%.6g", run->stage_ms[s][k]);
            fprintf(f, ",%.6g,%.6g,%.6g\n", run->frame_ms[k], run->cpu_ms[k], run->host_wall_ms[k]);
        }
    }
    return true;
}

bool app_report_csv(const char *path, const BenchReport *report, char *message, size_t size)
{
    return files_safe_write(path, false, write_csv, report, message, size);
}
