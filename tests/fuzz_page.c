/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as a page of a book of images, through the code the page helper
 * runs (pages_decoder_open_memory checks the header as a folder's open does, then the page is
 * drawn into a layer of page pixels, and a region of it as a zoomed view draws it). It must draw
 * the page or refuse it with a message, never crash, leak or read out of bounds (ASan + UBSan), and
 * a refused page is the marked placeholder.
 */
#include "../helper/decoder.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a small layer, as a page drawn for a narrow view: large images decode reduced */
    enum { W = 64, H = 90 };
    static uint8_t rgba[W * H * 4];
    PagesDecoder *src;
    char message[512];
    if (pages_decoder_open_memory(data, size, false, &src, message, sizeof message))
        return 0;
    bool drawn = pages_decoder_draw(src, 0, W, H, rgba, message, sizeof message);
    if (!drawn && !message[0])
        abort(); /* a page that is not drawn says why */
    /* a zoomed view's region of it, at fractions of a texel, across the layer's corner */
    static uint8_t part[32 * 32 * 4];
    PageRegion region = {200.5f, 280.25f, 180.75f, -10.5f, 32, 32};
    message[0] = '\0';
    if (!pages_decoder_draw_region(src, 0, &region, part, message, sizeof message) && !message[0])
        abort();
    pages_decoder_close(src);
    return 0;
}
