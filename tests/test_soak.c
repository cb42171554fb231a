/* SPDX-License-Identifier: MIT */
/* Soak: many headless frames through the program's own frame path (book_view_frame), the pose
 * changing every frame and the grid every --grid-every frames (book_leaf_regrid: each change
 * destroys the leaf's grid and buffers and makes new ones, and binds the leaf's kernels to them),
 * with the validation layer and synchronization validation on.
 * Fails when any validation message is reported, or when the process's resident memory (VmRSS)
 * grew by more than --max-growth-kib between frame --baseline (warm: every pipeline, allocator
 * arena and driver cache in use, and the grid replaced once) and the last frame. Prints the
 * figures either way, with the heap in use (mallinfo2) beside the RSS so that growth can be told
 * from fragmentation.
 *
 *   test_soak [--frames N] [--grid-every N] [--baseline N] [--size WxH] [--max-growth-kib K]
 *             [--no-rss-limit] [--no-validation]
 * Defaults: the full soak of issue 8, 100000 frames, a grid change every 10000, 16x16 pixels,
 * baseline at frame 3000 (BASELINE), limit 1024 KiB. The target is small because the soak is about
 * what lives and dies, not about pixels: every pass runs (4x MSAA, the shadow map at its smallest,
 * the resolve) whatever the size, while lavapipe's cost grows with the pixels. */
#include "../book/book.h"
#include "../book/view.h"
#include "../app/input.h"

#include <execinfo.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The grids the soak cycles through: about 64^2 vertices each, so every phase costs the same,
 * but each a different shape so that every change reallocates every buffer. */
static const uint32_t GRIDS[][2] = {{64, 64}, {48, 85}, {85, 48}, {33, 124}, {57, 72}};
#define GRID_COUNT (sizeof GRIDS / sizeof GRIDS[0])
/* One scripted turn lasts this many frames; the grab height moves on with every turn. */
#define TURN_FRAMES 600u
/* The default baseline: after one whole cycle of the script (five turns, five grab heights), so
 * that every pose has been drawn once. At the low tier the VmRSS of lavapipe's queue-thread arena
 * rises once by about 1 MiB between frames 1000 and 3000 (the heap in use flat, no rise after),
 * where the later grab heights are first drawn; a baseline at 1000 counted that as growth. */
#define BASELINE (5u * TURN_FRAMES)
/* Frames replayed before the end sample: more than lavapipe keeps scenes of. */
#define TAIL_FRAMES 8u

typedef struct SoakArgs {
    uint32_t frames, grid_every, baseline, width, height;
    bool validation;     /* on unless --no-validation (for telling the layer's memory from ours) */
    long max_growth_kib; /* < 0: report only (sanitizer builds, whose allocator keeps freed
                            memory in quarantine) */
} SoakArgs;

/* This process's resident set, in KiB (0 when /proc cannot tell). */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

/* Resident memory by kind of mapping, in KiB: the main thread's malloc heap ([heap]: ours, the
 * loader's, the validation layer's, lavapipe's device memory), anonymous mappings (other threads'
 * malloc arenas, such as lavapipe's queue thread where llvmpipe compiles shaders, JIT code, large
 * allocations) and mapped files (libraries). Tells whose memory grew. */
typedef struct RssParts {
    long heap, anon, file;
} RssParts;

static RssParts rss_parts(void)
{
    RssParts p = {0};
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return p;
    char line[512];
    long *into = NULL, kib;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        int name_at = 0;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &name_at) == 2 && name_at) {
            const char *name = line + name_at;
            into = !strncmp(name, "[heap]", 6)                        ? &p.heap
                   : (*name == '\n' || *name == '\0' || *name == '[') ? &p.anon
                                                                      : &p.file;
        } else if (into && sscanf(line, "Rss: %ld kB", &kib) == 1) {
            *into += kib;
        }
    }
    fclose(f);
    return p;
}

