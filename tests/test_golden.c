/* SPDX-License-Identifier: MIT */
/* Screenshot regression: canonical poses rendered headless at 640x480 on lavapipe, compared with
 * the goldens in tests/golden/. The comparison is tolerant in one documented way: a pixel differs
 * when any channel differs by more than GOLDEN_CHANNEL_SLACK of 255, and a pose fails when more
 * than GOLDEN_MAX_DIFFERING of its pixels differ. On a failure the actual image, the expected one
 * and a diff (differing pixels red over a dimmed expected image) are written next to each other
 * in the output folder, and their paths printed.
 * usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update | --report] [--no-validation]
 *        [--low | --reference BUTTERAUGLI]
 * The goldens are the high quality tier's (--quality high: lavapipe, a CPU device, would pick the
 * low one). --low checks the low tier instead: fewer poses, against their own goldens in
 * GOLDEN_DIR/low/ with the same tolerance, and against the high tier's goldens of the same poses
 * with the tiers' tolerance (TIER_CHANNEL_SLACK, TIER_MAX_DIFFERING), with edges anti-aliased as
 * the high tier's are (edge_smoothness).
 * --reference measures both tiers' goldens against the reference tier (--quality reference) with
 * Butteraugli's tool, a perceptual distance (check_reference).
 * --update rewrites the goldens from this build (on purpose only: `cmake --build --preset default
 * --target update-goldens`); CI never passes it. --report compares every pose and prints one
 * line per pose (key=value: differing pixels, largest channel difference) without failing on a
 * difference: for another device than lavapipe, e.g. a GPU machine with no validation layer
 * (--no-validation). */
#include "../pages/typeface.h"
#include "../tools/photo.h"
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GOLDEN_W 640
#define GOLDEN_H 480
/* lavapipe renders the same bytes run after run (checked below); the slack is for a driver
 * update's rounding, not for noise. 8/255 hides rounding, not a moved edge. */
#define GOLDEN_CHANNEL_SLACK 8
/* 0.1 % of the image: a few anti-aliased edge pixels may move, a page may not. */
#define GOLDEN_MAX_DIFFERING (GOLDEN_W * GOLDEN_H / 1000)
/* The low tier against the high one: edges anti-aliased another way, a coarser penumbra. At most
 * 2 % of the pixels may differ by more than 24/255 (issue 17's bound on the look). */
#define TIER_CHANNEL_SLACK 24
#define TIER_MAX_DIFFERING (GOLDEN_W * GOLDEN_H / 50)
/* Of the pixels between the backdrop and the paper, the low tier's share of intermediate ones
 * (edge_smoothness) must be at least this part of the high tier's: its outline is anti-aliased. */
#define TIER_MIN_SMOOTHNESS 0.4
/* ...where the high tier's picture has at least this many such pixels off the rows and columns. */
#define TIER_MIN_OUTLINE 50

typedef struct Pose {
    const char *name;
    const char *curl, *grab;
    const char *extra[3]; /* more flags for this pose, NULL-terminated */
    bool ink;             /* with the strokes of GOLDEN_DIR/ink.notebook */
    const char *size;     /* NULL: GOLDEN_W x GOLDEN_H; else as many pixels the other way */
    bool photos;          /* the photo book OUT_DIR/photo-book (write_photo_book) */
} Pose;

/* Flat, corner grabs at the bottom, middle and top of the free edge at 25, 50 and 75 % of the
 * turn (the middle one is the cylinder), fully turned (the back lies flat on the left), a very
 * tight roll (a crease), the back curling towards the viewer with its text, and a backward turn
 * (the left page's leaf lifting, its front curling up, the back of the leaf before uncovered). */
static const Pose POSES[] = {
    {"flat", "0", "0.25", {NULL}, false, NULL, false},
    {"bottom-25", "0.25", "0", {NULL}, false, NULL, false},
    {"bottom-50", "0.5", "0", {NULL}, false, NULL, false},
    {"bottom-75", "0.75", "0", {NULL}, false, NULL, false},
    {"middle-25", "0.25", "0.5", {NULL}, false, NULL, false},
    {"middle-50", "0.5", "0.5", {NULL}, false, NULL, false},
    {"middle-75", "0.75", "0.5", {NULL}, false, NULL, false},
    {"top-25", "0.25", "1", {NULL}, false, NULL, false},
    {"top-50", "0.5", "1", {NULL}, false, NULL, false},
    {"top-75", "0.75", "1", {NULL}, false, NULL, false},
    {"turned", "1", "0.25", {NULL}, false, NULL, false},
    {"tight-radius", "0.35", "0.3", {"--radius", "0.02", NULL}, false, NULL, false},
    {"back-facing", "0.85", "0.5", {NULL}, false, NULL, false},
    {"backward-40", "0.4", "0.25", {"--backward", NULL}, false, NULL, false},
    /* A book bound on the right (--rtl): the whole spread mirrored, its text not; the leaf turns
     * from the left over the spine to the right. */
    {"rtl-40", "0.4", "0.25", {"--rtl", NULL}, false, NULL, false},
    /* A hard cover (--cover hard): the first leaf turns as a rigid board, its cut edges showing. */
    {"hard-cover-60", "0.6", "0.25", {"--cover", "hard", NULL}, false, NULL, false},
    /* A portrait view (the default layout there: one page), the leaf lifting off to the left. */
    {"single-portrait-40", "0.4", "0.25", {NULL}, false, "480x640", false},
    /* Ink (tests/golden/ink.notebook): strokes on the flat front of leaf 0, on it and its back
     * as it curls (the back's arrow bent over the roll), and on the back curling towards the
     * viewer with leaf 1's front uncovered beside it. */
    {"ink-flat", "0", "0.25", {NULL}, true, NULL, false},
    {"ink-curl", "0.45", "0.2", {NULL}, true, NULL, false},
    {"ink-back", "0.85", "0.5", {NULL}, true, NULL, false},
    /* A book of photos (--book, write_photo_book): the spread 2 | 3, the right leaf turning, its
     * landscape pages fitted with a margin on the leaf of the portrait first page. */
    {"photo-book-40", "0.4", "0.25", {"--page", "3", NULL}, false, NULL, true},
};

