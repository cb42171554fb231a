/* SPDX-License-Identifier: MIT */
/* pass_bench: a host's frame time with the book copied in, drawn straight in over the host's
 * pixels (`keep`) and drawn in the host's own pass (`in_pass`), one beside the other
 * (BENCHMARKS.md, issue 53 item 6). A host of its own through the header alone: its image of the
 * viewport and a 24-pixel margin, cleared each frame, and its depth for its pass; the book held by
 * a pointer and dragged across the right-hand page, one frame after another, each waited for (its
 * fence) before the next is recorded. ROUNDS rounds of the three modes in turn, each a new book:
 * FRAMES frames after 10 to warm, their mean wall-clock and process CPU times (a CPU device's
 * rasteriser threads are the process's).
 *
 * pass_bench WIDTHxHEIGHT [FRAMES [ROUNDS]] */
#include <pagecurl/pagecurl.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MARGIN 24
#define FORMAT VK_FORMAT_R8G8B8A8_SRGB
#define DEPTH  VK_FORMAT_D32_SFLOAT

typedef struct Host {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkExtent2D extent;
    VkImage image, depth;
    VkImageView view, depth_view;
    VkDeviceMemory memory[2];
} Host;

static void ok(VkResult r, const char *what)
{
    if (r != VK_SUCCESS) {
        fprintf(stderr, "pass_bench: %s: %d\n", what, r);
        exit(1);
    }
}

