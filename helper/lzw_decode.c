/* SPDX-License-Identifier: MIT */
/* MuPDF's LZW decoder, replaced. MuPDF 1.21 (Debian 12's) keeps its string table across a clear
 * code and takes the code that starts the table anew as whatever entry it names, one left from
 * before the clear: its string is written whole, however long rounds of such codes have grown it,
 * past the decoder's buffer (upstream's bug 709560, fixed after 1.21). Every LZW stream MuPDF
 * reads comes through fz_open_lzwd: a GIF's frames, a TIFF's strips, and a PDF's LZWDecode
 * streams and inline images, which no check of a file's bytes reaches. This definition links
 * ahead of libmupdf.a's (book_source.c refers to it, so it is pulled from pagecurl_pages first),
 * and the archive's member, which defines nothing else, is never pulled: MuPDF's own callers get
 * this one.
 *
 * The table is the LZW of the GIF, TIFF and PDF specifications: a clear code empties it, the
 * first code after a clear must be a literal, each code after that adds the previous string and
 * this string's first byte, and a code past the table's end ends the stream (with a warning, as
 * a damaged stream does in MuPDF). The code width grows once the table's next entry needs it,
 * `early_change` codes early (PDF's EarlyChange, TIFF's new style); at 4,096 entries the table
 * stops growing and the codes go on (GIF's deferred clear). `reverse_bits`: codes start at a
 * byte's least significant bit (GIF, old-style TIFF). `old_tiff` is what MuPDF calls old-style
 * TIFF (early_change 0, least significant bit first), which the rules above read as it is. */
#include <mupdf/fitz.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { LZW_MAX_BITS = 12, LZW_CODES = 1 << LZW_MAX_BITS };

typedef struct LzwDecoder {
    fz_stream *chain;
    int early_change, reverse_bits;
    unsigned min_bits, clear, bits, next;
    int previous; /* the last code's entry; -1 right after a clear */
    bool ended;
    uint16_t prefix[LZW_CODES]; /* an entry's string: its prefix's, then its last byte */
    uint8_t last[LZW_CODES], first[LZW_CODES];
    uint16_t length[LZW_CODES];
    uint8_t string[LZW_CODES]; /* the code being written out, from `at` to `end` */
    unsigned at, end;
    uint8_t buffer[4096];
} LzwDecoder;

static void lzw_reset(LzwDecoder *d)
{
    d->bits = d->min_bits;
    d->next = d->clear + 2;
    d->previous = -1;
}

/* Entry `code`'s string into d->string (its length is at most the table's size: an entry is one
 * byte longer than an earlier one). */
static void lzw_unpack(LzwDecoder *d, unsigned code)
{
    unsigned n = d->length[code];
    for (unsigned k = n; k-- > 0;) {
        d->string[k] = d->last[code];
        code = d->prefix[code];
    }
    d->at = 0, d->end = n;
}

/* The next code's string into d->string; false at the stream's end. */
static bool lzw_step(fz_context *ctx, LzwDecoder *d)
{
    for (;;) {
        if (d->ended || fz_is_eof_bits(ctx, d->chain))
            return false;
        unsigned code = d->reverse_bits ? fz_read_rbits(ctx, d->chain, (int)d->bits)
                                        : fz_read_bits(ctx, d->chain, (int)d->bits);
        if (code == d->clear + 1) {
            d->ended = true;
            return false;
        }
        if (code == d->clear) {
            lzw_reset(d);
            continue;
        }
        if (d->previous < 0) {
            if (code >= d->clear) {
                fz_warn(ctx, "lzw: a code that is no literal starts the table");
                d->ended = true;
                return false;
            }
            d->previous = (int)code;
            lzw_unpack(d, code);
            return true;
        }
        if (code > d->next || (code == d->next && d->next == LZW_CODES)) {
            fz_warn(ctx, "lzw: a code past the table's end");
            d->ended = true;
            return false;
        }
        if (d->next < LZW_CODES) {
            /* the new entry: the previous string and this one's first byte (of the previous
             * string itself where the code is the entry being made) */
            unsigned p = (unsigned)d->previous;
            uint8_t head = code < d->next ? d->first[code] : d->first[p];
            d->prefix[d->next] = (uint16_t)p;
            d->last[d->next] = head;
            d->first[d->next] = d->first[p];
            d->length[d->next] = (uint16_t)(d->length[p] + 1);
            d->next++;
            if (d->next + (unsigned)d->early_change >= (1u << d->bits) && d->bits < LZW_MAX_BITS)
                d->bits++;
        }
        d->previous = (int)code;
        lzw_unpack(d, code);
        return true;
    }
}

static int lzw_next(fz_context *ctx, fz_stream *stm, size_t max)
{
    LzwDecoder *d = stm->state;
    size_t n = max < sizeof d->buffer ? max : sizeof d->buffer, k = 0;
    while (k < n) {
        if (d->at == d->end && !lzw_step(ctx, d))
            break;
        unsigned take = d->end - d->at;
        if (take > n - k)
            take = (unsigned)(n - k);
        memcpy(d->buffer + k, d->string + d->at, take);
        d->at += take, k += take;
    }
    stm->rp = d->buffer;
    stm->wp = d->buffer + k;
    if (!k)
        return EOF;
    stm->pos += (int64_t)k;
    return *stm->rp++;
}

static void lzw_drop(fz_context *ctx, void *state)
{
    LzwDecoder *d = state;
    fz_sync_bits(ctx, d->chain);
    fz_drop_stream(ctx, d->chain);
    fz_free(ctx, d);
}

fz_stream *fz_open_lzwd(fz_context *ctx, fz_stream *chain, int early_change, int min_bits,
                        int reverse_bits, int old_tiff)
{
    (void)old_tiff;
    if (min_bits < 2 || min_bits > LZW_MAX_BITS) {
        fz_warn(ctx, "lzw: codes of %d bits at least, read as %d", min_bits,
                min_bits < 2 ? 2 : LZW_MAX_BITS);
        min_bits = min_bits < 2 ? 2 : LZW_MAX_BITS;
    }
    LzwDecoder *d = fz_malloc_struct(ctx, LzwDecoder);
    d->early_change = early_change ? 1 : 0;
    d->reverse_bits = reverse_bits;
    d->min_bits = (unsigned)min_bits;
    d->clear = 1u << (min_bits - 1);
    for (unsigned i = 0; i < d->clear; i++) {
        d->last[i] = d->first[i] = (uint8_t)i;
        d->length[i] = 1;
    }
    lzw_reset(d);
    d->chain = fz_keep_stream(ctx, chain);
    return fz_new_stream(ctx, d, lzw_next, lzw_drop);
}
