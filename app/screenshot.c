#include "screenshot.h"
#include "say.h"

#include "picture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool app_screenshot_record(const GpuContext *ctx, VkCommandBuffer cmd, AppScreenshot *shot,
                           const GpuSwapchain *sc, uint32_t index, GpuError *err)
{
    shot->taken = false;
    if (!sc->readable)
        return true;
    VkDeviceSize bytes = (VkDeviceSize)sc->extent.width * sc->extent.height * 4;
    if (!shot->pixels.buffer || shot->pixels.size != bytes) {
        gpu_buffer_destroy(ctx, &shot->pixels);
        GpuBufferDesc desc = {bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, GPU_MEMORY_READBACK,
                              "window screenshot"};
        if (!gpu_buffer_create(ctx, &desc, &shot->pixels, err))
            return false;
    }
    gpu_swapchain_record_readback(ctx, cmd, sc, index, &shot->pixels);
    shot->taken = true;
    return true;
}

void app_screenshot_destroy(const GpuContext *ctx, AppScreenshot *shot)
{
    gpu_buffer_destroy(ctx, &shot->pixels);
    shot->taken = false;
}

uint8_t *app_screenshot_rgba(const GpuContext *ctx, const AppScreenshot *shot,
                             const GpuSwapchain *sc, char *message, size_t size)
{
    VkFormat format = sc->format;
    bool bgra = format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_B8G8R8A8_UNORM;
    if (!shot->taken) {
        snprintf(message, size, "the window's images cannot be read back");
        return NULL;
    }
    if (!bgra && format != VK_FORMAT_R8G8B8A8_SRGB && format != VK_FORMAT_R8G8B8A8_UNORM) {
        snprintf(message, size, "the window's pixel format is not 8-bit RGBA");
        return NULL;
    }
    size_t count = (size_t)sc->extent.width * sc->extent.height;
    uint8_t *rgba = malloc(count * 4);
    if (!rgba) {
        snprintf(message, size, "out of memory");
        return NULL;
    }
    gpu_buffer_invalidate(ctx, &shot->pixels);
    memcpy(rgba, shot->pixels.mapped, count * 4);
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

void app_screenshot_save(const GpuContext *ctx, const AppScreenshot *shot, const GpuSwapchain *sc,
                         const char *next_to, char *said, size_t said_size)
{
    char path[4096], message[4200];
    snprintf(said, said_size, "no screenshot (see the terminal)");
    uint8_t *rgba = app_screenshot_rgba(ctx, shot, sc, message, sizeof message);
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
    } else if (!app_picture_write(path, sc->extent.width, sc->extent.height, rgba, message,
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