static double ms_of(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* An image of the host's extent in device memory, with a view. */
static void image_make(Host *h, VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                       VkImage *image, VkImageView *view, VkDeviceMemory *memory)
{
    VkImageCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {h->extent.width, h->extent.height, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .usage = usage};
    ok(vkCreateImage(h->device, &ii, NULL, image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(h->device, *image, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(h->physical, &props);
    uint32_t type = 0;
    while (type < props.memoryTypeCount &&
           (!(req.memoryTypeBits & 1u << type) ||
            !(props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
        type++;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    ok(vkAllocateMemory(h->device, &ai, NULL, memory), "vkAllocateMemory");
    ok(vkBindImageMemory(h->device, *image, *memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = *image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = format,
                                .subresourceRange = {aspect, 0, 1, 0, 1}};
    ok(vkCreateImageView(h->device, &vi, NULL, view), "vkCreateImageView");
}

static void host_make(Host *h)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "pass_bench",
                             .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                 .pApplicationInfo = &app};
    ok(vkCreateInstance(&info, NULL, &h->instance), "vkCreateInstance");
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(h->instance, &count, &h->physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !count)
        ok(VK_ERROR_INITIALIZATION_FAILED, "no Vulkan device");
    VkQueueFamilyProperties families[16];
    count = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(h->physical, &count, families);
    const VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    for (h->family = 0; h->family < count && (families[h->family].queueFlags & want) != want;)
        h->family++;
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
        .maintenance4 = VK_TRUE};
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = h->family,
                                     .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo dinfo = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                .pNext = &f13,
                                .queueCreateInfoCount = 1,
                                .pQueueCreateInfos = &queue};
    ok(vkCreateDevice(h->physical, &dinfo, NULL, &h->device), "vkCreateDevice");
    vkGetDeviceQueue(h->device, h->family, 0, &h->queue);
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = h->family};
    ok(vkCreateCommandPool(h->device, &pi, NULL, &h->pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = h->pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
    ok(vkAllocateCommandBuffers(h->device, &ci, &h->cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    ok(vkCreateFence(h->device, &fi, NULL, &h->fence), "vkCreateFence");
    image_make(h, FORMAT,
               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
               VK_IMAGE_ASPECT_COLOR_BIT, &h->image, &h->view, &h->memory[0]);
    image_make(h, DEPTH, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
               &h->depth, &h->depth_view, &h->memory[1]);
}

static void barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                    VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src,
                    VkAccessFlags2 src_access, VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
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
                               .subresourceRange = {aspect, 0, 1, 0, 1}};
    VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                            .imageMemoryBarrierCount = 1,
                            .pImageMemoryBarriers = &b};
    vkCmdPipelineBarrier2(cmd, &dep);
}

typedef enum Mode { COPIED, STRAIGHT, IN_PASS, MODES } Mode;
static const char *const MODE_NAMES[MODES] = {"copied in", "drawn straight in (keep)",
                                              "in the host's pass"};

/* One frame: the host's clear, the book (in its own pass for IN_PASS), waited for. */
static void frame(Host *h, pagecurl_book *book, Mode mode, double time)
{
    pagecurl_target t = {
        .size = sizeof t,
        .image = h->image,
        .view = mode == STRAIGHT ? h->view : VK_NULL_HANDLE,
        .keep = mode == STRAIGHT,
        .in_pass = mode == IN_PASS,
        .format = FORMAT,
        .extent = h->extent,
        .viewport = {{MARGIN, MARGIN},
                     {h->extent.width - 2 * MARGIN, h->extent.height - 2 * MARGIN}},
        .layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_CLEAR_BIT,
        .src_access = VK_ACCESS_2_TRANSFER_WRITE_BIT,
    };
    pagecurl_error err;
    if (!pagecurl_book_update(book, time, &t, &err)) {
        fprintf(stderr, "pass_bench: %s\n", err.message);
        exit(1);
    }
    VkCommandBuffer cmd = h->cmd;
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    ok(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    barrier(cmd, h->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
            VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkClearColorValue grey = {.float32 = {0.2f, 0.2f, 0.2f, 1.0f}};
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, h->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &grey, 1, &all);
    bool recorded = pagecurl_book_record(book, cmd, 0, &t, &err);
    if (recorded && mode == IN_PASS) {
        barrier(cmd, h->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        barrier(cmd, h->depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                    VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
        VkRenderingAttachmentInfo colour = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                            .imageView = h->view,
                                            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
                                            .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
        VkRenderingAttachmentInfo depth = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                           .imageView = h->depth_view,
                                           .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                                           .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                           .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                           .clearValue = {.depthStencil = {1.0f, 0}}};
        VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                              .renderArea = {{0, 0}, h->extent},
                              .layerCount = 1,
                              .colorAttachmentCount = 1,
                              .pColorAttachments = &colour,
                              .pDepthAttachment = &depth};
        vkCmdBeginRendering(cmd, &ri);
        recorded = pagecurl_book_draw(book, cmd, 0, &t, &err);
        vkCmdEndRendering(cmd);
    }
    ok(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    if (!recorded) {
        fprintf(stderr, "pass_bench: %s\n", err.message);
        exit(1);
    }
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    ok(vkQueueSubmit(h->queue, 1, &si, h->fence), "vkQueueSubmit");
    ok(vkWaitForFences(h->device, 1, &h->fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    ok(vkResetFences(h->device, 1, &h->fence), "vkResetFences");
}

static void pointer(pagecurl_book *book, const Host *h, pagecurl_pointer_phase phase, float fx,
                    double time)
{
    pagecurl_pointer_event e = {.size = sizeof e,
                                .phase = phase,
                                .kind = PAGECURL_POINTER_MOUSE,
                                .id = 1,
                                .x = fx * (float)(h->extent.width - 2 * MARGIN),
                                .y = 0.7f * (float)(h->extent.height - 2 * MARGIN),
                                .time = time};
    pagecurl_book_pointer(book, &e);
}

int main(int argc, char **argv)
{
    unsigned width = 0, height = 0;
    int frames = argc > 2 ? atoi(argv[2]) : 90, rounds = argc > 3 ? atoi(argv[3]) : 4;
    if (argc < 2 || argc > 4 || sscanf(argv[1], "%ux%u", &width, &height) != 2 || !width ||
        !height || width > 8192 || height > 8192 || frames < 1 || rounds < 1) {
        fprintf(stderr, "usage: pass_bench WIDTHxHEIGHT [FRAMES [ROUNDS]]\n");
        return 2;
    }
    Host h = {.extent = {width + 2 * MARGIN, height + 2 * MARGIN}};
    host_make(&h);
    pagecurl_context_desc cd = {.size = sizeof cd,
                                .instance = h.instance,
                                .physical_device = h.physical,
                                .device = h.device,
                                .queue_family = h.family,
                                .queue = h.queue,
                                .get_instance_proc_addr = vkGetInstanceProcAddr};
    pagecurl_error err;
    pagecurl_context *ctx = pagecurl_context_create(&cd, &err);
    if (!ctx) {
        fprintf(stderr, "pass_bench: %s\n", err.message);
        return 1;
    }
    pagecurl_book_desc bd = {.size = sizeof bd,
                             .page = 3,
                             .frames_in_flight = 1,
                             .wait_for_pages = true,
                             .target_format = FORMAT,
                             .target_samples = 1,
                             .target_depth_format = DEPTH};
    for (int round = 0; round < rounds; round++)
        for (Mode mode = 0; mode < MODES; mode++) {
            pagecurl_book *book = pagecurl_book_create(ctx, &bd, &err);
            if (!book) {
                fprintf(stderr, "pass_bench: %s\n", err.message);
                return 1;
            }
            double t = 0.0;
            frame(&h, book, mode, t);
            pointer(book, &h, PAGECURL_POINTER_DOWN, 0.9f, t);
            for (int f = 0; f < 10; f++)
                frame(&h, book, mode, t += 1.0 / 60);
            double wall = ms_of(CLOCK_MONOTONIC), cpu = ms_of(CLOCK_PROCESS_CPUTIME_ID);
            for (int f = 0; f < frames; f++) {
                pointer(book, &h, PAGECURL_POINTER_MOVE, 0.9f - 0.6f * (float)f / (float)frames,
                        t += 1.0 / 60);
                frame(&h, book, mode, t);
            }
            wall = (ms_of(CLOCK_MONOTONIC) - wall) / frames;
            cpu = (ms_of(CLOCK_PROCESS_CPUTIME_ID) - cpu) / frames;
            printf("round %d, %ux%u, %s: %.2f ms a frame, %.2f ms of CPU\n", round, width, height,
                   MODE_NAMES[mode], wall, cpu);
            fflush(stdout);
            pagecurl_book_destroy(book);
        }
    pagecurl_context_destroy(ctx);
    vkDestroyImageView(h.device, h.view, NULL);
    vkDestroyImageView(h.device, h.depth_view, NULL);
    vkDestroyImage(h.device, h.image, NULL);
    vkDestroyImage(h.device, h.depth, NULL);
    vkFreeMemory(h.device, h.memory[0], NULL);
    vkFreeMemory(h.device, h.memory[1], NULL);
    vkDestroyFence(h.device, h.fence, NULL);
    vkDestroyCommandPool(h.device, h.pool, NULL);
    vkDestroyDevice(h.device, NULL);
    vkDestroyInstance(h.instance, NULL);
    return 0;
}
