/* Screenshot regression: canonical poses rendered headless at 640x480 on lavapipe, compared with
 * the goldens in tests/golden/. The comparison is tolerant in one documented way: a pixel differs
 * when any channel differs by more than GOLDEN_CHANNEL_SLACK of 255, and a pose fails when more
 * than GOLDEN_MAX_DIFFERING of its pixels differ. On a failure the actual image, the expected one
 * and a diff (differing pixels red over a dimmed expected image) are written next to each other
 * in the output folder, and their paths printed.
 * usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update | --report] [--no-validation]
 * --update rewrites the goldens from this build (on purpose only: `cmake --build --preset default
 * --target update-goldens`); CI never passes it. --report compares every pose and prints one
 * line per pose (key=value: differing pixels, largest channel difference) without failing on a
 * difference: for another device than lavapipe, e.g. a GPU machine with no validation layer
 * (--no-validation). */
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <stdbool.h>
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

typedef struct Pose {
    const char *name;
    const char *curl, *grab;
    const char *extra[3]; /* more flags for this pose, NULL-terminated */
} Pose;

/* Flat, corner grabs at the bottom, middle and top of the free edge at 25, 50 and 75 % of the
 * turn (the middle one is the cylinder), fully turned (the back lies flat on the left), a very
 * tight roll (a crease), the back curling towards the viewer with its text, and a backward turn
 * (the left page's leaf lifting, its front curling up, the back of the leaf before uncovered). */
static const Pose POSES[] = {
    {"flat", "0", "0.25", {NULL}},
    {"bottom-25", "0.25", "0", {NULL}},
    {"bottom-50", "0.5", "0", {NULL}},
    {"bottom-75", "0.75", "0", {NULL}},
    {"middle-25", "0.25", "0.5", {NULL}},
    {"middle-50", "0.5", "0.5", {NULL}},
    {"middle-75", "0.75", "0.5", {NULL}},
    {"top-25", "0.25", "1", {NULL}},
    {"top-50", "0.5", "1", {NULL}},
    {"top-75", "0.75", "1", {NULL}},
    {"turned", "1", "0.25", {NULL}},
    {"tight-radius", "0.35", "0.3", {"--radius", "0.02", NULL}},
    {"back-facing", "0.85", "0.5", {NULL}},
    {"backward-40", "0.4", "0.25", {"--backward", NULL}},
};

static bool render(CheckState *s, const char *exe, const char *dir, const Pose *p, bool validation,
                   const char *path)
{
    const char *args[16] = {"--headless", "--size", "640x480",      "--curl", p->curl,
                            "--grab",     p->grab,  "--screenshot", path};
    int n = 9;
    if (validation) args[n++] = "--validation";
    for (int i = 0; p->extra[i]; i++)
        args[n++] = p->extra[i];
    args[n] = NULL;
    Run r = run_program(exe, dir, NULL, args);
    CHECK(s, r.status == 0, "render %s (--curl %s --grab %s): exit %d: %s", p->name, p->curl,
          p->grab, r.status, r.err);
    return r.status == 0;
}

/* Pixels that differ beyond the slack; with `diff`, also the picture of where; with `max`, the
 * largest difference of any channel. */
