/* SPDX-License-Identifier: MIT */
/* Any number of contexts in one process (issue 51), through the public header alone: two
 * or three contexts, each made and drawing a book on a thread of its own at the same time as the
 * others, each frame byte for byte a lone context's. Three contexts of the library's own (three
 * instances and VkDevices, on lavapipe) drawing their own frames (pagecurl_book_render), two
 * under the Khronos validation layer and the last without, so that their devices' functions
 * differ (the layer's and the driver's: one table for all calls one device's functions with
 * another's handles); then two on one VkDevice of the host's, under validation, recorded into the
 * host's command buffers (pagecurl_book_record) from both threads at once. Their queue: one each
 * where the family has two; else the one queue, which Vulkan lets one thread use at a time, is
 * shared under the host's lock around the calls that submit to it, as a host shares its queue.
 * The layer runs with synchronization validation: any message fails.
 * usage: test_contexts */
#include "check.h"

#include <pagecurl/pagecurl.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define W      192
#define H      120
#define FRAMES 3
#define BYTES  ((size_t)W * H * 4)

/* The held turn of each frame: the leaf's mesh computed and drawn anew in each. */
static const float POSES[FRAMES] = {0.2f, 0.45f, 0.7f};

/* One context's thread: what it is given and what it drew. */
typedef struct Drawing {
    const pagecurl_context_desc *desc; /* NULL: a context of the library's own */
    bool unvalidated;                  /* that context without the validation layer */
    pthread_mutex_t *queue_lock;       /* the host's lock of a queue shared with another, or NULL */
    pthread_barrier_t *start;          /* the two threads draw from here on at once */
    const struct Host *host;           /* with desc: the frames recorded into the host's own */
    uint8_t *frames[FRAMES];
    uint32_t messages; /* the library's own context's validation messages */
    char why[640];     /* the first failure, "" for none */
} Drawing;

static void lock(const Drawing *d)
{
    if (d->queue_lock)
        pthread_mutex_lock(d->queue_lock);
}

static void unlock(const Drawing *d)
{
    if (d->queue_lock)
        pthread_mutex_unlock(d->queue_lock);
}

/* A host's frame of W x H: its own image (the book copied into the whole of it), command buffer,
 * fence and readback, on the host's device. */
typedef struct HostFrame {
    VkDevice device;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkImage image;
    VkDeviceMemory image_memory;
    VkBuffer readback;
    VkDeviceMemory readback_memory;
    void *pixels;
} HostFrame;

static bool host_frame_create(const struct Host *h, HostFrame *f);
static void host_frame_destroy(HostFrame *f);
static void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                          VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
                          VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access);

/* One frame into the host's image: the update (which may submit) and the host's submission under
 * the queue's lock, the book's commands recorded outside it, at the same time as the other
 * thread's. */
static bool hosted_frame(Drawing *d, HostFrame *f, pagecurl_book *book, uint8_t *out, char *why,
                         size_t size)
{
    pagecurl_target target = {.size = sizeof target,
                              .image = f->image,
                              .extent = {W, H},
                              .layout = VK_IMAGE_LAYOUT_UNDEFINED,
                              .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                              /* the last frame's readback copy read the image */
                              .src_stage = VK_PIPELINE_STAGE_2_COPY_BIT};
    pagecurl_error err = {0};
    lock(d);
    bool ok = pagecurl_book_update(book, 0.0, &target, &err);
    unlock(d);
    VkCommandBuffer cmd = f->cmd;
    ok = ok && vkResetFences(f->device, 1, &f->fence) == VK_SUCCESS &&
         vkBeginCommandBuffer(
             cmd,
             &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT}) ==
             VK_SUCCESS &&
         pagecurl_book_record(book, cmd, 0, &target, &err);
    if (!ok) {
        snprintf(why, size, "update or record: %s", err.message);
        return false;
    }
    /* the book left the image in TRANSFER_SRC_OPTIMAL, its writes available */
    image_barrier(cmd, f->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
                  VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(
        cmd, f->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, f->readback, 1,
        &(VkBufferImageCopy){.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {W, H, 1}});
    VkMemoryBarrier2 host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .memoryBarrierCount = 1,
                                                   .pMemoryBarriers = &host});
    VkResult r = vkEndCommandBuffer(cmd);
    lock(d);
    if (r == VK_SUCCESS)
        r = vkQueueSubmit(d->desc->queue, 1,
                          &(VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                          .commandBufferCount = 1,
                                          .pCommandBuffers = &cmd},
                          f->fence);
    unlock(d);
    if (r == VK_SUCCESS)
        r = vkWaitForFences(f->device, 1, &f->fence, VK_TRUE, UINT64_MAX);
    if (r != VK_SUCCESS) {
        snprintf(why, size, "the host's frame: VkResult %d", (int)r);
        return false;
    }
    memcpy(out, f->pixels, BYTES);
    return true;
}

