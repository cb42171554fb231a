/* SPDX-License-Identifier: MIT */
#include "context.h"

#include "headroom.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"
#define MAX_DEVICES      16
#define MAX_EXTENSIONS   16

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    GpuMessages *messages = user;
    bool is_error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    bool is_warning = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    /* The loader's own general warnings (e.g. drivers skipped by VK_LOADER_DRIVERS_SELECT) are
     * about the machine, not about us; every validation finding counts. */
    bool counted =
        is_error || (is_warning && (type & ~VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT));
    if (counted) {
        if (messages && is_error)
            messages->errors++;
        else if (messages)
            messages->warnings++;
        fprintf(stderr, "pagecurl: validation %s: %s\n", is_error ? "error" : "warning",
                data->pMessage);
    }
    return VK_FALSE;
}

/* What the loader or a device offers, looked up by name. */
typedef enum Offered {
    OFFERED_LAYER,              /* an instance layer */
    OFFERED_INSTANCE_EXTENSION, /* an instance extension */
    OFFERED_DEVICE_EXTENSION,   /* an extension of `physical` */
} Offered;

/* Each record, VkLayerProperties or VkExtensionProperties, starts with its name. */
_Static_assert(offsetof(VkLayerProperties, layerName) == 0, "a layer record starts with its name");
_Static_assert(offsetof(VkExtensionProperties, extensionName) == 0,
               "an extension record starts with its name");

/* Fills `records` (NULL: only counts) with up to `count` records; returns how many there are. */
static uint32_t enumerate(const GpuContext *ctx, Offered kind, VkPhysicalDevice physical,
                          uint32_t count, void *records)
{
    switch (kind) {
    case OFFERED_LAYER:
        ctx->vk.vkEnumerateInstanceLayerProperties(&count, records);
        break;
    case OFFERED_INSTANCE_EXTENSION:
        ctx->vk.vkEnumerateInstanceExtensionProperties(NULL, &count, records);
        break;
    case OFFERED_DEVICE_EXTENSION:
        ctx->vk.vkEnumerateDeviceExtensionProperties(physical, NULL, &count, records);
        break;
    }
    return count;
}

static bool offers(const GpuContext *ctx, Offered kind, VkPhysicalDevice physical, const char *name)
{
    size_t size = kind == OFFERED_LAYER ? sizeof(VkLayerProperties) : sizeof(VkExtensionProperties);
    uint32_t count = enumerate(ctx, kind, physical, 0, NULL);
    char *records = calloc(count ? count : 1, size);
    if (!records)
        return false;
    count = enumerate(ctx, kind, physical, count, records);
    bool found = false;
    for (uint32_t i = 0; i < count && !found; i++)
        found = strcmp(records + i * size, name) == 0;
    free(records);
    return found;
}

/* The driver failed to start `what` for want of memory: said so, instead of what it reported. */
static bool out_of_memory(GpuError *err, const char *what)
{
    char cause[128];
    gpu_headroom_cause(cause, sizeof cause);
    return gpu_error_set(err, "%s: %s could not be started", cause, what);
}

/* The context's own reference to the loader and its global functions (the table's first part). */
static bool load_loader(GpuContext *ctx, GpuError *err)
{
    if (!gpu_vk_open_loader(&ctx->loader, &ctx->vk.vkGetInstanceProcAddr))
        return gpu_error_set(err, "no Vulkan loader: libvulkan.so.1 could not be opened "
                                  "(Debian: apt-get install libvulkan1)");
    const char *missing;
    uint32_t version = 0;
    if (!gpu_vk_load_loader(&ctx->vk, &missing) ||
        ctx->vk.vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_3)
        return gpu_error_set(err, "the Vulkan loader is older than 1.3");
    return true;
}

/* The table's instance part; false where the instance lacks one of Vulkan 1.3's functions. */
static bool load_instance(GpuContext *ctx, GpuError *err)
{
    const char *missing;
    if (!gpu_vk_load_instance(&ctx->vk, ctx->instance, &missing))
        return gpu_error_set(err, "the Vulkan instance has no %s", missing);
    /* names and labels only where the instance gave their functions */
    ctx->debug_utils = ctx->debug_utils && ctx->vk.vkSetDebugUtilsObjectNameEXT &&
                       ctx->vk.vkCmdBeginDebugUtilsLabelEXT && ctx->vk.vkCmdEndDebugUtilsLabelEXT;
    return true;
}