/* Bytes the C heap has handed out and not had back (ours and every library's in this process). */
static long heap_kib(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (long)((mi.uordblks + mi.hblkhd) / 1024);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool parse_args(int argc, char **argv, SoakArgs *a)
{
    *a = (SoakArgs){.frames = 100000,
                    .grid_every = 10000,
                    .baseline = BASELINE,
                    .width = 16,
                    .height = 16,
                    .validation = true,
                    .max_growth_kib = 1024};
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = v != NULL;
        if (!strcmp(argv[i], "--no-rss-limit")) {
            a->max_growth_kib = -1;
            continue;
        } else if (!strcmp(argv[i], "--no-validation")) {
            a->validation = false;
            continue;
        } else if (!strcmp(argv[i], "--frames") && v) {
            ok = sscanf(v, "%u", &a->frames) == 1;
        } else if (!strcmp(argv[i], "--grid-every") && v) {
            ok = sscanf(v, "%u", &a->grid_every) == 1;
        } else if (!strcmp(argv[i], "--baseline") && v) {
            ok = sscanf(v, "%u", &a->baseline) == 1;
        } else if (!strcmp(argv[i], "--max-growth-kib") && v) {
            ok = sscanf(v, "%ld", &a->max_growth_kib) == 1;
        } else if (!strcmp(argv[i], "--size") && v) {
            ok = sscanf(v, "%ux%u", &a->width, &a->height) == 2;
        } else {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "test_soak: bad argument '%s' (see the comment in test_soak.c)\n",
                    argv[i]);
            return false;
        }
        i++;
    }
    if (a->grid_every == 0 || a->baseline == 0 || a->baseline >= a->frames || a->width == 0 ||
        a->height == 0) {
        fprintf(stderr, "test_soak: want 0 < --baseline < --frames, --grid-every > 0\n");
        return false;
    }
    return true;
}

/* Gives the leaf grid number `which` of GRIDS (after every frame using it is done). */
static bool grid_switch(const GpuContext *ctx, BookView *view, BookLeaf *leaf, uint32_t which,
                        GpuError *err)
{
    if (!book_view_wait(ctx, view, err))
        return false;
    const uint32_t *g = GRIDS[which % GRID_COUNT];
    return book_leaf_regrid(ctx, leaf, g[0], g[1], err);
}

/* Memory at one moment, taken with the leaf and the renderer alive and every frame done. */
typedef struct Sample {
    long rss;  /* VmRSS */
    long heap; /* heap in use (mallinfo2) */
    RssParts parts;
} Sample;

static Sample sample_take(void)
{
    /* Free memory goes back to the system first, in every malloc arena, so that both samples
     * count what is held and not what happens to be waiting for a trim: lavapipe's queue thread
     * frees ~1 MiB in its own arena every few frames, which glibc returns or keeps depending on
     * what came last, and the samples caught it at the baseline or at the end by chance. A leak
     * is held memory and stays counted; so does fragmentation down to the page. */
    malloc_trim(0);
    return (Sample){.rss = rss_kib(), .heap = heap_kib(), .parts = rss_parts()};
}

static void sample_print(const char *what, uint32_t frame, const Sample *smp)
{
    printf("frame %6u: %s VmRSS %ld KiB, heap in use %ld KiB\n", frame, what, smp->rss, smp->heap);
}

/* The baseline and the end: what grew, not what teardown returns. */
typedef struct SoakFigures {
    Sample base, end;
} SoakFigures;

/* Frame f of the script: a turn every TURN_FRAMES, from a grab height that moves on with each
 * turn. */
static bool soak_frame(const GpuContext *ctx, BookView *view, const BookLeaf *leaf, uint32_t f,
                       GpuError *err)
{
    float grab = (float)(f / TURN_FRAMES % 5) / 4.0f;
    AppTurn turn = app_input_scripted(f % TURN_FRAMES, TURN_FRAMES, grab);
    BookViewFrame frame = {
        .pose = mesh_curl_pose(turn.t, turn.g, leaf->grid.width, leaf->grid.height),
        .spread = BOOK_SPREAD_FIRST_TURN,
    };
    return book_view_frame(ctx, view, &frame, NULL, err);
}