/* The high tier: it draws every frame whole (the low one draws a still page either itself or
 * from its cache, a few levels apart, as the page helper's timing has it). */
static void frames_of(Drawing *d, pagecurl_context *ctx)
{
    pagecurl_error err = {0};
    lock(d);
    pagecurl_book *book = pagecurl_book_create(ctx,
                                               &(pagecurl_book_desc){
                                                   .size = sizeof(pagecurl_book_desc),
                                                   .page = 3,
                                                   .quality = PAGECURL_QUALITY_HIGH,
                                                   .wait_for_pages = true,
                                               },
                                               &err);
    unlock(d);
    if (!book) {
        snprintf(d->why, sizeof d->why, "book: %s", err.message);
        return;
    }
    pagecurl_render_desc rd = {.size = sizeof rd, .width = W, .height = H};
    HostFrame hf = {0};
    if (d->host && !host_frame_create(d->host, &hf))
        snprintf(d->why, sizeof d->why, "the host's frame could not be made");
    for (int f = 0; f < FRAMES && !d->why[0]; f++) {
        d->frames[f] = malloc(BYTES);
        if (!d->frames[f] || !pagecurl_book_hold(book, POSES[f], 0.25f, false)) {
            snprintf(d->why, sizeof d->why, "frame %d: no memory or no hold", f);
            break;
        }
        if (d->host) {
            hosted_frame(d, &hf, book, d->frames[f], d->why, sizeof d->why);
            continue;
        }
        lock(d);
        bool drawn = pagecurl_book_render(book, 0.0, &rd, d->frames[f], &err);
        unlock(d);
        if (!drawn)
            snprintf(d->why, sizeof d->why, "frame %d: %s", f, err.message);
    }
    lock(d);
    pagecurl_book_destroy(book);
    unlock(d);
    host_frame_destroy(&hf);
}

static void *drawing(void *user)
{
    Drawing *d = user;
    pagecurl_error err = {0};
    pagecurl_context_desc own = {.size = sizeof own, .validation = !d->unvalidated};
    pagecurl_context *ctx = pagecurl_context_create(d->desc ? d->desc : &own, &err);
    if (!ctx)
        snprintf(d->why, sizeof d->why, "context: %s", err.message);
    if (d->start) /* waited for made or not: the other thread waits too */
        pthread_barrier_wait(d->start);
    if (ctx)
        frames_of(d, ctx);
    d->messages = pagecurl_context_messages(ctx);
    pagecurl_context_destroy(ctx);
    return NULL;
}

/* `n` contexts drawn at once, the last without the validation layer where `last_unvalidated`;
 * each one's frames against the lone context's. */
#define MOST 3
static void at_once(CheckState *s, const char *name, int n, const pagecurl_context_desc *desc[],
                    const struct Host *host, bool last_unvalidated, pthread_mutex_t *queue_lock,
                    uint8_t *const lone[FRAMES])
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)n);
    Drawing d[MOST];
    pthread_t thread[MOST];
    for (int i = 0; i < n; i++) {
        d[i] = (Drawing){.desc = desc[i],
                         .host = host,
                         .unvalidated = i == n - 1 && last_unvalidated,
                         .queue_lock = queue_lock,
                         .start = &start};
        if (pthread_create(&thread[i], NULL, drawing, &d[i]) != 0) {
            fprintf(stderr, "test_contexts: no thread\n");
            exit(1); /* the others wait at the barrier for one that never came */
        }
    }
    for (int i = 0; i < n; i++)
        pthread_join(thread[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < n; i++) {
        CHECK(s, !d[i].why[0], "%s, context %d: %s", name, i + 1, d[i].why);
        CHECK(s, d[i].messages == 0, "%s, context %d: %u validation messages", name, i + 1,
              d[i].messages);
        for (int f = 0; f < FRAMES; f++) {
            size_t apart = 0;
            for (size_t b = 0; d[i].frames[f] && lone[f] && b < BYTES; b++)
                apart += d[i].frames[f][b] != lone[f][b];
            CHECK(s, d[i].frames[f] && lone[f] && apart == 0,
                  "%s, context %d, frame %d: %zu bytes differ from a lone context's", name, i + 1,
                  f, apart);
            free(d[i].frames[f]);
        }
    }
    printf("test_contexts: %s: %d contexts drew %d frames each at once\n", name, n, FRAMES);
}

