/* Each check mirrors what the MuPDF 1.21 reader it guards does with the same bytes: where that
 * reader would stop at once (a block it does not know), the check lets the file through to be
 * refused there. */
#include "image_screen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool refuse(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool refuse(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return false;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* MuPDF 1.21's BMP reader (Debian 12's) trusts the header: a bitmap offset past the file end
 * reads a palette past it (tests/fuzz_page.c crashed it so), an offset before the header's end
 * underflows the palette's size, an embedded colour profile's offset and size may wrap, and its
 * compressed and bit-field paths have been fixed many times since. Only the BMP that programs
 * write reaches it: a Windows header (40, 52, 56, 108 or 124 bytes), uncompressed at 1, 4, 8, 16,
 * 24 or 32 bits a pixel, run-length coded at 4 or 8 (the decoders stop at the file's end), bit
 * fields at 16 or 32; its rows after its header and masks, and they and a colour profile it
 * embeds inside the file. Its size into `w` x `h` from the header; where `whole` (the file is `n`
 * bytes), what lies past the header checked too. 0, or 1 with the cause. */
bool app_bmp_screen(const uint8_t *b, size_t n, bool whole, int *w, int *h, char *why, size_t size)
{
    if (n < 14 + 40)
        return refuse(why, size, "a BMP cut short in its header");
    uint32_t offset = le32(b + 10), header = le32(b + 14);
    if (header != 40 && header != 52 && header != 56 && header != 108 && header != 124)
        return refuse(why, size,
                      "a BMP with a %u-byte header, which pagecurl does not read (it reads 40, 52, "
                      "56, 108 and 124)",
                      header);
    if (n < 14 + (size_t)header)
        return refuse(why, size, "a BMP cut short in its header");
    int32_t width = (int32_t)le32(b + 18), height = (int32_t)le32(b + 22);
    uint32_t bits = (uint32_t)b[28] | (uint32_t)b[29] << 8, compression = le32(b + 30);
    bool fields = compression == 3, runs = compression == 1 || compression == 2;
    if (compression > 3)
        return refuse(why, size, "a compressed BMP (method %u), which pagecurl does not read",
                      compression);
    bool known = compression == 0
                     ? bits == 1 || bits == 4 || bits == 8 || bits == 16 || bits == 24 || bits == 32
                 : runs ? bits == (compression == 1 ? 8u : 4u)
                        : bits == 16 || bits == 32;
    if (!known)
        return refuse(why, size,
                      "a BMP of %u bits a pixel (method %u), which pagecurl does not "
                      "read",
                      bits, compression);
    if (width < 1 || width > 32767 || height == 0 || height < -32767 || height > 32767)
        return refuse(why, size, "a BMP of %dx%d pixels (each side 1 to 32767)", width, height);
    /* what lies before the rows: the header and the masks a 40-byte header is followed by (a
     * palette cut short by the rows is read as far as it goes, and the rest is the default's) */
    uint64_t before = 14 + (uint64_t)header + (fields && header == 40 ? 12 : 0);
    *w = width, *h = height < 0 ? -height : height;
    uint64_t rows = ((uint64_t)width * bits + 31) / 32 * 4 * (uint64_t)*h;
    if (offset < before)
        return refuse(why, size,
                      "a BMP whose pixels would start at byte %u, inside its header (which ends at "
                      "byte %llu)",
                      offset, (unsigned long long)before);
    if (whole && offset > n)
        return refuse(why, size, "a BMP whose pixels would start at byte %u, past its end (%zu)",
                      offset, n);
    if (whole && !runs && rows > n - offset)
        return refuse(why, size, "a BMP cut short: its rows need %llu bytes from byte %u, of %zu",
                      (unsigned long long)rows, offset, n);
    if (whole && header == 124 && le32(b + 14 + 56) == 0x4d424544) { /* "MBED": a profile */
        uint64_t at = le32(b + 14 + 112), length = le32(b + 14 + 116);
        if (14 + at + length > n)
            return refuse(why, size, "a BMP whose colour profile lies outside it");
    }
    return true;
}

/* A screened BMP (bmp_screen) whose header holds colour masks (52 bytes or more) that its
 * compression does not use: uncompressed or run-length coded, its pixels are palette indices
 * (no masks) or 5-5-5 / 8-8-8 (the default masks), whatever the fields say. MuPDF 1.21 reads
 * them all the same and refuses a palette image with ImageMagick's 8-bit masks ("unsupported 8
 * bit red mask"), so they are written as meant into `*copy` (malloc'd; NULL where the file needs
 * no change). False out of memory. */
bool app_bmp_masks(const uint8_t *b, size_t n, uint8_t **copy)
{
    *copy = NULL;
    uint32_t header = le32(b + 14), bits = (uint32_t)b[28] | (uint32_t)b[29] << 8;
    if (header < 52 || le32(b + 30) == 3)
        return true;
    uint32_t masks[4] = {0, 0, 0, 0};
    if (bits == 16)
        masks[0] = 0x7c00, masks[1] = 0x03e0, masks[2] = 0x001f;
    else if (bits >= 24)
        masks[0] = 0xff0000, masks[1] = 0x00ff00, masks[2] = 0x0000ff;
    int count = header >= 56 ? 4 : 3;
    bool same = true;
    for (int k = 0; k < count; k++)
        same = same && le32(b + 54 + 4 * k) == masks[k];
    if (same)
        return true;
    if (!(*copy = malloc(n)))
        return false;
    memcpy(*copy, b, n);
    for (int k = 0; k < count; k++)
        for (int i = 0; i < 4; i++)
            (*copy)[54 + 4 * k + i] = (uint8_t)(masks[k] >> (8 * i));
    return true;
}

/* GIF codes are read from the frame's data blocks joined, least significant bit first. */
typedef struct GifBits {
    const uint8_t *b, *end; /* the file */
    const uint8_t *p;       /* the next data byte */
    size_t block;           /* bytes left in the block p lies in */
    uint32_t bits, avail;
} GifBits;

/* The next data byte of the frame, or -1 at its blocks' end (a zero-length block) or the file's. */
static int gif_byte(GifBits *g)
{
    while (g->block == 0) {
        if (g->p >= g->end || *g->p == 0)
            return -1;
        g->block = *g->p++;
        if ((size_t)(g->end - g->p) < g->block)
            return -1;
    }
    g->block--;
    return *g->p++;
}

static bool gif_code(GifBits *g, uint32_t width, uint32_t *code)
{
    while (g->avail < width) {
        int byte = gif_byte(g);
        if (byte < 0)
            return false;
        g->bits |= (uint32_t)byte << g->avail;
        g->avail += 8;
    }
    *code = g->bits & ((1u << width) - 1);
    g->bits >>= width;
    g->avail -= width;
    return true;
}

/* How many bytes MuPDF 1.21's LZW decoder (filter-lzw.c, as load-gif.c opens it) makes of a
 * frame's codes, from the strings' lengths alone; counting stops past `cap`. Its table's rules
 * are the decoder's: an entry a code, the code width growing as the table fills, no entry past
 * 4,096 (the codes go on, each expanding to up to 4,096 bytes: a file of a few hundred kilobytes
 * makes a gigabyte), a code past the table's end ends it (the decoder throws). */
static uint64_t gif_expanded(GifBits *g, unsigned min_code_size, uint64_t cap)
{
    enum { MAX_BITS = 12, CODES = 1 << MAX_BITS };
    uint16_t length[CODES];
    uint32_t min_bits = min_code_size + 1 > MAX_BITS ? MAX_BITS : min_code_size + 1;
    uint32_t clear = 1u << (min_bits - 1), eod = clear + 1;
    for (uint32_t i = 0; i < CODES; i++)
        length[i] = i < clear ? 1 : 0;
    uint32_t width = min_bits, next = clear + 2, code;
    int64_t old = -1;
    uint64_t out = 0;
    while (out <= cap && gif_code(g, width, &code) && code != eod) {
        if (code == clear) {
            width = min_bits, next = clear + 2, old = -1;
            continue;
        }
        if (old < 0) {
            old = code;
        } else if (code > next) {
            break;
        } else if (next < CODES) {
            length[next] = (uint16_t)(length[old] + 1);
            next++;
            if (next > (1u << width) - 1 && width < MAX_BITS)
                width++;
            old = code;
        }
        out += code >= clear ? length[code] : 1;
    }
    return out;
}

/* Past a run of data blocks: false where the file ends inside them. */
static bool gif_skip_blocks(const uint8_t **p, const uint8_t *end)
{
    for (;;) {
        if (*p >= end)
            return false;
        size_t len = *(*p)++;
        if (len == 0)
            return true;
        if ((size_t)(end - *p) < len)
            return false;
        *p += len;
    }
}

static uint32_t le16(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8;
}

bool app_gif_screen(const uint8_t *b, size_t n, char *why, size_t size)
{
    /* The blocks as load-gif.c walks them; where it would stop at something it does not read,
     * so does this (it refuses the file itself, at once). */
    if (n < 13)
        return true;
    const uint8_t *p = b + 13, *end = b + n;
    uint32_t width = le16(b + 6), height = le16(b + 8);
    bool gif89a = !memcmp(b, "GIF89a", 6);
    if (b[10] & 0x80)
        p += 3u << ((b[10] & 7) + 1);
    uint64_t work = 0;
    for (unsigned frame = 1; p < end && work <= APP_GIF_MAX_BYTES;) {
        if (*p == 0x3b)
            break;
        if (*p == 0x21) { /* an extension: graphic control, comment, plain text, application */
            if (end - p < 2 || !gif89a)
                break;
            uint8_t label = p[1];
            if (label == 0xf9) { /* its fixed block, whatever follows it */
                if (end - p < 8)
                    break;
                p += 8;
                continue;
            }
            size_t fixed = label == 0x01 ? 15 : label == 0xff ? 14 : label == 0xfe ? 2 : 0;
            if (!fixed || (size_t)(end - p) < fixed)
                break;
            p += fixed;
            if (!gif_skip_blocks(&p, end))
                break;
            continue;
        }
        if (*p != 0x2c || end - p < 11)
            break;
        /* an image: its place and size on the screen, a colour table of its own, its codes */
        uint32_t left = le16(p + 1), top = le16(p + 3), w = le16(p + 5), h = le16(p + 7);
        uint8_t flags = p[9];
        p += 10;
        if (flags & 0x80)
            p += 3u << ((flags & 7) + 1);
        if (p >= end)
            break;
        unsigned min_code_size = *p++;
        if (top >= height || left >= width) { /* off the screen: skipped, not decoded */
            if (!gif_skip_blocks(&p, end))
                break;
            continue;
        }
        GifBits g = {.b = b, .end = end, .p = p};
        uint64_t area = (uint64_t)w * h;
        uint64_t codes = gif_expanded(&g, min_code_size, APP_GIF_MAX_BYTES - work);
        work += area > codes ? area : codes;
        if (work > APP_GIF_MAX_BYTES) {
            return refuse(
                why, size,
                "a GIF whose frames take more than %u MB to decode (frame %u: %ux%u "
                "pixels, its data expanding to %s%llu bytes)",
                APP_GIF_MAX_BYTES >> 20, frame, w, h,
                codes > APP_GIF_MAX_BYTES - (work - (area > codes ? area : codes)) ? "over " : "",
                (unsigned long long)codes);
        }
        if (!gif_skip_blocks(&p, end))
            break;
        frame++;
    }
    return true;
}
