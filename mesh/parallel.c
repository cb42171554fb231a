/* SPDX-License-Identifier: MIT */
#include "parallel.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct Range {
    MeshRangeFn fn;
    void *ctx;
    size_t begin, end;
} Range;

static void *run_range(void *arg)
{
    const Range *r = arg;
    r->fn(r->ctx, r->begin, r->end);
    return NULL;
}

unsigned mesh_parallel_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        return 1;
    return cores > (long)MESH_PARALLEL_MAX_THREADS ? MESH_PARALLEL_MAX_THREADS : (unsigned)cores;
}

/* The threads asked for, within 1 .. MESH_PARALLEL_MAX_THREADS and at most one for each of
 * `most` shares of the work. */
static unsigned thread_count(unsigned threads, size_t most)
{
    unsigned count = threads < 1 ? 1 : threads;
    if (count > MESH_PARALLEL_MAX_THREADS)
        count = MESH_PARALLEL_MAX_THREADS;
    if ((size_t)count > most)
        count = most < 1 ? 1 : (unsigned)most;
    return count;
}

void mesh_parallel_for(size_t n, unsigned threads, MeshRangeFn fn, void *ctx)
{
    unsigned count = thread_count(threads, n / MESH_PARALLEL_MIN_ITEMS);
    Range ranges[MESH_PARALLEL_MAX_THREADS];
    pthread_t ids[MESH_PARALLEL_MAX_THREADS];
    int started[MESH_PARALLEL_MAX_THREADS] = {0};
    for (unsigned i = 0; i < count; i++)
        ranges[i] = (Range){fn, ctx, n * i / count, n * (i + 1) / count};
    /* range 0 is the caller's own */
    for (unsigned i = 1; i < count; i++)
        started[i] = pthread_create(&ids[i], NULL, run_range, &ranges[i]) == 0;
    run_range(&ranges[0]);
    for (unsigned i = 1; i < count; i++) {
        if (started[i])
            pthread_join(ids[i], NULL);
        else
            run_range(&ranges[i]);
    }
}

typedef struct Tasks {
    MeshTaskFn fn;
    void *ctx;
    size_t n;
    atomic_size_t next;
} Tasks;

static void *run_tasks(void *arg)
{
    Tasks *t = arg;
    for (size_t i; (i = atomic_fetch_add(&t->next, 1)) < t->n;)
        t->fn(t->ctx, i);
    return NULL;
}

void mesh_parallel_tasks(size_t n, unsigned threads, MeshTaskFn fn, void *ctx)
{
    Tasks tasks = {fn, ctx, n, 0};
    unsigned count = thread_count(threads, n);
    pthread_t ids[MESH_PARALLEL_MAX_THREADS];
    bool started[MESH_PARALLEL_MAX_THREADS] = {0};
    for (unsigned i = 1; i < count; i++)
        started[i] = pthread_create(&ids[i], NULL, run_tasks, &tasks) == 0;
    run_tasks(&tasks); /* the caller's share: every task not taken by the others */
    for (unsigned i = 1; i < count; i++)
        if (started[i])
            pthread_join(ids[i], NULL);
}
