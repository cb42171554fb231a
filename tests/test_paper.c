/* SPDX-License-Identifier: MIT */
/* The paper's and the board's thickness and look, rendered at both tiers:
 * - the turning leaf's cut edge: a book of plain green pages (the test writes them), curled at
 *   --page 3 --curl 0.45 --grab 0.2, 1280x720. The paper's face is green wherever it is lit or
 *   shadowed; its cut edge shows the paper's body, grey, a little darker than the face. Along the
 *   roll's silhouette, rows must hold a pixel well off the green (no backdrop near it) that is
 *   darker than the face a few pixels into the leaf.
 * - a hard cover that looks like board: the built-in book (no cover print) with --cover hard,
 *   its board turned by 0.3, 960x540: the board's face is cloth, a colour far from grey, and its
 *   fore edge a band of the same hue as deep as the board, in another shade; closed (--curl 0)
 *   the cover lying on the book is cloth too. A book of green pages: its board shows the print
 *   (its first page, blue) outside and round its edge.
 * usage: test_paper PAGECURL OUT_DIR [--verbose] */
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <stb_image_write.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PAGE_W 400
#define PAGE_H 560
#define PAGES  6
/* The pages' green (sRGB), light enough that the lit face does not clip; the first page, the
 * cover, blue. */
static const unsigned char GREEN[3] = {120, 200, 120};
static const unsigned char BLUE[3] = {110, 130, 210};

/* A pixel's channels. */
static const unsigned char *px(const Image *img, int x, int y)
{
    return img->rgba + ((size_t)y * (size_t)img->w + (size_t)x) * 4;
}

/* How far a pixel is from grey towards green: G less the larger of R and B. The green paper's
 * face keeps ~50 or more lit or shadowed; the paper's grey-cream body and the backdrop are under
 * 0. */
static int greenness(const Image *img, int x, int y)
{
    const unsigned char *p = px(img, x, y);
    return p[1] - (p[0] > p[2] ? p[0] : p[2]);
}

/* ...and towards the cloth's red: R less the larger of G and B. */
static int redness(const Image *img, int x, int y)
{
    const unsigned char *p = px(img, x, y);
    return p[0] - (p[1] > p[2] ? p[1] : p[2]);
}

/* ...and towards the cover's blue. */
static int blueness(const Image *img, int x, int y)
{
    const unsigned char *p = px(img, x, y);
    return p[2] - (p[0] > p[1] ? p[0] : p[1]);
}

static int luma(const Image *img, int x, int y)
{
    const unsigned char *p = px(img, x, y);
    return (2126 * p[0] + 7152 * p[1] + 722 * p[2]) / 10000;
}

/* The backdrop (linear 0.045, 0.05, 0.065: sRGB about 60, 63, 72) or a pixel blended with it:
 * darker than any paper here and bluish grey (the paper's cut edge in shadow is greenish). */
static bool dark(const Image *img, int x, int y)
{
    const unsigned char *p = px(img, x, y);
    return p[0] < 90 && p[1] < 90 && p[2] < 100 && p[1] < p[2] + 8;
}

static bool near_backdrop(const Image *img, int x, int y, int r)
{
    for (int j = y - r; j <= y + r; j++)
        for (int i = x - r; i <= x + r; i++)
            if (i < 0 || j < 0 || i >= img->w || j >= img->h || dark(img, i, j))
                return true;
    return false;
}

static bool write_book(CheckState *s, const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        CHECK(s, false, "cannot make %s", dir);
        return false;
    }
    unsigned char *p = malloc((size_t)PAGE_W * PAGE_H * 3);
    if (!p)
        return false;
    bool ok = true;
    for (int page = 1; page <= PAGES && ok; page++) {
        for (size_t i = 0; i < (size_t)PAGE_W * PAGE_H; i++)
            memcpy(p + 3 * i, page == 1 ? BLUE : GREEN, 3);
        char path[4200];
        snprintf(path, sizeof path, "%s/%d.png", dir, page);
        ok = stbi_write_png(path, PAGE_W, PAGE_H, 3, p, PAGE_W * 3) != 0;
        CHECK(s, ok, "cannot write %s", path);
    }
    free(p);
    return ok;
}

