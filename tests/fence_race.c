/* SPDX-License-Identifier: MIT */
/* Preloaded into the soak_fence_race test and tools/window-race.sh: every third
 * pthread_cond_broadcast made by one of llvmpipe's rasteriser threads (named "llvmpipe-N") waits
 * 5 ms first. The last rasteriser thread to finish a scene broadcasts the scene's fence with the
 * count already complete and the fence's mutex held: the window in which lavapipe's queue thread
 * can free that fence (app/mutex_guard.c says how, and how the program closes it). A wait in
 * every broadcast slows the rasterisers so much that the queue thread, always ahead, waits for
 * each scene under the mutex and never meets the race; a wait in one in three leaves them fast
 * enough to be caught up with: 28 and 39 fences destroyed under a broadcast in 150 frames of key
 * turns and drags at 320x200 (2026-12-07), where waiting in every one met none.
 *
 * It also catches the race itself rather than its rare consequence (a hang or a corrupt heap): a
 * condition variable destroyed (lp_fence_destroy's cnd_destroy, just before the free) while a
 * rasteriser thread is inside its broadcast is counted, and a process that counted any exits 70
 * with one line saying how many. Without rasteriser threads it changes nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the condition variables under a widened broadcast now: a rasteriser thread a slot */
#define SLOTS 64
static _Atomic(pthread_cond_t *) broadcasting[SLOTS];
static atomic_uint destroyed_under, broadcasts;

int pthread_cond_broadcast(pthread_cond_t *cond)
{
    int (*next)(pthread_cond_t *) =
        (int (*)(pthread_cond_t *))dlsym(RTLD_NEXT, "pthread_cond_broadcast");
    char name[16];
    if (pthread_getname_np(pthread_self(), name, sizeof name) != 0 ||
        strncmp(name, "llvmpipe-", 9) != 0)
        return next(cond);
    int slot = -1;
    for (int i = 0; i < SLOTS && slot < 0; i++) {
        pthread_cond_t *none = NULL;
        if (atomic_compare_exchange_strong(&broadcasting[i], &none, cond))
            slot = i;
    }
    if (atomic_fetch_add(&broadcasts, 1) % 3 == 0)
        nanosleep(&(struct timespec){.tv_nsec = 5 * 1000 * 1000}, NULL);
    int r = next(cond);
    if (slot >= 0)
        atomic_store(&broadcasting[slot], NULL);
    return r;
}

int pthread_cond_destroy(pthread_cond_t *cond)
{
    int (*next)(pthread_cond_t *) =
        (int (*)(pthread_cond_t *))dlsym(RTLD_NEXT, "pthread_cond_destroy");
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&broadcasting[i]) == cond)
            atomic_fetch_add(&destroyed_under, 1);
    return next(cond);
}

__attribute__((destructor)) static void report(void)
{
    unsigned n = atomic_load(&destroyed_under);
    if (n == 0)
        return;
    char line[160];
    int len = snprintf(line, sizeof line,
                       "fence_race: %u condition variables destroyed while a rasteriser thread "
                       "broadcast on them (of %u broadcasts)\n",
                       n, atomic_load(&broadcasts));
    if (len > 0 && write(2, line, (size_t)len) < 0)
        _exit(71);
    _exit(70);
}
