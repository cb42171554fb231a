/* The view of the open book: a fixed camera above the spread, tilted towards the reader, and the
 * light. Produces the draw push constants for a target's aspect ratio. */
#ifndef PAGECURL_APP_CAMERA_H
#define PAGECURL_APP_CAMERA_H

#include "../shaders/shared.h"

#include <stdbool.h>
#include <stdint.h>

/* `single`: 0 frames the spread (both pages, spine in the middle); +1 only the right-hand page
 * (x 0 .. W), -1 only the left-hand one (the one-page layout). */
PcDrawPush app_camera_draw_push(uint32_t width, uint32_t height, float page_width,
                                float page_height, int single);

/* The point of the book's plane (z = 0) under pixel (px, py) of a width x height target, in the
 * spread's frame (spine on x = 0). False when the ray misses the plane. */
bool app_camera_unproject(uint32_t width, uint32_t height, float page_width, float page_height,
                          int single, float px, float py, float *x, float *y);

/* The line of sight through pixel (px, py) (pixel centres at +0.5), in the spread's frame: from
 * the near plane's point towards the far plane's. False for a degenerate view. */
bool app_camera_ray(uint32_t width, uint32_t height, float page_width, float page_height,
                    int single, float px, float py, double origin[3], double dir[3]);

#endif
