/* SPDX-License-Identifier: MIT */
/* libpagecurl as a host uses it, through its public header only: the host makes its own Vulkan
 * instance (validation and synchronization validation on, every message counted) and device,
 * hands them to the library, and records the book into its own command buffers, two frames in
 * flight, into a viewport of its own image. Checked: refusals, the pixels against the program's
 * own screenshot of the same pose, turns by key, drag and cancel with their events and state, a
 * second pointer ignored, ink and undo, go to page, a host's page provider (its pages shown, a
 * page it cannot draw reported; its pages invalidated, fitted at their own shape, recounted and
 * replaced), an animated go-to, frames drawn straight into the host's image or samples,
 * anisotropic filtering where the host enabled it and only there, every block the library takes
 * through the host's allocation callbacks given back by the context's end, and a context the
 * library makes itself. One switch a host has no use for, a test's slow pages, comes from the
 * program's private header (book/pagecurl_program.h).
 * usage: test_api PAGECURL OUT_DIR */
#include "check.h"
#include "image.h"
#include "pdf_file.h"
#include "run.h"

#include "../book/pagecurl_program.h"
#include <pagecurl/pagecurl.h>

#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#define W      640
#define H      400
#define BORDER 24 /* the host's own pixels around the book's viewport */

static CheckState st;

/* The host's allocation callbacks, which the library makes every object of its context with:
 * counted, so that every block it takes is given back by the context's end, each through the
 * callbacks (the validation layer says where an object is destroyed with other callbacks than
 * it was made with). */
typedef struct Counted {
    atomic_long live, total;
} Counted;

static void *VKAPI_CALL counted_alloc(void *user, size_t size, size_t align,
                                      VkSystemAllocationScope scope)
{
    (void)scope;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1))
        return NULL;
    atomic_fetch_add(&((Counted *)user)->live, 1);
    atomic_fetch_add(&((Counted *)user)->total, 1);
    return p;
}

static void VKAPI_CALL counted_free(void *user, void *p)
{
    if (p) {
        atomic_fetch_sub(&((Counted *)user)->live, 1);
        free(p);
    }
}

static void *VKAPI_CALL counted_realloc(void *user, void *old, size_t size, size_t align,
                                        VkSystemAllocationScope scope)
{
    if (!old)
        return counted_alloc(user, size, align, scope);
    if (!size) {
        counted_free(user, old);
        return NULL;
    }
    void *p = counted_alloc(user, size, align, scope);
    if (p) {
        size_t had = malloc_usable_size(old);
        memcpy(p, old, had < size ? had : size);
        counted_free(user, old);
    }
    return p;
}

typedef struct Host {
    bool own_instance; /* else the library's context lent its device */
    bool own_device;   /* made here on an instance of its own or of another Host's */
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    uint32_t messages;
    VkPhysicalDevice physical;
    VkDevice device;
    bool geometry_shader; /* enabled on the device */
    /* the chain the device was made with (pagecurl_context_desc.enabled_features); made without
     * synchronization2 where `without_sync2` is set before host_device */
    VkPhysicalDeviceFeatures2 enabled;
    VkPhysicalDeviceVulkan13Features enabled13;
    bool without_sync2;
    uint32_t family;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd[2];
    VkFence fence[2];
    VkImage image;
    VkDeviceMemory image_memory;
    VkBuffer readback;
    VkDeviceMemory readback_memory;
    uint8_t *pixels;
    uint32_t width, height;
    uint64_t frame;
    VkFormat format; /* said in the frames' targets (0: not said) */
    /* the frames' targets drawn straight into (pagecurl_target.view): `image` through `view`,
     * or with `samples` the host's multisampled image, which it resolves into `image`; `keep`:
     * the book draws over the host's background */
    VkImageView view;
    bool direct, keep;
    uint64_t generation; /* said in the targets: changed when `image` and `view` are remade */
    VkImage ms_image;
    VkImageView ms_view;
    VkDeviceMemory ms_memory;
    /* the frames drawn in the host's own pass (pagecurl_target.in_pass, pagecurl_book_draw),
     * begun with `depth` as its depth attachment; the image cleared to `clear` where
     * `clear_set` (else black); the targets' background where `background_set` */
    bool in_pass;
    VkImage depth;
    VkImageView depth_view;
    VkDeviceMemory depth_memory;
    bool clear_set, background_set;
    VkClearColorValue clear;
    float background[4];
} Host;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    /* The loader's general warnings (drivers left out by VK_LOADER_DRIVERS_SELECT) are about the
     * machine; every error, every validation finding and every general warning of the driver's
     * counts: Mesa's about the library's shaders come that way (lavapipe's SPIR-V reader warned
     * of `invariant gl_Position` in page.vert once a pipeline), and a host that counts them
     * sees them. */
    bool general =
        !(type & ~(VkDebugUtilsMessageTypeFlagsEXT)VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT);
    bool loader =
        general && data->pMessageIdName && strcmp(data->pMessageIdName, "Loader Message") == 0;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ||
        (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT && !loader)) {
        ((Host *)user)->messages++;
        fprintf(stderr, "test_api: %s: %s\n", general ? "driver" : "validation", data->pMessage);
    }
    return VK_FALSE;
}

#define VK_OK(call)                                                                                \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS) {                                                                    \
            fprintf(stderr, "test_api: %s: %d\n", #call, r_);                                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* The host's instance, with the validation layer (any message it gives fails the test) or
 * without (it wraps handles: what the driver hands out is not seen). */
static void host_instance(Host *h, bool validation)
{
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = h,
    };
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                        .pNext = &messenger,
                                        .enabledValidationFeatureCount = 1,
                                        .pEnabledValidationFeatures = &sync};
    const char *layer = "VK_LAYER_KHRONOS_validation";
    const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = validation ? (const void *)&features : (const void *)&messenger,
        .pApplicationInfo = &(VkApplicationInfo){.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                                 .pApplicationName = "test_api",
                                                 .apiVersion = VK_API_VERSION_1_3},
        .enabledLayerCount = validation ? 1 : 0,
        .ppEnabledLayerNames = &layer,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = &ext,
    };
    VK_OK(vkCreateInstance(&info, NULL, &h->instance));
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)(void (*)(
        void))vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
    VK_OK(create(h->instance, &messenger, NULL, &h->messenger));
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(h->instance, &count, &h->physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
        fprintf(stderr, "test_api: no Vulkan device\n");
        exit(1);
    }
    h->own_instance = true;
}

/* The host's device on its instance, with VkPhysicalDeviceFeatures.samplerAnisotropy enabled or
 * not (then the library must not use it: the validation layer would say so), and geometryShader
 * where offered. */
static void host_device(Host *h, bool anisotropy)
{
    VkQueueFamilyProperties families[16];
    uint32_t count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &count, families);
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < count && h->family == UINT32_MAX; i++)
        if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) ==
            (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
            h->family = i;
    h->enabled13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = !h->without_sync2,
        .dynamicRendering = VK_TRUE,
        .maintenance4 = VK_TRUE};
    float priority = 1.0f;
    /* as the library's own device: the low quality's shadow outline is then the program's */
    VkPhysicalDeviceFeatures offered;
    vkGetPhysicalDeviceFeatures(h->physical, &offered);
    h->geometry_shader = offered.geometryShader;
    h->enabled = (VkPhysicalDeviceFeatures2){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &h->enabled13,
        .features = {.geometryShader = h->geometry_shader, .samplerAnisotropy = anisotropy}};
    VkDeviceCreateInfo dinfo = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                .pNext = &h->enabled,
                                .queueCreateInfoCount = 1,
                                .pQueueCreateInfos = &(VkDeviceQueueCreateInfo){
                                    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = h->family,
                                    .queueCount = 1,
                                    .pQueuePriorities = &priority}};
    VK_OK(vkCreateDevice(h->physical, &dinfo, NULL, &h->device));
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    h->own_device = true;
}

/* The library's context description for the host's device (what it enabled, said). */
static pagecurl_context_desc host_desc(const Host *h)
{
    return (pagecurl_context_desc){.size = sizeof(pagecurl_context_desc),
                                   .instance = h->instance,
                                   .physical_device = h->physical,
                                   .device = h->device,
                                   .queue_family = h->family,
                                   .queue = h->queue,
                                   .get_instance_proc_addr = vkGetInstanceProcAddr,
                                   .geometry_shader = h->geometry_shader};
}

static uint32_t memory_type(const Host *h, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(h->physical, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fprintf(stderr, "test_api: no memory type\n");
    exit(1);
}

/* An image of the host's frames' size with `samples` a pixel, of `format` for `usage`, in device
 * memory, with a view of its `aspect`. */
static void host_image_as(const Host *h, VkSampleCountFlagBits samples, VkFormat format,
                          VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImage *image,
                          VkDeviceMemory *memory, VkImageView *view)
{
    VK_OK(vkCreateImage(h->device,
                        &(VkImageCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                             .imageType = VK_IMAGE_TYPE_2D,
                                             .format = format,
                                             .extent = {h->width, h->height, 1},
                                             .mipLevels = 1,
                                             .arrayLayers = 1,
                                             .samples = samples,
                                             .tiling = VK_IMAGE_TILING_OPTIMAL,
                                             .usage = usage},
                        NULL, image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(h->device, *image, &req);
    VK_OK(vkAllocateMemory(
        h->device,
        &(VkMemoryAllocateInfo){.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size,
                                .memoryTypeIndex = memory_type(
                                    h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)},
        NULL, memory));
    VK_OK(vkBindImageMemory(h->device, *image, *memory, 0));
    VK_OK(vkCreateImageView(
        h->device,
        &(VkImageViewCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                 .image = *image,
                                 .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                 .format = format,
                                 .subresourceRange = {aspect, 0, 1, 0, 1}},
        NULL, view));
}

/* An image of the host's frames' size with `samples` a pixel, in device memory, with a view:
 * what the book draws into or copies into, and what the host reads back or resolves. */
static void host_image(const Host *h, VkSampleCountFlagBits samples, VkImage *image,
                       VkDeviceMemory *memory, VkImageView *view)
{
    host_image_as(h, samples, VK_FORMAT_R8G8B8A8_SRGB,
                  VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                  VK_IMAGE_ASPECT_COLOR_BIT, image, memory, view);
}

static void host_frames(Host *h, uint32_t width, uint32_t height)
{
    h->width = width, h->height = height;
    VK_OK(vkCreateCommandPool(
        h->device,
        &(VkCommandPoolCreateInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = h->family},
        NULL, &h->pool));
    VK_OK(vkAllocateCommandBuffers(
        h->device,
        &(VkCommandBufferAllocateInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = h->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 2},
        h->cmd));
    for (int i = 0; i < 2; i++)
        VK_OK(vkCreateFence(h->device,
                            &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO,
                                                 .flags = VK_FENCE_CREATE_SIGNALED_BIT},
                            NULL, &h->fence[i]));
    host_image(h, VK_SAMPLE_COUNT_1_BIT, &h->image, &h->image_memory, &h->view);
    VkDeviceSize bytes = (VkDeviceSize)width * height * 4;
    VK_OK(vkCreateBuffer(h->device,
                         &(VkBufferCreateInfo){.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                               .size = bytes,
                                               .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT},
                         NULL, &h->readback));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(h->device, h->readback, &req);
    VK_OK(vkAllocateMemory(h->device,
                           &(VkMemoryAllocateInfo){.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                                   .allocationSize = req.size,
                                                   .memoryTypeIndex = memory_type(
                                                       h, req.memoryTypeBits,
                                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)},
                           NULL, &h->readback_memory));
    VK_OK(vkBindBufferMemory(h->device, h->readback, h->readback_memory, 0));
    VK_OK(vkMapMemory(h->device, h->readback_memory, 0, bytes, 0, (void **)&h->pixels));
}

static void host_destroy(Host *h)
{
    vkDeviceWaitIdle(h->device);
    vkDestroyBuffer(h->device, h->readback, NULL);
    vkFreeMemory(h->device, h->readback_memory, NULL);
    vkDestroyImageView(h->device, h->view, NULL);
    vkDestroyImage(h->device, h->image, NULL);
    vkFreeMemory(h->device, h->image_memory, NULL);
    vkDestroyImageView(h->device, h->ms_view, NULL);
    vkDestroyImage(h->device, h->ms_image, NULL);
    vkFreeMemory(h->device, h->ms_memory, NULL);
    vkDestroyImageView(h->device, h->depth_view, NULL);
    vkDestroyImage(h->device, h->depth, NULL);
    vkFreeMemory(h->device, h->depth_memory, NULL);
    for (int i = 0; i < 2; i++)
        vkDestroyFence(h->device, h->fence[i], NULL);
    vkDestroyCommandPool(h->device, h->pool, NULL);
    if (h->own_device)
        vkDestroyDevice(h->device, NULL);
    if (h->own_instance) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)(void (*)(void))vkGetInstanceProcAddr(
                h->instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy(h->instance, h->messenger, NULL);
        vkDestroyInstance(h->instance, NULL);
    }
}

static void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                          VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
    VkImageMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                               .srcStageMask = src,
                               .srcAccessMask = src_access,
                               .dstStageMask = dst,
                               .dstAccessMask = dst_access,
                               .oldLayout = from,
                               .newLayout = to,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = 1,
                                                   .pImageMemoryBarriers = &b});
}

/* One frame as a host makes it: its own background (black) around the book's viewport, the book
 * recorded in between (copied in, or drawn straight into the image or the host's samples), the
 * image read back; waits for it when `wait`. */
/* The frame's end in `cmd`: the image (in TRANSFER_SRC_OPTIMAL, its writes waited for) copied
 * into the readback buffer for the host to read, then submitted with the slot's fence. */
static void host_submit_readback(Host *h, VkCommandBuffer cmd, uint32_t slot)
{
    vkCmdCopyImageToBuffer(
        cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, h->readback, 1,
        &(VkBufferImageCopy){.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {h->width, h->height, 1}});
    VkMemoryBarrier2 host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .memoryBarrierCount = 1,
                                                   .pMemoryBarriers = &host});
    VK_OK(vkEndCommandBuffer(cmd));
    VK_OK(vkQueueSubmit(h->queue, 1,
                        &(VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                        .commandBufferCount = 1,
                                        .pCommandBuffers = &cmd},
                        h->fence[slot]));
}

/* The host's own dynamic rendering into its cleared image with its own depth, the whole image
 * its area, the book drawn in it (pagecurl_book_draw): the image left in TRANSFER_SRC_OPTIMAL.
 * With `ms_image` the pass draws into the host's samples, cleared to its colour, and resolves
 * them into the image. */
static bool host_pass(Host *h, VkCommandBuffer cmd, pagecurl_book *book, uint32_t slot,
                      const pagecurl_target *target)
{
    image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VkImageMemoryBarrier2 depth = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                                   .srcStageMask = VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                   .srcAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                   .dstStageMask = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                                                   VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                                   .dstAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                   .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .newLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .image = h->depth,
                                   .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = 1,
                                                   .pImageMemoryBarriers = &depth});
    VkRenderingAttachmentInfo color = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                       .imageView = h->view,
                                       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
                                       .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    if (h->ms_image) { /* the last frame's resolve read the samples */
        image_barrier(
            cmd, h->ms_image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
            VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        color.imageView = h->ms_view;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.clearValue.color = h->clear;
        color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        color.resolveImageView = h->view;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    VkRenderingAttachmentInfo z = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                   .imageView = h->depth_view,
                                   .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                   .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                   .clearValue = {.depthStencil = {1.0f, 0}}};
    vkCmdBeginRendering(cmd, &(VkRenderingInfo){.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                                                .renderArea = {{0, 0}, {h->width, h->height}},
                                                .layerCount = 1,
                                                .colorAttachmentCount = 1,
                                                .pColorAttachments = &color,
                                                .pDepthAttachment = &z});
    pagecurl_error err;
    bool drawn = pagecurl_book_draw(book, cmd, slot, target, &err);
    if (!drawn)
        fprintf(stderr, "test_api: draw: %s\n", err.message);
    vkCmdEndRendering(cmd);
    image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
    return drawn;
}

static bool host_frame(Host *h, pagecurl_book *book, double time, bool wait)
{
    uint32_t slot = (uint32_t)(h->frame++ % 2);
    bool ms = h->direct && h->ms_image;
    pagecurl_target target = {
        .size = sizeof target,
        .image = ms ? h->ms_image : h->image,
        .view = !h->direct ? VK_NULL_HANDLE
                : ms       ? h->ms_view
                           : h->view,
        .keep = h->keep,
        .generation = h->generation,
        .extent = {h->width, h->height},
        .viewport = {{BORDER, BORDER}, {h->width - 2 * BORDER, h->height - 2 * BORDER}},
        .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .format = h->format,
        .in_pass = h->in_pass,
        .background_set = h->background_set,
    };
    memcpy(target.background, h->background, sizeof target.background);
    pagecurl_error err;
    if (!pagecurl_book_update(book, time, &target, &err)) {
        fprintf(stderr, "test_api: update: %s\n", err.message);
        return false;
    }
    VK_OK(vkWaitForFences(h->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX));
    VK_OK(vkResetFences(h->device, 1, &h->fence[slot]));
    VkCommandBuffer cmd = h->cmd[slot];
    VK_OK(vkBeginCommandBuffer(
        cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT}));
    /* the last frame's readback copy read the image */
    image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT);
    if (ms) /* the last frame's resolve read the samples */
        image_barrier(cmd, h->ms_image, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_RESOLVE_BIT, 0,
                      VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkClearColorValue black = {.float32 = {0.0f, 0.0f, 0.0f, 1.0f}};
    vkCmdClearColorImage(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         h->clear_set ? &h->clear : &black, 1,
                         &(VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    bool recorded = pagecurl_book_record(book, cmd, slot, &target, &err);
    if (!recorded)
        fprintf(stderr, "test_api: record: %s\n", err.message);
    if (h->in_pass && recorded) /* the host's own pass, the book drawn in it */
        recorded = host_pass(h, cmd, book, slot, &target);
    if (h->in_pass) {
        /* host_pass left the image in TRANSFER_SRC_OPTIMAL, its writes waited for */
    } else if (ms) { /* the samples, left in TRANSFER_SRC_OPTIMAL, resolved into the image */
        image_barrier(cmd, h->ms_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                      VK_PIPELINE_STAGE_2_RESOLVE_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                      VK_PIPELINE_STAGE_2_RESOLVE_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdResolveImage(cmd, h->ms_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, h->image,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                          &(VkImageResolve){.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                            .extent = {h->width, h->height, 1}});
        image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_RESOLVE_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_TRANSFER_READ_BIT);
    } else { /* the book left the image in TRANSFER_SRC_OPTIMAL, its writes available */
        image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    }
    host_submit_readback(h, cmd, slot);
    if (wait)
        VK_OK(vkWaitForFences(h->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX));
    return recorded;
}

static const uint8_t *pixel(const Host *h, uint32_t x, uint32_t y)
{
    return h->pixels + ((size_t)y * h->width + x) * 4;
}

/* Events polled since, counted by type; the last of each kept. */
typedef struct Seen {
    int count[PAGECURL_EVENT_ERROR + 1];
    pagecurl_event last[PAGECURL_EVENT_ERROR + 1];
} Seen;

static void poll(pagecurl_book *book, Seen *seen)
{
    pagecurl_event e;
    while (pagecurl_book_poll_event(book, &e))
        if (e.type >= 1 && e.type <= PAGECURL_EVENT_ERROR) {
            seen->count[e.type]++;
            seen->last[e.type] = e;
        }
}

static pagecurl_state state_of(const pagecurl_book *book)
{
    pagecurl_state s = {.size = sizeof s};
    pagecurl_book_state(book, &s);
    return s;
}

static void pointer(pagecurl_book *book, pagecurl_pointer_phase phase, pagecurl_pointer_kind kind,
                    uint64_t id, float fx, float fy, double time)
{
    pagecurl_pointer_event e = {.size = sizeof e,
                                .phase = phase,
                                .kind = kind,
                                .id = id,
                                .x = fx * (W - 2 * BORDER),
                                .y = fy * (H - 2 * BORDER),
                                .time = time};
    pagecurl_book_pointer(book, &e);
}

static bool draw_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba);
static void page_size(void *user, int page, float *width, float *height);

/* Every page `user`'s shape: width, height. */
static void shaped_size(void *user, int page, float *width, float *height)
{
    const float *shape = user;
    (void)page;
    *width = shape[0], *height = shape[1];
}

static bool blank_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    (void)user, (void)page;
    memset(rgba, 255, (size_t)width * height * 4);
    return true;
}

static void refusals(pagecurl_context *ctx)
{
    pagecurl_error err;
    pagecurl_book *b = pagecurl_book_create(ctx, &(pagecurl_book_desc){.size = 8}, &err);
    CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, ".size"),
          "a short description: %s", err.message);
    b = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page = 99}, &err);
    CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "16 page"),
          "page 99 of 16: %s", err.message);
    b = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .path = "/nonexistent/b"},
        &err);
    CHECK(&st,
          !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "/nonexistent/b") &&
              !strstr(err.message, "--"),
          "a missing book (named, and no command-line flag in a library's message): %s",
          err.message);
    b = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .provider = {.page_count = 3}},
        &err);
    CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE, "a provider without draw: %s",
          err.message);
    /* a provider whose count says no pages, or pages from a path and a provider: refused (a
     * count below 1 gave the built-in book, and the path was taken over the provider) */
    const pagecurl_page_provider pages[] = {{.page_count = -1, .draw_page = draw_page},
                                            {.page_count = 0, .draw_page = draw_page},
                                            {.page_count = 0, .page_size = page_size}};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        b = pagecurl_book_create(
            ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .provider = pages[i]},
            &err);
        CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "page_count"),
              "a provider of %d pages: %s", pages[i].page_count, err.message);
        pagecurl_book_destroy(b);
    }
    /* a page shape from 1:100 to 100:1 (a million to one was taken) */
    static const float shapes[][2] = {{1e6f, 1.0f},   {1.0f, 1e6f},   {101.0f, 1.0f},
                                      {1.0f, 101.0f}, {100.0f, 1.0f}, {1.0f, 100.0f}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        float shape[2] = {shapes[i][0], shapes[i][1]};
        b = pagecurl_book_create(ctx,
                                 &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                                       .provider = {.user = shape,
                                                                    .page_count = 2,
                                                                    .page_size = shaped_size,
                                                                    .draw_page = blank_page}},
                                 &err);
        bool within = i >= 4;
        CHECK(&st,
              within ? b != NULL
                     : !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "1:100"),
              "a provider's pages of %g x %g: %s, want %s", shape[0], shape[1],
              b ? "taken" : err.message, within ? "taken" : "refused");
        pagecurl_book_destroy(b);
    }
    b = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                              .path = "/nonexistent/b",
                              .provider = {.page_count = 3, .draw_page = draw_page}},
        &err);
    CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "path and provider"),
          "a path and a provider: %s", err.message);
    pagecurl_book_destroy(b);
    b = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .max_samples = 3}, &err);
    CHECK(&st, !b && err.status == PAGECURL_ERROR_USAGE, "3 samples: %s", err.message);
    /* a context of the library's own beside the host's: made (its own functions; test_contexts
     * draws with two at once) */
    pagecurl_context *second = pagecurl_context_create(NULL, &err);
    CHECK(&st, second != NULL, "a second context of the library's own: %s", err.message);
    pagecurl_context_destroy(second);
    /* NULL handles and answers: nothing done, nothing crashes, and errors are said */
    pagecurl_state state = {.size = sizeof state};
    pagecurl_event ev;
    pagecurl_limits limits = {.size = sizeof limits};
    char label[8] = "x";
    pagecurl_book_state(NULL, &state);
    pagecurl_context_limits(NULL, &limits);
    pagecurl_context_limits(ctx, NULL);
    pagecurl_book_page_label(NULL, 1, label, sizeof label);
    pagecurl_book_pointer(NULL, NULL);
    pagecurl_book_set_ink_mode(NULL, true);
    CHECK(&st,
          !pagecurl_book_record(NULL, VK_NULL_HANDLE, 0, NULL, &err) &&
              err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "no book"),
          "a record of no book: %s", err.message);
    CHECK(&st, !pagecurl_book_record(NULL, VK_NULL_HANDLE, 0, NULL, NULL), "a record of no book");
    CHECK(&st,
          !pagecurl_book_poll_event(NULL, &ev) && pagecurl_book_page_count(NULL) == 0 &&
              !pagecurl_book_action(NULL, PAGECURL_ACTION_NEXT, 0.0) &&
              !pagecurl_book_go_to(NULL, 1) && pagecurl_book_stroke_count(NULL, 0) == 0 &&
              pagecurl_book_outline_find(NULL, "a", 0) == -1 &&
              pagecurl_book_page_height(NULL) == 0.0f && pagecurl_context_messages(NULL) == 0 &&
              pagecurl_context_surface(NULL) == VK_NULL_HANDLE && label[0] == '\0',
          "NULL handles answered");
    CHECK(&st,
          !pagecurl_book_create(NULL, NULL, &err) && err.status == PAGECURL_ERROR_USAGE &&
              strstr(err.message, "no context"),
          "a book of no context: %s", err.message);
    CHECK(&st,
          !pagecurl_book_update(NULL, 0.0, NULL, &err) && err.status == PAGECURL_ERROR_USAGE &&
              strstr(err.message, "no book"),
          "an update of no book: %s", err.message);
    b = pagecurl_book_create(ctx, NULL, &err);
    CHECK(&st, b, "the built-in book: %s", err.message);
    if (b) {
        CHECK(&st,
              !pagecurl_book_update(b, 0.0, NULL, &err) && err.status == PAGECURL_ERROR_USAGE &&
                  strstr(err.message, "no target"),
              "an update without a target: %s", err.message);
        pagecurl_target target = {.size = sizeof target, .extent = {64, 64}};
        CHECK(&st,
              !pagecurl_book_update(b, NAN, &target, &err) && err.status == PAGECURL_ERROR_USAGE &&
                  strstr(err.message, "time"),
              "an update at NaN s: %s", err.message);
        CHECK(&st,
              !pagecurl_book_render(b, INFINITY,
                                    &(pagecurl_render_desc){.size = sizeof(pagecurl_render_desc)},
                                    NULL, &err) &&
                  err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "time"),
              "a render at infinity: %s", err.message);
        target.viewport = (VkRect2D){{0, 0}, {64, 0}};
        CHECK(&st,
              !pagecurl_book_update(b, 0.0, &target, &err) && err.status == PAGECURL_ERROR_USAGE &&
                  strstr(err.message, "viewport"),
              "a viewport 64 x 0: %s", err.message);
        CHECK(&st, !pagecurl_book_poll_event(b, NULL), "an event polled into nothing");
        pagecurl_book_destroy(b);
    }
}

/* The program's own screenshot of the pose, and the host's viewport of the same pose. */
static void pixels_match_program(Host *h, pagecurl_context *ctx, const char *exe, const char *dir)
{
    char shot[4096];
    snprintf(shot, sizeof shot, "%s/program.png", dir);
    char size[32];
    snprintf(size, sizeof size, "%dx%d", W - 2 * BORDER, H - 2 * BORDER);
    Run r = run_program(exe, dir, NULL,
                        (const char *const[]){"--headless", "--size", size, "--page", "3", "--curl",
                                              "0.3", "--grab", "0.25", "--screenshot", shot, NULL});
    CHECK(&st, r.status == 0, "the program's screenshot: %d %s", r.status, r.err);
    Image want = image_load(shot);
    pagecurl_error err;
    pagecurl_book *book = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){
            .size = sizeof(pagecurl_book_desc), .page = 3, .wait_for_pages = true},
        &err);
    CHECK(&st, book != NULL, "the built-in book: %s", err.message);
    if (!book || !want.rgba) {
        image_free(&want);
        return;
    }
    CHECK(&st, pagecurl_book_page_count(book) == 16, "pages %d", pagecurl_book_page_count(book));
    CHECK(&st, pagecurl_book_find_page(book, "7") == 7, "page 7 by number");
    pagecurl_state bound = {.size = sizeof bound};
    pagecurl_book_state(book, &bound);
    CHECK(&st, !bound.bound_right, "the built-in book binds on the left");
    CHECK(&st, pagecurl_book_hold(book, 0.3f, 0.25f, false), "hold the turn");
    CHECK(&st, host_frame(h, book, 0.0, true), "a frame");
    char label[64] = "x";
    pagecurl_book_page_label(book, 3, label, sizeof label);
    CHECK(&st,
          pagecurl_book_find_page(book, "16") == 16 && !pagecurl_book_find_page(book, "17") &&
              !pagecurl_book_find_page(book, "iv") && label[0] == '\0',
          "pages found by number once streaming (16: %d, 17: %d, iv: %d), no labels ('%s')",
          pagecurl_book_find_page(book, "16"), pagecurl_book_find_page(book, "17"),
          pagecurl_book_find_page(book, "iv"), label);
    int vw = W - 2 * BORDER, vh = H - 2 * BORDER, diff = 0, border = 0;
    for (int y = 0; y < vh; y++)
        for (int x = 0; x < vw; x++)
            diff += memcmp(pixel(h, (uint32_t)(x + BORDER), (uint32_t)(y + BORDER)),
                           want.rgba + ((size_t)y * (size_t)want.w + (size_t)x) * 4, 4) != 0;
    for (uint32_t x = 0; x < h->width; x++)
        for (uint32_t y = 0; y < h->height; y++)
            if (x < BORDER || y < BORDER || x >= h->width - BORDER || y >= h->height - BORDER) {
                const uint8_t *p = pixel(h, x, y);
                border += p[0] || p[1] || p[2] || p[3] != 255;
            }
    CHECK(&st, want.w == vw && want.h == vh && diff == 0,
          "the host's viewport and the program's screenshot differ in %d pixels", diff);
    CHECK(&st, border == 0, "%d of the host's own pixels were drawn over", border);
    /* a pose really was drawn: the leaf's shadow and the pages make more than one colour */
    const uint8_t *a = pixel(h, BORDER + 10, BORDER + 10), *c = pixel(h, W / 2 + 60, H / 2);
    CHECK(&st, memcmp(a, c, 3) != 0, "one colour everywhere");
    pagecurl_book_destroy(book);
    image_free(&want);
}

