/* SPDX-License-Identifier: MIT */
#include "api_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void api_error_set(pagecurl_error *err, pagecurl_status status, const char *fmt, ...)
{
    if (!err)
        return;
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

void api_error_from_gpu(pagecurl_error *err, const GpuError *g)
{
    pagecurl_status status = g->usage ? PAGECURL_ERROR_USAGE : PAGECURL_ERROR_RUNTIME;
    if (strstr(g->message, "out of memory") || strstr(g->message, "OUT_OF_"))
        status = PAGECURL_ERROR_OUT_OF_MEMORY;
    else if (strstr(g->message, "DEVICE_LOST"))
        status = PAGECURL_ERROR_DEVICE_LOST;
    api_error_set(err, status, "%s", g->message);
}

bool api_error_sized(uint32_t size, size_t need, const char *what, pagecurl_error *err)
{
    if (size >= need)
        return true;
    api_error_set(err, PAGECURL_ERROR_USAGE,
                  "%s: .size is %u, under the %zu bytes of it this library reads: set it to "
                  "sizeof(%s)",
                  what, size, need, what);
    return false;
}
