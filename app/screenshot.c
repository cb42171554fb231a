#include "screenshot.h"
#include "say.h"

#include "picture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool app_screenshot_record(const AppVk *vk, VkCommandBuffer cmd, AppScreenshot *shot,
                           const AppSwapchain *sc, uint32_t index, char *message, size_t size)
{
    shot->taken = false;
    if (!sc->readable)
        return true;
    VkDeviceSize bytes = (VkDeviceSize)sc->extent.width * sc->extent.height * 4;
    if (!shot->pixels.buffer || shot->pixels.size != bytes) {
        app_vk_buffer_destroy(vk, &shot->pixels);
        if (!app_vk_buffer_create(vk, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "window screenshot",
                                  &shot->pixels, message, size))
            return false;
    }
    VkImage image = sc->images[index];
    /* the frame's drawing -> the copy; then the copy -> the host, and the image back to where the
     * present's barrier takes it */
    app_vk_image_barrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                         VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(
        cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shot->pixels.buffer, 1,
        &(VkBufferImageCopy){.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                             .imageExtent = {sc->extent.width, sc->extent.height, 1}});
    VkMemoryBarrier2 host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT,
                             .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
    vkCmdPipelineBarrier2(cmd, &(VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                                   .memoryBarrierCount = 1,
                                                   .pMemoryBarriers = &host});
    app_vk_image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    shot->taken = true;
    shot->extent = sc->extent;
    shot->format = sc->format;
    return true;
}

void app_screenshot_destroy(const AppVk *vk, AppScreenshot *shot)
{
    app_vk_buffer_destroy(vk, &shot->pixels);
    shot->taken = false;
}

uint8_t *app_screenshot_rgba(const AppScreenshot *shot, char *message, size_t size)
{
    VkFormat format = shot->format;
    bool bgra = format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_B8G8R8A8_UNORM;
    if (!shot->taken) {
        snprintf(message, size, "the window's images cannot be read back");
        return NULL;
    }
    if (!bgra && format != VK_FORMAT_R8G8B8A8_SRGB && format != VK_FORMAT_R8G8B8A8_UNORM) {
        snprintf(message, size, "the window's pixel format is not 8-bit RGBA");
        return NULL;
    }
    size_t count = (size_t)shot->extent.width * shot->extent.height;
    uint8_t *rgba = malloc(count * 4);
    if (!rgba) {
        snprintf(message, size, "out of memory");
        return NULL;
    }
    memcpy(rgba, shot->pixels.mapped, count * 4); /* coherent memory: nothing to invalidate */
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = &rgba[4 * i];
        if (bgra) {
            uint8_t b = p[0];
            p[0] = p[2], p[2] = b;
        }
        p[3] = 255; /* the window is opaque, whatever the alpha the frame left */
    }
    return rgba;
}

void app_screenshot_save(const AppScreenshot *shot, const char *next_to, char *said,
                         size_t said_size)
{
    char path[4096], message[4200];
    snprintf(said, said_size, "no screenshot (see the terminal)");
    uint8_t *rgba = app_screenshot_rgba(shot, message, sizeof message);
    if (!rgba) {
        app_say(stderr, "no screenshot: %s", message);
        return;
    }
    const char *slash = next_to ? strrchr(next_to, '/') : NULL;
    int dir = slash ? (int)(slash - next_to) + 1 : 0;
    bool claimed = false;
    for (unsigned n = 1; n <= 9999 && !claimed; n++) {
        snprintf(path, sizeof path, "%.*spagecurl-%04u.png", dir, dir ? next_to : "", n);
        claimed = app_picture_claim(path);
        if (!claimed && errno != EEXIST)
            break;
    }
    if (!claimed) {
        app_say(stderr, "cannot write %s: %s", path, strerror(errno));
    } else if (!app_picture_write(path, shot->extent.width, shot->extent.height, rgba, message,
                                  sizeof message)) {
        remove(path);
        app_say(stderr, "%s", message);
    } else {
        app_say(stdout, "screenshot written to %s", path);
        fflush(stdout); /* a test waits for the line */
        const char *name = strrchr(path, '/');
        snprintf(said, said_size, "screenshot written to %s", name ? name + 1 : path);
    }
    free(rgba);
}