/* Turns by key, by drag, a cancelled drag, a second pointer, ink, go to. */
static void interaction(Host *h, pagecurl_context *ctx)
{
    pagecurl_error err;
    pagecurl_book *book = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page = 3}, &err);
    CHECK(&st, book != NULL, "book: %s", err.message);
    if (!book)
        return;
    Seen seen = {0};
    double t = 0.0;
    host_frame(h, book, t, false);
    pagecurl_state s = state_of(book);
    CHECK(&st, s.left == 2 && s.right == 3 && !s.turning, "opens at 2|3: %d|%d", s.left, s.right);
    /* a key turn */
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t), "next");
    for (int f = 0; f < 90; f++)
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, s.left == 4 && s.right == 5 && !s.turning, "next: %d|%d", s.left, s.right);
    CHECK(&st,
          seen.count[PAGECURL_EVENT_TURN_STARTED] == 1 &&
              seen.count[PAGECURL_EVENT_TURN_ENDED] == 1 &&
              seen.last[PAGECURL_EVENT_TURN_ENDED].completed &&
              seen.last[PAGECURL_EVENT_TURN_ENDED].forward &&
              seen.last[PAGECURL_EVENT_TURN_STARTED].right == 3 &&
              seen.count[PAGECURL_EVENT_SPREAD_CHANGED] == 1 &&
              seen.last[PAGECURL_EVENT_SPREAD_CHANGED].right == 5,
          "key turn's events: started %d ended %d spread %d",
          seen.count[PAGECURL_EVENT_TURN_STARTED], seen.count[PAGECURL_EVENT_TURN_ENDED],
          seen.count[PAGECURL_EVENT_SPREAD_CHANGED]);
    /* a drag from the right page's edge across the spine */
    memset(&seen, 0, sizeof seen);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_MOUSE, 1, 0.75f, 0.7f, t);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_FINGER, 2, 0.2f, 0.5f, t);
    for (int k = 1; k <= 20; k++) {
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_MOUSE, 1, 0.75f - 0.025f * k, 0.7f,
                t);
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_FINGER, 2, 0.95f, 0.7f, t);
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
        if (k == 10) {
            s = state_of(book);
            CHECK(&st, s.turning && s.held && s.progress > 0.0f, "held mid-drag: %d %d %.2f",
                  s.turning, s.held, (double)s.progress);
        }
    }
    pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_MOUSE, 1, 0.25f, 0.7f, t);
    /* the view the drag pulled back eases back to rest after the leaf lies down: still moving */
    int easing = 0;
    for (int f = 0; f < 90; f++) {
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
        s = state_of(book);
        easing += seen.count[PAGECURL_EVENT_TURN_ENDED] && !s.turning && s.moving;
    }
    CHECK(&st, easing > 0 && !s.moving,
          "the view after the drag: %d frames moving after it ended, %s at last", easing,
          s.moving ? "still moving" : "at rest");
    CHECK(&st, s.left == 6 && s.right == 7, "dragged over: %d|%d", s.left, s.right);
    CHECK(&st, seen.last[PAGECURL_EVENT_TURN_ENDED].completed, "the drag completed");
    /* zoom: set about a point and read back; a pan held within its limits; back to fit */
    float vw = (float)(h->width - 2 * BORDER), vh = (float)(h->height - 2 * BORDER);
    CHECK(&st, pagecurl_book_set_zoom(book, 3.0f, 0.5f * vw, 0.5f * vh, t), "set_zoom refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_zoom zoom = {.size = sizeof zoom};
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, fabsf(zoom.zoom - 3.0f) < 1e-5f && !zoom.moving, "zoomed to %.3f (moving %d)",
          (double)zoom.zoom, zoom.moving);
    /* a pan on its way is drawn on whole pixels (the renderer moves the last frame's picture:
     * gpu/renderer.h), exactly once it has rested BOOK_ZOOM_PAN_REST (0.05 s), and it moves until
     * then */
    float x0 = zoom.x, y0 = zoom.y;
    int whole = 0;
    for (int f = 1; f <= 3; f++) {
        CHECK(&st, pagecurl_book_pan(book, 2.3, 1.7, t), "pan refused");
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
        pagecurl_book_get_zoom(book, &zoom);
        s = state_of(book);
        whole += fabsf(zoom.x - roundf(zoom.x)) < 1e-3f && fabsf(zoom.y - roundf(zoom.y)) < 1e-3f &&
                 fabsf(zoom.x - (x0 + 2.3f * f)) <= 0.5f &&
                 fabsf(zoom.y - (y0 + 1.7f * f)) <= 0.5f && s.moving;
    }
    int resting = 0;
    do {
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
        pagecurl_book_get_zoom(book, &zoom);
        s = state_of(book);
    } while (s.moving && ++resting < 10);
    CHECK(&st, whole == 3, "%d of 3 frames of a pan on whole pixels, moving", whole);
    /* 0.05 s is 3 frames at 60 Hz, the third of which may fall either side of it */
    CHECK(&st, resting == 2 || resting == 3,
          "the pan came to rest after %d frames (2 or 3 of 60 Hz expected)", resting);
    CHECK(&st,
          fabsf(zoom.x - (x0 + 6.9f)) < 1e-3f && fabsf(zoom.y - (y0 + 5.1f)) < 1e-3f && !s.moving,
          "the pan at rest at %.3f, %.3f (%.3f, %.3f expected; moving %d)", (double)zoom.x,
          (double)zoom.y, (double)(x0 + 6.9f), (double)(y0 + 5.1f), s.moving);
    CHECK(&st, pagecurl_book_pan(book, 1e6f, 0.0f, t), "pan refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, zoom.x > 0.0f && zoom.x < 2.0f * vw, "a pan far right held at %.1f px",
          (double)zoom.x);
    CHECK(&st, pagecurl_book_set_zoom(book, 1.0f, 0.0f, 0.0f, t), "set_zoom 1 refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, zoom.zoom == 1.0f && zoom.x == 0.0f && zoom.y == 0.0f, "fitted: %.3f at %.1f,%.1f",
          (double)zoom.zoom, (double)zoom.x, (double)zoom.y);
    /* by a factor, a double click's toggle, back to fit */
    CHECK(&st,
          pagecurl_book_zoom_by(book, 1.25f, 0.5f * vw, 0.5f * vh, t) &&
              pagecurl_book_zoom_by(book, 1.25f, 0.5f * vw, 0.5f * vh, t),
          "zoom_by refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, fabsf(zoom.zoom - 1.5625f) < 1e-5f, "zoomed by 1.25 twice: %.4f", (double)zoom.zoom);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_ZOOM_FIT, t), "zoom fit refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, zoom.zoom == 1.0f, "fitted by the action: %.4f", (double)zoom.zoom);
    CHECK(&st, pagecurl_book_zoom_toggle(book, 0.3f * vw, 0.4f * vh, t), "toggle refused");
    for (int f = 0; f < 40; f++) /* it eases in */
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, fabsf(zoom.zoom - 2.5f) < 1e-4f, "toggled in: %.4f", (double)zoom.zoom);
    CHECK(&st, pagecurl_book_zoom_toggle(book, 0.3f * vw, 0.4f * vh, t), "toggle refused");
    for (int f = 0; f < 40; f++)
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, zoom.zoom == 1.0f, "toggled back: %.4f", (double)zoom.zoom);
    /* fitted to a page's width (the right-hand one: no pixel given), scrolled down it, fitted
     * back to the page; a fit of no kind is refused */
    CHECK(&st, pagecurl_book_fit(book, PAGECURL_FIT_WIDTH, NAN, NAN, t), "fit width refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    float head = zoom.y;
    CHECK(&st, zoom.fit == PAGECURL_FIT_WIDTH && zoom.zoom > 1.5f,
          "fitted to width: fit %d, zoom %.3f", (int)zoom.fit, (double)zoom.zoom);
    CHECK(&st, pagecurl_book_scroll(book, 0.25f, t), "scroll refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, fabsf(zoom.y - (head - 0.25f * vh)) < 0.01f * vh && zoom.fit == PAGECURL_FIT_WIDTH,
          "a scroll of a quarter moved the pan from %.1f to %.1f px", (double)head, (double)zoom.y);
    /* the view kept (a reader's place): fitted to width a quarter down, given back after a fit */
    pagecurl_book_get_zoom(book, &zoom);
    pagecurl_zoom kept = zoom;
    CHECK(&st, kept.page >= 1 && kept.down > 0.05f && kept.down < 1.0f,
          "fitted to width a quarter down: page %d, down %.3f", kept.page, (double)kept.down);
    CHECK(&st, pagecurl_book_fit(book, PAGECURL_FIT_PAGE, 0.0, 0.0, t), "fit page refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    CHECK(&st, pagecurl_book_set_view(book, &kept, t), "set_view (width) refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st,
          zoom.fit == PAGECURL_FIT_WIDTH && zoom.page == kept.page &&
              fabsf(zoom.down - kept.down) < 1e-4f && fabsf(zoom.y - kept.y) < 0.01f * vh &&
              fabsf(zoom.zoom - kept.zoom) < 1e-4f,
          "the width's view given back: fit %d page %d down %.4f (%.4f) pan %.1f (%.1f)",
          (int)zoom.fit, zoom.page, (double)zoom.down, (double)kept.down, (double)zoom.y,
          (double)kept.y);
    pagecurl_zoom zoomed = {.size = sizeof zoomed, .zoom = 2.0f, .x = 0.1f * vw, .y = 0.05f * vh};
    CHECK(&st, pagecurl_book_set_view(book, &zoomed, t), "set_view (zoom) refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st,
          zoom.fit == PAGECURL_FIT_PAGE && zoom.page == 0 && fabsf(zoom.zoom - 2.0f) < 1e-4f &&
              fabsf(zoom.x - zoomed.x) < 0.5f && fabsf(zoom.y - zoomed.y) < 0.5f,
          "the zoom's view given back: fit %d zoom %.3f pan %.1f,%.1f", (int)zoom.fit,
          (double)zoom.zoom, (double)zoom.x, (double)zoom.y);
    pagecurl_zoom short_view = zoomed;
    short_view.size = (uint32_t)offsetof(pagecurl_zoom, page);
    zoomed.down = NAN;
    CHECK(&st,
          !pagecurl_book_set_view(book, &short_view, t) &&
              !pagecurl_book_set_view(book, &zoomed, t),
          "set_view took a view without `down`, or one not finite");
    CHECK(&st, !pagecurl_book_fit(book, (pagecurl_fit)7, 0.0, 0.0, t), "a fit of no kind taken");
    CHECK(&st, pagecurl_book_fit(book, PAGECURL_FIT_PAGE, 0.0, 0.0, t), "fit page refused");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pagecurl_book_get_zoom(book, &zoom);
    CHECK(&st, zoom.zoom == 1.0f && zoom.fit == PAGECURL_FIT_PAGE, "fitted back: %.4f, fit %d",
          (double)zoom.zoom, (int)zoom.fit);
    /* a drag the system cancels falls back */
    memset(&seen, 0, sizeof seen);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_FINGER, 7, 0.75f, 0.7f, t);
    for (int k = 1; k <= 20; k++) {
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_FINGER, 7, 0.75f - 0.025f * k, 0.7f,
                t);
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    }
    pointer(book, PAGECURL_POINTER_CANCEL, PAGECURL_POINTER_FINGER, 7, 0.25f, 0.7f, t);
    for (int f = 0; f < 90; f++)
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st,
          s.left == 6 && s.right == 7 && seen.count[PAGECURL_EVENT_TURN_ENDED] == 1 &&
              !seen.last[PAGECURL_EVENT_TURN_ENDED].completed,
          "a cancelled drag falls back: %d|%d, ended %d", s.left, s.right,
          seen.count[PAGECURL_EVENT_TURN_ENDED]);
    /* a pen draws, never turns; undo takes the stroke back */
    memset(&seen, 0, sizeof seen);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 3, 0.7f, 0.4f, t);
    for (int k = 1; k <= 10; k++)
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 3, 0.7f - 0.02f * k, 0.45f, t);
    pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 3, 0.5f, 0.45f, t);
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, pagecurl_book_stroke_count(book, 0) == 1 && pagecurl_book_stroke_count(book, 7) == 1,
          "a pen stroke on page 7: %u in all", pagecurl_book_stroke_count(book, 0));
    CHECK(&st, !s.turning && s.right == 7, "the pen turned a page");
    CHECK(&st,
          seen.count[PAGECURL_EVENT_INK_CHANGED] == 1 &&
              seen.last[PAGECURL_EVENT_INK_CHANGED].page == 7,
          "ink event: %d on page %d", seen.count[PAGECURL_EVENT_INK_CHANGED],
          seen.last[PAGECURL_EVENT_INK_CHANGED].page);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_UNDO, t), "undo");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    CHECK(&st,
          pagecurl_book_stroke_count(book, 0) == 0 && seen.count[PAGECURL_EVENT_INK_CHANGED] == 2,
          "undone: %u strokes", pagecurl_book_stroke_count(book, 0));
    CHECK(&st, !pagecurl_book_action(book, PAGECURL_ACTION_UNDO, t), "nothing left to undo");
    /* a pen writes while a finger holds the page; the state names the page being drawn on */
    uint64_t revision = pagecurl_book_ink_revision(book);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_FINGER, 8, 0.75f, 0.7f, t);
    pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_FINGER, 8, 0.7f, 0.7f, t);
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 9, 0.3f, 0.4f, t);
    pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 9, 0.32f, 0.42f, t);
    s = state_of(book);
    CHECK(&st, s.held && s.drawing == 6 && pagecurl_book_ink_revision(book) > revision,
          "a pen on page 6 while a finger holds the leaf: held %d, drawing on %d", s.held,
          s.drawing);
    pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 9, 0.32f, 0.42f, t);
    pointer(book, PAGECURL_POINTER_CANCEL, PAGECURL_POINTER_FINGER, 8, 0.7f, 0.7f, t);
    for (int f = 0; f < 90; f++)
        host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, s.drawing == 0 && pagecurl_book_stroke_count(book, 6) == 1 && s.right == 7,
          "after the pen: drawing on %d, %u strokes on page 6, at %d", s.drawing,
          pagecurl_book_stroke_count(book, 6), s.right);
    /* cleared where it lies, at the time given */
    CHECK(&st, !pagecurl_book_clear_at(book, -100.0, -100.0, t), "a clear off the book");
    CHECK(&st,
          pagecurl_book_clear_at(book, 0.3 * vw, 0.4 * vh, t) &&
              pagecurl_book_stroke_count(book, 6) == 0,
          "the clear at the stroke left %u", pagecurl_book_stroke_count(book, 6));
    CHECK(&st,
          pagecurl_book_action(book, PAGECURL_ACTION_UNDO, t) &&
              pagecurl_book_stroke_count(book, 6) == 1,
          "undo of the clear");
    CHECK(&st,
          pagecurl_book_action(book, PAGECURL_ACTION_UNDO, t) &&
              pagecurl_book_stroke_count(book, 6) == 0,
          "undo of the stroke");
    /* go to, first, last */
    CHECK(&st, pagecurl_book_go_to(book, 9), "go to 9");
    CHECK(&st, !pagecurl_book_go_to(book, 17) && !pagecurl_book_go_to(book, 0), "go to 17, 0");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, s.left == 8 && s.right == 9, "at 8|9: %d|%d", s.left, s.right);
    /* a place asked for while a turn settles is gone to at once, as a reader expects */
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t), "next from 8|9");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_FIRST, t), "first during a turn");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, s.left == 0 && s.right == 1 && !s.turning, "first: %d|%d", s.left, s.right);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t), "next from the first");
    CHECK(&st, pagecurl_book_go_to(book, 9), "go to 9 during a turn");
    host_frame(h, book, t += 1.0 / 60.0, false), poll(book, &seen);
    s = state_of(book);
    CHECK(&st, s.left == 8 && s.right == 9, "at 8|9 again: %d|%d", s.left, s.right);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_LAST, t), "last");
    host_frame(h, book, t += 1.0 / 60.0, true);
    s = state_of(book);
    CHECK(&st, s.left == 16 && s.right == 0, "last: %d|%d", s.left, s.right);
    pagecurl_book_destroy(book);
}

/* The viewport's pixels of the host's last frame, waited for. */
static uint8_t *viewport_copy(const Host *h)
{
    size_t row = (size_t)(W - 2 * BORDER) * 4;
    uint8_t *out = malloc(row * (H - 2 * BORDER));
    if (out)
        for (uint32_t y = 0; y < H - 2 * BORDER; y++)
            memcpy(out + y * row, pixel(h, BORDER, y + BORDER), row);
    return out;
}

static size_t pixels_differ(const uint8_t *a, const uint8_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)(W - 2 * BORDER) * (H - 2 * BORDER); i++)
        n += memcmp(a + 4 * i, b + 4 * i, 4) != 0;
    return n;
}

/* A book of `desc` (its size set here), checked made. */
static pagecurl_book *made(pagecurl_context *ctx, pagecurl_book_desc desc)
{
    pagecurl_error err;
    desc.size = sizeof desc;
    pagecurl_book *book = pagecurl_book_create(ctx, &desc, &err);
    CHECK(&st, book != NULL, "book: %s", err.message);
    return book;
}

static pagecurl_book *book_at_3(pagecurl_context *ctx)
{
    return made(ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true});
}

/* A book made for targets of the host's format (pagecurl_book_desc.target_format) copies its
 * frames into a target that says that format, where a book without it blits: the same pixels in
 * the same place. A format the device cannot draw in is refused at the first update. */
static void copied_frames(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *blitted = book_at_3(ctx);
    pagecurl_book *copied =
        made(ctx, (pagecurl_book_desc){
                      .page = 3, .wait_for_pages = true, .target_format = VK_FORMAT_R8G8B8A8_SRGB});
    pagecurl_book *depth = made(ctx, (pagecurl_book_desc){.target_format = VK_FORMAT_D32_SFLOAT});
    uint8_t *want = NULL, *got = NULL;
    if (blitted && copied && depth) {
        host_frame(h, blitted, 0.0, true);
        want = viewport_copy(h);
        h->format = VK_FORMAT_R8G8B8A8_SRGB;
        host_frame(h, copied, 0.0, true);
        got = viewport_copy(h);
        size_t differ = want && got ? pixels_differ(want, got) : 1;
        CHECK(&st, differ == 0, "a frame copied in: %zu pixels differ from the frame blitted in",
              differ);
        pagecurl_target target = {.size = sizeof target,
                                  .image = h->image,
                                  .extent = {h->width, h->height},
                                  .format = h->format};
        pagecurl_error err;
        CHECK(&st,
              !pagecurl_book_update(depth, 0.0, &target, &err) &&
                  strstr(err.message, "target_format"),
              "a depth format as the targets' format: %s", err.message);
        h->format = 0;
    }
    free(want);
    free(got);
    pagecurl_book_destroy(blitted);
    pagecurl_book_destroy(copied);
    pagecurl_book_destroy(depth);
}

/* A second target in the same frame (a thumbnail): recorded after the first with the same slot, a
 * viewport of half the first's size gets the first's picture scaled (here both in the host's one
 * image, side by side); one drawn straight into, or before any frame of the slot, is refused. */
#define MAIN_W 400
#define MAIN_H 250
static void second_target(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book = book_at_3(ctx);
    if (!book)
        return;
    pagecurl_target first = {
        .size = sizeof first,
        .image = h->image,
        .extent = {h->width, h->height},
        .viewport = {{0, 0}, {MAIN_W, MAIN_H}},
        .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
    };
    /* after the first's copy: the image as the first left it */
    pagecurl_target thumb = first;
    thumb.viewport = (VkRect2D){{MAIN_W, 0}, {MAIN_W / 2, MAIN_H / 2}};
    thumb.layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    thumb.src_stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    thumb.src_access = VK_ACCESS_2_MEMORY_WRITE_BIT;
    pagecurl_error err;
    bool updated = pagecurl_book_update(book, 0.0, &first, &err);
    CHECK(&st, updated, "the first target's update: %s", updated ? "" : err.message);
    uint32_t slot = (uint32_t)(h->frame++ % 2);
    VK_OK(vkWaitForFences(h->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX));
    VK_OK(vkResetFences(h->device, 1, &h->fence[slot]));
    VkCommandBuffer cmd = h->cmd[slot];
    VK_OK(vkBeginCommandBuffer(
        cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT}));
    image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COPY_BIT, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdClearColorImage(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         &(VkClearColorValue){.float32 = {0.0f, 0.0f, 0.0f, 1.0f}}, 1,
                         &(VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
    pagecurl_target early = thumb;
    CHECK(&st,
          !pagecurl_book_record(book, cmd, slot, &early, &err) &&
              err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "second target"),
          "a second target before the first: %s", err.message);
    bool drawn = pagecurl_book_record(book, cmd, slot, &first, &err);
    CHECK(&st, drawn, "the first target: %s", drawn ? "" : err.message);
    pagecurl_target viewed = thumb;
    viewed.view = h->view;
    CHECK(&st,
          !pagecurl_book_record(book, cmd, slot, &viewed, &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "a second target drawn straight into: %s", err.message);
    bool copied = pagecurl_book_record(book, cmd, slot, &thumb, &err);
    CHECK(&st, copied, "the second target: %s", copied ? "" : err.message);
    image_barrier(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                  VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    host_submit_readback(h, cmd, slot);
    VK_OK(vkWaitForFences(h->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX));
    /* the thumbnail against the first picture averaged over 2 x 2 pixels: close everywhere, and a
     * picture (paper and backdrop), not the host's black */
    double off = 0.0;
    int lo = 255, hi = 0;
    for (uint32_t y = 0; y < MAIN_H / 2; y++)
        for (uint32_t x = 0; x < MAIN_W / 2; x++) {
            const uint8_t *t = pixel(h, MAIN_W + x, y);
            for (int c = 0; c < 3; c++) {
                int sum = pixel(h, 2 * x, 2 * y)[c] + pixel(h, 2 * x + 1, 2 * y)[c] +
                          pixel(h, 2 * x, 2 * y + 1)[c] + pixel(h, 2 * x + 1, 2 * y + 1)[c];
                off += fabs(t[c] - sum / 4.0);
                lo = t[c] < lo ? t[c] : lo;
                hi = t[c] > hi ? t[c] : hi;
            }
        }
    off /= (MAIN_W / 2) * (MAIN_H / 2) * 3.0;
    printf("a second target: off the first's picture by %.2f a channel on average, %d .. %d\n", off,
           lo, hi);
    CHECK(&st, off < 4.0 && hi - lo > 100,
          "a second target: off the first's picture by %.2f a channel, values %d .. %d", off, lo,
          hi);
    pagecurl_book_destroy(book);
}

/* The most two frames' viewports differ by in a channel, and the pixels that differ by more
 * than `by`. */
static size_t pixels_apart(const uint8_t *a, const uint8_t *b, int by, int *most)
{
    size_t n = 0;
    *most = 0;
    for (size_t i = 0; i < (size_t)(W - 2 * BORDER) * (H - 2 * BORDER); i++) {
        int d = 0;
        for (int c = 0; c < 3; c++) {
            int e = abs((int)a[4 * i + c] - (int)b[4 * i + c]);
            d = e > d ? e : d;
        }
        *most = d > *most ? d : *most;
        n += d > by;
    }
    return n;
}

/* The host's frames of `book` drawn `direct`ly (with `keep`), its leaf held up by a pointer
 * (so that the shadow's pieces of the viewport and the still pages' cache are drawn too): the
 * last one's viewport's pixels. */
static uint8_t *frame_of(Host *h, pagecurl_book *book, bool direct, bool keep)
{
    h->direct = direct, h->keep = keep;
    bool ok = book && host_frame(h, book, 0.0, true);
    for (int f = 1; ok && f <= 12; f++) {
        float x = 0.75f - 0.02f * (float)(f < 8 ? f : 8);
        pointer(book, f == 1 ? PAGECURL_POINTER_DOWN : PAGECURL_POINTER_MOVE,
                PAGECURL_POINTER_MOUSE, 1, x, 0.7f, f / 60.0);
        ok = host_frame(h, book, f / 60.0, true);
    }
    h->direct = h->keep = false;
    return ok ? viewport_copy(h) : NULL;
}

/* A book drawn straight into the host's image (pagecurl_target.view) draws the pixels it copies
 * in; with `keep` the host's background stays where no paper lies and the paper is the same;
 * into the host's 4x samples, which the host resolves, the pixels of its own 4x frame copied in.
 * Views the book cannot draw into, and viewports outside the image, are refused. */
static void direct_frames(Host *h, pagecurl_context *ctx)
{
    h->format = VK_FORMAT_R8G8B8A8_SRGB;
    pagecurl_book_desc one = {.page = 3,
                              .wait_for_pages = true,
                              .target_format = VK_FORMAT_R8G8B8A8_SRGB,
                              .target_samples = 1};
    pagecurl_book *copied = made(ctx, one), *straight = made(ctx, one), *kept = made(ctx, one);
    uint8_t *want = frame_of(h, copied, false, false);
    uint8_t *got = frame_of(h, straight, true, false);
    uint8_t *over = frame_of(h, kept, true, true);
    int most = 0;
    /* the rasteriser's sums at another offset in the image may round a level apart */
    size_t apart = want && got ? pixels_apart(want, got, 1, &most) : 1;
    CHECK(&st, apart == 0,
          "drawn straight in: %zu pixels differ by more than 1 from the frame copied in (%d)",
          apart, most);
    /* the book's backdrop, where the copied frame has no paper: its top left corner */
    size_t backdrop = 0, host = 0, wrong = 0, edge = 0;
    for (size_t i = 0; want && over && i < (size_t)(W - 2 * BORDER) * (H - 2 * BORDER); i++) {
        const uint8_t *a = want + 4 * i, *b = over + 4 * i;
        bool empty = !memcmp(a, want, 3);
        backdrop += empty;
        host += b[0] == 0 && b[1] == 0 && b[2] == 0;
        /* the paper the same (within 4: kept, the frame is drawn without the still pages'
         * cache, as a frame after a change is: rendering.md); its edges blended over black,
         * darker; the backdrop the host's */
        if (empty ? b[0] || b[1] || b[2] : b[0] > a[0] + 4 || b[1] > a[1] + 4 || b[2] > a[2] + 4)
            wrong++;
        /* only the paper's edges blend with what lies behind them */
        edge += !empty && (abs(a[0] - b[0]) > 4 || abs(a[1] - b[1]) > 4 || abs(a[2] - b[2]) > 4);
    }
    size_t paper = (size_t)(W - 2 * BORDER) * (H - 2 * BORDER) - backdrop;
    CHECK(&st,
          want && over && backdrop > 1000 && host >= backdrop && wrong == 0 && edge > 0 &&
              edge * 50 < paper,
          "kept: %zu of the host's pixels where the book's backdrop is %zu, %zu pixels wrong, "
          "%zu of %zu paper pixels blended over the host's",
          host, backdrop, wrong, edge, paper);
    free(want), free(got), free(over);
    pagecurl_book_destroy(copied), pagecurl_book_destroy(straight), pagecurl_book_destroy(kept);

    pagecurl_book_desc four = one;
    four.target_samples = 4;
    copied = made(ctx, four), straight = made(ctx, four);
    /* the host's 4x samples, which the book draws into and the host resolves */
    host_image(h, VK_SAMPLE_COUNT_4_BIT, &h->ms_image, &h->ms_memory, &h->ms_view);
    want = frame_of(h, copied, false, false);
    got = frame_of(h, straight, true, false);
    apart = want && got ? pixels_apart(want, got, 1, &most) : 1;
    /* the host's resolve and the book's own may round the samples' mean apart */
    CHECK(&st, apart == 0, "drawn into the host's samples: %zu pixels differ by more than 1 (%d)",
          apart, most);
    free(want), free(got);
    pagecurl_book_destroy(copied), pagecurl_book_destroy(straight);

    pagecurl_book *none = made(ctx, (pagecurl_book_desc){.target_format = VK_FORMAT_R8G8B8A8_SRGB});
    pagecurl_book *book = made(ctx, one);
    pagecurl_target t = {.size = sizeof t,
                         .image = h->image,
                         .view = h->view,
                         .extent = {h->width, h->height},
                         .format = VK_FORMAT_R8G8B8A8_SRGB};
    pagecurl_error err = {0};
    CHECK(&st,
          none && !pagecurl_book_update(none, 0.0, &t, &err) &&
              strstr(err.message, "target_samples"),
          "a view for a book without target_samples: %s", err.message);
    t.format = VK_FORMAT_B8G8R8A8_SRGB;
    CHECK(&st, book && !pagecurl_book_update(book, 0.0, &t, &err) && strstr(err.message, "format"),
          "a view in another format: %s", err.message);
    t.format = VK_FORMAT_R8G8B8A8_SRGB;
    t.viewport = (VkRect2D){{W / 2, 0}, {W / 2 + 1, H}};
    CHECK(&st, book && !pagecurl_book_update(book, 0.0, &t, &err) && strstr(err.message, "within"),
          "a viewport past the image: %s", err.message);
    t.viewport = (VkRect2D){{0}, {0}};
    t.view = VK_NULL_HANDLE, t.keep = true;
    CHECK(&st, book && !pagecurl_book_update(book, 0.0, &t, &err) && strstr(err.message, "keep"),
          "keep without a view: %s", err.message);
    CHECK(&st,
          !pagecurl_book_create(
              ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .target_samples = 3},
              &err) &&
              strstr(err.message, "target_samples"),
          "3 samples: %s", err.message);
    pagecurl_book_destroy(none), pagecurl_book_destroy(book);
    h->format = 0;
}

/* The viewport pixel (as fractions of it) where the host's camera `m` shows the book's point
 * (x, y, 0). */
static void shown_at(const float m[16], float x, float y, float *fx, float *fy)
{
    float cx = m[0] * x + m[4] * y + m[12], cy = m[1] * x + m[5] * y + m[13];
    float cw = m[3] * x + m[7] * y + m[15];
    *fx = 0.5f * (cx / cw + 1.0f), *fy = 0.5f * (cy / cw + 1.0f);
}

/* Whether the viewport pixel at fractions (fx, fy) of the host's last frame is paper: far from
 * the backdrop, which the viewport's top left corner shows. */
static bool paper_at(const Host *h, float fx, float fy)
{
    const uint8_t *p = pixel(h, BORDER + (uint32_t)(fx * (W - 2 * BORDER)),
                             BORDER + (uint32_t)(fy * (H - 2 * BORDER)));
    const uint8_t *b = pixel(h, BORDER, BORDER);
    return abs(p[0] - b[0]) + abs(p[1] - b[1]) + abs(p[2] - b[2]) > 150;
}

/* The host's camera (pagecurl_book_set_camera): the spread drawn small in the viewport's left
 * half, straight down, where the host's matrix puts it (paper at its pages' middles, backdrop past
 * its edges), a pen's stroke at the right-hand page's middle lands on that page (under the
 * library's framing that pixel shows the left-hand one), and the library's framing back with
 * NULL, byte for byte; matrices that are not finite or not invertible refused. */
static void host_camera(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book = book_at_3(ctx);
    if (!book || !host_frame(h, book, 0.0, true))
        return;
    uint8_t *fitted = viewport_copy(h);
    float ph = pagecurl_book_page_height(book);
    CHECK(&st, ph > 1.0f && ph < 2.0f, "page height %g", (double)ph);
    /* column-major: x' = a x - 0.5, y' = -b (y - ph / 2) (clip y down), depth 0.5 - z / 4 */
    float b = 0.8f / ph, a = b * (float)(H - 2 * BORDER) / (float)(W - 2 * BORDER);
    float m[16] = {a, 0, 0, 0, 0, -b, 0, 0, 0, 0, -0.25f, 0, -0.5f, 0.5f * b * ph, 0.5f, 1};
    CHECK(&st, pagecurl_book_set_camera(book, m), "the host's camera refused");
    host_frame(h, book, 1.0 / 60.0, true);
    struct {
        float x, y;
        bool paper;
    } probes[] = {{0.5f, 0.5f * ph, true},  {-0.5f, 0.5f * ph, true},  {0.5f, 0.1f * ph, true},
                  {1.3f, 0.5f * ph, false}, {-1.3f, 0.5f * ph, false}, {0.5f, 1.3f * ph, false},
                  {0.5f, -0.3f * ph, false}};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        float fx, fy;
        shown_at(m, probes[i].x, probes[i].y, &fx, &fy);
        CHECK(&st, paper_at(h, fx, fy) == probes[i].paper,
              "the host's camera: the book's point %g,%g at %.3f,%.3f of the viewport is %s",
              (double)probes[i].x, (double)probes[i].y, (double)fx, (double)fy,
              probes[i].paper ? "not paper" : "paper");
    }
    CHECK(&st, pagecurl_book_set_camera(book, NULL), "NULL refused");
    host_frame(h, book, 2.0 / 60.0, true);
    uint8_t *back = viewport_copy(h);
    size_t differ = fitted && back ? pixels_differ(fitted, back) : 1;
    CHECK(&st, differ == 0, "the library's framing again: %zu pixels differ", differ);
    /* a pen's stroke at the right-hand page's middle, as the host's camera shows it */
    pagecurl_book_set_camera(book, m);
    host_frame(h, book, 3.0 / 60.0, true);
    float fx, fy;
    shown_at(m, 0.5f, 0.5f * ph, &fx, &fy);
    Seen seen = {0};
    poll(book, &seen);
    memset(&seen, 0, sizeof seen);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 9, fx, fy, 4.0 / 60.0);
    pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 9, fx + 0.01f, fy, 4.5 / 60.0);
    pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 9, fx + 0.01f, fy, 5.0 / 60.0);
    host_frame(h, book, 5.0 / 60.0, true), poll(book, &seen);
    CHECK(&st,
          seen.count[PAGECURL_EVENT_INK_CHANGED] == 1 &&
              seen.last[PAGECURL_EVENT_INK_CHANGED].page == 3,
          "a stroke through the host's camera: %d ink events, on page %d",
          seen.count[PAGECURL_EVENT_INK_CHANGED], seen.last[PAGECURL_EVENT_INK_CHANGED].page);
    float bad[16] = {0};
    CHECK(&st, !pagecurl_book_set_camera(book, bad), "a zero matrix taken");
    bad[0] = bad[5] = bad[10] = bad[15] = 1.0f, bad[12] = NAN;
    CHECK(&st, !pagecurl_book_set_camera(book, bad), "a NaN in the matrix taken");
    free(fitted), free(back);
    pagecurl_book_destroy(book);
}