static long differing(const Image *a, const Image *b, unsigned char *diff, int *max)
{
    long count = 0;
    for (long i = 0; i < (long)a->w * a->h; i++) {
        const unsigned char *p = &a->rgba[4 * i], *q = &b->rgba[4 * i];
        bool off = false;
        for (int c = 0; c < 3; c++) {
            int d = abs(p[c] - q[c]);
            off |= d > GOLDEN_CHANNEL_SLACK;
            if (max && d > *max) *max = d;
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

static bool copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    bool ok = in && out;
    char buf[1 << 16];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out)
        ok = fclose(out) == 0 && ok;
    return ok;
}

/* Compares pose `name`'s actual image with its golden; on failure writes the three images.
 * `report`: a difference beyond the tolerance fails the test. -1 when an image is missing. */
static long compare_pose(CheckState *s, const char *golden_dir, const char *out_dir,
                         const char *name, const char *actual_path, bool report, int *max)
{
    char golden_path[512], expected_path[512], diff_path[512];
    snprintf(golden_path, sizeof golden_path, "%s/%s.png", golden_dir, name);
    Image want = image_load(golden_path), got = image_load(actual_path);
    long count = -1;
    if (!want.rgba || !got.rgba || want.w != got.w || want.h != got.h) {
        CHECK(s, !report, "%s: golden %s (%dx%d) or actual %s (%dx%d) missing or mismatched",
              name, golden_path, want.w, want.h, actual_path, got.w, got.h);
    } else {
        unsigned char *diff = malloc((size_t)got.w * got.h * 4);
        count = differing(&got, &want, diff, max);
        if (report && count > GOLDEN_MAX_DIFFERING) {
            snprintf(expected_path, sizeof expected_path, "%s/%s-expected.png", out_dir, name);
            snprintf(diff_path, sizeof diff_path, "%s/%s-diff.png", out_dir, name);
            copy_file(golden_path, expected_path);
            if (diff)
                stbi_write_png(diff_path, got.w, got.h, 4, diff, got.w * 4);
            fprintf(stderr, "%s: %ld pixels differ (at most %d): actual %s, expected %s, diff %s\n",
                    name, count, GOLDEN_MAX_DIFFERING, actual_path, expected_path, diff_path);
        }
        if (report)
            CHECK(s, count <= GOLDEN_MAX_DIFFERING, "%s: %ld pixels differ from the golden", name,
                  count);
        free(diff);
    }
    image_free(&want);
    image_free(&got);
    return count;
}

/* --report: every pose compared, one key=value line each, differences never fail. */
static void report_poses(CheckState *s, const char *exe, const char *golden_dir,
                         const char *out_dir, bool validation)
{
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++) {
        const Pose *p = &POSES[i];
        char actual[512];
        snprintf(actual, sizeof actual, "%s/%s.png", out_dir, p->name);
        if (!render(s, exe, out_dir, p, validation, actual)) continue;
        int max = 0;
        /* not `report`: a missing golden shows as differing=-1, a difference fails nothing */
        long count = compare_pose(s, golden_dir, out_dir, p->name, actual, false, &max);
        printf("golden pose=%s differing=%ld max_channel_diff=%d pixels=%d slack=%d limit=%d "
               "within=%d\n",
               p->name, count, max, GOLDEN_W * GOLDEN_H, GOLDEN_CHANNEL_SLACK, GOLDEN_MAX_DIFFERING,
               count >= 0 && count <= GOLDEN_MAX_DIFFERING);
    }
}

int main(int argc, char **argv)
{
    bool update = false, report = false, validation = true, ok = argc >= 4;
    for (int i = 4; i < argc; i++) {
        if (!strcmp(argv[i], "--update"))
            update = true;
        else if (!strcmp(argv[i], "--report"))
            report = true;
        else if (!strcmp(argv[i], "--no-validation"))
            validation = false;
        else
            ok = false;
    }
    if (!ok || (update && report)) {
        fprintf(stderr, "usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update | --report] "
                        "[--no-validation]\n");
        return 2;
    }
    const char *exe = argv[1], *golden_dir = argv[2], *out_dir = argv[3];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        perror(out_dir);
        return 1;
    }
    CheckState s = {0};
    if (report) {
        report_poses(&s, exe, golden_dir, out_dir, validation);
        return check_finish(&s, "test_golden --report");
    }
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++) {
        const Pose *p = &POSES[i];
        char actual[512];
        snprintf(actual, sizeof actual, "%s/%s.png", out_dir, p->name);
        if (!render(&s, exe, out_dir, p, validation, actual)) continue;
        if (update) {
            char golden[512];
            snprintf(golden, sizeof golden, "%s/%s.png", golden_dir, p->name);
            CHECK(&s, copy_file(actual, golden), "cannot write %s", golden);
            printf("updated %s\n", golden);
        } else {
            long count = compare_pose(&s, golden_dir, out_dir, p->name, actual, true, NULL);
            printf("%-12s %ld pixels differ\n", p->name, count);
        }
    }
    if (!update) {
        /* Determinism: the same pose twice gives the same pixels, exactly. */
        char again[512];
        snprintf(again, sizeof again, "%s/middle-50-again.png", out_dir);
        const Pose middle = {"middle-50", "0.5", "0.5", {NULL}};
        if (render(&s, exe, out_dir, &middle, validation, again)) {
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
        const Pose further = {"middle-53", "0.53", "0.5", {NULL}};
        if (render(&s, exe, out_dir, &further, validation, altered)) {
            long count = compare_pose(&s, golden_dir, out_dir, "middle-50", altered, false, NULL);
            CHECK(&s, count > GOLDEN_MAX_DIFFERING,
                  "a pose 3 %% further along passed as middle-50 (%ld pixels differ)", count);
            printf("altered pose: %ld pixels differ (must exceed %d)\n", count,
                   GOLDEN_MAX_DIFFERING);
        }
    }
    return check_finish(&s, "test_golden");
}
