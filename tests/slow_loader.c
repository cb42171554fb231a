/* LD_PRELOAD shim for the start-up signal test: a Vulkan loader that takes a minute to open (a
 * wedged driver, a slow network home folder), so that the program is surely still starting when
 * the test signals it. Every other dlopen goes through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

void *dlopen(const char *file, int mode)
{
    const char *name = file ? strrchr(file, '/') : NULL;
    name = name ? name + 1 : file;
    if (name && strncmp(name, "libvulkan.so", strlen("libvulkan.so")) == 0)
        sleep(60);
    void *(*next)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return next ? next(file, mode) : NULL;
}
