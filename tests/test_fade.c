/* SPDX-License-Identifier: MIT */
/* Reduced motion's cross-fade (--reduced-motion, issue 28), at both tiers: the book rendered at
 * the fade's start, middle and end (--curl 0, 0.5, 1). The ends must differ (two spreads), the
 * middle must be their blend in linear light within TOL levels a channel (the sRGB target blends
 * so), and where the ends agree (the backdrop, the blocks' edges) the middle must too: no leaf in
 * the air, no camera that moved. Opening the closed book (--page 1), the left page fades in over
 * the backdrop.
 * usage: test_fade PAGECURL OUT_DIR [--verbose] */
#include "check.h"
#include "image.h"
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 3 /* levels: the 8-bit rounding of three pictures and of the blend */
/* The ends differ on at least this share of the pixels by at least DIFFER levels: two spreads
 * (the built-in book's middle pages differ in their print, 0.4-0.6 % of a 480x300 picture). */
#define DIFFER       40
#define DIFFER_SHARE 0.002

static double linear(int v)
{
    double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static int encoded(double l)
{
    double c = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
    return (int)lrint(fmin(fmax(c, 0.0), 1.0) * 255.0);
}

static Image render(CheckState *s, const RunArgs *a, const char *quality, const char *page,
                    const char *t)
{
    char png[4096];
    snprintf(png, sizeof png, "%s/fade-%s-p%s-%s.png", a->out, quality, page, t);
    const char *args[] = {"--headless",
                          "--validation",
                          "--reduced-motion",
                          "--curl",
                          t,
                          "--page",
                          page,
                          "--size",
                          "480x300",
                          "--quality",
                          quality,
                          "--screenshot",
                          png,
                          NULL};
    Run r = run_program(a->exe, a->out, NULL, args);
    CHECK(s, r.status == 0, "%s page %s fade %s: exit %d: %s", quality, page, t, r.status, r.err);
    Image img = image_load(png);
    CHECK(s, img.rgba != NULL, "cannot read %s", png);
    return img;
}

static void check_fade(CheckState *s, const RunArgs *a, const char *quality, const char *page)
{
    Image from = render(s, a, quality, page, "0"), mid = render(s, a, quality, page, "0.5"),
          to = render(s, a, quality, page, "1");
    if (!from.rgba || !mid.rgba || !to.rgba || from.w != to.w || from.w != mid.w ||
        from.h != to.h || from.h != mid.h) {
        CHECK(s, false, "%s page %s: pictures missing or of other sizes", quality, page);
        goto done;
    }
    size_t n = (size_t)from.w * (size_t)from.h, differ = 0, off = 0, moved = 0;
    int worst = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = from.rgba + 4 * i, *q = to.rgba + 4 * i, *m = mid.rgba + 4 * i;
        int most = 0, gap = 0;
        for (int c = 0; c < 3; c++) {
            int want = encoded(0.5 * linear(p[c]) + 0.5 * linear(q[c]));
            int e = abs(m[c] - want);
            most = e > most ? e : most;
            gap = abs(p[c] - q[c]) > gap ? abs(p[c] - q[c]) : gap;
            moved += p[c] == q[c] && abs(m[c] - p[c]) > 1 && c == 0;
        }
        differ += gap >= DIFFER;
        off += most > TOL;
        worst = most > worst ? most : worst;
    }
    double off_share = (double)off / (double)n;
    printf("fade %s page %s: ends differ on %.1f%% of pixels; the middle off their blend by more "
           "than %d on %zu (%.3f%%, worst %d); %zu pixel(s) the ends agree on changed\n",
           quality, page, 100.0 * (double)differ / (double)n, TOL, off, 100.0 * off_share, worst,
           moved);
    CHECK(s, (double)differ / (double)n >= DIFFER_SHARE,
          "%s page %s: the fade's ends differ on only %zu pixels: no turn", quality, page, differ);
    CHECK(s, off == 0, "%s page %s: mid-fade off the ends' blend on %zu pixels (worst %d levels)",
          quality, page, off, worst);
    CHECK(s, moved == 0, "%s page %s: %zu pixels the fade's ends agree on changed mid-fade",
          quality, page, moved);
done:
    image_free(&from);
    image_free(&mid);
    image_free(&to);
}

int main(int argc, char **argv)
{
    RunArgs a;
    if (!run_test_args(argc, argv, "test_fade", &a))
        return 2;
    CheckState s = {0};
    check_fade(&s, &a, "low", "3");
    check_fade(&s, &a, "high", "3");
    check_fade(&s, &a, "low", "1");
    return check_finish(&s, "test_fade");
}