/* The table's device part; false where the device lacks one of Vulkan 1.3's functions. */
static bool load_device(GpuContext *ctx, GpuError *err)
{
    const char *missing;
    if (!gpu_vk_load_device(&ctx->vk, ctx->device, &missing))
        return gpu_error_set(err, "%s has no %s", ctx->props.deviceName, missing);
    /* compiler statistics only where the extension gave its function */
    ctx->pipeline_statistics =
        ctx->pipeline_statistics && ctx->vk.vkGetPipelineExecutableStatisticsKHR;
    return true;
}

static VkDebugUtilsMessengerCreateInfoEXT messenger_info(GpuMessages *messages)
{
    return (VkDebugUtilsMessengerCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = messages,
    };
}

static bool create_instance(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err)
{
    const char *exts[MAX_EXTENSIONS];
    uint32_t ext_count = 0;
    if (desc->instance_extension_count > MAX_EXTENSIONS - 1)
        return gpu_error_set(err, "too many instance extensions requested");
    for (uint32_t i = 0; i < desc->instance_extension_count; i++)
        exts[ext_count++] = desc->instance_extensions[i];
    ctx->debug_utils =
        offers(ctx, OFFERED_INSTANCE_EXTENSION, VK_NULL_HANDLE, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (ctx->debug_utils)
        exts[ext_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    if (desc->validation) {
        if (!offers(ctx, OFFERED_LAYER, VK_NULL_HANDLE, VALIDATION_LAYER))
            return gpu_error_set(err,
                                 "--validation: the layer %s is not installed "
                                 "(Debian: apt-get install vulkan-validationlayers)",
                                 VALIDATION_LAYER);
        if (!ctx->debug_utils)
            return gpu_error_set(err, "--validation: VK_EXT_debug_utils is missing");
    }

    VkDebugUtilsMessengerCreateInfoEXT messenger = messenger_info(desc->messages);
    VkValidationFeatureEnableEXT sync[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
    };
    /* GPU-AV instruments the shaders to check buffer accesses as they run; it needs a
     * descriptor set slot of its own, which our one-set pipelines leave free. */
    VkValidationFeatureEnableEXT gpu[] = {
        VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT,
        VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT,
    };
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &messenger, /* also catches what instance creation and destruction report */
        .enabledValidationFeatureCount = desc->gpu_assisted ? 2 : 1,
        .pEnabledValidationFeatures = desc->gpu_assisted ? gpu : sync,
    };
    const char *layers[] = {VALIDATION_LAYER};
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = desc->validation ? (const void *)&features : NULL,
        .pApplicationInfo =
            &(VkApplicationInfo){
                .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                .pApplicationName = "pagecurl",
                .applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0),
                .apiVersion = VK_API_VERSION_1_3,
            },
        .enabledLayerCount = desc->validation ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    /* too little room for the driver to start: it would crash in there, not fail */
    if (gpu_headroom_short())
        return out_of_memory(err, "the Vulkan instance");
    VkResult r = ctx->vk.vkCreateInstance(&info, NULL, &ctx->instance);
    /* a driver that could not start for want of memory is "incompatible" to the loader */
    if (r < 0 && (r == VK_ERROR_OUT_OF_HOST_MEMORY || gpu_headroom_short()))
        return out_of_memory(err, "the Vulkan instance");
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        return gpu_error_set(err, "no Vulkan driver found (Debian: apt-get install "
                                  "mesa-vulkan-drivers; or check VK_DRIVER_FILES)");
    if (r == VK_ERROR_EXTENSION_NOT_PRESENT)
        return gpu_error_set(err, "the Vulkan loader lacks an instance extension the window needs");
    GPU_TRY(err, r);
    if (!load_instance(ctx, err))
        return false;
    if (desc->validation && !ctx->vk.vkCreateDebugUtilsMessengerEXT)
        return gpu_error_set(err, "--validation: VK_EXT_debug_utils is missing");
    if (desc->validation)
        GPU_TRY(err, ctx->vk.vkCreateDebugUtilsMessengerEXT(ctx->instance, &messenger,
                                                            ctx->allocator, &ctx->messenger));
    return true;
}

