/* SPDX-License-Identifier: MIT */
/* The turning leaf's soft shadow on a blank page, at both tiers: where the leaf is lifted its
 * penumbra is a smooth ramp, not bands. A blank white book is rendered at --page 3 --curl 0.3
 * --grab 0.3, 1280x720, and again with the flat page under the leaf (page 5) grey: the pixels
 * that differ are that page's, so each row's run of them right of the leaf holds the shadow and
 * none of the leaf. Along every row of it where the shadow is soft (the leaf lifted: the ramp from
 * the darkest value to the lit paper wider than CONTACT_PX), no two consecutive flat runs (3 px
 * or more of one value) may be more than MAX_STEP/255 apart, and the ramp may not turn back (no
 * grain). Where the leaf is lower the penumbra is narrower (the shadow hardens towards contact).
 * And at --curl 0.85 --grab 0.1, where the leaf rolls up beside the spine, the contact shadow's
 * edge moves smoothly down the fold, not in blocks (check_contact).
 * usage: test_shadow PAGECURL OUT_DIR [--verbose] */
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

#define PAGE_W 400
#define PAGE_H 560
#define PAGES  6
/* Flat runs of at least this many pixels of one value, consecutive ones at most this far apart
 * (issue 27): 8-bit output steps a smooth ramp by 1/255, a band by 10 or more; the low tier's
 * ramp, read once from a coarse level, steps by up to 5 on a few rows of the page filling the
 * view at rest (4 where it filled 62 % of it). */
#define FLAT_PX  3
#define MAX_STEP 5
/* A ramp narrower than this is the contact shadow's sharp edge, not a lifted leaf's penumbra. */
#define CONTACT_PX 10
/* A channel this far off the paper is shadow; the umbra and the lit paper are within SETTLE. */
#define SHADOW_DEPTH 40
#define SETTLE       3
/* Rows the shadow must be soft on: the pose's lifted part spans ~300 rows at 1280x720. */
#define MIN_ROWS 100

static bool write_book(CheckState *s, const char *dir, unsigned char grey_from_5)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        CHECK(s, false, "cannot make %s", dir);
        return false;
    }
    unsigned char *px = malloc((size_t)PAGE_W * PAGE_H * 3);
    if (!px)
        return false;
    bool ok = true;
    for (int page = 1; page <= PAGES && ok; page++) {
        memset(px, page >= 5 ? grey_from_5 : 255, (size_t)PAGE_W * PAGE_H * 3);
        char path[4096];
        snprintf(path, sizeof path, "%s/%d.png", dir, page);
        ok = stbi_write_png(path, PAGE_W, PAGE_H, 3, px, PAGE_W * 3) != 0;
        CHECK(s, ok, "cannot write %s", path);
    }
    free(px);
    return ok;
}

static Image render_pose(CheckState *s, const char *exe, const char *out, const char *book,
                         const char *quality, const char *name, const char *curl, const char *grab)
{
    char png[4096];
    snprintf(png, sizeof png, "%s/%s-%s.png", out, name, quality);
    const char *args[] = {"--headless", "--validation", "--book",       book, "--page", "3",
                          "--curl",     curl,           "--grab",       grab, "--size", "1280x720",
                          "--quality",  quality,        "--screenshot", png,  NULL};
    Run r = run_program(exe, out, NULL, args);
    CHECK(s, r.status == 0, "%s %s: exit %d: %s", name, quality, r.status, r.err);
    Image img = image_load(png);
    CHECK(s, img.rgba != NULL, "cannot read %s", png);
    return img;
}

static Image render(CheckState *s, const char *exe, const char *out, const char *book,
                    const char *quality, const char *name)
{
    return render_pose(s, exe, out, book, quality, name, "0.3", "0.3");
}

static int green(const Image *img, int x, int y)
{
    return img->rgba[((size_t)y * (size_t)img->w + (size_t)x) * 4 + 1];
}

static bool is_page(const Image *blank, const Image *grey, int x, int y)
{
    return y >= 0 && y < blank->h && abs(green(blank, x, y) - green(grey, x, y)) > 8;
}

/* The rightmost run of the grey page's pixels in row y, less its anti-aliased ends; pixels
 * within EDGE_PX of its head or foot (blended with the block's edge) are not the page's. */
#define EDGE_PX 3
static bool page_run(const Image *blank, const Image *grey, int y, int *x0, int *x1)
{
    int end = -1, start = -1;
    for (int x = blank->w - 1; x >= 0; x--) {
        bool page = is_page(blank, grey, x, y) && is_page(blank, grey, x, y - EDGE_PX) &&
                    is_page(blank, grey, x, y + EDGE_PX);
        if (page && end < 0)
            end = x;
        if (!page && end >= 0) {
            start = x + 1;
            break;
        }
    }
    if (end < 0)
        return false;
    if (start < 0)
        start = 0;
    *x0 = start + 2;
    *x1 = end - 2;
    return *x1 - *x0 > 40;
}

