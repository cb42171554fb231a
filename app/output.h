/* SPDX-License-Identifier: MIT */
/* Files the program writes: the screenshot PNG and the OBJ of the read-back page, through
 * files/safe_write.c (a failure never leaves a partial file, never damages an existing one); and
 * the check of every path the command line names before anything starts. Errors come back as one
 * line. */
#ifndef PAGECURL_APP_OUTPUT_H
#define PAGECURL_APP_OUTPUT_H

#include "options.h"

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The files the options name, before anything runs: one file given to two outputs (a frame of
 * --frames-out among them), or the replayed trace given to an output too, is bad usage (returns
 * 2); an output that cannot be written (a missing folder, a folder or a device in its place, no
 * permission) is a runtime failure (returns 1). 0 when all is well; otherwise the one line is in
 * message. The notebook is compared with the others here, checked where it is opened (it is read
 * first). */
int app_output_check(const AppOptions *opts, char *message, size_t size);

/* --frames-out's name for frame f in `dir`: DIR/frame-NNNN.png. */
void app_output_frame_path(const char *dir, uint32_t f, char *path, size_t size);

/* The book is never an output: a file the options write (an output, the notebook, a frame of
 * --frames-out) that `holds` says would write into the book (`name`: where it lies) is bad usage:
 * returns 2 with the one line in message; 0 otherwise. */
int app_output_check_book(const AppOptions *opts, bool (*holds)(const void *book, const char *path),
                          const void *book, const char *name, char *message, size_t size);

/* RGBA8 pixels, row-major, top row first. */
bool app_output_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                    char *message, size_t size);

/* The same as JPEG (quality 90, alpha dropped). */
bool app_output_jpeg(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                     char *message, size_t size);

/* The turning leaf's mesh as OBJ (positions, uvs, normals, faces). */
bool app_output_obj(const char *path, const pagecurl_leaf *leaf, char *message, size_t size);

#endif
