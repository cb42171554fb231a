/* SPDX-License-Identifier: MIT */
/* GIFs for the tests, written here byte by byte: a screen in one colour, frames over it, and the
 * frames' codes as an encoder writes them or as a hostile file may (a frame whose codes expand
 * far past its pixels). */
#ifndef PAGECURL_TESTS_GIF_FILE_H
#define PAGECURL_TESTS_GIF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct GifFrame {
    uint16_t left, top, w, h; /* its place on the screen */
    bool interlaced;
    /* 0: the frame's w x h pixels, every one the screen's colour; more: as many codes after the
     * table is full, each the longest string in it (the frame's pixels are not what it holds) */
    size_t bomb_codes;
    bool cut; /* its codes end after its first row (the decoder pads the rest) */
} GifFrame;

/* A GIF89a of a w x h screen in colour `rgb` and `count` frames; malloc'd, `*n` bytes, or NULL
 * out of memory. */
uint8_t *gif_file(uint16_t w, uint16_t h, const unsigned char rgb[3], const GifFrame *frames,
                  int count, size_t *n);

/* The same, written to `path`. */
bool gif_file_write(const char *path, uint16_t w, uint16_t h, const unsigned char rgb[3],
                    const GifFrame *frames, int count);

#endif