/* Ink a host keeps: a pen's stroke read out of one book and put into another draws the same
 * pixels there; a stroke added later shows from the next frame and undo takes it back. */
static void kept_ink(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *drawn = book_at_3(ctx), *kept = book_at_3(ctx), *bare = book_at_3(ctx);
    uint8_t *want = NULL, *got = NULL, *none = NULL, *more = NULL;
    pagecurl_ink_point *points = NULL;
    if (!drawn || !kept || !bare)
        goto done;
    Seen seen = {0};
    double t = 0.0;
    host_frame(h, drawn, t, true);
    pointer(drawn, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 1, 0.62f, 0.35f, t);
    for (int k = 1; k <= 12; k++)
        pointer(drawn, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 1, 0.62f + 0.02f * k,
                0.35f + 0.015f * k, t);
    pointer(drawn, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 1, 0.86f, 0.53f, t);
    host_frame(h, drawn, t, true), poll(drawn, &seen);
    CHECK(&st, seen.count[PAGECURL_EVENT_INK_CHANGED] == 1, "the pen's stroke: %d ink events",
          seen.count[PAGECURL_EVENT_INK_CHANGED]);
    uint32_t n = pagecurl_book_get_stroke(drawn, 3, 0, NULL, 0);
    CHECK(&st, n > 2 && pagecurl_book_stroke_count(drawn, 3) == 1, "a stroke of %u points", n);
    CHECK(&st,
          !pagecurl_book_get_stroke(drawn, 3, 1, NULL, 0) &&
              !pagecurl_book_get_stroke(drawn, 2, 0, NULL, 0) &&
              !pagecurl_book_get_stroke(drawn, 0, 0, NULL, 0) &&
              !pagecurl_book_get_stroke(drawn, 17, 0, NULL, 0),
          "strokes the book lacks");
    if (n < 3 || !(points = calloc(n + 1, sizeof *points)))
        goto done;
    /* a short buffer gets what fits and the count, nothing past it */
    points[2].u = -7.0f;
    CHECK(&st, pagecurl_book_get_stroke(drawn, 3, 0, points, 2) == n && points[2].u == -7.0f,
          "two points asked for");
    CHECK(&st, pagecurl_book_get_stroke(drawn, 3, 0, points, n + 1) == n, "the whole stroke");
    bool inside = true;
    for (uint32_t i = 0; i < n; i++)
        inside = inside && points[i].u > 0.0f && points[i].u < 1.0f && points[i].v > 0.0f &&
                 points[i].v < 1.0f && points[i].width >= 0.001f && points[i].width <= 0.05f;
    CHECK(&st, inside, "the pen's points lie on the page");
    want = viewport_copy(h);
    /* put into a book before its first frame, the same stroke draws the same pixels */
    CHECK(&st, pagecurl_book_add_stroke(kept, 3, points, n), "add the stroke");
    host_frame(h, kept, t, true);
    got = viewport_copy(h);
    host_frame(h, bare, t, true);
    none = viewport_copy(h);
    if (!want || !got || !none)
        goto done;
    size_t apart = pixels_differ(want, got), inked = pixels_differ(want, none);
    CHECK(&st, apart == 0, "the stroke put back differs from the pen's in %zu pixels", apart);
    CHECK(&st, inked > 50, "the pen's stroke changed only %zu pixels", inked);
    pagecurl_ink_point back[64];
    CHECK(&st,
          pagecurl_book_get_stroke(kept, 3, 0, back, 64) == n &&
              !memcmp(back, points, (n < 64 ? n : 64) * sizeof *back),
          "the stroke read back from the book it was put into");
    memset(&seen, 0, sizeof seen);
    poll(kept, &seen);
    CHECK(&st, seen.count[PAGECURL_EVENT_INK_CHANGED] == 0, "the host's own stroke raised %d",
          seen.count[PAGECURL_EVENT_INK_CHANGED]);
    /* one added after the first frame shows in the next; undo takes it back */
    for (uint32_t i = 0; i < n; i++)
        points[i].v -= 0.25f, points[i].width = 1.0f;
    CHECK(&st, pagecurl_book_add_stroke(kept, 3, points, n), "add a second stroke");
    CHECK(&st, pagecurl_book_get_stroke(kept, 3, 1, back, 1) == n && back[0].width == 0.05f,
          "widths kept within 0.05: %.3f", (double)back[0].width);
    host_frame(h, kept, t, true);
    more = viewport_copy(h);
    CHECK(&st, more && pixels_differ(more, want) > 50, "the second stroke does not show");
    CHECK(&st, pagecurl_book_action(kept, PAGECURL_ACTION_UNDO, t), "undo the second");
    host_frame(h, kept, t, true);
    free(got);
    got = viewport_copy(h);
    CHECK(&st, got && pixels_differ(got, want) == 0, "undone: the one stroke's pixels again");
    /* refused, with nothing added */
    pagecurl_ink_point off = {1.5f, 0.5f, 0.01f}, nan = {0.5f, 0.5f, NAN};
    CHECK(&st,
          !pagecurl_book_add_stroke(kept, 0, points, n) &&
              !pagecurl_book_add_stroke(kept, 17, points, n) &&
              !pagecurl_book_add_stroke(kept, 3, points, 0) &&
              !pagecurl_book_add_stroke(kept, 3, NULL, 1) &&
              !pagecurl_book_add_stroke(kept, 3, &off, 1) &&
              !pagecurl_book_add_stroke(kept, 3, &nan, 1),
          "a bad stroke added");
    pointer(kept, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 2, 0.7f, 0.4f, t);
    pointer(kept, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 2, 0.72f, 0.42f, t);
    CHECK(&st, !pagecurl_book_add_stroke(kept, 3, back, 1), "added while a stroke is drawn");
    pointer(kept, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 2, 0.72f, 0.42f, t);
    CHECK(&st, pagecurl_book_stroke_count(kept, 0) == 2, "%u strokes: the put back and the pen's",
          pagecurl_book_stroke_count(kept, 0));
done:
    free(want), free(got), free(none), free(more), free(points);
    pagecurl_book_destroy(drawn), pagecurl_book_destroy(kept), pagecurl_book_destroy(bare);
}

static bool stop_asked(void *user)
{
    int *asked = user;
    (*asked)++;
    return false;
}

/* Reads the "v" lines of an OBJ the program wrote: up to `most` positions, 3 floats each. */
static size_t obj_positions(const char *path, float *xyz, size_t most)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    char line[256];
    while (f && n < most && fgets(line, sizeof line, f))
        if (line[0] == 'v' && line[1] == ' ' &&
            sscanf(line + 2, "%f %f %f", &xyz[3 * n], &xyz[3 * n + 1], &xyz[3 * n + 2]) == 3)
            n++;
    if (f)
        fclose(f);
    return n;
}

/* A book that draws its own frames (pagecurl_book_render), against the program's headless run
 * of the same pose at another roll radius: the same pixels and the same leaf; what it refuses;
 * the book's identity and the files it holds. */
static void own_frames(Host *h, pagecurl_context *ctx, const char *exe, const char *dir)
{
    enum { GX = 16, GY = 20 };
    char shot[4096], obj[4096], size[32];
    snprintf(shot, sizeof shot, "%s/radius.png", dir);
    snprintf(obj, sizeof obj, "%s/radius.obj", dir);
    int vw = W - 2 * BORDER, vh = H - 2 * BORDER;
    snprintf(size, sizeof size, "%dx%d", vw, vh);
    Run r = run_program(exe, dir, NULL,
                        (const char *const[]){"--headless", "--size", size, "--page", "3", "--curl",
                                              "0.3", "--grab", "0.25", "--radius", "0.1", "--grid",
                                              "16x20", "--screenshot", shot, "--export-obj", obj,
                                              NULL});
    CHECK(&st, r.status == 0, "the program's posed run: %d %s", r.status, r.err);
    Image want = image_load(shot);
    static float program_xyz[3 * GX * GY];
    size_t program_n = obj_positions(obj, program_xyz, GX * GY);
    int asked = 0;
    pagecurl_error err;
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.page = 3,
                                                         .wait_for_pages = true,
                                                         .grid_columns = GX,
                                                         .grid_rows = GY,
                                                         .leaf_readback = true,
                                                         .stop = stop_asked,
                                                         .stop_user = &asked});
    uint8_t *rgba = malloc((size_t)vw * vh * 4);
    if (!book || !rgba || !want.rgba)
        goto done;
    CHECK(&st,
          !pagecurl_book_set_hold_radius(book, 0.6f) &&
              !pagecurl_book_set_hold_radius(book, 0.001f) &&
              !pagecurl_book_set_hold_radius(book, NAN),
          "a radius out of range taken");
    CHECK(&st, pagecurl_book_set_hold_radius(book, 0.1f), "radius 0.1 refused");
    CHECK(&st, pagecurl_book_hold(book, 0.3f, 0.25f, false), "hold");
    pagecurl_leaf leaf = {.size = sizeof leaf};
    CHECK(&st, !pagecurl_book_leaf(book, &leaf), "a leaf before any was read");
    pagecurl_render_desc rd = {
        .size = sizeof rd, .width = (uint32_t)vw, .height = (uint32_t)vh, .read_leaf = true};
    /* one frame, as the program's --curl draws one: a second of the same pose might be drawn
     * over the low tier's still pages, within 2/255 of this but not byte for byte (a page
     * streamed in between makes it direct again: which one it is depends on the worker) */
    CHECK(&st, pagecurl_book_render(book, 0.0, &rd, rgba, &err), "render: %s", err.message);
    CHECK(&st, asked > 0, "the stop hook was never asked during the wait for pages");
    size_t diff = 0;
    for (size_t i = 0; i < (size_t)vw * vh; i++)
        diff += memcmp(rgba + 4 * i, want.rgba + 4 * i, 4) != 0;
    CHECK(&st, want.w == vw && want.h == vh && diff == 0,
          "the book's own frame and the program's --radius 0.1 screenshot differ in %zu pixels",
          diff);
    CHECK(&st, pagecurl_book_leaf(book, &leaf), "no leaf read");
    size_t apart = 0;
    for (size_t k = 0; k < program_n && leaf.vertices; k++)
        for (int c = 0; c < 3; c++)
            apart += leaf.vertices[8 * k + (size_t)c] != program_xyz[3 * k + (size_t)c];
    CHECK(&st,
          leaf.columns == GX && leaf.rows == GY && leaf.vertex_count == GX * GY &&
              program_n == GX * GY && apart == 0 &&
              leaf.triangle_count == 2 * (GX - 1) * (GY - 1) && leaf.indices,
          "the leaf: %ux%u, %u vertices (the program's OBJ: %zu), %zu coordinates apart",
          leaf.columns, leaf.rows, leaf.vertex_count, program_n, apart);
    /* a frame drawn and not waited for, that reads no leaf: none is left to read */
    rd.read_leaf = false;
    CHECK(&st, pagecurl_book_render(book, 0.0, &rd, NULL, &err) && !pagecurl_book_leaf(book, &leaf),
          "a frame not kept: %s", err.message);
    rd.read_leaf = true;
    /* refused: another size, the host's frames, reading a leaf the book does not keep */
    pagecurl_render_desc other = {.size = sizeof other, .width = 64, .height = 64};
    CHECK(&st,
          !pagecurl_book_render(book, 0.0, &other, NULL, &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "another size: %s", err.message);
    CHECK(&st, !host_frame(h, book, 0.0, true), "the host's frame of a book that draws its own");
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    CHECK(&st, id.path[0] == '\0' && id.id[0] == '\0' && !pagecurl_book_holds(book, shot),
          "the built-in book: path '%s', id '%s'", id.path, id.id);
    pagecurl_book_destroy(book);
    book = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page = 3}, &err);
    if (book) {
        CHECK(&st, host_frame(h, book, 0.0, true), "a host's frame");
        CHECK(&st,
              !pagecurl_book_render(book, 0.0, &rd, rgba, &err) &&
                  err.status == PAGECURL_ERROR_USAGE,
              "read_leaf without leaf_readback: %s", err.message);
        rd.read_leaf = false;
        CHECK(&st,
              !pagecurl_book_render(book, 0.0, &rd, rgba, &err) &&
                  err.status == PAGECURL_ERROR_USAGE,
              "its own frame of a book drawn into the host's: %s", err.message);
        pagecurl_book_destroy(book);
    }
    /* a folder of one page: its path and identity, and the files writing would change */
    char folder[4096], page[4200], beside[4200];
    snprintf(folder, sizeof folder, "%s/folder", dir);
    snprintf(page, sizeof page, "%s/p1.png", folder);
    snprintf(beside, sizeof beside, "%s/beside.png", dir);
    mkdir(folder, 0755);
    r = run_program(exe, dir, NULL,
                    (const char *const[]){"--headless", "--size", "64x48", "--curl", "0",
                                          "--screenshot", page, NULL});
    CHECK(&st, r.status == 0, "a page for the folder: %d %s", r.status, r.err);
    book = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .path = folder}, &err);
    CHECK(&st, book != NULL, "the folder: %s", err.message);
    if (book) {
        pagecurl_book_identity_of(book, &id);
        CHECK(&st, id.path[0] == '/' && strstr(id.path, "/folder") && id.id[0],
              "the folder's identity: path '%s', id '%s'", id.path, id.id);
        char next[4200];
        snprintf(next, sizeof next, "%s/p2.png", folder);
        CHECK(&st,
              pagecurl_book_holds(book, page) && pagecurl_book_holds(book, next) &&
                  !pagecurl_book_holds(book, beside) && !pagecurl_book_holds(book, NULL),
              "the files the folder holds");
        pagecurl_book_destroy(book);
    }
    book = NULL;
    /* descriptions: the reference tier taken, a page detail past 8 refused */
    pagecurl_book *reference =
        pagecurl_book_create(ctx,
                             &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                                   .quality = PAGECURL_QUALITY_REFERENCE,
                                                   .page_detail = 2.0f},
                             &err);
    CHECK(&st, reference != NULL, "the reference tier: %s", err.message);
    pagecurl_book_destroy(reference);
    CHECK(&st,
          !pagecurl_book_create(
              ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page_detail = 9.0f},
              &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "page_detail 9: %s", err.message);
    CHECK(&st,
          !pagecurl_book_create(
              ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page_detail = NAN},
              &err),
          "page_detail NaN taken");
done:
    pagecurl_book_destroy(book);
    free(rgba);
    image_free(&want);
}

/* The right page (1-based) a book opened at 2|3 shows after a key turn and, while that leaf
 * settles, a press behind it dragged across the spine. */
static int thumbed(Host *h, pagecurl_context *ctx, bool thumb)
{
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.page = 3, .thumb_through = thumb});
    if (!book)
        return -1;
    double t = 0.0;
    host_frame(h, book, t, false);
    pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t);
    for (int f = 0; f < 6; f++)
        host_frame(h, book, t += 1.0 / 60.0, false);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_MOUSE, 1, 0.8f, 0.6f, t);
    for (int k = 1; k <= 20; k++) {
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_MOUSE, 1, 0.8f - 0.03f * k, 0.6f, t);
        host_frame(h, book, t += 1.0 / 60.0, false);
    }
    pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_MOUSE, 1, 0.2f, 0.6f, t);
    for (int f = 0; f < 180; f++)
        host_frame(h, book, t += 1.0 / 60.0, false);
    host_frame(h, book, t += 1.0 / 60.0, true);
    int right = state_of(book).right;
    pagecurl_book_destroy(book);
    return right;
}

/* Events queued where they happen: three quick turns between two updates are three pairs (the
 * two updates' difference showed one spread change and no pair), two pages inked between two
 * updates are both told; a held pose shows in the state; under the host's camera the library's
 * zoom does nothing. */
static void queued_events(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.page = 3, .thumb_through = true});
    if (!book)
        return;
    Seen seen = {0};
    host_frame(h, book, 0.0, false);
    poll(book, &seen);
    memset(&seen, 0, sizeof seen);
    bool asked = pagecurl_book_action(book, PAGECURL_ACTION_NEXT, 0.01) &&
                 pagecurl_book_action(book, PAGECURL_ACTION_NEXT, 0.03) &&
                 pagecurl_book_action(book, PAGECURL_ACTION_NEXT, 0.05);
    host_frame(h, book, 3.0, false);
    poll(book, &seen);
    pagecurl_state s = state_of(book);
    printf("three turns between two updates: %d started, %d ended, %d spreads, at %d|%d\n",
           seen.count[PAGECURL_EVENT_TURN_STARTED], seen.count[PAGECURL_EVENT_TURN_ENDED],
           seen.count[PAGECURL_EVENT_SPREAD_CHANGED], s.left, s.right);
    CHECK(&st,
          asked && seen.count[PAGECURL_EVENT_TURN_STARTED] == 3 &&
              seen.count[PAGECURL_EVENT_TURN_ENDED] == 3 &&
              seen.count[PAGECURL_EVENT_SPREAD_CHANGED] == 3 &&
              seen.last[PAGECURL_EVENT_TURN_ENDED].completed &&
              seen.last[PAGECURL_EVENT_TURN_ENDED].right == 9 &&
              seen.last[PAGECURL_EVENT_TURN_STARTED].right == 7 && s.right == 9,
          "three turns between two updates: %d started, %d ended, %d spreads, at %d|%d",
          seen.count[PAGECURL_EVENT_TURN_STARTED], seen.count[PAGECURL_EVENT_TURN_ENDED],
          seen.count[PAGECURL_EVENT_SPREAD_CHANGED], s.left, s.right);
    /* a pen's stroke on each page of 8|9, one update after both */
    for (int side = 0; side < 2; side++) {
        float x = side ? 0.7f : 0.3f;
        pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_PEN, 3, x, 0.4f, 3.0);
        for (int k = 1; k <= 5; k++)
            pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_PEN, 3, x + 0.01f * k, 0.45f,
                    3.0);
        pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_PEN, 3, x + 0.05f, 0.45f, 3.0);
    }
    host_frame(h, book, 3.1, false);
    pagecurl_event e;
    int inked = 0, told = 0;
    while (pagecurl_book_poll_event(book, &e))
        if (e.type == PAGECURL_EVENT_INK_CHANGED)
            told++, inked |= e.page == 8 ? 1 : e.page == 9 ? 2 : 4;
    CHECK(&st, told == 2 && inked == 3, "two pages inked between updates: %d events (pages %#x)",
          told, inked);
    CHECK(&st, !state_of(book).hold, "a hold before any");
    CHECK(&st, pagecurl_book_hold(book, 0.4f, 0.3f, false), "a hold");
    s = state_of(book);
    CHECK(&st, s.hold && s.hold_progress == 0.4f && !s.turning, "the state of a hold: %d at %.2f",
          s.hold, s.hold_progress);
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(&st, pagecurl_book_set_camera(book, identity), "the host's camera");
    CHECK(&st,
          !pagecurl_book_zoom_by(book, 2.0f, 100.0, 100.0, 3.2) &&
              !pagecurl_book_set_zoom(book, 2.0f, 100.0, 100.0, 3.2) &&
              !pagecurl_book_pan(book, 10.0, 0.0, 3.2),
          "the library's zoom under the host's camera");
    CHECK(&st, state_of(book).hold, "a hold let go by a zoom refused");
    pagecurl_book_set_camera(book, NULL);
    CHECK(&st, pagecurl_book_zoom_by(book, 2.0f, 100.0, 100.0, 3.2), "a zoom without the camera");
    /* what lies under a point, at 8|9 laid flat (fitted: the zoom above shows from an update) */
    pagecurl_book_action(book, PAGECURL_ACTION_ZOOM_FIT, 3.2);
    host_frame(h, book, 3.3, false);
    double vw = W - 2 * BORDER, vh = H - 2 * BORDER;
    pagecurl_hit left = {.size = sizeof left}, right = {.size = sizeof right}, none = left;
    bool on_left = pagecurl_book_hit(book, 0.3 * vw, 0.5 * vh, &left),
         on_right = pagecurl_book_hit(book, 0.75 * vw, 0.25 * vh, &right),
         off = pagecurl_book_hit(book, 1.0, 1.0, &none);
    printf("hits: page %d at %.2f,%.2f; page %d at %.2f,%.2f\n", left.page, left.u, left.v,
           right.page, right.u, right.v);
    CHECK(&st,
          on_left && left.page == 8 && left.u > 0.4f && left.u < 0.8f &&
              fabsf(left.v - 0.5f) < 0.1f && on_right && right.page == 9 && right.u > 0.3f &&
              right.u < 0.7f && right.v > 0.6f && !off,
          "hits: page %d at %.2f,%.2f; page %d at %.2f,%.2f; the corner %s", left.page, left.u,
          left.v, right.page, right.u, right.v, off ? "on a page" : "off");
    pagecurl_book_destroy(book);
}

static void thumb_through(Host *h, pagecurl_context *ctx)
{
    int thumb = thumbed(h, ctx, true), caught = thumbed(h, ctx, false);
    CHECK(&st, thumb == 7 && caught == 5,
          "a press behind a settling leaf: thumbing through ends at page %d (7 wanted), "
          "catching the leaf at %d (5 wanted)",
          thumb, caught);
}

/* The viewport of a book at page 3 held mid-turn (a caller's copy): at `first`, or drawn three
 * frames at `first` and then stepped to `then`. The frame kept is drawn directly in both (a
 * fresh book's first, the first after a step: the low tier's still pages are made anew then),
 * never over the still pages, which a page streamed in meanwhile would make direct again. */
static uint8_t *tier_frame(Host *h, pagecurl_context *ctx, pagecurl_quality first,
                           pagecurl_quality then)
{
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.page = 3, .quality = first, .wait_for_pages = true});
    if (!book)
        return NULL;
    pagecurl_book_hold(book, 0.3f, 0.25f, false);
    if (then != first) {
        for (int f = 0; f < 3; f++)
            host_frame(h, book, 0.0, false);
        CHECK(&st, pagecurl_book_set_quality(book, then), "set_quality refused");
    }
    host_frame(h, book, 0.0, true);
    uint8_t *pixels = viewport_copy(h);
    pagecurl_book_destroy(book);
    return pixels;
}

