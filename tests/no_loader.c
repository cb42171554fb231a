/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for the "no Vulkan loader" test: a machine without libvulkan.so.1. dlopen of
 * the loader (what volkInitialize does) fails as it would there; every other dlopen goes through.
 * Deleting or hiding the system's libvulkan is not an option for a test, and the library search
 * path cannot hide a library that sits in the default directories. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

void *dlopen(const char *file, int mode)
{
    const char *name = file ? strrchr(file, '/') : NULL;
    name = name ? name + 1 : file;
    if (name && strncmp(name, "libvulkan.so", strlen("libvulkan.so")) == 0)
        return NULL;
    void *(*next)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    return next ? next(file, mode) : NULL;
}
