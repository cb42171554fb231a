/* SPDX-License-Identifier: MIT */
/* The paper's edges at the low tier (issue 27): anti-aliased without stair steps, and the outline
 * where the high tier's samples put it. A blank white book (PNGs the test writes) is drawn at
 * 1280x720 closed on its first page, closed on its last, and with its first leaf's flap turned
 * past the spine over the backdrop, at both tiers. Along each near-vertical edge against the
 * backdrop (both sides of the closed page: its fore edge and its spine; the flap's fore edge),
 * each row gives the edge's position to a fraction of a pixel: the paper's share of a few pixels
 * across the edge, in linear light between the backdrop and the paper just inside it. At the low
 * tier no row's position may step from the row before by more than MAX_STEP px off the edge's own
 * slope (a stair step is a whole pixel, a smooth edge moves a few hundredths a row), and over the
 * rows it must lie within MAX_BIAS px of the high tier's on average (4x MSAA: its positions come
 * in quarters of a pixel), every row within MAX_OFF. And the built-in book's hard cover standing on
 * its spine, seen edge on from above, at both tiers: its edge is a strip without a crack
 * (check_board).
 * usage: test_edges PAGECURL OUT_DIR [--verbose] */
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stb_image_write.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PAGE_W   400
#define PAGE_H   560
#define PAGES    8
#define MAX_STEP 0.25
#define MAX_BIAS 0.2
#define MAX_OFF  1.0
/* The rows measured: the page's middle, clear of its head and foot at 1280x720. */
#define ROW0 220
#define ROW1 540
/* A pixel this far (green, of 255) off the backdrop is paper; the paper's shade is read from the
 * FIT pixels from REF px inside the first such pixel, and the edge is measured over WINDOW px
 * either side of it. */
#define FOUND  20
#define REF    6
#define FIT    8
#define WINDOW 4

static bool write_book(CheckState *s, const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        CHECK(s, false, "cannot make %s", dir);
        return false;
    }
    unsigned char *px = malloc((size_t)PAGE_W * PAGE_H * 3);
    if (!px)
        return false;
    memset(px, 255, (size_t)PAGE_W * PAGE_H * 3);
    bool ok = true;
    for (int page = 1; page <= PAGES && ok; page++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%d.png", dir, page);
        ok = stbi_write_png(path, PAGE_W, PAGE_H, 3, px, PAGE_W * 3) != 0;
        CHECK(s, ok, "cannot write %s", path);
    }
    free(px);
    return ok;
}

typedef struct Pose {
    const char *name;
    const char *args[8]; /* NULL-terminated */
} Pose;

static Image render(CheckState *s, const char *exe, const char *out, const char *book,
                    const Pose *pose, const char *quality)
{
    char png[4096];
    snprintf(png, sizeof png, "%s/%s-%s.png", out, pose->name, quality);
    const char *args[32] = {"--headless", "--validation", "--size", "1280x720", "--quality",
                            quality,      "--screenshot", png,      "--book",   book};
    int n = book ? 10 : 8; /* NULL: the built-in book */
    for (int i = 0; pose->args[i]; i++)
        args[n++] = pose->args[i];
    args[n] = NULL;
    Run r = run_program(exe, out, NULL, args);
    CHECK(s, r.status == 0, "%s %s: exit %d: %s", pose->name, quality, r.status, r.err);
    Image img = image_load(png);
    CHECK(s, img.rgba != NULL, "cannot read %s", png);
    return img;
}

static double linear(const Image *img, int x, int y)
{
    double c = img->rgba[((size_t)y * (size_t)img->w + (size_t)x) * 4 + 1] / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* Row y's edge position in [x_lo, x_hi], where the paper lies on the side `dir` (+1: right of the
 * edge, -1: left) and the backdrop on the other: NAN where no edge is found. */