/* A book stepped from one tier to another draws what a book of the other tier draws. */
static void quality_steps(Host *h, pagecurl_context *ctx)
{
    uint8_t *low = tier_frame(h, ctx, PAGECURL_QUALITY_LOW, PAGECURL_QUALITY_LOW),
            *high = tier_frame(h, ctx, PAGECURL_QUALITY_HIGH, PAGECURL_QUALITY_HIGH),
            *down = tier_frame(h, ctx, PAGECURL_QUALITY_HIGH, PAGECURL_QUALITY_LOW),
            *up = tier_frame(h, ctx, PAGECURL_QUALITY_LOW, PAGECURL_QUALITY_HIGH);
    if (low && high && down && up) {
        size_t tiers = pixels_differ(low, high), stepped_down = pixels_differ(down, low),
               stepped_up = pixels_differ(up, high);
        CHECK(&st, tiers > 1000, "the tiers differ in only %zu pixels", tiers);
        CHECK(&st, stepped_down == 0 && stepped_up == 0,
              "stepped down: %zu pixels off the low tier's; up: %zu off the high tier's",
              stepped_down, stepped_up);
    }
    pagecurl_error err;
    pagecurl_book *book =
        pagecurl_book_create(ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc)}, &err);
    if (book) {
        CHECK(&st, !pagecurl_book_set_quality(book, (pagecurl_quality)9), "tier 9 taken");
        pagecurl_book_destroy(book);
    }
    free(low), free(high), free(down), free(up);
}

/* A hard cover's first board at 70 % of its turn, drawn at the high tier: its inside's print (the
 * endpaper's grid and box) is seen at a grazing angle, its footprints many texels long one way. */
static uint8_t *board_frame(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.cover = PAGECURL_COVER_HARD,
                                                         .quality = PAGECURL_QUALITY_HIGH,
                                                         .wait_for_pages = true});
    if (!book)
        return NULL;
    pagecurl_book_hold(book, 0.7f, 0.3f, false);
    host_frame(h, book, 0.0, true);
    uint8_t *pixels = viewport_copy(h);
    pagecurl_book_destroy(book);
    return pixels;
}

/* The board's print in board_frame's viewport (inside its outline): its fine detail, the mean
 * squared step between neighbouring pixels (each channel, 0 .. 255). */
#define PRINT_X0 226
#define PRINT_Y0 100
#define PRINT_X1 284
#define PRINT_Y1 285
static double print_detail(const uint8_t *viewport)
{
    size_t row = (size_t)(W - 2 * BORDER) * 4;
    double sum = 0.0;
    long n = 0;
    for (int y = PRINT_Y0; y < PRINT_Y1; y++)
        for (int x = PRINT_X0; x < PRINT_X1; x++)
            for (int c = 0; c < 3; c++) {
                const uint8_t *p = viewport + y * row + (size_t)x * 4 + c;
                double right = (double)p[4] - p[0], down = (double)p[row] - p[0];
                sum += right * right + down * down;
                n += 2;
            }
    return sum / (double)n;
}

/* Anisotropic filtering where the host enabled it (pagecurl_context_desc.sampler_anisotropy):
 * the board's print at a grazing angle keeps its detail, where trilinear reads alone blur it
 * (lavapipe: 11.2 against 3.5; the reference tier's 14.4); the library's own device (the
 * program's) enables it and draws the same pixels. A host that did not enable it, or whose
 * description ends before the field, gets trilinear reads (and `h`'s device, made without it,
 * sees none: the validation layer would report the sampler). A book stepped up from the low tier
 * (its reads trilinear) draws what a high tier's book draws. */
static void anisotropy(Host *h, pagecurl_context *ctx, const char *exe, const char *dir)
{
    uint8_t *plain = board_frame(h, ctx);
    Host a = {.instance = h->instance, .physical = h->physical};
    host_device(&a, true);
    host_frames(&a, W, H);
    pagecurl_context_desc desc = host_desc(&a);
    desc.sampler_anisotropy = true;
    pagecurl_error err;
    pagecurl_context *on = pagecurl_context_create(&desc, &err);
    CHECK(&st, on != NULL, "a context with anisotropy: %s", err.message);
    uint8_t *sharp = on ? board_frame(&a, on) : NULL;
    uint8_t *high = on ? tier_frame(&a, on, PAGECURL_QUALITY_HIGH, PAGECURL_QUALITY_HIGH) : NULL,
            *up = on ? tier_frame(&a, on, PAGECURL_QUALITY_LOW, PAGECURL_QUALITY_HIGH) : NULL;
    CHECK(&st, high && up && pixels_differ(up, high) == 0,
          "stepped up with anisotropy: %zu pixels off the high tier's",
          high && up ? pixels_differ(up, high) : 0);
    free(high), free(up);
    pagecurl_context_destroy(on);
    desc.size = (uint32_t)offsetof(pagecurl_context_desc, sampler_anisotropy);
    pagecurl_context *before = pagecurl_context_create(&desc, &err);
    CHECK(&st, before != NULL, "a context described before sampler_anisotropy: %s", err.message);
    uint8_t *old = before ? board_frame(&a, before) : NULL;
    pagecurl_context_destroy(before);
    host_destroy(&a);
    char shot[4096], size[32];
    snprintf(shot, sizeof shot, "%s/board.png", dir);
    snprintf(size, sizeof size, "%dx%d", W - 2 * BORDER, H - 2 * BORDER);
    Run r = run_program(exe, dir, NULL,
                        (const char *const[]){"--headless", "--size", size, "--cover", "hard",
                                              "--curl", "0.7", "--grab", "0.3", "--quality", "high",
                                              "--screenshot", shot, NULL});
    CHECK(&st, r.status == 0, "the program's board: %d %s", r.status, r.err);
    Image want = image_load(shot);
    if (plain && sharp && old) {
        double blurred = print_detail(plain), kept = print_detail(sharp);
        printf("test_api: the board's print at a grazing angle: detail %.2f with anisotropic "
               "filtering, %.2f without\n",
               kept, blurred);
        CHECK(&st, kept > 2.0 * blurred,
              "anisotropic filtering keeps %.2f of the print's detail, trilinear reads %.2f", kept,
              blurred);
        CHECK(&st, pixels_differ(old, plain) == 0,
              "a description that ends before sampler_anisotropy: %zu pixels off trilinear reads'",
              pixels_differ(old, plain));
        size_t off = 0;
        for (int i = 0; want.rgba && want.w == W - 2 * BORDER && i < want.w * want.h; i++)
            off += memcmp(want.rgba + 4 * i, sharp + 4 * i, 4) != 0;
        CHECK(&st, want.w == W - 2 * BORDER && want.h == H - 2 * BORDER && off == 0,
              "the program's own device: %zu pixels off the host's with anisotropy", off);
    }
    image_free(&want);
    free(plain), free(sharp), free(old);
}

/* A PDF of `pages` blank pages with a two-entry outline (pages 1 and 3, the second a section
 * under the first): objects 1 (the catalogue), 2 (the page tree), a page and its content each,
 * then the outline's three, and the cross-reference table with their byte offsets. */
static bool write_outlined_pdf(const char *path, int pages)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    int first = 3 + 2 * pages;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R >>", first);
    pdf_file_page_tree(&pdf, pages, 3, 2);
    for (int p = 0; p < pages; p++) {
        pdf_file_object(&pdf,
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents %d 0 R >>",
                        4 + 2 * p);
        pdf_file_stream(&pdf, "", "0 g", 3);
    }
    pdf_file_object(&pdf, "<< /First %d 0 R /Last %d 0 R >>", first + 1, first + 1);
    pdf_file_object(&pdf,
                    "<< /Title (Chapter One) /Parent %d 0 R /Dest [3 0 R /Fit] /First %d 0 R "
                    "/Last %d 0 R >>",
                    first, first + 2, first + 2);
    pdf_file_object(&pdf, "<< /Title (A Section) /Parent %d 0 R /Dest [7 0 R /Fit] >>", first + 1);
    return pdf_file_close(&pdf);
}

/* A PDF of two pages whose first takes long to draw (a form of 200 fills of the whole page, shown
 * 1000 times: 17 s on the 2-core machine) and whose second is blank: objects 1 (the catalogue), 2
 * (the page tree), the pages 3 and 5 with their contents 4 and 6, the form 7. */
static bool write_slow_pdf(const char *path)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    char fills[200 * 18 + 1] = "", shows[1000 * 6 + 1] = "";
    for (int k = 0; k < 200; k++)
        strcat(fills, "0 0 200 280 re f\n");
    for (int k = 0; k < 1000; k++)
        strcat(shows, "/X Do\n");
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count 2 /Kids [3 0 R 5 0 R] >>");
    pdf_file_object(&pdf, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 4 0 R "
                          "/Resources << /XObject << /X 7 0 R >> >> >>");
    pdf_file_stream(&pdf, "", shows, strlen(shows));
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 6 0 R >>");
    pdf_file_stream(&pdf, "", "0 g", 3);
    pdf_file_stream(&pdf, "/Type /XObject /Subtype /Form /BBox [0 0 200 280] ", fills,
                    strlen(fills));
    return pdf_file_close(&pdf);
}

/* A PDF whose page 1 never ends drawing: MuPDF 1.21 loops in one stroke (a dash pattern of
 * 0.01 along a segment 1e9 long, off the page: an int overflows in fz_dash_lineto), where no
 * cookie reaches it; its page 2 is black. */
static bool write_hanging_pdf(const char *path)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    const char dash[] = "25 0 0 25 0 0 cm [0.01 0.01] 0 d 0.04 w -999999999.0 1 m -100.0 1 l "
                        "2 2 l S";
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count 2 /Kids [3 0 R 5 0 R] >>");
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 4 0 R >>");
    pdf_file_stream(&pdf, "", dash, sizeof dash - 1);
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 6 0 R >>");
    pdf_file_stream(&pdf, "", "0 g", 3);
    return pdf_file_close(&pdf);
}

/* Asked while a wait for pages runs: true (the wait cut short) once 30 s have gone, so that a
 * wait the page's time limit does not end still ends. */
static bool stop_late(void *user)
{
    const struct timespec *t0 = user;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec) > 300.0;
}

/* A page that takes long to draw, or whose drawing never ends, is given up at the book's
 * page_seconds: a wait for it ends within seconds, one ERROR names it, and the page after it is
 * drawn (the abort was for it alone; the process drawing it was killed). */
static void given_up(Host *h, pagecurl_context *ctx, const char *dir, const char *name,
                     bool (*write)(const char *path))
{
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/%s", dir, name);
    CHECK(&st, write(pdf), "cannot write %s", pdf);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.path = pdf,
                                                         .wait_for_pages = true,
                                                         .page_seconds = 1.0f,
                                                         .stop = stop_late,
                                                         .stop_user = &t0});
    if (!book)
        return;
    CHECK(&st, host_frame(h, book, 0.0, true), "a frame of %s", name);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    Seen seen = {0};
    poll(book, &seen);
    const pagecurl_event *e = &seen.last[PAGECURL_EVENT_ERROR];
    printf("%s: the first frame of a book whose page 1 takes long to draw in %.2f s (limit 1 s): "
           "%d error(s), the last on page %d: %s\n",
           name, took, seen.count[PAGECURL_EVENT_ERROR], e->page, e->message);
    /* A ceiling that catches a wait for the page itself (minutes; the stop ends it at 300 s),
     * not the speed: 1.3 s quiet, 12.6 s seen on a loaded machine. */
    CHECK(&st, took < 120.0, "%s: a page past its time held the first frame %.1f s", name, took);
    CHECK(&st,
          seen.count[PAGECURL_EVENT_ERROR] == 1 && e->page == 1 && strstr(e->message, "given up"),
          "%s: %d errors, the last on page %d: %s", name, seen.count[PAGECURL_EVENT_ERROR], e->page,
          e->message);
    CHECK(&st,
          seen.count[PAGECURL_EVENT_PAGE_READY] == 2 &&
              seen.last[PAGECURL_EVENT_PAGE_READY].page == 2,
          "%s: %d pages ready, the last %d: page 2 drawn after page 1 was given up", name,
          seen.count[PAGECURL_EVENT_PAGE_READY], seen.last[PAGECURL_EVENT_PAGE_READY].page);
    pagecurl_book_destroy(book);
}

static void slow_page(Host *h, pagecurl_context *ctx, const char *dir)
{
    given_up(h, ctx, dir, "slow.pdf", write_slow_pdf);
    given_up(h, ctx, dir, "hang.pdf", write_hanging_pdf);
    pagecurl_error err;
    CHECK(&st,
          !pagecurl_book_create(
              ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page_seconds = NAN},
              &err) &&
              err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "page_seconds"),
          "page_seconds NaN: %s", err.message);
}

/* A PDF of `pages` 200 x 280 pt pages, each drawn by `content` (a content stream). */
static bool write_filled_pdf(const char *path, int pages, const char *content)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_page_tree(&pdf, pages, 3, 2);
    for (int p = 0; p < pages; p++) {
        pdf_file_object(&pdf,
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents %d 0 R >>",
                        4 + 2 * p);
        pdf_file_stream(&pdf, "", content, strlen(content));
    }
    return pdf_file_close(&pdf);
}

/* Each page filled with blue to its edges: paper seen in a frame is a side with nothing drawn. */
static bool write_blue_pdf(const char *path, int pages)
{
    return write_filled_pdf(path, pages, "0 0 1 rg 0 0 200 280 re f");
}

/* A window's first frame shows the pages in view drawn sharp, not their drafts (a reader opening
 * a book looks for legible text: book_stream_prime begins them while the view is made). Pages
 * of black bars 2 pt wide every 4 pt (2.5 px at this size): drawn sharp, some 46,000 pixels of
 * the spread are near black; a draft (a quarter of the texels, scaled up) blurs the bars to
 * grey, none near black (0 without the change). So does the first frame after a go-to far into
 * the book (a cut: nothing drawn there yet). The wait for them held to a minute
 * (pagecurl_faults.first_wait_ms) so that no clock decides the test; the library's own is half a
 * second. */
static int near_black(const Host *h)
{
    int black = 0;
    for (uint32_t y = BORDER; y < H - BORDER; y++)
        for (uint32_t x = BORDER; x < W - BORDER; x++)
            black += pixel(h, x, y)[0] < 60 && pixel(h, x, y)[1] < 60 && pixel(h, x, y)[2] < 60;
    return black;
}

/* dir/name: `pages` pages of black bars `w` pt wide every `step` pt from x0 to x1, from y up
 * `h` pt. */
static void write_bars_pdf(char *pdf, size_t size, const char *dir, const char *name, int pages,
                           int x0, int x1, int step, int y, int w, int h)
{
    snprintf(pdf, size, "%s/%s", dir, name);
    char bars[4096] = "0 g", *at = bars + strlen(bars);
    for (int x = x0; x < x1; x += step)
        at += snprintf(at, (size_t)(bars + sizeof bars - at), " %d %d %d %d re", x, y, w, h);
    snprintf(at, (size_t)(bars + sizeof bars - at), " f");
    CHECK(&st, write_filled_pdf(pdf, pages, bars), "cannot write %s", pdf);
}

static void first_frame_sharp(Host *h, pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    write_bars_pdf(pdf, sizeof pdf, dir, "bars.pdf", 48, 0, 200, 4, 0, 2, 280);
    pagecurl_context_faults(ctx, &(pagecurl_faults){.first_wait_ms = 60000});
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.path = pdf, .page = 3});
    pagecurl_context_faults(ctx, NULL);
    if (!book)
        return;
    host_frame(h, book, 0.0, true);
    /* only the two sides in sight are uploaded for it (pages 2 and 3, not the leaves' 1 and 4) */
    pagecurl_event e;
    int ready = 0, others = 0;
    while (pagecurl_book_poll_event(book, &e))
        if (e.type == PAGECURL_EVENT_PAGE_READY)
            ready++, others += e.page != 2 && e.page != 3;
    int black = near_black(h);
    printf(
        "first frame of a book of bars: %d near-black pixels, %d pages ready (%d not in sight)\n",
        black, ready, others);
    CHECK(&st, ready == 2 && others == 0,
          "the first frame took %d pages in, %d of them not in sight (pages 2 and 3 alone wanted: "
          "each upload delays it)",
          ready, others);
    CHECK(&st, black > 20000,
          "the first frame shows the pages' drafts, not sharp: %d near-black pixels (over "
          "20,000 wanted: the bars drawn sharp)",
          black);
    /* at rest, its pages drawn (a ceiling of 600 frames catches a stream that never ends) */
    double t = 0.0;
    for (int f = 0; f < 600 && state_of(book).streaming; f++)
        host_frame(h, book, t += 1.0 / 60.0, true);
    CHECK(&st, pagecurl_book_go_to(book, 40), "go to page 40");
    host_frame(h, book, t += 1.0 / 60.0, true);
    int far = near_black(h);
    printf("the first frame after a go-to to page 40 (at %d|%d): %d near-black pixels\n",
           state_of(book).left, state_of(book).right, far);
    CHECK(&st, far > 20000,
          "the first frame after a go-to shows the pages' drafts, not sharp: %d near-black pixels "
          "(over 20,000 wanted)",
          far);
    pagecurl_book_destroy(book);
}

/* A window's opening (app/window.c): its first frame holds the leaf flat as a turn's start (the
 * turn's draw states built before any key), the next lies at rest and waits for the page's print
 * at the scale shown (pagecurl_book_hold_detail), so that this second frame is the book at rest
 * sharp: the pixels it has once everything is drawn. Without the wait the same frame shows the
 * page's layer scaled (the control: the same steps without it differ from the book at rest). */
static void warmed_then_sharp(Host *h, pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    write_bars_pdf(pdf, sizeof pdf, dir, "fine-bars.pdf", 6, 40, 560, 3, 100, 1, 600);
    size_t bytes = (size_t)h->width * h->height * 4;
    uint8_t *second = malloc(bytes);
    long off[2] = {-1, -1}; /* [waited]: bytes of the second frame unlike the book at rest */
    for (int waited = 1; second && waited >= 0; waited--) {
        pagecurl_book *book = made(ctx, (pagecurl_book_desc){.path = pdf, .page = 1});
        if (!book)
            break;
        double t = 0.0;
        CHECK(&st, pagecurl_book_hold(book, 0.0f, 0.25f, false), "the warm-up's hold");
        host_frame(h, book, t, true);
        pagecurl_book_pointer(book,
                              &(pagecurl_pointer_event){.size = sizeof(pagecurl_pointer_event),
                                                        .phase = PAGECURL_POINTER_CANCEL,
                                                        .id = UINT64_MAX,
                                                        .time = t});
        /* a ceiling for a busy machine: the wait ends as the print is drawn */
        if (waited)
            CHECK(&st, pagecurl_book_hold_detail(book, 1.0), "hold for the detail");
        host_frame(h, book, t += 1.0 / 60.0, true);
        memcpy(second, h->pixels, bytes);
        for (int f = 0; f < 600 && (state_of(book).streaming || state_of(book).pages_ready); f++)
            host_frame(h, book, t += 1.0 / 60.0, true);
        host_frame(h, book, t += 1.0 / 60.0, true);
        off[waited] = 0;
        for (size_t i = 0; i < bytes; i++)
            off[waited] += abs((int)second[i] - (int)h->pixels[i]) > 2;
        pagecurl_book_destroy(book);
    }
    free(second);
    printf("the frame after the warm-up against the book at rest: %ld bytes off waiting for the "
           "print, %ld without\n",
           off[1], off[0]);
    CHECK(&st, off[1] == 0,
          "the frame after the warm-up, waiting for the print at the scale shown: %ld bytes off "
          "the book at rest (none wanted)",
          off[1]);
    CHECK(&st, off[0] > 1000,
          "the same frame without the wait: %ld bytes off the book at rest (over 1,000 wanted: "
          "the page's layer scaled, not its print at the scale shown)",
          off[0]);
}

/* Pixels of the host's last frame that are paper (light, hardly coloured: the blue book's
 * pages are neither) and not the backdrop, which the viewport's top left corner shows. */
static int paper_pixels(const Host *h)
{
    const uint8_t *b = pixel(h, BORDER, BORDER);
    int n = 0;
    for (uint32_t y = BORDER; y < H - BORDER; y++)
        for (uint32_t x = BORDER; x < W - BORDER; x++) {
            const uint8_t *p = pixel(h, x, y);
            bool light = p[0] > 110 && p[1] * 100 > p[0] * 85 && abs(p[0] - p[2]) < 50;
            n += light && abs(p[0] - b[0]) + abs(p[1] - b[1]) + abs(p[2] - b[2]) > 60;
        }
    return n;
}

/* More paper than the frame at rest shows (the edges of the leaves): a side with nothing drawn,
 * at least a strip of a page (a page is some 40,000 pixels). */
#define PAPER_SEEN 2000

/* A page is drafted before it is drawn sharp, and a frame that would show a side with nothing
 * drawn waits for its draft: thumbing (NEXT pressed at 15 a second) through a book whose pages
 * take long to draw sharp (pagecurl_faults.draw_ms, book/pagecurl_program.h: ~90 ms more for a
 * page's 256 x 358 texels, 6 ms for its draft's 64 x 90), and a go-to far into it, show no frame of
 * plain paper where a page is (thumbing to page 27). Without drafts 22 of the 48 frames showed
 * paper (a leaf thumbed onto with nothing drawn), and 19 of the go-to's 30. */
static void drafts(Host *h, pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/blue.pdf", dir);
    CHECK(&st, write_blue_pdf(pdf, 48), "cannot write %s", pdf);
    pagecurl_context_faults(ctx, &(pagecurl_faults){.draw_ms = 1000}); /* as the book is opened */
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.path = pdf, .page = 3, .thumb_through = true});
    pagecurl_context_faults(ctx, NULL);
    if (!book)
        return;
    double t = 0.0;
    /* at rest, its pages drawn sharp (a ceiling of 600 frames catches a stream that never ends) */
    host_frame(h, book, t, true);
    for (int f = 0; f < 600 && state_of(book).streaming; f++)
        host_frame(h, book, t += 1.0 / 60.0, true);
    int rest = paper_pixels(h), thumbed = 0, most = 0;
    for (int f = 0; f < 48; f++) {
        if (f % 4 == 0)
            pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t);
        host_frame(h, book, t += 1.0 / 60.0, true);
        int n = paper_pixels(h) - rest;
        most = n > most ? n : most;
        thumbed += n > PAPER_SEEN;
    }
    for (int f = 0; f < 600 && state_of(book).turning; f++)
        host_frame(h, book, t += 1.0 / 60.0, true);
    int right = state_of(book).right;
    printf("thumbing 12 presses through slow pages to page %d: %d of 48 frames showed paper where "
           "a page is (most %d paper pixels over the %d at rest)\n",
           right, thumbed, most, rest);
    CHECK(&st, right >= 19 && thumbed == 0,
          "thumbing to page %d (19 or past wanted): %d of 48 frames showed paper where a page is "
          "(most %d paper pixels over the %d at rest)",
          right, thumbed, most, rest);
    /* G: the far spread in its first frame (drafted, or sharp where pages draw this fast), never
     * paper */
    int gone = 0;
    most = 0;
    CHECK(&st, pagecurl_book_go_to(book, 46), "go to page 46");
    for (int f = 0; f < 30; f++) {
        host_frame(h, book, t += 1.0 / 60.0, true);
        int n = paper_pixels(h) - rest;
        most = n > most ? n : most;
        gone += n > PAPER_SEEN;
    }
    printf("go to page 46 (at %d|%d): %d of 30 frames showed paper where a page is (most %d)\n",
           state_of(book).left, state_of(book).right, gone, most);
    CHECK(&st, state_of(book).left == 46 && gone == 0,
          "go to page 46 (at %d): %d of 30 frames showed paper where a page is (most %d paper "
          "pixels)",
          state_of(book).left, gone, most);
    pagecurl_book_destroy(book);
}

/* A watch on a call that may never return: past `seconds` the test fails and ends there (a hang
 * would hold ctest until its own timeout, and say nothing of what hung). */
typedef struct Watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t over;
    bool done;
    double seconds;
    const char *what;
} Watchdog;

static void *watch(void *user)
{
    Watchdog *w = user;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)w->seconds;
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        if (pthread_cond_timedwait(&w->over, &w->lock, &until) != 0)
            break;
    bool hung = !w->done;
    pthread_mutex_unlock(&w->lock);
    if (hung) {
        printf("FAIL test_api: %s has not returned after %g s\n", w->what, w->seconds);
        fflush(stdout);
        _exit(1);
    }
    return NULL;
}

static void watchdog_start(Watchdog *w, double seconds, const char *what)
{
    *w = (Watchdog){.seconds = seconds, .what = what};
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->over, NULL);
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        printf("FAIL test_api: no thread to watch %s\n", what);
        exit(1);
    }
}

static void watchdog_stop(Watchdog *w)
{
    pthread_mutex_lock(&w->lock);
    w->done = true;
    pthread_cond_signal(&w->over);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->over);
    pthread_mutex_destroy(&w->lock);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* A page provider that never returns from page `stuck_page` (it waits on a condition nobody
 * signals): the library may go on using `user` after the book has gone, so it is static. */
typedef struct Stuck {
    pthread_mutex_t lock;
    pthread_cond_t never;
    int stuck_page;
    atomic_int calls, entered; /* calls begun; the page of the one that hangs, once begun */
} Stuck;

static bool draw_stuck(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    Stuck *s = user;
    atomic_fetch_add(&s->calls, 1);
    if (page == s->stuck_page) {
        atomic_store(&s->entered, page);
        pthread_mutex_lock(&s->lock);
        for (;;)
            pthread_cond_wait(&s->never, &s->lock);
    }
    memset(rgba, 120, (size_t)width * height * 4);
    return true;
}

static bool stop_when_entered(void *user)
{
    return atomic_load(&((Stuck *)user)->entered) != 0;
}

/* A host's page provider whose call never returns holds neither pagecurl_book_render nor
 * pagecurl_book_destroy: a wait for the page ends at page_seconds with one ERROR for it (given
 * up), the provider is not called again while that call runs (one page at a time), and the book
 * is destroyed without waiting for it; so is a book whose call hangs with no time limit. */
static void stuck_provider(pagecurl_context *ctx)
{
    static Stuck stuck[2] = {{PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 0, 0},
                             {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 0, 0}};
    pagecurl_page_provider provider = {.page_count = 4, .draw_page = draw_stuck};
    provider.user = &stuck[0];
    pagecurl_book *book = made(
        ctx,
        (pagecurl_book_desc){.provider = provider, .wait_for_pages = true, .page_seconds = 0.5f});
    if (!book)
        return;
    pagecurl_render_desc rd = {.size = sizeof rd, .width = 160, .height = 100};
    uint8_t *rgba = malloc((size_t)rd.width * rd.height * 4);
    pagecurl_error err = {0};
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Watchdog dog;
    watchdog_start(&dog, 60.0, "pagecurl_book_render with a page provider that never returns");
    bool rendered = rgba && pagecurl_book_render(book, 0.0, &rd, rgba, &err);
    watchdog_stop(&dog);
    double took = seconds_since(&t0);
    pagecurl_event e, first = {0};
    int errors = 0;
    while (pagecurl_book_poll_event(book, &e))
        if (e.type == PAGECURL_EVENT_ERROR) {
            errors++;
            if (e.page == 1)
                first = e;
        }
    printf("a render whose page 1's provider call never returns: %.2f s (page_seconds 0.5); page "
           "1's error: %s\n",
           took, first.message);
    CHECK(&st, rendered, "render: %s", err.message);
    /* that it returned at all is the check (the provider's call never does): the watchdog is
     * the ceiling; its time, printed above, depends on the machine's load */
    CHECK(&st,
          first.page == 1 && strstr(first.message, "given up") && strstr(first.message, "provider"),
          "a stuck provider's page: %d errors, page %d's: %s", errors, first.page, first.message);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    watchdog_start(&dog, 60.0, "pagecurl_book_destroy with a page given up still being drawn");
    pagecurl_book_destroy(book);
    watchdog_stop(&dog);
    printf("destroyed in %.3f s; the provider was called %d time(s)\n", seconds_since(&t0),
           atomic_load(&stuck[0].calls));
    CHECK(&st, atomic_load(&stuck[0].calls) == 1,
          "the provider was called %d times while its first call had not returned",
          atomic_load(&stuck[0].calls));
    free(rgba);

    /* no time limit: the render's wait is cut short by its stop hook once the call has begun,
     * and the book's end comes while the call hangs */
    provider.user = &stuck[1];
    book = made(ctx, (pagecurl_book_desc){.provider = provider,
                                          .page_seconds = -1.0f,
                                          .stop = stop_when_entered,
                                          .stop_user = &stuck[1]});
    if (!book)
        return;
    watchdog_start(&dog, 60.0, "a render whose stop hook says stop");
    CHECK(&st, pagecurl_book_render(book, 0.0, &rd, NULL, &err), "render: %s", err.message);
    watchdog_stop(&dog);
    CHECK(&st, atomic_load(&stuck[1].entered) == 1, "the provider was never asked for page 1");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    watchdog_start(&dog, 60.0, "pagecurl_book_destroy while a provider's call hangs");
    pagecurl_book_destroy(book);
    watchdog_stop(&dog);
    printf("destroyed while the provider's call hangs (no page time limit) in %.3f s\n",
           seconds_since(&t0));
}

