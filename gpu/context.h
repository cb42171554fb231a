/* SPDX-License-Identifier: MIT */
/* The Vulkan instance, the chosen physical device, the logical device with one queue that does
 * graphics, compute and transfer (and presents, when there is a surface), and the validation
 * messenger that counts what the Khronos layer reports. Owns those and nothing else; buffers,
 * pipelines and swapchains belong to the modules that use them. Vulkan 1.3 is required
 * (dynamic rendering, synchronization2). */
#ifndef PAGECURL_GPU_CONTEXT_H
#define PAGECURL_GPU_CONTEXT_H

#include "../shaders/shared.h"
#include "error.h"
#include "vk.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Frames the CPU may record and submit ahead of the GPU. Two: the CPU prepares frame N+1 while
 * the GPU runs frame N, and waits only for frame N-1, long finished in the steady state. */
#define GPU_FRAMES_IN_FLIGHT PC_FRAMES_IN_FLIGHT /* shaders/shared.h */

/* Counted by the debug messenger. Owned by the caller so that it outlives the context: the
 * layer reports leaks while the device and instance are destroyed. */
typedef struct GpuMessages {
    uint32_t warnings, errors;
} GpuMessages;

/* Faults injected for tests (prove the error paths); all zero in normal use. The library reads
 * no environment for them: the program reads PAGECURL_FAULT (app/fault.h) and hands them over
 * with gpu_context_faults (a host's test: pagecurl_context_faults, book/pagecurl_program.h).
 * submit_after N: the frame submissions after the first N fail with VK_ERROR_DEVICE_LOST;
 * allocate_after N: the memory allocations after the first N with VK_ERROR_OUT_OF_DEVICE_MEMORY;
 * draw_ms N: a book file's or a folder's page drawn takes N ms longer for each million texels, as a
 * heavy page would (read as a book is opened: pages/book_source.c);
 * first_wait_ms N: a book's first frame waits N ms at most for its pages sharp (book/book_stream.h;
 * 0: the stream's own limit); find_fail N: the first N pages a book's search reads fail
 * (book/search.h). */
typedef struct GpuFaultSpec {
    uint32_t submit_after, allocate_after, draw_ms, first_wait_ms, find_fail;
} GpuFaultSpec;

typedef struct GpuFaults {
    GpuFaultSpec spec;
    uint64_t submits, allocations; /* seen since the spec was given */
} GpuFaults;

/* What a context has done that stalls the host or the device, or costs the driver dearly: counted
 * so that a test can hold the steady state (turning pages, zooming, streaming) to none of any
 * (tests/test_record.c). Each call counts on the context it is made on. */
typedef struct GpuCounters {
    uint64_t queue_idles;  /* gpu_queue_idle: the whole queue waited for, the host's frames too */
    uint64_t submit_waits; /* a submission waited for at once (gpu_context_submit_once), or an
                            * upload that found every staging buffer of its ring still in use */
    uint64_t allocations;  /* vkAllocateMemory (gpu_context_allocate) */
    uint64_t pipelines;    /* compute and graphics pipelines created */
} GpuCounters;

typedef bool (*GpuSurfaceFn)(void *user, VkInstance instance, VkSurfaceKHR *out);

/* Runs fn(user, task) once for each task in [0, n) on up to `threads` threads (the caller's
 * included), returning when all are done: the layer above gives its own (mesh_parallel_tasks);
 * gpu/ starts no threads. */
typedef void (*GpuTaskFn)(void *user, size_t task);
typedef void (*GpuTasksFn)(size_t n, unsigned threads, GpuTaskFn fn, void *user);

typedef struct GpuContextDesc {
    bool validation;   /* Khronos validation + synchronization validation, messages counted */
    bool gpu_assisted; /* with validation: GPU-assisted validation instead of synchronization
                        * validation (the layer does not run both at once) */
    int device_index;  /* index in --list-devices order; < 0 picks discrete > integrated > CPU */
    const char *const *instance_extensions; /* extra ones, e.g. what SDL needs for a surface */
    uint32_t instance_extension_count;
    GpuSurfaceFn create_surface; /* optional: the chosen queue must then present to it */
    void *surface_user;
    GpuMessages *messages; /* optional: where validation messages are counted */
    /* ask the driver for each compute pipeline's compiler statistics (registers, shared
     * memory...) where it offers VK_KHR_pipeline_executable_properties: the benchmark's report */
    bool pipeline_statistics;
    /* optional: work the context may spread over the cores (its pipelines' compilation) */
    GpuTasksFn tasks;
    unsigned task_threads;
} GpuContextDesc;

