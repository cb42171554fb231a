/* SPDX-License-Identifier: MIT */
/* The window's own Vulkan on the book's device (libpagecurl's context: pagecurl_context_vulkan),
 * as any host has it: the device's handles, its functions loaded through volk from the context's
 * vkGetInstanceProcAddr, named objects, host-visible buffers. Owns nothing but the buffers it
 * makes for its callers. */
#ifndef PAGECURL_APP_VULKAN_H
#define PAGECURL_APP_VULKAN_H

#include <pagecurl/pagecurl.h>
#include <volk.h>

#include <stdbool.h>
#include <stddef.h>

/* Frames the window records ahead, each with its own slot of the book's (frames_in_flight). */
#define APP_VK_FRAMES 2

typedef struct AppVk {
    pagecurl_vulkan vk;
    VkSurfaceKHR surface;
    VkPhysicalDeviceMemoryProperties memory;
    bool names; /* the instance has VK_EXT_debug_utils: objects are named */
} AppVk;

/* The context's device, its functions loaded (the same the library loaded for it). */
void app_vk_init(AppVk *vk, const pagecurl_context *ctx);
/* Names an object for the validation layer and debuggers, where the instance can. */
void app_vk_name(const AppVk *vk, VkObjectType type, uint64_t handle, const char *name);

/* A host-visible, coherent buffer and its memory, mapped. */
typedef struct AppVkBuffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
} AppVkBuffer;
/* False with the VkResult's reason in message. */
bool app_vk_buffer_create(const AppVk *vk, VkDeviceSize size, VkBufferUsageFlags usage,
                          const char *name, AppVkBuffer *out, char *message, size_t msize);
void app_vk_buffer_destroy(const AppVk *vk, AppVkBuffer *buf);

/* A 2-D colour image of one level, its memory (device-local where it can be) and a view: drawn
 * into, copied into and out of (COLOR_ATTACHMENT, TRANSFER_DST and TRANSFER_SRC). */
typedef struct AppVkImage {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
} AppVkImage;
/* False with the VkResult's reason in message, `doing` naming it ("making the window's images"). */
bool app_vk_image_create(const AppVk *vk, VkFormat format, VkExtent2D extent, const char *name,
                         AppVkImage *out, const char *doing, char *message, size_t msize);
void app_vk_image_destroy(const AppVk *vk, AppVkImage *img);
/* The frame's image (in COLOR_ATTACHMENT_OPTIMAL after its drawing) copied into `buffer` for the
 * host to read once the submission's fence signals, tight rows of 4-byte pixels; the image left as
 * it was found. */
void app_vk_copy_to_host(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, VkBuffer buffer);
/* A layout transition of a colour image's first level and layer, with its scopes. */
void app_vk_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                          VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access);

/* A failed call's one line into message, in the user's terms: what happened, the result, and
 * what the window was `doing` ("submitting a frame"): "the GPU was lost (VK_ERROR_DEVICE_LOST)
 * while submitting a frame", as a headless run says it. False. */
bool app_vk_fail(VkResult r, const char *doing, char *message, size_t size);

#endif