/* The host's instance (validation and synchronization validation, every warning and error
 * counted) and its device, with the features the library's own device enables. */
typedef struct Host {
    uint32_t memory_host, memory_device; /* memory types: host-visible coherent, device-local */
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    atomic_uint messages;
    VkPhysicalDevice physical;
    VkDevice device;
    uint32_t family, queue_count;
    VkQueue queue[2];
    VkPhysicalDeviceFeatures2 enabled;
    VkPhysicalDeviceVulkan13Features enabled13;
} Host;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                 void *user)
{
    /* the loader's general warnings are about the machine; everything else counts */
    bool loader = type == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT && data->pMessageIdName &&
                  !strcmp(data->pMessageIdName, "Loader Message");
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ||
        (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT && !loader)) {
        atomic_fetch_add(&((Host *)user)->messages, 1);
        fprintf(stderr, "test_contexts: validation: %s\n", data->pMessage);
    }
    return VK_FALSE;
}

static bool host_create(Host *h)
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
        .pNext = &features,
        .pApplicationInfo = &(VkApplicationInfo){.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                                 .pApplicationName = "test_contexts",
                                                 .apiVersion = VK_API_VERSION_1_3},
        .enabledLayerCount = 1,
        .ppEnabledLayerNames = &layer,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = &ext,
    };
    if (vkCreateInstance(&info, NULL, &h->instance) != VK_SUCCESS)
        return false;
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)(void (*)(
        void))vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(h->instance, &count, &h->physical);
    if (!create || create(h->instance, &messenger, NULL, &h->messenger) != VK_SUCCESS ||
        (r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0)
        return false;
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(h->physical, &memory);
    h->memory_host = h->memory_device = UINT32_MAX;
    VkMemoryPropertyFlags host_flags =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = memory.memoryTypeCount; i-- > 0;) {
        VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
        if ((flags & host_flags) == host_flags)
            h->memory_host = i;
        if (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
            h->memory_device = i;
    }
    if (h->memory_host == UINT32_MAX || h->memory_device == UINT32_MAX)
        return false;
    VkQueueFamilyProperties families[16];
    count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &count, families);
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    h->family = UINT32_MAX;
    for (uint32_t i = 0; i < count && h->family == UINT32_MAX; i++)
        if ((families[i].queueFlags & need) == need)
            h->family = i;
    if (h->family == UINT32_MAX)
        return false;
    h->queue_count = families[h->family].queueCount >= 2 ? 2 : 1;
    VkPhysicalDeviceFeatures offered;
    vkGetPhysicalDeviceFeatures(h->physical, &offered);
    h->enabled13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
        .maintenance4 = VK_TRUE};
    h->enabled =
        (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &h->enabled13,
                                    .features = {.geometryShader = offered.geometryShader,
                                                 .samplerAnisotropy = offered.samplerAnisotropy}};
    const float priority[2] = {1.0f, 1.0f};
    VkDeviceCreateInfo dinfo = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                .pNext = &h->enabled,
                                .queueCreateInfoCount = 1,
                                .pQueueCreateInfos = &(VkDeviceQueueCreateInfo){
                                    .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = h->family,
                                    .queueCount = h->queue_count,
                                    .pQueuePriorities = priority}};
    if (vkCreateDevice(h->physical, &dinfo, NULL, &h->device) != VK_SUCCESS)
        return false;
    for (uint32_t i = 0; i < 2; i++)
        vkGetDeviceQueue(h->device, h->family, i < h->queue_count ? i : 0, &h->queue[i]);
    return true;
}

