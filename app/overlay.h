/* SPDX-License-Identifier: MIT */
/* The window's 2-D overlay: coloured quads in pixels drawn over the frame the book drew into the
 * swapchain image (the HUD's text, app/hud.c makes the quads). Owns its pipeline, a host-visible
 * vertex buffer a frame slot (the CPU rewrites it each frame) and the index buffer that turns
 * quads into triangles. Knows nothing of fonts. */
#ifndef PAGECURL_APP_OVERLAY_H
#define PAGECURL_APP_OVERLAY_H

#include "vulkan.h"

#define APP_OVERLAY_MAX_QUADS    8192
#define APP_OVERLAY_VERTEX_BYTES 16 /* x, y, z float, then RGBA8: stb_easy_font's layout */

typedef struct AppOverlay {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    AppVkBuffer vertices[APP_VK_FRAMES]; /* APP_OVERLAY_MAX_QUADS x 4 vertices each */
    AppVkBuffer indices;
} AppOverlay;

/* For colour attachments of `format`; false with the reason in message. */
bool app_overlay_create(const AppVk *vk, VkFormat format, AppOverlay *out, char *message,
                        size_t size);
void app_overlay_destroy(const AppVk *vk, AppOverlay *overlay);

/* Where the CPU writes the quads of the frame in `slot`, and how many bytes it holds. */
void *app_overlay_vertices(const AppOverlay *overlay, uint32_t slot, size_t *bytes);

/* Draws `quads` quads over `view` (an image of `extent` in COLOR_ATTACHMENT_OPTIMAL, its earlier
 * writes available), `scale` glyph pixels a pixel, from the origin (x, y) in pixels. */
void app_overlay_record(VkCommandBuffer cmd, const AppOverlay *overlay, uint32_t slot,
                        VkImageView view, VkExtent2D extent, uint32_t quads, float scale, float x,
                        float y);

#endif
