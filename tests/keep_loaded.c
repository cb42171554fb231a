/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD shim for the sanitizer runs: dlclose does nothing, so the Vulkan driver and layers
 * the loader opened stay mapped until the process ends. LeakSanitizer reports after
 * vkDestroyInstance has dlclosed them; without this their leaks' stacks have no module names and
 * can be neither read nor suppressed precisely (tests/lsan.supp), which would force leak checking
 * off altogether. */
#define _GNU_SOURCE
#include <dlfcn.h>

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
