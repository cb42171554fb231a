/* SPDX-License-Identifier: MIT */
/* helper/image_screen.c: the files programs write pass, the hostile ones each check stands for
 * are refused with their cause. Bytes only, no decoder, no device. */
#include "../helper/image_screen.h"
#include "check.h"
#include "gif_file.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char RED[3] = {200, 40, 40};

/* A frame at (l, t) of w x h, and what else it is (GifFrame's fields by name). */
#define FRAME(l, t, w_, h_, ...) ((GifFrame){.left = l, .top = t, .w = w_, .h = h_, __VA_ARGS__})

/* The GIF of `frames` over a w x h screen through the screen; `want` a phrase of the refusal
 * (NULL: it passes). */
static void check_gif(CheckState *s, const char *what, uint16_t w, uint16_t h,
                      const GifFrame *frames, int count, const char *want)
{
    size_t n;
    uint8_t *b = gif_file(w, h, RED, frames, count, &n);
    CHECK(s, b, "%s: out of memory", what);
    if (!b)
        return;
    char why[256] = "";
    bool ok = pages_gif_screen(b, n, why, sizeof why);
    if (want)
        CHECK(s, !ok && strstr(why, want), "%s: %s (%s), want refused for '%s'", what,
              ok ? "passed" : "refused", why, want);
    else
        CHECK(s, ok, "%s: refused: %s", what, why);
    free(b);
}

static void check_gifs(CheckState *s)
{
    /* what encoders write: a frame the screen's size, its codes clearing the table as it fills
     * (a 640 x 480 frame clears it 75 times); interlaced; frames over part of the screen */
    check_gif(s, "one frame", 64, 90, (const GifFrame[]){FRAME(0, 0, 64, 90)}, 1, NULL);
    check_gif(s, "640x480", 640, 480, (const GifFrame[]){FRAME(0, 0, 640, 480)}, 1, NULL);
    check_gif(s, "interlaced", 64, 90, (const GifFrame[]){FRAME(0, 0, 64, 90, .interlaced = true)},
              1, NULL);
    check_gif(s, "three frames", 64, 90,
              (const GifFrame[]){FRAME(0, 0, 64, 90), FRAME(10, 10, 20, 20), FRAME(60, 80, 4, 10)},
              3, NULL);
    check_gif(s, "data cut short", 64, 90, (const GifFrame[]){FRAME(0, 0, 64, 90, .cut = true)}, 1,
              NULL);
    /* a frame larger than the screen, its codes cut short: MuPDF 1.21 pads it to its size a
     * byte at a time (the fuzzer's 52-byte file: 63,777 x 32,772, 4 s, then its memory gone) */
    check_gif(s, "a huge frame", 4, 3, (const GifFrame[]){FRAME(0, 0, 63777, 32772, .cut = true)},
              1, "take more than 512 MB");
    /* off the screen: skipped, whatever its size */
    check_gif(s, "a huge frame off the screen", 4, 3,
              (const GifFrame[]){FRAME(4, 0, 63777, 32772, .cut = true)}, 1, NULL);
    /* frames of 64 MiB each: eight decode, nine are too many */
    GifFrame big[9];
    for (int i = 0; i < 9; i++)
        big[i] = FRAME(0, 0, 8192, 8192, .cut = true);
    check_gif(s, "eight 8192x8192 frames", 64, 90, big, 8, NULL);
    check_gif(s, "nine 8192x8192 frames", 64, 90, big, 9, "take more than 512 MB");
    /* codes that expand past the frame's pixels: the table filled with ever longer strings,
     * then its longest again and again (~3,800 bytes a code: 600 kB make a gigabyte) */
    check_gif(s, "a few long codes", 16, 16,
              (const GifFrame[]){FRAME(0, 0, 16, 16, .bomb_codes = 10)}, 1, NULL);
    check_gif(s, "an LZW bomb", 16, 16,
              (const GifFrame[]){FRAME(0, 0, 16, 16, .bomb_codes = 400000)}, 1,
              "expanding to over");
    /* the fuzzer's file itself */
    static const uint8_t fuzzed[] = {
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x04, 0x00, 0x03, 0x00, 0xf1, 0x00, 0x00,
        0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0x80, 0x00, 0x80, 0x00, 0x00, 0x00, 0x21,
        0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x21,
        0xf9, 0x04, 0x80, 0x00, 0x00, 0x00, 0x84, 0x21, 0x29, 0xc1, 0x51, 0x00, 0x3b};
    char why[256] = "";
    CHECK(s,
          !pages_gif_screen(fuzzed, sizeof fuzzed, why, sizeof why) && strstr(why, "63777x32772"),
          "the fuzzer's slow GIF: %s", why);
    /* cut anywhere, the file passes or is refused, and nothing is read past its end (ASan) */
    size_t n;
    uint8_t *b =
        gif_file(64, 90, RED, (const GifFrame[]){FRAME(0, 0, 64, 90), FRAME(1, 1, 8, 8)}, 2, &n);
    for (size_t k = 0; b && k <= n; k++) {
        uint8_t *cut = malloc(k ? k : 1);
        memcpy(cut, b, k);
        pages_gif_screen(cut, k, why, sizeof why);
        free(cut);
    }
    free(b);
}

