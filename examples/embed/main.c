/* SPDX-License-Identifier: MIT */
/* embed: a program that draws with Vulkan and has libpagecurl draw a book into part of its frame.
 *
 * The host owns everything a host owns: the instance, the device and its queue, the window and its
 * swapchain, the loop, the command buffers and their fences (host.c: plain Vulkan). It draws its
 * own scene, a background and a frame around a viewport, and has the library record the book into
 * that viewport, in the host's command buffer, after the host's own commands. Per frame:
 *
 *     pagecurl_book_pointer / pagecurl_book_action    input, as it arrives
 *     pagecurl_book_update(book, now, &target)        outside any command buffer
 *     pagecurl_book_record(book, cmd, slot, &target, &err)  after the host's scene, into its buffer
 *     pagecurl_book_poll_event(book, &event)          what happened
 *
 * The book is drawn into images of the library's own and copied into the viewport; with
 * --straight it is drawn straight into the host's image, over the host's background (where no
 * paper lies the scene shows through); with --in-pass it draws in the scene's own pass, as Dear
 * ImGui's backend does (pagecurl_book_record before the pass, pagecurl_book_draw in it, over the
 * scene, with the host's depth). --headless draws one frame into an image of the host's
 * own and writes it as a PNG; without it, an SDL2 window (where built with SDL2).
 * docs/library.md explains the rules. */
#include "host.h"

#include <pagecurl/pagecurl.h>
#ifdef EMBED_SDL
#include <SDL.h>
#include <SDL_vulkan.h>
#endif
#include <stb_image_write.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scene: the viewport with a margin around it, the background, of which the BORDER pixels
 * next to the viewport are the frame. */
#define MARGIN 48
#define BORDER 16
static const uint8_t BACKGROUND[3] = {0x2e, 0x34, 0x40}; /* sRGB bytes */
static const uint8_t FRAME[3] = {0xc8, 0x8a, 0x3c};
/* The library draws into an image of this format and copies it: the host's, the same, gets the
 * book's bytes exactly. */
#define HEADLESS_FORMAT VK_FORMAT_R8G8B8A8_SRGB
#define SLOTS           2 /* frames in flight in the window */

typedef struct Options {
    uint32_t width, height; /* the viewport */
    int page;
    float curl, grab;
    bool pose, backward, headless, validation, straight, in_pass;
    const char *book, *screenshot;
} Options;

static const char USAGE[] =
    "usage: embed [--headless --screenshot FILE.png] [--size WxH] [--page N] [--book PATH]\n"
    "             [--curl T [--grab G] [--backward]] [--straight | --in-pass] [--validation]\n"
    "  --size WxH     the book's viewport (default 640x480), inside a 48-pixel margin\n"
    "  --page N       open at the spread holding page N\n"
    "  --book PATH    a folder of images or a PDF (default: the built-in book)\n"
    "  --curl T       hold the next leaf (--backward: the previous one) turned to T, 0 .. 1,\n"
    "                 grabbed at G along its free edge (0 bottom .. 1 top, default 0.25)\n"
    "  --straight     the book drawn straight into the scene's image, over its background, at\n"
    "                 one sample a pixel (pagecurl_target.view, keep), not copied in\n"
    "  --in-pass      the book drawn in the scene's own rendering pass, over its background,\n"
    "                 with the scene's depth (pagecurl_target.in_pass, pagecurl_book_draw)\n"
    "  --headless     no window: one frame, written to --screenshot\n"
    "  --validation   the Khronos validation layer; any message makes the exit status 1\n"
    "In the window: drag a page with the mouse; arrows, Page Up/Down, Home, End; Escape quits.\n";

static bool number(const char *s, float lo, float hi, float *out)
{
    char *end;
    *out = strtof(s, &end);
    return end != s && !*end && *out >= lo && *out <= hi;
}

