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

struct AppProviderCall {
    pthread_mutex_t lock;
    pthread_cond_t returned;
    AppProviderDraw draw;
    void *user;
    int page; /* 1-based */
    uint32_t width, height;
    uint8_t *rgba; /* the call's own pixels: a call left behind writes nowhere else */
    /* under `lock` */
    bool done, ok;
    int refs; /* the calling thread's, and the caller's while it waits for it or keeps it left */
};

static void release(AppProviderCall *c)
{
    pthread_mutex_lock(&c->lock);
    bool last = --c->refs == 0;
    pthread_mutex_unlock(&c->lock);
    if (!last)
        return;
    pthread_cond_destroy(&c->returned);
    pthread_mutex_destroy(&c->lock);
    free(c->rgba);
    free(c);
}

static void *call_main(void *arg)
{
    AppProviderCall *c = arg;
    bool ok = c->draw(c->user, c->page, c->width, c->height, c->rgba);
    pthread_mutex_lock(&c->lock);
    c->done = true, c->ok = ok;
    pthread_cond_broadcast(&c->returned);
    pthread_mutex_unlock(&c->lock);
    release(c);
    return NULL;
}

/* Whether the call left behind is still running (else it is forgotten). */
static bool still_left(AppProviderCall **left, int *stuck_page)
{
    if (!*left)
        return false;
    pthread_mutex_lock(&(*left)->lock);
    bool done = (*left)->done;
    *stuck_page = (*left)->page;
    pthread_mutex_unlock(&(*left)->lock);
    if (!done)
        return true;
    app_provider_call_forget(left);
    return false;
}

/* A detached thread running the call, which takes no signal (a host's, or the program's
 * SIGINT, is its own threads' to see); false when none can start. */
static bool start(AppProviderCall *c)
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

AppProviderResult app_provider_call_draw(AppProviderCall **left, AppProviderDraw draw, void *user,
                                         int page, uint32_t width, uint32_t height, uint8_t *rgba,
                                         volatile const int *stop, int *stuck_page)
{
    if (still_left(left, stuck_page))
        return APP_PROVIDER_STUCK;
    size_t bytes = (size_t)width * height * 4;
    AppProviderCall *c = calloc(1, sizeof *c);
    if (!c)
        return APP_PROVIDER_FAILED;
    *c = (AppProviderCall){.draw = draw,
                           .user = user,
                           .page = page,
                           .width = width,
                           .height = height,
                           .rgba = malloc(bytes ? bytes : 1),
                           .refs = 2};
    if (!c->rgba || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->rgba);
        free(c);
        return APP_PROVIDER_FAILED;
    }
    pthread_cond_init(&c->returned, NULL);
    memcpy(c->rgba, rgba, bytes);
    if (!start(c)) {
        c->refs = 1;
        release(c);
        return APP_PROVIDER_FAILED;
    }
    pthread_mutex_lock(&c->lock);
    while (!c->done && !*stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += POLL_NS;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&c->returned, &c->lock, &until);
    }
    bool done = c->done, ok = c->ok;
    if (done)
        memcpy(rgba, c->rgba, bytes);
    pthread_mutex_unlock(&c->lock);
    if (done) {
        release(c);
        return ok ? APP_PROVIDER_DRAWN : APP_PROVIDER_FAILED;
    }
    *left = c; /* the caller's reference, kept to see when it returns */
    *stuck_page = page;
    return APP_PROVIDER_LEFT;
}

void app_provider_call_forget(AppProviderCall **left)
{
    if (*left)
        release(*left);
    *left = NULL;
}