static bool find_queue_family(const GpuContext *ctx, VkPhysicalDevice dev, VkSurfaceKHR surface,
                              uint32_t *out)
{
    uint32_t count = 0;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(dev, &count, NULL);
    VkQueueFamilyProperties families[32];
    if (count > 32)
        count = 32;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(dev, &count, families);
    /* One queue for everything keeps the frame a single submission with plain barriers. */
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    for (uint32_t i = 0; i < count; i++) {
        if ((families[i].queueFlags & need) != need)
            continue;
        if (surface) {
            VkBool32 present = VK_FALSE;
            ctx->vk.vkGetPhysicalDeviceSurfaceSupportKHR(dev, i, surface, &present);
            if (!present)
                continue;
        }
        *out = i;
        return true;
    }
    return false;
}

static int type_rank(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 1;
    default:
        return 0;
    }
}

/* What the chosen physical device is: its memory, limits and driver. */
static void read_physical(GpuContext *ctx)
{
    ctx->vk.vkGetPhysicalDeviceProperties(ctx->physical, &ctx->props);
    ctx->vk.vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
    ctx->dispatch_max_x = ctx->props.limits.maxComputeWorkGroupCount[0];
    ctx->driver = (VkPhysicalDeviceDriverProperties){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &ctx->driver};
    ctx->vk.vkGetPhysicalDeviceProperties2(ctx->physical, &props2);
    ctx->driver.pNext = NULL;
}

static bool pick_device(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err)
{
    VkPhysicalDevice devices[MAX_DEVICES];
    uint32_t count = MAX_DEVICES;
    VkResult r = ctx->vk.vkEnumeratePhysicalDevices(ctx->instance, &count, devices);
    /* the loader leaves out a driver whose start failed, for want of memory too */
    if ((r < 0 || count == 0) && (r == VK_ERROR_OUT_OF_HOST_MEMORY || gpu_headroom_short()))
        return out_of_memory(err, "the Vulkan driver");
    if (r < 0 || count == 0)
        return gpu_error_set(err, "no Vulkan device found (Debian: apt-get install "
                                  "mesa-vulkan-drivers for the CPU driver lavapipe)");
    if (desc->device_index >= (int)count) {
        err->usage = true;
        return gpu_error_set(err,
                             "--device %d: only %u Vulkan device(s) found (see --list-devices)",
                             desc->device_index, count);
    }
    int best_rank = -1;
    for (uint32_t i = 0; i < count; i++) {
        if (desc->device_index >= 0 && (int)i != desc->device_index)
            continue;
        VkPhysicalDeviceProperties props;
        ctx->vk.vkGetPhysicalDeviceProperties(devices[i], &props);
        uint32_t family;
        if (props.apiVersion < VK_API_VERSION_1_3 ||
            !find_queue_family(ctx, devices[i], ctx->surface, &family))
            continue;
        if (type_rank(props.deviceType) > best_rank) {
            best_rank = type_rank(props.deviceType);
            ctx->physical = devices[i];
            ctx->props = props;
            ctx->queue_family = family;
        }
    }
    if (!ctx->physical) {
        if (desc->device_index >= 0)
            return gpu_error_set(err,
                                 "--device %d cannot be used: it needs Vulkan 1.3 and a "
                                 "graphics+compute queue%s",
                                 desc->device_index, ctx->surface ? " that presents" : "");
        return gpu_error_set(err, "no Vulkan 1.3 device with a graphics+compute queue%s",
                             ctx->surface ? " that can present to the window" : "");
    }
    read_physical(ctx);
    return true;
}

/* What the context owns on a device, its own or a host's: the command pool, the one-off command
 * buffer and its fence. */
static bool create_owned(GpuContext *ctx, GpuError *err)
{
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = ctx->queue_family,
    };
    GPU_TRY(err, ctx->vk.vkCreateCommandPool(ctx->device, &pool, ctx->allocator, &ctx->pool));
    GPU_NAME(ctx, VK_OBJECT_TYPE_COMMAND_POOL, ctx->pool, "command pool");
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = ctx->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    GPU_TRY(err, ctx->vk.vkAllocateCommandBuffers(ctx->device, &alloc, &ctx->once_cmd));
    GPU_NAME(ctx, VK_OBJECT_TYPE_COMMAND_BUFFER, ctx->once_cmd, "one-off set-up");
    GPU_TRY(err,
            ctx->vk.vkCreateFence(
                ctx->device, &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO},
                ctx->allocator, &ctx->once_fence));
    GPU_NAME(ctx, VK_OBJECT_TYPE_FENCE, ctx->once_fence, "one-off set-up");
    return true;
}

