/* SPDX-License-Identifier: MIT */
/* Preloaded into the soak_fence_race test: every pthread_cond_broadcast made by one of llvmpipe's
 * rasteriser threads (named "llvmpipe-N") waits 10 ms first. The last rasteriser thread to finish a
 * scene broadcasts the scene's fence with the count already complete and the fence's mutex held:
 * the window in which lavapipe's queue thread can free that fence (test_soak.c says how). 10 ms
 * turn a race the full soak met about once in half a million frames into one a few hundred frames
 * meet. Without rasteriser threads (test_soak sets LP_NUM_THREADS=0) it changes nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

int pthread_cond_broadcast(pthread_cond_t *cond)
{
    int (*next)(pthread_cond_t *) =
        (int (*)(pthread_cond_t *))dlsym(RTLD_NEXT, "pthread_cond_broadcast");
    char name[16];
    if (pthread_getname_np(pthread_self(), name, sizeof name) == 0 &&
        strncmp(name, "llvmpipe-", 9) == 0)
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    return next(cond);
}