/* 0, or the exit status: 2 for bad usage, -1 after --help. */
static int parse(int argc, char **argv, Options *o)
{
    *o = (Options){.width = 640, .height = 480, .grab = 0.25f};
    bool grab = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = argv[i + 1]; /* argv[argc] is NULL */
        float f;
        char x, junk;
        if (!strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return -1;
        }
        if (!strcmp(a, "--headless") || !strcmp(a, "--validation") || !strcmp(a, "--backward") ||
            !strcmp(a, "--straight") || !strcmp(a, "--in-pass")) {
            o->headless |= !strcmp(a, "--headless");
            o->validation |= !strcmp(a, "--validation");
            o->backward |= !strcmp(a, "--backward");
            o->straight |= !strcmp(a, "--straight");
            o->in_pass |= !strcmp(a, "--in-pass");
            continue;
        }
        if (!v) {
            say("%s: an unknown option, or one without its value (--help lists them)", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--size")) {
            if (sscanf(v, "%u%c%u%c", &o->width, &x, &o->height, &junk) != 3 || x != 'x' ||
                !o->width || !o->height || o->width > 8192 || o->height > 8192) {
                say("--size %s: WxH, 1 to 8192 pixels a side", v);
                return 2;
            }
        } else if (!strcmp(a, "--page")) {
            if (!number(v, 1, 4096, &f) || f != floorf(f)) {
                say("--page %s: a page number, 1 or more", v);
                return 2;
            }
            o->page = (int)f;
        } else if (!strcmp(a, "--curl") || !strcmp(a, "--grab")) {
            if (!number(v, 0.0f, 1.0f, &f)) {
                say("%s %s: a number from 0 to 1", a, v);
                return 2;
            }
            if (!strcmp(a, "--curl"))
                o->curl = f, o->pose = true;
            else
                o->grab = f, grab = true;
        } else if (!strcmp(a, "--book")) {
            o->book = v;
        } else if (!strcmp(a, "--screenshot")) {
            o->screenshot = v;
        } else {
            say("%s: unknown option (--help lists them)", a);
            return 2;
        }
    }
    if (o->headless != (o->screenshot != NULL) || ((grab || o->backward) && !o->pose) ||
        (o->straight && o->in_pass)) {
        say("--headless goes with --screenshot FILE, --grab and --backward with --curl; "
            "--straight or --in-pass, not both");
        return 2;
    }
    return 0;
}

/* --- the library on the host's device --------------------------------------------------------- */

/* The exit status a failure of the library's means. */
static int failed(const char *what, const pagecurl_error *err)
{
    say("%s: %s", what, err->message);
    return err->status == PAGECURL_ERROR_USAGE ? 2 : 1;
}

/* The scene's depth (--in-pass): the book's pages tested against it where it draws. */
#define DEPTH_FORMAT VK_FORMAT_D32_SFLOAT

typedef struct Depth {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkExtent2D extent;
} Depth;

static void depth_destroy(const Gpu *g, Depth *d)
{
    vkDestroyImageView(g->device, d->view, NULL);
    vkDestroyImage(g->device, d->image, NULL);
    vkFreeMemory(g->device, d->memory, NULL);
    *d = (Depth){0};
}