/* What a window needs of the book besides its frames: the table of contents for a "go to" field,
 * the layout shown, the tier drawn, the turns queued behind a settling leaf, the row below the
 * book's head (a HUD keeps above it), pages being drawn. */
static void window_queries(Host *h, pagecurl_context *ctx, const char *dir)
{
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.page = 3, .thumb_through = true});
    if (!book)
        return;
    CHECK(&st,
          pagecurl_book_outline_count(book) == 0 &&
              pagecurl_book_outline_entry(book, 0, NULL, 0, NULL) == -1 &&
              pagecurl_book_outline_find(book, "a", 0) == -1,
          "the built-in book has an outline");
    CHECK(&st, pagecurl_book_head_row(book) == 0, "a head row before the first frame");
    double t = 0.0;
    host_frame(h, book, t, true);
    pagecurl_state s = state_of(book);
    pagecurl_limits limits = {.size = sizeof limits};
    pagecurl_context_limits(ctx, &limits);
    CHECK(&st, !s.single && s.quality == limits.auto_tier, "a spread at the auto tier: %d %d",
          s.single, s.quality);
    uint32_t rest = pagecurl_book_head_row(book);
    /* three keys while the first leaf settles: the book heads for 8|9 at once */
    for (int k = 0; k < 3; k++)
        pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t);
    host_frame(h, book, t += 1.0 / 60.0, false);
    s = state_of(book);
    CHECK(&st, s.turning && s.left == 2 && s.heading_left == 8 && s.heading_right == 9,
          "three turns queued from 2|3: at %d|%d heading for %d|%d", s.left, s.right,
          s.heading_left, s.heading_right);
    /* each leaf lifts and lands: three starts and ends (one flight), forward and turned over */
    Seen thumbs = {0};
    bool back = false;
    for (int f = 0; f < 600 && (f == 0 || state_of(book).turning); f++) {
        host_frame(h, book, t += 1.0 / 60.0, false);
        pagecurl_event e;
        while (pagecurl_book_poll_event(book, &e)) {
            thumbs.count[e.type]++;
            back =
                back ||
                ((e.type == PAGECURL_EVENT_TURN_STARTED || e.type == PAGECURL_EVENT_TURN_ENDED) &&
                 (!e.forward || (e.type == PAGECURL_EVENT_TURN_ENDED && !e.completed)));
            if (e.type == PAGECURL_EVENT_TURN_ENDED)
                thumbs.last[e.type] = e;
        }
    }
    CHECK(&st,
          thumbs.count[PAGECURL_EVENT_TURN_STARTED] == 3 &&
              thumbs.count[PAGECURL_EVENT_TURN_ENDED] == 3 &&
              thumbs.count[PAGECURL_EVENT_SPREAD_CHANGED] == 3 && !back &&
              thumbs.last[PAGECURL_EVENT_TURN_ENDED].right == 9,
          "thumbing three leaves: %d starts, %d ends, %d spreads (3 each), one back "
          "%d, the last end at page %d",
          thumbs.count[PAGECURL_EVENT_TURN_STARTED], thumbs.count[PAGECURL_EVENT_TURN_ENDED],
          thumbs.count[PAGECURL_EVENT_SPREAD_CHANGED], back,
          thumbs.last[PAGECURL_EVENT_TURN_ENDED].right);
    pagecurl_book_destroy(book);
    /* held mid-turn the view pulls back: the head comes down the viewport */
    book = made(ctx, (pagecurl_book_desc){.page = 3, .layout = PAGECURL_LAYOUT_SINGLE});
    if (!book)
        return;
    pagecurl_book_hold(book, 0.5f, 0.25f, false);
    host_frame(h, book, 0.0, true);
    uint32_t held = pagecurl_book_head_row(book);
    CHECK(&st, held > rest && held < H - 2 * BORDER,
          "the head's row: %u at rest, %u held mid-turn (of %d)", rest, held, H - 2 * BORDER);
    CHECK(&st, state_of(book).single, "the single layout shows two pages");
    CHECK(&st, pagecurl_book_set_quality(book, PAGECURL_QUALITY_HIGH), "set_quality high");
    host_frame(h, book, 0.0, true);
    CHECK(&st, state_of(book).quality == PAGECURL_QUALITY_HIGH, "stepped up: tier %d",
          state_of(book).quality);
    pagecurl_book_destroy(book);
    /* a PDF's outline */
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/outlined.pdf", dir);
    CHECK(&st, write_outlined_pdf(pdf, 6), "cannot write %s", pdf);
    book = made(ctx, (pagecurl_book_desc){.path = pdf});
    if (!book)
        return;
    char title[256], cut[8];
    int depth = -1;
    CHECK(&st, pagecurl_book_outline_count(book) == 2, "outline: %d entries",
          pagecurl_book_outline_count(book));
    int page = pagecurl_book_outline_entry(book, 1, title, sizeof title, &depth);
    CHECK(&st, page == 3 && depth == 1 && !strcmp(title, "A Section"),
          "outline 1: '%s' page %d depth %d", title, page, depth);
    page = pagecurl_book_outline_entry(book, 0, cut, sizeof cut, NULL);
    CHECK(&st, page == 1 && !strcmp(cut, "Chapter"), "outline 0 cut: '%s' page %d", cut, page);
    CHECK(&st,
          pagecurl_book_outline_entry(book, 2, NULL, 0, NULL) == -1 &&
              pagecurl_book_outline_find(book, "section", 0) == 1 &&
              pagecurl_book_outline_find(book, "CHAPTER", 1) == -1 &&
              pagecurl_book_outline_find(book, "c", 1) == 1,
          "outline: a search");
    /* the pages stream in without a wait: PAGE_READY, and `streaming` over, within seconds */
    Seen seen = {0};
    t = 0.0;
    for (int f = 0; f < 600 && (state_of(book).streaming || !seen.count[PAGECURL_EVENT_PAGE_READY]);
         f++) {
        host_frame(h, book, t += 1.0 / 60.0, true);
        poll(book, &seen);
        struct timespec nap = {0, 10000000};
        nanosleep(&nap, NULL);
    }
    CHECK(&st,
          !state_of(book).streaming && !state_of(book).pages_ready &&
              seen.count[PAGECURL_EVENT_PAGE_READY],
          "still streaming %d, %d pages ready", state_of(book).streaming,
          seen.count[PAGECURL_EVENT_PAGE_READY]);
    pagecurl_book_destroy(book);
}

/* A timed book's first frame recorded and dropped by the host (never submitted, so its
 * timestamps never come): recording that slot again returns (the read waited for them: forever
 * on a GPU, lavapipe gave up), draws, and the dropped frame is not reported as finished (it was,
 * with no stages). */
static void dropped_frame(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true, .timed = true});
    if (!book)
        return;
    uint32_t slot = (uint32_t)(h->frame % 2);
    pagecurl_target target = {
        .size = sizeof target,
        .image = h->image,
        .extent = {h->width, h->height},
        .viewport = {{BORDER, BORDER}, {h->width - 2 * BORDER, h->height - 2 * BORDER}},
        .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
        .format = h->format,
    };
    pagecurl_error err;
    VK_OK(vkWaitForFences(h->device, 1, &h->fence[slot], VK_TRUE, UINT64_MAX));
    bool updated = pagecurl_book_update(book, 0.0, &target, &err);
    CHECK(&st, updated, "the dropped frame's update: %s", updated ? "" : err.message);
    VK_OK(vkBeginCommandBuffer(
        h->cmd[slot],
        &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT}));
    bool recorded = pagecurl_book_record(book, h->cmd[slot], slot, &target, &err);
    CHECK(&st, recorded, "the dropped frame's record: %s", recorded ? "" : err.message);
    VK_OK(vkEndCommandBuffer(h->cmd[slot])); /* and never submitted */
    h->frame += 2;                           /* the next frame records the same slot */
    Watchdog w;
    watchdog_start(&w, 120.0, "a record after a dropped frame");
    bool drawn = host_frame(h, book, 0.0, true);
    watchdog_stop(&w);
    CHECK(&st, drawn, "no frame after a dropped one");
    /* the dropped frame never finished: it has no times; the drawn one has, once its slot is
     * recorded again */
    pagecurl_frame_times times = {.size = sizeof times};
    bool got = pagecurl_book_frame_times(book, &times);
    CHECK(&st, !got, "a dropped frame's times: frame %llu, %u stages",
          (unsigned long long)times.frame, times.stage_count);
    for (int f = 0; f < 2; f++)
        host_frame(h, book, 0.0, true);
    got = pagecurl_book_frame_times(book, &times);
    CHECK(&st, got && times.frame == 1 && times.stage_count >= 2,
          "the times after a dropped frame: %d, frame %llu, %u stages", got,
          (unsigned long long)times.frame, times.stage_count);
    pagecurl_book_destroy(book);
}

/* A book's frames timed on the device: the stages of the last frame finished, with no pixel
 * changed by the timing; a leaf read back from a host's frame, bit for bit the one the book's
 * own frame reads; a frame shown ahead of the clock (the lead) as one at that later time; the
 * detail hold. */
static void window_frames(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *plain = made(ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true}),
                  *timed = made(
                      ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true, .timed = true});
    if (!plain || !timed)
        return;
    pagecurl_frame_times times = {.size = sizeof times};
    CHECK(&st, !pagecurl_book_frame_times(timed, &times), "times before a frame");
    pagecurl_book_hold(plain, 0.3f, 0.25f, false);
    pagecurl_book_hold(timed, 0.3f, 0.25f, false);
    host_frame(h, plain, 0.0, true);
    uint8_t *a = viewport_copy(h);
    /* each book's first frame, drawn directly (a later one may be drawn over the low tier's
     * still pages); the third records the first's slot again, which has its times read */
    host_frame(h, timed, 0.0, true);
    uint8_t *b = viewport_copy(h);
    for (int f = 0; f < 2; f++)
        host_frame(h, timed, 0.0, true);
    bool got = pagecurl_book_frame_times(timed, &times);
    bool render = false;
    for (uint32_t i = 0; got && i < times.stage_count; i++)
        render = render || !strcmp(times.names[i], "render");
    CHECK(&st, got && times.stage_count >= 2 && render && times.total_ms > 0.0 && times.frame <= 1,
          "times: %d, %u stages (render %d), %.3f ms, frame %llu", got, times.stage_count, render,
          times.total_ms, (unsigned long long)times.frame);
    CHECK(&st, !pagecurl_book_frame_times(plain, &times), "an untimed book's times");
    CHECK(&st, a && b && pixels_differ(a, b) == 0, "timing changed %zu pixels",
          a && b ? pixels_differ(a, b) : 0);
    free(a), free(b);
    CHECK(&st, !pagecurl_book_read_leaf(plain), "a leaf read without leaf_readback");
    pagecurl_book_destroy(plain);
    pagecurl_book_destroy(timed);
    dropped_frame(h, ctx);
    /* the leaf from a host's frame and from the book's own */
    pagecurl_book *hosted = made(ctx, (pagecurl_book_desc){.page = 3, .leaf_readback = true}),
                  *own = made(ctx, (pagecurl_book_desc){.page = 3, .leaf_readback = true});
    if (!hosted || !own)
        return;
    pagecurl_book_hold(hosted, 0.4f, 0.3f, false);
    pagecurl_book_hold(own, 0.4f, 0.3f, false);
    host_frame(h, hosted, 0.0, true);
    pagecurl_leaf leaf = {.size = sizeof leaf}, mine = {.size = sizeof mine};
    CHECK(&st, !pagecurl_book_leaf(hosted, &leaf), "a leaf not asked for");
    CHECK(&st, pagecurl_book_read_leaf(hosted), "read_leaf refused");
    host_frame(h, hosted, 0.0, true);
    pagecurl_error err;
    bool drawn = pagecurl_book_render(own, 0.0,
                                      &(pagecurl_render_desc){.size = sizeof(pagecurl_render_desc),
                                                              .width = W - 2 * BORDER,
                                                              .height = H - 2 * BORDER,
                                                              .read_leaf = true},
                                      NULL, &err);
    CHECK(&st, drawn, "render: %s", err.message);
    bool both = pagecurl_book_leaf(hosted, &leaf) && pagecurl_book_leaf(own, &mine);
    CHECK(&st,
          both && leaf.vertex_count == 64 * 90 && leaf.vertex_count == mine.vertex_count &&
              !memcmp(leaf.vertices, mine.vertices, leaf.vertex_count * 8 * sizeof(float)),
          "the hosted frame's leaf is not the book's own frame's");
    pagecurl_book_destroy(hosted);
    pagecurl_book_destroy(own);
    /* a turn shown 50 ms ahead of the clock is the turn 50 ms later */
    pagecurl_book *ahead = made(ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true}),
                  *later = made(ctx, (pagecurl_book_desc){.page = 3, .wait_for_pages = true});
    if (!ahead || !later)
        return;
    CHECK(&st, !pagecurl_book_set_lead(ahead, 0.2) && !pagecurl_book_set_lead(ahead, -1.0),
          "a lead out of range taken");
    CHECK(&st, pagecurl_book_set_lead(ahead, 0.05), "a lead of 50 ms refused");
    host_frame(h, ahead, 0.0, false);
    host_frame(h, later, 0.0, false);
    pagecurl_book_action(ahead, PAGECURL_ACTION_NEXT, 0.0);
    pagecurl_book_action(later, PAGECURL_ACTION_NEXT, 0.0);
    host_frame(h, ahead, 0.2, true);
    uint8_t *shown = viewport_copy(h);
    host_frame(h, later, 0.25, true);
    uint8_t *then = viewport_copy(h);
    CHECK(&st, state_of(ahead).progress < state_of(later).progress,
          "the lead moved the clock: progress %.3f, %.3f later", state_of(ahead).progress,
          state_of(later).progress);
    CHECK(&st, shown && then && pixels_differ(shown, then) == 0,
          "50 ms ahead: %zu pixels off the frame 50 ms later",
          shown && then ? pixels_differ(shown, then) : 0);
    free(shown), free(then);
    CHECK(&st, !pagecurl_book_hold_detail(ahead, 2.0) && pagecurl_book_hold_detail(ahead, 0.08),
          "hold_detail's range");
    CHECK(&st, host_frame(h, ahead, 0.3, true), "a frame holding for detail");
    pagecurl_book_destroy(ahead);
    pagecurl_book_destroy(later);
}

/* A host's pages: page N is drawn in its own colour; page 2 cannot be drawn. */
typedef struct Provider {
    int drawn[8];
} Provider;

static bool draw_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    Provider *p = user;
    if (page >= 1 && page < 8)
        p->drawn[page]++;
    if (page == 2)
        return false;
    for (size_t i = 0; i < (size_t)width * height; i++) {
        rgba[4 * i + 0] = page == 1 ? 220 : 40;
        rgba[4 * i + 1] = 40;
        rgba[4 * i + 2] = page == 1 ? 40 : 220;
        rgba[4 * i + 3] = 255;
    }
    return true;
}

/* pagecurl_book_desc.reduced_motion: a key turn is a cross-fade, moving and turning but never
 * curled (progress 0), landed within a quarter second and a frame; a host built before the field
 * (a .size ending before it) gets the curl. */
static void reduced_motion(Host *h, pagecurl_context *ctx)
{
    pagecurl_error err;
    pagecurl_book *book = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){
            .size = sizeof(pagecurl_book_desc), .page = 3, .reduced_motion = true},
        &err);
    CHECK(&st, book != NULL, "a reduced-motion book: %s", err.message);
    if (!book)
        return;
    double t = 0.0;
    host_frame(h, book, t, false);
    CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t), "next");
    bool curled = false, faded = false;
    int frames = 0;
    for (; frames < 60; frames++) {
        host_frame(h, book, t += 1.0 / 60.0, false);
        pagecurl_state s = state_of(book);
        curled |= s.progress > 0.0f;
        faded |= s.turning && s.moving;
        if (!s.turning)
            break;
    }
    pagecurl_state s = state_of(book);
    CHECK(&st, faded && !curled && s.left == 4 && s.right == 5 && frames <= 16,
          "a reduced-motion turn: faded %d curled %d, at %d|%d after %d frames", faded, curled,
          s.left, s.right, frames);
    pagecurl_book_destroy(book);
    size_t before = offsetof(pagecurl_book_desc, reduced_motion);
    pagecurl_book_desc old = {.size = (uint32_t)before, .page = 3};
    book = pagecurl_book_create(ctx, &old, &err);
    CHECK(&st, book != NULL, "a description of the size before reduced_motion: %s", err.message);
    if (!book)
        return;
    host_frame(h, book, t = 0.0, false);
    pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t);
    host_frame(h, book, t += 0.1, false);
    CHECK(&st, state_of(book).progress > 0.0f,
          "an older host's book (no reduced_motion) does not curl");
    pagecurl_book_destroy(book);
}

static void page_size(void *user, int page, float *width, float *height)
{
    (void)user, (void)page;
    *width = 3.0f, *height = 4.0f;
}

/* The widest a page of `user` (a uint32_t) was asked for. */
static bool widest_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    uint32_t *widest = user;
    *widest = width > *widest ? width : *widest;
    return blank_page(NULL, page, width, height, rgba);
}

static void tall_size(void *user, int page, float *width, float *height)
{
    (void)user, (void)page;
    *width = 1.0f, *height = 2.0f;
}

/* A spread's pages are drawn no wider than the view shows them: pages twice as tall as wide in
 * the 592x352 viewport are shown at most 176 px wide, and drawn 256 wide (the least a layer
 * is), not for half the viewport's width (320: texels never shown, a fifth more texture memory
 * at 1920x1080). */
static void drawn_width(Host *h, pagecurl_context *ctx)
{
    uint32_t widest = 0;
    pagecurl_error err;
    pagecurl_book *book =
        pagecurl_book_create(ctx,
                             &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                                   .provider = {.user = &widest,
                                                                .page_count = 3,
                                                                .page_size = tall_size,
                                                                .draw_page = widest_page},
                                                   .wait_for_pages = true},
                             &err);
    CHECK(&st, book != NULL, "a book of tall pages: %s", err.message);
    if (!book)
        return;
    host_frame(h, book, 0.0, true);
    CHECK(&st, widest == 256, "tall pages in a wide view drawn %u texels wide, want 256", widest);
    pagecurl_book_destroy(book);
}

/* Bound on the right by the description, the book says so to the host (its arrows swap). */
static void right_bound(pagecurl_context *ctx)
{
    pagecurl_error err;
    pagecurl_book *book =
        pagecurl_book_create(ctx,
                             &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                                   .binding = PAGECURL_BINDING_RIGHT},
                             &err);
    CHECK(&st, book != NULL, "a right-bound book: %s", err.message);
    if (!book)
        return;
    pagecurl_state s = {.size = sizeof s};
    pagecurl_book_state(book, &s);
    CHECK(&st, s.bound_right, "a right-bound book's state says it binds on the right");
    pagecurl_book_destroy(book);
}

static void provider(Host *h, pagecurl_context *ctx)
{
    Provider p = {0};
    pagecurl_error err;
    pagecurl_book *book =
        pagecurl_book_create(ctx,
                             &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                                   .provider = {.user = &p,
                                                                .page_count = 5,
                                                                .page_size = page_size,
                                                                .draw_page = draw_page},
                                                   .wait_for_pages = true},
                             &err);
    CHECK(&st, book != NULL, "a provider's book: %s", err.message);
    if (!book)
        return;
    Seen seen = {0};
    host_frame(h, book, 0.0, true);
    poll(book, &seen);
    CHECK(&st, p.drawn[1] >= 1, "page 1 was drawn %d times", p.drawn[1]);
    CHECK(&st, seen.count[PAGECURL_EVENT_PAGE_READY] >= 1, "page ready events: %d",
          seen.count[PAGECURL_EVENT_PAGE_READY]);
    /* the closed book shows page 1 on the right: the middle of the right half is red */
    int red = 0;
    for (uint32_t x = W / 2 + 20; x < W - BORDER - 40; x += 8)
        for (uint32_t y = H / 3; y < 2 * H / 3; y += 8) {
            const uint8_t *px = pixel(h, x, y);
            red += px[0] > px[1] + 60 && px[0] > px[2] + 60;
        }
    CHECK(&st, red > 20, "page 1 in its colour: %d red samples", red);
    /* page 2 (the back of leaf 1) is drawn ahead of the next turn, and fails */
    for (int f = 0; f < 200 && !seen.count[PAGECURL_EVENT_ERROR]; f++) {
        host_frame(h, book, 0.0, true);
        poll(book, &seen);
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    CHECK(&st,
          seen.count[PAGECURL_EVENT_ERROR] == 1 && seen.last[PAGECURL_EVENT_ERROR].page == 2 &&
              strstr(seen.last[PAGECURL_EVENT_ERROR].message, "page 2"),
          "page 2's failure: %d events, page %d: %s", seen.count[PAGECURL_EVENT_ERROR],
          seen.last[PAGECURL_EVENT_ERROR].page, seen.last[PAGECURL_EVENT_ERROR].message);
    pagecurl_book_destroy(book);
}

/* Pages that change (pagecurl_book_invalidate, _set_page_count, _set_provider) and a page of
 * another shape than the book's: a provider whose pages are drawn red, then blue once `blue` is
 * set; `hold` keeps a call waiting (at most 20 s: only a hang) while the test looks at the frames
 * drawn meanwhile. Page `wide` (0: none) is 4:3, the others 3:4; the size each page was last asked
 * at is kept. */
typedef struct Changing {
    atomic_int blue, hold, wide;
    atomic_uint width[8], height[8];
} Changing;

static bool changing_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    Changing *c = user;
    for (int i = 0; i < 4000 && atomic_load(&c->hold); i++) {
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    if (page >= 1 && page < 8)
        atomic_store(&c->width[page], width), atomic_store(&c->height[page], height);
    bool blue = atomic_load(&c->blue);
    for (size_t i = 0; i < (size_t)width * height; i++) {
        rgba[4 * i + 0] = blue ? 40 : 220;
        rgba[4 * i + 1] = 40;
        rgba[4 * i + 2] = blue ? 220 : 40;
        rgba[4 * i + 3] = 255;
    }
    return true;
}

static void changing_size(void *user, int page, float *width, float *height)
{
    const Changing *c = user;
    bool wide = page == atomic_load(&c->wide);
    *width = wide ? 4.0f : 3.0f, *height = wide ? 3.0f : 4.0f;
}

/* The samples of the middle of the viewport's right half (page 1 of a closed book) that are red,
 * blue and neither. */
typedef struct Colours {
    int red, blue, other;
} Colours;

static Colours right_page(const Host *h)
{
    Colours c = {0};
    for (uint32_t x = W / 2 + 20; x < W - BORDER - 40; x += 8)
        for (uint32_t y = H / 3; y < 2 * H / 3; y += 8) {
            const uint8_t *px = pixel(h, x, y);
            if (px[0] > px[1] + 60 && px[0] > px[2] + 60)
                c.red++;
            else if (px[2] > px[1] + 60 && px[2] > px[0] + 60)
                c.blue++;
            else
                c.other++;
        }
    return c;
}

/* Frames at `t` (stepped on) until the book is at rest and draws no page: a ceiling that only
 * catches a hang. */
