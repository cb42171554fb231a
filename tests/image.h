/* SPDX-License-Identifier: MIT */
/* The PNGs the program writes, read back for the tests (stb_image): RGBA8, top row first. */
#ifndef PAGECURL_TESTS_IMAGE_H
#define PAGECURL_TESTS_IMAGE_H

#include <stdbool.h>

typedef struct Image {
    int w, h;
    unsigned char *rgba; /* NULL when the file could not be read */
} Image;

Image image_load(const char *path);
void image_free(Image *img);
/* Same size and every byte equal. */
bool image_same(const Image *a, const Image *b);

#endif
