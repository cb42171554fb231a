/* SPDX-License-Identifier: MIT */
/* pagecurl: a page-curl demo on Vulkan. The table of contents: parse the command line, pick the
 * mode (window where there is a display, headless otherwise, or the benchmark), run it, and turn
 * validation findings into the exit status. The window (app/window.c) and headless mode
 * (app/headless.c) are clients of libpagecurl's public header; the benchmark compares the
 * engine's kernel paths through its own headers.
 * Exit status: 0 success, 1 runtime failure, 2 bad usage. */
#include "bench.h"
#include "say.h"
#include "cli.h"
#include "headless.h"
#include "output.h"
#include "report.h"
#include "signals.h"
#include "trace.h"
#ifdef PAGECURL_HAVE_SDL
#include "window.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* Benchmark mode: measure, print the table, write the files. Returns the exit status. */
static int run_bench(const GpuContext *ctx, const AppOptions *opts)
{
    BenchReport *report = malloc(sizeof *report);
    if (!report) {
        app_say(stderr, "out of memory");
        return 1;
    }
    int status = app_bench_run(ctx, opts, report);
    app_report_table(stdout, report);
    char message[512];
    /* Even a failed run writes what it measured. */
    if (opts->json && !app_report_json(opts->json, report, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    }
    if (opts->csv && !app_report_csv(opts->csv, report, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = 1;
    }
    app_bench_free(report);
    free(report);
    return status;
}

/* A run's end, whatever ended it: a signal or a validation finding turns success into failure.
 * Returns the exit status. */
static int end_run(int status, const GpuMessages *messages)
{
    int caught = app_signals_caught();
    if (caught) {
        app_say(stderr, "stopped by %s", app_signals_name(caught));
        if (status == 0)
            status = 128 + caught;
    }
    uint32_t findings = messages->warnings + messages->errors;
    if (findings) {
        app_say(stderr, "validation reported %u error(s) and %u warning(s)", messages->errors,
                messages->warnings);
        if (status == 0)
            status = 1;
    }
    return status;
}

/* The device the options ask for, its validation messages counted in `messages`. */
static GpuContextDesc context_desc(const AppOptions *opts, GpuMessages *messages)
{
    return (GpuContextDesc){.validation = opts->validation,
                            .gpu_assisted = opts->gpu_assisted,
                            .device_index = opts->device,
                            .messages = messages};
}

/* The benchmark: its own context (the kernels' compiler figures asked for). Returns the exit
 * status. */
static int bench_mode(const AppOptions *opts)
{
    GpuMessages messages = {0};
    GpuContextDesc desc = context_desc(opts, &messages);
    desc.pipeline_statistics = true;
    GpuContext ctx;
    GpuError err = {0};
    bool made = gpu_context_create(&desc, &ctx, &err);
    if (made)
        gpu_context_faults(&ctx,
                           &(GpuFaultSpec){.submit_after = opts->faults.library.submit_after,
                                           .allocate_after = opts->faults.library.allocate_after});
    app_signals_defer(); /* a signal from here asks the measuring loop to stop */
    int status;
    if (!made) {
        app_say(stderr, "%s", err.message);
        status = err.usage ? 2 : 1;
    } else {
        status = run_bench(&ctx, opts);
    }
    gpu_context_destroy(&ctx);
    return end_run(status, &messages);
}

/* The window where one can open, else headless. Returns the exit status. */
static int shown_mode(AppOptions *opts, const AppTrace *trace)
{
    char why[768] = "";
#ifdef PAGECURL_HAVE_SDL
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if (opts->headless)
        return app_headless_main(opts, trace, why);
    if ((!x11 || !*x11) && (!wayland || !*wayland)) {
        snprintf(why, sizeof why, "no display (DISPLAY and WAYLAND_DISPLAY unset)");
        return app_headless_main(opts, trace, why);
    }
    /* a window opens: a headless run's flag does not apply (before the window, not after it) */
    if (app_cli_window_refusal(opts, why, sizeof why)) {
        app_say(stderr, "%s", why);
        return 2;
    }
    AppWindow window = {0};
    if (!app_window_open(opts, &window, why, sizeof why))
        return app_headless_main(opts, trace, why);
    int status = app_window_run(&window, opts, trace);
    app_window_close(&window);
    return status;
#else
    if (!opts->headless)
        snprintf(why, sizeof why, "built without the window mode (PAGECURL_SDL=OFF)");
    return app_headless_main(opts, trace, why);
#endif
}

/* The program, its exit status before stdout is checked. */
static int run(int argc, char **argv)
{
    AppOptions opts;
    char message[512];
    switch (app_cli_parse(argc, argv, &opts, message, sizeof message)) {
    case APP_CLI_EXIT_OK:
        return 0;
    case APP_CLI_USAGE:
        app_say(stderr, "%s", message);
        return 2;
    case APP_CLI_RUN:
        break;
    }

    /* Before SDL starts: it leaves handlers it finds in place. Until the device is made, a signal
     * ends the program at once (nothing of the user's is held yet). */
    app_signals_install();
    GpuError err = {0};
    if (opts.list_devices) {
        if (gpu_context_list_devices(stdout, &err))
            return 0;
        app_say(stderr, "%s", err.message);
        return 1;
    }

    /* Every path, before anything starts: two outputs on one file are bad usage, an output that
     * cannot be written (a missing folder) is refused before a window opens. */
    int checked = app_output_check(&opts, message, sizeof message);
    if (checked) {
        app_say(stderr, "%s", message);
        return checked;
    }
    /* a test's faults: a mistyped one is bad usage, before anything is drawn */
    if (!app_fault_read(&opts.faults, message, sizeof message)) {
        app_say(stderr, "%s", message);
        return 2;
    }
    /* the trace to replay: a malformed one is bad usage */
    AppTrace replay = {0};
    if (opts.replay && !app_trace_load(opts.replay, &replay, message, sizeof message)) {
        app_say(stderr, "%s", message);
        return 2;
    }
    int status = opts.bench ? bench_mode(&opts) : shown_mode(&opts, opts.replay ? &replay : NULL);
    app_trace_free(&replay);
    return status;
}

int main(int argc, char **argv)
{
    return app_say_finish(run(argc, argv));
}
