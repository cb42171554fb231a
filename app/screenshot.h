/* SPDX-License-Identifier: MIT */
/* The window's screenshots: the buffer a swapchain image, as shown, is copied into; its pixels as
 * RGBA; the numbered files F12 and P save. Owns the buffer. */
#ifndef PAGECURL_APP_SCREENSHOT_H
#define PAGECURL_APP_SCREENSHOT_H

#include "swapchain.h"

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct AppScreenshot {
    AppVkBuffer pixels; /* sized for the swapchain the last copy came from */
    bool taken;         /* the last frame drawn copied itself into `pixels` */
    VkExtent2D extent;  /* of that copy */
    VkFormat format;
} AppScreenshot;

/* Records the copy of swapchain image `index` (in COLOR_ATTACHMENT_OPTIMAL, its writes available,
 * and left so) and sets `taken`; where the swapchain's images cannot be read, records nothing and
 * leaves `taken` false. False (the reason in message) only when the buffer cannot be made. No
 * frame in flight may still use an earlier copy. */
bool app_screenshot_record(const AppVk *vk, VkCommandBuffer cmd, AppScreenshot *shot,
                           const AppSwapchain *sc, uint32_t index, char *message, size_t size);
void app_screenshot_destroy(const AppVk *vk, AppScreenshot *shot);

/* After the frame's fence: the copy as RGBA (malloc'd), opaque, top row first; NULL with the
 * reason in message. */
uint8_t *app_screenshot_rgba(const AppScreenshot *shot, char *message, size_t size);

/* After the frame's fence: the copy to a new pagecurl-NNNN.png in the current folder, or in the
 * folder of `next_to` (may be NULL), never over a file that is there and never into `book` (a
 * folder book read from the current folder: the user's pictures folder takes it instead); says
 * where on stdout, or why not on stderr, and in `said` a line for the window (the file's name; or
 * that it failed). */
void app_screenshot_save(const AppScreenshot *shot, const pagecurl_book *book, const char *next_to,
                         char *said, size_t said_size);

#endif
