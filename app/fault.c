/* SPDX-License-Identifier: MIT */
#include "fault.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool app_fault_parse(const char *spec, AppFaults *out, char *message, size_t size)
{
    *out = (AppFaults){0};
    if (!spec || !*spec)
        return true;
    /* KIND:N read whole (sscanf took "submit:3x" as 3 and wrapped 4294967296 to 0) */
    static const char *const kinds[] = {"submit", "allocate", "acquire", "draw"};
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : 0;
    uint64_t n = 0;
    const char *p = colon ? colon + 1 : spec;
    for (; colon && *p >= '0' && *p <= '9' && n <= UINT32_MAX; p++)
        n = n * 10 + (uint64_t)(*p - '0');
    bool number = colon && p > colon + 1 && !*p && n >= 1 && n <= UINT32_MAX;
    size_t kind = sizeof kinds / sizeof kinds[0];
    for (size_t k = 0; number && k < sizeof kinds / sizeof kinds[0]; k++)
        if (strlen(kinds[k]) == len && !strncmp(spec, kinds[k], len))
            kind = k;
    uint32_t *at[] = {&out->library.submit_after, &out->library.allocate_after, &out->acquire,
                      &out->library.draw_ms};
    if (kind < sizeof kinds / sizeof kinds[0]) {
        *at[kind] = (uint32_t)n;
        return true;
    }
    snprintf(message, size,
             APP_FAULT_ENV "=%.60s: want submit:N, allocate:N, acquire:N or draw:N, N a whole "
                           "number from 1 to %" PRIu32,
             spec, UINT32_MAX);
    return false;
}

bool app_fault_read(AppFaults *out, char *message, size_t size)
{
    return app_fault_parse(getenv(APP_FAULT_ENV), out, message, size);
}
