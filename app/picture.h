/* SPDX-License-Identifier: MIT */
/* Pictures the program writes (screenshots, frames): the file format follows the name's
 * extension, .png or .jpg/.jpeg; the file is written through app/output.c's atomic write. */
#ifndef PAGECURL_APP_PICTURE_H
#define PAGECURL_APP_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum AppPictureFormat {
    APP_PICTURE_NONE = 0, /* an extension we do not write */
    APP_PICTURE_PNG,
    APP_PICTURE_JPEG,
} AppPictureFormat;

/* The format `path`'s extension names (any letter case). */
AppPictureFormat app_picture_format(const char *path);

/* RGBA8 pixels, row-major, top row first, as the extension says (alpha dropped in JPEG). */
bool app_picture_write(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                       char *message, size_t size);

/* `rgba` (width x height) scaled to `out` (out_width x out_height) in linear light, sRGB in and
 * out (a supersampled picture brought to the size asked). */
bool app_picture_shrink(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t *out,
                        uint32_t out_width, uint32_t out_height);

/* Creates `path` empty, failing with EEXIST in errno when it exists: a numbered name taken this
 * way is ours to write (app_picture_write replaces it), never another file. */
bool app_picture_claim(const char *path);

#endif