/* The scene's depth at `extent` (made anew at another). */
static void depth_make(const Gpu *g, VkExtent2D extent, Depth *d)
{
    if (d->image && d->extent.width == extent.width && d->extent.height == extent.height)
        return;
    depth_destroy(g, d);
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = DEPTH_FORMAT,
        .extent = {extent.width, extent.height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
    };
    check(vkCreateImage(g->device, &ii, NULL, &d->image), "vkCreateImage");
    VkMemoryRequirements need;
    vkGetImageMemoryRequirements(g->device, d->image, &need);
    d->memory = gpu_memory(g, need, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkBindImageMemory(g->device, d->image, d->memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = d->image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = DEPTH_FORMAT,
                                .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
    check(vkCreateImageView(g->device, &vi, NULL, &d->view), "vkCreateImageView");
    d->extent = extent;
}

/* The book for targets of `format`: drawn in it and copied in, or with --straight drawn
 * straight into them at their one sample a pixel, or with --in-pass drawn in the scene's pass,
 * in its format, at its one sample a pixel, with its depth. */
static int book_open(const Gpu *g, const Options *o, uint32_t slots, VkFormat format,
                     pagecurl_context **ctx, pagecurl_book **book)
{
    pagecurl_error err;
    pagecurl_context_desc cd = {
        .size = sizeof cd,
        .instance = g->instance,
        .physical_device = g->physical,
        .device = g->device,
        .queue_family = g->family,
        .queue = g->queue,
        .get_instance_proc_addr = vkGetInstanceProcAddr, /* the loader this program links */
        .debug_names = o->validation, /* the instance has VK_EXT_debug_utils then */
        .geometry_shader = g->geometry_shader,
        .sampler_anisotropy = g->anisotropy,
        /* the features the device was made with: a device the library cannot draw with is
         * refused here, with one line saying what it lacks */
        .enabled_features = &g->enabled,
    };
    if (!(*ctx = pagecurl_context_create(&cd, &err)))
        return failed("pagecurl_context_create", &err);
    pagecurl_book_desc bd = {
        .size = sizeof bd,
        .path = o->book,
        .page = o->page,
        .frames_in_flight = slots,
        .wait_for_pages = o->headless, /* one frame: the pages it shows drawn */
        .target_format = format,
        .target_samples = o->straight || o->in_pass ? 1 : 0,
        .target_depth_format = o->in_pass ? DEPTH_FORMAT : VK_FORMAT_UNDEFINED,
    };
    if (!(*book = pagecurl_book_create(*ctx, &bd, &err)))
        return failed("pagecurl_book_create", &err);
    if (o->pose && !pagecurl_book_hold(*book, o->curl, o->grab, o->backward)) {
        say("--curl: no leaf to turn %s at page %d", o->backward ? "back" : "over",
            o->page ? o->page : 1);
        return 2;
    }
    return 0;
}

/* What happened since the last frame: the spread as a line, and errors. */
static void drain_events(pagecurl_book *book)
{
    pagecurl_event e;
    while (pagecurl_book_poll_event(book, &e)) {
        if (e.type == PAGECURL_EVENT_ERROR)
            say("page %d: %s", e.page, e.message);
        else if (e.type == PAGECURL_EVENT_SPREAD_CHANGED && e.left && e.right)
            say("open at pages %d | %d", e.left, e.right);
        else if (e.type == PAGECURL_EVENT_SPREAD_CHANGED)
            say("open at page %d", e.left ? e.left : e.right);
    }
}

/* --- one frame: the host's scene, then the book ----------------------------------------------- */

static VkClearValue srgb_colour(const uint8_t rgb[3])
{
    VkClearValue v = {.color.float32[3] = 1.0f};
    for (int i = 0; i < 3; i++) { /* the attachment is sRGB: the clear colour is linear */
        float c = rgb[i] / 255.0f;
        v.color.float32[i] = c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
    }
    return v;
}

/* Where the book goes in an image of `extent` and `format`, and how the host leaves the image to
 * it; with `view` (--straight) drawn straight into it over what the scene drew there; `in_pass`
 * drawn in the scene's pass (the layouts and stages then the host's alone). */
static pagecurl_target target_of(VkImage image, VkImageView view, bool in_pass, VkFormat format,
                                 VkExtent2D extent, VkImageLayout final_layout)
{
    return (pagecurl_target){
        .size = sizeof(pagecurl_target),
        .image = image,
        .view = view,
        .keep = view != VK_NULL_HANDLE,
        .in_pass = in_pass,
        .format = format,
        .extent = extent,
        .viewport = {{MARGIN, MARGIN}, {extent.width - 2 * MARGIN, extent.height - 2 * MARGIN}},
        /* the scene's pass leaves it so: the book's copy waits for the scene's colour writes */
        .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .final_layout = final_layout,
        .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
    };
}

/* The host's frame in `cmd`: its scene in a dynamic rendering pass of its own (the background,
 * then the frame as a ring around the viewport), then the book over the viewport; with `depth`
 * (--in-pass) the book's commands before the pass, its pages drawn in it after the scene, and the
 * image left in the target's final layout by the host. False (with err) where the book recorded
 * nothing. */
static bool frame_record(VkCommandBuffer cmd, VkImageView view, const Depth *depth,
                         pagecurl_book *book, uint32_t slot, const pagecurl_target *target,
                         pagecurl_error *err)
{
    /* in the pass: what must come before it (the leaf's curl, the shadow map) first */
    if (depth && !pagecurl_book_record(book, cmd, slot, target, err))
        return false;
    VkImageMemoryBarrier2 to_colour = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        /* after the acquire semaphore's wait (in the window), which is at this stage */
        .srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dstAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .image = target->image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    VkImageMemoryBarrier2 to_depth = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        /* the last frame's depth tests, done with it: cleared anew */
        .srcStageMask = VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .srcAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                        VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
        .dstAccessMask = VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                         VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .image = depth ? depth->image : VK_NULL_HANDLE,
        .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1},
    };
    VkImageMemoryBarrier2 before[2] = {to_colour, to_depth};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .imageMemoryBarrierCount = depth ? 2 : 1,
                                                   .pImageMemoryBarriers = before});
    VkRenderingAttachmentInfo z = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = depth ? depth->view : VK_NULL_HANDLE,
        .imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .clearValue = {.depthStencil = {1.0f, 0}},
    };
    VkRenderingAttachmentInfo colour = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = srgb_colour(BACKGROUND),
    };
    vkCmdBeginRendering(cmd, &(VkRenderingInfo){.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                                                .renderArea = {{0, 0}, target->extent},
                                                .layerCount = 1,
                                                .colorAttachmentCount = 1,
                                                .pColorAttachments = &colour,
                                                .pDepthAttachment = depth ? &z : NULL});
    VkClearAttachment frame = {VK_IMAGE_ASPECT_COLOR_BIT, 0, srgb_colour(FRAME)};
    VkRect2D v = target->viewport;
    VkClearRect rect = {{{v.offset.x - BORDER, v.offset.y - BORDER},
                         {v.extent.width + 2 * BORDER, v.extent.height + 2 * BORDER}},
                        0,
                        1};
    vkCmdClearAttachments(cmd, 1, &frame, 1, &rect);
    /* inside the frame the background again: what the book lies on where it is drawn over it */
    VkClearAttachment inside = {VK_IMAGE_ASPECT_COLOR_BIT, 0, srgb_colour(BACKGROUND)};
    vkCmdClearAttachments(cmd, 1, &inside, 1, &(VkClearRect){v, 0, 1});
    if (depth) {
        /* the book's pages over the scene, in its viewport alone; then the host would bind its
         * own pipeline and set its own viewport and scissor again to draw on */
        bool drawn = pagecurl_book_draw(book, cmd, slot, target, err);
        vkCmdEndRendering(cmd);
        VkImageMemoryBarrier2 out = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            .srcAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .newLayout = target->final_layout,
            .image = target->image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                       .imageMemoryBarrierCount = 1,
                                                       .pImageMemoryBarriers = &out});
        return drawn;
    }
    vkCmdEndRendering(cmd);
    /* the book: its compute, its passes into its own images, then a copy into the viewport (or
     * its pages drawn straight into it), leaving the image in the target's final layout */
    return pagecurl_book_record(book, cmd, slot, target, err);
}

