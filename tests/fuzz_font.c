/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as the built-in book's face (pages/typeface.c), both its styles:
 * loaded through FreeType, then a line measured and set at a body's size and a title's, as the
 * pages are. It must take the face or refuse it with a message, never crash, leak, hang or read
 * out of bounds (ASan + UBSan), and what it sets must stay near its line.
 *
 * A font file's tables carry checksums, which the load checks before FreeType reads anything:
 * nearly every mutated input would stop there. So the input's table checksums are made right
 * first, and the mutations reach FreeType and the glyphs (the checksum check itself is fuzzed
 * through the inputs whose directory is cut short or points outside them).
 */
#include "../pages/typeface.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Each table whose directory entry lies within the font, and which lies within it, given the
 * checksum of what it holds (in `head` the checkSumAdjustment word counts as zero). */
static void make_sums_right(uint8_t *font, size_t size)
{
    size_t tables = size >= 12 ? (size_t)font[4] << 8 | font[5] : 0;
    for (size_t i = 0; i < tables && 12 + 16 * i + 16 <= size; i++) {
        uint8_t *entry = font + 12 + 16 * i;
        uint64_t at = be32(entry + 8), len = be32(entry + 12);
        if (at + len > size)
            continue;
        uint32_t sum = 0;
        for (uint64_t k = 0; k < len; k += 4) {
            uint8_t w[4] = {0, 0, 0, 0};
            memcpy(w, font + at + k, len - k < 4 ? (size_t)(len - k) : 4);
            if (!(k == 8 && !memcmp(entry, "head", 4)))
                sum += be32(w);
        }
        entry[4] = (uint8_t)(sum >> 24), entry[5] = (uint8_t)(sum >> 16);
        entry[6] = (uint8_t)(sum >> 8), entry[7] = (uint8_t)sum;
    }
}

/* Where a line may leave ink: within a few ems of its pen's path. */
typedef struct Bounds {
    float x0, x1, y0, y1;
} Bounds;

static void plot(void *user, int x, int y, float coverage)
{
    const Bounds *b = user;
    if (!(coverage > 0.0f && coverage <= 1.0f) || x < b->x0 || x > b->x1 || y < b->y0 || y > b->y1)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *font = malloc(size ? size : 1);
    if (!font)
        return 0;
    memcpy(font, data, size);
    make_sums_right(font, size);
    char why[512] = "";
    PagesTypeface *face = pages_typeface_from_memory(font, size, font, size, why, sizeof why);
    free(font); /* the face keeps none of the file */
    if (!face) {
        if (!why[0])
            abort(); /* a face refused says why */
        return 0;
    }
    static const char LINE[] = "Paper does not stretch: AVAST, fi \x01\xff~{|}";
    static const float SIZES[] = {17.4f, 87.0f};
    for (int style = 0; style < 2; style++)
        for (int i = 0; i < 2; i++) {
            float em = SIZES[i], x = 10.25f, y = 100.6f;
            float width = pages_typeface_width(face, (PagesTypefaceStyle)style, LINE, em);
            /* every glyph's advance and kerning within a few ems (the face's checks) */
            float most = 8.0f * em * (float)(sizeof LINE - 1);
            if (!isfinite(width) || fabsf(width) > most)
                abort();
            Bounds b = {x - most - 2.0f, x + most + 2.0f, y - 5.0f * em, y + 5.0f * em};
            (void)pages_typeface_draw(face, (PagesTypefaceStyle)style, LINE, em, x, y, plot, &b);
        }
    pages_typeface_free(face);
    return 0;
}