static double settle(Host *h, pagecurl_book *book, double t)
{
    for (int f = 0; f < 400; f++) {
        pagecurl_state s = state_of(book);
        if (f && !s.moving && !s.turning && !s.streaming && !s.pages_ready)
            break;
        host_frame(h, book, t += 1.0 / 30.0, true);
        if (s.streaming) {
            struct timespec nap = {0, 5 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    return t;
}

/* pagecurl_book_invalidate: the provider is asked again and its new picture shows, the old one
 * shown until it arrives (a page held up in the provider shows red, never paper), with a
 * PAGE_READY for it. */
static void invalidated(Host *h, pagecurl_context *ctx)
{
    Changing c = {0};
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.provider = {.user = &c,
                                                                      .page_count = 4,
                                                                      .page_size = changing_size,
                                                                      .draw_page = changing_page},
                                                         .wait_for_pages = true});
    if (!book)
        return;
    double t = settle(h, book, 0.0);
    Colours before = right_page(h);
    CHECK(&st, before.red > 20 && !before.blue, "page 1 red before: %d red, %d blue, %d other",
          before.red, before.blue, before.other);
    CHECK(&st,
          !pagecurl_book_invalidate(book, 5) && !pagecurl_book_invalidate(book, -1) &&
              !pagecurl_book_invalidate(NULL, 1),
          "pages the book lacks invalidated");
    Seen seen = {0};
    poll(book, &seen);
    atomic_store(&c.hold, 1);
    atomic_store(&c.blue, 1);
    CHECK(&st, pagecurl_book_invalidate(book, 1), "page 1 invalidated");
    /* the page's samples are red, then blue, never fewer (paper, a blank page between) */
    int changed = 0;
    for (int f = 0; f < 5; f++) { /* the provider holds the new page: the old one shows */
        host_frame(h, book, t += 1.0 / 30.0, true);
        Colours now = right_page(h);
        changed += now.red < before.red - 2 || now.blue;
    }
    CHECK(&st, !changed, "while page 1 is redrawn it shows as it was: %d frames of 5 differ",
          changed);
    atomic_store(&c.hold, 0);
    Colours now = {0};
    int blank = 0, f = 0;
    for (; f < 400 && now.blue < before.red - 2; f++) {
        host_frame(h, book, t += 1.0 / 30.0, true);
        now = right_page(h);
        blank += now.red + now.blue < before.red - 2;
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    poll(book, &seen);
    CHECK(&st, now.blue > 20 && !now.red && !blank,
          "page 1 redrawn blue after %d frames: %d blue, %d red; %d frames neither", f, now.blue,
          now.red, blank);
    CHECK(&st,
          seen.count[PAGECURL_EVENT_PAGE_READY] >= 1 &&
              seen.last[PAGECURL_EVENT_PAGE_READY].page >= 1,
          "the page redrawn is told ready: %d events", seen.count[PAGECURL_EVENT_PAGE_READY]);
    /* all pages: the spread's both sides asked again */
    atomic_store(&c.blue, 0);
    CHECK(&st, pagecurl_book_invalidate(book, PAGECURL_ALL_PAGES), "every page invalidated");
    for (f = 0; f < 400 && right_page(h).red <= 20; f++) {
        host_frame(h, book, t += 1.0 / 30.0, true);
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    CHECK(&st, right_page(h).red > 20, "every page invalidated: page 1 red again after %d frames",
          f);
    pagecurl_book_destroy(book);
}

/* A provider's page of another shape than the book's (4:3 among 3:4 pages) is asked for at its
 * own shape and drawn so, fitted on the book's page: its red rectangle in the frame is 4:3 (it
 * was asked at the book's 3:4 and stretched). */
static void fitted_page(Host *h, pagecurl_context *ctx)
{
    Changing c = {0};
    atomic_store(&c.wide, 1);
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.provider = {.user = &c,
                                                                      .page_count = 5,
                                                                      .page_size = changing_size,
                                                                      .draw_page = changing_page},
                                                         .layout = PAGECURL_LAYOUT_SPREAD,
                                                         .show_through = -1.0f,
                                                         .wait_for_pages = true});
    if (!book)
        return;
    settle(h, book, 0.0);
    float asked = (float)atomic_load(&c.width[1]) / (float)atomic_load(&c.height[1]);
    float other = (float)atomic_load(&c.width[2]) / (float)atomic_load(&c.height[2]);
    CHECK(&st, fabsf(asked / (4.0f / 3.0f) - 1.0f) < 0.01f && fabsf(other / 0.75f - 1.0f) < 0.01f,
          "a 4:3 page asked at %ux%u (%.3f), a 3:4 one at %ux%u (%.3f)", atomic_load(&c.width[1]),
          atomic_load(&c.height[1]), (double)asked, atomic_load(&c.width[2]),
          atomic_load(&c.height[2]), (double)other);
    uint32_t x0 = W, y0 = H, x1 = 0, y1 = 0;
    for (uint32_t y = BORDER; y < H - BORDER; y++)
        for (uint32_t x = BORDER; x < W - BORDER; x++) {
            const uint8_t *px = pixel(h, x, y);
            if (px[0] > px[1] + 60 && px[0] > px[2] + 60) {
                x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
            }
        }
    float drawn = x1 > x0 && y1 > y0 ? (float)(x1 - x0 + 1) / (float)(y1 - y0 + 1) : 0.0f;
    CHECK(&st, fabsf(drawn / (4.0f / 3.0f) - 1.0f) < 0.03f,
          "the 4:3 page's print drawn %ux%u px (%.3f), want 4:3", x1 - x0 + 1, y1 - y0 + 1,
          (double)drawn);
    pagecurl_book_destroy(book);
}

/* The page count changed and the provider replaced: the place kept within the new count, the ink
 * of a page past it kept (read back, and there again when the count grows back), a built-in
 * book's pages refused. */
static void page_count_changed(Host *h, pagecurl_context *ctx)
{
    Changing c = {0};
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.provider = {.user = &c,
                                                                      .page_count = 6,
                                                                      .page_size = changing_size,
                                                                      .draw_page = changing_page},
                                                         .page = 4,
                                                         .wait_for_pages = true});
    if (!book)
        return;
    double t = settle(h, book, 0.0);
    const pagecurl_ink_point line[] = {
        {0.2f, 0.5f, 0.02f}, {0.5f, 0.52f, 0.02f}, {0.8f, 0.5f, 0.02f}};
    CHECK(&st,
          pagecurl_book_add_stroke(book, 5, line, 3) && pagecurl_book_add_stroke(book, 1, line, 3),
          "strokes on pages 5 and 1");
    pagecurl_error err;
    CHECK(&st, pagecurl_book_set_page_count(book, 3, &err), "6 pages to 3: %s", err.message);
    t = settle(h, book, t);
    pagecurl_state s = state_of(book);
    pagecurl_ink_point back[3] = {{0}};
    uint32_t n = pagecurl_book_get_stroke(book, 5, 0, back, 3);
    CHECK(&st,
          pagecurl_book_page_count(book) == 3 && s.left == 2 && s.right == 3 && s.page >= 2 &&
              s.page <= 3,
          "3 pages from 4|5: %d pages, at %d|%d, page %d", pagecurl_book_page_count(book), s.left,
          s.right, s.page);
    CHECK(&st,
          n == 3 && !memcmp(back, line, sizeof line) && pagecurl_book_stroke_count(book, 5) == 1 &&
              pagecurl_book_stroke_count(book, 1) == 1 && pagecurl_book_stroke_count(book, 0) == 2,
          "the ink of page 5, past the count, kept: %u points, %u strokes there, %u in all", n,
          pagecurl_book_stroke_count(book, 5), pagecurl_book_stroke_count(book, 0));
    CHECK(&st, !pagecurl_book_add_stroke(book, 5, line, 3) && !pagecurl_book_go_to(book, 5),
          "page 5 of 3 taken");
    CHECK(&st, right_page(h).red > 20, "page 3 shown after the change: %d red", right_page(h).red);
    /* the count grows back: page 5 and its ink are there again */
    CHECK(&st, pagecurl_book_set_page_count(book, 7, &err), "3 pages to 7: %s", err.message);
    CHECK(&st, pagecurl_book_go_to(book, 5), "go to page 5 of 7");
    t = settle(h, book, t);
    s = state_of(book);
    CHECK(&st,
          pagecurl_book_page_count(book) == 7 && s.left == 4 && s.right == 5 &&
              pagecurl_book_stroke_count(book, 5) == 1,
          "7 pages: at %d|%d, %u strokes on page 5", s.left, s.right,
          pagecurl_book_stroke_count(book, 5));
    /* another provider: its pages shown (blue), the book's place kept */
    Changing other = {0};
    atomic_store(&other.blue, 1);
    CHECK(
        &st,
        pagecurl_book_set_provider(
            book,
            &(pagecurl_page_provider){.user = &other, .page_count = 9, .draw_page = changing_page},
            &err),
        "another provider: %s", err.message);
    int f = 0;
    for (; f < 400 && right_page(h).blue <= 20; f++) {
        host_frame(h, book, t += 1.0 / 30.0, true);
        struct timespec nap = {0, 5 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    s = state_of(book);
    CHECK(&st,
          right_page(h).blue > 20 && atomic_load(&other.width[5]) > 0 && s.left == 4 &&
              s.right == 5 && pagecurl_book_stroke_count(book, 5) == 1,
          "the other provider's page 5 shown after %d frames, at %d|%d", f, s.left, s.right);
    CHECK(&st,
          !pagecurl_book_set_provider(book, &(pagecurl_page_provider){.page_count = 0}, &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "a provider of no pages: %s", err.message);
    pagecurl_book_destroy(book);
    book = made(ctx, (pagecurl_book_desc){0});
    CHECK(&st,
          book && !pagecurl_book_set_page_count(book, 3, &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "the built-in book's count changed: %s", err.message);
    pagecurl_book_destroy(book);
}

/* pagecurl_book_turn_to: near, a thumb through (a turn a leaf, each told); far, one turn (a cut
 * to the spread beside, then one leaf); the page the book lands at as asked. */
static void turned_to(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.provider = {.page_count = 40, .draw_page = blank_page}});
    if (!book)
        return;
    double t = settle(h, book, 0.0);
    static const struct {
        int page, turns, left, right;
    } to[] = {{8, 4, 8, 9}, {31, 1, 30, 31}, {3, 1, 2, 3}, {3, 0, 2, 3}};
    for (size_t i = 0; i < sizeof to / sizeof to[0]; i++) {
        Seen seen = {0};
        poll(book, &seen);
        memset(&seen, 0, sizeof seen);
        CHECK(&st, pagecurl_book_turn_to(book, to[i].page, t), "turn to %d refused", to[i].page);
        bool animated = state_of(book).turning;
        t = settle(h, book, t);
        poll(book, &seen);
        pagecurl_state s = state_of(book);
        CHECK(&st,
              animated == (to[i].turns > 0) &&
                  seen.count[PAGECURL_EVENT_TURN_STARTED] == to[i].turns &&
                  seen.count[PAGECURL_EVENT_TURN_ENDED] == to[i].turns && s.left == to[i].left &&
                  s.right == to[i].right,
              "turned to %d: animated %d, %d turns started and %d ended (want %d), at %d|%d",
              to[i].page, animated, seen.count[PAGECURL_EVENT_TURN_STARTED],
              seen.count[PAGECURL_EVENT_TURN_ENDED], to[i].turns, s.left, s.right);
    }
    CHECK(&st,
          !pagecurl_book_turn_to(book, 0, t) && !pagecurl_book_turn_to(book, 41, t) &&
              !pagecurl_book_turn_to(book, 5, NAN),
          "a turn to no page taken");
    pagecurl_book_destroy(book);
}

/* pagecurl_book_input does what the calls it names do: a drag through it lifts the page as the
 * same drag through pagecurl_book_pointer does (the frame byte for byte), a key's next turns as
 * the action does; a short .size, an action not the device's and a device out of range are
 * refused, changing nothing (the key's next taken with a short size would turn the page). */
static void input_event(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *pointed = book_at_3(ctx), *input = book_at_3(ctx);
    uint8_t *flat = NULL, *want = NULL, *got = NULL;
    if (pointed && input) {
        host_frame(h, pointed, 0.0, true);
        flat = viewport_copy(h);
        host_frame(h, input, 0.0, true);
        pagecurl_input_event up = {.size = sizeof up,
                                   .device = PAGECURL_INPUT_MOUSE,
                                   .action = PAGECURL_INPUT_UP,
                                   .x = 0.45 * (W - 2 * BORDER),
                                   .y = 0.7 * (H - 2 * BORDER),
                                   .id = 1,
                                   .time = 0.25};
        pagecurl_input_event next = {.size = sizeof next,
                                     .device = PAGECURL_INPUT_KEY,
                                     .action = PAGECURL_INPUT_NEXT,
                                     .time = 0.0};
        pagecurl_input_event wrong[] = {next, next, next, up};
        wrong[0].size = sizeof next - 1;        /* short */
        wrong[1].device = PAGECURL_INPUT_MOUSE; /* a mouse going next */
        wrong[2].device = (pagecurl_input_device)99;
        wrong[3].device = PAGECURL_INPUT_KEY; /* a key going up */
        for (int i = 0; i < 4; i++)
            CHECK(&st, !pagecurl_book_input(input, &wrong[i]), "a wrong event %d taken", i);
        CHECK(&st, !pagecurl_book_input(input, NULL) && !pagecurl_book_input(NULL, &next),
              "a NULL event or book taken");
        pagecurl_state still = state_of(input);
        CHECK(&st, still.right == 3 && !still.turning, "the wrong events turned to %d",
              still.right);
        static const float drag[][2] = {{0.75f, 0.7f}, {0.6f, 0.7f}, {0.45f, 0.7f}};
        for (int i = 0; i < 3; i++) {
            double t = 0.05 * (i + 1);
            pointer(pointed, i ? PAGECURL_POINTER_MOVE : PAGECURL_POINTER_DOWN,
                    PAGECURL_POINTER_MOUSE, 1, drag[i][0], drag[i][1], t);
            pagecurl_input_event e = {.size = sizeof e,
                                      .device = PAGECURL_INPUT_MOUSE,
                                      .action = i ? PAGECURL_INPUT_MOVE : PAGECURL_INPUT_DOWN,
                                      .x = drag[i][0] * (W - 2 * BORDER),
                                      .y = drag[i][1] * (H - 2 * BORDER),
                                      .id = 1,
                                      .time = t};
            CHECK(&st, pagecurl_book_input(input, &e), "the drag's event %d refused", i);
        }
        host_frame(h, pointed, 0.2, true);
        want = viewport_copy(h);
        host_frame(h, input, 0.2, true);
        got = viewport_copy(h);
        size_t lifted = flat && want ? pixels_differ(flat, want) : 0;
        size_t differ = want && got ? pixels_differ(want, got) : 1;
        CHECK(&st, lifted > 0 && differ == 0,
              "a drag through pagecurl_book_input: %zu pixels differ from the pointer's (the "
              "pointer's lifted %zu)",
              differ, lifted);
        pointer(pointed, PAGECURL_POINTER_UP, PAGECURL_POINTER_MOUSE, 1, 0.45f, 0.7f, 0.25);
        CHECK(&st, pagecurl_book_input(input, &up), "the drag's release refused");
        double tp = settle(h, pointed, 0.25), ti = settle(h, input, 0.25);
        bool action = pagecurl_book_action(pointed, PAGECURL_ACTION_NEXT, tp);
        next.time = ti;
        bool keyed = pagecurl_book_input(input, &next);
        settle(h, pointed, tp);
        settle(h, input, ti);
        pagecurl_state a = state_of(pointed), b = state_of(input);
        CHECK(&st, action && keyed && a.right == b.right && a.right >= 5,
              "a key's next through pagecurl_book_input: %d at %d, the action %d at %d", keyed,
              b.right, action, a.right);
    }
    free(flat);
    free(want);
    free(got);
    pagecurl_book_destroy(pointed);
    pagecurl_book_destroy(input);
}

/* The library's secondary command buffers begun (recorded afresh), counted by the Vulkan
 * functions the host hands it (pagecurl_context_desc.get_instance_proc_addr): the loader's, but
 * vkBeginCommandBuffer. */
static atomic_long secondaries_begun;

static VkResult VKAPI_CALL counted_begin(VkCommandBuffer cmd, const VkCommandBufferBeginInfo *info)
{
    if (info->pInheritanceInfo)
        atomic_fetch_add(&secondaries_begun, 1);
    return vkBeginCommandBuffer(cmd, info);
}

/* The depth buffers the library holds for its frames: images whose only use is a depth
 * attachment, named "offscreen depth" (the context's debug names; the shadow map's depth has its
 * own), with their extents. Made, named and destroyed on the thread that draws. */
#define MOST_DEPTHS 32
static struct {
    VkImage image;
    VkExtent3D extent;
    bool frame; /* named as the frame's depth */
} depth_images[MOST_DEPTHS];
static int depth_image_count;

static VkResult VKAPI_CALL counted_create_image(VkDevice device, const VkImageCreateInfo *info,
                                                const VkAllocationCallbacks *allocator,
                                                VkImage *image)
{
    VkResult r = vkCreateImage(device, info, allocator, image);
    if (r == VK_SUCCESS && info->usage == VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT &&
        depth_image_count < MOST_DEPTHS) {
        depth_images[depth_image_count].image = *image;
        depth_images[depth_image_count].extent = info->extent;
        depth_images[depth_image_count++].frame = false;
    }
    return r;
}

static void VKAPI_CALL counted_destroy_image(VkDevice device, VkImage image,
                                             const VkAllocationCallbacks *allocator)
{
    for (int i = 0; i < depth_image_count; i++)
        if (depth_images[i].image == image) {
            depth_images[i] = depth_images[--depth_image_count];
            break;
        }
    vkDestroyImage(device, image, allocator);
}

static PFN_vkSetDebugUtilsObjectNameEXT set_name;

static VkResult VKAPI_CALL counted_set_name(VkDevice device,
                                            const VkDebugUtilsObjectNameInfoEXT *info)
{
    for (int i = 0; i < depth_image_count; i++)
        if (info->objectType == VK_OBJECT_TYPE_IMAGE && info->pObjectName &&
            (uint64_t)depth_images[i].image == info->objectHandle)
            depth_images[i].frame = strstr(info->pObjectName, "offscreen depth") != NULL;
    return set_name(device, info);
}

/* The frame depth images held now: how many, and the last one's extent. */
static int frame_depths(VkExtent3D *last)
{
    int n = 0;
    for (int i = 0; i < depth_image_count; i++)
        if (depth_images[i].frame) {
            n++;
            *last = depth_images[i].extent;
        }
    return n;
}

static PFN_vkVoidFunction VKAPI_CALL counted_device_proc(VkDevice device, const char *name)
{
    if (!strcmp(name, "vkBeginCommandBuffer"))
        return (PFN_vkVoidFunction)counted_begin;
    if (!strcmp(name, "vkCreateImage"))
        return (PFN_vkVoidFunction)counted_create_image;
    if (!strcmp(name, "vkDestroyImage"))
        return (PFN_vkVoidFunction)counted_destroy_image;
    if (!strcmp(name, "vkSetDebugUtilsObjectNameEXT") && set_name)
        return (PFN_vkVoidFunction)counted_set_name;
    return vkGetDeviceProcAddr(device, name);
}

static PFN_vkVoidFunction VKAPI_CALL counted_instance_proc(VkInstance instance, const char *name)
{
    if (!strcmp(name, "vkGetDeviceProcAddr"))
        return (PFN_vkVoidFunction)counted_device_proc;
    if (!strcmp(name, "vkBeginCommandBuffer"))
        return (PFN_vkVoidFunction)counted_begin;
    if (!strcmp(name, "vkCreateImage"))
        return (PFN_vkVoidFunction)counted_create_image;
    if (!strcmp(name, "vkDestroyImage"))
        return (PFN_vkVoidFunction)counted_destroy_image;
    if (!strcmp(name, "vkSetDebugUtilsObjectNameEXT") && set_name)
        return (PFN_vkVoidFunction)counted_set_name;
    return vkGetInstanceProcAddr(instance, name);
}

/* A host that remakes its image and view at the same size, drawn straight into, on an instance
 * without validation (which wraps handles, hiding this): lavapipe hands the new image and view
 * the old ones' handles, and the book replayed the commands it kept for the destroyed ones (a
 * GPU's would write freed memory; lavapipe's look the view up when they run). The book records
 * afresh after a remake the host says (its generation), keeps its commands while the generation
 * holds, and keeps none with the generation unsaid; the frame after the remake is the frame
 * before. */
static void remade_target(void)
{
    Host h = {.format = VK_FORMAT_R8G8B8A8_SRGB};
    host_instance(&h, false);
    host_device(&h, false);
    host_frames(&h, W, H);
    pagecurl_context_desc desc = host_desc(&h);
    desc.get_instance_proc_addr = counted_instance_proc;
    pagecurl_error err;
    pagecurl_context *ctx = pagecurl_context_create(&desc, &err);
    CHECK(&st, ctx != NULL, "a context on the host's device without validation: %s", err.message);
    for (uint64_t said = 0; ctx && said < 2; said++) {
        /* the high tier: the low one's split leaf records every frame anyway */
        pagecurl_book *book = made(ctx, (pagecurl_book_desc){.page = 3,
                                                             .quality = PAGECURL_QUALITY_HIGH,
                                                             .wait_for_pages = true,
                                                             .target_format = h.format,
                                                             .target_samples = 1});
        if (!book)
            break;
        h.direct = true, h.generation = said;
        bool ok = true;
        for (int f = 0; ok && f < 4; f++) /* each slot's first frames */
            ok = host_frame(&h, book, 0.0, true);
        long begun = atomic_load(&secondaries_begun);
        for (int f = 0; ok && f < 2; f++)
            ok = host_frame(&h, book, 0.0, true);
        long steady = atomic_load(&secondaries_begun) - begun;
        uint8_t *before = ok ? viewport_copy(&h) : NULL;
        /* remade until the handles come back (the first remake does not always give them) */
        bool same = false;
        for (int tries = 0; tries < 8 && !same; tries++) {
            VkImage old_image = h.image;
            VkImageView old_view = h.view;
            vkDestroyImageView(h.device, h.view, NULL);
            vkDestroyImage(h.device, h.image, NULL);
            vkFreeMemory(h.device, h.image_memory, NULL);
            host_image(&h, VK_SAMPLE_COUNT_1_BIT, &h.image, &h.image_memory, &h.view);
            same = h.image == old_image && h.view == old_view;
        }
        h.generation += said; /* a host that says: a new number */
        begun = atomic_load(&secondaries_begun);
        for (int f = 0; ok && f < 2; f++)
            ok = host_frame(&h, book, 0.0, true);
        long remade = atomic_load(&secondaries_begun) - begun;
        uint8_t *after = ok ? viewport_copy(&h) : NULL;
        const char *how = said ? "said" : "unsaid";
        printf("remade target, generation %s: the same handles %s; %ld commands recorded in 2 "
               "frames at "
               "rest, "
               "%ld in the 2 frames after the remake\n",
               how, same ? "came back" : "did not come back", steady, remade);
        CHECK(&st, remade == 2, "generation %s: %ld of the 2 frames after the remake recorded", how,
              remade);
        CHECK(&st, said ? steady == 0 : steady == 2,
              "generation %s: %ld commands recorded for 2 frames at rest", how, steady);
        CHECK(&st, before && after && pixels_differ(before, after) == 0,
              "the frame after the host remade its image (generation %s): %zu pixels differ", how,
              before && after ? pixels_differ(before, after) : 0);
        free(before), free(after);
        h.direct = false, h.generation = 0;
        pagecurl_book_destroy(book);
    }
    pagecurl_context_destroy(ctx);
    host_destroy(&h);
}

/* A simple host: the library makes the device, the host records on it. */
/* A host's device made without synchronization2, its enabled features said: refused at once
 * with one line naming it, before anything is drawn (no validation message); the same device's
 * features in full are taken. */
static void enabled_features(void)
{
    for (int without = 1; without >= 0; without--) {
        Host h = {.without_sync2 = without};
        host_instance(&h, true);
        host_device(&h, false);
        pagecurl_context_desc desc = host_desc(&h);
        desc.enabled_features = &h.enabled;
        pagecurl_error err;
        pagecurl_context *ctx = pagecurl_context_create(&desc, &err);
        if (without)
            CHECK(&st,
                  !ctx && err.status == PAGECURL_ERROR_USAGE &&
                      strstr(err.message, "without synchronization2 enabled") &&
                      !strchr(err.message, '\n'),
                  "a device without synchronization2: %s", err.message);
        else
            CHECK(&st, ctx != NULL, "a device with its features said: %s", err.message);
        pagecurl_context_destroy(ctx);
        host_destroy(&h);
        CHECK(&st, h.messages == 0, "%u validation messages, a device %s synchronization2",
              h.messages, without ? "without" : "with");
    }
}

static void own_context(void)
{
    pagecurl_error err;
    pagecurl_context *ctx = pagecurl_context_create(
        &(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc), .validation = true}, &err);
    CHECK(&st, ctx != NULL, "own context: %s", err.message);
    if (!ctx)
        return;
    pagecurl_limits limits = {.size = sizeof limits};
    pagecurl_context_limits(ctx, &limits);
    CHECK(&st, limits.cpu_device && limits.auto_tier == PAGECURL_QUALITY_LOW,
          "lavapipe: cpu %d tier %d", limits.cpu_device, limits.auto_tier);
    CHECK(&st,
          limits.max_grid_vertices > 64 * 90 && limits.max_target_side >= 4096 &&
              strlen(limits.device_name) > 0,
          "limits: %u vertices, %u px", limits.max_grid_vertices, limits.max_target_side);
    CHECK(&st, pagecurl_context_surface(ctx) == VK_NULL_HANDLE, "a surface nobody asked for");
    pagecurl_vulkan vk;
    pagecurl_context_vulkan(ctx, &vk);
    Host h = {.instance = vk.instance,
              .physical = vk.physical_device,
              .device = vk.device,
              .family = vk.queue_family,
              .queue = vk.queue};
    host_frames(&h, W, H);
    pagecurl_book *book = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .wait_for_pages = true},
        &err);
    CHECK(&st, book != NULL, "book: %s", err.message);
    for (int f = 0; book && f < 4; f++)
        host_frame(&h, book, f / 60.0, f == 3);
    pagecurl_book_destroy(book);
    host_destroy(&h);
    CHECK(&st, pagecurl_context_messages(ctx) == 0, "%u validation messages",
          pagecurl_context_messages(ctx));
    pagecurl_context_destroy(ctx);
}

/* create_surface's: a headless surface where the instance has VK_EXT_headless_surface (the
 * window system's stand-in), the call counted; with `user` NULL it fails. */
static bool headless_surface(void *user, VkInstance instance, VkSurfaceKHR *out)
{
    if (!user)
        return false;
    ++*(int *)user;
    PFN_vkCreateHeadlessSurfaceEXT create = (PFN_vkCreateHeadlessSurfaceEXT)vkGetInstanceProcAddr(
        instance, "vkCreateHeadlessSurfaceEXT");
    return create && create(instance,
                            &(VkHeadlessSurfaceCreateInfoEXT){
                                .sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT},
                            NULL, out) == VK_SUCCESS;
}

/* A window's context, made by the library: the window system's instance extensions enabled, its
 * surface made through the host's callback and owned by the context, a queue that presents to
 * it; a surface that cannot be made refuses the context. */
static void window_context(void)
{
    static const char *const extensions[] = {"VK_KHR_surface", "VK_EXT_headless_surface"};
    pagecurl_error err;
    pagecurl_context *ctx =
        pagecurl_context_create(&(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc),
                                                         .create_surface = headless_surface},
                                &err);
    CHECK(&st, !ctx && strstr(err.message, "surface"), "a surface refused: %s",
          ctx ? "made" : err.message);
    pagecurl_context_destroy(ctx);
    uint32_t n = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    VkExtensionProperties *have = calloc(n ? n : 1, sizeof *have);
    bool headless = false;
    if (have && vkEnumerateInstanceExtensionProperties(NULL, &n, have) == VK_SUCCESS)
        for (uint32_t i = 0; i < n; i++)
            headless = headless || !strcmp(have[i].extensionName, "VK_EXT_headless_surface");
    free(have);
    if (!headless) {
        printf("test_api: no VK_EXT_headless_surface here: a window's context is not made\n");
        return;
    }
    int calls = 0;
    ctx = pagecurl_context_create(&(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc),
                                                           .validation = true,
                                                           .instance_extensions = extensions,
                                                           .instance_extension_count = 2,
                                                           .create_surface = headless_surface,
                                                           .surface_user = &calls},
                                  &err);
    CHECK(&st, ctx != NULL, "a window's context: %s", err.message);
    if (!ctx)
        return;
    VkSurfaceKHR surface = pagecurl_context_surface(ctx);
    pagecurl_vulkan vk;
    pagecurl_context_vulkan(ctx, &vk);
    VkBool32 presents = VK_FALSE;
    if (surface)
        vkGetPhysicalDeviceSurfaceSupportKHR(vk.physical_device, vk.queue_family, surface,
                                             &presents);
    CHECK(&st, calls == 1 && surface && presents, "the surface: %d call(s), %s, presents %d", calls,
          surface ? "made" : "none", presents);
    CHECK(&st, pagecurl_context_messages(ctx) == 0, "%u validation messages",
          pagecurl_context_messages(ctx));
    pagecurl_context_destroy(ctx);
}

/* The one-page layout's book: five pages, each a colour of its own, far from paper and from the
 * host's black. */
static const uint8_t STEP_COLOURS[5][3] = {
    {200, 40, 40}, {40, 170, 40}, {40, 40, 200}, {190, 170, 30}, {170, 40, 170}};

static bool coloured_page(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    (void)user;
    const uint8_t *c = STEP_COLOURS[(page - 1) % 5];
    for (size_t i = 0; i < (size_t)width * height; i++)
        memcpy(&rgba[4 * i], (const uint8_t[4]){c[0], c[1], c[2], 255}, 4);
    return true;
}

/* The page (1-based) whose colour the host's last frame shows at the viewport's centre; 0 for
 * none near enough (paper, the backdrop). */
static int page_shown(const Host *h)
{
    const uint8_t *p = pixel(h, W / 2, H / 2);
    int best = 0, least = 60 * 60 * 3;
    for (int k = 0; k < 5; k++) {
        int d = 0;
        for (int c = 0; c < 3; c++)
            d += (p[c] - STEP_COLOURS[k][c]) * (p[c] - STEP_COLOURS[k][c]);
        if (d < least)
            least = d, best = k + 1;
    }
    return best;
}

/* The one-page layout visits every page in order: NEXT from page 1 to the last (a slide of the
 * view to a spread's right-hand page, a turn to the next spread's left-hand one), PREVIOUS back
 * to page 1, bound on the left and on the right: at rest after each the state says the page and
 * the viewport shows it; a step past either end is refused. */
/* Fitted to its width in the one-page view, scrolls go down each page and on to the next at its
 * foot, every page in order and each from its head, the fit kept (a tester's portrait window at
 * fit width went 1, 2, 4, 6: past a left-hand page's foot the scroll turned the leaf, skipping the
 * right-hand page the key's step slides to), then back up to page 1. */
static void one_page_width_scroll(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.provider = {.page_count = 5, .draw_page = coloured_page},
                                       .layout = PAGECURL_LAYOUT_SINGLE,
                                       .wait_for_pages = true});
    if (!book)
        return;
    double t = 0.0;
    host_frame(h, book, t, true);
    CHECK(&st, pagecurl_book_fit(book, PAGECURL_FIT_WIDTH, NAN, NAN, t), "fit width refused");
    char visited[128] = "1", *at = visited + 1;
    int last = 1, wrong = 0;
    for (int back = 0; back < 2; back++)
        for (int k = 0; k < 80 && (back ? last > 1 : last < 5); k++) {
            for (int f = 0; f < 200 && (state_of(book).moving || state_of(book).turning); f++)
                host_frame(h, book, t += 0.05, false);
            host_frame(h, book, t += 0.3, true);
            pagecurl_book_scroll(book, back ? -0.4f : 0.4f, t);
            for (int f = 0; f < 200 && (state_of(book).moving || state_of(book).turning); f++)
                host_frame(h, book, t += 0.05, false);
            host_frame(h, book, t += 0.05, true);
            pagecurl_zoom z = {.size = sizeof z};
            pagecurl_book_get_zoom(book, &z);
            int page = state_of(book).page;
            if (page == last)
                continue;
            /* a new page: the next (the one before), from its head (foot), fitted to its width */
            bool in_order = page == last + (back ? -1 : 1) && page_shown(h) == page;
            bool framed = z.fit == PAGECURL_FIT_WIDTH && z.page == page &&
                          (back ? z.down > 0.3f : z.down < 0.05f);
            wrong += !in_order || !framed;
            at += snprintf(at, (size_t)(visited + sizeof visited - at), " %d%s(%.2f)", page,
                           framed ? "" : "!", (double)z.down);
            last = page;
        }
    printf("one page at fit width, scrolled down and back up: %s\n", visited);
    CHECK(&st, wrong == 0 && last == 1 && strstr(visited, " 5"),
          "one page at fit width: scrolls visited %s (1 .. 5 and back, each page in order from its "
          "head, fitted to width, wanted)",
          visited);
    pagecurl_book_destroy(book);
}

