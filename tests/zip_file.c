/* SPDX-License-Identifier: MIT */
#include "zip_file.h"

#include <stdlib.h>
#include <string.h>

static void put16(FILE *f, unsigned v)
{
    fputc((int)(v & 0xff), f);
    fputc((int)((v >> 8) & 0xff), f);
}

static void put32(FILE *f, uint32_t v)
{
    put16(f, v & 0xffffu);
    put16(f, v >> 16);
}

static uint32_t crc32_of(const unsigned char *b, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = c & 1u ? (c >> 1) ^ 0xedb88320u : c >> 1;
    }
    return ~c;
}

bool zip_file_open(ZipFile *zip, const char *path)
{
    memset(zip, 0, sizeof *zip);
    zip->f = fopen(path, "wb");
    return zip->f != NULL;
}

/* The entry's local header; its index, or -1 where no more fit. */
static int begin(ZipFile *zip, const char *name, uint16_t method, uint32_t crc, uint32_t packed,
                 uint32_t size)
{
    if (!zip->f || zip->count == ZIP_FILE_ENTRIES || strlen(name) >= sizeof zip->entry[0].name) {
        zip->failed = true;
        return -1;
    }
    int i = zip->count++;
    snprintf(zip->entry[i].name, sizeof zip->entry[i].name, "%s", name);
    zip->entry[i].method = method, zip->entry[i].crc = crc;
    zip->entry[i].packed = packed, zip->entry[i].size = size;
    zip->entry[i].at = (uint32_t)ftell(zip->f);
    FILE *f = zip->f;
    put32(f, 0x04034b50u);
    put16(f, 20), put16(f, 0), put16(f, method), put16(f, 0), put16(f, 0x21);
    put32(f, crc), put32(f, packed), put32(f, size);
    put16(f, (unsigned)strlen(name)), put16(f, 0);
    fwrite(name, 1, strlen(name), f);
    return i;
}

void zip_file_add(ZipFile *zip, const char *name, const void *bytes, size_t n)
{
    if (begin(zip, name, 0, crc32_of(bytes, n), (uint32_t)n, (uint32_t)n) >= 0 &&
        fwrite(bytes, 1, n, zip->f) != n)
        zip->failed = true;
}

void zip_file_text(ZipFile *zip, const char *name, const char *text)
{
    zip_file_add(zip, name, text, strlen(text));
}

void zip_file_copy(ZipFile *zip, const char *name, const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n)
        zip_file_add(zip, name, b, (size_t)n);
    else
        zip->failed = true;
    free(b);
    if (f)
        fclose(f);
}

/* Deflate's bits, least significant first (RFC 1951). */
typedef struct Bits {
    unsigned char *out;
    size_t n;
    uint32_t acc;
    int used;
} Bits;

static void bits(Bits *b, uint32_t v, int count)
{
    for (int i = 0; i < count; i++) {
        b->acc |= ((v >> i) & 1u) << b->used;
        if (++b->used == 8)
            b->out[b->n++] = (unsigned char)b->acc, b->acc = 0, b->used = 0;
    }
}

/* A Huffman code, most significant bit first. */
static void code(Bits *b, uint32_t v, int count)
{
    for (int i = count - 1; i >= 0; i--)
        bits(b, (v >> i) & 1u, 1);
}

void zip_file_zeros(ZipFile *zip, const char *name, size_t n)
{
    /* one block of fixed codes: a literal 0, then copies of 258 bytes from 1 back (13 bits
     * each), the rest literals */
    Bits b = {malloc(n / 258 * 2 + 300), 0, 0, 0};
    if (!b.out || !n) {
        zip->failed = true;
        free(b.out);
        return;
    }
    bits(&b, 1, 1), bits(&b, 1, 2);
    code(&b, 0x30, 8);
    size_t left = n - 1;
    for (; left >= 258; left -= 258)
        code(&b, 0xc5, 8), code(&b, 0, 5); /* length code 285, distance code 0 */
    for (; left; left--)
        code(&b, 0x30, 8);
    code(&b, 0, 7); /* the block's end */
    if (b.used)
        b.out[b.n++] = (unsigned char)b.acc;
    if (begin(zip, name, 8, 0, (uint32_t)b.n, (uint32_t)n) >= 0 &&
        fwrite(b.out, 1, b.n, zip->f) != b.n)
        zip->failed = true;
    free(b.out);
}

bool zip_file_close(ZipFile *zip)
{
    if (!zip->f)
        return false;
    FILE *f = zip->f;
    uint32_t at = (uint32_t)ftell(f);
    for (int i = 0; i < zip->count; i++) {
        put32(f, 0x02014b50u);
        put16(f, 20), put16(f, 20), put16(f, 0), put16(f, zip->entry[i].method);
        put16(f, 0), put16(f, 0x21);
        put32(f, zip->entry[i].crc), put32(f, zip->entry[i].packed), put32(f, zip->entry[i].size);
        put16(f, (unsigned)strlen(zip->entry[i].name)), put16(f, 0), put16(f, 0);
        put16(f, 0), put16(f, 0), put32(f, 0), put32(f, zip->entry[i].at);
        fwrite(zip->entry[i].name, 1, strlen(zip->entry[i].name), f);
    }
    uint32_t size = (uint32_t)ftell(f) - at;
    put32(f, 0x06054b50u);
    put16(f, 0), put16(f, 0), put16(f, (unsigned)zip->count), put16(f, (unsigned)zip->count);
    put32(f, size), put32(f, at), put16(f, 0);
    bool ok = !zip->failed && !ferror(f);
    ok = fclose(f) == 0 && ok;
    zip->f = NULL;
    return ok;
}
