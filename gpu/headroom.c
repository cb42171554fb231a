/* SPDX-License-Identifier: MIT */
/* MAP_ANONYMOUS, MAP_NORESERVE */
#define _DEFAULT_SOURCE

#include "headroom.h"

#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>

bool gpu_headroom_short(void)
{
    /* PROT_NONE and MAP_NORESERVE: address space only, never memory, and counted against
     * RLIMIT_AS exactly as the driver's own mappings are */
    void *p = mmap(NULL, GPU_HEADROOM_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return true;
    munmap(p, GPU_HEADROOM_BYTES);
    return false;
}

void gpu_headroom_cause(char *out, size_t size)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        snprintf(out, size, "out of memory (the address-space limit, ulimit -v, is %llu MiB)",
                 (unsigned long long)(limit.rlim_cur >> 20));
    else
        snprintf(out, size, "out of memory");
}