/* The photo book's pages: the first portrait (3:4), the others landscape (3:2) photo-like
 * scenes: the leaf takes the shape most pages have (landscape) and the portrait first page is
 * fitted in it with a margin; written by this test, PNGs in natural name order. */
#define PHOTO_PAGES 6

static void write_photo_book(CheckState *s, const char *out_dir)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/photo-book", out_dir);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        CHECK(s, false, "cannot make %s", dir);
    for (int page = 1; page <= PHOTO_PAGES; page++) {
        int w = page == 1 ? 600 : 720, h = page == 1 ? 800 : 480;
        unsigned char *rgb = malloc((size_t)w * h * 3);
        char path[640];
        snprintf(path, sizeof path, "%s/page-%d.png", dir, page);
        if (rgb)
            photo_draw((unsigned)page, w, h, rgb, 3 * w);
        CHECK(s, rgb && stbi_write_png(path, w, h, 3, rgb, 3 * w), "cannot write %s", path);
        free(rgb);
    }
}

/* The poses of the low tier's own goldens (GOLDEN_DIR/low/): flat, a curl of each kind, turned,
 * the crease, the back towards the viewer, a backward turn, a book bound on the right, a hard
 * cover, a portrait view's one page (whose spine side is an edge of the book) and ink on a
 * curl. */
static const char *const LOW_POSES[] = {
    "flat",   "bottom-50",     "middle-50",          "top-75",
    "turned", "tight-radius",  "back-facing",        "backward-40",
    "rtl-40", "hard-cover-60", "single-portrait-40", "ink-curl"};

static const Pose *pose_named(const char *name)
{
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++)
        if (!strcmp(POSES[i].name, name))
            return &POSES[i];
    return NULL;
}

/* `quality`: the tier's --quality value, with any more flags after it (NULL-terminated). */
/* `env`: the environment variable to set or unset for it (run_program); the faces at Debian's
 * paths, which the goldens were drawn with (face_pinned), unless a test says otherwise. */
static bool render_env(CheckState *s, const char *exe, const char *golden_dir, const char *dir,
                       const Pose *p, bool validation, const char *path, const char *const *quality,
                       const char *env, Run *out)
{
    const char *args[24] = {"--headless", "--size",       p->size ? p->size : "640x480",
                            "--curl",     p->curl,        "--grab",
                            p->grab,      "--screenshot", path};
    int n = 9;
    for (int i = 0; quality[i]; i++)
        args[n++] = quality[i];
    if (validation)
        args[n++] = "--validation";
    char notebook[512];
    if (p->ink) {
        /* read only: a notebook is written back only when its strokes change */
        snprintf(notebook, sizeof notebook, "%s/ink.notebook", golden_dir);
        args[n++] = "--notebook";
        args[n++] = notebook;
    }
    char book[512];
    if (p->photos) {
        snprintf(book, sizeof book, "%s/photo-book", dir);
        args[n++] = "--book";
        args[n++] = book;
    }
    for (int i = 0; p->extra[i]; i++)
        args[n++] = p->extra[i];
    args[n] = NULL;
    Run r = run_program(exe, dir, env, args);
    CHECK(s, r.status == 0, "render %s (--curl %s --grab %s): exit %d: %s", p->name, p->curl,
          p->grab, r.status, r.err);
    if (out)
        *out = r;
    return r.status == 0;
}

static bool render_as(CheckState *s, const char *exe, const char *golden_dir, const char *dir,
                      const Pose *p, bool validation, const char *path, const char *const *quality)
{
    return render_env(s, exe, golden_dir, dir, p, validation, path, quality, PAGES_TYPEFACE_DIR_ENV,
                      NULL);
}

static const char *const HIGH[] = {"--quality", "high", NULL};
static const char *const LOW[] = {"--quality", "low", NULL};

static bool render(CheckState *s, const char *exe, const char *golden_dir, const char *dir,
                   const Pose *p, bool validation, const char *path)
{
    return render_as(s, exe, golden_dir, dir, p, validation, path, HIGH);
}

/* How far two pictures may differ: `limit` pixels may have a channel off by more than `slack`. */
typedef struct Tolerance {
    int slack;
    long limit;
} Tolerance;

static const Tolerance GOLDEN = {GOLDEN_CHANNEL_SLACK, GOLDEN_MAX_DIFFERING};
static const Tolerance TIER = {TIER_CHANNEL_SLACK, TIER_MAX_DIFFERING};

/* Pixels that differ beyond the slack; with `diff`, also the picture of where; with `max`, the
 * largest difference of any channel. */
static long differing(const Image *a, const Image *b, int slack, unsigned char *diff, int *max)
{
    long count = 0;
    for (long i = 0; i < (long)a->w * a->h; i++) {
        const unsigned char *p = &a->rgba[4 * i], *q = &b->rgba[4 * i];
        bool off = false;
        for (int c = 0; c < 3; c++) {
            int d = abs(p[c] - q[c]);
            off |= d > slack;
            if (max && d > *max)
                *max = d;
        }
        count += off;
        if (diff) {
            unsigned char *d = &diff[4 * i];
            d[0] = off ? 255 : q[0] / 3, d[1] = off ? 0 : q[1] / 3, d[2] = off ? 0 : q[2] / 3;
            d[3] = 255;
        }
    }
    return count;
}

