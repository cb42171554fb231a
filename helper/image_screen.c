/* SPDX-License-Identifier: MIT */
/* Each check mirrors what the MuPDF 1.21 reader it guards does with the same bytes: where that
 * reader would stop at once (a block it does not know), the check lets the file through to be
 * refused there. */
#include "image_screen.h"

#include <limits.h>
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
bool pages_bmp_screen(const uint8_t *b, size_t n, bool whole, int *w, int *h, char *why,
                      size_t size)
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
bool pages_bmp_masks(const uint8_t *b, size_t n, uint8_t **copy)
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

/* A GIF frame's codes: its data blocks joined, each code from a byte's least significant bit. */
typedef struct GifCodes {
    const uint8_t *p, *end;
    size_t block; /* bytes left in the block p lies in (up to 255, each after its length) */
    uint32_t bits, avail;
} GifCodes;

static bool gif_code(GifCodes *s, uint32_t width, uint32_t *code)
{
    while (s->avail < width) {
        while (s->block == 0) {
            if (s->p >= s->end || *s->p == 0)
                return false;
            s->block = *s->p++;
            if ((size_t)(s->end - s->p) < s->block)
                return false;
        }
        s->block--;
        s->bits |= (uint32_t)*s->p++ << s->avail;
        s->avail += 8;
    }
    *code = s->bits & ((1u << width) - 1);
    s->bits >>= width;
    s->avail -= width;
    return true;
}

/* How many bytes a frame's codes expand to, from the strings' lengths alone, as the LZW decoder
 * pagecurl links (helper/lzw_decode.c) reads them (counting stops past `cap`): an entry a code,
 * the width growing as the table fills, no entry past 4,096 while the codes go on, each up to
 * 4,096 bytes long (a file of a few hundred kilobytes makes a gigabyte, all of which MuPDF 1.21's
 * GIF reader keeps); a table started on no literal, or a code past its end, ends the stream. */