static bool host_frame_create(const Host *h, HostFrame *f)
{
    VkDevice dev = f->device = h->device;
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    bool ok = vkCreateCommandPool(dev,
                                  &(VkCommandPoolCreateInfo){
                                      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                      .queueFamilyIndex = h->family},
                                  NULL, &f->pool) == VK_SUCCESS &&
              (alloc.commandPool = f->pool,
               vkAllocateCommandBuffers(dev, &alloc, &f->cmd) == VK_SUCCESS) &&
              vkCreateFence(dev, &(VkFenceCreateInfo){.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO},
                            NULL, &f->fence) == VK_SUCCESS &&
              vkCreateImage(dev,
                            &(VkImageCreateInfo){.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                                 .imageType = VK_IMAGE_TYPE_2D,
                                                 .format = VK_FORMAT_R8G8B8A8_SRGB,
                                                 .extent = {W, H, 1},
                                                 .mipLevels = 1,
                                                 .arrayLayers = 1,
                                                 .samples = VK_SAMPLE_COUNT_1_BIT,
                                                 .tiling = VK_IMAGE_TILING_OPTIMAL,
                                                 .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                          VK_IMAGE_USAGE_TRANSFER_SRC_BIT},
                            NULL, &f->image) == VK_SUCCESS &&
              vkCreateBuffer(dev,
                             &(VkBufferCreateInfo){.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                                   .size = BYTES,
                                                   .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT},
                             NULL, &f->readback) == VK_SUCCESS;
    VkMemoryRequirements image_need, buffer_need;
    if (ok) {
        vkGetImageMemoryRequirements(dev, f->image, &image_need);
        vkGetBufferMemoryRequirements(dev, f->readback, &buffer_need);
        ok = (image_need.memoryTypeBits >> h->memory_device & 1) &&
             (buffer_need.memoryTypeBits >> h->memory_host & 1);
    }
    return ok &&
           vkAllocateMemory(dev,
                            &(VkMemoryAllocateInfo){.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                                    .allocationSize = image_need.size,
                                                    .memoryTypeIndex = h->memory_device},
                            NULL, &f->image_memory) == VK_SUCCESS &&
           vkBindImageMemory(dev, f->image, f->image_memory, 0) == VK_SUCCESS &&
           vkAllocateMemory(dev,
                            &(VkMemoryAllocateInfo){.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                                    .allocationSize = buffer_need.size,
                                                    .memoryTypeIndex = h->memory_host},
                            NULL, &f->readback_memory) == VK_SUCCESS &&
           vkBindBufferMemory(dev, f->readback, f->readback_memory, 0) == VK_SUCCESS &&
           vkMapMemory(dev, f->readback_memory, 0, BYTES, 0, &f->pixels) == VK_SUCCESS;
}

/* What host_frame_create made, as far as it got (its frames waited for already). */
static void host_frame_destroy(HostFrame *f)
{
    if (!f->device)
        return;
    vkDestroyBuffer(f->device, f->readback, NULL);
    vkFreeMemory(f->device, f->readback_memory, NULL);
    vkDestroyImage(f->device, f->image, NULL);
    vkFreeMemory(f->device, f->image_memory, NULL);
    vkDestroyFence(f->device, f->fence, NULL);
    vkDestroyCommandPool(f->device, f->pool, NULL);
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

static void host_destroy(Host *h)
{
    if (h->device)
        vkDestroyDevice(h->device, NULL);
    if (h->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)(void (*)(void))vkGetInstanceProcAddr(
                h->instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy(h->instance, h->messenger, NULL);
    }
    if (h->instance)
        vkDestroyInstance(h->instance, NULL);
}

int main(void)
{
    CheckState s = {0};
    /* the lone context: what each of the others must draw */
    Drawing lone = {0};
    drawing(&lone);
    CHECK(&s, !lone.why[0] && lone.messages == 0, "a lone context: %s, %u validation messages",
          lone.why, lone.messages);

    /* three of the library's own: three instances and devices (lavapipe's, three times), the last
     * without the layer */
    at_once(&s, "devices of their own", 3, (const pagecurl_context_desc *[3]){NULL, NULL, NULL},
            NULL, true, NULL, lone.frames);

    /* two on the host's one device */
    Host h = {0};
    CHECK(&s, host_create(&h), "the host's instance and device");
    if (h.device) {
        pagecurl_context_desc desc[2];
        for (int i = 0; i < 2; i++)
            desc[i] = (pagecurl_context_desc){.size = sizeof desc[i],
                                              .instance = h.instance,
                                              .physical_device = h.physical,
                                              .device = h.device,
                                              .queue_family = h.family,
                                              .queue = h.queue[i],
                                              .get_instance_proc_addr = vkGetInstanceProcAddr,
                                              .debug_names = true,
                                              .enabled_features = &h.enabled};
        pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
        printf("test_contexts: one device: %s\n",
               h.queue_count == 2 ? "a queue each"
                                  : "one queue: updates and submissions under the host's lock, "
                                    "the books recorded at once");
        at_once(&s, "one device", 2, (const pagecurl_context_desc *[2]){&desc[0], &desc[1]}, &h,
                false, h.queue_count == 2 ? NULL : &queue_lock, lone.frames);
    }
    host_destroy(&h);
    CHECK(&s, atomic_load(&h.messages) == 0, "the host's instance: %u validation messages",
          atomic_load(&h.messages));
    for (int f = 0; f < FRAMES; f++)
        free(lone.frames[f]);
    return check_finish(&s, "test_contexts");
}
