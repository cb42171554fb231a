/* SPDX-License-Identifier: MIT */
/* libpagecurl's context functions (include/pagecurl/pagecurl.h): a device made, or the host's
 * adopted; what it can draw; its Vulkan handles; the faults the tests inject. */
#include "facade.h"
#include "pagecurl_internal.h"
#include "pagecurl_program.h"

#include "../mesh/parallel.h"
#include "../shaders/shared.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GpuCounters pagecurl_context_counters(const pagecurl_context *ctx)
{
    return ctx && ctx->gpu.counters ? *ctx->gpu.counters : (GpuCounters){0};
}

void pagecurl_context_faults(pagecurl_context *ctx, const pagecurl_faults *faults)
{
    if (!ctx)
        return;
    GpuFaultSpec spec = {0};
    if (faults)
        spec = (GpuFaultSpec){.submit_after = faults->submit_after,
                              .allocate_after = faults->allocate_after,
                              .draw_ms = faults->draw_ms,
                              .first_wait_ms = faults->first_wait_ms,
                              .find_fail = faults->find_fail};
    gpu_context_faults(&ctx->gpu, &spec);
}

pagecurl_context *pagecurl_context_create(const pagecurl_context_desc *desc, pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    pagecurl_context_desc d = {0};
    if (desc) {
        /* a host built before gpu_assisted was added passes the size it had then */
        if (!api_error_sized(desc->size, offsetof(pagecurl_context_desc, gpu_assisted),
                             "pagecurl_context_desc", err))
            return NULL;
        memcpy(&d, desc, desc->size < sizeof d ? desc->size : sizeof d);
    }
    bool host = d.instance || d.physical_device || d.device || d.queue;
    pagecurl_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        api_error_set(err, PAGECURL_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    GpuError gerr = {0};
    bool ok;
    if (host)
        ok = gpu_context_adopt(&(GpuHostDevice){.instance = d.instance,
                                                .physical = d.physical_device,
                                                .device = d.device,
                                                .queue_family = d.queue_family,
                                                .queue = d.queue,
                                                .get_instance_proc_addr = d.get_instance_proc_addr,
                                                .allocator = d.allocator,
                                                .pipeline_cache = d.pipeline_cache,
                                                .debug_names = d.debug_names,
                                                .geometry_shader = d.geometry_shader,
                                                .sampler_anisotropy = d.sampler_anisotropy,
                                                .enabled = d.enabled_features},
                               &ctx->gpu, &gerr);
    else
        ok = gpu_context_create(
            &(GpuContextDesc){.validation = d.validation,
                              .gpu_assisted = d.validation && d.gpu_assisted,
                              .device_index = d.prefer_index ? d.device_index : -1,
                              .messages = &ctx->messages,
                              .instance_extensions = d.instance_extensions,
                              .instance_extension_count = d.instance_extension_count,
                              .create_surface = d.create_surface,
                              .surface_user = d.surface_user,
                              .tasks = mesh_parallel_tasks,
                              .task_threads = mesh_parallel_threads()},
            &ctx->gpu, &gerr);
    if (!ok) {
        api_error_from_gpu(err, &gerr);
        free(ctx);
        return NULL;
    }
    return ctx;
}

void pagecurl_context_destroy(pagecurl_context *ctx)
{
    if (!ctx)
        return;
    gpu_context_destroy(&ctx->gpu);
    free(ctx);
}

void pagecurl_context_limits(const pagecurl_context *ctx, pagecurl_limits *out)
{
    if (!ctx || !out)
        return;
    uint32_t size = out->size;
    pagecurl_limits l = {.size = size};
    const VkPhysicalDeviceProperties *p = &ctx->gpu.props;
    l.cpu_device = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    l.auto_tier = l.cpu_device ? PAGECURL_QUALITY_LOW : PAGECURL_QUALITY_HIGH;
    VkSampleCountFlags both =
        p->limits.framebufferColorSampleCounts & p->limits.framebufferDepthSampleCounts;
    l.max_samples = both & VK_SAMPLE_COUNT_4_BIT ? 4 : 1;
    /* the leaf's SoA planes are storage buffers: the largest grid whose biggest (the vertices,
     * PC_VERTEX_FLOATS floats each) fits the device's storage range */
    uint64_t vertices = p->limits.maxStorageBufferRange / (PC_VERTEX_FLOATS * sizeof(float));
    l.max_grid_vertices = vertices > UINT32_MAX ? UINT32_MAX : (uint32_t)vertices;
    l.max_target_side = p->limits.maxImageDimension2D;
    snprintf(l.device_name, sizeof l.device_name, "%s", p->deviceName);
    memcpy(out, &l, size < sizeof l ? size : sizeof l);
}

void pagecurl_context_vulkan(const pagecurl_context *ctx, pagecurl_vulkan *out)
{
    if (!ctx || !out)
        return;
    *out = (pagecurl_vulkan){.instance = ctx->gpu.instance,
                             .physical_device = ctx->gpu.physical,
                             .device = ctx->gpu.device,
                             .queue_family = ctx->gpu.queue_family,
                             .queue = ctx->gpu.queue,
                             .get_instance_proc_addr = ctx->gpu.vk.vkGetInstanceProcAddr};
}

VkSurfaceKHR pagecurl_context_surface(const pagecurl_context *ctx)
{
    if (!ctx)
        return VK_NULL_HANDLE;
    return ctx->gpu.surface;
}

uint32_t pagecurl_context_messages(const pagecurl_context *ctx)
{
    if (!ctx)
        return 0;
    return ctx->messages.warnings + ctx->messages.errors;
}
