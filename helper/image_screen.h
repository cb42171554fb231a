/* SPDX-License-Identifier: MIT */
/* What an image file must be before its bytes reach MuPDF 1.21 (Debian 12's), for the formats
 * whose readers there trust the file: each check reads the bytes alone (no decoder), lets
 * through the files that programs write, and says in `why` what is wrong with the others.
 * Upstream fixed these readers after 1.21; the checks stand in for the fixes Debian lacks. */
#ifndef PAGECURL_PAGES_IMAGE_SCREEN_H
#define PAGECURL_PAGES_IMAGE_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The BMP whose header MuPDF can trust: a Windows header (40, 52, 56, 108 or 124 bytes),
 * uncompressed at 1, 4, 8, 16, 24 or 32 bits a pixel, run-length coded at 4 or 8, bit fields at
 * 16 or 32; its rows after its header and masks. Its size into `w` x `h` from the header; where
 * `whole` (the file is `n` bytes), what lies past the header is checked too: the rows and an
 * embedded colour profile inside the file. */
bool pages_bmp_screen(const uint8_t *b, size_t n, bool whole, int *w, int *h, char *why,
                      size_t size);

/* A screened BMP whose header holds colour masks its compression does not use, with them
 * written as it means them into `*copy` (malloc'd; NULL where the file needs no change). False
 * out of memory. */
bool pages_bmp_masks(const uint8_t *b, size_t n, uint8_t **copy);

/* The GIF (the whole file, `n` bytes) whose frames MuPDF decodes in bounded work: it decodes
 * every frame that starts on the screen, pads one whose data ends early to its full size a byte
 * at a time, and keeps all that a frame's codes expand to, however far past its pixels. The
 * frames' sizes and what their codes expand to (counted, not decoded) add up to at most
 * PAGES_GIF_MAX_BYTES. */
#define PAGES_GIF_MAX_BYTES (512u << 20)
bool pages_gif_screen(const uint8_t *b, size_t n, char *why, size_t size);

/* A PNG's size from its IHDR, without a decoder (the rest of the file is not needed for it): 0
 * with the size; 1 where it is none a PNG may have (MuPDF 1.21 takes a width of 2^31 as
 * negative and reads its interlaced rows past its buffer: upstream's 709382); -1 without one. */
int pages_png_size(const uint8_t *b, size_t n, int *w, int *h);

/* The TIFF whose first directory (all MuPDF reads) it decodes within its buffers: its lists of
 * values (strips, tiles, a colour map, a profile) no longer than the file, or at open (`whole`
 * false: its first bytes) PAGES_TIFF_MAX_LIST values; where `whole`: a row and a tile within 2^31
 * bits and bytes; a palette of one index (with associated alpha or none); no transparency mask;
 * L*a*b* without alpha; SGI Log at 16 bits; YCbCr tiles only through JPEG. (Its LZW strips are
 * read by pagecurl's own decoder, helper/lzw_decode.c.) */
#define PAGES_TIFF_MAX_LIST (1u << 20)
bool pages_tiff_screen(const uint8_t *b, size_t n, bool whole, char *why, size_t size);

/* The binary PGM or PPM (P5, P6; the whole file) whose samples are all there, as its reader
 * checks them only for a maximum value above 1. */
bool pages_pnm_screen(const uint8_t *b, size_t n, char *why, size_t size);

#endif