static void one_page_steps(Host *h, pagecurl_context *ctx)
{
    for (int rtl = 0; rtl < 2; rtl++) {
        pagecurl_book *book = made(
            ctx,
            (pagecurl_book_desc){.provider = {.page_count = 5, .draw_page = coloured_page},
                                 .binding = rtl ? PAGECURL_BINDING_RIGHT : PAGECURL_BINDING_LEFT,
                                 .layout = PAGECURL_LAYOUT_SINGLE,
                                 .thumb_through = true,
                                 .wait_for_pages = true});
        if (!book)
            return;
        double t = 0.0;
        host_frame(h, book, t, true);
        char visited[64] = "", *at = visited;
        int wrong = 0;
        for (int back = 0; back < 2; back++)
            for (int k = 0; k < 5; k++) {
                int want = back ? 5 - k : k + 1;
                if (back && !k)
                    CHECK(&st, !pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t),
                          "one page%s: a step past the last page", rtl ? ", rtl" : "");
                /* every other step a scroll from the fitted view (a wheel's notch, then
                 * another within the quarter second it waits: refused), as a PDF viewer's */
                if (k && k % 2) {
                    float notch = back ? -0.125f : 0.125f;
                    CHECK(&st, pagecurl_book_scroll(book, notch, t),
                          "one page%s: the scroll to page %d refused", rtl ? ", rtl" : "", want);
                    CHECK(&st, !pagecurl_book_scroll(book, notch, t + 0.05),
                          "one page%s: a second notch 50 ms after the scroll to page %d stepped "
                          "again",
                          rtl ? ", rtl" : "", want);
                } else if (k)
                    CHECK(&st,
                          pagecurl_book_action(
                              book, back ? PAGECURL_ACTION_PREVIOUS : PAGECURL_ACTION_NEXT, t),
                          "one page%s: the step to page %d refused", rtl ? ", rtl" : "", want);
                for (int f = 0; f < 200 && (state_of(book).moving || state_of(book).turning); f++)
                    host_frame(h, book, t += 0.05, false);
                host_frame(h, book, t += 0.05, true);
                int page = state_of(book).page, shown = page_shown(h);
                wrong += page != want || shown != want;
                at += snprintf(at, (size_t)(visited + sizeof visited - at), " %d/%d", page, shown);
            }
        CHECK(&st, wrong == 0,
              "one page%s: 1 .. 5 and back, the state's page / the page shown at rest:%s",
              rtl ? ", rtl" : "", visited);
        CHECK(&st, !pagecurl_book_action(book, PAGECURL_ACTION_PREVIOUS, t),
              "one page%s: a step before page 1", rtl ? ", rtl" : "");
        /* A swipe that lifts no leaf steps the page, as a key does: on page 2, a spread's
         * left-hand page whose outer edge turns back, a swipe towards the spine (leftwards;
         * rightwards where the book binds on the right) goes on to page 3, and one the other way
         * from mid-page back to 2. Before, the first did nothing (nothing to lift there). */
        CHECK(&st, pagecurl_book_action(book, PAGECURL_ACTION_NEXT, t), "one page: to page 2");
        int swiped[2];
        for (int way = 0; way < 2; way++) {
            for (int f = 0; f < 200 && (state_of(book).moving || state_of(book).turning); f++)
                host_frame(h, book, t += 0.05, false);
            float from = 0.55f, to = (way == 0) != (rtl == 1) ? 0.3f : 0.8f;
            pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_MOUSE, 1, from, 0.5f, t);
            for (int k = 1; k <= 4; k++)
                pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_MOUSE, 1,
                        from + (to - from) * (float)k / 4.0f, 0.5f, t += 0.02);
            pointer(book, PAGECURL_POINTER_UP, PAGECURL_POINTER_MOUSE, 1, to, 0.5f, t += 0.02);
            for (int f = 0; f < 200 && (state_of(book).moving || state_of(book).turning); f++)
                host_frame(h, book, t += 0.05, false);
            host_frame(h, book, t += 0.05, true);
            swiped[way] = state_of(book).page;
        }
        CHECK(&st, swiped[0] == 3 && swiped[1] == 2,
              "one page%s: a swipe on page 2 went to %d (3 wanted), back to %d (2 wanted)",
              rtl ? ", rtl" : "", swiped[0], swiped[1]);
        pagecurl_book_destroy(book);
    }
}

/* The page (1-based) whose colour (STEP_COLOURS, lit or shaded: its hue) a pixel shows; 0 for
 * none near enough (an edge, a shadow's blend, the backdrop). */
static int page_coloured(const uint8_t *p)
{
    for (int k = 0; k < 5; k++) {
        const uint8_t *c = STEP_COLOURS[k];
        float dot = 0.0f, cc = 0.0f, pp = 0.0f;
        for (int i = 0; i < 3; i++)
            dot += (float)p[i] * c[i], cc += (float)c[i] * c[i], pp += (float)p[i] * p[i];
        float scale = dot / cc, off = pp - scale * dot; /* what the colour's multiple leaves */
        if (scale > 0.35f && scale < 1.3f && off < 0.01f * pp)
            return k + 1;
    }
    return 0;
}

/* A leaf held by pagecurl_book_hold is hit-tested as it is drawn: at each pixel of a spread (pages
 * 2|3, each in its colour) whose leaf 3|4 is held mid-turn, the page pagecurl_book_hit names is the
 * page whose colour the pixel shows: the lifted leaf's front and back where it is, page 5 where it
 * uncovers it, page 2 beside it. */
/* Whether (x, y) lies within the polygon of `n` points `xy` (x, y pairs; even-odd). */
static bool in_polygon(const float *xy, int n, float x, float y)
{
    bool in = false;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        float xi = xy[2 * i], yi = xy[2 * i + 1], xj = xy[2 * j], yj = xy[2 * j + 1];
        if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi)
            in = !in;
    }
    return in;
}

/* Whether (x, y) lies within the bounds of the `n` points `xy`, a pixel's width around them. */
static bool in_bounds(const float *xy, int n, float x, float y)
{
    float x0 = xy[0], x1 = xy[0], y0 = xy[1], y1 = xy[1];
    for (int i = 1; i < n; i++) {
        x0 = fminf(x0, xy[2 * i]), x1 = fmaxf(x1, xy[2 * i]);
        y0 = fminf(y0, xy[2 * i + 1]), y1 = fmaxf(y1, xy[2 * i + 1]);
    }
    return x >= x0 - 1.0f && x <= x1 + 1.0f && y >= y0 - 1.0f && y <= y1 + 1.0f;
}

/* held_hits' pixels: every fourth each way; every eighth under the sanitizers, where a hit through
 * the curl costs five times as much (a quarter of the hits: 32 s of api's 165 under ASan) */
#ifdef PAGECURL_SANITIZED
enum { HIT_STEP = 8 };
#else
enum { HIT_STEP = 4 };
#endif

static void held_hits(Host *h, pagecurl_context *ctx)
{
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.provider = {.page_count = 5, .draw_page = coloured_page},
                                       .page = 2,
                                       .show_through = -1.0f,
                                       .wait_for_pages = true});
    if (!book)
        return;
    host_frame(h, book, 0.0, true);
    CHECK(&st, pagecurl_book_hold(book, 0.45f, 0.3f, false), "hold leaf 3|4");
    host_frame(h, book, 0.0, true);
    int agree = 0, differ = 0, seen[6] = {0}, wrong_at[6] = {0};
    for (uint32_t y = 0; y < H - 2 * BORDER; y += HIT_STEP)
        for (uint32_t x = 0; x < W - 2 * BORDER; x += HIT_STEP) {
            int shown = page_coloured(pixel(h, x + BORDER, y + BORDER));
            if (!shown)
                continue;
            pagecurl_hit hit = {.size = sizeof hit};
            int page = pagecurl_book_hit(book, x + 0.5, y + 0.5, &hit) ? hit.page : 0;
            agree += page == shown, differ += page != shown;
            seen[shown] += page == shown, wrong_at[shown] += page != shown;
        }
    printf("a held leaf's hits: %d pixels agree with the page shown, %d do not (pages 2 3 4 5: "
           "%d %d %d %d agree)\n",
           agree, differ, seen[2], seen[3], seen[4], seen[5]);
    /* the pages' outlines through the same pose: every pixel a flat page shows (2 on the left, 5
     * under the lifted leaf) lies within its four corners, every pixel of the held leaf's sides
     * (3 and 4) within its curled outline's bounds; a page not in the spread has none */
    float xy[5][2 * PAGECURL_PAGE_OUTLINE_MAX];
    int n[6] = {0};
    for (int page = 2; page <= 5; page++)
        n[page] = pagecurl_book_page_outline(book, page, xy[page - 1], PAGECURL_PAGE_OUTLINE_MAX);
    n[1] = pagecurl_book_page_outline(book, 1, xy[0], PAGECURL_PAGE_OUTLINE_MAX);
    CHECK(&st,
          n[1] == 0 && n[2] == 4 && n[5] == 4 && n[3] == PAGECURL_PAGE_OUTLINE_MAX &&
              n[4] == PAGECURL_PAGE_OUTLINE_MAX,
          "outlines' points: pages 1-5 %d %d %d %d %d", n[1], n[2], n[3], n[4], n[5]);
    int inside = 0, outside = 0;
    for (uint32_t y = 0; y < H - 2 * BORDER; y += HIT_STEP)
        for (uint32_t x = 0; x < W - 2 * BORDER; x += HIT_STEP) {
            int shown = page_coloured(pixel(h, x + BORDER, y + BORDER));
            if (shown < 2 || shown > 5 || !n[shown])
                continue;
            bool in = shown == 2 || shown == 5
                          ? in_polygon(xy[shown - 1], n[shown], x + 0.5f, y + 0.5f)
                          : in_bounds(xy[shown - 1], n[shown], x + 0.5f, y + 0.5f);
            inside += in, outside += !in;
        }
    printf("the pages' outlines hold %d of their pixels shown, not %d\n", inside, outside);
    CHECK(&st, inside > 1000 && outside * 100 <= inside,
          "the pages' outlines hold %d of their pixels shown, not %d", inside, outside);
    CHECK(&st,
          differ * 50 <= agree + differ && seen[2] > 100 && seen[3] > 100 && seen[4] > 20 &&
              seen[5] > 100,
          "a held leaf's hits: %d pixels agree, %d do not (pages 2 3 4 5: %d %d %d %d agree, %d "
          "%d %d %d not)",
          agree, differ, seen[2], seen[3], seen[4], seen[5], wrong_at[2], wrong_at[3], wrong_at[4],
          wrong_at[5]);
    pagecurl_book_destroy(book);
}

/* The matches' count, once done: the wait is for the count's end, its ceiling (a minute) only
 * catches a hang. */
static pagecurl_search_state searched(pagecurl_book *book)
{
    pagecurl_search_state s = {.size = sizeof s};
    const struct timespec nap = {0, 5 * 1000 * 1000};
    for (int i = 0; i < 12000; i++) {
        pagecurl_book_search_state(book, &s);
        if (s.done)
            break;
        nanosleep(&nap, NULL);
    }
    return s;
}

/* Search: a PDF with "zephyr" on pages 2 and 5 (twice on 5, once broken by a hyphen across a line
 * end), counted in the background, case-insensitive, the matches in page order with their
 * rectangles on the page; a book without text has none. */
static void search(pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/search.pdf", dir);
    const char *text[6] = {"nothing to see",
                           "the ZEPHYR blew",
                           NULL,
                           "zeph alone",
                           "a Zephyr here and\nthere a zeph-\nyr broken",
                           "the end"};
    CHECK(&st, pdf_file_text(pdf, 6, text), "cannot write %s", pdf);
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.path = pdf});
    if (!book)
        return;
    pagecurl_search_state s = searched(book);
    CHECK(&st, s.has_text && s.done && s.generation == 0 && s.matches == 0,
          "before a search: text %d done %d generation %u matches %d", s.has_text, s.done,
          s.generation, s.matches);
    /* a query, then at once another: the first's count is dropped */
    CHECK(&st, pagecurl_book_search(book, "blew") && pagecurl_book_search(book, "zEpHyR"),
          "search refused");
    s = searched(book);
    CHECK(&st, s.done && s.generation == 2 && s.pages_read == 6 && s.matches == 3 && !s.failed,
          "zephyr: generation %u, %d of %d pages read, %d matches (3), failed %d", s.generation,
          s.pages_read, s.pages, s.matches, s.failed);
    pagecurl_search_match m[4];
    for (int k = 0; k < 4; k++)
        m[k] = (pagecurl_search_match){.size = sizeof m[k]};
    bool got =
        pagecurl_book_search_match(book, 0, &m[0]) && pagecurl_book_search_match(book, 1, &m[1]) &&
        pagecurl_book_search_match(book, 2, &m[2]) && !pagecurl_book_search_match(book, 3, &m[3]);
    CHECK(&st, got && m[0].page == 2 && m[1].page == 5 && m[2].page == 5,
          "the matches' pages: %d %d %d", m[0].page, m[1].page, m[2].page);
    /* the first line's baseline is 30 pt below the head of a 280 pt page, at 20 pt of 200 */
    float *r = m[0].rects[0];
    CHECK(&st,
          m[0].rect_count == 1 && r[0] > 0.15f && r[0] < 0.4f && r[2] > r[0] + 0.1f &&
              r[2] < 0.7f && r[1] < 30.0f / 280.0f && r[3] > 25.0f / 280.0f &&
              r[3] < 40.0f / 280.0f,
          "page 2's match: %d rects, (%.3f %.3f)-(%.3f %.3f)", m[0].rect_count, r[0], r[1], r[2],
          r[3]);
    /* the word broken at the line's end: one match, a rectangle on each line */
    CHECK(&st,
          m[2].rect_count == 2 && m[2].rects[1][1] > m[2].rects[0][1] + 10.0f / 280.0f &&
              m[2].rects[1][0] < m[2].rects[0][0],
          "the broken word: %d rects, lines at %.3f and %.3f", m[2].rect_count, m[2].rects[0][1],
          m[2].rects[1][1]);
    /* next from the first spread (page 1): the match on page 2; previous: round to page 5's last */
    CHECK(&st,
          pagecurl_book_search_next(book, true) == 0 && pagecurl_book_search_next(book, false) == 2,
          "next %d, previous %d from page 1", pagecurl_book_search_next(book, true),
          pagecurl_book_search_next(book, false));
    CHECK(&st, pagecurl_book_show_match(book, 1) && !pagecurl_book_show_match(book, 3),
          "show match");
    CHECK(&st,
          pagecurl_book_search(book, "nowhere") && searched(book).matches == 0 &&
              pagecurl_book_search_next(book, true) == -1,
          "a word the book lacks");
    pagecurl_book_search(book, "zephyr"); /* destroyed while it counts */
    pagecurl_book_destroy(book);
    /* A page whose text could not be read (the search's helper gone) is read once more: with the
     * first read failing (pagecurl_faults.find_fail), the count finds all three and no page
     * failed (without the second read: page 1 failed); every read failing, none found and the
     * failure said. */
    for (int fails = 1; fails <= 100; fails += 99) {
        pagecurl_context_faults(ctx, &(pagecurl_faults){.find_fail = (uint32_t)fails});
        book = made(ctx, (pagecurl_book_desc){.path = pdf});
        pagecurl_context_faults(ctx, NULL);
        if (!book)
            return;
        CHECK(&st, pagecurl_book_search(book, "zephyr"), "search refused");
        s = searched(book);
        printf("zephyr with the first %d page reads failing: %d matches, failed %d\n", fails,
               s.matches, s.failed);
        CHECK(&st,
              fails == 1 ? s.done && s.matches == 3 && !s.failed
                         : s.done && s.matches == 0 && s.failed,
              "zephyr, the first %d page reads failing: done %d, %d matches, failed %d", fails,
              s.done, s.matches, s.failed);
        pagecurl_book_destroy(book);
    }
    /* the built-in book: no text, done at once */
    book = made(ctx, (pagecurl_book_desc){0});
    if (!book)
        return;
    CHECK(&st, pagecurl_book_search(book, "page"), "search refused");
    s = searched(book);
    CHECK(&st, !s.has_text && s.done && s.matches == 0, "the built-in book's search: %d %d %d",
          s.has_text, s.done, s.matches);
    pagecurl_book_destroy(book);
}

/* The hits of the viewport's pixels (every third one each way; every sixth under the sanitizers,
 * where a hit costs five times as much) on page 1, as (u, v); NAN where another page or none
 * lies. */
#ifdef PAGECURL_SANITIZED
enum { LINK_STEP = 6 };
#else
enum { LINK_STEP = 3 };
#endif
static void page_one_hits(const pagecurl_book *book, float (*uv)[2], int cols, int rows)
{
    for (int j = 0; j < rows; j++)
        for (int i = 0; i < cols; i++) {
            pagecurl_hit hit = {.size = sizeof hit};
            bool on = pagecurl_book_hit(book, i * LINK_STEP + 0.5, j * LINK_STEP + 0.5, &hit) &&
                      hit.page == 1;
            uv[j * cols + i][0] = on ? hit.u : NAN, uv[j * cols + i][1] = on ? hit.v : NAN;
        }
}

static bool near_rect(const float *r, float x0, float y0, float x1, float y1)
{
    return fabsf(r[0] - x0) < 0.01f && fabsf(r[1] - y0) < 0.01f && fabsf(r[2] - x1) < 0.01f &&
           fabsf(r[3] - y1) < 0.01f;
}

/* Links: a PDF's (tests/pdf_file.h's book of links) as data, hit-tested through a curled page
 * (each pixel of page 1 held mid-turn by a drag: each link found exactly where its rectangle
 * lies on the paper, at the first link's corners too), and followed: a far page by a cut, a near
 * one by a turn, back and forward again along the way. A book without links has none. */
static void links(Host *h, pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/links.pdf", dir);
    CHECK(&st, pdf_file_links_book(pdf), "cannot write %s", pdf);
    pagecurl_book *book = made(ctx, (pagecurl_book_desc){.path = pdf});
    pagecurl_book *flat = made(ctx, (pagecurl_book_desc){.path = pdf});
    if (!book || !flat) {
        pagecurl_book_destroy(book);
        pagecurl_book_destroy(flat);
        return;
    }
    /* what a host waits for a page's links: the first (the links helper started) and the next */
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pagecurl_book_link_count(book, 4);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pagecurl_book_link_count(book, 5);
    clock_gettime(CLOCK_MONOTONIC, &t2);
    printf("a page's links: %.1f ms the first (the helper started), %.1f ms the next page's\n",
           1e3 * ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)),
           1e3 * ((double)(t2.tv_sec - t1.tv_sec) + 1e-9 * (double)(t2.tv_nsec - t1.tv_nsec)));
    CHECK(&st,
          pagecurl_book_link_count(book, 1) == 2 && pagecurl_book_link_count(book, 2) == 0 &&
              pagecurl_book_link_count(book, 4) == 1 && pagecurl_book_link_count(book, 7) == 0,
          "link counts: %d %d %d %d", pagecurl_book_link_count(book, 1),
          pagecurl_book_link_count(book, 2), pagecurl_book_link_count(book, 4),
          pagecurl_book_link_count(book, 7));
    pagecurl_link in = {.size = sizeof in}, out = {.size = sizeof out}, l = {.size = sizeof l};
    for (int k = 0; k < 2; k++)
        if (pagecurl_book_link(book, 1, k, &l))
            memcpy(l.target ? &in : &out, &l, sizeof l);
    CHECK(&st,
          in.page == 1 && in.target == 4 && !in.uri[0] &&
              near_rect(in.rect, 0.2f, 80.0f / 280.0f, 0.8f, 200.0f / 280.0f),
          "the link to page 4: page %d target %d (%.3f %.3f)-(%.3f %.3f) '%s'", in.page, in.target,
          in.rect[0], in.rect[1], in.rect[2], in.rect[3], in.uri);
    CHECK(&st,
          out.page == 1 && out.target == 0 && !strcmp(out.uri, "https://example.org/pagecurl") &&
              near_rect(out.rect, 0.1f, 230.0f / 280.0f, 0.5f, 260.0f / 280.0f),
          "the address: page %d target %d (%.3f %.3f)-(%.3f %.3f) '%s'", out.page, out.target,
          out.rect[0], out.rect[1], out.rect[2], out.rect[3], out.uri);
    CHECK(&st, !pagecurl_book_link(book, 1, 2, &l) && !pagecurl_book_link(book, 0, 0, &l),
          "a link past the page's, or on page 0");
    /* page 1's leaf held by the hand mid-turn (a drag from its foot's corner; a pose of
     * pagecurl_book_hold is hit-tested alike: held_hits), and the same book flat */
    host_frame(h, book, 0.0, false);
    host_frame(h, flat, 0.0, false);
    pointer(book, PAGECURL_POINTER_DOWN, PAGECURL_POINTER_MOUSE, 1, 0.70f, 0.93f, 0.1);
    for (int k = 1; k <= 5; k++)
        pointer(book, PAGECURL_POINTER_MOVE, PAGECURL_POINTER_MOUSE, 1, 0.70f - 0.02f * k,
                0.93f - 0.016f * k, 0.1 + 0.05 * k);
    host_frame(h, book, 0.4, false);
    CHECK(&st, state_of(book).held && state_of(book).turning, "page 1 not held mid-turn");
    int cols = (W - 2 * BORDER) / LINK_STEP, rows = (H - 2 * BORDER) / LINK_STEP;
    float(*curled)[2] = malloc(sizeof *curled * (size_t)(cols * rows));
    float(*plain)[2] = malloc(sizeof *plain * (size_t)(cols * rows));
    if (curled && plain) {
        page_one_hits(book, curled, cols, rows);
        page_one_hits(flat, plain, cols, rows);
        int wrong = 0, on = 0, flat_on = 0, addressed = 0, corners[4] = {0};
        for (int p = 0; p < cols * rows; p++) {
            flat_on += !isnan(plain[p][0]);
            if (isnan(curled[p][0]))
                continue;
            on++;
            float x = curled[p][0], y = 1.0f - curled[p][1];
            bool inside = x >= in.rect[0] && x <= in.rect[2] && y >= in.rect[1] && y <= in.rect[3];
            bool away =
                x >= out.rect[0] && x <= out.rect[2] && y >= out.rect[1] && y <= out.rect[3];
            l = (pagecurl_link){.size = sizeof l};
            bool got = pagecurl_book_link_at(book, (p % cols) * LINK_STEP + 0.5,
                                             (p / cols) * LINK_STEP + 0.5, &l);
            bool right = inside == (got && l.target == 4) && away == (got && l.uri[0]);
            wrong += !right, addressed += away && right;
            /* near a corner of the link (either side of its edges), where the flat page's pixel
             * shows another place */
            bool moved = isnan(plain[p][0]) || fabsf(plain[p][0] - curled[p][0]) > 0.01f ||
                         fabsf(plain[p][1] - curled[p][1]) > 0.01f;
            for (int c = 0; c < 4; c++)
                corners[c] += right && moved && fabsf(x - in.rect[c & 1 ? 2 : 0]) < 0.02f &&
                              fabsf(y - in.rect[c & 2 ? 3 : 1]) < 0.02f;
        }
        printf("links through the curl: %d pixels of page 1 (%d flat), %d wrong; at the link's "
               "corners %d %d %d %d; %d on the address\n",
               on, flat_on, wrong, corners[0], corners[1], corners[2], corners[3], addressed);
        CHECK(&st,
              on > 9000 / (LINK_STEP * LINK_STEP) && on < flat_on && wrong == 0 && corners[0] &&
                  corners[1] && corners[2] && corners[3] &&
                  addressed > 900 / (LINK_STEP * LINK_STEP),
              "links through the curl: %d pixels of page 1 (%d flat), %d where the link found is "
              "not the rectangle's; at the link's corners %d %d %d %d; %d on the address",
              on, flat_on, wrong, corners[0], corners[1], corners[2], corners[3], addressed);
    }
    free(curled);
    free(plain);
    pagecurl_book_destroy(book);
    /* followed: far (a cut), near (a turn), back and forward */
    book = flat;
    double t = 1.0;
    pagecurl_state s;
#define SETTLE()                                                                                   \
    for (int f = 0; f < 400 && (state_of(book).turning || state_of(book).moving); f++)             \
    host_frame(h, book, t += 0.05, false)
    CHECK(&st, !pagecurl_book_back(book, t) && !pagecurl_book_forward(book, t),
          "a way back before any link");
    CHECK(&st, !pagecurl_book_follow(book, 7, t) && !pagecurl_book_follow(book, 0, t),
          "follow to a page the book lacks");
    CHECK(&st, pagecurl_book_follow(book, 4, t), "follow to page 4");
    host_frame(h, book, t, false);
    s = state_of(book);
    CHECK(&st, s.heading_left == 4 && !s.turning, "page 4 far from page 1: a cut to %d|%d (%s)",
          s.heading_left, s.heading_right, s.turning ? "turning" : "still");
    host_frame(h, book, t += 0.05, false);
    CHECK(&st, pagecurl_book_follow(book, 6, t), "follow to page 6");
    host_frame(h, book, t += 0.02, false);
    s = state_of(book);
    CHECK(&st, s.heading_left == 6 && s.turning, "page 6 next to 4|5: a turn to %d|%d (%s)",
          s.heading_left, s.heading_right, s.turning ? "turning" : "still");
    SETTLE();
    int way[5];
    way[0] = pagecurl_book_back(book, t) ? state_of(book).heading_left : -1;
    SETTLE();
    way[1] = pagecurl_book_back(book, t) ? state_of(book).heading_right : -1;
    SETTLE();
    bool end = !pagecurl_book_back(book, t);
    way[2] = pagecurl_book_forward(book, t) ? state_of(book).heading_left : -1;
    SETTLE();
    way[3] = pagecurl_book_forward(book, t) ? state_of(book).heading_left : -1;
    SETTLE();
    way[4] = pagecurl_book_forward(book, t) ? 1 : 0;
    CHECK(&st, way[0] == 4 && way[1] == 1 && end && way[2] == 4 && way[3] == 6 && way[4] == 0,
          "back to %d then %d, %s further; forward to %d then %d, %s further", way[0], way[1],
          end ? "none" : "one", way[2], way[3], way[4] ? "one" : "none");
    /* a link followed after a step back forgets the way forward */
    pagecurl_book_back(book, t);
    SETTLE();
    pagecurl_book_follow(book, 2, t);
    SETTLE();
    CHECK(&st, !pagecurl_book_forward(book, t) && pagecurl_book_back(book, t),
          "the way forward after a new link");
#undef SETTLE
    pagecurl_book_destroy(book);
    book = made(ctx, (pagecurl_book_desc){0});
    if (book) {
        host_frame(h, book, 0.0, false);
        l = (pagecurl_link){.size = sizeof l};
        CHECK(&st,
              pagecurl_book_link_count(book, 1) == 0 &&
                  !pagecurl_book_link_at(book, 0.75 * (W - 2 * BORDER), 0.5 * (H - 2 * BORDER), &l),
              "the built-in book's links");
        pagecurl_book_destroy(book);
    }
}

/* A hit at the middle of a rectangle of page `page` (fractions of its box, y down): the page lies
 * on the whole leaf (a PDF whose pages all have one shape). */
static pagecurl_hit hit_in(int page, const float r[4])
{
    return (pagecurl_hit){.size = sizeof(pagecurl_hit),
                          .page = page,
                          .u = 0.5f * (r[0] + r[2]),
                          .v = 1.0f - 0.5f * (r[1] + r[3])};
}

/* Text: a page's text in reading order, a word's selection (a double-click's), a drag's across a
 * line's end, the selected text for a clipboard, cleared; a book without text has none. */
/* Pixels of the host's last frame tinted by the selection's blue (paper multiplied by it). */
static int blue_pixels(const Host *h)
{
    int n = 0;
    for (uint32_t y = BORDER; y < H - BORDER; y++)
        for (uint32_t x = BORDER; x < W - BORDER; x++) {
            const uint8_t *p = pixel(h, x, y);
            n += p[2] > 150 && p[2] > p[0] + 60;
        }
    return n;
}

/* Frames until the selection's highlight shows (`shown`: more blue pixels than `base`, the frame's
 * own, by 20) or is gone: how many blue pixels then.
 * The ceiling (200 frames) only catches a page never drawn again. */
static int frames_until_blue(Host *h, pagecurl_book *book, double *t, int base, bool shown)
{
    int n = blue_pixels(h);
    for (int f = 0; f < 200 && (n > base + 20) != shown; f++) {
        host_frame(h, book, *t += 0.05, true);
        n = blue_pixels(h);
    }
    return n;
}

/* The word under viewport points, found through pagecurl_book_hit as a window finds it: a point
 * whose hit lies in the middle of rectangle r of page `page`. */
static bool point_in(const pagecurl_book *book, int page, const float r[4], pagecurl_hit *out)
{
    for (int y = 0; y < H - 2 * BORDER; y += 2)
        for (int x = 0; x < W - 2 * BORDER; x += 2) {
            *out = (pagecurl_hit){.size = sizeof *out};
            float v = 1.0f - 0.5f * (r[1] + r[3]);
            if (pagecurl_book_hit(book, x, y, out) && out->page == page &&
                fabsf(out->u - 0.5f * (r[0] + r[2])) < 0.01f && fabsf(out->v - v) < 0.01f)
                return true;
        }
    return false;
}

