/* SPDX-License-Identifier: MIT */
/* The program's pthread_mutex_destroy, in front of the C library's for every library in the
 * process (the executable exports it: app/CMakeLists.txt): a mutex of lavapipe's is taken and let
 * go before it is destroyed, so that no thread is still inside it.
 *
 * Why: llvmpipe (Mesa 22.3, Debian 12's lavapipe) can free a scene's fence while one of its
 * rasteriser threads is still signalling it. The last thread to finish a scene counts the fence
 * done and broadcasts on its condition variable with its mutex held; lavapipe's queue thread (or
 * a wait on the application's thread) reads that count without the mutex, drops the last
 * reference and frees the fence, destroying its mutex and condition variable first; the
 * broadcast and the unlock then write into freed memory: a hang or a corrupt heap, about once in
 * a million frames on a busy machine (docs/testing.md, Soak). Every path that drops a reference
 * does it (a scene reused, a submission's flush, a VkFence waited), and a scene needs no command
 * of ours (a blit, a resolve, a clear flushed alone), so no order of the application's commands
 * closes it; waiting for the mutex here does: the signaller holds it until it is done with the
 * fence. Only the driver's own mutexes wait (the caller's code in lavapipe's library): any other
 * library's destroy goes straight to the C library's, as before. A destroy by a thread that holds
 * the mutex itself (undefined behaviour) would wait for ever on a plain mutex: the wait is
 * bounded. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

/* Whether the code at `at` is lavapipe's (Mesa's libvulkan_lvp.so). */
static int lavapipe_code(const void *at)
{
    Dl_info info;
    return dladdr(at, &info) && info.dli_fname && strstr(info.dli_fname, "libvulkan_lvp");
}

int pthread_mutex_destroy(pthread_mutex_t *mutex)
{
    int (*destroy)(pthread_mutex_t *) =
        (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_destroy");
    if (lavapipe_code(__builtin_return_address(0))) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        if (pthread_mutex_timedlock(mutex, &until) == 0)
            pthread_mutex_unlock(mutex);
    }
    return destroy ? destroy(mutex) : 0;
}
