/* SPDX-License-Identifier: MIT */
#include "error.h"

#include "headroom.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gpu_result_name(VkResult result)
{
    switch (result) {
#define NAME(r)                                                                                    \
    case r:                                                                                        \
        return #r;
        NAME(VK_SUCCESS)
        NAME(VK_NOT_READY)
        NAME(VK_TIMEOUT)
        NAME(VK_INCOMPLETE)
        NAME(VK_SUBOPTIMAL_KHR)
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_LAYER_NOT_PRESENT)
        NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        NAME(VK_ERROR_TOO_MANY_OBJECTS)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_SURFACE_LOST_KHR)
        NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        NAME(VK_ERROR_OUT_OF_DATE_KHR)
        NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
        NAME(VK_ERROR_UNKNOWN)
#undef NAME
    default:
        return "VkResult (other)";
    }
}

bool gpu_error_set(GpuError *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool gpu_error_vk(GpuError *err, VkResult result, const char *call, const char *file, int line)
{
    /* The user's line names the Vulkan function and its result, which a bug report needs; the
     * call's expression and the source line it is on are the developer's, on stderr with
     * PAGECURL_DEBUG only. */
    const char *debug = getenv(GPU_DEBUG_ENV);
    if (debug && *debug && strcmp(debug, "0") != 0)
        fprintf(stderr, "pagecurl: debug: %s failed: %s (%s:%d)\n", call, gpu_result_name(result),
                file, line);
    /* the function's name alone, without the table it was called through (ctx->vk.) */
    int named = (int)strcspn(call, "(");
    for (int i = named; i > 0; i--)
        if (call[i - 1] == '.' || call[i - 1] == '>') {
            call += i;
            named -= i;
            break;
        }
    const char *name = gpu_result_name(result);
    if (result == VK_ERROR_DEVICE_LOST)
        return gpu_error_set(err, "the GPU was lost (%.*s: %s)", named, call, name);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY && !gpu_headroom_short())
        return gpu_error_set(err, "out of GPU memory (%.*s: %s)", named, call, name);
    if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
        gpu_headroom_short()) {
        char cause[128];
        gpu_headroom_cause(cause, sizeof cause);
        return gpu_error_set(err, "%s (%.*s: %s)", cause, named, call, name);
    }
    return gpu_error_set(err, "the Vulkan driver failed (%.*s: %s)", named, call, name);
}