/* A BMP header: 14 bytes of file header, a 40-byte info header, w x h at 24 bits, its rows
 * from `offset`. */
static void bmp_header(uint8_t b[54], int32_t w, int32_t h, uint32_t offset, uint32_t header)
{
    memset(b, 0, 54);
    b[0] = 'B', b[1] = 'M';
    const uint32_t words[] = {offset, header, (uint32_t)w, (uint32_t)h, 1u | 24u << 16};
    const int at[] = {10, 14, 18, 22, 26};
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 4; i++)
            b[at[k] + i] = (uint8_t)(words[k] >> (8 * i));
}

static void check_bmps(CheckState *s)
{
    uint8_t file[54 + 4 * 3 * 2] = {0}; /* 3 x 2 pixels: rows of 12 bytes (9 and padding) */
    char why[256] = "";
    int w = 0, h = 0;
    bmp_header(file, 3, 2, 54, 40);
    CHECK(s, pages_bmp_screen(file, sizeof file, true, &w, &h, why, sizeof why) && w == 3 && h == 2,
          "a 3x2 BMP: %s (%dx%d)", why, w, h);
    CHECK(s,
          !pages_bmp_screen(file, sizeof file - 1, true, &w, &h, why, sizeof why) &&
              strstr(why, "cut short"),
          "a BMP a byte short: %s", why);
    CHECK(s, pages_bmp_screen(file, 54, false, &w, &h, why, sizeof why), "a BMP's header alone: %s",
          why);
    bmp_header(file, 3, 2, 2600000, 40);
    CHECK(s,
          !pages_bmp_screen(file, sizeof file, true, &w, &h, why, sizeof why) &&
              strstr(why, "past its end"),
          "a BMP's pixels past its end: %s", why);
    bmp_header(file, 3, 2, 20, 40);
    CHECK(s,
          !pages_bmp_screen(file, sizeof file, true, &w, &h, why, sizeof why) &&
              strstr(why, "inside its header"),
          "a BMP's pixels in its header: %s", why);
    bmp_header(file, 3, 2, 54, 64);
    CHECK(s,
          !pages_bmp_screen(file, sizeof file, true, &w, &h, why, sizeof why) &&
              strstr(why, "64-byte header"),
          "an OS/2 2.x BMP: %s", why);
}

/* The screen a file's first bytes send it to: 1 passed, 0 refused (with `why`), -1 no screen. */
static int screen(const uint8_t *b, size_t n, char *why, size_t size)
{
    int w, h;
    if (n >= 4 && !memcmp(b, "GIF8", 4))
        return pages_gif_screen(b, n, why, size);
    if (n >= 4 && (!memcmp(b, "II*\0", 4) || !memcmp(b, "MM\0*", 4)))
        return pages_tiff_screen(b, n < 65536 ? n : 65536, false, why, size) &&
               pages_tiff_screen(b, n, true, why, size);
    if (n >= 2 && b[0] == 'P')
        return pages_pnm_screen(b, n, why, size);
    if (n >= 8 && !memcmp(b, "\x89PNG", 4)) {
        snprintf(why, size, "its IHDR");
        return pages_png_size(b, n, &w, &h) <= 0;
    }
    if (n >= 2 && b[0] == 'B' && b[1] == 'M')
        return pages_bmp_screen(b, n, true, &w, &h, why, size);
    return -1;
}

/* The fuzzer's seeds (tests/fuzz/page): files that crashed, hung or exhausted MuPDF 1.21 (each
 * confirmed under ASan over its 1.21.1 sources) are named refused-*, the rest are images that
 * programs write (ImageMagick's TIFFs: LZW, G4, palette, YCbCr in JPEG...), which pass. */
static void check_seeds(CheckState *s, const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(s, d, "cannot open %s", dir);
    if (!d)
        return;
    int files = 0, refused = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *b = malloc(1 << 20);
        size_t n = b ? fread(b, 1, 1 << 20, f) : 0;
        fclose(f);
        char why[256] = "";
        int passed = b ? screen(b, n, why, sizeof why) : -1;
        free(b);
        if (passed < 0)
            continue;
        bool want = strncmp(e->d_name, "refused-", 8) != 0;
        CHECK(s, passed == want, "%s: %s (%s)", e->d_name, passed ? "passed" : "refused", why);
        files++;
        refused += !want;
    }
    closedir(d);
    CHECK(s, files >= 30 && refused >= 15, "%d seeds screened, %d of them to refuse", files,
          refused);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    check_gifs(&s);
    check_bmps(&s);
    CHECK(&s, argc == 2, "usage: test_image_screen SEEDS_FOLDER");
    if (argc == 2)
        check_seeds(&s, argv[1]);
    return check_finish(&s, "image_screen");
}