/* The features and subgroup operations the kernels and the renderer need; `stats` (optional)
 * asks whether pipelines' compiler statistics are offered too. */
static bool device_qualifies(const GpuContext *ctx, bool *stats, GpuError *err)
{
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR have_stats = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    bool stats_offered = stats && *stats &&
                         offers(ctx, OFFERED_DEVICE_EXTENSION, ctx->physical,
                                VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    VkPhysicalDeviceVulkan13Features have13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = stats_offered ? &have_stats : NULL};
    VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                      .pNext = &have13};
    ctx->vk.vkGetPhysicalDeviceFeatures2(ctx->physical, &have);
    if (!have13.dynamicRendering || !have13.synchronization2 || !have13.maintenance4)
        return gpu_error_set(err, "%s lacks dynamicRendering, synchronization2 or maintenance4",
                             ctx->props.deviceName);
    /* vertex_normals_pack.comp trades vertex halves between a subgroup's lanes */
    VkPhysicalDeviceSubgroupProperties subgroup = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &subgroup};
    ctx->vk.vkGetPhysicalDeviceProperties2(ctx->physical, &props2);
    VkSubgroupFeatureFlags ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                 VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
        (subgroup.supportedOperations & ops) != ops)
        return gpu_error_set(err, "%s lacks subgroup vote, ballot and shuffle in compute shaders",
                             ctx->props.deviceName);
    if (stats)
        *stats = stats_offered && have_stats.pipelineExecutableInfo;
    return true;
}

static bool create_device(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err)
{
    bool stats = desc->pipeline_statistics;
    if (!device_qualifies(ctx, &stats, err))
        return false;
    VkPhysicalDeviceVulkan13Features want13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
        /* glslc for Vulkan 1.3 states workgroup sizes as LocalSizeId, which needs it */
        .maintenance4 = VK_TRUE,
    };
    ctx->pipeline_statistics = stats;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR want_stats = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE,
    };
    if (ctx->pipeline_statistics)
        want13.pNext = &want_stats;
    VkPhysicalDeviceFeatures have;
    ctx->vk.vkGetPhysicalDeviceFeatures(ctx->physical, &have);
    ctx->geometry_shader = have.geometryShader;
    /* anisotropic filtering where offered: the high tier's print at a grazing angle */
    ctx->sampler_anisotropy = have.samplerAnisotropy;
    VkPhysicalDeviceFeatures want = {.geometryShader = have.geometryShader,
                                     .samplerAnisotropy = have.samplerAnisotropy};
    const char *exts[2];
    uint32_t ext_count = 0;
    if (ctx->surface)
        exts[ext_count++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (ctx->pipeline_statistics)
        exts[ext_count++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    float priority = 1.0f;
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &want13,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos =
            &(VkDeviceQueueCreateInfo){
                .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                .queueFamilyIndex = ctx->queue_family,
                .queueCount = 1,
                .pQueuePriorities = &priority,
            },
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
        .pEnabledFeatures = &want,
    };
    GPU_TRY(err, ctx->vk.vkCreateDevice(ctx->physical, &info, NULL, &ctx->device));
    if (!load_device(ctx, err))
        return false;
    ctx->vk.vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    GPU_NAME(ctx, VK_OBJECT_TYPE_DEVICE, ctx->device, "pagecurl");
    GPU_NAME(ctx, VK_OBJECT_TYPE_QUEUE, ctx->queue, "main queue");
    return create_owned(ctx, err);
}

static bool faults_create(GpuContext *ctx, GpuError *err)
{
    ctx->faults = calloc(1, sizeof *ctx->faults);
    ctx->counters = calloc(1, sizeof *ctx->counters);
    if (!ctx->faults || !ctx->counters)
        return gpu_error_set(err, "out of memory");
    return true;
}

void gpu_context_faults(const GpuContext *ctx, const GpuFaultSpec *spec)
{
    if (ctx->faults)
        *ctx->faults = (GpuFaults){.spec = spec ? *spec : (GpuFaultSpec){0}};
}

