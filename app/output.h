/* Files the program writes: the screenshot PNG and the OBJ of the read-back page. Each is written
 * under a temporary name in the same directory and renamed into place, so a failure never leaves
 * a partial file and never damages an existing one. Errors come back as one line. */
#ifndef PAGECURL_APP_OUTPUT_H
#define PAGECURL_APP_OUTPUT_H

#include "../mesh/grid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef bool (*AppWriteFn)(FILE *f, const void *user);

/* Runs `write` on a temporary file next to `path`, then renames it to `path`. */
bool app_output_atomic(const char *path, AppWriteFn write, const void *user, char *message,
                       size_t size);

/* RGBA8 pixels, row-major, top row first. */
bool app_output_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                    char *message, size_t size);

/* The same as JPEG (quality 90, alpha dropped). */
bool app_output_jpeg(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                     char *message, size_t size);

/* The page as OBJ: `vertices` holds PC_VERTEX_FLOATS floats per grid vertex (pos, normal, uv). */
bool app_output_obj(const char *path, const PageGrid *grid, const float *vertices, char *message,
                    size_t size);

#endif