/* Copies `from` to `to`, only its first `limit` bytes when that is not 0. */
static bool copy_head(const char *from, const char *to, long limit)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[1 << 16];
    size_t n, left = limit ? (size_t)limit : (size_t)-1;
    while (ok && left && (n = fread(buf, 1, left < sizeof buf ? left : sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n, left -= n;
    if (in)
        fclose(in);
    if (out)
        ok = fclose(out) == 0 && ok;
    return ok;
}

static bool copy_file(const char *from, const char *to)
{
    return copy_head(from, to, 0);
}

/* Compares pose `name`'s actual image with its golden; on failure writes the expected image and
 * the diff beside the actual one.
 * `report`: a difference beyond the tolerance fails the test. -1 when an image is missing. */
static long compare_pose(CheckState *s, const char *golden_dir, const char *name,
                         const char *actual_path, bool report, int *max, Tolerance tol)
{
    char golden_path[512], expected_path[512], diff_path[512];
    snprintf(golden_path, sizeof golden_path, "%s/%s.png", golden_dir, name);
    Image want = image_load(golden_path), got = image_load(actual_path);
    long count = -1;
    if (!want.rgba || !got.rgba || want.w != got.w || want.h != got.h) {
        CHECK(s, !report, "%s: golden %s (%dx%d) or actual %s (%dx%d) missing or mismatched", name,
              golden_path, want.w, want.h, actual_path, got.w, got.h);
    } else {
        unsigned char *diff = malloc((size_t)got.w * got.h * 4);
        count = differing(&got, &want, tol.slack, diff, max);
        if (report && count > tol.limit) {
            /* named after the actual picture: two comparisons of one pose keep both */
            int stem = (int)strlen(actual_path) - 4; /* less ".png" */
            snprintf(expected_path, sizeof expected_path, "%.*s-expected.png", stem, actual_path);
            snprintf(diff_path, sizeof diff_path, "%.*s-diff.png", stem, actual_path);
            copy_file(golden_path, expected_path);
            if (diff)
                stbi_write_png(diff_path, got.w, got.h, 4, diff, got.w * 4);
            fprintf(stderr,
                    "%s: %ld pixels differ (at most %ld): actual %s, expected %s, diff %s\n", name,
                    count, tol.limit, actual_path, expected_path, diff_path);
        }
        if (report)
            CHECK(s, count <= tol.limit, "%s: %ld pixels differ from %s", name, count, golden_path);
        free(diff);
    }
    image_free(&want);
    image_free(&got);
    return count;
}

/* A replayed drag that holds the leaf curled (its bottom corner lifted over the page), with or
 * without a dot of ink drawn at a window point on the curled leaf's back, rendered to `png`. */
static bool render_held(CheckState *s, const char *exe, const char *dir, bool validation, bool dot,
                        double x, double y, const char *png)
{
    char trace[512];
    snprintf(trace, sizeof trace, "%s/%s.trace", dir, dot ? "ink-dot" : "ink-none");
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return false;
    fprintf(f, "0.00 mouse down 0.66 0.83\n0.10 mouse move 0.62 0.77\n"
               "0.20 mouse move 0.58 0.71\n0.30 mouse move 0.54 0.66\n");
    if (dot)
        fprintf(f, "0.40 ink down %.4f %.4f\n0.42 ink up %.4f %.4f\n", x, y, x, y);
    fclose(f);
    /* the same frames either way: the pose is that of the held drag at the last one. The held
     * view is still from the drag's last move (0.30 s) on, so the dot comes at 0.40 s and the
     * replay ends 28 frames in (0.45 s), after its up: the pictures are those of a dot at 0.60 s
     * and 60 frames, pixel for pixel, with and without it */
    const char *args[] = {"--headless", "--size",    "640x480", "--replay",
                          trace,        "--frames",  "28",      "--screenshot",
                          png,          "--quality", "high",    validation ? "--validation" : NULL,
                          NULL};
    Run r = run_program(exe, dir, PAGES_TYPEFACE_DIR_ENV, args);
    CHECK(s, r.status == 0, "replaying %s: exit %d: %s", trace, r.status, r.err);
    return r.status == 0;
}

/* Drawing on a curled page lands under the pointer: the dot the trace draws on the lifted leaf
 * darkens the picture around the window point it was drawn at, and nowhere else. The centre of
 * the darkening (weighted by how much darker) must be within 1.5 pixels of the point. */
static void check_ink_under_pointer(CheckState *s, const char *exe, const char *out_dir,
                                    bool validation)
{
    const double x = 0.57, y = 0.70; /* on the leaf's back, lifted over the page */
    char with[512], without[512];
    snprintf(with, sizeof with, "%s/ink-dot.png", out_dir);
    snprintf(without, sizeof without, "%s/ink-none.png", out_dir);
    if (!render_held(s, exe, out_dir, validation, true, x, y, with) ||
        !render_held(s, exe, out_dir, validation, false, x, y, without))
        return;
    Image a = image_load(with), b = image_load(without);
    CHECK(s, a.rgba && b.rgba && a.w == GOLDEN_W && b.w == GOLDEN_W && a.h == b.h,
          "cannot read %s or %s", with, without);
    if (a.rgba && b.rgba && a.w == b.w && a.h == b.h) {
        double px = x * a.w, py = y * a.h, sx = 0, sy = 0, sw = 0, far = 0;
        long darker = 0;
        for (long i = 0; i < (long)a.w * a.h; i++) {
            int d = 0;
            for (int c = 0; c < 3; c++)
                d += b.rgba[4 * i + c] - a.rgba[4 * i + c];
            if (abs(d) <= 6)
                continue; /* not touched by the dot */
            double cx = i % a.w + 0.5, cy = i / a.w + 0.5;
            darker += d > 0;
            sx += d * cx, sy += d * cy, sw += d;
            double r = hypot(cx - px, cy - py);
            far = r > far ? r : far;
        }
        double ex = sw > 0 ? sx / sw - px : 1e9, ey = sw > 0 ? sy / sw - py : 1e9;
        printf("ink dot: %ld pixels darker, centre %+.2f %+.2f px from the pointer, farthest "
               "%.1f px\n",
               darker, ex, ey, far);
        CHECK(s, darker >= 3, "the ink dot did not show (%ld pixels darker)", darker);
        CHECK(s, hypot(ex, ey) <= 1.5,
              "the ink dot's centre is %.2f, %.2f px from the pointer (at most 1.5)", ex, ey);
        CHECK(s, far <= 8.0, "the ink changed a pixel %.1f px from the pointer", far);
    }
    image_free(&a);
    image_free(&b);
}

/* Of the pixels lying between the backdrop (the top-left pixel's colour) and the paper (a
 * neighbour on one side the backdrop, the one opposite much brighter), the share that is neither:
 * the outline's anti-aliased pixels. Without anti-aliasing such a pixel is one or the other.
 * Where the outline runs straight along a row or a column (a still page seen face-on: the pixels
 * before and after along it covered alike) it cannot stair-step, and whether its pixels are
 * intermediate says only where the edge falls within them: those are not counted. */
static double edge_smoothness(const Image *img, long *between)
{
    const unsigned char *bg = img->rgba;
    int bg_luma = (bg[0] + bg[1] + bg[2]) / 3;
    long smooth = 0;
    *between = 0;
    for (int y = 1; y + 1 < img->h; y++) {
        for (int x = 1; x + 1 < img->w; x++) {
            const unsigned char *p = &img->rgba[4 * ((long)y * img->w + x)];
            int luma = (p[0] + p[1] + p[2]) / 3;
            const long step[2] = {4, 4 * (long)img->w}; /* across, down */
            for (int k = 0; k < 2; k++) {
                const unsigned char *a = p - step[k], *b = p + step[k];
                for (int flip = 0; flip < 2; flip++) {
                    const unsigned char *dark = flip ? b : a, *light = flip ? a : b;
                    bool backdrop =
                        abs(dark[0] - bg[0]) + abs(dark[1] - bg[1]) + abs(dark[2] - bg[2]) <= 9;
                    int light_luma = (light[0] + light[1] + light[2]) / 3;
                    if (!backdrop || light_luma < bg_luma + 80)
                        continue;
                    double t = (double)(luma - bg_luma) / (light_luma - bg_luma);
                    /* straight along a row or column: the pixels before and after it along the
                     * edge covered alike, the backdrop on the same side */
                    const long along = step[1 - k];
                    bool straight = true;
                    for (int e = -1; e <= 1; e += 2) {
                        const unsigned char *q = p + e * along, *qd = dark + e * along,
                                            *ql = light + e * along;
                        int q_luma = (q[0] + q[1] + q[2]) / 3,
                            q_light = (ql[0] + ql[1] + ql[2]) / 3;
                        bool q_backdrop =
                            abs(qd[0] - bg[0]) + abs(qd[1] - bg[1]) + abs(qd[2] - bg[2]) <= 9;
                        double tq = q_light > bg_luma + 80
                                        ? (double)(q_luma - bg_luma) / (q_light - bg_luma)
                                        : -1.0;
                        straight = straight && q_backdrop && fabs(tq - t) <= 0.05;
                    }
                    if (straight)
                        continue;
                    (*between)++;
                    smooth += t > 0.15 && t < 0.85;
                }
            }
        }
    }
    return *between ? (double)smooth / (double)*between : 0.0;
}

/* The outline smoothness of the picture at `actual` (`smooth`, of `n` pixels) and of the high
 * tier's golden of pose `name` (`high`, of `high_n`); a picture that cannot be read scores 0. */
static void smoothness_of(const char *actual, const char *golden_dir, const char *name,
                          double *smooth, long *n, double *high, long *high_n)
{
    char high_path[512];
    snprintf(high_path, sizeof high_path, "%s/%s.png", golden_dir, name);
    Image a = image_load(actual), h = image_load(high_path);
    *n = *high_n = 0;
    *smooth = a.rgba ? edge_smoothness(&a, n) : 0.0;
    *high = h.rgba ? edge_smoothness(&h, high_n) : 0.0;
    image_free(&a);
    image_free(&h);
}

/* The low tier: each of LOW_POSES against its own golden (GOLDEN_DIR/low/, or rewritten there with
 * `update`) and against the high tier's golden with the tiers' tolerance and an outline as
 * smooth; then that both checks can fail. */
static void check_low(CheckState *s, const char *exe, const char *golden_dir, const char *out_dir,
                      bool validation, bool update)
{
    char low_dir[512];
    snprintf(low_dir, sizeof low_dir, "%s/low", golden_dir);
    if (update && mkdir(low_dir, 0755) != 0 && errno != EEXIST)
        CHECK(s, false, "cannot make %s", low_dir);
    long worst = -1;
    const char *worst_name = "";
    int worst_max = 0;
    for (size_t i = 0; i < sizeof LOW_POSES / sizeof LOW_POSES[0]; i++) {
        const Pose *p = pose_named(LOW_POSES[i]);
        char actual[512];
        snprintf(actual, sizeof actual, "%s/low-%s.png", out_dir, p->name);
        if (!render_as(s, exe, golden_dir, out_dir, p, validation, actual, LOW))
            continue;
        if (update) {
            char golden[640];
            snprintf(golden, sizeof golden, "%s/%s.png", low_dir, p->name);
            CHECK(s, copy_file(actual, golden), "cannot write %s", golden);
            printf("updated %s\n", golden);
            continue;
        }
        long own = compare_pose(s, low_dir, p->name, actual, true, NULL, GOLDEN);
        int max = 0;
        long tier = compare_pose(s, golden_dir, p->name, actual, true, &max, TIER);
        double low_smooth, high_smooth;
        long low_n, high_n;
        smoothness_of(actual, golden_dir, p->name, &low_smooth, &low_n, &high_smooth, &high_n);
        printf("low %-12s %ld pixels differ from its golden; against high: %ld pixels (%.2f %%) "
               "differ by more than %d/255, at most %d/255; outline smoothness %.2f of %ld pixels "
               "(high %.2f of %ld)\n",
               p->name, own, tier, 100.0 * (double)tier / (GOLDEN_W * GOLDEN_H), TIER_CHANNEL_SLACK,
               max, low_smooth, low_n, high_smooth, high_n);
        /* a still pose seen face-on has next to no outline off the rows and columns to judge */
        CHECK(s, high_n < TIER_MIN_OUTLINE || low_smooth >= TIER_MIN_SMOOTHNESS * high_smooth,
              "low %s: outline smoothness %.2f, under %.1f of the high tier's %.2f", p->name,
              low_smooth, TIER_MIN_SMOOTHNESS, high_smooth);
        if (tier > worst)
            worst = tier, worst_name = p->name, worst_max = max;
    }
    if (update)
        return;
    printf("low against high, the worst pair: %s, %ld pixels (%.2f %%) differ by more than %d/255 "
           "(at most %d allowed), at most %d/255\n",
           worst_name, worst, 100.0 * (double)worst / (GOLDEN_W * GOLDEN_H), TIER_CHANNEL_SLACK,
           TIER_MAX_DIFFERING, worst_max);
    /* The checks can fail: a render without anti-aliasing (the high tier without MSAA) is not as
     * smooth, and a pose a quarter of the turn further is not the high tier's middle-50. */
    const Pose *middle = pose_named("middle-50");
    char stepped[512];
    snprintf(stepped, sizeof stepped, "%s/stepped-middle-50.png", out_dir);
    const char *const aliased[] = {"--quality", "high", "--msaa", "1", NULL};
    if (render_as(s, exe, golden_dir, out_dir, middle, validation, stepped, aliased)) {
        double a_smooth, h_smooth;
        long a_n, h_n;
        smoothness_of(stepped, golden_dir, "middle-50", &a_smooth, &a_n, &h_smooth, &h_n);
        printf("without anti-aliasing: outline smoothness %.2f of %ld pixels (must be under %.1f "
               "of the high tier's %.2f)\n",
               a_smooth, a_n, TIER_MIN_SMOOTHNESS, h_smooth);
        CHECK(s, a_smooth < TIER_MIN_SMOOTHNESS * h_smooth,
              "a render without anti-aliasing passed as smooth (%.2f against %.2f)", a_smooth,
              h_smooth);
    }
    char further[512];
    snprintf(further, sizeof further, "%s/low-middle-75.png", out_dir);
    if (render_as(s, exe, golden_dir, out_dir, pose_named("middle-75"), validation, further, LOW)) {
        long count = compare_pose(s, golden_dir, "middle-50", further, false, NULL, TIER);
        printf("low middle-75 against high middle-50: %ld pixels differ (must exceed %d)\n", count,
               TIER_MAX_DIFFERING);
        CHECK(s, count > TIER_MAX_DIFFERING,
              "the low tier's middle-75 passed as the high tier's middle-50 (%ld pixels differ)",
              count);
    }
}

/* The reference tier's distance (Butteraugli's, as its tool prints it) from each tier's golden of
 * a pose, at most: under 1 no difference is seen, over 2 one plainly is. Each bound is the
 * distance measured when it was set (lavapipe, Mesa 22.3) plus 0.4 or more, rounded up to a half:
 * a change that moves a tier away from the reference fails it (docs/testing.md has the table). */
typedef struct ReferenceBound {
    const char *pose;
    double high, low;
} ReferenceBound;

static const ReferenceBound REFERENCE_BOUNDS[] = {
    {"flat", 2.5, 4.0},
    {"bottom-50", 3.5, 4.5},
    {"middle-50", 3.5, 6.5},
    {"top-75", 2.5, 4.0},
    {"turned", 2.5, 4.0},
    {"tight-radius", 3.5, 7.5},
    {"back-facing", 3.5, 7.5},
    {"backward-40", 3.5, 4.5},
    {"rtl-40", 4.0, 4.0},
    {"hard-cover-60", 7.0, 16.5},
    {"single-portrait-40", 3.5, 5.5},
    {"ink-curl", 3.5, 4.5},
};
/* A pose a quarter of the turn away is further than this from the reference's middle-50. */
#define REFERENCE_OTHER_POSE 20.0

/* Butteraugli's distance between two pictures; -1 where the tool fails. */
static double butteraugli(CheckState *s, const char *tool, const char *dir, const char *a,
                          const char *b)
{
    Run r = run_program(tool, dir, NULL, (const char *const[]){a, b, NULL});
    char *end = NULL;
    double d = strtod(r.out, &end);
    CHECK(s, r.status == 0 && end != r.out && d >= 0.0, "%s %s %s: exit %d: %s%s", tool, a, b,
          r.status, r.out, r.err);
    return r.status == 0 && end != r.out ? d : -1.0;
}

static const char *const REFERENCE[] = {"--quality", "reference", NULL};

/* --reference TOOL: the low tier's poses drawn by the reference tier, each tier's golden measured
 * against it with Butteraugli (TOOL), within the bounds above. */
static void check_reference(CheckState *s, const char *exe, const char *tool,
                            const char *golden_dir, const char *out_dir, bool validation)
{
    double worst_high = 0.0, worst_low = 0.0;
    for (size_t i = 0; i < sizeof REFERENCE_BOUNDS / sizeof REFERENCE_BOUNDS[0]; i++) {
        const ReferenceBound *bound = &REFERENCE_BOUNDS[i];
        const Pose *p = pose_named(bound->pose);
        char ref[512], high[512], low[512];
        snprintf(ref, sizeof ref, "%s/reference-%s.png", out_dir, p->name);
        snprintf(high, sizeof high, "%s/%s.png", golden_dir, p->name);
        snprintf(low, sizeof low, "%s/low/%s.png", golden_dir, p->name);
        if (!render_as(s, exe, golden_dir, out_dir, p, validation, ref, REFERENCE))
            continue;
        double h = butteraugli(s, tool, out_dir, ref, high);
        double l = butteraugli(s, tool, out_dir, ref, low);
        printf("reference %-18s high %.2f (at most %.1f), low %.2f (at most %.1f)\n", p->name, h,
               bound->high, l, bound->low);
        CHECK(s, h >= 0.0 && h <= bound->high,
              "%s: the high tier %.2f from the reference (at most %.1f)", p->name, h, bound->high);
        CHECK(s, l >= 0.0 && l <= bound->low,
              "%s: the low tier %.2f from the reference (at most %.1f)", p->name, l, bound->low);
        worst_high = h > worst_high ? h : worst_high;
        worst_low = l > worst_low ? l : worst_low;
    }
    printf("reference: worst high %.2f, worst low %.2f\n", worst_high, worst_low);
    /* The measure can fail: the high tier's golden of a pose a quarter of the turn further is
     * far from the reference's middle-50. */
    char ref[512], further[512];
    snprintf(ref, sizeof ref, "%s/reference-middle-50.png", out_dir);
    snprintf(further, sizeof further, "%s/middle-75.png", golden_dir);
    double d = butteraugli(s, tool, out_dir, ref, further);
    printf("high middle-75 against the reference's middle-50: %.2f (must exceed %.1f)\n", d,
           REFERENCE_OTHER_POSE);
    CHECK(s, d > REFERENCE_OTHER_POSE, "the high tier's middle-75 passed for middle-50 (%.2f)", d);
}

/* --report: every pose compared, one key=value line each, differences never fail. */
static void report_poses(CheckState *s, const char *exe, const char *golden_dir,
                         const char *out_dir, bool validation)
{
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++) {
        const Pose *p = &POSES[i];
        char actual[512];
        snprintf(actual, sizeof actual, "%s/%s.png", out_dir, p->name);
        if (!render(s, exe, golden_dir, out_dir, p, validation, actual))
            continue;
        int max = 0;
        /* not `report`: a missing golden shows as differing=-1, a difference fails nothing */
        long count = compare_pose(s, golden_dir, p->name, actual, false, &max, GOLDEN);
        printf("golden pose=%s differing=%ld max_channel_diff=%d pixels=%d slack=%d limit=%d "
               "within=%d\n",
               p->name, count, max, GOLDEN_W * GOLDEN_H, GOLDEN_CHANNEL_SLACK, GOLDEN_MAX_DIFFERING,
               count >= 0 && count <= GOLDEN_MAX_DIFFERING);
    }
}

/* The goldens' text is set in DejaVu Serif (Debian's fonts-dejavu-core): without it the program
 * falls back to stb_easy_font and every page would differ, so that is said in one line instead. */
static bool face_pinned(void)
{
    const char *const names[] = {PAGES_TYPEFACE_REGULAR, PAGES_TYPEFACE_BOLD};
    for (int i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", PAGES_TYPEFACE_DIR, names[i]);
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr,
                    "test_golden: the goldens are set in %s: %s (Debian: fonts-dejavu-core)\n",
                    path, strerror(errno));
            return false;
        }
        fclose(f);
    }
    return true;
}

