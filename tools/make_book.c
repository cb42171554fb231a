/* SPDX-License-Identifier: MIT */
/* Writes a real-looking book, nothing downloaded: a photo book of lakes and hills as a folder of
 * PNG pages for `pagecurl --book`. Page 1 is a cover (a photo under its title); every other page
 * is paper with a photo (tools/photo.h), a caption, a passage and its page number at the outer
 * foot, set in the faces pagecurl uses (pages/typeface.h: DejaVu Serif from fonts-dejavu-core).
 * usage: make_book DIR [PAGES]   (DIR is made; PAGES: 2 to 99, default 12)
 * tools/make-book.sh runs it for the README's pictures. */
#include "../pages/line_break.h"
#include "../pages/typeface.h"
#include "photo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image_write.h>

/* A page of ISO 216 paper, as the built-in book's. */
#define PAGE_W 1000
#define PAGE_H 1414

typedef struct Sheet {
    unsigned char *rgb; /* PAGE_W x PAGE_H, sRGB */
    const PagesTypeface *face;
    unsigned char ink[3];
    PagesTypefaceStyle style;
    float em;
} Sheet;

static void plot(void *user, int x, int y, float coverage)
{
    Sheet *s = user;
    if (x < 0 || y < 0 || x >= PAGE_W || y >= PAGE_H)
        return;
    unsigned char *p = &s->rgb[3 * ((long)y * PAGE_W + x)];
    for (int k = 0; k < 3; k++)
        p[k] = (unsigned char)(p[k] + coverage * (float)(s->ink[k] - p[k]) + 0.5f);
}

static float measure(void *user, const char *line)
{
    const Sheet *s = user;
    return pages_typeface_width(s->face, s->style, line, s->em);
}

static void text(Sheet *s, PagesTypefaceStyle style, float em, float x, float y, const char *line)
{
    (void)pages_typeface_draw(s->face, style, line, em, x, y, plot, s);
}

static const char *const PLACES[] = {"Morning over the lake", "The far ridge", "Pines at the shore",
                                     "Evening light",         "Still water",   "The valley road"};
static const char *const PASSAGES[] = {
    "We walked before the sun was up, along the shore where the pines stand close to the water. "
    "The far hills came out of the haze one ridge at a time, each paler than the one before.",
    "By the time we reached the point the light had turned the whole valley gold, and the lake "
    "lay so still that the ridges stood in it upside down, as sharp as the ones above.",
    "The road climbs out of the valley in long bends. From the last of them you can see every "
    "lake we passed, strung along the river like beads, and the smoke of the village beyond.",
    "In the evening the wind drops. The water goes from blue to grey to the colour of the sky, "
    "and the pines on the far shore are the last thing to fade.",
};
#define PASSAGE_COUNT (int)(sizeof PASSAGES / sizeof PASSAGES[0])

static void page_draw(Sheet *s, int page)
{
    if (page == 1) { /* the cover: a photo to the edges, its title over the sky */
        photo_draw(7u, PAGE_W, PAGE_H, s->rgb, 3 * PAGE_W);
        memcpy(s->ink, (unsigned char[3]){250, 246, 236}, 3);
        const char *title = "Lakes and Hills";
        float em = 100.0f, w = pages_typeface_width(s->face, PAGES_TYPEFACE_BOLD_STYLE, title, em);
        text(s, PAGES_TYPEFACE_BOLD_STYLE, em, (PAGE_W - w) / 2.0f, 300.0f, title);
        const char *sub = "photographs and notes";
        w = pages_typeface_width(s->face, PAGES_TYPEFACE_REGULAR_STYLE, sub, 48.0f);
        text(s, PAGES_TYPEFACE_REGULAR_STYLE, 48.0f, (PAGE_W - w) / 2.0f, 390.0f, sub);
        return;
    }
    for (long i = 0; i < (long)PAGE_W * PAGE_H; i++)
        memcpy(&s->rgb[3 * i], (unsigned char[3]){247, 243, 233}, 3);
    int margin = 90, photo_w = PAGE_W - 2 * margin, photo_h = photo_w * 2 / 3;
    photo_draw((unsigned)page, photo_w, photo_h, s->rgb + 3 * ((long)margin * PAGE_W + margin),
               3 * PAGE_W);
    memcpy(s->ink, (unsigned char[3]){28, 30, 38}, 3);
    float y = (float)(margin + photo_h) + 90.0f;
    text(s, PAGES_TYPEFACE_BOLD_STYLE, 46.0f, (float)margin, y,
         PLACES[page % (int)(sizeof PLACES / sizeof PLACES[0])]);
    s->style = PAGES_TYPEFACE_REGULAR_STYLE, s->em = 30.0f;
    char line[160];
    y += 70.0f;
    for (int k = 0; k < 2; k++, y += 30.0f) { /* two paragraphs, a half line between */
        const char *p = PASSAGES[(page + k) % PASSAGE_COUNT];
        for (; pages_line_break(&p, (float)photo_w, measure, s, line, sizeof line); y += 46.0f)
            text(s, PAGES_TYPEFACE_REGULAR_STYLE, s->em, (float)margin, y, line);
    }
    char folio[16];
    snprintf(folio, sizeof folio, "%d", page);
    float w = pages_typeface_width(s->face, PAGES_TYPEFACE_REGULAR_STYLE, folio, 34.0f);
    /* the outer foot: right on a right-hand (odd) page, left on a left-hand one */
    text(s, PAGES_TYPEFACE_REGULAR_STYLE, 34.0f, page % 2 ? (float)(PAGE_W - margin) - w : margin,
         (float)PAGE_H - 70.0f, folio);
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long pages = argc == 3 ? strtol(argv[2], &end, 10) : 12;
    if ((argc != 2 && argc != 3) || (end && *end) || pages < 2 || pages > 99) {
        fprintf(stderr, "usage: make_book DIR [PAGES]   (PAGES: 2 to 99, default 12)\n");
        return 2;
    }
    const char *dir = argv[1];
    char why[512];
    PagesTypeface *face = pages_typeface_load(why, sizeof why);
    if (!face) {
        if (why[0])
            fprintf(stderr, "make_book: %s\n", why);
        else
            fprintf(stderr, "make_book: no %s/%s (Debian: fonts-dejavu-core)\n", PAGES_TYPEFACE_DIR,
                    PAGES_TYPEFACE_REGULAR);
        return 1;
    }
    Sheet s = {malloc((size_t)PAGE_W * PAGE_H * 3), face, {0, 0, 0}, 0, 0.0f};
    int status = 0;
    if (!s.rgb) {
        fprintf(stderr, "make_book: out of memory\n");
        status = 1;
    } else if (mkdir(dir, 0755) != 0) {
        /* a folder of its own: one that exists may hold the user's pictures, which page-NN.png
         * would replace and the book would take in */
        fprintf(stderr, "make_book: %s: %s\n", dir, strerror(errno));
        status = 1;
    }
    for (int page = 1; !status && page <= pages; page++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/page-%02d.png", dir, page);
        page_draw(&s, page);
        if (!stbi_write_png(path, PAGE_W, PAGE_H, 3, s.rgb, 3 * PAGE_W)) {
            fprintf(stderr, "make_book: cannot write %s\n", path);
            status = 1;
        }
    }
    free(s.rgb);
    pages_typeface_free(face);
    return status;
}
