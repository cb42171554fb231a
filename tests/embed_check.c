/* SPDX-License-Identifier: MIT */
/* The embed test's image work (tests/embed.sh):
 *
 *   embed_check book DIR PAGES
 *       writes a book of PAGES photo pages into the folder DIR (page-01.png, ...);
 *   embed_check frame HOST.png PROGRAM.png MARGIN BORDER BACKGROUND FRAME
 *       checks the example host's picture: PROGRAM.png's size plus MARGIN pixels on every side;
 *       inside the margin (the viewport) PROGRAM.png byte for byte; the BORDER pixels around the
 *       viewport the colour FRAME and the rest BACKGROUND (RRGGBB, opaque);
 *   embed_check kept HOST.png PROGRAM.png MARGIN BORDER BACKGROUND FRAME
 *       the same for a book drawn straight into the host's scene over its background
 *       (--straight): in the viewport, BACKGROUND exactly where PROGRAM.png shows its backdrop
 *       (its top left pixel's colour), elsewhere PROGRAM.png's paper within 4 levels (a frame
 *       drawn without the still pages' cache), or darker where the paper's edges blend over
 *       the darker background, on under 2 % of the paper.
 *
 * Exit status 0 when everything holds, 1 otherwise (each difference said in one line). */
#include "check.h"
#include "image.h"
#include "../tools/photo.h"

#include <stb_image_write.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int make_book(const char *dir, int pages)
{
    enum { W = 300, H = 420 }; /* small, but with detail in every texel */
    unsigned char *rgb = malloc((size_t)W * H * 3);
    if (!rgb)
        return 1;
    int status = 0;
    for (int p = 1; p <= pages && !status; p++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/page-%02d.png", dir, p);
        photo_draw((unsigned)p, W, H, rgb, W * 3);
        if (!stbi_write_png(path, W, H, 3, rgb, W * 3)) {
            fprintf(stderr, "embed_check: %s could not be written\n", path);
            status = 1;
        }
    }
    free(rgb);
    return status;
}

static bool colour(const char *hex, uint8_t out[4])
{
    unsigned v;
    char end;
    if (strlen(hex) != 6 || sscanf(hex, "%6x%c", &v, &end) != 1)
        return false;
    out[0] = (uint8_t)(v >> 16), out[1] = (uint8_t)(v >> 8), out[2] = (uint8_t)v, out[3] = 255;
    return true;
}

/* Whether the host's viewport pixel `a` is what a book drawn over `background` makes of the
 * program's pixel `b` (its backdrop `backdrop`); `*edge` counts the paper's blended edges. */
static bool kept_pixel(const uint8_t *a, const uint8_t *b, const uint8_t *backdrop,
                       const uint8_t *background, long *edge)
{
    if (!memcmp(b, backdrop, 3))
        return !memcmp(a, background, 4);
    bool near = true, darker = true;
    for (int c = 0; c < 3; c++) {
        near &= abs(a[c] - b[c]) <= 4;
        darker &= a[c] <= b[c] + 4;
    }
    *edge += !near;
    return darker;
}

static int check_frame(char **argv, bool kept)
{
    CheckState s = {0};
    Image host = image_load(argv[0]), program = image_load(argv[1]);
    int margin = atoi(argv[2]), border = atoi(argv[3]);
    uint8_t background[4], frame[4];
    if (!host.rgba || !program.rgba || margin <= border || border <= 0 ||
        !colour(argv[4], background) || !colour(argv[5], frame)) {
        fprintf(stderr, "embed_check: unreadable image or bad arguments\n");
        return 1;
    }
    CHECK(&s, host.w == program.w + 2 * margin && host.h == program.h + 2 * margin,
          "%s is %dx%d, not %dx%d with a %d-pixel margin", argv[0], host.w, host.h, program.w,
          program.h, margin);
    if (s.failures)
        return check_finish(&s, "embed_check");
    /* the viewport: the program's frame exactly, or kept over the host's background */
    long differ = 0, first = -1, edge = 0, paper = 0;
    int most = 0;
    const uint8_t *backdrop = program.rgba;
    for (int y = 0; y < program.h; y++) {
        for (int x = 0; x < program.w; x++) {
            const uint8_t *a = &host.rgba[4 * ((size_t)(y + margin) * host.w + x + margin)];
            const uint8_t *b = &program.rgba[4 * ((size_t)y * program.w + x)];
            paper += memcmp(b, backdrop, 3) != 0;
            if (kept ? kept_pixel(a, b, backdrop, background, &edge) : !memcmp(a, b, 4))
                continue;
            if (first < 0)
                first = (long)y * program.w + x;
            differ++;
            for (int c = 0; c < 4; c++)
                most = abs(a[c] - b[c]) > most ? abs(a[c] - b[c]) : most;
        }
    }
    CHECK(&s, differ == 0,
          "the viewport differs from %s in %ld of %d pixels (at most %d levels), the first at "
          "%ld,%ld",
          argv[1], differ, program.w * program.h, most, first % program.w, first / program.w);
    CHECK(&s, !kept || (paper > 0 && edge * 50 < paper),
          "kept: %ld of %ld paper pixels blended over the background", edge, paper);
    /* the host's scene around it: every pixel of the frame and of the background */
    long wrong = 0;
    for (int y = 0; y < host.h; y++) {
        for (int x = 0; x < host.w; x++) {
            int dx = x < margin ? margin - x : x - (host.w - margin - 1);
            int dy = y < margin ? margin - y : y - (host.h - margin - 1);
            int out = dx > dy ? dx : dy; /* pixels outside the viewport, 0 or less inside */
            if (out <= 0)
                continue;
            const uint8_t *want = out <= border ? frame : background;
            const uint8_t *p = &host.rgba[4 * ((size_t)y * host.w + x)];
            if (memcmp(p, want, 4) && wrong++ == 0)
                fprintf(stderr, "embed_check: pixel %d,%d is %02x%02x%02x%02x, not the %s\n", x, y,
                        p[0], p[1], p[2], p[3], want == frame ? "frame" : "background");
        }
    }
    CHECK(&s, wrong == 0, "%ld pixels of the host's scene are not its colours", wrong);
    image_free(&host);
    image_free(&program);
    return check_finish(&s, "embed_check");
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "book"))
        return make_book(argv[2], atoi(argv[3]));
    if (argc == 8 && (!strcmp(argv[1], "frame") || !strcmp(argv[1], "kept")))
        return check_frame(argv + 2, !strcmp(argv[1], "kept"));
    fprintf(stderr, "usage: embed_check book DIR PAGES | frame|kept HOST.png PROGRAM.png MARGIN "
                    "BORDER BACKGROUND FRAME\n");
    return 2;
}