/* Writes the font file `name` of Debian's folder into `dir`: its first `keep` bytes (0: all),
 * with the byte in the middle changed when `flip`, or 4 KiB of noise when `noise`. */
static bool write_font(const char *dir, const char *name, long keep, bool flip, bool noise)
{
    char from[512], to[640];
    snprintf(from, sizeof from, "%s/%s", PAGES_TYPEFACE_DIR, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    if (!copy_head(from, to, noise ? 4096 : keep))
        return false;
    FILE *f = fopen(to, "r+b");
    bool ok = f && fseek(f, 0, SEEK_END) == 0;
    long len = ok ? ftell(f) : 0;
    for (long i = 0; ok && noise && i < len; i++)
        ok = fseek(f, i, SEEK_SET) == 0 && fputc((int)((i * 2654435761u) >> 13 & 255), f) != EOF;
    if (ok && flip) {
        int c = fseek(f, len / 2, SEEK_SET) == 0 ? fgetc(f) : EOF;
        ok = c != EOF && fseek(f, len / 2, SEEK_SET) == 0 && fputc(c ^ 0x55, f) != EOF;
    }
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* The TrueType checksum of `len` bytes: big-endian words summed, the last padded with zeros. */
static uint32_t font_sum(const unsigned char *p, size_t len)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 4) {
        unsigned char w[4] = {0, 0, 0, 0};
        memcpy(w, p + i, len - i < 4 ? len - i : 4);
        sum += be32(w);
    }
    return sum;
}

