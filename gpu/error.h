/* How gpu/ reports what the environment can cause (no driver, no device, out of memory, a lost
 * device): a returned false plus one line in a GpuError. The caller prints it and picks the exit
 * status. Programmer mistakes are asserts instead. */
#ifndef PAGECURL_GPU_ERROR_H
#define PAGECURL_GPU_ERROR_H

#include <volk.h>

#include <stdbool.h>

typedef struct GpuError {
    char message[320];
    bool usage; /* the cause is a bad request (e.g. a device index out of range), not the system */
} GpuError;

const char *gpu_result_name(VkResult result);
/* Formats the message, printf style. Always returns false, for `return gpu_error_set(...)`. */
bool gpu_error_set(GpuError *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* For Vulkan calls that can fail at run time (allocation, submission, device loss). */
#define GPU_TRY(err, call)                                                                         \
    do {                                                                                           \
        VkResult gpu_try_result_ = (call);                                                         \
        if (gpu_try_result_ < 0)                                                                   \
            return gpu_error_set((err), "%s failed: %s (%s:%d)", #call,                            \
                                 gpu_result_name(gpu_try_result_), __FILE__, __LINE__);            \
    } while (0)

#endif