/* Plays the frames, samples memory. False on a Vulkan failure (err says which). */
static bool soak(const GpuContext *ctx, const SoakArgs *a, SoakFigures *fig, GpuError *err)
{
    BookLeaf leaf = {0};
    BookView view;
    if (!book_leaf_create(ctx, &(BookLeafDesc){.nx = GRIDS[0][0], .ny = GRIDS[0][1]}, &leaf, err))
        return false;
    BookViewDesc desc = {
        .kind = BOOK_VIEW_OFFSCREEN,
        .width = a->width,
        .height = a->height,
        .renderer = {.shadow_size = gpu_shadow_size(a->width, a->height)},
    };
    if (!book_view_create(ctx, &desc, &leaf, &view, err)) {
        book_leaf_destroy(ctx, &leaf);
        return false;
    }
    bool ok = true;
    double start = seconds();
    for (uint32_t f = 0; f < a->frames && ok; f++) {
        /* Warm-up ends at the baseline, and it includes one grid change (to the same grid,
         * halfway there): the first change raises the heap's high-water mark once (new buffers
         * while the old ones' memory is still held by frames' allocations around it; the heap in
         * use does not grow), a cost of warming up like the first frames', not growth. */
        bool change = f > 0 && (f % a->grid_every == 0 || f == a->baseline / 2);
        if (change) {
            ok = grid_switch(ctx, &view, &leaf, f / a->grid_every, err);
            if (!ok)
                break;
        }
        if (change || f == 0) {
            printf("frame %6u: grid %ux%u, VmRSS %ld KiB, heap in use %ld KiB, %.1f s\n", f,
                   leaf.grid.nx, leaf.grid.ny, rss_kib(), heap_kib(), seconds() - start);
            fflush(stdout);
        }
        if (f == a->baseline) {
            ok = book_view_wait(ctx, &view, err);
            fig->base = sample_take();
            sample_print("baseline", f, &fig->base);
        }
        ok = ok && soak_frame(ctx, &view, &leaf, f, err);
    }
    /* The baseline's grid and the frames before the baseline once more, so that both samples
     * follow the same frames of the same leaf: lavapipe keeps the last frames' binned scenes,
     * whose size depends on what they drew, and the leaf's buffers land in the heap or in
     * mappings of their own by their sizes. */
    if (ok && leaf.grid.nx != GRIDS[0][0])
        ok = grid_switch(ctx, &view, &leaf, 0, err);
    for (uint32_t f = a->baseline > TAIL_FRAMES ? a->baseline - TAIL_FRAMES : 0; f < a->baseline;
         f++)
        ok = ok && soak_frame(ctx, &view, &leaf, f, err);
    ok = ok && book_view_wait(ctx, &view, err);
    if (ok) {
        fig->end = sample_take();
        sample_print("end", a->frames, &fig->end);
        printf("%.2f ms a frame\n", (seconds() - start) * 1e3 / a->frames);
    }
    book_view_destroy(ctx, &view);
    book_leaf_destroy(ctx, &leaf);
    return ok;
}

/* A crash prints the stack of the thread it happened in: glibc aborts in the free() that finds a
 * corrupted heap, in whichever thread frees next (ours, lavapipe's queue or rasteriser threads,
 * the validation layer's), and the libraries on that stack say whose allocation it was. Such an
 * abort has come once in six full soaks, too rarely to wait for under a debugger. Only
 * async-signal-safe calls, apart from backtrace(), which main() has loaded already. */