static void begin(VkCommandBuffer cmd)
{
    VkCommandBufferBeginInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    check(vkBeginCommandBuffer(cmd, &info), "vkBeginCommandBuffer");
}

/* --- headless: one frame into the host's own image, read back as a PNG ------------------------ */

static int write_png(const char *path, VkExtent2D e, const void *rgba)
{
    char part[4096]; /* written beside it, then renamed: never a half-written file */
    snprintf(part, sizeof part, "%s.part", path);
    if (!stbi_write_png(part, (int)e.width, (int)e.height, 4, rgba, (int)e.width * 4) ||
        rename(part, path) != 0) {
        remove(part);
        say("%s: could not be written", path);
        return 1;
    }
    printf("embed: screenshot written to %s (%ux%u, the viewport at %d,%d)\n", path, e.width,
           e.height, MARGIN, MARGIN);
    return 0;
}

static int run_headless(const Options *o)
{
    Gpu g = {0};
    gpu_instance(&g, NULL, 0, o->validation);
    gpu_device(&g, VK_NULL_HANDLE);
    VkExtent2D extent = {o->width + 2 * MARGIN, o->height + 2 * MARGIN};
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = HEADLESS_FORMAT,
        .extent = {extent.width, extent.height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
    };
    VkImage image;
    check(vkCreateImage(g.device, &ii, NULL, &image), "vkCreateImage");
    VkMemoryRequirements need;
    vkGetImageMemoryRequirements(g.device, image, &need);
    VkDeviceMemory image_memory = gpu_memory(&g, need, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkBindImageMemory(g.device, image, image_memory, 0), "vkBindImageMemory");
    VkImageView view = gpu_view(&g, image, HEADLESS_FORMAT);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = (VkDeviceSize)extent.width * extent.height * 4,
                             .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer pixels;
    check(vkCreateBuffer(g.device, &bi, NULL, &pixels), "vkCreateBuffer");
    vkGetBufferMemoryRequirements(g.device, pixels, &need);
    VkDeviceMemory pixel_memory = gpu_memory(
        &g, need, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkBindBufferMemory(g.device, pixels, pixel_memory, 0), "vkBindBufferMemory");

    pagecurl_context *ctx = NULL;
    pagecurl_book *book = NULL;
    int status = book_open(&g, o, 1, HEADLESS_FORMAT, &ctx, &book);
    Depth depth = {0};
    if (o->in_pass)
        depth_make(&g, extent, &depth);
    pagecurl_target target =
        target_of(image, o->straight ? view : VK_NULL_HANDLE, o->in_pass, HEADLESS_FORMAT, extent,
                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    pagecurl_error err;
    if (!status && !pagecurl_book_update(book, 0.0, &target, &err))
        status = failed("pagecurl_book_update", &err);
    if (!status) {
        VkCommandBuffer cmd = gpu_command_buffer(&g);
        begin(cmd);
        bool drawn = frame_record(cmd, view, o->in_pass ? &depth : NULL, book, 0, &target, &err);
        /* the book left the image in TRANSFER_SRC_OPTIMAL, its copy visible to what follows */
        VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                    .imageExtent = {extent.width, extent.height, 1}};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels, 1,
                               &region);
        VkMemoryBarrier2 to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                    .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                                    .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                    .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                                    .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
        vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                       .memoryBarrierCount = 1,
                                                       .pMemoryBarriers = &to_host});
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkFence done = gpu_fence(&g, false);
        VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .commandBufferCount = 1,
                               .pCommandBuffers = &cmd};
        check(vkQueueSubmit(g.queue, 1, &submit, done), "vkQueueSubmit");
        check(vkWaitForFences(g.device, 1, &done, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        vkDestroyFence(g.device, done, NULL);
        drain_events(book);
        void *rgba;
        check(vkMapMemory(g.device, pixel_memory, 0, VK_WHOLE_SIZE, 0, &rgba), "vkMapMemory");
        status = !drawn       ? failed("pagecurl_book_record", &err)
                 : g.messages ? 1
                              : write_png(o->screenshot, extent, rgba);
        vkUnmapMemory(g.device, pixel_memory);
    }
    pagecurl_book_destroy(book); /* waits until the device no longer uses the book */
    pagecurl_context_destroy(ctx);
    depth_destroy(&g, &depth);
    vkDestroyBuffer(g.device, pixels, NULL);
    vkFreeMemory(g.device, pixel_memory, NULL);
    vkDestroyImageView(g.device, view, NULL);
    vkDestroyImage(g.device, image, NULL);
    vkFreeMemory(g.device, image_memory, NULL);
    gpu_destroy(&g);
    if (g.messages) {
        say("%u validation message(s)", g.messages);
        status = 1;
    }
    return status;
}

