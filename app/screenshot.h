/* The window's screenshots: the buffer a swapchain image, as shown, is copied into; its pixels as
 * RGBA; the numbered files F12 and P save. Owns the buffer. */
#ifndef PAGECURL_APP_SCREENSHOT_H
#define PAGECURL_APP_SCREENSHOT_H

#include "../gpu/swapchain.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct AppScreenshot {
    GpuBuffer pixels; /* sized for the swapchain the last copy came from */
    bool taken;       /* the last frame drawn copied itself into `pixels` */
} AppScreenshot;

/* Records the copy of swapchain image `index`, as drawn so far, and sets `taken`; where the
 * swapchain's images cannot be read, records nothing and leaves `taken` false. False only when
 * the buffer cannot be made. No frame in flight may still use an earlier copy. */
bool app_screenshot_record(const GpuContext *ctx, VkCommandBuffer cmd, AppScreenshot *shot,
                           const GpuSwapchain *sc, uint32_t index, GpuError *err);
void app_screenshot_destroy(const GpuContext *ctx, AppScreenshot *shot);

/* After the frame's fence: the copy as RGBA (malloc'd), opaque, top row first; NULL with the
 * reason in message. */
uint8_t *app_screenshot_rgba(const GpuContext *ctx, const AppScreenshot *shot,
                             const GpuSwapchain *sc, char *message, size_t size);

/* After the frame's fence: the copy to a new pagecurl-NNNN.png in the current folder, or in the
 * folder of `next_to` (may be NULL), never over a file that is there; says where on stdout, or
 * why not on stderr, and in `said` a line for the window (the file's name; or that it failed). */
void app_screenshot_save(const GpuContext *ctx, const AppScreenshot *shot, const GpuSwapchain *sc,
                         const char *next_to, char *said, size_t said_size);

#endif