/* The failure to inject at this call of a kind faulted after the first `after` (0: never). */
static VkResult fault(uint32_t after, uint64_t *seen, VkResult injected)
{
    if (!after)
        return VK_SUCCESS;
    return (*seen)++ >= after ? injected : VK_SUCCESS;
}

VkResult gpu_fault_submit(const GpuContext *ctx)
{
    GpuFaults *f = ctx->faults;
    return f ? fault(f->spec.submit_after, &f->submits, VK_ERROR_DEVICE_LOST) : VK_SUCCESS;
}

VkResult gpu_fault_allocate(const GpuContext *ctx)
{
    GpuFaults *f = ctx->faults;
    return f ? fault(f->spec.allocate_after, &f->allocations, VK_ERROR_OUT_OF_DEVICE_MEMORY)
             : VK_SUCCESS;
}

static bool context_create(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err)
{
    if (!faults_create(ctx, err))
        return false;
    if (!load_loader(ctx, err) || !create_instance(desc, ctx, err))
        return false;
    if (desc->create_surface &&
        !desc->create_surface(desc->surface_user, ctx->instance, &ctx->surface))
        return gpu_error_set(err, "could not create a Vulkan surface for the window");
    return pick_device(desc, ctx, err) && create_device(desc, ctx, err);
}

bool gpu_context_create(const GpuContextDesc *desc, GpuContext *ctx, GpuError *err)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->tasks = desc->tasks;
    ctx->task_threads = desc->task_threads;
    if (context_create(desc, ctx, err))
        return true;
    gpu_context_destroy(ctx);
    return false;
}

/* Whether the host's enabled chain has what the library draws with; else one line naming what
 * is missing. Vulkan 1.3's own features count whether enabled through
 * VkPhysicalDeviceVulkan13Features or their extensions' promoted structs. */
static bool host_enabled(const VkPhysicalDeviceFeatures2 *chain, GpuError *err)
{
    if (chain->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
        err->usage = true;
        return gpu_error_set(err, "the host's enabled features are not a VkPhysicalDeviceFeatures2 "
                                  "chain");
    }
    bool sync2 = false, dynamic = false, maint4 = false;
    int links = 0;
    for (const VkBaseInStructure *s = (const VkBaseInStructure *)chain; s && links < 256;
         s = s->pNext, links++) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) {
            const VkPhysicalDeviceVulkan13Features *f = (const void *)s;
            sync2 |= f->synchronization2 == VK_TRUE;
            dynamic |= f->dynamicRendering == VK_TRUE;
            maint4 |= f->maintenance4 == VK_TRUE;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES) {
            sync2 |= ((const VkPhysicalDeviceSynchronization2Features *)(const void *)s)
                         ->synchronization2 == VK_TRUE;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES) {
            dynamic |= ((const VkPhysicalDeviceDynamicRenderingFeatures *)(const void *)s)
                           ->dynamicRendering == VK_TRUE;
        } else if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES) {
            maint4 |=
                ((const VkPhysicalDeviceMaintenance4Features *)(const void *)s)->maintenance4 ==
                VK_TRUE;
        }
    }
    if (sync2 && dynamic && maint4)
        return true;
    err->usage = true;
    return gpu_error_set(err,
                         "the host's device was created without %s%s%s%s%s enabled (the library "
                         "draws with dynamicRendering, synchronization2 and maintenance4)",
                         dynamic ? "" : "dynamicRendering",
                         !dynamic && (!sync2 || !maint4) ? ", " : "",
                         sync2 ? "" : "synchronization2", !sync2 && !maint4 ? ", " : "",
                         maint4 ? "" : "maintenance4");
}

