/* SPDX-License-Identifier: MIT */
/* Show-through at both tiers: a white page whose back holds a black square, at rest on the stack
 * (--page 1 --curl 0), is drawn with the default show-through and with --show-through 0. The
 * default is darker only where the square lies behind the page (seen mirrored: the square is in
 * the right half of the back, so in the left half of the page), by 1 or 2 levels (at rest the
 * next leaf's white lies behind the page: issue 50, at most 2/255), and nowhere lighter; a book
 * whose back is blank draws the same with show-through or without; ink drawn on a blank back (a
 * notebook) shows through as print does, only where it lies and only with show-through. A lifted
 * leaf with the light behind it (--curl 0.5, its back seen where it rolls) shows a black square on
 * its other side at full strength: at least 8 levels, well under 30. --show-through outside
 * [0, 1] is refused.
 * usage: test_show_through PAGECURL OUT_DIR */
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_W 420
#define PAGE_H 600
/* what a black square behind 80 g/m2 paper may take away at most (issue 27: well under 30) */
#define MAX_DARKENING 29
/* at most at rest, on the stack (issue 50) */
#define MAX_REST 2
/* at least where a lifted leaf has the light behind it */
#define LEAST_BACKLIT 8

static CheckState st;

/* Three white pages; page `square` (2: the back of page 1; 0: none) with a black square in its
 * right half. */
static void write_book(const char *dir, int square)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        CHECK(&st, false, "cannot make %s", dir);
    unsigned char *px = malloc((size_t)PAGE_W * PAGE_H * 3);
    if (!px)
        return;
    for (int page = 1; page <= 3; page++) {
        memset(px, 255, (size_t)PAGE_W * PAGE_H * 3);
        for (int y = PAGE_H / 6; page == square && y < PAGE_H / 2; y++)
            memset(px + ((size_t)y * PAGE_W + PAGE_W * 6 / 10) * 3, 0, (size_t)PAGE_W * 3 / 10 * 3);
        char path[4096];
        snprintf(path, sizeof path, "%s/%d.png", dir, page);
        CHECK(&st, stbi_write_png(path, PAGE_W, PAGE_H, 3, px, PAGE_W * 3) != 0, "cannot write %s",
              path);
    }
    free(px);
}

/* A notebook for the blank book (`book`: its folder, made absolute) with a band of ink in the
 * left half of page 2 as it reads face up (the back of page 1: seen through page 1 in its right
 * half). */
