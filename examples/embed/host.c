/* SPDX-License-Identifier: MIT */
#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("embed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void check(VkResult r, const char *what)
{
    if (r == VK_SUCCESS)
        return;
    say("%s failed (VkResult %d)", what, (int)r);
    exit(1);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    /* the loader's general warnings are about the machine (drivers left out), not about us */
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) &&
        type == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT)
        return VK_FALSE;
    ((Gpu *)user)->messages++;
    say("validation: %s", data->pMessage);
    return VK_FALSE;
}

void gpu_instance(Gpu *g, const char *const *extensions, uint32_t count, bool validation)
{
    uint32_t version = 0;
    check(vkEnumerateInstanceVersion(&version), "vkEnumerateInstanceVersion");
    if (version < VK_API_VERSION_1_3) {
        say("the Vulkan loader is older than 1.3");
        exit(1);
    }
    const char *exts[16] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    if (count > 15) {
        say("%u instance extensions: too many", count);
        exit(1);
    }
    for (uint32_t i = 0; i < count; i++)
        exts[i + 1] = extensions[i];
    const char *layer = "VK_LAYER_KHRONOS_validation";
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = g,
    };
    VkValidationFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &messenger, /* also what instance creation reports */
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures =
            (VkValidationFeatureEnableEXT[]){
                VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT},
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = validation ? &features : NULL,
        .pApplicationInfo = &(VkApplicationInfo){.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                                 .pApplicationName = "embed",
                                                 .apiVersion = VK_API_VERSION_1_3},
        .enabledLayerCount = validation ? 1 : 0,
        .ppEnabledLayerNames = &layer,
        /* VK_EXT_debug_utils only with the layer */
        .enabledExtensionCount = validation ? count + 1 : count,
        .ppEnabledExtensionNames = validation ? exts : exts + 1,
    };
    VkResult r = vkCreateInstance(&info, NULL, &g->instance);
    if (r == VK_ERROR_LAYER_NOT_PRESENT) {
        say("--validation: %s is not installed (Debian: vulkan-validationlayers)", layer);
        exit(1);
    }
    check(r, "vkCreateInstance");
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                g->instance, "vkCreateDebugUtilsMessengerEXT");
        check(create(g->instance, &messenger, NULL, &g->messenger), "the debug messenger");
    }
}

void gpu_device(Gpu *g, VkSurfaceKHR surface)
{
    VkPhysicalDevice devices[16];
    uint32_t count = 16;
    vkEnumeratePhysicalDevices(g->instance, &count, devices);
    for (uint32_t i = 0; i < count && !g->physical; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devices[i], &props);
        if (props.apiVersion < VK_API_VERSION_1_3)
            continue;
        VkQueueFamilyProperties families[16];
        uint32_t n = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &n, families);
        for (uint32_t f = 0; f < n && !g->physical; f++) {
            VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            VkBool32 presents = VK_TRUE;
            if (surface)
                vkGetPhysicalDeviceSurfaceSupportKHR(devices[i], f, surface, &presents);
            if ((families[f].queueFlags & need) == need && presents)
                g->physical = devices[i], g->family = f;
        }
    }
    if (!g->physical) {
        say("no Vulkan 1.3 device with a graphics+compute queue%s",
            surface ? " that presents" : "");
        exit(1);
    }
    g->enabled13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
        .maintenance4 = VK_TRUE,
    };
    const char *swapchain = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    VkPhysicalDeviceFeatures offered;
    vkGetPhysicalDeviceFeatures(g->physical, &offered);
    /* anisotropic filtering where offered, and the library told (pagecurl_context_desc): pages
     * seen at a grazing angle stay sharp */
    g->anisotropy = offered.samplerAnisotropy;
    g->geometry_shader = offered.geometryShader;
    g->enabled = (VkPhysicalDeviceFeatures2){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &g->enabled13,
        .features = {.geometryShader = g->geometry_shader, .samplerAnisotropy = g->anisotropy},
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &g->enabled,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos =
            &(VkDeviceQueueCreateInfo){
                .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                .queueFamilyIndex = g->family,
                .queueCount = 1,
                .pQueuePriorities = (float[]){1.0f},
            },
        .enabledExtensionCount = surface ? 1 : 0,
        .ppEnabledExtensionNames = &swapchain,
    };
    check(vkCreateDevice(g->physical, &info, NULL, &g->device), "vkCreateDevice");
    vkGetDeviceQueue(g->device, g->family, 0, &g->queue);
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = g->family,
    };
    check(vkCreateCommandPool(g->device, &pool, NULL, &g->pool), "vkCreateCommandPool");
}