/* The program's picture for `args` (after --headless --validation --quality Q), as NAME-Q.png. */
static Image render(CheckState *s, const char *exe, const char *out, const char *name,
                    const char *quality, const char *const *args)
{
    char png[4200];
    snprintf(png, sizeof png, "%.4000s/%s-%s.png", out, name, quality);
    const char *all[32] = {"--headless", "--validation", "--quality", quality, "--screenshot", png};
    int n = 6;
    for (int i = 0; args[i] && n < 31; i++)
        all[n++] = args[i];
    all[n] = NULL;
    Run r = run_program(exe, out, NULL, all);
    CHECK(s, r.status == 0, "%s %s: exit %d: %s", name, quality, r.status, r.err);
    Image img = image_load(png);
    CHECK(s, img.rgba != NULL, "cannot read %s", png);
    return img;
}

/* A cut edge: a pair of pixels in a row (a line about a pixel wide falls across one or two),
 * away from the backdrop, on average greyer than the paper CUT_INSIDE px to either side of the
 * pair (the leaf's face and the page beyond the silhouette: both green, lit or in shadow) by
 * CUT_GREYER, and darker than both by CUT_DARKER: a grey, dark line. Where the old shaders'
 * outline blends the leaf with what lies beyond, each pixel lies between the two. */
#define CUT_INSIDE 3
#define CUT_GREYER 8 /* levels of greenness */
#define CUT_DARKER 2 /* levels of luma */
#define CUT_ROWS   200

static void check_cut(CheckState *s, const char *exe, const char *out, const char *book,
                      const char *quality, bool verbose)
{
    const char *args[] = {"--book", book,  "--page", "3",        "--curl", "0.45",
                          "--grab", "0.2", "--size", "1280x720", NULL};
    Image img = render(s, exe, out, "cut", quality, args);
    if (!img.rgba)
        return;
    int rows = 0, off = 0;
    for (int y = 0; y < img.h; y++) {
        bool found = false;
        for (int x = CUT_INSIDE; x < img.w - CUT_INSIDE - 1 && !found; x++) {
            if (near_backdrop(&img, x, y, 4))
                continue;
            int g = (greenness(&img, x, y) + greenness(&img, x + 1, y)) / 2;
            int l = (luma(&img, x, y) + luma(&img, x + 1, y)) / 2;
            int gl = greenness(&img, x - CUT_INSIDE, y);
            int gr = greenness(&img, x + 1 + CUT_INSIDE, y);
            int ll = luma(&img, x - CUT_INSIDE, y), lr = luma(&img, x + 1 + CUT_INSIDE, y);
            bool greyer = g <= (gl < gr ? gl : gr) - CUT_GREYER;
            off += greyer;
            found = greyer && l <= (ll < lr ? ll : lr) - CUT_DARKER;
            if (found && verbose)
                printf("%s y=%d x=%d: greenness %d (beside it %d, %d), luma %d (%d, %d)\n", quality,
                       y, x, g, gl, gr, l, ll, lr);
        }
        rows += found;
    }
    printf("%s: %d rows show the leaf's cut edge (%d pairs of pixels greyer than the paper beside "
           "them)\n",
           quality, rows, off);
    CHECK(s, rows >= CUT_ROWS, "%s: only %d rows show the leaf's cut edge (at least %d)", quality,
          rows, CUT_ROWS);
    image_free(&img);
}

/* The board's face and its fore edge, along rows: the rightmost run of the cover's colour (hue
 * `hue`: redness or greenness over HUE) before the page or the backdrop, whose last pixels are the
 * edge in another shade. */
