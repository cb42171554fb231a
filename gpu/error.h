/* SPDX-License-Identifier: MIT */
/* How gpu/ reports what the environment can cause (no driver, no device, out of memory, a lost
 * device): a returned false plus one line in a GpuError. The caller prints it and picks the exit
 * status. Programmer mistakes are asserts instead. */
#ifndef PAGECURL_GPU_ERROR_H
#define PAGECURL_GPU_ERROR_H

#include <vulkan/vulkan.h>

#include <stdbool.h>

typedef struct GpuError {
    char message[320];
    bool usage; /* the cause is a bad request (e.g. a device index out of range), not the system */
} GpuError;

const char *gpu_result_name(VkResult result);
/* Formats the message, printf style. Always returns false, for `return gpu_error_set(...)`. */
bool gpu_error_set(GpuError *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set (to anything but 0), a failed Vulkan call is also said on stderr with its expression and
 * the source line it was made on ("pagecurl: debug: ..."), for a developer. */
#define GPU_DEBUG_ENV "PAGECURL_DEBUG"

/* A Vulkan call's failure as one line in the user's terms: what happened (the GPU lost, out of
 * memory: also where the process has no address space left, when the driver reports anything,
 * VK_ERROR_UNKNOWN say; else the driver failed), then the Vulkan function and its result, e.g.
 * "out of GPU memory (vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY)". The call's expression
 * and its source line go to stderr with GPU_DEBUG_ENV only. Always returns false. */
bool gpu_error_vk(GpuError *err, VkResult result, const char *call, const char *file, int line);

/* For Vulkan calls that can fail at run time (allocation, submission, device loss). */
#define GPU_TRY(err, call)                                                                         \
    do {                                                                                           \
        VkResult gpu_try_result_ = (call);                                                         \
        if (gpu_try_result_ < 0)                                                                   \
            return gpu_error_vk((err), gpu_try_result_, #call, __FILE__, __LINE__);                \
    } while (0)

#endif
