/* SPDX-License-Identifier: MIT */
/* The example host's own Vulkan, nothing of pagecurl in it: an instance (with the validation
 * layer on request, its messages counted), a device with what the library needs, memory, and a
 * swapchain. Every Vulkan host has its version of this; main.c is where the book comes in. */
#ifndef EMBED_HOST_H
#define EMBED_HOST_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

#define HOST_MAX_IMAGES 8 /* swapchain images */

typedef struct Gpu {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    uint32_t messages; /* validation messages seen */
    VkPhysicalDevice physical;
    VkDevice device;
    bool
        geometry_shader; /* enabled on the device (where offered): pagecurl's low quality uses it */
    uint32_t family;     /* one queue, graphics and compute */
    VkQueue queue;
    bool anisotropy; /* samplerAnisotropy enabled on the device (where it offers it) */
    /* the features the device was made with, for the library to check
     * (pagecurl_context_desc.enabled_features) */
    VkPhysicalDeviceFeatures2 enabled;
    VkPhysicalDeviceVulkan13Features enabled13;
    VkCommandPool pool;
} Gpu;

typedef struct Swapchain {
    VkSwapchainKHR handle;
    VkFormat format; /* 8-bit sRGB */
    VkExtent2D extent;
    uint32_t count;
    VkImage images[HOST_MAX_IMAGES];
    VkImageView views[HOST_MAX_IMAGES];
    VkSemaphore rendered[HOST_MAX_IMAGES]; /* one per image: its presentation waits on it */
} Swapchain;

/* One line on stderr, "embed: ..." */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A Vulkan call that failed ends the run: one line, exit status 1. */
void check(VkResult r, const char *what);

/* Vulkan 1.3, with `extensions` (a window's) and, with `validation`, the Khronos layer with
 * synchronization validation and VK_EXT_debug_utils. */
void gpu_instance(Gpu *g, const char *const *extensions, uint32_t count, bool validation);
/* The first Vulkan 1.3 device with a graphics+compute queue (that presents to `surface`, where
 * there is one), with dynamicRendering, synchronization2 and maintenance4 enabled, and
 * geometryShader where it offers it. */
void gpu_device(Gpu *g, VkSurfaceKHR surface);
void gpu_destroy(Gpu *g);

VkDeviceMemory gpu_memory(const Gpu *g, VkMemoryRequirements need, VkMemoryPropertyFlags want);
VkImageView gpu_view(const Gpu *g, VkImage image, VkFormat format);
VkCommandBuffer gpu_command_buffer(const Gpu *g);
VkFence gpu_fence(const Gpu *g, bool signalled);
VkSemaphore gpu_semaphore(const Gpu *g);

/* (Re)made for `surface` at `size` (the window's drawable pixels, where the surface leaves it
 * open); false while it has no area (a minimised window). Its images take colour attachments and
 * copies (TRANSFER_DST). */
bool swapchain_create(const Gpu *g, VkSurfaceKHR surface, VkExtent2D size, Swapchain *sc);
void swapchain_destroy(const Gpu *g, Swapchain *sc);

#endif