/* --- the window: SDL2, a swapchain of the host's, two frames in flight ------------------------ */

#ifdef EMBED_SDL
/* The window's mouse position as a pointer event in the viewport's pixels. */
static pagecurl_pointer_event pointer(SDL_Window *win, const Swapchain *sc, int x, int y,
                                      pagecurl_pointer_phase phase)
{
    int w, h;
    SDL_GetWindowSize(win, &w, &h); /* in points; the swapchain is in pixels (HiDPI) */
    return (pagecurl_pointer_event){
        .size = sizeof(pagecurl_pointer_event),
        .phase = phase,
        .kind = PAGECURL_POINTER_MOUSE,
        .x = (float)x * (float)sc->extent.width / (float)(w ? w : 1) - MARGIN,
        .y = (float)y * (float)sc->extent.height / (float)(h ? h : 1) - MARGIN,
        .time = SDL_GetTicks64() / 1000.0,
    };
}

/* Feeds the window's events since the last frame to the book; false once it is to quit. */
static bool handle_events(SDL_Window *win, const Swapchain *sc, pagecurl_book *book, bool *resized)
{
    static const struct {
        SDL_Keycode key;
        pagecurl_action action;
    } keys[] = {{SDLK_RIGHT, PAGECURL_ACTION_NEXT},    {SDLK_PAGEDOWN, PAGECURL_ACTION_NEXT},
                {SDLK_LEFT, PAGECURL_ACTION_PREVIOUS}, {SDLK_PAGEUP, PAGECURL_ACTION_PREVIOUS},
                {SDLK_HOME, PAGECURL_ACTION_FIRST},    {SDLK_END, PAGECURL_ACTION_LAST}};
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        pagecurl_pointer_event p;
        if (e.type == SDL_QUIT || (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_ESCAPE))
            return false;
        if (e.type == SDL_KEYDOWN) {
            /* the arrows go the way the pages move: bound on the right, Left turns forward */
            pagecurl_state state = {.size = sizeof state};
            pagecurl_book_state(book, &state);
            SDL_Keycode key = e.key.keysym.sym;
            if (state.bound_right && (key == SDLK_LEFT || key == SDLK_RIGHT))
                key = key == SDLK_LEFT ? SDLK_RIGHT : SDLK_LEFT;
            for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
                if (key == keys[i].key)
                    pagecurl_book_action(book, keys[i].action, SDL_GetTicks64() / 1000.0);
        } else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT) {
            p = pointer(win, sc, e.button.x, e.button.y, PAGECURL_POINTER_DOWN);
            /* a press on the host's own scene is not the book's */
            if (p.x >= 0 && p.y >= 0 && p.x < sc->extent.width - 2 * MARGIN &&
                p.y < sc->extent.height - 2 * MARGIN)
                pagecurl_book_pointer(book, &p);
        } else if (e.type == SDL_MOUSEMOTION) { /* ignored by the book while no pointer is down */
            p = pointer(win, sc, e.motion.x, e.motion.y, PAGECURL_POINTER_MOVE);
            pagecurl_book_pointer(book, &p);
        } else if (e.type == SDL_MOUSEBUTTONUP && e.button.button == SDL_BUTTON_LEFT) {
            p = pointer(win, sc, e.button.x, e.button.y, PAGECURL_POINTER_UP);
            pagecurl_book_pointer(book, &p);
        } else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
            *resized = true;
        }
    }
    return true;
}