#define HUE        40
#define FACE_MIN   4000 /* pixels of the cover's colour: the board covers ~20,000 at 960x540 */
#define EDGE_SHADE 10   /* luma levels between the edge's band and the face beside it */
#define EDGE_ROWS  100

typedef int (*Hue)(const Image *, int, int);

static void check_board(CheckState *s, const Image *img, Hue hue, const char *what, bool verbose)
{
    int face = 0, rows = 0;
    for (int y = 0; y < img->h; y++)
        for (int x = 0; x < img->w; x++)
            face += hue(img, x, y) > HUE;
    /* Each row's run of the cover's colour that ends furthest right ends in the fore edge: a band
     * 2 px or more deep (the board is 0.015 page widths thick, ~5 px here) whose shade differs from
     * the face 4 px further in. */
    for (int y = 0; y < img->h; y++) {
        int end = -1;
        for (int x = img->w - 1; x >= 8 && end < 0; x--)
            end = hue(img, x, y) > HUE ? x : -1;
        if (end < 8 || hue(img, end - 8, y) <= HUE)
            continue;
        int band = luma(img, end - 1, y), inside = luma(img, end - 8, y);
        bool edge = abs(band - inside) >= EDGE_SHADE && hue(img, end - 2, y) > HUE &&
                    abs(luma(img, end - 2, y) - inside) >= EDGE_SHADE;
        rows += edge;
        if (verbose && edge)
            printf("%s y=%d: edge at x=%d, luma %d against the face's %d\n", what, y, end, band,
                   inside);
    }
    printf("%s: %d pixels of the cover's colour, %d rows with its edge\n", what, face, rows);
    CHECK(s, face >= FACE_MIN, "%s: only %d pixels of the cover's colour (at least %d)", what, face,
          FACE_MIN);
    CHECK(s, rows >= EDGE_ROWS,
          "%s: only %d rows show the board's edge in its colour (at least %d)", what, rows,
          EDGE_ROWS);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    RunArgs args;
    if (!run_test_args(argc, argv, "test_paper", &args))
        return 2;
    const char *exe = args.exe, *out = args.out;
    char book[4096];
    snprintf(book, sizeof book, "%s/green", out);
    if (!write_book(&s, book))
        return check_finish(&s, "test_paper");
    const char *tiers[] = {"low", "high"};
    for (int t = 0; t < 2; t++) {
        check_cut(&s, exe, out, book, tiers[t], args.verbose);
        const char *turn[] = {"--cover", "hard",   "--curl",  "0.3", "--grab",
                              "0.3",     "--size", "960x540", NULL};
        Image cloth = render(&s, exe, out, "cloth", tiers[t], turn);
        char what[64];
        snprintf(what, sizeof what, "%s cloth board", tiers[t]);
        if (cloth.rgba)
            check_board(&s, &cloth, redness, what, args.verbose);
        image_free(&cloth);
    }
    /* the closed book: its cover lying on it is cloth */
    const char *closed[] = {"--cover", "hard", "--curl", "0", "--size", "640x480", NULL};
    Image rest = render(&s, exe, out, "closed", "low", closed);
    if (rest.rgba) {
        int red = 0;
        for (int y = 0; y < rest.h; y++)
            for (int x = 0; x < rest.w; x++)
                red += redness(&rest, x, y) > HUE;
        printf("closed: %d pixels of cloth\n", red);
        CHECK(&s, red > rest.w * rest.h / 4, "closed: only %d pixels of cloth", red);
    }
    image_free(&rest);
    /* a book with its own pages: the board shows its cover's print, round its edge too */
    const char *printed[] = {"--book", book,  "--cover", "hard",    "--curl", "0.3",
                             "--grab", "0.3", "--size",  "960x540", NULL};
    Image print = render(&s, exe, out, "printed", "low", printed);
    if (print.rgba)
        check_board(&s, &print, blueness, "low printed board", args.verbose);
    image_free(&print);
    return check_finish(&s, "test_paper");
}