/* Writes Debian's font file `name` into `dir` crafted as a hostile one would be: every offset in
 * its `cmap` directory (`table` "cmap") or every glyph's in `loca` (`table` "loca") pointing
 * about a gigabyte past the file, the checksums (each table's, the file's) made right again, so
 * that nothing but reading the tables can tell. stb_truetype read where they point (SIGSEGV in
 * stbtt_FindGlyphIndex, stbtt_GetGlyphBox). */
static bool write_crafted_font(const char *dir, const char *name, const char *table)
{
    char from[512], to[640];
    snprintf(from, sizeof from, "%s/%s", PAGES_TYPEFACE_DIR, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    FILE *f = fopen(from, "rb");
    unsigned char *font = malloc(1u << 20);
    size_t len = f && font ? fread(font, 1, 1u << 20, f) : 0;
    if (f)
        fclose(f);
    size_t tables = len >= 12 ? (size_t)font[4] << 8 | font[5] : 0;
    bool ok = tables > 0 && 12 + 16 * tables <= len;
    unsigned char *head = NULL;
    for (size_t i = 0; ok && i < tables; i++) {
        unsigned char *entry = font + 12 + 16 * i;
        size_t at = be32(entry + 8), size = be32(entry + 12);
        ok = at + size <= len && size >= 4;
        if (ok && !memcmp(entry, "head", 4))
            head = font + at;
        if (ok && !memcmp(entry, table, 4) && !strcmp(table, "cmap")) {
            /* the encoding records' subtable offsets */
            size_t records = (size_t)font[at + 2] << 8 | font[at + 3];
            for (size_t r = 0; r < records && 4 + 8 * r + 8 <= size; r++)
                put_be32(font + at + 4 + 8 * r + 4, 0x7fffff00u);
        } else if (ok && !memcmp(entry, table, 4)) {
            /* DejaVu's loca is of 32-bit offsets: every glyph's start moved, each its own */
            for (size_t g = 1; 4 * g + 4 <= size; g++)
                put_be32(font + at + 4 * g, 0x40000000u + 16u * (uint32_t)g);
        }
    }
    ok = ok && head;
    for (size_t i = 0; ok && i < tables; i++) {
        unsigned char *entry = font + 12 + 16 * i;
        if (!memcmp(entry, "head", 4))
            put_be32(head + 8, 0); /* its checkSumAdjustment counts as zero */
        put_be32(entry + 4, font_sum(font + be32(entry + 8), be32(entry + 12)));
    }
    if (ok)
        put_be32(head + 8, 0xb1b0afbau - font_sum(font, len));
    f = ok ? fopen(to, "wb") : NULL;
    ok = f && fwrite(font, 1, len, f) == len;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(font);
    return ok;
}

/* How many lines `text` holds. */
static int lines_in(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* The face is an environment dependency: with none (an empty folder) the program runs as usual,
 * prints nothing more, and sets the pages in stb_easy_font; with a damaged file (cut short, a byte
 * changed, noise, a glyph index pointing past the glyphs) it does the same and says so in one
 * line; with copies of the faces it draws what it draws from Debian's folder, and with a
 * character map pointing past the file too (FreeType finds the characters by the glyphs' names);
 * and the two looks differ, so the goldens tell the face apart. */
static void check_face_fallback(CheckState *s, const char *exe, const char *golden_dir,
                                const char *out_dir, bool validation)
{
    /* what a case's picture must equal: nothing (it is the fallback's reference), the picture
     * of Debian's face, or the fallback's */
    enum { MAKES_REFERENCE, WANTS_FACE, WANTS_FALLBACK };
    static const struct {
        const char *name;
        long keep;
        bool flip, noise, copy;
        const char *crafted; /* the table a crafted font's offsets lead astray */
        int want;
    } CASES[] = {{"none", 0, false, false, false, NULL, MAKES_REFERENCE},
                 {"copy", 0, false, false, true, NULL, WANTS_FACE},
                 {"truncated", 100000, false, false, true, NULL, WANTS_FALLBACK},
                 {"flipped", 0, true, false, true, NULL, WANTS_FALLBACK},
                 {"noise", 0, false, true, true, NULL, WANTS_FALLBACK},
                 {"cmap", 0, false, false, true, "cmap", WANTS_FACE},
                 {"loca", 0, false, false, true, "loca", WANTS_FALLBACK}};
    const Pose *flat = pose_named("flat");
    char none_png[512], flat_png[512];
    snprintf(none_png, sizeof none_png, "%s/face-none.png", out_dir);
    snprintf(flat_png, sizeof flat_png, "%s/flat.png", out_dir);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char dir[512], png[512], env[600];
        snprintf(dir, sizeof dir, "%s/fonts-%s", out_dir, CASES[i].name);
        snprintf(png, sizeof png, "%s/face-%s.png", out_dir, CASES[i].name);
        snprintf(env, sizeof env, "%s=%s", PAGES_TYPEFACE_DIR_ENV, dir);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST)
            CHECK(s, false, "cannot make %s", dir);
        if (CASES[i].copy) {
            /* the bold face whole: only the regular one is damaged */
            CHECK(s,
                  (CASES[i].crafted
                       ? write_crafted_font(dir, PAGES_TYPEFACE_REGULAR, CASES[i].crafted)
                       : write_font(dir, PAGES_TYPEFACE_REGULAR, CASES[i].keep, CASES[i].flip,
                                    CASES[i].noise)) &&
                      write_font(dir, PAGES_TYPEFACE_BOLD, 0, false, false),
                  "cannot write the fonts of %s", dir);
        }
        Run r;
        if (!render_env(s, exe, golden_dir, out_dir, flat, validation, png, HIGH, env, &r))
            continue;
        bool face = CASES[i].want != WANTS_FALLBACK;
        if (face)
            CHECK(s, r.err[0] == '\0', "fonts %s: printed on stderr: %s", CASES[i].name, r.err);
        else
            /* the damaged file named, in one line */
            CHECK(s, lines_in(r.err) == 1 && strstr(r.err, "warning: ") && strstr(r.err, dir),
                  "fonts %s: not one warning naming %s on stderr: %s", CASES[i].name, dir, r.err);
        if (CASES[i].want == MAKES_REFERENCE)
            continue;
        Image got = image_load(png), want = image_load(face ? flat_png : none_png);
        CHECK(s, image_same(&got, &want), "fonts %s: not the picture expected (%s)", CASES[i].name,
              face ? "the face's" : "stb_easy_font's");
        image_free(&got);
        image_free(&want);
    }
    long count = compare_pose(s, golden_dir, "flat", none_png, false, NULL, GOLDEN);
    printf("stb_easy_font's flat page against the golden: %ld pixels differ (must exceed %d)\n",
           count, GOLDEN_MAX_DIFFERING);
    CHECK(s, count > GOLDEN_MAX_DIFFERING,
          "the fallback font passed for the golden's face (%ld pixels differ)", count);
}

int main(int argc, char **argv)
{
    bool update = false, report = false, validation = true, low = false, ok = argc >= 4;
    const char *reference = NULL; /* Butteraugli's tool */
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "--update"))
            update = true;
        else if (!strcmp(argv[i], "--report"))
            report = true;
        else if (!strcmp(argv[i], "--no-validation"))
            validation = false;
        else if (!strcmp(argv[i], "--low"))
            low = true;
        else if (!strcmp(argv[i], "--reference") && i + 1 < argc)
            reference = argv[++i];
        else
            ok = false;
    }
    if (!ok || (update && report) || (low && report) || (reference && (update || report || low))) {
        fprintf(stderr, "usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update | --report] "
                        "[--no-validation] [--low | --reference BUTTERAUGLI]\n");
        return 2;
    }
    const char *exe = argv[1], *golden_dir = argv[2], *out_dir = argv[3];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        perror(out_dir);
        return 1;
    }
    if (!face_pinned())
        return 1;
    CheckState s = {0};
    write_photo_book(&s, out_dir);
    if (report) {
        report_poses(&s, exe, golden_dir, out_dir, validation);
        return check_finish(&s, "test_golden --report");
    }
    if (low) {
        check_low(&s, exe, golden_dir, out_dir, validation, update);
        return check_finish(&s, "test_golden --low");
    }
    if (reference) {
        check_reference(&s, exe, reference, golden_dir, out_dir, validation);
        return check_finish(&s, "test_golden --reference");
    }
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++) {
        const Pose *p = &POSES[i];
        char actual[512];
        snprintf(actual, sizeof actual, "%s/%s.png", out_dir, p->name);
        if (!render(&s, exe, golden_dir, out_dir, p, validation, actual))
            continue;
        if (update) {
            char golden[512];
            snprintf(golden, sizeof golden, "%s/%s.png", golden_dir, p->name);
            CHECK(&s, copy_file(actual, golden), "cannot write %s", golden);
            printf("updated %s\n", golden);
        } else {
            long count = compare_pose(&s, golden_dir, p->name, actual, true, NULL, GOLDEN);
            printf("%-12s %ld pixels differ\n", p->name, count);
        }
    }
    if (!update) {
        check_face_fallback(&s, exe, golden_dir, out_dir, validation);
        check_ink_under_pointer(&s, exe, out_dir, validation);
        /* Determinism: the same pose twice gives the same pixels, exactly. */
        char again[512];
        snprintf(again, sizeof again, "%s/middle-50-again.png", out_dir);
        const Pose middle = {"middle-50", "0.5", "0.5", {NULL}, false, NULL, false};
        if (render(&s, exe, golden_dir, out_dir, &middle, validation, again)) {
            char first[512];
            snprintf(first, sizeof first, "%s/middle-50.png", out_dir);
            Image a = image_load(first), b = image_load(again);
            bool same = image_same(&a, &b);
            CHECK(&s, same, "the same pose rendered twice differs");
            image_free(&a);
            image_free(&b);
        }
        /* The suite can fail: a slightly different pose must not pass for middle-50. */
        char altered[512];
        snprintf(altered, sizeof altered, "%s/altered.png", out_dir);
        const Pose further = {"middle-53", "0.53", "0.5", {NULL}, false, NULL, false};
        if (render(&s, exe, golden_dir, out_dir, &further, validation, altered)) {
            long count = compare_pose(&s, golden_dir, "middle-50", altered, false, NULL, GOLDEN);
            CHECK(&s, count > GOLDEN_MAX_DIFFERING,
                  "a pose 3 %% further along passed as middle-50 (%ld pixels differ)", count);
            printf("altered pose: %ld pixels differ (must exceed %d)\n", count,
                   GOLDEN_MAX_DIFFERING);
        }
    }
    return check_finish(&s, "test_golden");
}
