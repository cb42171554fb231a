/* SPDX-License-Identifier: MIT */
#include "provider_call.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How often the waiting thread looks at `stop` (a plain flag another thread sets: it wakes no
 * condition), in nanoseconds. */
#define POLL_NS (20 * 1000 * 1000L)

struct PagesProviderCall {
    pthread_mutex_t lock;
    pthread_cond_t returned;
    PagesProviderRun run;
    void (*fn)(void);
    void *user;
    PagesProviderArgs args;
    void *buffer; /* the call's own: a call left behind writes nowhere else */
    size_t bytes;
    /* under `lock` */
    bool done;
    int64_t result;
    int refs; /* the calling thread's, and the caller's while it waits for it or keeps it left */
};

static void release(PagesProviderCall *c)
{
    pthread_mutex_lock(&c->lock);
    bool last = --c->refs == 0;
    pthread_mutex_unlock(&c->lock);
    if (!last)
        return;
    pthread_cond_destroy(&c->returned);
    pthread_mutex_destroy(&c->lock);
    free(c->buffer);
    free(c);
}

static void *call_main(void *arg)
{
    PagesProviderCall *c = arg;
    int64_t result = c->run(c->fn, c->user, &c->args, c->buffer, c->bytes);
    pthread_mutex_lock(&c->lock);
    c->done = true, c->result = result;
    pthread_cond_broadcast(&c->returned);
    pthread_mutex_unlock(&c->lock);
    release(c);
    return NULL;
}

/* Whether the call left behind is still running (else it is forgotten). */
static bool still_left(PagesProviderCall **left, int *stuck_page)
{
    if (!*left)
        return false;
    pthread_mutex_lock(&(*left)->lock);
    bool done = (*left)->done;
    *stuck_page = (*left)->args.page;
    pthread_mutex_unlock(&(*left)->lock);
    if (!done)
        return true;
    pages_provider_call_forget(left);
    return false;
}

/* A detached thread running the call, which takes no signal (a host's, or the program's
 * SIGINT, is its own threads' to see); false when none can start. */
static bool start(PagesProviderCall *c)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t thread;
    bool started = pthread_create(&thread, &attr, call_main, c) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return started;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

PagesProviderResult pages_provider_call(PagesProviderCall **left, PagesProviderRun run,
                                        void (*fn)(void), void *user, const PagesProviderArgs *args,
                                        void *buffer, size_t bytes, volatile const int *stop,
                                        double seconds, int64_t *result, int *stuck_page)
{
    if (still_left(left, stuck_page))
        return PAGES_PROVIDER_STUCK;
    PagesProviderCall *c = calloc(1, sizeof *c);
    if (!c)
        return PAGES_PROVIDER_FAILED;
    *c = (PagesProviderCall){.run = run,
                             .fn = fn,
                             .user = user,
                             .args = *args,
                             .buffer = malloc(bytes ? bytes : 1),
                             .bytes = bytes,
                             .refs = 2};
    if (!c->buffer || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->buffer);
        free(c);
        return PAGES_PROVIDER_FAILED;
    }
    pthread_cond_init(&c->returned, NULL);
    memcpy(c->buffer, buffer, bytes);
    if (!start(c)) {
        c->refs = 1;
        release(c);
        return PAGES_PROVIDER_FAILED;
    }
    double until = seconds > 0.0 ? seconds_now() + seconds : 0.0;
    pthread_mutex_lock(&c->lock);
    while (!c->done && !(stop && *stop) && !(until > 0.0 && seconds_now() >= until)) {
        struct timespec wake;
        clock_gettime(CLOCK_REALTIME, &wake);
        wake.tv_nsec += POLL_NS;
        if (wake.tv_nsec >= 1000000000L)
            wake.tv_sec++, wake.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&c->returned, &c->lock, &wake);
    }
    bool done = c->done;
    if (done) {
        memcpy(buffer, c->buffer, bytes);
        *result = c->result;
    }
    pthread_mutex_unlock(&c->lock);
    if (done) {
        release(c);
        return PAGES_PROVIDER_DRAWN;
    }
    *left = c; /* the caller's reference, kept to see when it returns */
    *stuck_page = args->page;
    return PAGES_PROVIDER_LEFT;
}

static int64_t run_draw(void (*fn)(void), void *user, const PagesProviderArgs *args, void *buffer,
                        size_t bytes)
{
    (void)bytes;
    return ((PagesProviderDraw)fn)(user, args->page, args->width, args->height, buffer) ? 1 : 0;
}

PagesProviderResult pages_provider_call_draw(PagesProviderCall **left, PagesProviderDraw draw,
                                             void *user, int page, uint32_t width, uint32_t height,
                                             uint8_t *rgba, volatile const int *stop,
                                             int *stuck_page)
{
    PagesProviderArgs args = {.page = page, .width = width, .height = height};
    int64_t drawn = 0;
    PagesProviderResult r =
        pages_provider_call(left, run_draw, (void (*)(void))draw, user, &args, rgba,
                            (size_t)width * height * 4, stop, 0.0, &drawn, stuck_page);
    return r == PAGES_PROVIDER_DRAWN && !drawn ? PAGES_PROVIDER_FAILED : r;
}

void pages_provider_call_forget(PagesProviderCall **left)
{
    if (*left)
        release(*left);
    *left = NULL;
}
