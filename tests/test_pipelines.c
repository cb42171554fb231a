/* SPDX-License-Identifier: MIT */
/* The renderer's pipelines compiled together (gpu_pipelines_create): on the context's task
 * runner, the jobs spread over the threads it was given, every pipeline made and counted once,
 * as many as made one after another by a context without a runner (a host's device). Offscreen
 * on lavapipe with the validation layer (any message fails).
 * usage: test_pipelines [--no-validation] */
#include "../gpu/pipeline.h"
#include "../gpu/renderer.h"
#include "../mesh/parallel.h"
#include "gpu_check.h"

#include <pthread.h>
#include <string.h>

#define THREADS 2u

/* The threads that ran a runner's tasks. */
typedef struct Seen {
    pthread_mutex_t lock;
    pthread_t ids[THREADS + 1];
    unsigned threads;
    size_t tasks;
} Seen;

/* One task of a runner watched: its thread noted, then the task. */
typedef struct Watched {
    GpuTaskFn fn;
    void *user;
    Seen *seen;
} Watched;

static void watched_task(void *user, size_t task)
{
    Watched *w = user;
    pthread_mutex_lock(&w->seen->lock);
    bool known = false;
    for (unsigned i = 0; i < w->seen->threads; i++)
        known |= pthread_equal(w->seen->ids[i], pthread_self()) != 0;
    if (!known && w->seen->threads < THREADS + 1)
        w->seen->ids[w->seen->threads++] = pthread_self();
    w->seen->tasks++;
    pthread_mutex_unlock(&w->seen->lock);
    w->fn(w->user, task);
}

/* What the runner saw: a GpuTasksFn has no state of its own. */
static Seen watch = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void watched_runner(size_t n, unsigned threads, GpuTaskFn fn, void *user)
{
    Watched w = {fn, user, &watch};
    mesh_parallel_tasks(n, threads, watched_task, &w);
}

static bool renderer_made(const GpuContext *ctx, GpuRenderer *out, GpuError *err)
{
    static uint8_t pixels[2 * 16 * 16 * 4];
    memset(pixels, 200, sizeof pixels);
    GpuRendererDesc desc = {
        .color_format = VK_FORMAT_R8G8B8A8_SRGB,
        .content = {.width = 16, .height = 16, .layers = 2, .pixels = pixels, .label = "content"},
        .quality = GPU_QUALITY_LOW,
        .show_through = GPU_SHOW_THROUGH_PAPER,
    };
    return gpu_renderer_create(ctx, &desc, out, err);
}

/* Every page pipeline of the low tier made. */
static bool all_made(const GpuRenderer *r)
{
    const VkPipeline made[] = {r->pipeline,
                               r->fade_pipeline,
                               r->edge_pipeline,
                               r->inside_pipeline,
                               r->lit_pipeline,
                               r->lit_inside_pipeline,
                               r->bare_pipeline,
                               r->bare_inside_pipeline,
                               r->board_pipeline,
                               r->board_inside_pipeline,
                               r->leaf_pipeline,
                               r->leaf_inside_pipeline,
                               r->leaf_bare_pipeline,
                               r->leaf_bare_inside_pipeline,
                               r->detail_pipeline,
                               r->detail_inside_pipeline,
                               r->leaf_plain_pipeline,
                               r->leaf_bare_plain_pipeline,
                               r->shadow_only_pipeline};
    bool all = true;
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        all &= made[i] != VK_NULL_HANDLE;
    return all;
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    GpuMessages messages = {0};
    GpuContext ctx;
    if (!gpu_check_context(argc, argv, "test_pipelines", &messages, &ctx))
        return 1;
    GpuError err = {0};
    /* in turn: no runner, as on a host's device */
    GpuRenderer one = {0};
    uint64_t before = ctx.counters->pipelines;
    bool ok = renderer_made(&ctx, &one, &err);
    CHECK(&s, ok && all_made(&one), "the pipelines made in turn: %s", err.message);
    uint64_t in_turn = ctx.counters->pipelines - before;
    gpu_renderer_destroy(&ctx, &one);
    /* on the runner, over THREADS threads */
    ctx.tasks = watched_runner;
    ctx.task_threads = THREADS;
    GpuRenderer many = {0};
    before = ctx.counters->pipelines;
    ok = renderer_made(&ctx, &many, &err);
    CHECK(&s, ok && all_made(&many), "the pipelines made together: %s", err.message);
    uint64_t together = ctx.counters->pipelines - before;
    gpu_renderer_destroy(&ctx, &many);
    printf("pipelines made in turn %llu, together %llu (%zu of them jobs, on %u threads)\n",
           (unsigned long long)in_turn, (unsigned long long)together, watch.tasks, watch.threads);
    CHECK(&s, in_turn >= 19 && together == in_turn,
          "pipelines counted: %llu made in turn, %llu together (the same, at least 19 expected)",
          (unsigned long long)in_turn, (unsigned long long)together);
    CHECK(&s, watch.tasks == 19 && watch.threads == THREADS,
          "the page pipelines' 19 jobs ran as %zu tasks on %u threads (%u expected)", watch.tasks,
          watch.threads, THREADS);
    gpu_check_finish(&s, &ctx, &messages);
    return check_finish(&s, "test_pipelines");
}
