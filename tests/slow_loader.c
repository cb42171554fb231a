/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for the start-up signal test: a Vulkan loader that takes a minute to open (a
 * wedged driver, a slow network home folder), so that the program is surely still starting when
 * the test signals it. Every other dlopen goes through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

void *dlopen(const char *file, int mode)
{
    const char *name = file ? strrchr(file, '/') : NULL;
    name = name ? name + 1 : file;
    if (name && strncmp(name, "libvulkan.so", strlen("libvulkan.so")) == 0)
        /* a call that a signal does not cut short (as open() on a FIFO, restarted by SA_RESTART) */
        for (time_t end = time(NULL) + 60; time(NULL) < end;)
            nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
    void *(*next)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return next ? next(file, mode) : NULL;
}
