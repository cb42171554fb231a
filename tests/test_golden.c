/* Screenshot regression: canonical poses rendered headless at 640x480 on lavapipe, compared with
 * the goldens in tests/golden/. The comparison is tolerant in one documented way: a pixel differs
 * when any channel differs by more than GOLDEN_CHANNEL_SLACK of 255, and a pose fails when more
 * than GOLDEN_MAX_DIFFERING of its pixels differ. On a failure the actual image, the expected one
 * and a diff (differing pixels red over a dimmed expected image) are written next to each other
 * in the output folder, and their paths printed.
 * usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update]
 * --update rewrites the goldens from this build (on purpose only: `cmake --build --preset default
 * --target update-goldens`); CI never passes it. */
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
} Pose;

/* Flat, corner grabs at the bottom, middle and top of the free edge at 25, 50 and 75 % of the
 * turn (the middle one is the cylinder), and fully turned (the back faces the viewer). */
static const Pose POSES[] = {
    {"flat", "0", "0.25"},
    {"bottom-25", "0.25", "0"},   {"bottom-50", "0.5", "0"},   {"bottom-75", "0.75", "0"},
    {"middle-25", "0.25", "0.5"}, {"middle-50", "0.5", "0.5"}, {"middle-75", "0.75", "0.5"},
    {"top-25", "0.25", "1"},      {"top-50", "0.5", "1"},      {"top-75", "0.75", "1"},
    {"turned", "1", "0.25"},
};


static bool render(CheckState *s, const char *exe, const char *dir, const char *curl,
                   const char *grab, const char *path)
{
    const char *args[] = {"--headless", "--validation", "--size", "640x480", "--curl", curl,
                          "--grab", grab, "--screenshot", path, NULL};
    Run r = run_program(exe, dir, NULL, args);
    CHECK(s, r.status == 0, "render --curl %s --grab %s: exit %d: %s", curl, grab, r.status,
          r.err);
    return r.status == 0;
}

/* Pixels that differ beyond the slack; with `diff`, also the picture of where. */
static long differing(const Image *a, const Image *b, unsigned char *diff)
{
    long count = 0;
    for (long i = 0; i < (long)a->w * a->h; i++) {
        const unsigned char *p = &a->rgba[4 * i], *q = &b->rgba[4 * i];
        bool off = false;
        for (int c = 0; c < 3; c++)
            off |= abs(p[c] - q[c]) > GOLDEN_CHANNEL_SLACK;
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

/* Compares pose `name`'s actual image with its golden; on failure writes the three images. */
static long compare_pose(CheckState *s, const char *golden_dir, const char *out_dir,
                         const char *name, const char *actual_path, bool report)
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
        count = differing(&got, &want, diff);
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

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "--update"))) {
        fprintf(stderr, "usage: test_golden PAGECURL GOLDEN_DIR OUT_DIR [--update]\n");
        return 2;
    }
    const char *exe = argv[1], *golden_dir = argv[2], *out_dir = argv[3];
    bool update = argc == 5;
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        perror(out_dir);
        return 1;
    }
    CheckState s = {0};
    for (size_t i = 0; i < sizeof POSES / sizeof POSES[0]; i++) {
        const Pose *p = &POSES[i];
        char actual[512];
        snprintf(actual, sizeof actual, "%s/%s.png", out_dir, p->name);
        if (!render(&s, exe, out_dir, p->curl, p->grab, actual))
            continue;
        if (update) {
            char golden[512];
            snprintf(golden, sizeof golden, "%s/%s.png", golden_dir, p->name);
            CHECK(&s, copy_file(actual, golden), "cannot write %s", golden);
            printf("updated %s\n", golden);
        } else {
            long count = compare_pose(&s, golden_dir, out_dir, p->name, actual, true);
            printf("%-10s %ld pixels differ\n", p->name, count);
        }
    }
    if (!update) {
        /* Determinism: the same pose twice gives the same pixels, exactly. */
        char again[512];
        snprintf(again, sizeof again, "%s/middle-50-again.png", out_dir);
        if (render(&s, exe, out_dir, "0.5", "0.5", again)) {
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
        if (render(&s, exe, out_dir, "0.53", "0.5", altered)) {
            long count = compare_pose(&s, golden_dir, out_dir, "middle-50", altered, false);
            CHECK(&s, count > GOLDEN_MAX_DIFFERING,
                  "a pose 3 %% further along passed as middle-50 (%ld pixels differ)", count);
            printf("altered pose: %ld pixels differ (must exceed %d)\n", count,
                   GOLDEN_MAX_DIFFERING);
        }
    }
    return check_finish(&s, "test_golden");
}