static VkExtent2D drawable(SDL_Window *win)
{
    int w, h;
    SDL_Vulkan_GetDrawableSize(win, &w, &h);
    return (VkExtent2D){(uint32_t)w, (uint32_t)h};
}

static int run_window(const Options *o)
{
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    SDL_Window *win = NULL;
    const char *exts[8];
    unsigned n = 8;
    if (SDL_Init(SDL_INIT_VIDEO) != 0 ||
        !(win = SDL_CreateWindow("embed", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                 (int)o->width + 2 * MARGIN, (int)o->height + 2 * MARGIN,
                                 SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE)) ||
        !SDL_Vulkan_GetInstanceExtensions(win, &n, exts)) {
        say("no window: %s (--headless --screenshot FILE.png needs none)", SDL_GetError());
        return 1;
    }
    SDL_SetWindowMinimumSize(win, 2 * MARGIN + 1, 2 * MARGIN + 1); /* a viewport, always */
    Gpu g = {0};
    gpu_instance(&g, exts, n, o->validation);
    VkSurfaceKHR surface;
    if (!SDL_Vulkan_CreateSurface(win, g.instance, &surface)) {
        say("SDL: %s", SDL_GetError());
        return 1;
    }
    gpu_device(&g, surface);
    Swapchain sc = {0};
    while (!swapchain_create(&g, surface, drawable(win), &sc))
        SDL_WaitEvent(NULL);

    pagecurl_context *ctx = NULL;
    pagecurl_book *book = NULL;
    int status = book_open(&g, o, SLOTS, sc.format, &ctx, &book);
    struct {
        VkCommandBuffer cmd;
        VkFence done;         /* the device finished the slot's last frame */
        VkSemaphore acquired; /* its swapchain image may be drawn into */
    } slots[SLOTS];
    for (int i = 0; i < SLOTS; i++) {
        slots[i].cmd = gpu_command_buffer(&g);
        slots[i].done = gpu_fence(&g, true);
        slots[i].acquired = gpu_semaphore(&g);
    }
    bool resized = false;
    Depth depth = {0}; /* --in-pass: the scene's, at the swapchain's extent */
    for (uint32_t frame = 0; !status && handle_events(win, &sc, book, &resized); frame++) {
        if (resized && !swapchain_create(&g, surface, drawable(win), &sc)) {
            SDL_WaitEvent(NULL); /* minimised: nothing to draw into */
            continue;
        }
        resized = false;
        uint32_t slot = frame % SLOTS, index;
        /* the slot's last frame is done: its command buffer, and the book's slot, are free */
        check(vkWaitForFences(g.device, 1, &slots[slot].done, VK_TRUE, UINT64_MAX), "wait");
        VkResult r = vkAcquireNextImageKHR(g.device, sc.handle, UINT64_MAX, slots[slot].acquired,
                                           VK_NULL_HANDLE, &index);
        if (r == VK_ERROR_OUT_OF_DATE_KHR) {
            resized = true;
            continue;
        }
        if (r != VK_SUBOPTIMAL_KHR)
            check(r, "vkAcquireNextImageKHR");
        pagecurl_target target =
            target_of(sc.images[index], o->straight ? sc.views[index] : VK_NULL_HANDLE, o->in_pass,
                      sc.format, sc.extent, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
        if (o->in_pass) { /* the slot's last frame done: the depth it used is free */
            if (depth.image &&
                (depth.extent.width != sc.extent.width || depth.extent.height != sc.extent.height))
                vkDeviceWaitIdle(g.device); /* the other slot's frame may still test it */
            depth_make(&g, sc.extent, &depth);
        }
        pagecurl_error err;
        if (!pagecurl_book_update(book, SDL_GetTicks64() / 1000.0, &target, &err)) {
            status = failed("pagecurl_book_update", &err);
            break;
        }
        drain_events(book);

        VkCommandBuffer cmd = slots[slot].cmd;
        check(vkResetFences(g.device, 1, &slots[slot].done), "vkResetFences");
        check(vkResetCommandBuffer(cmd, 0), "vkResetCommandBuffer");
        begin(cmd);
        /* submitted either way, so that the slot's fence signals */
        bool drawn = frame_record(cmd, sc.views[index], o->in_pass ? &depth : NULL, book, slot,
                                  &target, &err);
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &slots[slot].acquired,
            .pWaitDstStageMask =
                (VkPipelineStageFlags[]){VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
            .commandBufferCount = 1,
            .pCommandBuffers = &cmd,
            .signalSemaphoreCount = 1,
            .pSignalSemaphores = &sc.rendered[index],
        };
        check(vkQueueSubmit(g.queue, 1, &submit, slots[slot].done), "vkQueueSubmit");
        VkPresentInfoKHR present = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                                    .waitSemaphoreCount = 1,
                                    .pWaitSemaphores = &sc.rendered[index],
                                    .swapchainCount = 1,
                                    .pSwapchains = &sc.handle,
                                    .pImageIndices = &index};
        r = vkQueuePresentKHR(g.queue, &present);
        if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR)
            resized = true;
        else
            check(r, "vkQueuePresentKHR");
        if (!drawn) {
            status = failed("pagecurl_book_record", &err);
            break;
        }
    }
    vkDeviceWaitIdle(g.device);
    pagecurl_book_destroy(book);
    pagecurl_context_destroy(ctx);
    for (int i = 0; i < SLOTS; i++) {
        vkDestroyFence(g.device, slots[i].done, NULL);
        vkDestroySemaphore(g.device, slots[i].acquired, NULL);
    }
    depth_destroy(&g, &depth);
    swapchain_destroy(&g, &sc);
    vkDestroySurfaceKHR(g.instance, surface, NULL);
    gpu_destroy(&g);
    SDL_DestroyWindow(win);
    SDL_Quit();
    if (g.messages) {
        say("%u validation message(s)", g.messages);
        status = 1;
    }
    return status;
}
#endif

int main(int argc, char **argv)
{
    Options o;
    int status = parse(argc, argv, &o);
    if (status)
        return status < 0 ? 0 : status;
    if (o.headless)
        return run_headless(&o);
#ifdef EMBED_SDL
    return run_window(&o);
#else
    say("built without SDL2: --headless --screenshot FILE.png only");
    return 2;
#endif
}
