/* SPDX-License-Identifier: MIT */
/* Photo-like pictures drawn procedurally: a sky graded to its horizon, a sun and its glow, hazy
 * ridges of hills, water or a meadow below, a few pines in silhouette and a film grain; every
 * scene told by a seed, the same bytes from a given build (no randomness, nothing read; another
 * libm may differ in the last bit). For books the tests and tools/make_book generate. */
#ifndef PAGECURL_TOOLS_PHOTO_H
#define PAGECURL_TOOLS_PHOTO_H

/* Scene `seed` into w x h RGB8 (sRGB) pixels, `stride` bytes a row. */
void photo_draw(unsigned seed, int w, int h, unsigned char *rgb, int stride);

#endif
