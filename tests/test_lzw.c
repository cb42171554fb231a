/* SPDX-License-Identifier: MIT */
/* helper/lzw_decode.c, MuPDF's LZW decoder as pagecurl links it: what an encoder writes (PDF's
 * early change, GIF's codes from the least significant bit, a table cleared as it fills or left
 * full) decodes to its bytes; a stream whose table restarts on an entry left from before a clear
 * (MuPDF 1.21's own decoder wrote such an entry's string past its buffer) and one with a code past
 * the table end where they go wrong. No device. */
#include "check.h"

#include <mupdf/fitz.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static CheckState st;

typedef struct Bits {
    uint8_t *b;
    size_t n;
    uint32_t acc, fill;
    bool lsb_first;
} Bits;

static void put(Bits *o, uint32_t code, uint32_t width)
{
    if (o->lsb_first) {
        o->acc |= code << o->fill;
        o->fill += width;
        for (; o->fill >= 8; o->fill -= 8, o->acc >>= 8)
            o->b[o->n++] = (uint8_t)o->acc;
    } else {
        o->acc = o->acc << width | code;
        o->fill += width;
        for (; o->fill >= 8; o->fill -= 8)
            o->b[o->n++] = (uint8_t)(o->acc >> (o->fill - 8));
        o->acc &= (1u << o->fill) - 1;
    }
}

static void flush(Bits *o)
{
    if (o->fill)
        o->b[o->n++] = (uint8_t)(o->lsb_first ? o->acc : o->acc << (8 - o->fill));
}

/* LZW of `in` with 8-bit literals (codes of 9 bits at first): `clear_when_full` clears the table
 * as it fills, else it is left full (GIF's deferred clear). Into a malloc'd buffer. */
static uint8_t *encode(const uint8_t *in, size_t n, int early_change, bool lsb_first,
                       bool clear_when_full, size_t *out_n)
{
    enum { CLEAR = 256, END = 257, CODES = 4096 };
    uint16_t *child = calloc((size_t)CODES * 256, sizeof *child); /* (prefix, byte) -> code */
    Bits o = {.b = malloc(2 * n + 64), .lsb_first = lsb_first};
    uint32_t width = 9, next = END + 1;
    put(&o, CLEAR, width);
    int32_t w = -1;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = in[i];
        if (w >= 0 && child[(size_t)w * 256 + c]) {
            w = child[(size_t)w * 256 + c];
            continue;
        }
        if (w >= 0) {
            put(&o, (uint32_t)w, width);
            if (next < CODES) {
                child[(size_t)w * 256 + c] = (uint16_t)next++;
                /* the decoder adds this entry as it reads the next code: its width grows with
                 * the entry the next code makes */
                if (next + (uint32_t)early_change >= (1u << width) + 1 && width < 12)
                    width++;
            }
            if (clear_when_full && next >= CODES - 2) {
                put(&o, CLEAR, width);
                memset(child, 0, (size_t)CODES * 256 * sizeof *child);
                width = 9, next = END + 1;
            }
        }
        w = c;
    }
    if (w >= 0)
        put(&o, (uint32_t)w, width);
    put(&o, END, width);
    flush(&o);
    free(child);
    *out_n = o.n;
    return o.b;
}

/* `data` through fz_open_lzwd; malloc'd, `*n` bytes. */
static uint8_t *decode(fz_context *ctx, const uint8_t *data, size_t size, int early_change,
                       bool lsb_first, size_t *n)
{
    uint8_t *out = NULL;
    fz_stream *raw = NULL, *lzw = NULL;
    fz_buffer *buf = NULL;
    *n = 0;
    fz_var(raw);
    fz_var(lzw);
    fz_var(buf);
    fz_var(out);
    fz_try(ctx)
    {
        raw = fz_open_memory(ctx, data, size);
        lzw = fz_open_lzwd(ctx, raw, early_change, 9, lsb_first, lsb_first); /* as MuPDF opens it */
        buf = fz_read_all(ctx, lzw, 0);
        *n = buf->len;
        out = malloc(buf->len + 1);
        memcpy(out, buf->data, buf->len);
    }
    fz_always(ctx)
    {
        fz_drop_buffer(ctx, buf);
        fz_drop_stream(ctx, lzw);
        fz_drop_stream(ctx, raw);
    }
    fz_catch(ctx)
    {
        CHECK(&st, false, "decoding threw: %s", fz_caught_message(ctx));
    }
    return out;
}

static void round_trip(fz_context *ctx, const char *what, const uint8_t *in, size_t n)
{
    static const struct {
        int early;
        bool lsb, clear;
        const char *name;
    } kinds[] = {
        {1, false, true, "PDF/TIFF"}, {0, true, true, "GIF"}, {0, true, false, "GIF left full"}};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t coded, got;
        uint8_t *code = encode(in, n, kinds[k].early, kinds[k].lsb, kinds[k].clear, &coded);
        uint8_t *out = decode(ctx, code, coded, kinds[k].early, kinds[k].lsb, &got);
        CHECK(&st, out && got == n && !memcmp(out, in, n), "%s, %s: %zu bytes back of %zu", what,
              kinds[k].name, got, n);
        free(code);
        free(out);
    }
}

int main(void)
{
    fz_context *ctx = fz_new_context(NULL, NULL, FZ_STORE_UNLIMITED);
    CHECK(&st, ctx, "no MuPDF context");
    if (!ctx)
        return check_finish(&st, "lzw");
    fz_set_warning_callback(ctx, NULL, NULL);
    size_t n = 300000;
    uint8_t *in = malloc(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) /* noise over few values: long strings, the table fills often */
        in[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 29);
    round_trip(ctx, "noise of 8 values", in, n);
    for (size_t i = 0; i < n; i++) /* every byte value */
        in[i] = (uint8_t)((x = x * 1103515245u + 12345u) >> 24);
    round_trip(ctx, "noise of 256 values", in, n);
    memset(in, 'a', n); /* each code the entry being made: its strings grow one byte a code */
    round_trip(ctx, "one byte repeated", in, n);
    free(in);

    /* clear, A, B (the entry 258 = AB), clear, 258: an entry from before the clear */
    Bits o = {.b = calloc(64, 1)};
    const uint32_t stale[] = {256, 'A', 'B', 256, 258, 257};
    for (size_t i = 0; i < 6; i++)
        put(&o, stale[i], 9);
    flush(&o);
    size_t got;
    uint8_t *out = decode(ctx, o.b, o.n, 1, false, &got);
    CHECK(&st, out && got == 2 && !memcmp(out, "AB", 2),
          "a stale code after a clear: %zu bytes (AB, then the stream ends)", got);
    free(out);
    /* clear, A, 300: past the table's end (its next entry is 258) */
    o = (Bits){.b = o.b};
    memset(o.b, 0, 64);
    const uint32_t past[] = {256, 'A', 300, 'B', 257};
    for (size_t i = 0; i < 5; i++)
        put(&o, past[i], 9);
    flush(&o);
    out = decode(ctx, o.b, o.n, 1, false, &got);
    CHECK(&st, out && got == 1 && out[0] == 'A', "a code past the table: %zu bytes", got);
    free(out);
    free(o.b);
    fz_drop_context(ctx);
    return check_finish(&st, "lzw");
}