typedef struct RowStats {
    int width;   /* the ramp's pixels from the umbra to the lit paper; 0: no shadow */
    int step;    /* the largest step off a flat run to the pixel next to it */
    int reverse; /* the most the ramp falls back from one pixel to the next */
} RowStats;

static RowStats row_stats(const Image *img, int y, int x0, int x1)
{
    RowStats st = {0, 0, 0};
    int lo = 255, hi = 0;
    for (int x = x0; x <= x1; x++) {
        int v = green(img, x, y);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (hi - lo < SHADOW_DEPTH)
        return st;
    /* the ramp: from the last umbra pixel to the first lit one after it */
    int umbra = x0;
    for (int x = x0; x <= x1; x++)
        if (green(img, x, y) <= lo + SETTLE)
            umbra = x;
    int lit = x1;
    for (int x = umbra; x <= x1; x++)
        if (green(img, x, y) >= hi - SETTLE) {
            lit = x;
            break;
        }
    st.width = lit - umbra;
    for (int x = umbra; x < lit; x++) {
        int fall = green(img, x, y) - green(img, x + 1, y);
        st.reverse = fall > st.reverse ? fall : st.reverse;
    }
    /* each flat run's step to the pixel on either side: a band's edge is a flat run's abrupt end */
    int run_start = x0;
    for (int x = x0 + 1; x <= x1 + 1; x++) {
        if (x <= x1 && green(img, x, y) == green(img, run_start, y))
            continue;
        int v = green(img, run_start, y);
        if (x - run_start >= FLAT_PX) {
            int before = run_start > x0 ? abs(v - green(img, run_start - 1, y)) : 0;
            int after = x <= x1 ? abs(v - green(img, x, y)) : 0;
            int step = before > after ? before : after;
            st.step = step > st.step ? step : st.step;
        }
        run_start = x;
    }
    return st;
}

static void check_tier(CheckState *s, const char *exe, const char *out, const char *quality,
                       bool verbose)
{
    char blank_dir[4096], grey_dir[4096];
    snprintf(blank_dir, sizeof blank_dir, "%s/blank", out);
    snprintf(grey_dir, sizeof grey_dir, "%s/grey", out);
    Image blank = render(s, exe, out, blank_dir, quality, "blank");
    Image grey = render(s, exe, out, grey_dir, quality, "grey");
    if (!blank.rgba || !grey.rgba || blank.w != grey.w || blank.h != grey.h) {
        CHECK(s, false, "%s: no pair of pictures to compare", quality);
        image_free(&blank);
        image_free(&grey);
        return;
    }
    int soft = 0, banded = 0, grainy = 0, worst_step = 0, worst_reverse = 0;
    int narrowest = 1 << 30, *widths = calloc((size_t)blank.h, sizeof *widths);
    for (int y = 0; y < blank.h; y++) {
        int x0, x1;
        if (!page_run(&blank, &grey, y, &x0, &x1))
            continue;
        RowStats st = row_stats(&blank, y, x0, x1);
        if (st.width > 0 && st.width < narrowest)
            narrowest = st.width;
        if (st.width < CONTACT_PX)
            continue;
        if (widths)
            widths[soft] = st.width;
        soft++;
        banded += st.step > MAX_STEP;
        grainy += st.reverse > 1;
        worst_step = st.step > worst_step ? st.step : worst_step;
        worst_reverse = st.reverse > worst_reverse ? st.reverse : worst_reverse;
        if (verbose)
            printf("%s y=%d x=%d..%d ramp %d px, step %d, reverse %d\n", quality, y, x0, x1,
                   st.width, st.step, st.reverse);
    }
    /* the leaf rises towards the corner held low on the free edge: the shadow softens down */
    double upper = 0.0, lower = 0.0;
    int third = soft / 3;
    for (int i = 0; widths && i < third; i++) {
        upper += widths[i] / (double)third;
        lower += widths[soft - 1 - i] / (double)third;
    }
    free(widths);
    printf("%s: %d rows with a soft shadow, %d banded (worst step %d/255), %d turning back "
           "(worst %d/255); ramp %.1f px in the upper third, %.1f in the lower, narrowest %d\n",
           quality, soft, banded, worst_step, grainy, worst_reverse, upper, lower, narrowest);
    CHECK(s, lower > upper + 2.0, "%s: the penumbra does not widen where the leaf rises", quality);
    CHECK(s, soft >= MIN_ROWS, "%s: only %d rows with a soft shadow", quality, soft);
    CHECK(s, banded == 0, "%s: %d rows banded, flat runs up to %d/255 apart", quality, banded,
          worst_step);
    CHECK(s, grainy == 0, "%s: %d rows where the ramp turns back, by up to %d/255", quality, grainy,
          worst_reverse);
    image_free(&blank);
    image_free(&grey);
}

/* The contact shadow along a fold (issue 27): at --curl 0.85 --grab 0.1 the leaf rolls up near
 * the spine, its fold a little off the spine's direction, and its shadow's edge on the page next
 * to it runs almost along the shadow map's columns. Row by row, where that edge crosses
 * CONTACT_DROP under the lit paper beside it must move on smoothly: by at most CONTACT_MOVE px
 * from one row to the next and staying put (within 0.05 px) for at most CONTACT_STILL rows. The
 * low tier's 512^2 map, whose texels the outline covered whole or not at all, put it in blocks:
 * steps of up to 1.3 px after runs of up to 23 rows (now 0.43 px and 7 rows; the high tier 0.57
 * and 8). */
#define CONTACT_DROP  30
#define CONTACT_MOVE  0.8
#define CONTACT_STILL 12
/* The lit paper beside the shadow, this far into the page from the leaf; rows this near the
 * first or the last with a contact shadow are left out. */
#define CONTACT_LIT_PX 60
#define CONTACT_END_PX 24

static void check_contact(CheckState *s, const char *exe, const char *out, const char *quality)
{
    char blank_dir[4096], grey_dir[4096];
    snprintf(blank_dir, sizeof blank_dir, "%s/blank", out);
    snprintf(grey_dir, sizeof grey_dir, "%s/grey", out);
    Image blank = render_pose(s, exe, out, blank_dir, quality, "contact-blank", "0.85", "0.1");
    Image grey = render_pose(s, exe, out, grey_dir, quality, "contact-grey", "0.85", "0.1");
    if (!blank.rgba || !grey.rgba || blank.w != grey.w || blank.h != grey.h) {
        CHECK(s, false, "%s contact: no pair of pictures to compare", quality);
        image_free(&blank);
        image_free(&grey);
        return;
    }
    /* the edge's place in each row, or -1 */
    double *at = malloc((size_t)blank.h * sizeof *at);
    int first = -1, last = -1;
    for (int y = 0; at && y < blank.h; y++) {
        at[y] = -1.0;
        int x0, x1;
        if (!page_run(&blank, &grey, y, &x0, &x1) || x1 - x0 < CONTACT_LIT_PX)
            continue;
        int lit_x = x0 + CONTACT_LIT_PX, t = green(&blank, lit_x, y) - CONTACT_DROP;
        for (int x = lit_x; x > x0; x--) {
            int a = green(&blank, x - 1, y), b = green(&blank, x, y);
            if (a < t && t <= b) {
                at[y] = x - 1 + (double)(t - a) / (double)(b - a);
                first = first < 0 ? y : first;
                last = y;
                break;
            }
        }
    }
    /* away from the page's head and foot, where the shadow's edge turns along them */
    int rows = 0, still = 1, longest = 1, jumps = 0;
    double worst = 0.0;
    for (int y = first + CONTACT_END_PX; at && first >= 0 && y <= last - CONTACT_END_PX; y++) {
        if (at[y] < 0.0)
            continue;
        rows++;
        if (at[y - 1] < 0.0)
            continue;
        double move = fabs(at[y] - at[y - 1]);
        worst = move > worst ? move : worst;
        jumps += move > CONTACT_MOVE;
        still = move < 0.05 ? still + 1 : 1;
        longest = still > longest ? still : longest;
    }
    free(at);
    printf("%s contact: %d rows along the fold, the shadow's edge moving at most %.2f px a row "
           "(%d rows over %.1f), still for at most %d rows\n",
           quality, rows, worst, jumps, CONTACT_MOVE, longest);
    CHECK(s, rows >= MIN_ROWS, "%s contact: only %d rows with a contact shadow", quality, rows);
    CHECK(s, jumps == 0,
          "%s contact: the shadow's edge steps by up to %.2f px from a row to the next", quality,
          worst);
    CHECK(s, longest <= CONTACT_STILL, "%s contact: the shadow's edge stays put for %d rows",
          quality, longest);
    image_free(&blank);
    image_free(&grey);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    RunArgs args;
    if (!run_test_args(argc, argv, "test_shadow", &args))
        return 2;
    const char *exe = args.exe, *out = args.out;
    bool verbose = args.verbose;
    char blank_dir[4096], grey_dir[4096];
    snprintf(blank_dir, sizeof blank_dir, "%s/blank", out);
    snprintf(grey_dir, sizeof grey_dir, "%s/grey", out);
    if (write_book(&s, blank_dir, 255) && write_book(&s, grey_dir, 128)) {
        check_tier(&s, exe, out, "low", verbose);
        check_tier(&s, exe, out, "high", verbose);
        check_contact(&s, exe, out, "low");
        check_contact(&s, exe, out, "high");
    }
    return check_finish(&s, "test_shadow");
}