static uint64_t gif_expanded(GifCodes *s, uint32_t min_bits, uint64_t cap)
{
    enum { MAX_BITS = 12, CODES = 1 << MAX_BITS };
    uint16_t length[CODES];
    uint32_t clear = 1u << (min_bits - 1), eod = clear + 1;
    for (uint32_t i = 0; i < CODES; i++)
        length[i] = i < clear ? 1 : 0;
    uint32_t width = min_bits, next = clear + 2, code;
    int64_t old = -1;
    uint64_t out = 0;
    while (out <= cap && gif_code(s, width, &code) && code != eod) {
        if (code == clear) {
            width = min_bits, next = clear + 2, old = -1;
            continue;
        }
        if (old < 0 ? code >= clear : code > next || (code == next && next == CODES))
            break;
        if (old >= 0 && next < CODES) {
            length[next] = (uint16_t)(length[old] + 1);
            next++;
            if (next >= (1u << width) && width < MAX_BITS)
                width++;
        }
        old = code;
        out += length[code];
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

bool pages_gif_screen(const uint8_t *b, size_t n, char *why, size_t size)
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
    for (unsigned frame = 1; p < end && work <= PAGES_GIF_MAX_BYTES;) {
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
        uint64_t area = (uint64_t)w * h, codes;
        if (work + area > PAGES_GIF_MAX_BYTES)
            return refuse(why, size,
                          "a GIF whose frames take more than %u MB to decode (frame %u: %ux%u "
                          "pixels)",
                          PAGES_GIF_MAX_BYTES >> 20, frame, w, h);
        if (min_code_size < 1 || min_code_size > 11)
            return refuse(why, size, "a GIF whose frame %u has a minimum code size of %u (1 to 11)",
                          frame, min_code_size);
        GifCodes in = {.p = p, .end = end};
        codes = gif_expanded(&in, min_code_size + 1, PAGES_GIF_MAX_BYTES - work);
        work += area > codes ? area : codes;
        if (work > PAGES_GIF_MAX_BYTES) /* counted up to the limit: at least this much */
            return refuse(why, size,
                          "a GIF whose frames take more than %u MB to decode (frame %u: %ux%u "
                          "pixels, its data expanding to over %llu bytes)",
                          PAGES_GIF_MAX_BYTES >> 20, frame, w, h, (unsigned long long)codes - 1);
        if (!gif_skip_blocks(&p, end))
            break;
        frame++;
    }
    return true;
}

int pages_png_size(const uint8_t *b, size_t n, int *w, int *h)
{
    if (n < 24 || memcmp(b + 12, "IHDR", 4))
        return -1;
    uint32_t bw = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
    uint32_t bh = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
    if (bw == 0 || bh == 0 || bw > INT_MAX || bh > INT_MAX)
        return 1;
    *w = (int)bw, *h = (int)bh;
    return 0;
}

/* --- TIFF: the first directory, read as load-tiff.c reads it -------------------------------- */

enum {
    TIFF_BYTE = 1,
    TIFF_SHORT = 3,
    TIFF_LONG = 4,
    TIFF_RATIONAL = 5,
};

/* A tag whose values are a list (strips, tiles, a colour map, a profile): how many. */
typedef struct TiffList {
    bool present;
    uint32_t count;
} TiffList;

typedef struct Tiff {
    const uint8_t *b;
    size_t n, rp; /* the read position, as load-tiff.c's: reads past the end give EOF */
    bool le;
    uint32_t width, length, bps, compression, photometric, spp, extra_samples, tile_width,
        tile_length;
    TiffList strip_offsets, strip_counts, tile_offsets, tile_counts, colour_map, profile;
} Tiff;

/* EOF past the end, as an unsigned, as load-tiff.c's reads take it. */
static uint32_t tiff_byte(Tiff *t)
{
    return t->rp < t->n ? t->b[t->rp++] : 0xffffffffu;
}

static uint32_t tiff_short(Tiff *t)
{
    uint32_t a = tiff_byte(t), b = tiff_byte(t);
    return t->le ? b << 8 | a : a << 8 | b;
}

static uint32_t tiff_long(Tiff *t)
{
    uint32_t a = tiff_byte(t), b = tiff_byte(t), c = tiff_byte(t), d = tiff_byte(t);
    return t->le ? d << 24 | c << 16 | b << 8 | a : a << 24 | b << 16 | c << 8 | d;
}

/* Value `i` of a tag of `type` whose values start at `at` (tiff_read_tag_value). */
static uint32_t tiff_value(Tiff *t, uint32_t type, uint32_t at, uint32_t i)
{
    size_t sizes[] = {[TIFF_BYTE] = 1, [TIFF_SHORT] = 2, [TIFF_LONG] = 4, [TIFF_RATIONAL] = 8};
    size_t sz = type < sizeof sizes / sizeof *sizes ? sizes[type] : 0;
    if (!sz)
        return 0;
    t->rp = (at < t->n ? at : t->n) + (size_t)i * sz;
    if (type == TIFF_BYTE)
        return tiff_byte(t);
    if (type == TIFF_SHORT)
        return tiff_short(t);
    uint32_t v = tiff_long(t);
    if (type == TIFF_RATIONAL) {
        uint32_t den = tiff_long(t);
        v = den ? v / den : 0xffffffffu;
    }
    return v;
}

/* The first directory's tags; false where load-tiff.c would throw before reading them (it is
 * refused there, at once). */
static bool tiff_read(Tiff *t)
{
    t->le = t->b[0] == 'I';
    t->rp = 4;
    uint32_t offset = tiff_long(t);
    if (offset > t->n)
        return false;
    t->rp = offset;
    uint32_t count = tiff_short(t);
    if ((uint64_t)count * 12 > t->n - (t->rp < t->n ? t->rp : t->n))
        return false;
    *t = (Tiff){
        .b = t->b,
        .n = t->n,
        .le = t->le,
        .bps = 1,
        .compression = 1,
        .spp = 1,
    };
    for (uint32_t k = 0; k < count; k++) {
        size_t entry = (size_t)offset + 2 + 12 * (size_t)k;
        t->rp = entry;
        uint32_t tag = tiff_short(t), type = tiff_short(t), n = tiff_long(t);
        uint32_t at = (type == TIFF_BYTE && n <= 4) || (type == TIFF_SHORT && n <= 2) ||
                              (type == TIFF_LONG && n <= 1)
                          ? (uint32_t)(entry + 8)
                          : tiff_long(t);
        uint32_t *scalar = tag == 256   ? &t->width
                           : tag == 257 ? &t->length
                           : tag == 258 ? &t->bps
                           : tag == 259 ? &t->compression
                           : tag == 262 ? &t->photometric
                           : tag == 277 ? &t->spp
                           : tag == 322 ? &t->tile_width
                           : tag == 323 ? &t->tile_length
                           : tag == 338 ? &t->extra_samples
                                        : NULL;
        TiffList *list = tag == 273     ? &t->strip_offsets
                         : tag == 279   ? &t->strip_counts
                         : tag == 320   ? &t->colour_map
                         : tag == 324   ? &t->tile_offsets
                         : tag == 325   ? &t->tile_counts
                         : tag == 34675 ? &t->profile
                                        : NULL;
        if (scalar)
            *scalar = tiff_value(t, type, at, 0);
        if (list) {
            if (list->present)
                return false; /* "at most one ... tag allowed" */
            *list = (TiffList){true, n};
        }
    }
    return true;
}

bool pages_tiff_screen(const uint8_t *b, size_t n, bool whole, char *why, size_t size)
{
    if (n < 8)
        return true;
    Tiff t = {.b = b, .n = n};
    if (!tiff_read(&t))
        return true;
    /* lists are read whole into memory before anything is checked (a count of 0x20000000 is two
     * gigabytes): no longer than the file, or at open (its first bytes) PAGES_TIFF_MAX_LIST */
    const TiffList *lists[] = {&t.strip_offsets, &t.strip_counts, &t.colour_map,
                               &t.tile_offsets,  &t.tile_counts,  &t.profile};
    const uint32_t tags[] = {273, 279, 320, 324, 325, 34675};
    for (int k = 0; k < 6; k++)
        if (lists[k]->count > (whole ? n : PAGES_TIFF_MAX_LIST))
            return refuse(why, size, "a TIFF whose tag %u holds %u values, more than %s", tags[k],
                          lists[k]->count, whole ? "its bytes" : "a TIFF needs");
    if (!whole)
        return true;
    /* a row's and a tile's bytes in 32 bits (upstream's bugs 706071 and 709331) */
    uint64_t row_bits = (uint64_t)t.width * t.spp * t.bps;
    uint64_t tile_bytes =
        (uint64_t)t.tile_length * (((uint64_t)t.tile_width * t.spp * t.bps + 7) / 8);
    if (row_bits >= 1ull << 31 || tile_bytes >= 1ull << 31)
        return refuse(why, size, "a TIFF whose %s holds more than 2^31 %s",
                      row_bits >= 1ull << 31 ? "row" : "tile",
                      row_bits >= 1ull << 31 ? "bits" : "bytes");
    uint32_t ph = t.photometric, ex = t.extra_samples;
    if (ex > 2)
        return refuse(why, size, "a TIFF whose ExtraSamples is %u (0, 1 or 2)", ex);
    /* a palette's samples: one index, and an alpha that is associated (upstream's 210eb44,
     * 8c20808: an unassociated one is read past the samples) */
    if (ph == 3 && !((t.spp == 1 && ex == 0) || (t.spp == 2 && ex == 1)))
        return refuse(why, size,
                      "a palette TIFF of %u samples a pixel, ExtraSamples %u, which pagecurl does "
                      "not read (it reads a palette index alone or with associated alpha)",
                      t.spp, ex);
    /* a transparency mask is alpha alone, which the conversion to RGB reads as grey */
    if (ph == 4)
        return refuse(why, size,
                      "a TIFF transparency mask (photometric 4), which pagecurl does "
                      "not read");
    /* L*a*b* with alpha: the conversion reads a byte past each pixel */
    if ((ph == 8 || ph == 9) && (t.spp > 3 || ex))
        return refuse(why, size,
                      "a TIFF in L*a*b* with %u samples a pixel, which pagecurl does "
                      "not read",
                      t.spp);
    /* SGI LogL/LogLuv: 16 bits a sample (upstream's 709388: at 8 the rows are halved) */
    if ((ph == 32844 || ph == 32845) && t.bps != 16)
        return refuse(why, size, "an SGI Log TIFF of %u bits a sample (16)", t.bps);
    /* YCbCr tiles subsampled other than by JPEG (upstream's 708711) */
    if (ph == 6 && t.tile_width && t.tile_length && t.compression != 6 && t.compression != 7)
        return refuse(why, size,
                      "a tiled YCbCr TIFF compressed by method %u, which pagecurl does "
                      "not read (it reads JPEG's)",
                      t.compression);
    return true;
}

/* --- PNM ----------------------------------------------------------------------------------- */

/* Past white space and comments, then a decimal number; false where there is none. */
static bool pnm_number(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    for (;;) {
        while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n'))
            (*p)++;
        if (*p < end && **p == '#') {
            while (*p < end && **p != '\n' && **p != '\r')
                (*p)++;
            continue;
        }
        break;
    }
    if (*p >= end || **p < '0' || **p > '9')
        return false;
    *v = 0;
    while (*p < end && **p >= '0' && **p <= '9') {
        *v = *v * 10 + (uint64_t)(**p - '0');
        if (*v > 1u << 30)
            return false;
        (*p)++;
    }
    return true;
}

bool pages_pnm_screen(const uint8_t *b, size_t n, char *why, size_t size)
{
    /* load-pnm.c checks a binary grey or colour image of one bit a sample (a maximum value of 1)
     * for its packed size, an eighth of what it then reads: its samples, a byte each, must be
     * there (upstream's 708712) */
    if (n < 3 || (b[1] != '5' && b[1] != '6'))
        return true;
    const uint8_t *p = b + 2, *end = b + n;
    uint64_t w, h, max;
    if (!pnm_number(&p, end, &w) || !pnm_number(&p, end, &h) || !pnm_number(&p, end, &max) ||
        max != 1 || p >= end)
        return true; /* load-pnm.c refuses it, or reads it rightly */
    p++;             /* the one white space before the samples */
    uint64_t samples = w * h * (b[1] == '6' ? 3 : 1);
    if (samples > (uint64_t)(end - p))
        return refuse(why, size,
                      "a PNM of one bit a sample cut short: its %llu samples need as "
                      "many bytes, of %zu",
                      (unsigned long long)samples, (size_t)(end - p));
    return true;
}