static void text_selection(Host *h, pagecurl_context *ctx, const char *dir)
{
    char pdf[512];
    snprintf(pdf, sizeof pdf, "%s/text.pdf", dir);
    const char *text[2] = {"first page", "a Zephyr here and\nthere a zeph-\nyr broken"};
    CHECK(&st, pdf_file_text(pdf, 2, text), "cannot write %s", pdf);
    pagecurl_book *book =
        made(ctx, (pagecurl_book_desc){.path = pdf, .page = 2, .wait_for_pages = true});
    if (!book)
        return;
    char page[256];
    long n = pagecurl_book_page_text(book, 2, page, sizeof page);
    CHECK(&st, n == (long)strlen(page) && strstr(page, "a Zephyr here and\nthere a zeph-\nyr"),
          "page 2's text (%ld bytes): '%s'", n, page);
    char cut[8];
    CHECK(&st, pagecurl_book_page_text(book, 2, cut, sizeof cut) == n && strlen(cut) == 7,
          "page 2's text cut to 8 bytes: %zu", strlen(cut));
    CHECK(&st, pagecurl_book_page_text(book, 3, page, sizeof page) == -1, "page 3 of 2 has text");
    /* where the words lie: the search's rectangles */
    pagecurl_book_search(book, "zephyr");
    pagecurl_search_state s = searched(book);
    pagecurl_search_match word = {.size = sizeof word}, broken = {.size = sizeof broken};
    CHECK(&st,
          s.matches == 2 && pagecurl_book_search_match(book, 0, &word) &&
              pagecurl_book_search_match(book, 1, &broken) && broken.rect_count == 2,
          "the words' rectangles: %d matches", s.matches);
    pagecurl_book_search(book, NULL);
    pagecurl_selection sel = {.size = sizeof sel};
    CHECK(&st, !pagecurl_book_selection(book, &sel) && sel.page == 0, "a selection before any");
    /* drawn: a viewport point on the word, through the hit test, selects it, highlighted in the
     * page's pixels; cleared, the highlight goes */
    double t = 0.0;
    host_frame(h, book, t, true);
    int before = blue_pixels(h);
    pagecurl_hit seen;
    CHECK(&st,
          point_in(book, 2, word.rects[0], &seen) &&
              pagecurl_book_select(book, &seen, NULL, true, &sel) && sel.chars == 6,
          "the word through the hit test: %d chars", sel.chars);
    int blue = frames_until_blue(h, book, &t, before, true);
    pagecurl_book_select(book, NULL, NULL, false, NULL);
    int after = frames_until_blue(h, book, &t, before, false);
    printf("text: the selected word's highlight, %d blue pixels (%d before, %d cleared)\n", blue,
           before, after);
    CHECK(&st, blue > before + 100 && after <= before + 20,
          "the selection's highlight: %d blue pixels before, %d selected, %d cleared", before, blue,
          after);
    /* a double-click's word: a press in its middle */
    pagecurl_hit at = hit_in(2, word.rects[0]);
    char got[256];
    CHECK(&st,
          pagecurl_book_select(book, &at, NULL, true, &sel) && sel.page == 2 && sel.chars == 6 &&
              sel.rect_count == 1 && pagecurl_book_selection_text(book, got, sizeof got) == 6 &&
              !strcmp(got, "Zephyr"),
          "the word: page %d, %d chars, %d rects, '%s'", sel.page, sel.chars, sel.rect_count, got);
    float *r = sel.rects[0];
    CHECK(&st,
          fabsf(r[0] - word.rects[0][0]) < 0.01f && fabsf(r[2] - word.rects[0][2]) < 0.01f &&
              fabsf(r[1] - word.rects[0][1]) < 0.01f,
          "the word's rectangle (%.3f %.3f)-(%.3f %.3f), the match's (%.3f %.3f)-(%.3f %.3f)", r[0],
          r[1], r[2], r[3], word.rects[0][0], word.rects[0][1], word.rects[0][2], word.rects[0][3]);
    /* a drag from inside "zeph-" to inside "yr", back to front: in reading order, one rectangle a
     * line; by words, the two whole */
    pagecurl_hit from = hit_in(2, broken.rects[1]), to = hit_in(2, broken.rects[0]);
    CHECK(&st,
          pagecurl_book_select(book, &from, &to, false, &sel) && sel.rect_count == 2 &&
              pagecurl_book_selection_text(book, got, sizeof got) > 0 && strstr(got, "-\ny") &&
              !strchr(got, 'z'),
          "the drag: %d rects, '%s'", sel.rect_count, got);
    CHECK(&st,
          pagecurl_book_select(book, &from, &to, true, &sel) &&
              pagecurl_book_selection_text(book, got, sizeof got) == 8 && !strcmp(got, "zeph-\nyr"),
          "the drag by words: '%s'", got);
    pagecurl_hit other = {.size = sizeof other, .page = 1, .u = 0.5f, .v = 0.5f};
    CHECK(&st, !pagecurl_book_select(book, &from, &other, false, &sel) && sel.page == 2,
          "a drag across two pages changed the selection");
    CHECK(&st,
          !pagecurl_book_select(book, NULL, NULL, false, &sel) && sel.page == 0 &&
              pagecurl_book_selection_text(book, got, sizeof got) == 0 && !got[0],
          "cleared: page %d, '%s'", sel.page, got);
    pagecurl_book_destroy(book);
    book = made(ctx, (pagecurl_book_desc){0});
    if (!book)
        return;
    CHECK(&st,
          pagecurl_book_page_text(book, 1, page, sizeof page) == 0 && !page[0] &&
              !pagecurl_book_select(book, &other, NULL, true, &sel),
          "the built-in book's text");
    pagecurl_book_destroy(book);
}

/* A host's pages' text and links (pagecurl_book_desc.page_text, page_links): page 2's and 3's
 * text (TOLD_TEXT, each character a box of a grid, its lines' ends left without one), page 1's
 * links; or, `junk`, answers the library refuses. */
typedef struct Told {
    atomic_int text_calls, link_calls;
    bool junk;
} Told;

static const char *const TOLD_TEXT[4] = {NULL, "", "a Zephyr here and\nthere a zeph-\nyr broken",
                                         "zephyr"};

/* Line `line`'s column `col`: 0.04 wide from x 0.1, 0.06 tall from y 0.2 + 0.1 line. */
static void told_box(int line, int col, float r[4])
{
    r[0] = 0.1f + 0.04f * col, r[1] = 0.2f + 0.1f * line;
    r[2] = r[0] + 0.04f, r[3] = r[1] + 0.06f;
}

static int told_text(void *user, int page, pagecurl_text_char *chars, int capacity)
{
    Told *t = user;
    atomic_fetch_add(&t->text_calls, 1);
    if (t->junk) {
        if (page == 4 && capacity > 0)
            chars[0] = (pagecurl_text_char){'x', {0.1f, NAN, 0.2f, 0.3f}};
        return page == 1 ? capacity + 1 : page == 2 ? -7 : page == 3 ? -1 : page == 4 ? 1 : 0;
    }
    const char *text = page >= 1 && page <= 3 ? TOLD_TEXT[page] : "";
    int n = 0, line = 0, col = 0;
    for (; text[n] && n < capacity; n++) {
        chars[n].code = (unsigned char)text[n];
        if (text[n] == '\n') {
            line++, col = 0;
            continue;
        }
        told_box(line, col++, chars[n].rect);
    }
    return n;
}

static int told_links(void *user, int page, pagecurl_link *links, int capacity)
{
    Told *t = user;
    atomic_fetch_add(&t->link_calls, 1);
    if (t->junk) {
        if (page == 2 && capacity > 0)
            links[0].rect[2] = INFINITY;
        return page == 1 ? 4 * capacity : page == 2 ? 1 : page == 3 ? -1 : 0;
    }
    if (page != 1 || capacity < 3)
        return 0;
    /* to page 3 across the middle (its corners given the other way round), an address at the
     * foot, and one to a page the book lacks */
    memcpy(links[0].rect, (const float[4]){0.8f, 0.7f, 0.2f, 0.3f}, sizeof links[0].rect);
    links[0].target = 3;
    memcpy(links[1].rect, (const float[4]){0.1f, 0.8f, 0.5f, 0.9f}, sizeof links[1].rect);
    snprintf(links[1].uri, sizeof links[1].uri, "https://example.org/host");
    memcpy(links[2].rect, (const float[4]){0.0f, 0.0f, 0.05f, 0.05f}, sizeof links[2].rect);
    links[2].target = 99;
    return 3;
}

/* A host's pages with text and links are searched, selected and followed as a PDF's: the matches
 * in order where the host's boxes put them (a word broken across a line's end found whole), a
 * page's text, a word's selection through the hit test, the links (a corner order and a target
 * beyond the book mended) and one followed through the hit test; a provider whose answers are
 * junk (counts past the list, below -1, a box not finite) has each page refused, and says so, and
 * its good page read; page_text for a book that is no provider's is refused. */
static void provider_text(Host *h, pagecurl_context *ctx)
{
    pagecurl_error err;
    pagecurl_book *refused = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .page_text = told_text},
        &err);
    CHECK(&st, !refused && err.status == PAGECURL_ERROR_USAGE && strstr(err.message, "page_text"),
          "page_text for the built-in book: %s", refused ? "taken" : err.message);
    pagecurl_book_destroy(refused);
    Told told = {0};
    /* a host built before page_text (a .size ending before it) has pages without text */
    pagecurl_book *older = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){.size = offsetof(pagecurl_book_desc, page_text),
                              .provider = {.user = &told, .page_count = 4, .draw_page = blank_page},
                              .page_text = told_text},
        &err);
    pagecurl_search_state was = {.size = sizeof was};
    pagecurl_book_search_state(older, &was);
    CHECK(&st, older && !was.has_text && pagecurl_book_page_text(older, 2, NULL, 0) == 0,
          "a host's book of an older header: %s", older ? "text" : err.message);
    pagecurl_book_destroy(older);
    pagecurl_book *book = made(
        ctx,
        (pagecurl_book_desc){.provider = {.user = &told, .page_count = 4, .draw_page = blank_page},
                             .page_text = told_text,
                             .page_links = told_links,
                             .wait_for_pages = true});
    if (!book)
        return;
    pagecurl_book_search(book, "ZEPHYR");
    pagecurl_search_state s = searched(book);
    pagecurl_search_match m[3] = {
        {.size = sizeof m[0]}, {.size = sizeof m[0]}, {.size = sizeof m[0]}};
    bool got = s.matches == 3;
    for (int k = 0; k < 3; k++)
        got = got && pagecurl_book_search_match(book, k, &m[k]);
    CHECK(&st, s.has_text && s.done && !s.failed && got, "a host's pages searched: %d matches (%s)",
          s.matches, s.has_text ? "text" : "no text");
    if (got) {
        float r[4], z[4], y[4];
        told_box(0, 2, r), told_box(1, 8, z), told_box(2, 0, y);
        CHECK(&st,
              m[0].page == 2 && m[0].rect_count == 1 &&
                  near_rect(m[0].rects[0], r[0], r[1], r[0] + 6 * 0.04f, r[3]) && m[1].page == 2 &&
                  m[1].rect_count == 2 &&
                  near_rect(m[1].rects[0], z[0], z[1], z[0] + 4 * 0.04f, z[3]) &&
                  near_rect(m[1].rects[1], y[0], y[1], y[0] + 2 * 0.04f, y[3]) && m[2].page == 3,
              "the matches: page %d (%.3f %.3f)-(%.3f %.3f), page %d in %d rects, page %d",
              m[0].page, m[0].rects[0][0], m[0].rects[0][1], m[0].rects[0][2], m[0].rects[0][3],
              m[1].page, m[1].rect_count, m[2].page);
    }
    char text[256];
    long n = pagecurl_book_page_text(book, 2, text, sizeof text);
    CHECK(&st, n == (long)strlen(TOLD_TEXT[2]) && !strcmp(text, TOLD_TEXT[2]),
          "page 2's text (%ld bytes): '%s'", n, text);
    CHECK(&st, pagecurl_book_page_text(book, 1, text, sizeof text) == 0 && !text[0],
          "page 1's text: '%s'", text);
    /* a word selected through the hit test, on the page drawn */
    double t = 0.0;
    CHECK(&st, pagecurl_book_go_to(book, 2), "to page 2");
    host_frame(h, book, t, true);
    pagecurl_hit at;
    pagecurl_selection sel = {.size = sizeof sel};
    char word[64] = "";
    CHECK(&st,
          point_in(book, 2, m[0].rects[0], &at) &&
              pagecurl_book_select(book, &at, NULL, true, &sel) &&
              pagecurl_book_selection_text(book, word, sizeof word) == 6 && !strcmp(word, "Zephyr"),
          "a host's word through the hit test: %d chars, '%s'", sel.chars, word);
    /* page 1's links, and the one to page 3 followed from where the hit test finds it */
    pagecurl_link to = {.size = sizeof to}, away = {.size = sizeof away},
                  lost = {.size = sizeof lost};
    CHECK(&st,
          pagecurl_book_link_count(book, 1) == 3 && pagecurl_book_link(book, 1, 0, &to) &&
              pagecurl_book_link(book, 1, 1, &away) && pagecurl_book_link(book, 1, 2, &lost) &&
              pagecurl_book_link_count(book, 2) == 0,
          "a host's links: %d on page 1, %d on page 2", pagecurl_book_link_count(book, 1),
          pagecurl_book_link_count(book, 2));
    CHECK(&st,
          to.page == 1 && to.target == 3 && !to.uri[0] &&
              near_rect(to.rect, 0.2f, 0.3f, 0.8f, 0.7f) && away.target == 0 &&
              !strcmp(away.uri, "https://example.org/host") && lost.target == 0 && !lost.uri[0],
          "the links: to %d (%.2f %.2f)-(%.2f %.2f); '%s'; beyond the book to %d '%s'", to.target,
          to.rect[0], to.rect[1], to.rect[2], to.rect[3], away.uri, lost.target, lost.uri);
    CHECK(&st, pagecurl_book_go_to(book, 1), "to page 1");
    host_frame(h, book, t += 0.05, true);
    pagecurl_link l = {.size = sizeof l};
    bool found = false;
    for (int y = 0; y < H - 2 * BORDER && !found; y += 2)
        for (int x = 0; x < W - 2 * BORDER && !found; x += 2) {
            pagecurl_hit hit = {.size = sizeof hit};
            found = pagecurl_book_hit(book, x, y, &hit) && hit.page == 1 &&
                    fabsf(hit.u - 0.5f) < 0.01f && fabsf(hit.v - 0.5f) < 0.01f &&
                    pagecurl_book_link_at(book, x, y, &l);
        }
    CHECK(&st, found && l.target == 3 && pagecurl_book_follow(book, l.target, t),
          "the link at page 1's middle: %s to %d", found ? "found" : "none", l.target);
    for (int f = 0; f < 400 && (state_of(book).turning || state_of(book).moving); f++)
        host_frame(h, book, t += 0.05, false);
    CHECK(&st, state_of(book).right == 3, "followed to %d|%d", state_of(book).left,
          state_of(book).right);
    pagecurl_book_destroy(book);

    /* junk: each page refused, with an error naming it, and the book goes on */
    Told junk = {.junk = true};
    book = made(ctx, (pagecurl_book_desc){
                         .provider = {.user = &junk, .page_count = 5, .draw_page = blank_page},
                         .page_text = told_text,
                         .page_links = told_links});
    if (!book)
        return;
    long texts[5];
    for (int p = 1; p <= 5; p++)
        texts[p - 1] = pagecurl_book_page_text(book, p, text, sizeof text);
    int links[3];
    for (int p = 1; p <= 3; p++)
        links[p - 1] = pagecurl_book_link_count(book, p);
    Seen seen = {0};
    poll(book, &seen);
    CHECK(&st,
          texts[0] == -1 && texts[1] == -1 && texts[2] == -1 && texts[3] == -1 && texts[4] == 0 &&
              !links[0] && !links[1] && !links[2] && seen.count[PAGECURL_EVENT_ERROR] == 7 &&
              strstr(seen.last[PAGECURL_EVENT_ERROR].message, "provider"),
          "junk: texts %ld %ld %ld %ld %ld, links %d %d %d, %d errors, the last '%s'", texts[0],
          texts[1], texts[2], texts[3], texts[4], links[0], links[1], links[2],
          seen.count[PAGECURL_EVENT_ERROR], seen.last[PAGECURL_EVENT_ERROR].message);
    pagecurl_book_search(book, "x");
    s = searched(book);
    CHECK(&st, s.done && s.failed && s.matches == 0 && s.pages_read == 5,
          "junk searched: %d of %d pages, %d matches, %s", s.pages_read, s.pages, s.matches,
          s.failed ? "failed" : "not failed");
    pagecurl_book_destroy(book);
}

/* The host's depth image for its own pass (host_pass), with `samples` a pixel (its colour's). */
static void host_depth(Host *h, VkSampleCountFlagBits samples)
{
    host_image_as(h, samples, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                  VK_IMAGE_ASPECT_DEPTH_BIT, &h->depth, &h->depth_memory, &h->depth_view);
}

/* The book drawn in the host's own pass (the Dear ImGui model), under validation with its
 * synchronisation checks: the host clears its image to green, records the book (outside), begins
 * its rendering with its own depth, and the book draws into a viewport smaller than the image.
 * Every pixel outside the viewport keeps the host's green; inside, the book's frame is the one it
 * draws straight in over the host's pixels (`keep`), within a level; the book makes no depth of
 * its own for it, and the one it makes for a target drawn straight in reaches the viewport's far
 * corner, not the whole image. A copied frame with a transparent background has alpha 0 where
 * no paper lies. A host's older target (ending at `generation`) still draws. Refusals. */
static void in_pass(Host *h)
{
    pagecurl_context_desc desc = host_desc(h);
    desc.get_instance_proc_addr = counted_instance_proc; /* its depth images counted */
    desc.debug_names = true;                             /* and known by their names */
    set_name = (PFN_vkSetDebugUtilsObjectNameEXT)(void (*)(void))vkGetInstanceProcAddr(
        h->instance, "vkSetDebugUtilsObjectNameEXT");
    pagecurl_error err;
    pagecurl_context *ctx = pagecurl_context_create(&desc, &err);
    CHECK(&st, ctx != NULL, "a context that counts its depth images: %s", err.message);
    if (!ctx)
        return;
    host_depth(h, VK_SAMPLE_COUNT_1_BIT);
    /* one sample a pixel: direct_frames' 4x samples set aside */
    VkImage ms_image = h->ms_image;
    VkImageView ms_view = h->ms_view;
    h->ms_image = VK_NULL_HANDLE, h->ms_view = VK_NULL_HANDLE;
    h->format = VK_FORMAT_R8G8B8A8_SRGB;
    h->clear_set = true;
    h->clear = (VkClearColorValue){.float32 = {0.0f, 0.3f, 0.0f, 1.0f}};
    pagecurl_book_desc one = {.page = 3,
                              .wait_for_pages = true,
                              .target_format = VK_FORMAT_R8G8B8A8_SRGB,
                              .target_samples = 1,
                              .target_depth_format = VK_FORMAT_D32_SFLOAT};
    pagecurl_book *kept = made(ctx, one), *passed = made(ctx, one);
    VkExtent3D kept_extent = {0}, unused;
    uint8_t *want = frame_of(h, kept, true, true);
    int kept_depths = frame_depths(&kept_extent);
    h->in_pass = true;
    uint8_t *got = frame_of(h, passed, false, false);
    h->in_pass = false;
    int pass_depths = frame_depths(&unused) - kept_depths;
    /* the host's green, wherever the viewport is not */
    uint8_t green[4];
    memcpy(green, pixel(h, 0, 0), 4);
    size_t outside = 0, lost = 0;
    for (uint32_t y = 0; got && y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            if (x >= BORDER && x < W - BORDER && y >= BORDER && y < H - BORDER)
                continue;
            outside++;
            lost += memcmp(pixel(h, x, y), green, 4) != 0;
        }
    size_t host = 0, paper = 0, n = (size_t)(W - 2 * BORDER) * (H - 2 * BORDER);
    for (size_t i = 0; got && i < n; i++) {
        bool hosts = !memcmp(got + 4 * i, green, 4);
        host += hosts;
        paper += !hosts && got[4 * i] > 150 && got[4 * i + 1] > 150 && got[4 * i + 2] > 150;
    }
    int most = 0;
    size_t apart = want && got ? pixels_apart(want, got, 1, &most) : n;
    printf("in the host's pass: %zu of %zu pixels outside the viewport not the host's, inside "
           "%zu the host's and %zu paper, %zu apart from the frame drawn straight in (by %d); "
           "depth images held: %d drawn straight in (%ux%u), %d in the host's pass\n",
           lost, outside, host, paper, apart, most, kept_depths, kept_extent.width,
           kept_extent.height, pass_depths);
    CHECK(&st, got && green[1] > 100 && green[0] == 0 && lost == 0,
          "in the host's pass: %zu of %zu pixels outside the viewport lost the host's colour", lost,
          outside);
    CHECK(&st, got && host > 1000 && paper > n / 4 && apart == 0,
          "in the host's pass: %zu of the host's pixels, %zu paper, %zu pixels apart by more "
          "than 1 from the frame drawn straight in over the host's (%d)",
          host, paper, apart, most);
    CHECK(&st, pass_depths == 0, "in the host's pass the book holds %d depth images", pass_depths);
    CHECK(&st,
          kept_depths == 1 && kept_extent.width == W - BORDER && kept_extent.height == H - BORDER,
          "drawn straight in: %d depth images, %ux%u (the viewport's far corner: %ux%u)",
          kept_depths, kept_extent.width, kept_extent.height, W - BORDER, H - BORDER);
    free(want), free(got);

    /* copied in with a transparent background, and with the default one: alpha 0 where the
     * default frame has its opaque backdrop, the paper opaque in both */
    pagecurl_book *copied = made(ctx, one), *clear = made(ctx, one);
    want = frame_of(h, copied, false, false);
    h->background_set = true; /* all zero: transparent black */
    got = frame_of(h, clear, false, false);
    h->background_set = false;
    size_t backdrop = 0, transparent = 0, opaque = 0, wrong = 0;
    for (size_t i = 0; want && got && i < n; i++) {
        const uint8_t *a = want + 4 * i, *b = got + 4 * i;
        bool empty = !memcmp(a, want, 4);
        backdrop += empty;
        transparent += empty && b[3] == 0 && !b[0] && !b[1] && !b[2];
        opaque += !empty && a[3] == 255 && b[3] == 255 && !memcmp(a, b, 4);
        wrong += a[3] != 255;
    }
    printf("a transparent background: %zu of the %zu backdrop pixels alpha 0, %zu pixels the "
           "same paper\n",
           transparent, backdrop, opaque);
    CHECK(&st,
          want && got && backdrop > 1000 && transparent == backdrop && wrong == 0 && opaque > n / 4,
          "a transparent background: %zu of %zu backdrop pixels transparent, %zu the same "
          "opaque paper, %zu of the default's not opaque",
          transparent, backdrop, opaque, wrong);
    free(want), free(got);

    /* into the host's 4x samples and 4x depth, which it resolves: the book's 4x frame drawn
     * straight in over the same samples, within a level */
    if (!ms_image) /* direct_frames' (not run before this) */
        host_image(h, VK_SAMPLE_COUNT_4_BIT, &ms_image, &h->ms_memory, &ms_view);
    h->ms_image = ms_image, h->ms_view = ms_view;
    vkDestroyImageView(h->device, h->depth_view, NULL);
    vkDestroyImage(h->device, h->depth, NULL);
    vkFreeMemory(h->device, h->depth_memory, NULL);
    host_depth(h, VK_SAMPLE_COUNT_4_BIT);
    pagecurl_book_desc four = one;
    four.target_samples = 4;
    pagecurl_book *kept4 = made(ctx, four), *passed4 = made(ctx, four);
    want = frame_of(h, kept4, true, true);
    h->in_pass = true;
    got = frame_of(h, passed4, false, false);
    h->in_pass = false;
    apart = want && got ? pixels_apart(want, got, 1, &most) : n;
    CHECK(&st, apart == 0,
          "in the host's 4x pass: %zu pixels apart by more than 1 from the frame drawn straight "
          "into its samples (%d)",
          apart, most);
    free(want), free(got);
    pagecurl_book_destroy(kept4), pagecurl_book_destroy(passed4);
    h->ms_image = VK_NULL_HANDLE, h->ms_view = VK_NULL_HANDLE;

    /* a host built before background and in_pass: its target's size ends at generation */
    pagecurl_target t = {.size = offsetof(pagecurl_target, background_set),
                         .image = h->image,
                         .extent = {h->width, h->height},
                         .layout = VK_IMAGE_LAYOUT_UNDEFINED};
    CHECK(&st, pagecurl_book_update(copied, 1.0, &t, &err),
          "a target of an older host (ending at generation): %s", err.message);
    /* refusals */
    t.size = sizeof t;
    t.in_pass = true;
    pagecurl_book_desc flat = one;
    flat.target_depth_format = 0;
    pagecurl_book *none = made(ctx, flat);
    CHECK(&st,
          none && !pagecurl_book_update(none, 0.0, &t, &err) &&
              strstr(err.message, "target_depth_format"),
          "in_pass without target_depth_format: %s", err.message);
    t.keep = true;
    CHECK(&st, !pagecurl_book_update(passed, 2.0, &t, &err) && strstr(err.message, "keep"),
          "in_pass with keep: %s", err.message);
    t.keep = false;
    t.background_set = true;
    CHECK(&st, !pagecurl_book_update(passed, 2.0, &t, &err) && strstr(err.message, "background"),
          "in_pass with a background: %s", err.message);
    t.background_set = false;
    VkCommandBuffer cmd = h->cmd[0];
    VK_OK(vkWaitForFences(h->device, 1, &h->fence[0], VK_TRUE, UINT64_MAX));
    VK_OK(vkBeginCommandBuffer(
        cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}));
    CHECK(&st,
          pagecurl_book_update(passed, 2.0, &t, &err) &&
              !pagecurl_book_draw(passed, cmd, 0, &t, &err) && strstr(err.message, "record"),
          "drawn before it is recorded: %s", err.message);
    t.in_pass = false;
    CHECK(&st, !pagecurl_book_draw(passed, cmd, 0, &t, &err) && strstr(err.message, "in_pass"),
          "a target not in_pass drawn: %s", err.message);
    VK_OK(vkEndCommandBuffer(cmd));
    flat.target_depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
    flat.size = sizeof flat;
    CHECK(&st,
          !pagecurl_book_create(ctx, &flat, &err) && strstr(err.message, "target_depth_format"),
          "a depth format with stencil: %s", err.message);
    pagecurl_book_destroy(kept), pagecurl_book_destroy(passed), pagecurl_book_destroy(copied);
    pagecurl_book_destroy(clear), pagecurl_book_destroy(none);
    pagecurl_context_destroy(ctx);
    h->clear_set = false, h->format = 0;
    h->ms_image = ms_image, h->ms_view = ms_view;
}

int main(int argc, char **argv)
{
    RunArgs args;
    if (!run_test_args(argc, argv, "test_api", &args))
        return 2;
    CHECK(&st, strcmp(pagecurl_version(), "0.1.0") == 0, "version %s", pagecurl_version());
    pagecurl_error err;
    CHECK(&st,
          !pagecurl_context_create(&(pagecurl_context_desc){.size = 4}, &err) &&
              err.status == PAGECURL_ERROR_USAGE,
          "a short context description: %s", err.message);
    Host h = {0};
    host_instance(&h, true);
    host_device(&h, false);
    host_frames(&h, W, H);
    pagecurl_context_desc desc = host_desc(&h);
    desc.debug_names = true;
    Counted counted = {0};
    VkAllocationCallbacks callbacks = {.pUserData = &counted,
                                       .pfnAllocation = counted_alloc,
                                       .pfnReallocation = counted_realloc,
                                       .pfnFree = counted_free};
    desc.allocator = &callbacks;
    pagecurl_context *ctx = pagecurl_context_create(&desc, &err);
    CHECK(&st, ctx != NULL, "the host's context: %s", err.message);
    if (ctx) {
        refusals(ctx);
        pixels_match_program(&h, ctx, args.exe, args.out);
        interaction(&h, ctx);
        kept_ink(&h, ctx);
        copied_frames(&h, ctx);
        second_target(&h, ctx);
        direct_frames(&h, ctx);
        host_camera(&h, ctx);
        own_frames(&h, ctx, args.exe, args.out);
        thumb_through(&h, ctx);
        queued_events(&h, ctx);
        quality_steps(&h, ctx);
        anisotropy(&h, ctx, args.exe, args.out);
        provider(&h, ctx);
        invalidated(&h, ctx);
        fitted_page(&h, ctx);
        page_count_changed(&h, ctx);
        turned_to(&h, ctx);
        input_event(&h, ctx);
        drawn_width(&h, ctx);
        right_bound(ctx);
        reduced_motion(&h, ctx);
        one_page_steps(&h, ctx);
        one_page_width_scroll(&h, ctx);
        held_hits(&h, ctx);
        window_queries(&h, ctx, args.out);
        search(ctx, args.out);
        links(&h, ctx, args.out);
        text_selection(&h, ctx, args.out);
        provider_text(&h, ctx);
        slow_page(&h, ctx, args.out);
        drafts(&h, ctx, args.out);
        first_frame_sharp(&h, ctx, args.out);
        warmed_then_sharp(&h, ctx, args.out);
        stuck_provider(ctx);
        window_frames(&h, ctx);
        in_pass(&h);
        pagecurl_context_destroy(ctx);
        long live = atomic_load(&counted.live), total = atomic_load(&counted.total);
        printf("the host's allocation callbacks: %ld blocks taken, %ld not given back\n", total,
               live);
        CHECK(&st, total > 100 && live == 0,
              "the host's allocation callbacks: %ld blocks taken, %ld not given back", total, live);
    }
    host_destroy(&h);
    CHECK(&st, h.messages == 0, "%u validation or driver messages", h.messages);
    enabled_features();
    own_context();
    remade_target();
    window_context();
    return check_finish(&st, "test_api");
}