typedef struct GpuContext {
    /* every Vulkan call on this context's objects goes through its own table (gpu/vk.h) */
    GpuVk vk;
    void *loader; /* the context's reference to the Vulkan loader, where it opened it */
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkSurfaceKHR surface; /* owned once create_surface gave it to us */
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceDriverProperties driver; /* driverName, driverInfo: the version users know */
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool pool; /* for one-off uploads and per-frame command buffers alike */
    /* gpu_context_submit_once's, made once and reused: allocating and freeing a command buffer
     * per upload costs the validation layer ~3 KiB it never gives back (tests/lsan.supp). */
    VkCommandBuffer once_cmd;
    VkFence once_fence;
    /* Workgroups per dispatch in x before kernels spill into y: the device's limit (65535 on
     * many, 2^31-1 on NVIDIA). Tests lower it to run the y spill on small extents. */
    uint32_t dispatch_max_x;
    bool debug_utils;
    bool pipeline_statistics; /* asked for and offered: kernels capture compiler statistics */
    /* geometry shaders enabled (offered, and the device ours or the host says it enabled them):
     * the low tier's shadow pass finds the leaf's outline seen from the light with one
     * (gpu/shadow.c) */
    bool geometry_shader;
    /* VkPhysicalDeviceFeatures.samplerAnisotropy is enabled on the device (the library's own
     * where the device offers it; a host's where the host says it enabled it): the high tier
     * reads the pages' print through an anisotropic sampler */
    bool sampler_anisotropy;
    GpuFaults *faults; /* owned; counts calls, so it lives behind a pointer in a const context */
    GpuCounters *counters; /* owned, behind a pointer for the same reason */
    /* Adopted from a host (gpu_context_adopt): the instance and device are the host's, never
     * destroyed here, and every object made on them uses the host's allocator and cache. */
    bool adopted;
    const VkAllocationCallbacks *allocator;
    VkPipelineCache pipeline_cache;
    GpuTasksFn tasks; /* GpuContextDesc's (null: everything on the caller's thread) */
    unsigned task_threads;
} GpuContext;

/* Loads the Vulkan loader (volk), makes the instance and the device. On failure *ctx is left
 * zeroed and err says why in one line. */
bool gpu_context_create(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err);
void gpu_context_destroy(GpuContext *ctx);

/* A host's device, for a context that draws with it (libpagecurl's embedding). */
typedef struct GpuHostDevice {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    const VkAllocationCallbacks *allocator; /* optional */
    VkPipelineCache pipeline_cache;         /* optional */
    bool debug_names;     /* the instance has VK_EXT_debug_utils enabled: objects are named */
    bool geometry_shader; /* the device has the geometryShader feature enabled */
    /* the host enabled VkPhysicalDeviceFeatures.samplerAnisotropy on the device: the renderer
     * may use it (without it, never: a feature the host did not enable is not the library's) */
    bool sampler_anisotropy;
    /* the chain the host created its device with (VkDeviceCreateInfo's pNext): the features the
     * library needs are checked in it, and geometryShader and samplerAnisotropy read from it;
     * NULL: trusted (the device's offer checked, the two flags above taken) */
    const VkPhysicalDeviceFeatures2 *enabled;
} GpuHostDevice;

/* Loads the functions of the host's instance and device through its vkGetInstanceProcAddr and
 * makes what the context owns on them (its command pool, the one-off buffer and fence); the
 * device must be Vulkan 1.3 with the features gpu_context_create requires, which are checked in
 * the host's enabled chain where it gives one (else as far as Vulkan lets them be: the device's
 * offer); samplerAnisotropy is used only where the host says it enabled it. Destroying the context
 * leaves the host's objects. */
bool gpu_context_adopt(const GpuHostDevice *host, GpuContext *ctx, GpuError *err);

/* One line per device the loader sees: index, name, type, API version. */
bool gpu_context_list_devices(FILE *out, GpuError *err);

/* The faults `spec` asks for on `ctx` from now on (its calls counted from here); NULL: none. */
void gpu_context_faults(const GpuContext *ctx, const GpuFaultSpec *spec);

/* Asked before a frame submission / a memory allocation: VK_SUCCESS to go on, or the failure
 * the context's faults ask for at this call, to report instead of making it. */
VkResult gpu_fault_submit(const GpuContext *ctx);
VkResult gpu_fault_allocate(const GpuContext *ctx);

/* The first memory type among `allowed` (a memoryTypeBits mask) with every flag of `want`; false
 * when there is none. */
bool gpu_context_memory_type(const GpuContext *ctx, uint32_t allowed, VkMemoryPropertyFlags want,
                             uint32_t *out);

/* Allocates `size` bytes of memory type `type` for the object named `label`, and names the
 * memory after it; running out of memory (or an injected fault: GpuFaultSpec) is said as such. The
 * caller owns *out. */
bool gpu_context_allocate(const GpuContext *ctx, VkDeviceSize size, uint32_t type,
                          const char *label, VkDeviceMemory *out, GpuError *err);

/* Blocks until the queue has finished everything submitted to it (a host's frames included): for
 * the rare change a host's frames in flight could see (libpagecurl's ink layers changing page). */
bool gpu_queue_idle(const GpuContext *ctx, GpuError *err);

/* `n` pipelines created on the context (gpu/compute.c, gpu/pipeline.c count theirs). */
void gpu_count_pipelines(const GpuContext *ctx, uint32_t n);

/* Debug name for any Vulkan object; a no-op without VK_EXT_debug_utils. */
void gpu_name(const GpuContext *ctx, VkObjectType type, uint64_t handle, const char *name);
#define GPU_NAME(ctx, type, handle, name) gpu_name((ctx), (type), (uint64_t)(handle), (name))

/* Command-buffer regions carry the stage names of docs/architecture.md. */
void gpu_label_begin(const GpuContext *ctx, VkCommandBuffer cmd, const char *name);
void gpu_label_end(const GpuContext *ctx, VkCommandBuffer cmd);

/* Records into the context's one-off command buffer, submits, waits. For set-up work, not for
 * frames. */
typedef void (*GpuRecordFn)(const GpuContext *ctx, void *user, VkCommandBuffer cmd);
bool gpu_context_submit_once(const GpuContext *ctx, GpuRecordFn record, void *user, GpuError *err);

#endif