bool gpu_context_adopt(const GpuHostDevice *host, GpuContext *ctx, GpuError *err)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->adopted = true;
    ctx->allocator = host->allocator;
    ctx->pipeline_cache = host->pipeline_cache;
    ctx->debug_utils = host->debug_names;
    if (!host->instance || !host->physical || !host->device || !host->queue ||
        !host->get_instance_proc_addr) {
        err->usage = true;
        return gpu_error_set(err, "a host's device needs its instance, physical device, device, "
                                  "queue and vkGetInstanceProcAddr");
    }
    if (host->enabled && !host_enabled(host->enabled, err))
        return false;
    ctx->instance = host->instance;
    ctx->physical = host->physical;
    ctx->queue_family = host->queue_family;
    ctx->queue = host->queue;
    /* the host's functions, through its own vkGetInstanceProcAddr: its loader or its layers' */
    ctx->vk.vkGetInstanceProcAddr = host->get_instance_proc_addr;
    if (!load_instance(ctx, err)) {
        gpu_context_destroy(ctx);
        return false;
    }
    read_physical(ctx);
    /* what the host enabled, as far as the device offers it (a host cannot enable more) */
    VkPhysicalDeviceFeatures offered;
    ctx->vk.vkGetPhysicalDeviceFeatures(ctx->physical, &offered);
    bool anisotropy = host->enabled ? host->enabled->features.samplerAnisotropy == VK_TRUE
                                    : host->sampler_anisotropy;
    bool geometry =
        host->enabled ? host->enabled->features.geometryShader == VK_TRUE : host->geometry_shader;
    ctx->sampler_anisotropy = anisotropy && offered.samplerAnisotropy;
    ctx->geometry_shader = geometry && offered.geometryShader;
    bool ok = faults_create(ctx, err);
    if (ok && ctx->props.apiVersion < VK_API_VERSION_1_3) {
        err->usage = true;
        ok = gpu_error_set(err, "%s is not a Vulkan 1.3 device", ctx->props.deviceName);
    }
    ok = ok && device_qualifies(ctx, NULL, err);
    if (ok) {
        ctx->device = host->device;
        ok = load_device(ctx, err) && create_owned(ctx, err);
    }
    if (!ok)
        gpu_context_destroy(ctx);
    return ok;
}

/* What create_owned made, on either kind of device. */
static void destroy_owned(GpuContext *ctx)
{
    if (ctx->once_fence)
        ctx->vk.vkDestroyFence(ctx->device, ctx->once_fence, ctx->allocator);
    if (ctx->once_cmd)
        ctx->vk.vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &ctx->once_cmd);
    if (ctx->pool)
        ctx->vk.vkDestroyCommandPool(ctx->device, ctx->pool, ctx->allocator);
}

void gpu_context_destroy(GpuContext *ctx)
{
    if (ctx->adopted) {
        /* the host's queue may hold its own work: ours is waited for as it is submitted */
        if (ctx->device && ctx->vk.vkDestroyFence)
            destroy_owned(ctx);
        free(ctx->faults);
        free(ctx->counters);
        memset(ctx, 0, sizeof *ctx);
        return;
    }
    /* each function asked for before it is called: a device or instance whose table could not
     * be loaded in full is left as it is, not called through a NULL */
    if (ctx->device && ctx->vk.vkDestroyDevice) {
        ctx->vk.vkDeviceWaitIdle(ctx->device); /* teardown only: everything in flight must finish */
        destroy_owned(ctx);
        ctx->vk.vkDestroyDevice(ctx->device, NULL);
    }
    if (ctx->surface && ctx->vk.vkDestroySurfaceKHR)
        ctx->vk.vkDestroySurfaceKHR(ctx->instance, ctx->surface, NULL);
    if (ctx->messenger)
        ctx->vk.vkDestroyDebugUtilsMessengerEXT(ctx->instance, ctx->messenger, ctx->allocator);
    if (ctx->instance && ctx->vk.vkDestroyInstance)
        ctx->vk.vkDestroyInstance(ctx->instance, NULL);
    gpu_vk_close_loader(ctx->loader);
    free(ctx->faults);
    free(ctx->counters);
    memset(ctx, 0, sizeof *ctx);
}

static const char *type_name(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "cpu";
    default:
        return "other";
    }
}