static double edge_at(const Image *img, int y, int x_lo, int x_hi, int dir)
{
    double bg = linear(img, 0, 0);
    int bg8 = img->rgba[1];
    int start = dir > 0 ? x_lo : x_hi, first = -1;
    for (int i = 0; i <= x_hi - x_lo; i++) {
        int x = start + dir * i;
        if (abs(img->rgba[((size_t)y * (size_t)img->w + (size_t)x) * 4 + 1] - bg8) > FOUND) {
            first = x;
            break;
        }
    }
    int far = first + dir * (REF + FIT - 1);
    if (first < 0 || far < 0 || far >= img->w)
        return NAN;
    /* the paper's own shade, which the gutter changes by a few levels a pixel near the spine:
     * a line fitted to FIT pixels inside, carried out to the edge (at i = 0, REF px in) */
    double sx = 0.0, sv = 0.0, sxx = 0.0, sxv = 0.0;
    for (int i = 0; i < FIT; i++) {
        double v = linear(img, first + dir * (REF + i), y);
        sx += i, sv += v, sxx += (double)i * i, sxv += i * v;
    }
    double slope = (FIT * sxv - sx * sv) / (FIT * sxx - sx * sx), near = (sv - slope * sx) / FIT;
    if (near - bg < 0.1)
        return NAN;
    /* the window's paper, counted from its backdrop end */
    int from = first - dir * WINDOW;
    double covered = 0.0;
    for (int i = 0; i < 2 * WINDOW; i++) {
        double paper = near + slope * (i - WINDOW - REF);
        double c = (linear(img, from + dir * i, y) - bg) / (paper - bg);
        covered += c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c;
    }
    /* the edge lies `covered` pixels short of the window's paper end */
    return from + dir * (2 * WINDOW - covered) - (dir > 0 ? 0.5 : -0.5);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct Edge {
    const char *name;
    int pose;       /* index into the poses */
    int x_lo, x_hi; /* where to look for it */
    int dir;        /* the paper's side */
} Edge;

static void check_edge(CheckState *s, const Edge *e, const Image *low, const Image *high,
                       bool verbose)
{
    int rows = ROW1 - ROW0;
    double pos[ROW1 - ROW0], ref[ROW1 - ROW0], steps[ROW1 - ROW0];
    int n = 0, found = 0;
    double bias = 0.0, off = 0.0;
    for (int y = ROW0; y < ROW1; y++) {
        pos[y - ROW0] = edge_at(low, y, e->x_lo, e->x_hi, e->dir);
        ref[y - ROW0] = edge_at(high, y, e->x_lo, e->x_hi, e->dir);
        if (isnan(pos[y - ROW0]) || isnan(ref[y - ROW0]))
            continue;
        found++;
        double d = pos[y - ROW0] - ref[y - ROW0];
        bias += d;
        off = fabs(d) > off ? fabs(d) : off;
        if (verbose)
            printf("%s y=%d low %.2f high %.2f\n", e->name, y, pos[y - ROW0], ref[y - ROW0]);
    }
    CHECK(s, found == rows, "%s: an edge in %d of %d rows", e->name, found, rows);
    if (found < rows)
        return;
    for (int i = 1; i < rows; i++)
        steps[n++] = pos[i] - pos[i - 1];
    double sorted[ROW1 - ROW0];
    memcpy(sorted, steps, (size_t)n * sizeof steps[0]);
    qsort(sorted, (size_t)n, sizeof sorted[0], by_value);
    double slope = sorted[n / 2], worst = 0.0;
    int worst_row = ROW0;
    for (int i = 0; i < n; i++)
        if (fabs(steps[i] - slope) > worst) {
            worst = fabs(steps[i] - slope);
            worst_row = ROW0 + i + 1;
        }
    bias /= rows;
    printf("%s: low tier steps at most %.2f px off the edge's slope (row %d), its outline %+.2f px "
           "from the high tier's on average, %.2f at most\n",
           e->name, worst, worst_row, bias, off);
    CHECK(s, worst <= MAX_STEP, "%s: the edge steps by %.2f px at row %d (at most %.2f)", e->name,
          worst, worst_row, MAX_STEP);
    CHECK(s, fabs(bias) <= MAX_BIAS,
          "%s: the outline lies %+.2f px from the high tier's (at most "
          "%.2f)",
          e->name, bias, MAX_BIAS);
    CHECK(s, off <= MAX_OFF, "%s: a row's outline %.2f px from the high tier's (at most %.2f)",
          e->name, off, MAX_OFF);
}

/* Whether a pixel is the built-in book's red cloth, not the backdrop or paper: a deep red (the
 * page's red margin rule, pink on the paper, is as red but light). */
static bool cloth(const Image *img, int x, int y)
{
    const unsigned char *p = &img->rgba[((size_t)y * (size_t)img->w + (size_t)x) * 4];
    return p[0] > p[1] + 20 && p[0] > p[2] + 20 && p[1] < 120;
}

/* The built-in book's front board standing on its spine, seen from above: a strip of its cloth
 * a few pixels wide (its fore edge, the board's thickness, 4 to 6 px with the perspective) that
 * must be whole. No row between its ends may hold more than a pixel less cloth than both rows two
 * away: a row where the seam of two of the board's faces, or a face pulled out of place, lets the
 * backdrop through (2 px of cloth where 5 lie above and below) fails. */
static void check_board(CheckState *s, const Image *img, const char *quality, bool verbose)
{
    enum { X0 = 560, X1 = 720 };
    int first = -1, last = -1, counts[720] = {0};
    for (int y = 0; y < img->h && y < 720; y++) {
        for (int x = X0; x < X1 && x < img->w; x++)
            counts[y] += cloth(img, x, y);
        if (counts[y] > 0)
            last = y, first = first < 0 ? y : first;
    }
    CHECK(s, first >= 0 && last - first > 100, "board %s: no strip of cloth found", quality);
    if (first < 0 || last - first <= 100)
        return;
    int worst = 0, at = -1;
    for (int y = first + 2; y <= last - 2; y++) {
        int around = counts[y - 2] < counts[y + 2] ? counts[y - 2] : counts[y + 2];
        if (around - counts[y] > worst)
            worst = around - counts[y], at = y;
    }
    if (verbose)
        printf("board %s: rows %d..%d, at most %d px less cloth than the rows around (row %d)\n",
               quality, first, last, worst, at);
    CHECK(s, worst <= 1,
          "board %s: row %d holds %d px of the board's edge, %d less than the rows two above "
          "and below (strip rows %d..%d)",
          quality, at, at >= 0 ? counts[at] : 0, worst, first, last);
}

int main(int argc, char **argv)
{
    CheckState s = {0, 0};
    RunArgs args;
    if (!run_test_args(argc, argv, "test_edges", &args))
        return 2;
    const char *exe = args.exe, *out = args.out;
    bool verbose = args.verbose;
    char book[4000];
    snprintf(book, sizeof book, "%.3900s/blank", out);
    if (!write_book(&s, book))
        return check_finish(&s, "test_edges");
    static const Pose poses[] = {
        {"first", {"--page", "1", "--curl", "0", NULL}},
        {"last", {"--page", "8", "--backward", "--curl", "0", NULL}},
        {"flap", {"--page", "1", "--curl", "0.6", "--grab", "0.5", NULL}},
    };
    /* the closed page spans x ~ 467..813 at 1280x720, the flap's fore edge x ~ 507..513 */
    static const Edge edges[] = {
        {"first page's spine", 0, 400, 560, +1},    {"first page's fore edge", 0, 720, 880, -1},
        {"last page's fore edge", 1, 400, 560, +1}, {"last page's spine", 1, 720, 880, -1},
        {"flap's fore edge", 2, 400, 560, +1},
    };
    Image low[3], high[3];
    for (int p = 0; p < 3; p++) {
        low[p] = render(&s, exe, out, book, &poses[p], "low");
        high[p] = render(&s, exe, out, book, &poses[p], "high");
    }
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        const Edge *e = &edges[i];
        const Image *l = &low[e->pose], *h = &high[e->pose];
        if (!l->rgba || !h->rgba || l->w != 1280 || h->w != 1280 || l->h != 720 || h->h != 720) {
            CHECK(&s, false, "%s: no pair of 1280x720 pictures", e->name);
            continue;
        }
        check_edge(&s, e, l, h, verbose);
    }
    for (int p = 0; p < 3; p++) {
        image_free(&low[p]);
        image_free(&high[p]);
    }
    static const Pose board = {"board", {"--cover", "hard", "--page", "1", "--curl", "0.5", NULL}};
    for (int q = 0; q < 2; q++) {
        const char *quality = q ? "high" : "low";
        Image img = render(&s, exe, out, NULL, &board, quality);
        if (img.rgba && img.w == 1280 && img.h == 720)
            check_board(&s, &img, quality, verbose);
        else
            CHECK(&s, false, "board %s: no 1280x720 picture", quality);
        image_free(&img);
    }
    return check_finish(&s, "test_edges");
}
