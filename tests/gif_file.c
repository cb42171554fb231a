/* SPDX-License-Identifier: MIT */
#include "gif_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Out {
    uint8_t *b;
    size_t n, cap;
    bool failed;
} Out;

static void put(Out *o, const void *bytes, size_t n)
{
    if (o->failed)
        return;
    if (o->n + n > o->cap) {
        size_t cap = (o->n + n) * 2;
        uint8_t *b = realloc(o->b, cap);
        if (!b) {
            o->failed = true;
            return;
        }
        o->b = b, o->cap = cap;
    }
    memcpy(o->b + o->n, bytes, n);
    o->n += n;
}

static void put16(Out *o, uint16_t v)
{
    put(o, (const uint8_t[]){(uint8_t)v, (uint8_t)(v >> 8)}, 2);
}

/* Codes packed least significant bit first into data blocks of up to 255 bytes. */
typedef struct Codes {
    Out *o;
    uint8_t block[255];
    size_t fill;
    uint32_t bits, avail;
} Codes;

static void flush_byte(Codes *c, uint8_t byte)
{
    c->block[c->fill++] = byte;
    if (c->fill == sizeof c->block) {
        put(c->o, (const uint8_t[]){(uint8_t)c->fill}, 1);
        put(c->o, c->block, c->fill);
        c->fill = 0;
    }
}

static void code(Codes *c, uint32_t value, uint32_t width)
{
    c->bits |= value << c->avail;
    c->avail += width;
    while (c->avail >= 8) {
        flush_byte(c, (uint8_t)c->bits);
        c->bits >>= 8;
        c->avail -= 8;
    }
}

static void end_codes(Codes *c)
{
    if (c->avail)
        flush_byte(c, (uint8_t)c->bits);
    if (c->fill) {
        put(c->o, (const uint8_t[]){(uint8_t)c->fill}, 1);
        put(c->o, c->block, c->fill);
    }
    put(c->o, (const uint8_t[]){0}, 1);
}

/* The decoder's table as each code read grows it: an entry a code after the first since a
 * clear, the width one more bit once the next entry needs it. */
typedef struct Table {
    uint32_t width, next;
    bool first;
} Table;

static void emit(Codes *c, Table *t, uint32_t value)
{
    code(c, value, t->width);
    if (t->first) {
        t->first = false;
        return;
    }
    if (t->next < 4096) {
        t->next++;
        if (t->next > (1u << t->width) - 1 && t->width < 12)
            t->width++;
    }
}

static void frame_codes(Out *o, const GifFrame *f)
{
    enum { MIN_CODE_SIZE = 2, CLEAR = 1 << MIN_CODE_SIZE, END = CLEAR + 1 };
    put(o, (const uint8_t[]){MIN_CODE_SIZE}, 1);
    Codes c = {.o = o};
    Table t = {MIN_CODE_SIZE + 1, CLEAR + 2, true};
    code(&c, CLEAR, t.width);
    uint64_t pixels = f->cut ? f->w : (uint64_t)f->w * f->h;
    if (f->bomb_codes) {
        /* each code the entry just made (its string one longer than the last) */
        emit(&c, &t, 0);
        while (t.next < 4096)
            emit(&c, &t, t.next);
        for (size_t i = 0; i < f->bomb_codes; i++)
            emit(&c, &t, 4095);
    } else {
        /* every pixel a code of its own (index 0), a clear before the table fills */
        for (uint64_t i = 0; i < pixels; i++) {
            if (t.next >= 4094) {
                code(&c, CLEAR, t.width);
                t = (Table){MIN_CODE_SIZE + 1, CLEAR + 2, true};
            }
            emit(&c, &t, 0);
        }
    }
    code(&c, END, t.width);
    end_codes(&c);
}

uint8_t *gif_file(uint16_t w, uint16_t h, const unsigned char rgb[3], const GifFrame *frames,
                  int count, size_t *n)
{
    Out o = {0};
    put(&o, "GIF89a", 6);
    put16(&o, w);
    put16(&o, h);
    put(&o, (const uint8_t[]){0x81, 0, 0}, 3); /* a global table of 4 colours */
    put(&o, rgb, 3);
    put(&o, (const uint8_t[]){0, 0, 0, 255, 255, 255, 128, 128, 128}, 9);
    for (int i = 0; i < count; i++) {
        const GifFrame *f = &frames[i];
        put(&o, (const uint8_t[]){0x2c}, 1);
        put16(&o, f->left);
        put16(&o, f->top);
        put16(&o, f->w);
        put16(&o, f->h);
        put(&o, (const uint8_t[]){f->interlaced ? 0x40 : 0}, 1);
        frame_codes(&o, f);
    }
    put(&o, (const uint8_t[]){0x3b}, 1);
    if (o.failed) {
        free(o.b);
        return NULL;
    }
    *n = o.n;
    return o.b;
}

bool gif_file_write(const char *path, uint16_t w, uint16_t h, const unsigned char rgb[3],
                    const GifFrame *frames, int count)
{
    size_t n;
    uint8_t *b = gif_file(w, h, rgb, frames, count, &n);
    FILE *f = b ? fopen(path, "wb") : NULL;
    bool ok = f && fwrite(b, 1, n, f) == n;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(b);
    return ok;
}