bool gpu_context_list_devices(FILE *out, GpuError *err)
{
    GpuContext ctx = {0};
    GpuContextDesc desc = {.device_index = -1};
    bool ok = load_loader(&ctx, err) && create_instance(&desc, &ctx, err);
    if (ok) {
        VkPhysicalDevice devices[MAX_DEVICES];
        uint32_t count = MAX_DEVICES;
        ctx.vk.vkEnumeratePhysicalDevices(ctx.instance, &count, devices);
        for (uint32_t i = 0; i < count; i++) {
            VkPhysicalDeviceProperties p;
            ctx.vk.vkGetPhysicalDeviceProperties(devices[i], &p);
            fprintf(out, "%u: %s (%s, Vulkan %u.%u.%u)\n", i, p.deviceName, type_name(p.deviceType),
                    VK_API_VERSION_MAJOR(p.apiVersion), VK_API_VERSION_MINOR(p.apiVersion),
                    VK_API_VERSION_PATCH(p.apiVersion));
        }
        if (count == 0)
            ok = gpu_error_set(err, "no Vulkan device found");
    }
    gpu_context_destroy(&ctx);
    return ok;
}

bool gpu_context_memory_type(const GpuContext *ctx, uint32_t allowed, VkMemoryPropertyFlags want,
                             uint32_t *out)
{
    for (uint32_t i = 0; i < ctx->memory.memoryTypeCount; i++) {
        if ((allowed & (1u << i)) && (ctx->memory.memoryTypes[i].propertyFlags & want) == want) {
            *out = i;
            return true;
        }
    }
    return false;
}

bool gpu_context_allocate(const GpuContext *ctx, VkDeviceSize size, uint32_t type,
                          const char *label, VkDeviceMemory *out, GpuError *err)
{
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = size,
        .memoryTypeIndex = type,
    };
    VkResult r = gpu_fault_allocate(ctx);
    if (ctx->counters)
        ctx->counters->allocations++;
    if (r == VK_SUCCESS)
        r = ctx->vk.vkAllocateMemory(ctx->device, &alloc, ctx->allocator, out);
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
        return gpu_error_set(err, "out of %s memory allocating %llu bytes for '%s'",
                             r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? "device" : "host",
                             (unsigned long long)size, label);
    GPU_TRY(err, r);
    GPU_NAME(ctx, VK_OBJECT_TYPE_DEVICE_MEMORY, *out, label);
    return true;
}

bool gpu_queue_idle(const GpuContext *ctx, GpuError *err)
{
    if (ctx->counters)
        ctx->counters->queue_idles++;
    GPU_TRY(err, ctx->vk.vkQueueWaitIdle(ctx->queue));
    return true;
}

void gpu_count_pipelines(const GpuContext *ctx, uint32_t n)
{
    if (ctx->counters)
        ctx->counters->pipelines += n;
}

void gpu_name(const GpuContext *ctx, VkObjectType type, uint64_t handle, const char *name)
{
    if (!ctx->debug_utils || !handle)
        return;
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    ctx->vk.vkSetDebugUtilsObjectNameEXT(ctx->device, &info);
}

void gpu_label_begin(const GpuContext *ctx, VkCommandBuffer cmd, const char *name)
{
    if (!ctx->debug_utils)
        return;
    VkDebugUtilsLabelEXT label = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
                                  .pLabelName = name};
    ctx->vk.vkCmdBeginDebugUtilsLabelEXT(cmd, &label);
}

void gpu_label_end(const GpuContext *ctx, VkCommandBuffer cmd)
{
    if (ctx->debug_utils)
        ctx->vk.vkCmdEndDebugUtilsLabelEXT(cmd);
}

bool gpu_context_submit_once(const GpuContext *ctx, GpuRecordFn record, void *user, GpuError *err)
{
    VkCommandBuffer cmd = ctx->once_cmd;
    if (ctx->counters)
        ctx->counters->submit_waits++;
    /* the pool resets command buffers one by one: beginning again resets this one */
    VkResult r = ctx->vk.vkResetFences(ctx->device, 1, &ctx->once_fence);
    if (r == VK_SUCCESS)
        r = ctx->vk.vkBeginCommandBuffer(
            cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                             .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT});
    if (r == VK_SUCCESS) {
        record(ctx, user, cmd);
        r = ctx->vk.vkEndCommandBuffer(cmd);
    }
    if (r == VK_SUCCESS) {
        VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .commandBufferCount = 1,
                               .pCommandBuffers = &cmd};
        r = ctx->vk.vkQueueSubmit(ctx->queue, 1, &submit, ctx->once_fence);
    }
    if (r == VK_SUCCESS)
        r = ctx->vk.vkWaitForFences(ctx->device, 1, &ctx->once_fence, VK_TRUE, UINT64_MAX);
    GPU_TRY(err, r);
    return true;
}