static void write_notebook(const char *path, const char *book)
{
    char abs[4096], cwd[2048];
    if (book[0] == '/')
        snprintf(abs, sizeof abs, "%s", book);
    else
        snprintf(abs, sizeof abs, "%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", book);
    FILE *f = fopen(path, "w");
    CHECK(&st, f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fprintf(f,
            "{\"format\": \"pagecurl-notebook\", \"version\": 1, \"book\": {\"path\": \"%s\", "
            "\"pages\": 3}, \"pages\": [{\"page\": 2, \"strokes\": [",
            abs);
    for (int i = 0; i < 8; i++)
        fprintf(f, "%s[[0.12, %.3f, 0.03], [0.38, %.3f, 0.03]]", i ? ", " : "", 0.55 + 0.025 * i,
                0.55 + 0.025 * i);
    fprintf(f, "]}]}\n");
    fclose(f);
}

static Image render_posed(const char *exe, const char *out, const char *book, const char *quality,
                          const char *strength, const char *name, const char *notebook,
                          const char *curl)
{
    char png[4096];
    snprintf(png, sizeof png, "%s/%s-%s.png", out, name, quality);
    const char *args[] = {"--headless",
                          "--validation",
                          "--book",
                          book,
                          "--page",
                          "1",
                          "--curl",
                          curl,
                          "--size",
                          "640x480",
                          "--quality",
                          quality,
                          "--screenshot",
                          png,
                          strength ? "--show-through" : "--page",
                          strength ? strength : "1",
                          notebook ? "--notebook" : NULL,
                          notebook,
                          NULL};
    Run r = run_program(exe, out, NULL, args);
    CHECK(&st, r.status == 0, "%s %s: exit %d: %s", name, quality, r.status, r.err);
    Image img = image_load(png);
    CHECK(&st, img.rgba != NULL, "cannot read %s", png);
    return img;
}

static Image render_inked(const char *exe, const char *out, const char *book, const char *quality,
                          const char *strength, const char *name, const char *notebook)
{
    return render_posed(exe, out, book, quality, strength, name, notebook, "0");
}

static Image render(const char *exe, const char *out, const char *book, const char *quality,
                    const char *strength, const char *name)
{
    return render_inked(exe, out, book, quality, strength, name, NULL);
}

/* How much darker `dark` is than `light`, pixel by pixel (its most darkened channel): how many
 * pixels, how many of them right of column `mid` (x > mid) and left of it (x < mid), by how many
 * levels at most, and how many channels are lighter. */
typedef struct Darkening {
    int darker, right, left, most, lighter;
} Darkening;

static Darkening darkening(const Image *light, const Image *dark, int mid)
{
    Darkening out = {0};
    for (int y = 0; y < light->h; y++)
        for (int x = 0; x < light->w; x++) {
            size_t i = ((size_t)y * (size_t)light->w + (size_t)x) * 4;
            int d = 0;
            for (int c = 0; c < 3; c++) {
                int delta = light->rgba[i + c] - dark->rgba[i + c];
                out.lighter += delta < 0;
                d = delta > d ? delta : d;
            }
            if (d > 0) {
                out.darker++;
                out.right += x > mid;
                out.left += x < mid;
            }
            out.most = d > out.most ? d : out.most;
        }
    return out;
}

static void check_tier(const char *exe, const char *out, const char *square_book,
                       const char *blank_book, const char *quality)
{
    Image with = render(exe, out, square_book, quality, NULL, "square");
    Image without = render(exe, out, square_book, quality, "0", "square-off");
    Image blank = render(exe, out, blank_book, quality, NULL, "blank");
    Image blank_off = render(exe, out, blank_book, quality, "0", "blank-off");
    if (with.rgba && without.rgba && with.w == without.w && with.h == without.h) {
        /* the page: what is far from the background's colour, in the image without */
        const unsigned char *bg = without.rgba;
        int px0 = with.w, px1 = -1;
        for (int y = 0; y < with.h; y++)
            for (int x = 0; x < with.w; x++) {
                const unsigned char *p =
                    without.rgba + ((size_t)y * (size_t)with.w + (size_t)x) * 4;
                if (abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 90) {
                    px0 = x < px0 ? x : px0;
                    px1 = x > px1 ? x : px1;
                }
            }
        Darkening dk = darkening(&without, &with, (px0 + px1) / 2);
        int darker = dk.darker, outside = dk.right, most = dk.most, lighter = dk.lighter;
        printf("test_show_through: %s: page x %d..%d, %d pixels darker (%d right of the page's "
               "middle), by %d at most, %d channels lighter\n",
               quality, px0, px1, darker, outside, most, lighter);
        CHECK(&st, px1 > px0 + 100, "%s: no page found", quality);
        CHECK(&st, darker > 2000, "%s: the square does not show through (%d pixels)", quality,
              darker);
        CHECK(&st, most >= 1 && most <= MAX_REST, "%s: at rest darker by %d levels (1 to %d)",
              quality, most, MAX_REST);
        CHECK(&st, lighter == 0, "%s: %d channels lighter", quality, lighter);
        CHECK(&st, outside == 0, "%s: %d pixels darker outside the square's mirror image", quality,
              outside);
    }
    CHECK(&st, blank.rgba && image_same(&blank, &blank_off), "%s: a blank back changes the page",
          quality);
    image_free(&with);
    image_free(&without);
    image_free(&blank);
    image_free(&blank_off);
}

/* The square on the front of the leaf (`book`), lifted halfway (--curl 0.5): where it rolls, its
 * back is seen with the light behind it, and the square shows through it by at least
 * LEAST_BACKLIT levels. */
static void check_backlit(const char *exe, const char *out, const char *book, const char *quality)
{
    Image with = render_posed(exe, out, book, quality, NULL, "backlit", NULL, "0.5");
    Image without = render_posed(exe, out, book, quality, "0", "backlit-off", NULL, "0.5");
    if (with.rgba && without.rgba && with.w == without.w && with.h == without.h) {
        Darkening dk = darkening(&without, &with, with.w / 2);
        printf("test_show_through: %s: lifted, lit from behind: %d pixels darker, by %d at most\n",
               quality, dk.darker, dk.most);
        CHECK(&st, dk.darker > 200 && dk.most >= LEAST_BACKLIT && dk.most <= MAX_DARKENING,
              "%s: lit from behind: %d pixels darker by %d levels (%d to %d)", quality, dk.darker,
              dk.most, LEAST_BACKLIT, MAX_DARKENING);
    }
    image_free(&with);
    image_free(&without);
}

/* Ink on the blank book's back: darker than the page without it, by 1 or 2 levels, only in the
 * page's right half (its mirror image) and nowhere lighter; with --show-through 0 the same. */
static void check_ink(const char *exe, const char *out, const char *blank_book, const char *quality)
{
    char notebook[4096];
    snprintf(notebook, sizeof notebook, "%s/back-ink-%s.json", out, quality);
    write_notebook(notebook, blank_book);
    Image bare = render(exe, out, blank_book, quality, NULL, "bare");
    Image inked = render_inked(exe, out, blank_book, quality, NULL, "inked", notebook);
    Image bare_off = render(exe, out, blank_book, quality, "0", "bare-off");
    Image inked_off = render_inked(exe, out, blank_book, quality, "0", "inked-off", notebook);
    if (bare.rgba && inked.rgba && bare.w == inked.w && bare.h == inked.h) {
        Darkening dk = darkening(&bare, &inked, bare.w / 2);
        int darker = dk.darker, left = dk.left, lighter = dk.lighter, most = dk.most;
        printf("test_show_through: %s: ink on the back: %d pixels darker (%d left of the "
               "middle), by %d at most, %d channels lighter\n",
               quality, darker, left, most, lighter);
        CHECK(&st, darker > 1000, "%s: the back's ink does not show through (%d pixels)", quality,
              darker);
        CHECK(&st, most >= 1 && most <= MAX_REST, "%s: ink darker by %d levels at rest (1 to %d)",
              quality, most, MAX_REST);
        CHECK(&st, lighter == 0 && left == 0,
              "%s: ink: %d channels lighter, %d pixels darker in "
              "the left half",
              quality, lighter, left);
    }
    CHECK(&st, bare_off.rgba && image_same(&bare_off, &inked_off),
          "%s: the back's ink shows without show-through", quality);
    image_free(&bare);
    image_free(&inked);
    image_free(&bare_off);
    image_free(&inked_off);
}

int main(int argc, char **argv)
{
    RunArgs args;
    if (!run_test_args(argc, argv, "test_show_through", &args))
        return 2;
    const char *exe = args.exe, *out = args.out;
    char square[4096], blank[4096], front[4096];
    snprintf(square, sizeof square, "%s/square", out);
    snprintf(blank, sizeof blank, "%s/blank", out);
    snprintf(front, sizeof front, "%s/front", out);
    write_book(square, 2);
    write_book(blank, 0);
    write_book(front, 1);
    check_tier(exe, out, square, blank, "low");
    check_tier(exe, out, square, blank, "high");
    check_backlit(exe, out, front, "low");
    check_backlit(exe, out, front, "high");
    check_ink(exe, out, blank, "low");
    check_ink(exe, out, blank, "high");
    const char *bad[] = {"1.5", "-0.1", "0.2x", "nan"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Run r = run_program(exe, out, NULL,
                            (const char *const[]){"--headless", "--show-through", bad[i], NULL});
        CHECK(&st, r.status == 2 && strstr(r.err, "--show-through"), "--show-through %s: %d %s",
              bad[i], r.status, r.err);
    }
    return check_finish(&st, "test_show_through");
}
