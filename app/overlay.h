/* SPDX-License-Identifier: MIT */
/* The window's 2-D overlay: coloured quads in pixels drawn over the frame the book drew into the
 * swapchain image (the HUD's text, app/hud.c makes the quads). Owns its pipeline and the index
 * buffer that turns quads into triangles; the vertices, a host-visible buffer the CPU rewrites
 * each frame, are a window frame slot's (AppFrameSlot, app/swapchain.h), made here. Knows nothing
 * of fonts. */
#ifndef PAGECURL_APP_OVERLAY_H
#define PAGECURL_APP_OVERLAY_H

#include "vulkan.h"

#define APP_OVERLAY_MAX_QUADS    8192
#define APP_OVERLAY_VERTEX_BYTES 16 /* x, y, z float, then RGBA8: stb_easy_font's layout */

typedef struct AppOverlay {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    AppVkBuffer indices;
} AppOverlay;

/* For colour attachments of `format`; false with the reason in message. */
bool app_overlay_create(const AppVk *vk, VkFormat format, AppOverlay *out, char *message,
                        size_t size);
void app_overlay_destroy(const AppVk *vk, AppOverlay *overlay);

/* A frame slot's vertex buffer, where the CPU writes the quads of its frame (APP_OVERLAY_MAX_QUADS
 * x 4 vertices); false with the reason in message. Freed with app_vk_buffer_destroy. */
bool app_overlay_vertices_create(const AppVk *vk, AppVkBuffer *out, char *message, size_t size);

/* Draws the first `quads` quads of `vertices` (app_overlay_vertices_create's) over `view` (an
 * image of `extent` in COLOR_ATTACHMENT_OPTIMAL, its earlier writes available), `scale` glyph
 * pixels a pixel, from the origin (x, y) in pixels. */
void app_overlay_record(VkCommandBuffer cmd, const AppOverlay *overlay, const AppVkBuffer *vertices,
                        VkImageView view, VkExtent2D extent, uint32_t quads, float scale, float x,
                        float y);

#endif
