/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as a book file, through the code the page helper runs for a --book
 * file (a PDF, or by its content an EPUB, FB2 book, XPS document or comic book: seeds of each in
 * tests/fuzz/pdf): opened from memory (its password, its real page count, page 1's size, its page
 * labels), its first pages' labels made (each a terminated string that fits), then its first and
 * last pages drawn into small layers of page pixels, a region of page 1 as a zoomed view draws it,
 * page 1's text searched and its links read. It must draw or refuse with a message, never crash,
 * leak or read out of bounds (ASan + UBSan). The layers are small so that each input's work stays
 * bounded; MuPDF's memory is bounded by the source itself (PAGES_BOOK_DECODE_MEMORY). */
#include "../helper/decoder.h"
#include "../pages/page_labels.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { W = 48, H = 64 };
    static uint8_t rgba[W * H * 4];
    PagesDecoder *src;
    char message[512];
    if (pages_decoder_open_memory(data, size, true, &src, message, sizeof message))
        return 0;
    int pages = pages_decoder_pages(src);
    if (pages < 1)
        abort(); /* an open book has a page */
    for (int page = 0; page < pages && page < 16; page++) {
        char label[PAGE_LABEL_MAX + 1];
        label[PAGE_LABEL_MAX] = 'x';
        page_labels_text(pages_decoder_labels(src), page, label, PAGE_LABEL_MAX);
        if (label[PAGE_LABEL_MAX] != 'x' || strlen(label) >= PAGE_LABEL_MAX)
            abort();
    }
    for (int page = 0; page < pages && page < 2; page++) {
        int p = page ? pages - 1 : 0;
        message[0] = '\0';
        if (!pages_decoder_draw(src, p, W, H, rgba, message, sizeof message) && !message[0])
            abort();
    }
    /* a zoomed view's region of page 1, at fractions of a texel, across the layer's corner */
    static uint8_t part[32 * 32 * 4];
    PageRegion region = {200.5f, 280.25f, 180.75f, -10.5f, 32, 32};
    message[0] = '\0';
    if (!pages_decoder_draw_region(src, 0, &region, part, message, sizeof message) && !message[0])
        abort();
    /* page 1's text searched (the page helper's FIND): a match's rectangles, as many as asked */
    static PagesFindRect rects[8];
    static bool first[8];
    float place[4];
    message[0] = '\0';
    int found = pages_decoder_find(src, 0, "e", rects, first, 8, place, message, sizeof message);
    if (found > 8 || (found < 0 && !message[0]) || (found > 0 && !first[0]))
        abort();
    /* page 1's links (the page helper's LINKS): as many as asked, each a finite rectangle, a
     * target in the book or none, an address that fits */
    static PagesLink links[8];
    message[0] = '\0';
    int linked = pages_decoder_links(src, 0, links, 8, place, message, sizeof message);
    if (linked > 8 || (linked < 0 && !message[0]))
        abort();
    for (int k = 0; k < linked; k++)
        if (!isfinite(links[k].x0) || !isfinite(links[k].y1) || links[k].target < -1 ||
            links[k].target >= pages || strlen(links[k].uri) > PAGES_LINK_URI_MAX)
            abort();
    /* page 1's text read (the page helper's TEXT): no more characters than asked, none a
     * newline first */
    static PagesTextChar chars[64];
    message[0] = '\0';
    int read = pages_decoder_text(src, 0, chars, 64, place, message, sizeof message);
    if (read > 64 || (read < 0 && !message[0]) || (read > 0 && chars[0].c == '\n'))
        abort();
    /* a reflowable book laid out again (the page helper's RELAYOUT): its first and last pages'
     * text found in the new layout, within it; a book whose pages are its own refused (2) */
    int from[2] = {0, pages - 1}, moved[2] = {-2, -2};
    message[0] = '\0';
    int laid = pages_decoder_relayout(src, &(PagesTextLayout){1.3f, 17.0f}, from, moved, 2, message,
                                      sizeof message);
    if ((laid != 0 && !message[0]) || (!pages_decoder_reflowable(src) && laid != 2))
        abort();
    for (int i = 0; laid == 0 && i < 2; i++)
        if (moved[i] < 0 || moved[i] >= pages_decoder_pages(src))
            abort();
    pages_decoder_close(src);
    return 0;
}
