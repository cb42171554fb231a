/* SPDX-License-Identifier: MIT */
/* What is printed on the pages: each leaf's front is ruled notebook paper with a chapter title, a
 * written passage and its page number; its back is graph paper with a heading, a framed note
 * and its own page number, on the other corner. Drawn on the CPU at start-up (text in the
 * TrueType face of typeface.h, or by stb_easy_font's quads where there is none; everything else
 * with exact box coverage) into one texture layer per page side,
 * leaf k's front in layer 2k and back in 2k + 1, and uploaded as a mipmapped texture. Owns the
 * pixels only while making them; the texture belongs to the renderer. */
#ifndef PAGECURL_PAGES_CONTENT_H
#define PAGECURL_PAGES_CONTENT_H

#include "typeface.h"

#include <stdbool.h>
#include <stdint.h>

/* Texels across a page; down it follows the page's aspect. Big enough that the title and page
 * number stay sharp at 1280x720, small enough to draw and upload in a few milliseconds. */
#define PAGES_CONTENT_WIDTH 512
/* Leaves in the built-in book (its pages: twice as many). */
#define PAGES_CONTENT_LEAVES 8

/* RGBA8 sRGB pixels for `leaves` leaves (2 layers each) of width x height texels, the text set in
 * `face` (NULL: stb_easy_font); NULL when out of memory. free() them. */
uint8_t *pages_content_pixels(const PagesTypeface *face, uint32_t leaves, uint32_t width,
                              uint32_t height);

/* Side `side` of the built-in book (leaf side / 2's front when even, its back when odd), into width
 * x height RGBA8 sRGB texels, the text set in `face` (NULL: stb_easy_font); false when out of
 * memory. */
bool pages_content_side(const PagesTypeface *face, int side, uint32_t width, uint32_t height,
                        uint8_t *rgba);

#endif