void gpu_destroy(Gpu *g)
{
    vkDestroyCommandPool(g->device, g->pool, NULL);
    vkDestroyDevice(g->device, NULL);
    if (g->messenger)
        ((PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
            g->instance, "vkDestroyDebugUtilsMessengerEXT"))(g->instance, g->messenger, NULL);
    vkDestroyInstance(g->instance, NULL);
}

VkDeviceMemory gpu_memory(const Gpu *g, VkMemoryRequirements need, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &mem);
    for (uint32_t i = 0; i < mem.memoryTypeCount; i++) {
        if (!(need.memoryTypeBits & (1u << i)) || (mem.memoryTypes[i].propertyFlags & want) != want)
            continue;
        VkMemoryAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                     .allocationSize = need.size,
                                     .memoryTypeIndex = i};
        VkDeviceMemory out;
        check(vkAllocateMemory(g->device, &info, NULL, &out), "vkAllocateMemory");
        return out;
    }
    say("no memory type for %llu bytes", (unsigned long long)need.size);
    exit(1);
}

VkImageView gpu_view(const Gpu *g, VkImage image, VkFormat format)
{
    VkImageViewCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    VkImageView view;
    check(vkCreateImageView(g->device, &info, NULL, &view), "vkCreateImageView");
    return view;
}

VkCommandBuffer gpu_command_buffer(const Gpu *g)
{
    VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = g->pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(g->device, &info, &cmd), "vkAllocateCommandBuffers");
    return cmd;
}

VkFence gpu_fence(const Gpu *g, bool signalled)
{
    VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                              .flags = signalled ? VK_FENCE_CREATE_SIGNALED_BIT : 0};
    VkFence fence;
    check(vkCreateFence(g->device, &info, NULL, &fence), "vkCreateFence");
    return fence;
}

VkSemaphore gpu_semaphore(const Gpu *g)
{
    VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    check(vkCreateSemaphore(g->device, &info, NULL, &s), "vkCreateSemaphore");
    return s;
}

void swapchain_destroy(const Gpu *g, Swapchain *sc)
{
    for (uint32_t i = 0; i < sc->count; i++) {
        vkDestroyImageView(g->device, sc->views[i], NULL);
        vkDestroySemaphore(g->device, sc->rendered[i], NULL);
    }
    vkDestroySwapchainKHR(g->device, sc->handle, NULL);
    sc->handle = VK_NULL_HANDLE, sc->count = 0;
}

bool swapchain_create(const Gpu *g, VkSurfaceKHR surface, VkExtent2D size, Swapchain *sc)
{
    VkSurfaceCapabilitiesKHR caps;
    check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(g->physical, surface, &caps), "surface caps");
    VkExtent2D e = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : size;
    if (!e.width || !e.height)
        return false;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkSurfaceFormatKHR formats[64];
    uint32_t n = 64;
    vkGetPhysicalDeviceSurfaceFormatsKHR(g->physical, surface, &n, formats);
    VkFormat format = VK_FORMAT_UNDEFINED;
    for (uint32_t i = 0; i < n && !format; i++)
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_SRGB ||
             formats[i].format == VK_FORMAT_R8G8B8A8_SRGB) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            format = formats[i].format;
    if (!format || (caps.supportedUsageFlags & usage) != usage) {
        say("the window offers no 8-bit sRGB images that take copies");
        exit(1);
    }
    vkDeviceWaitIdle(g->device); /* the old images may still be in use */
    uint32_t most = caps.maxImageCount ? caps.maxImageCount : HOST_MAX_IMAGES;
    VkSwapchainCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = surface,
        .minImageCount = caps.minImageCount + 1 < most ? caps.minImageCount + 1 : most,
        .imageFormat = format,
        .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
        .imageExtent = e,
        .imageArrayLayers = 1,
        .imageUsage = usage,
        .preTransform = caps.currentTransform,
        .compositeAlpha = caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                              : VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        .presentMode = VK_PRESENT_MODE_FIFO_KHR, /* every device has it */
        .clipped = VK_TRUE,
        .oldSwapchain = sc->handle,
    };
    VkSwapchainKHR handle;
    check(vkCreateSwapchainKHR(g->device, &info, NULL, &handle), "vkCreateSwapchainKHR");
    if (sc->handle)
        swapchain_destroy(g, sc);
    *sc = (Swapchain){.handle = handle, .format = format, .extent = e, .count = HOST_MAX_IMAGES};
    check(vkGetSwapchainImagesKHR(g->device, handle, &sc->count, sc->images), "swapchain images");
    for (uint32_t i = 0; i < sc->count; i++) {
        sc->views[i] = gpu_view(g, sc->images[i], format);
        sc->rendered[i] = gpu_semaphore(g);
    }
    return true;
}