static void on_crash(int sig)
{
    static const char line[] = "test_soak: crashed; the stack of the thread it happened in:\n";
    void *frames[64];
    int n = backtrace(frames, 64);
    if (write(STDERR_FILENO, line, sizeof line - 1) > 0)
        backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void crash_report_install(void)
{
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc's unwinder now rather than in the handler */
    signal(SIGABRT, on_crash);
#ifndef __SANITIZE_ADDRESS__ /* ASan reports these itself, with more */
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
#endif
}

int main(int argc, char **argv)
{
    SoakArgs a;
    if (!parse_args(argc, argv, &a))
        return 2;
    crash_report_install();
    /* One malloc arena for every thread, before any starts: lavapipe's threads would otherwise
     * allocate in arenas of their own, which mallinfo2 does not count and whose resident pages
     * swung by 1-3 MiB either way between two samples after the same frames (the order of its
     * frees, not growth); in one arena the heap in use counts all of it and VmRSS follows. */
    mallopt(M_ARENA_MAX, 1);
    /* Without rasteriser threads, unless a count is set: at the soak's 16x16 pixels llvmpipe
     * rasterises faster on its queue thread, and the memory measured is one arena's. Their fence
     * race (app/mutex_guard.c, linked in) is soak_fence_race's, which sets a count. */
    setenv("LP_NUM_THREADS", "0", 0);
    /* glibc raises its mmap threshold to the size of each mmapped block freed, so a block of a
     * few MiB that lavapipe allocates and frees again (on a grid change) lands in the heap one
     * time and in a mapping of its own the next: VmRSS then flips by about 2 MiB from one grid
     * to the next with nothing held. Setting the threshold (to its usual 128 KiB) turns that
     * adjustment off, so what the soak measures is what stays. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* Setting that threshold also pins the trim threshold at 128 KiB. llvmpipe bins each frame's
     * triangles into 64 KiB blocks and frees them, newest (highest) first, when the frame is
     * rasterised; with that trim threshold every one of those frees handed its block back to the
     * kernel (madvise, a TLB shootdown on every core) and the next frame faulted it in again:
     * about 100 blocks a frame at the low tier's 16x16, 100-150 ms a frame instead of 5. Kept up
     * to this much free at the top of a heap, the blocks are reused; a leak still raises VmRSS. */
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
    GpuMessages messages = {0};
    GpuContextDesc desc = {.validation = a.validation, .device_index = -1, .messages = &messages};
    GpuContext ctx;
    GpuError err = {0};
    if (!gpu_context_create(&desc, &ctx, &err)) {
        fprintf(stderr, "test_soak: %s\n", err.message);
        return 1;
    }
    printf("test_soak: %u frames of %ux%u on %s, a grid change every %u\n", a.frames, a.width,
           a.height, ctx.props.deviceName, a.grid_every);
    SoakFigures fig = {0};
    bool ok = soak(&ctx, &a, &fig, &err);
    if (!ok)
        fprintf(stderr, "test_soak: %s\n", err.message);
    gpu_context_destroy(&ctx);
    int failures = !ok;
    if (ok) {
        const Sample *b = &fig.base, *e = &fig.end;
        long growth = e->rss - b->rss;
        printf("test_soak: growth from frame %u to frame %u: VmRSS %+ld KiB (main heap %+ld, "
               "anonymous mappings %+ld, files %+ld), heap in use %+ld KiB\n",
               a.baseline, a.frames, growth, e->parts.heap - b->parts.heap,
               e->parts.anon - b->parts.anon, e->parts.file - b->parts.file, e->heap - b->heap);
        if (a.max_growth_kib < 0) {
            printf("test_soak: growth not limited (--no-rss-limit)\n");
        } else if (growth > a.max_growth_kib) {
            fprintf(stderr,
                    "test_soak: resident memory grew by %ld KiB, over the limit of %ld KiB\n",
                    growth, a.max_growth_kib);
            failures++;
        } else {
            printf("test_soak: within the limit of %ld KiB\n", a.max_growth_kib);
        }
    }
    printf("test_soak: %u validation error(s), %u warning(s)\n", messages.errors,
           messages.warnings);
    failures += messages.errors + messages.warnings > 0;
    return failures ? 1 : 0;
}
