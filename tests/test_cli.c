/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700 /* S_IFMT and the file kinds, mknod */
/* pagecurl run as a user would: real processes, real files. Exit statuses and the one-line
 * messages of bad usage, the PNG (size, not uniform, a curl changes it), the OBJ (parses, matches
 * the grid), the fall-back to headless without a display, and no half-written files. */
#include "check.h"
#include "image.h"
#include "pdf_file.h"
#include "run.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stb_image_write.h>

/* The program under test and the folder its files go to. */
typedef struct Cli {
    const char *exe, *dir, *plot;
    const char *no_loader; /* LD_PRELOAD shim: dlopen of libvulkan fails (tests/no_loader.c) */
} Cli;

static void slurp(const char *path, char *buf, size_t size)
{
    run_slurp(path, buf, size);
}

static Run run_env(const Cli *c, const char *env, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    Run r = run_va(c->exe, c->dir, env, first, ap);
    va_end(ap);
    return r;
}
#define RUN(...)          run_env(c, NULL, __VA_ARGS__, (const char *)NULL)
#define RUN_ENV(env, ...) run_env(c, env, __VA_ARGS__, (const char *)NULL)

static int line_count(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const char *path_in(const Cli *c, char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", c->dir, name);
    unlink(buf);
    return buf;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The flags (up to '=' or '[') in `text` from `from` to `to` (exclusive), each once. */
static int collect_flags(const char *from, const char *to, char flags[][32], int max)
{
    int n = 0;
    for (const char *p = strstr(from, "--"); p && p < to && n < max; p = strstr(p, "--")) {
        size_t len = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
        bool known = false;
        for (int k = 0; k < n && !known; k++)
            known = strlen(flags[k]) == len && !strncmp(flags[k], p, len);
        if (!known && len > 2 && len < 32) {
            memcpy(flags[n], p, len);
            flags[n++][len] = '\0';
        }
        p += len;
    }
    return n;
}

static bool has_flag(char flags[][32], int n, const char *flag)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(flags[k], flag))
            return true;
    return false;
}

/* --help: every option it lists is in a usage line and the other way round, the parser takes
 * each of them (none is "unknown"), the window's controls are there, and none of the words only
 * the code's history explains. Returns the listed flags for check_usage_errors. */
static int check_help(CheckState *s, const Cli *c, char listed[][32], int max)
{
    Run r = RUN("--help");
    CHECK(s, r.status == 0 && strstr(r.out, "usage: pagecurl"), "--help: exit %d", r.status);
    const char *end_usage = strstr(r.out, "\n\n"), *controls = strstr(r.out, "Window controls:");
    CHECK(s, end_usage && controls, "--help has no usage block or no controls:\n%s", r.out);
    if (!end_usage || !controls)
        return 0;
    char used[64][32];
    int nu = collect_flags(r.out, end_usage, used, 64);
    /* the listing: each option line starts with two blanks and its flag */
    int nl = 0;
    for (const char *line = end_usage; line && line < controls && nl < max;
         line = strchr(line + 1, '\n')) {
        if (!strncmp(line, "\n  --", 5))
            nl += collect_flags(line + 3, line + 4, listed + nl, 1);
    }
    CHECK(s, nl >= 25, "--help lists only %d options", nl);
    for (int k = 0; k < nl; k++) {
        CHECK(s, has_flag(used, nu, listed[k]), "%s is listed but in no usage line", listed[k]);
        Run p = RUN(listed[k], "--frames", "0"); /* stops at the parser, one way or another */
        CHECK(s, (p.status == 0 || p.status == 2) && !strstr(p.err, "unknown option"),
              "%s is listed but not parsed: exit %d: %s", listed[k], p.status, p.err);
    }
    for (int k = 0; k < nu; k++)
        CHECK(s, has_flag(listed, nl, used[k]), "%s is in a usage line but not listed", used[k]);
    static const char *const keys[] = {"Home", "End", "F12", "Escape", "Ctrl+Z", " H "};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        CHECK(s, strstr(controls, keys[k]), "the controls do not name %s", keys[k]);
    static const char *const jargon[] = {"seed", "AMP", "SoA", "AoS"};
    for (size_t k = 0; k < sizeof jargon / sizeof jargon[0]; k++)
        CHECK(s, !strstr(r.out, jargon[k]), "--help says '%s'", jargon[k]);
    return nl;
}

/* Bad usage: exit 2, exactly one line on stderr, which names the offending flag. */
static void check_usage_errors(CheckState *s, const Cli *c)
{
    static const struct {
        const char *args[6];
        const char *names;
    } cases[] = {
        {{"--size", "64x"}, "--size"},
        {{"--size", "x64"}, "--size"},
        {{"--size", "12.5x10"}, "--size"},
        {{"--grid", "2x16385"}, "--grid"},
        {{"--grid", " 64x64"}, "--grid"},
        {{"--curl", "-0.1"}, "--curl"},
        {{"--curl", ""}, "--curl"},
        {{"--curl", "1e400"}, "--curl"},
        {{"--grab", "nan"}, "--grab"},
        {{"--grab", "inf"}, "--grab"},
        {{"--frames", "0"}, "--frames"},
        {{"--frames", "1e3"}, "--frames"},
        {{"--frames", "100000001"}, "--frames"},
        {{"--bench", "--warmup", "-1"}, "--warmup"},
        {{"--bench", "--repeat", "0"}, "--repeat"},
        {{"--bench", "--repeat", "1001"}, "--repeat"},
        {{"--device", "-1"}, "--device"},
        {{"--device", "1.5"}, "--device"},
        {{"--deform", "xpu"}, "--deform"},
        {{"--normals", "three-pass"}, "--normals"},
        {{"--bench", "--normals", "fused-deform", "--deform", "cpu"}, "--deform"},
        {{"--pack", "cpu"}, "--pack"},
        {{"--bench", "--pack", "staging", "--normals", "fused"}, "--pack"},
        {{"--staging", "sometimes"}, "--staging"},
        {{"--msaa", "2"}, "--msaa"},
        {{"--quality", "medium"}, "--quality"},
        {{"--quality"}, "--quality"},
        {{"--bench", "--quality", "reference"}, "--quality reference"},
        {{"--staging"}, "--staging"},
        {{"--json", "x.json"}, "--bench"},
        {{"--csv", "x.csv"}, "--bench"},
        {{"--grids", "64"}, "--bench"},
        {{"--bench-stages"}, "--bench"},
        {{"--headless", "--repeat", "20"}, "--bench"},
        {{"--headless", "--bench-stages"}, "--bench"},
        {{"--bench", "--grid", "64x64", "--grids", "64"}, "--grids"},
        {{"--bench", "--grids", "64,"}, "--grids"},
        {{"--bench", "--grids", "1,64"}, "--grids"},
        {{"--replay", "t.trace", "--curl", "0.5"}, "--replay"},
        {{"--bench", "--notebook", "n.json"}, "--notebook"},
        {{"--notebook"}, "--notebook"},
        {{"--present-mode", "vsync"}, "--present-mode"},
        {{"--validation=gpu"}, "--validation"},
        {{"-x"}, "-x"},
        {{"foo"}, "foo"},
        {{"--export-obj"}, "--export-obj"},
        {{"--screenshot="}, "--screenshot"},
        {{"--bogus"}, "--bogus"},
        {{"--grid", "1x5"}, "--grid"},
        {{"--grid", "0"}, "--grid"},
        {{"--grid", "-5x5"}, "--grid"},
        {{"--grid", "1e9"}, "--grid"},
        {{"--grid", "64xabc"}, "--grid"},
        {{"--grid", "64x0"}, "--grid"},
        {{"--size", "0x0"}, "--size"},
        {{"--size", "99999x99999"}, "--size"},
        {{"--curl", "nan"}, "--curl"},
        {{"--curl", "1.5"}, "--curl"},
        {{"--grab", "2"}, "--grab"},
        {{"--frames", "-1"}, "--frames"},
        {{"--frames"}, "--frames"},
        {{"--device", "abc"}, "--device"},
        {{"--headless=yes"}, "--headless"},
        {{"--help=1"}, "--help"},
        {{"-h=1"}, "--help"},
        {{"--version=1"}, "--version"},
        {{"--list-devices=1"}, "--list-devices"},
        /* the compute paths are the benchmark's alone: the library draws its one path */
        {{"--deform", "cpu"}, "--deform"},
        {{"--headless", "--normals", "fused"}, "--normals"},
        {{"--pack", "gpu"}, "--pack"},
        {{"--headless", "--staging", "always"}, "--staging"},
        {{"--screenshot"}, "--screenshot"},
        {{"--radius", "0"}, "--radius"},
        {{"--radius", "0.6"}, "--radius"},
        {{"--radius", "abc"}, "--radius"},
        {{"--radius", ""}, "--radius"},
        {{"--radius", "nan"}, "--radius"},
        {{"--radius"}, "--radius"},
        {{"--backward=yes"}, "--backward"},
        {{"--bench", "--backward"}, "--backward"},
        {{"--rtl=yes"}, "--rtl"},
        {{"--bench", "--rtl"}, "--rtl"},
        {{"--cover", "soft"}, "--cover"},
        {{"--cover"}, "--cover"},
        {{"--bench", "--cover", "hard"}, "--cover"},
        {{"--layout", "double"}, "--layout"},
        {{"--bench", "--layout", "single"}, "--layout"},
        {{"--replay", "t.trace", "--radius", "0.1"}, "--radius"},
        {{"--grid", "64x"}, "--grid"},
        {{"--headless", "--zoom", "9"}, "--zoom"},
        {{"--headless", "--zoom", "0.5"}, "--zoom"},
        {{"--headless", "--zoom"}, "--zoom"},
        {{"--headless", "--zoom", "2", "--zoom-at", "3"}, "--zoom-at"},
        {{"--headless", "--zoom", "2", "--zoom-at", "3,-4"}, "--zoom-at"},
        {{"--headless", "--zoom-at", "3,4"}, "--zoom-at"},
        {{"--headless", "--zoom", "2", "--zoom-at", "1280,4"}, "--zoom-at"},
        {{"--headless", "--size", "64x48", "--zoom-at", "3,48"}, "--zoom-at"},
        {{"--replay", "t.trace", "--zoom", "2"}, "--zoom"},
        {{"--bench", "--zoom", "2"}, "--zoom"},
        {{"--fit", "wide"}, "--fit"},
        {{"--headless", "--fit"}, "--fit"},
        {{"--bench", "--fit", "width"}, "--fit"},
        {{"--replay", "t.trace", "--fit", "width"}, "--fit"},
        {{"--headless", "--fit", "width", "--zoom", "2"}, "--zoom"},
        /* a flag that does not apply to the mode: refused, naming the flag */
        {{"--headless", "--record", "r.trace"}, "--record"},
        {{"--bench", "--record", "r.trace"}, "--record"},
        {{"--replay", "t.trace", "--record", "r.trace"}, "--record"},
        {{"--bench", "--screenshot", "a.png"}, "--screenshot"},
        {{"--bench", "--export-obj", "a.obj"}, "--export-obj"},
        {{"--bench", "--frames-out", "."}, "--frames-out"},
        {{"--bench", "--replay", "t.trace"}, "--replay"},
        {{"--bench", "--curl", "0.5"}, "--curl"},
        {{"--bench", "--grab", "0.5"}, "--grab"},
        {{"--bench", "--radius", "0.1"}, "--radius"},
        {{"--headless", "--replay", "t.trace", "--grab", "0.5"}, "--grab"},
        {{"--headless", "--replay", "t.trace", "--backward"}, "--backward"},
        {{"--headless", "--present-mode", "fifo"}, "--present-mode"},
        {{"--bench", "--present-mode", "fifo"}, "--present-mode"},
        {{"--headless", "--no-remember"}, "--no-remember"},
        {{"--bench", "--no-remember"}, "--no-remember"},
        {{"--replay", "t.trace", "--no-remember"}, "--no-remember"},
        {{"--no-remember=1"}, "--no-remember"},
        {{"--headless", "--json", "j.json"}, "--bench"},
        {{"--headless", "--warmup", "3"}, "--bench"},
        {{"--headless", "--grids", "16"}, "--bench"},
        {{"--bench", "--reduced-motion"}, "--reduced-motion"},
        {{"--reduced-motion=yes"}, "--reduced-motion"},
        {{"--headless", "--reduced-motion", "--grab", "0.5"}, "--grab"},
        {{"--headless", "--reduced-motion", "--radius", "0.1"}, "--radius"},
        {{"--headless", "--reduced-motion", "--export-obj", "a.obj"}, "--export-obj"},
        {{"--list-devices", "--headless"}, "--list-devices"},
        {{"--list-devices", "--device", "0"}, "--list-devices"},
        /* the picture's format follows its extension */
        {{"--headless", "--screenshot", "e.bmp"}, ".jpg"},
        {{"--headless", "--screenshot", "e"}, "--screenshot"},
        {{"--headless", "--screenshot", "e.png/"}, "--screenshot"},
        /* a bare argument: the option it most likely lacks */
        {{"out.png"}, "--screenshot out.png"},
        {{"shot.jpg"}, "--screenshot shot.jpg"},
        {{"page.obj"}, "--export-obj page.obj"},
        {{"input.trace"}, "--replay input.trace"},
        /* one bare argument is the book: a second one, or one with --book, is one too many */
        {{"a.pdf", "b.pdf"}, "'b.pdf'"},
        {{"a.pdf", "--book", "b.pdf"}, "--book b.pdf"},
        {{"--book", "b.pdf", "a.pdf"}, "'a.pdf'"},
        {{"--bench", "a.pdf"}, "--bench"},
        {{"--list-devices", "a.pdf"}, "--list-devices"},
    };
    char listed[64][32];
    int nl = check_help(s, c, listed, 64);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *const *a = cases[i].args;
        Run r = run_program(c->exe, c->dir, NULL, a);
        CHECK(s, r.status == 2, "%s %s: exit %d, want 2", a[0], a[1] ? a[1] : "", r.status);
        CHECK(s, line_count(r.err) == 1, "%s: want one line on stderr, got: %s", a[0], r.err);
        CHECK(s, strstr(r.err, cases[i].names) != NULL, "%s: message does not name it: %s", a[0],
              r.err);
        /* the other way round from check_help: a flag the parser knows is in --help */
        for (int k = 0; a[k] && !strstr(r.err, "unknown option"); k++) {
            char flag[32];
            snprintf(flag, sizeof flag, "%.*s", (int)strcspn(a[k], "="), a[k]);
            CHECK(s, strncmp(flag, "--", 2) || has_flag(listed, nl, flag),
                  "%s is parsed but not in --help", flag);
        }
    }
#ifdef PAGECURL_HAVE_SDL
    /* A headless run's flag where a window opens (a display is named: the refusal comes before
     * any window is tried): refused, naming it and what it lacks. Without a display the same
     * command runs headless and the flag applies (check_runtime_errors). */
    static const struct {
        const char *args[5]; /* NULL-ended */
        const char *names, *hint;
    } windowed[] = {
        {{"--curl", "0.5"}, "--curl", "add --headless"},
        {{"--grab", "0.5"}, "--grab", "add --headless"},
        {{"--backward"}, "--backward", "add --headless"},
        {{"--radius", "0.1"}, "--radius", "add --headless"},
        {{"--zoom", "2"}, "--zoom", "add --headless"},
        {{"--frames-out", "."}, "--frames-out", "add --headless"},
        {{"--quality", "reference"}, "--quality reference", "needs --headless"},
        {{"--size", "64x48", "--curl", "0.5"}, "--curl", "add --headless"},
    };
    for (size_t i = 0; i < sizeof windowed / sizeof windowed[0]; i++) {
        const char *const *a = windowed[i].args;
        Run w = run_program(c->exe, c->dir, "DISPLAY=:9999", a);
        CHECK(s,
              w.status == 2 && line_count(w.err) == 1 && strstr(w.err, windowed[i].names) &&
                  strstr(w.err, windowed[i].hint),
              "%s in a window: exit %d, want 2 naming it: %s", a[0], w.status, w.err);
    }
#endif
    Run r = RUN("--headless", "--device", "99");
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--device"),
          "--device 99: exit %d: %s", r.status, r.err);
    r = RUN("--version");
    CHECK(s, r.status == 0 && strncmp(r.out, "pagecurl ", 9) == 0, "--version: %s", r.out);
}

static size_t distinct_colours(const Image *img)
{
    /* a coarse histogram is enough to tell a rendered page from a flat fill */
    static unsigned char seen[1 << 15];
    memset(seen, 0, sizeof seen);
    size_t count = 0;
    for (int i = 0; i < img->w * img->h; i++) {
        const unsigned char *p = &img->rgba[4 * i];
        unsigned key = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
        count += !seen[key];
        seen[key] = 1;
    }
    return count;
}

static void check_screenshots(CheckState *s, const Cli *c)
{
    char flat_path[512], curl_path[512];
    path_in(c, flat_path, sizeof flat_path, "flat.png");
    path_in(c, curl_path, sizeof curl_path, "curl.png");
    Run r = RUN("--headless", "--validation", "--size", "320x240", "--curl", "0", "--screenshot",
                flat_path);
    CHECK(s, r.status == 0, "flat screenshot: exit %d: %s", r.status, r.err);
    CHECK(s, strstr(r.out, flat_path) != NULL, "the output's path is not printed: %s", r.out);
    r = RUN("--headless", "--validation", "--size", "320x240", "--curl", "0.45", "--grab", "0.2",
            "--screenshot", curl_path);
    CHECK(s, r.status == 0, "curled screenshot: exit %d: %s", r.status, r.err);
    Image flat = image_load(flat_path), curl = image_load(curl_path);
    CHECK(s, flat.rgba && flat.w == 320 && flat.h == 240, "flat.png: %dx%d", flat.w, flat.h);
    CHECK(s, curl.rgba && curl.w == 320 && curl.h == 240, "curl.png: %dx%d", curl.w, curl.h);
    if (flat.rgba && curl.rgba && flat.w == curl.w && flat.h == curl.h) {
        CHECK(s, distinct_colours(&flat) > 8, "flat.png looks uniform");
        size_t differ = 0, n = (size_t)flat.w * flat.h;
        for (size_t i = 0; i < n; i++)
            differ += memcmp(&flat.rgba[4 * i], &curl.rgba[4 * i], 3) != 0;
        /* the curl moves a good part of the page: at least 2 % of the image */
        CHECK(s, differ > n / 50, "curled and flat differ in only %zu of %zu pixels", differ, n);
    }
    image_free(&flat);
    image_free(&curl);
}

/* The green channel of pixel (x, y): the page's paper against the dark background. */
static double green(const Image *img, int x, int y)
{
    return img->rgba[4 * ((size_t)y * img->w + x) + 1];
}

/* Where the page's edge crosses a line of pixels (a row, or a column with `down`), scanning
 * from `from` by `dir`: the first pixel off the background, its coverage (between the
 * background's value and the paper's a few pixels further in) placing the edge within it. NaN
 * when there is none. */
static double edge_at(const Image *img, int line, bool down, int from, int dir)
{
    int n = down ? img->h : img->w;
    double bg = down ? green(img, line, from) : green(img, from, line);
    for (int i = from; i >= 0 && i < n; i += dir) {
        double v = down ? green(img, line, i) : green(img, i, line);
        if (v < bg + 12.0)
            continue;
        int in = i + 4 * dir;
        if (in < 0 || in >= n)
            return NAN;
        double paper = down ? green(img, line, in) : green(img, in, line);
        double f = fmin(fmax((v - bg) / (paper - bg), 0.0), 1.0);
        /* pixel i spans [i, i + 1): covered from its far side by f */
        return dir > 0 ? i + 1.0 - f : i + f;
    }
    return NAN;
}

/* A still book headless (--curl 0) is seen face-on and fills the window: the pages' outer edges,
 * found with sub-pixel coverage along every row and column of their middle 80 %, stay within
 * half a pixel of one line each, axis-aligned, and span at least 90 % of the limiting dimension:
 * the spread at 1280x800 and the one-page layout in a portrait 800x1200 window, at the high tier
 * (MSAA's coverage). Under the camera of a little in front of above, the spread's side edges
 * lean by several pixels and the pages fill 62 %. */
static void check_framing(CheckState *s, const Cli *c)
{
    const struct {
        const char *size, *layout, *name;
        int w, h;
    } views[] = {{"1280x800", "spread", "rest-spread.png", 1280, 800},
                 {"800x1200", "single", "rest-single.png", 800, 1200}};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; k++) {
        char path[512];
        path_in(c, path, sizeof path, views[k].name);
        Run r = RUN("--headless", "--validation", "--quality", "high", "--page", "5", "--curl", "0",
                    "--size", views[k].size, "--layout", views[k].layout, "--screenshot", path);
        CHECK(s, r.status == 0, "%s: exit %d: %s", views[k].name, r.status, r.err);
        Image img = image_load(path);
        CHECK(s, img.rgba && img.w == views[k].w && img.h == views[k].h, "%s: %dx%d", views[k].name,
              img.w, img.h);
        if (!img.rgba || img.w != views[k].w || img.h != views[k].h) {
            image_free(&img);
            continue;
        }
        /* the outer edges along the middle: left and right per row, top and bottom per column */
        double lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY},
               hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
        int missing = 0;
        double mid_x = img.w / 2.0, mid_y = img.h / 2.0;
        double left = edge_at(&img, (int)mid_y, false, 0, 1),
               right = edge_at(&img, (int)mid_y, false, img.w - 1, -1),
               top = edge_at(&img, (int)mid_x, true, 0, 1),
               bottom = edge_at(&img, (int)mid_x, true, img.h - 1, -1);
        for (int i = 0; i < 4 && isfinite(left + right + top + bottom); i++) {
            bool rows = i < 2;
            double a = rows ? top : left, b = rows ? bottom : right;
            for (double t = 0.1; t <= 0.9; t += 0.01) {
                int line = (int)(a + t * (b - a));
                double e = rows
                               ? edge_at(&img, line, false, i ? img.w - 1 : 0, i ? -1 : 1)
                               : edge_at(&img, line, true, i == 3 ? img.h - 1 : 0, i == 3 ? -1 : 1);
                if (!isfinite(e)) {
                    missing++;
                    continue;
                }
                lo[i] = fmin(lo[i], e), hi[i] = fmax(hi[i], e);
            }
        }
        double lean = 0.0;
        for (int i = 0; i < 4; i++)
            lean = fmax(lean, hi[i] - lo[i]);
        double fill = fmax((right - left) / img.w, (bottom - top) / img.h);
        printf("framing: %s at %s: the pages fill %.1f %% of the limiting dimension, their edges "
               "within %.3f px of straight and axis-aligned\n",
               views[k].layout, views[k].size, 100.0 * fill, lean);
        CHECK(s, missing == 0 && lean <= 0.5,
              "%s: the pages' edges are not face-on: %.2f px off a line (%d not found)",
              views[k].name, lean, missing);
        CHECK(s, fill >= 0.9, "%s: the pages fill %.1f %% of the limiting dimension", views[k].name,
              100.0 * fill);
        image_free(&img);
    }
}

/* Mean absolute difference (0..255, RGB) between `zoomed` and `big` seen through the zoom: pixel
 * q of a picture zoomed `k` times about pixel (x, y) shows what a picture k times larger shows
 * at q + k (x + 1/2) - (x + 1/2) (in continuous pixels), here for k = 2 a 2x2 block's mean. Only
 * where the block lies inside `big`. */
static double zoom_error(const Image *zoomed, const Image *big, int x, int y, int dx, int dy)
{
    double sum = 0.0;
    long n = 0;
    for (int j = 0; j < zoomed->h; j++)
        for (int i = 0; i < zoomed->w; i++) {
            int bx = i + x + dx, by = j + y + dy; /* q + x + 1/2 - 1/2: the block's corner */
            if (bx < 0 || by < 0 || bx + 1 >= big->w || by + 1 >= big->h)
                continue;
            for (int ch = 0; ch < 3; ch++) {
                double m = 0.0;
                for (int k = 0; k < 4; k++)
                    m += big->rgba[4 * ((size_t)(by + k / 2) * big->w + bx + k % 2) + ch];
                sum += fabs(zoomed->rgba[4 * ((size_t)j * zoomed->w + i) + ch] - m / 4.0);
            }
            n++;
        }
    return n ? sum / (3.0 * n) : INFINITY;
}

/* The flat picture of the book's last page (--page 16 --curl 0: its spread has no right-hand
 * leaf) is the left-hand leaf's lying where it is, as with --backward; a pose that turns it
 * (--curl 0.3) still needs --backward and is refused without it. */
static void check_last_page(CheckState *s, const Cli *c)
{
    char flat[512], back[512];
    path_in(c, flat, sizeof flat, "last-flat.png");
    path_in(c, back, sizeof back, "last-backward.png");
    Run r = RUN("--headless", "--quality", "low", "--page", "16", "--curl", "0", "--size",
                "320x180", "--screenshot", flat);
    CHECK(s, r.status == 0, "--page 16 --curl 0: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--quality", "low", "--page", "16", "--curl", "0", "--backward", "--size",
            "320x180", "--screenshot", back);
    CHECK(s, r.status == 0, "--page 16 --curl 0 --backward: exit %d: %s", r.status, r.err);
    Image f = image_load(flat), b = image_load(back);
    CHECK(s, f.rgba && b.rgba && image_same(&f, &b),
          "the last page flat is not the picture --backward gives");
    image_free(&f), image_free(&b);
    r = RUN("--headless", "--page", "16", "--curl", "0.3", "--size", "320x180");
    CHECK(s, r.status == 2 && strstr(r.err, "--backward"),
          "--page 16 --curl 0.3 (no leaf to turn forward): exit %d: %s", r.status, r.err);
}

/* The highlighter's yellow: bright red and green, little blue (the page's paper is white, its
 * print black, the desk grey). Its pixels' count and their box. */
static int yellow(const Image *img, int box[4])
{
    int n = 0;
    box[0] = box[1] = 1 << 30, box[2] = box[3] = -1;
    for (int y = 0; img->rgba && y < img->h; y++)
        for (int x = 0; x < img->w; x++) {
            const unsigned char *p = img->rgba + ((size_t)y * img->w + x) * 4;
            if (p[0] > 200 && p[1] > 170 && p[2] < 140) {
                n++;
                box[0] = x < box[0] ? x : box[0], box[1] = y < box[1] ? y : box[1];
                box[2] = x > box[2] ? x : box[2], box[3] = y > box[3] ? y : box[3];
            }
        }
    return n;
}

/* --find TEXT opens at its first match, highlighted where the word is; none: exit 1 and one
 * line; a book without text: exit 1; --bench: refused. */
static void check_find(CheckState *s, const Cli *c)
{
#ifdef PAGECURL_HAVE_MUPDF
    char pdf[512], found[512], plain[512];
    path_in(c, pdf, sizeof pdf, "find.pdf");
    path_in(c, found, sizeof found, "find.png");
    path_in(c, plain, sizeof plain, "find-plain.png");
    const char *text[6] = {"nothing to see",
                           "the ZEPHYR blew",
                           NULL,
                           "zeph alone",
                           "a zephyr here and\nthere a zeph-\nyr broken",
                           "the end"};
    CHECK(s, pdf_file_text(pdf, 6, text), "cannot write %s", pdf);
    Run r = RUN("--headless", "--quality", "low", "--find", "Zephyr", "--curl", "0", "--size",
                "400x300", "--screenshot", found, pdf);
    CHECK(s, r.status == 0, "--find Zephyr: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--quality", "low", "--page", "2", "--curl", "0", "--size", "400x300",
            "--screenshot", plain, pdf);
    CHECK(s, r.status == 0, "--page 2: exit %d: %s", r.status, r.err);
    Image f = image_load(found), p = image_load(plain);
    int box[4], none[4];
    int n = yellow(&f, box), m = yellow(&p, none);
    /* page 2 is the left-hand page of spread 1: "the ZEPHYR blew" on its first line */
    CHECK(s, f.rgba && n > 50 && m == 0 && box[2] < f.w / 2 && box[0] > 20 && box[3] < f.h / 4,
          "--find Zephyr's highlight: %d yellow pixels in (%d %d)-(%d %d) of %dx%d; %d without", n,
          box[0], box[1], box[2], box[3], f.w, f.h, m);
    image_free(&f), image_free(&p);
    r = RUN("--headless", "--find", "nowhere", "--curl", "0", "--size", "64x48", pdf);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "not found"),
          "--find nowhere: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--find", "page", "--curl", "0", "--size", "64x48");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no text"),
          "--find in the built-in book: exit %d: %s", r.status, r.err);
    r = RUN("--bench", "--find", "page");
    CHECK(s, r.status == 2 && strstr(r.err, "--find"), "--bench --find: exit %d: %s", r.status,
          r.err);
#else
    (void)s, (void)c;
#endif
}

/* --list-links PAGE prints a page's links, one a line (its rectangle, its target); a page
 * without links none; a page the book lacks: exit 2; a flag it does not take: exit 2; a book of
 * images has none. */
static void check_links(CheckState *s, const Cli *c)
{
#ifdef PAGECURL_HAVE_MUPDF
    char pdf[512];
    path_in(c, pdf, sizeof pdf, "links.pdf");
    CHECK(s, pdf_file_links_book(pdf), "cannot write %s", pdf);
    Run r = RUN("--list-links", "1", pdf);
    /* MuPDF gives a page's links in their annotations' order */
    CHECK(s,
          r.status == 0 && !strcmp(r.out, "0.2000 0.2857 0.8000 0.7143 page 4\n"
                                          "0.1000 0.8214 0.5000 0.9286 uri "
                                          "https://example.org/pagecurl\n"),
          "--list-links 1: exit %d: '%s' %s", r.status, r.out, r.err);
    r = RUN("--list-links", "2", pdf);
    CHECK(s, r.status == 0 && !r.out[0], "--list-links 2: exit %d: '%s' %s", r.status, r.out,
          r.err);
    r = RUN("--list-links", "7", pdf);
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--list-links 7"),
          "--list-links 7: exit %d: %s", r.status, r.err);
    r = RUN("--list-links", "1", "--screenshot", "x.png", pdf);
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--screenshot"),
          "--list-links --screenshot: exit %d: %s", r.status, r.err);
    r = RUN("--list-links", "1", "--bench");
    CHECK(s, r.status == 2 && strstr(r.err, "--bench"), "--list-links --bench: exit %d: %s",
          r.status, r.err);
    r = RUN("--list-links", "1");
    CHECK(s, r.status == 0 && !r.out[0], "--list-links in the built-in book: exit %d: '%s' %s",
          r.status, r.out, r.err);
#else
    (void)s, (void)c;
#endif
}

/* --text PAGE prints the page's text in reading order (a page label too), and nothing else; a
 * page without text, a book without text: exit 1 and one line; refused with what it does not
 * draw. */
static void check_text(CheckState *s, const Cli *c)
{
#ifdef PAGECURL_HAVE_MUPDF
    char pdf[512];
    path_in(c, pdf, sizeof pdf, "text.pdf");
    const char *text[3] = {"first page", NULL, "a zephyr here and\nthere a zeph-\nyr broken"};
    CHECK(s, pdf_file_text(pdf, 3, text), "cannot write %s", pdf);
    Run r = RUN("--headless", "--text", "3", pdf);
    CHECK(s, r.status == 0 && !strcmp(r.out, "a zephyr here and\nthere a zeph-\nyr broken\n"),
          "--text 3: exit %d: '%s' %s", r.status, r.out, r.err);
    r = RUN("--headless", "--text", "2", pdf);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no text") && !r.out[0],
          "--text 2 (no text): exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--text", "9", pdf);
    CHECK(s, r.status == 2 && line_count(r.err) == 1, "--text 9 of 3: exit %d: %s", r.status,
          r.err);
    r = RUN("--headless", "--text", "1");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no text"),
          "--text in the built-in book: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--text", "1", "--screenshot", "x.png", pdf);
    CHECK(s, r.status == 2 && strstr(r.err, "--text"), "--text --screenshot: exit %d: %s", r.status,
          r.err);
    r = RUN("--bench", "--text", "1");
    CHECK(s, r.status == 2 && strstr(r.err, "--text"), "--bench --text: exit %d: %s", r.status,
          r.err);
#else
    (void)s, (void)c;
#endif
}

/* --zoom 2 --zoom-at X,Y is the fitted picture twice as large about pixel (X, Y): it matches the
 * same page rendered at twice the size, cropped there, better than the crop one pixel off any
 * way; and at 1x (--zoom 1) the picture is the fitted one, byte for byte. */
static void check_zoom(CheckState *s, const Cli *c)
{
    char fit[512], one[512], zoomed[512], big[512];
    path_in(c, fit, sizeof fit, "zoom-fit.png");
    path_in(c, one, sizeof one, "zoom-1.png");
    path_in(c, zoomed, sizeof zoomed, "zoom-2.png");
    path_in(c, big, sizeof big, "zoom-big.png");
    const int X = 380, Y = 150;
    char at[32];
    snprintf(at, sizeof at, "%d,%d", X, Y);
    Run r = RUN("--headless", "--quality", "low", "--page", "5", "--curl", "0", "--size", "640x360",
                "--screenshot", fit);
    CHECK(s, r.status == 0, "fitted: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--quality", "low", "--page", "5", "--curl", "0", "--size", "640x360",
            "--zoom", "1", "--screenshot", one);
    CHECK(s, r.status == 0, "--zoom 1: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--validation", "--quality", "low", "--page", "5", "--curl", "0",
            "--size", "640x360", "--zoom", "2", "--zoom-at", at, "--screenshot", zoomed);
    CHECK(s, r.status == 0, "--zoom 2: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--quality", "low", "--page", "5", "--curl", "0", "--size", "1280x720",
            "--screenshot", big);
    CHECK(s, r.status == 0, "twice the size: exit %d: %s", r.status, r.err);
    Image f = image_load(fit), o = image_load(one), z = image_load(zoomed), b = image_load(big);
    CHECK(s, f.rgba && o.rgba && image_same(&f, &o), "--zoom 1 is not the fitted picture");
    if (z.rgba && b.rgba && z.w == 640 && b.w == 1280) {
        double at_point = zoom_error(&z, &b, X, Y, 0, 0), off = INFINITY;
        for (int k = 0; k < 4; k++)
            off = fmin(off, zoom_error(&z, &b, X, Y,
                                       k == 0   ? 1
                                       : k == 1 ? -1
                                                : 0,
                                       k == 2   ? 1
                                       : k == 3 ? -1
                                                : 0));
        printf("zoom: --zoom 2 against twice the size, %.2f/255 on average there, %.2f one "
               "pixel off\n",
               at_point, off);
        CHECK(s, at_point < 2.0 && at_point < 0.7 * off,
              "--zoom 2 --zoom-at %s: %.2f/255 from twice the size there, %.2f a pixel off", at,
              at_point, off);
    } else {
        CHECK(s, false, "the zoomed pictures: %dx%d, %dx%d", z.w, z.h, b.w, b.h);
    }
    image_free(&f), image_free(&o), image_free(&z), image_free(&b);
}

/* The picture's format follows its extension: a JPEG of the same pose as a PNG is a JPEG (its
 * magic bytes), of the same size and within JPEG's error of the PNG. --grid N is NxN. */
static void check_formats(CheckState *s, const Cli *c)
{
    char png[512], jpg[512], obj[512];
    path_in(c, png, sizeof png, "pose.png");
    path_in(c, jpg, sizeof jpg, "pose.JPG");
    path_in(c, obj, sizeof obj, "square.obj");
    Run r = RUN("--headless", "--size", "320x240", "--curl", "0.4", "--screenshot", png);
    CHECK(s, r.status == 0, "png: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--size", "320x240", "--curl", "0.4", "--screenshot", jpg);
    CHECK(s, r.status == 0 && strstr(r.out, jpg), "jpg: exit %d: %s", r.status, r.err);
    unsigned char magic[4] = {0};
    FILE *f = fopen(jpg, "rb");
    if (f) {
        CHECK(s, fread(magic, 1, 4, f) == 4, "%s is short", jpg);
        fclose(f);
    }
    CHECK(s, magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF, "%s is not a JPEG", jpg);
    Image a = image_load(png), b = image_load(jpg);
    CHECK(s, a.rgba && b.rgba && a.w == b.w && a.h == b.h, "jpg: %dx%d, png %dx%d", b.w, b.h, a.w,
          a.h);
    if (a.rgba && b.rgba && a.w == b.w && a.h == b.h) {
        double sum = 0.0;
        for (int i = 0; i < a.w * a.h; i++)
            for (int k = 0; k < 3; k++)
                sum += abs(a.rgba[4 * i + k] - b.rgba[4 * i + k]);
        double mean = sum / (3.0 * a.w * a.h);
        CHECK(s, mean < 4.0, "the JPEG differs from the PNG by %.2f a channel on average", mean);
    }
    image_free(&a);
    image_free(&b);
    r = RUN("--headless", "--grid", "5", "--curl", "0", "--export-obj", obj);
    char text[128];
    slurp(obj, text, sizeof text);
    CHECK(s, r.status == 0 && !strncmp(text, "# pagecurl grid 5 5 ", 20), "--grid 5: %s", text);
}

/* --frames-out DIR: every frame as DIR/frame-NNNN.png, a turn whose first and last frames differ;
 * a second run into the same folder, or a folder that is not there, fails with one line and
 * leaves the frames as they were. */
static void check_frames_out(CheckState *s, const Cli *c)
{
    char dir[512], first[600], last[600], extra[600];
    snprintf(dir, sizeof dir, "%s/frames", c->dir);
    mkdir(dir, 0755);
    for (int f = 0; f < 5; f++) {
        snprintf(first, sizeof first, "%s/frame-%04d.png", dir, f);
        unlink(first);
    }
    snprintf(first, sizeof first, "%s/frame-0000.png", dir);
    snprintf(last, sizeof last, "%s/frame-0003.png", dir);
    snprintf(extra, sizeof extra, "%s/frame-0004.png", dir);
    Run r =
        RUN("--headless", "--validation", "--size", "96x64", "--frames", "4", "--frames-out", dir);
    CHECK(s, r.status == 0 && strstr(r.out, dir), "--frames-out: exit %d: %s", r.status, r.err);
    CHECK(s, r.err[0] == '\0', "no terminal, yet stderr says: %s", r.err);
    Image a = image_load(first), b = image_load(last);
    CHECK(s, a.rgba && b.rgba && a.w == 96 && b.h == 64 && !exists(extra),
          "--frames-out did not write frames 0..3 of 96x64");
    CHECK(s, a.rgba && b.rgba && !image_same(&a, &b), "the first and last frames are the same");
    image_free(&a);
    r = RUN("--headless", "--size", "32x32", "--frames", "4", "--frames-out", dir);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "exists"),
          "--frames-out over frames: exit %d: %s", r.status, r.err);
    Image again = image_load(last);
    CHECK(s, image_same(&again, &b), "a refused run changed %s", last);
    image_free(&again);
    image_free(&b);
    /* on a terminal (script(1) gives it one) the run says how far it is */
    char cmd[1400], said[600], text[4096];
    snprintf(said, sizeof said, "%s/progress.txt", c->dir);
    snprintf(cmd, sizeof cmd, "script -qec '%s --headless --size 32x24 --frames 3' /dev/null > %s",
             c->exe, said);
    CHECK(s, system(cmd) == 0, "%s failed", cmd);
    slurp(said, text, sizeof text);
    CHECK(s, strstr(text, "frame 1 of 3") && strstr(text, "frame 3 of 3"),
          "no progress on a terminal: %s", text);
    snprintf(dir, sizeof dir, "%s/no-such-dir", c->dir);
    r = RUN("--headless", "--frames", "2", "--frames-out", dir);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no-such-dir"),
          "--frames-out into no folder: exit %d: %s", r.status, r.err);
}

/* Parses the OBJ of a flat page (t = 0) and checks it against the grid it claims. */
static void check_obj(CheckState *s, const Cli *c)
{
    char path[512];
    path_in(c, path, sizeof path, "page.obj");
    const unsigned nx = 9, ny = 7;
    Run r = RUN("--headless", "--validation", "--grid", "9x7", "--curl", "0", "--export-obj", path);
    CHECK(s, r.status == 0, "export-obj: exit %d: %s", r.status, r.err);
    FILE *f = fopen(path, "r");
    CHECK(s, f != NULL, "%s not written", path);
    if (!f)
        return;
    unsigned hx = 0, hy = 0;
    double w = 0, h = 0;
    int header = fscanf(f, "# pagecurl grid %u %u page %lf %lf\n", &hx, &hy, &w, &h);
    CHECK(s, header == 4 && hx == nx && hy == ny && w > 0 && h > 0, "header: %d fields", header);
    size_t v = 0, vt = 0, vn = 0, faces = 0, bad = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        double a, b, z;
        unsigned i[9];
        if (sscanf(line, "v %lf %lf %lf", &a, &b, &z) == 3) {
            /* flat page: vertex k sits at its rest place, z = 0 */
            double rx = (double)(v % nx) / (nx - 1) * w, ry = (double)(v / nx) / (ny - 1) * h;
            bad += fabs(a - rx) > 1e-6 || fabs(b - ry) > 1e-6 || z != 0.0;
            v++;
        } else if (sscanf(line, "vt %lf %lf", &a, &b) == 2) {
            bad += fabs(a - (double)(vt % nx) / (nx - 1)) > 1e-7 ||
                   fabs(b - (double)(vt / nx) / (ny - 1)) > 1e-7;
            vt++;
        } else if (sscanf(line, "vn %lf %lf %lf", &a, &b, &z) == 3) {
            bad += fabs(a) > 1e-6 || fabs(b) > 1e-6 || fabs(z - 1.0) > 1e-6;
            vn++;
        } else if (sscanf(line, "f %u/%u/%u %u/%u/%u %u/%u/%u", &i[0], &i[1], &i[2], &i[3], &i[4],
                          &i[5], &i[6], &i[7], &i[8]) == 9) {
            for (int k = 0; k < 9; k++)
                bad += i[k] < 1 || i[k] > nx * ny || i[k] != i[k / 3 * 3];
            faces++;
        } else {
            bad++;
        }
    }
    fclose(f);
    CHECK(s, v == nx * ny && vt == v && vn == v, "counts v %zu vt %zu vn %zu", v, vt, vn);
    CHECK(s, faces == 2 * (nx - 1) * (ny - 1), "faces %zu", faces);
    CHECK(s, bad == 0, "%zu malformed or wrong OBJ entries", bad);
}

/* Failures of the environment: exit 1, one line, no file left behind. */
static void check_runtime_errors(CheckState *s, const Cli *c)
{
    char path[512];
    snprintf(path, sizeof path, "%s/no-such-dir/x.png", c->dir);
    Run r = RUN("--headless", "--curl", "0.3", "--screenshot", path);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no-such-dir"),
          "unwritable screenshot: exit %d: %s", r.status, r.err);

    /* An existing file survives a run that cannot complete. */
    char keep[512];
    path_in(c, keep, sizeof keep, "keep.png");
    FILE *f = fopen(keep, "w");
    fputs("precious", f);
    fclose(f);
    r = RUN_ENV("VK_DRIVER_FILES=/nonexistent/icd.json", "--headless", "--curl", "0.3",
                "--screenshot", keep);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "driver"),
          "no driver: exit %d: %s", r.status, r.err);
    char text[64];
    slurp(keep, text, sizeof text);
    CHECK(s, strcmp(text, "precious") == 0, "an existing output was damaged: '%s'", text);

    /* No Vulkan loader at all (libvulkan.so.1 cannot be opened): one line, exit 1, the file
     * untouched; also for --list-devices, which takes another way in. */
    char preload[600];
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", c->no_loader);
    r = RUN_ENV(preload, "--headless", "--curl", "0.3", "--screenshot", keep);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no Vulkan loader"),
          "no loader: exit %d: %s", r.status, r.err);
    r = RUN_ENV(preload, "--list-devices");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no Vulkan loader"),
          "no loader, --list-devices: exit %d: %s", r.status, r.err);
    slurp(keep, text, sizeof text);
    CHECK(s, strcmp(text, "precious") == 0, "an existing output was damaged: '%s'", text);

    /* Outputs that cannot be written for other reasons than a missing folder: the path is a
     * folder, or goes through a regular file. One line naming the path, exit 1. */
    static const char *const unwritable[][2] = {
        {"--screenshot", "folder.png"},     /* a folder */
        {"--export-obj", "keep.png/x.obj"}, /* below a regular file */
        {"--screenshot", "keep.png/x.png"},
    };
    snprintf(path, sizeof path, "%s/folder.png", c->dir);
    mkdir(path, 0755);
    for (size_t i = 0; i < sizeof unwritable / sizeof unwritable[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", c->dir, unwritable[i][1]);
        r = RUN("--headless", "--size", "64x48", "--curl", "0.3", unwritable[i][0], path);
        CHECK(s,
              r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "cannot write") &&
                  strstr(r.err, path),
              "unwritable %s %s: exit %d: %s", unwritable[i][0], path, r.status, r.err);
    }
    /* a trace that does not exist is named, as a malformed one is (exit 2) */
    snprintf(path, sizeof path, "%s/no-such.trace", c->dir);
    r = RUN("--headless", "--replay", path);
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "no-such.trace"),
          "missing trace: exit %d: %s", r.status, r.err);

    /* An existing file survives a run that fails after rendering has started (a device lost on
     * the third submission of ten frames). */
    r = RUN_ENV("PAGECURL_FAULT=submit:3", "--headless", "--frames", "10", "--size", "64x48",
                "--screenshot", keep);
    slurp(keep, text, sizeof text);
    CHECK(s, r.status == 1 && strcmp(text, "precious") == 0,
          "a device lost mid-run: exit %d, existing output now '%s'", r.status, text);

    /* A mesh beyond the device's limits: refused before allocation, with the limit named. */
    r = RUN("--headless", "--grid", "4096x4096", "--curl", "0.5");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "maxStorageBufferRange"),
          "grid beyond the device: exit %d: %s", r.status, r.err);

    /* Faults injected in the Vulkan calls (PAGECURL_FAULT, test-only): a lost device on a frame's
     * submission, no device memory for an allocation. One line, exit 1, no file. */
    char lost[512];
    path_in(c, lost, sizeof lost, "lost.png");
    r = RUN_ENV("PAGECURL_FAULT=submit:3", "--headless", "--validation", "--frames", "10",
                "--screenshot", lost);
    CHECK(s,
          r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "VK_ERROR_DEVICE_LOST") &&
              !exists(lost),
          "device lost on submit: exit %d: %s", r.status, r.err);
    r = RUN_ENV("PAGECURL_FAULT=allocate:5", "--headless", "--validation", "--curl", "0.3");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "out of device memory"),
          "no device memory: exit %d: %s", r.status, r.err);
    /* a value read whole or refused: junk after N was ignored and 2^32 wrapped to 0 (the first
     * submission lost), so a mistyped fault ran another test than meant */
    static const char *const bad_faults[] = {"PAGECURL_FAULT=submit:3x",
                                             "PAGECURL_FAULT=submit:4294967296",
                                             "PAGECURL_FAULT=allocate:0", "PAGECURL_FAULT=lost:3"};
    for (size_t i = 0; i < sizeof bad_faults / sizeof bad_faults[0]; i++) {
        r = RUN_ENV(bad_faults[i], "--headless", "--curl", "0.3");
        CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, bad_faults[i]),
              "%s: exit %d, want 2 and one line naming it: %s", bad_faults[i], r.status, r.err);
    }

    /* No display: the demo falls back to headless and says so. */
    char shot[512];
    path_in(c, shot, sizeof shot, "nodisplay.png");
    r = RUN_ENV("DISPLAY", "--size", "64x48", "--frames", "3", "--screenshot", shot);
    CHECK(s,
          r.status == 0 && strstr(r.err, "no display") && strstr(r.err, "headless") && exists(shot),
          "no display: exit %d: %s", r.status, r.err);
    /* ... where a headless run's flags apply: --curl poses the book, --zoom frames it; and
     * --no-remember asks for what a headless run does anyway (it keeps no place) */
    char posed[512];
    path_in(c, posed, sizeof posed, "nodisplay-posed.png");
    r = RUN_ENV("DISPLAY", "--size", "64x48", "--curl", "0.3", "--zoom", "1.5", "--screenshot",
                posed, "--no-remember");
    CHECK(s, r.status == 0 && strstr(r.err, "running headless") && exists(posed),
          "--curl without a display: exit %d: %s", r.status, r.err);
    /* ... but a recording needs the window: refused, nothing written */
    char record[512];
    path_in(c, record, sizeof record, "nodisplay.trace");
    r = RUN_ENV("DISPLAY", "--size", "64x48", "--frames", "3", "--record", record);
    CHECK(s,
          r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "--record") && !exists(record),
          "--record without a display: exit %d: %s", r.status, r.err);
    /* ... and so does every flag that only a window uses: refused, not ignored */
    r = RUN_ENV("DISPLAY", "--size", "64x48", "--frames", "3", "--present-mode", "mailbox");
    CHECK(s,
          r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "--present-mode") &&
              strstr(r.err, "needs a window"),
          "--present-mode without a display: exit %d: %s", r.status, r.err);
}

static bool write_text(const char *path, const char *text);
static char *read_file(const char *path);

/* The kind of file at `path` without following a link (0 when there is none). */
static mode_t kind(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

static mode_t permissions(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mode & 07777 : 0;
}

/* A replayed stroke across the right page (page 1), for the runs that need ink. */
static const char INK_TRACE[] = "0.00 ink down 0.60 0.50\n0.05 ink move 0.70 0.50\n"
                                "0.10 ink move 0.80 0.52\n0.15 ink up 0.80 0.52\n";
static const char EMPTY_NOTEBOOK[] =
    "{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": []}\n";

/* Writes go through files/safe_write.c: what lies at or around an output is never damaged. Each
 * case sets up the folder, runs, and says what must hold after. */
static void check_safe_writes(CheckState *s, const Cli *c)
{
    char victim[512], shot[512], trace[512], book[512], real[512], path[700], text[256];
    path_in(c, victim, sizeof victim, "victim.txt");
    path_in(c, shot, sizeof shot, "planted.png");
    path_in(c, trace, sizeof trace, "safe-ink.trace");
    CHECK(s, write_text(victim, "victim") && write_text(trace, INK_TRACE), "cannot write files");

    /* Symlinks planted at the temporary names an output might take (NAME.tmp-PID, for the
     * next few hundred PIDs): the file they point at stays as it was. */
    long first = (long)getpid();
    for (long pid = first; pid < first + 400; pid++) {
        snprintf(path, sizeof path, "%s.tmp-%ld", shot, pid);
        unlink(path);
        CHECK(s, symlink(victim, path) == 0, "cannot plant %s", path);
    }
    Run r = RUN("--headless", "--size", "64x48", "--curl", "0.3", "--screenshot", shot);
    slurp(victim, text, sizeof text);
    CHECK(s, r.status == 0 && !strcmp(text, "victim") && kind(shot) == S_IFREG,
          "planted symlinks: exit %d, the file they point at now '%.20s': %s", r.status, text,
          r.err);
    for (long pid = first; pid < first + 400; pid++) {
        snprintf(path, sizeof path, "%s.tmp-%ld", shot, pid);
        unlink(path);
    }

    /* A symlinked notebook is written through (the link stays a link), and a 0600 one stays
     * 0600. */
    path_in(c, real, sizeof real, "real-notebook.json");
    path_in(c, book, sizeof book, "link-notebook.json");
    CHECK(s,
          write_text(real, EMPTY_NOTEBOOK) && chmod(real, 0600) == 0 &&
              symlink("real-notebook.json", book) == 0,
          "cannot set up %s", book);
    r = RUN("--headless", "--size", "64x48", "--replay", trace, "--notebook", book);
    CHECK(s, r.status == 0 && kind(book) == S_IFLNK && strstr(read_file(real), "\"page\": 1"),
          "symlinked notebook: exit %d, link %s, target %s", r.status,
          kind(book) == S_IFLNK ? "kept" : "replaced", read_file(real));
    CHECK(s, permissions(real) == 0600, "a 0600 notebook became %04o", (unsigned)permissions(real));
    r = RUN("--headless", "--size", "64x48", "--replay", trace, "--notebook", real);
    CHECK(s, r.status == 0 && permissions(real) == 0600,
          "a 0600 notebook written directly: exit %d, now %04o", r.status,
          (unsigned)permissions(real));

    /* Targets that are not regular files: refused with one line naming them, left as they
     * were. A device node only where the test may make one (root). */
    char fifo[512], folder[512], device[512];
    path_in(c, fifo, sizeof fifo, "fifo.png");
    path_in(c, folder, sizeof folder, "folder.obj");
    path_in(c, device, sizeof device, "null.png");
    rmdir(folder);
    CHECK(s, mkfifo(fifo, 0644) == 0 && mkdir(folder, 0755) == 0, "cannot make %s", fifo);
    bool have_device = mknod(device, S_IFCHR | 0666, makedev(1, 3)) == 0;
    const struct {
        const char *flag, *path;
        mode_t kind;
        const char *why;
    } special[] = {
        {"--screenshot", fifo, S_IFIFO, "FIFO"},
        {"--export-obj", folder, S_IFDIR, "folder"},
        {"--screenshot", have_device ? device : NULL, S_IFCHR, "device"},
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        if (!special[i].path)
            continue;
        r = RUN("--headless", "--size", "64x48", "--curl", "0.3", special[i].flag, special[i].path);
        CHECK(s,
              r.status == 1 && line_count(r.err) == 1 && strstr(r.err, special[i].path) &&
                  strstr(r.err, special[i].why) && kind(special[i].path) == special[i].kind,
              "%s %s as an output: exit %d, now %s: %s", special[i].why, special[i].path, r.status,
              kind(special[i].path) == special[i].kind ? "kept" : "replaced", r.err);
    }
    unlink(fifo);
    unlink(device);
    rmdir(folder);
}

/* The program with its stdout on `out_fd` (/dev/full, a pipe's write end) and its stderr in
 * `err`: its exit status. With a pipe, `drain` is its read end, read here to the end. */
static int run_stdout_on(const Cli *c, int out_fd, int drain, const char *const *args, char *err,
                         size_t size)
{
    char err_path[600];
    snprintf(err_path, sizeof err_path, "%s/stdout-on-err.txt", c->dir);
    pid_t pid = fork();
    if (pid == 0) {
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (e < 0 || dup2(out_fd, 1) < 0 || dup2(e, 2) < 0)
            _exit(127);
        if (drain >= 0)
            close(drain);
        const char *argv[RUN_MAX_ARGS + 2] = {c->exe};
        for (int i = 0; args[i] && i < RUN_MAX_ARGS; i++)
            argv[i + 1] = args[i];
        execv(c->exe, (char *const *)argv);
        _exit(127);
    }
    if (drain >= 0) {
        close(out_fd);
        char buf[4096];
        while (read(drain, buf, sizeof buf) > 0) {
        }
        close(drain);
    }
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    slurp(err_path, err, size);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Standard output that takes nothing (/dev/full): what was to be printed there is lost, so the
 * run fails (exit 1) and says so in one line; an output named /dev/stdout where stdout is a pipe
 * is refused in one line saying so (it was "No such file or directory"). */
static void check_stdout(CheckState *s, const Cli *c)
{
    static const char *const lost[][10] = {
        {"--help"},
        {"--version"},
        {"--list-devices"},
        {"--bench", "--frames", "2", "--warmup", "0", "--grid", "8", "--size", "32x32"},
    };
    int full = open("/dev/full", O_WRONLY);
    if (full < 0)
        printf("test_cli: no /dev/full here: stdout that takes nothing not tried\n");
    char err[4096];
    for (size_t i = 0; full >= 0 && i < sizeof lost / sizeof lost[0]; i++) {
        int status = run_stdout_on(c, full, -1, lost[i], err, sizeof err);
        CHECK(s, status == 1 && line_count(err) == 1 && strstr(err, "standard output"),
              "%s into /dev/full: exit %d, want 1 and one line: %s", lost[i][0], status, err);
    }
    if (full >= 0)
        close(full);
    int ends[2];
    CHECK(s, pipe(ends) == 0, "pipe: %s", strerror(errno));
    const char *const obj[] = {"--headless", "--size",       "32x24",       "--curl",
                               "0.3",        "--export-obj", "/dev/stdout", NULL};
    int status = run_stdout_on(c, ends[1], ends[0], obj, err, sizeof err);
    CHECK(s,
          status == 1 && line_count(err) == 1 && strstr(err, "/dev/stdout") && strstr(err, "pipe"),
          "--export-obj /dev/stdout on a pipe: exit %d, want 1 and one line saying so: %s", status,
          err);
}

/* One file named by two outputs, or the replayed trace named by an output: bad usage, refused
 * before anything runs (exit 2, one line naming both flags), nothing written. */
static void check_conflicts(CheckState *s, const Cli *c)
{
    char a[512], b[512], t[512];
    path_in(c, a, sizeof a, "same.png");
    path_in(c, b, sizeof b, "same-link.png");
    path_in(c, t, sizeof t, "same.trace");
    CHECK(s, write_text(t, "0 key next\n") && write_text(a, "precious") && link(a, b) == 0,
          "cannot set up %s", b);
    char dotted[600], fr[512], frame0[600], frame2[600];
    snprintf(dotted, sizeof dotted, "%s/./same.png", c->dir);
    /* a frame --frames-out would write, given to another output (or read as the trace) */
    snprintf(fr, sizeof fr, "%s/conflict-frames", c->dir);
    mkdir(fr, 0755);
    snprintf(frame0, sizeof frame0, "%s/frame-0000.png", fr);
    snprintf(frame2, sizeof frame2, "%s/../conflict-frames/frame-0002.png", fr);
    unlink(frame0);
    unlink(frame2);
    static const char *const flags[][2] = {
        {"--screenshot", "--export-obj"},
        {"--screenshot", "--export-obj"},
        {"--json", "--csv"},
        {"--replay", "--record"},
        {"--replay", "--notebook"},
        {"--notebook", "--screenshot"},
        {"--frames-out", "--screenshot"},
        {"--frames-out", "--export-obj"},
        {"--frames-out", "--notebook"},
        {"--frames-out", "--replay"},
    };
    const char *args[][9] = {
        {"--headless", "--curl", "0.3", "--screenshot", a, "--export-obj", a},
        {"--headless", "--curl", "0.3", "--screenshot", a, "--export-obj", b},
        {"--bench", "--json", dotted, "--csv", a},
        {"--headless", "--replay", t, "--record", t},
        {"--headless", "--replay", t, "--notebook", t},
        {"--headless", "--curl", "0.3", "--notebook", a, "--screenshot", dotted},
        {"--headless", "--frames", "3", "--frames-out", fr, "--screenshot", frame0},
        {"--headless", "--frames", "3", "--frames-out", fr, "--export-obj", frame2},
        {"--headless", "--frames", "3", "--frames-out", fr, "--notebook", frame2},
        {"--headless", "--frames-out", fr, "--replay", frame0},
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        Run r = run_program(c->exe, c->dir, NULL, args[i]);
        CHECK(s,
              r.status == 2 && line_count(r.err) == 1 && strstr(r.err, flags[i][0]) &&
                  strstr(r.err, flags[i][1]),
              "conflict %zu (%s, %s): exit %d: %s", i, flags[i][0], flags[i][1], r.status, r.err);
    }
    char text[64];
    slurp(a, text, sizeof text);
    CHECK(s, !strcmp(text, "precious") && !strcmp(read_file(t), "0 key next\n"),
          "a refused run wrote: %s", text);
    CHECK(s, !exists(frame0) && !exists(frame2), "a refused run wrote a frame into %s", fr);
    unlink(b);
}

/* CPU seconds the children waited for so far have used. */
static double children_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* The heaviest stroke must cost less than a second of CPU: the rasteriser draws a side in bands
 * of rows that stay in cache and skips rows and texels already covered whole (~0.4 s here), where
 * drawing it segment by segment over the whole side takes ~1.7 s and working out every texel's
 * distance ~13 s; the sanitizers slow every instruction several times, so their builds get a
 * bound scaled to match. */
#ifdef PAGECURL_SANITIZED
#define HEAVY_STROKE_CPU_S 10.0
#else
#define HEAVY_STROKE_CPU_S 1.0
#endif

/* The heaviest notebook within the limits (docs/formats.md): 500,000 points on the built-in
 * book's 16 pages, 100 strokes a page zig-zagging corner to corner (no segment repeating another:
 * each end lies off its corner by its own amount), the widest and the thinnest ink by turns, every
 * number at full precision (18 MB). It took 75 s of CPU to open (a side's every segment drawn at
 * full scale); now about a second. False when it cannot be written. */
static bool write_worst_notebook(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs("{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [", f);
    unsigned seed = 7;
    for (int p = 0, stroke = 0; p < 16; p++) {
        fprintf(f, "%s\n {\"page\": %d, \"strokes\": [", p ? "," : "", p + 1);
        for (int k = 0; k < 100; k++, stroke++) {
            fputs(k ? ",\n  [" : "\n  [", f);
            int points = 312 + (stroke < 800); /* 1,600 strokes, 500,000 points */
            for (int i = 0; i < points; i++) {
                seed = seed * 1103515245u + 12345u;
                double off = (seed >> 8 & 0xffff) / 65535.0 * 0.001;
                double at = i % 2 ? 1.0 - off : off;
                fprintf(f, "%s[%.9g, %.9g, %.9g]", i ? ", " : "", at, at, i / 2 % 2 ? 0.05 : 0.001);
            }
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputs("\n]}\n", f);
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

/* The heaviest notebook's first frame: a generous bound, a hang's catcher (~1.2 s of CPU
 * measured beyond an empty book's; 75 s before); the sanitizers slow every instruction several
 * times. */
#ifdef PAGECURL_SANITIZED
#define WORST_NOTEBOOK_CPU_S 60.0
#else
#define WORST_NOTEBOOK_CPU_S 12.0
#endif

/* Work bounded by what there is to do: a day-long idle gap in a trace replays in seconds (not
 * 5 million frames); a 20,000-point stroke of the widest ink zig-zagging across the page reaches
 * its first frame with little more CPU time than an empty book, and so does the heaviest
 * notebook within the limits with about a second more. */
static void check_bounded_work(CheckState *s, const Cli *c)
{
    char trace[512], book[512];
    path_in(c, trace, sizeof trace, "day.trace");
    path_in(c, book, sizeof book, "heavy.json");
    CHECK(s, write_text(trace, "0 key next\n86400 key prev\n"), "cannot write %s", trace);
    const char *day[] = {"--headless", "--size", "64x48", "--replay", trace, NULL};
    Run r = run_wait(run_spawn(c->exe, c->dir, NULL, day), c->dir, 120.0);
    CHECK(s, r.status == 0, "a day-long idle gap: exit %d (137: still going after 120 s): %s",
          r.status, r.err);

    FILE *f = fopen(book, "w");
    CHECK(s, f != NULL, "cannot write %s", book);
    if (!f)
        return;
    fputs("{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
          "\"strokes\": [[",
          f);
    unsigned seed = 1;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        double u = (seed >> 8 & 0xffff) / 65535.0;
        seed = seed * 1103515245u + 12345u;
        double v = (seed >> 8 & 0xffff) / 65535.0;
        fprintf(f, "%s[%.4f, %.4f, 0.05]", i ? ", " : "", u, v);
    }
    fputs("]]}]}\n", f);
    fclose(f);
    double t0 = children_cpu();
    r = RUN("--headless", "--size", "64x48", "--curl", "0");
    double t1 = children_cpu();
    Run heavy = RUN("--headless", "--size", "64x48", "--curl", "0", "--notebook", book);
    double t2 = children_cpu();
    double extra = (t2 - t1) - (t1 - t0);
    printf("test_cli: a 20,000-point stroke took %.2f s of CPU more than an empty book\n", extra);
    CHECK(s, r.status == 0 && heavy.status == 0 && extra < HEAVY_STROKE_CPU_S,
          "a 20,000-point stroke: exit %d, %.2f s of CPU more than an empty book: %s", heavy.status,
          extra, heavy.err);

    char worst[512];
    path_in(c, worst, sizeof worst, "worst.notebook");
    CHECK(s, write_worst_notebook(worst), "cannot write %s", worst);
    double t3 = children_cpu();
    const char *args[] = {"--headless", "--size",     "64x48", "--curl",
                          "0",          "--notebook", worst,   NULL};
    Run w = run_wait(run_spawn(c->exe, c->dir, NULL, args), c->dir, 120.0);
    double most = (children_cpu() - t3) - (t1 - t0);
    printf("test_cli: the heaviest notebook within the limits (500,000 points) took %.2f s of CPU "
           "more than an empty book\n",
           most);
    CHECK(s, w.status == 0 && most < WORST_NOTEBOOK_CPU_S,
          "the heaviest notebook: exit %d (137: still going after 120 s), %.2f s of CPU more than "
          "an empty book: %s",
          w.status, most, w.err);
}

/* Whether process `pid` holds the file at `real` (a real path) open: it has reached the stage
 * that reads it. */
static bool holds_open(pid_t pid, const char *real)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)pid);
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));) {
        char link[400], target[4096];
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0)
            target[n] = '\0', found = !strcmp(target, real);
    }
    if (d)
        closedir(d);
    return found;
}

/* `sig` sent to a run `after` seconds after it holds `path` open (reading it, or what follows,
 * however long that would take): the run ends by that signal, saying so, within seconds (the
 * bound a hang's catcher: the time is printed). */
static void stop_in_stage(CheckState *s, const Cli *c, const char *const *args, const char *path,
                          int sig, double after, const char *stage)
{
    char real[4096];
    if (!realpath(path, real)) {
        CHECK(s, false, "%s: no real path for %s", stage, path);
        return;
    }
    pid_t pid = run_spawn(c->exe, c->dir, NULL, args);
    struct timespec tick = {0, 1000 * 1000}, t0, t1;
    bool reached = false;
    for (int i = 0; i < 60000 && !reached; i++) /* a minute at most, to reach the stage */
        if (!(reached = holds_open(pid, real)))
            nanosleep(&tick, NULL);
    struct timespec later = {(time_t)after, (long)((after - (double)(time_t)after) * 1e9)};
    nanosleep(&later, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    kill(pid, sig);
    Run r = run_wait(pid, c->dir, 20.0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("test_cli: %s: ended %.3f s after %s, sent %g s after it was opened (exit %d)\n", stage,
           took, sig == SIGINT ? "SIGINT" : "SIGTERM", after, r.status);
    CHECK(s, reached, "%s: the run never opened %s: exit %d: %s", stage, path, r.status, r.err);
    CHECK(s, r.status == 128 + sig && strstr(r.err, "stopped by SIG") && line_count(r.err) == 1,
          "%s: exit %d (want %d; 137: still running 20 s after the signal) after %.1f s: %s", stage,
          r.status, 128 + sig, took, r.err);
}

/* SIGTERM while the heaviest notebook is read and its ink drawn (as it is opened, and a second
 * and three seconds later: wherever its reading and drawing are then), SIGINT while a PDF of
 * 10 GB (a header, then a hole: MuPDF reads it all to repair it, 29 s) opens: each ends the run
 * by that signal within a moment (the notebook's ink held it 62 s, the PDF 29 s, ending it with
 * exit 1), the notebook left as it was. */
static void check_stop_stages(CheckState *s, const Cli *c)
{
    char worst[512], copy[512];
    path_in(c, worst, sizeof worst, "worst-stopped.notebook");
    path_in(c, copy, sizeof copy, "worst-copy.notebook");
    CHECK(s, write_worst_notebook(worst) && write_worst_notebook(copy), "cannot write %s", worst);
    const char *reading[] = {"--headless", "--size",     "64x48", "--frames",
                             "100000",     "--notebook", worst,   NULL};
    static const double after[] = {0.0, 1.0, 3.0};
    for (size_t i = 0; i < sizeof after / sizeof after[0]; i++)
        stop_in_stage(s, c, reading, worst, SIGTERM, after[i], "the heaviest notebook");
    CHECK(s, run_same_file(worst, copy), "a notebook whose reading was stopped was changed");
#ifdef PAGECURL_HAVE_MUPDF
    char big[512];
    path_in(c, big, sizeof big, "big.pdf");
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool made = fd >= 0 && write(fd, "%PDF-1.7\n", 9) == 9 && ftruncate(fd, 10LL << 30) == 0;
    if (fd >= 0)
        close(fd);
    if (made) {
        const char *opening[] = {"--headless", "--size", "64x48", "--book", big, NULL};
        stop_in_stage(s, c, opening, big, SIGINT, 0.0, "a 10 GB PDF being opened");
    } else {
        printf("test_cli: no sparse file of 10 GB here: the PDF's open is not stopped\n");
    }
    unlink(big);
#endif
}

/* SIGTERM during a benchmark: it stops and writes what it measured as valid JSON marked
 * partial, with no temporary file left (check_no_leftovers). */
static void check_bench_signal(CheckState *s, const Cli *c)
{
    char json[512];
    path_in(c, json, sizeof json, "stopped.json");
    const char *args[] = {"--bench",  "--grid", "16x16",  "--frames", "1000000",
                          "--warmup", "0",      "--json", json,       NULL};
    pid_t pid = run_spawn(c->exe, c->dir, NULL, args);
    sleep(3);
    kill(pid, SIGTERM);
    Run r = run_wait(pid, c->dir, 60.0);
    cJSON *root = cJSON_Parse(read_file(json));
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(root, "context");
    CHECK(s,
          r.status == 128 + SIGTERM && cJSON_IsArray(cJSON_GetObjectItem(root, "runs")) &&
              cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(context, "partial")),
          "a SIGTERM'd bench: exit %d, JSON %s: %s", r.status, read_file(json), r.err);
    cJSON_Delete(root);
}

/* No failed run above left a temporary file behind (files/safe_write.c writes .NAME.tmp-XXXXXX,
 * then renames it into place), nor a notebook's lock file. */
static void check_no_leftovers(CheckState *s, const Cli *c)
{
    char cmd[700], found[1024];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.tmp-*' -o -name '*.lock' > '%s/leftovers.txt'",
             c->dir, c->dir);
    CHECK(s, system(cmd) == 0, "%s failed", cmd);
    snprintf(cmd, sizeof cmd, "%s/leftovers.txt", c->dir);
    slurp(cmd, found, sizeof found);
    CHECK(s, found[0] == '\0', "temporary files left behind: %s", found);
}

/* A number in the JSON that must be there and be > 0 (>= 0 where `zero_ok`). */
static void check_number(CheckState *s, const cJSON *obj, const char *key, bool zero_ok,
                         const char *where)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    bool ok = cJSON_IsNumber(item) && (zero_ok ? item->valuedouble >= 0 : item->valuedouble > 0);
    CHECK(s, ok, "%s: \"%s\" missing or not %s", where, key, zero_ok ? ">= 0" : "> 0");
}

static void check_stats(CheckState *s, const cJSON *obj, const char *where)
{
    CHECK(s, cJSON_IsObject(obj), "%s: not an object", where);
    check_number(s, obj, "min_ms", false, where);
    check_number(s, obj, "median_ms", false, where);
    check_number(s, obj, "p99_ms", false, where);
}

/* The benchmark as a user runs it: the table, the JSON (every key, positive numbers, the frame
 * count asked for), the CSV (one row per frame), the plot, and its bad values. */
static void check_bench(CheckState *s, const Cli *c)
{
    char json[512], csv[512];
    path_in(c, json, sizeof json, "bench.json");
    path_in(c, csv, sizeof csv, "bench.csv");
    Run r = RUN("--bench", "--grid", "64x64", "--frames", "30", "--warmup", "3", "--validation",
                "--json", json, "--csv", csv);
    CHECK(s, r.status == 0, "bench: exit %d: %s", r.status, r.err);
    CHECK(s,
          strstr(r.out, "median ms") && strstr(r.out, "frames/s") &&
              strstr(r.out, "copy bandwidth"),
          "bench: no table on stdout: %s", r.out);
    static char text[1 << 16];
    slurp(json, text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    CHECK(s, root != NULL, "bench.json does not parse");
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(root, "context");
    static const char *const strings[] = {"device", "driver", "api_version", "date", "command"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(context, strings[i]);
        CHECK(s, cJSON_IsString(item) && item->valuestring[0], "context.%s missing", strings[i]);
    }
    check_number(s, context, "copy_gbps", false, "context");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    CHECK(s, cJSON_GetArraySize(runs) == 1, "want one run, got %d", cJSON_GetArraySize(runs));
    const cJSON *run = cJSON_GetArrayItem(runs, 0);
    const cJSON *grid = cJSON_GetObjectItemCaseSensitive(run, "grid");
    CHECK(s,
          cJSON_GetArraySize(grid) == 2 && cJSON_GetArrayItem(grid, 0)->valueint == 64 &&
              cJSON_GetArrayItem(grid, 1)->valueint == 64,
          "run.grid is not [64, 64]");
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(run, "frames");
    CHECK(s, cJSON_IsNumber(frames) && frames->valueint == 30, "run.frames is not 30");
    /* --quality auto: the low tier on a CPU device (lavapipe), drawn without MSAA */
    const cJSON *device = cJSON_GetObjectItemCaseSensitive(context, "device");
    bool cpu = cJSON_IsString(device) && strstr(device->valuestring, "llvmpipe");
    const cJSON *quality = cJSON_GetObjectItemCaseSensitive(run, "quality");
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(run, "samples");
    CHECK(s,
          cJSON_IsString(quality) && !strcmp(quality->valuestring, cpu ? "low" : "high") &&
              cJSON_IsNumber(samples) && (!cpu || samples->valueint == 1),
          "run.quality %s, samples %d on %s", cJSON_IsString(quality) ? quality->valuestring : "-",
          cJSON_IsNumber(samples) ? samples->valueint : -1,
          cJSON_IsString(device) ? device->valuestring : "?");
    check_number(s, run, "vertices", false, "run");
    check_number(s, run, "triangles", false, "run");
    check_number(s, run, "fps", false, "run");
    check_number(s, run, "cpu_reference_normals_ms", false, "run");
    check_number(s, run, "speedup_vs_cpu", false, "run");
    check_number(s, run, "max_stretch", true, "run");
    check_number(s, run, "max_normal_error_deg", true, "run");
    check_stats(s, cJSON_GetObjectItemCaseSensitive(run, "frame"), "run.frame");
    check_stats(s, cJSON_GetObjectItemCaseSensitive(run, "cpu_per_frame"), "run.cpu_per_frame");
    check_stats(s, cJSON_GetObjectItemCaseSensitive(run, "cpu_wall_per_frame"),
                "run.cpu_wall_per_frame");
    check_number(s, run, "recorded_frames", true, "run");
    const cJSON *stages = cJSON_GetObjectItemCaseSensitive(run, "stages");
    CHECK(s, cJSON_GetArraySize(stages) >= 2, "run.stages has %d stages",
          cJSON_GetArraySize(stages));
    for (const cJSON *st = stages ? stages->child : NULL; st; st = st->next)
        check_stats(s, st, st->string);
    CHECK(s, cJSON_GetObjectItemCaseSensitive(stages, "render") != NULL, "no render stage");
    cJSON_Delete(root);

    /* the CPU round trip end to end, each stage timed: CPU deform, staging pack, staging
     * copies */
    r = RUN("--bench", "--grid", "33x47", "--frames", "8", "--warmup", "2", "--validation",
            "--deform", "cpu", "--pack", "staging", "--staging", "always", "--bench-stages",
            "--json", json);
    CHECK(s, r.status == 0, "bench --pack staging: exit %d: %s", r.status, r.err);
    slurp(json, text, sizeof text);
    root = cJSON_Parse(text);
    run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "runs"), 0);
    stages = cJSON_GetObjectItemCaseSensitive(run, "stages");
    static const char *const seed_stages[] = {"deform",          "upload",       "tri_normals",
                                              "vertex_normals",  "readback_soa", "pack",
                                              "upload_vertices", "render"};
    for (size_t i = 0; i < sizeof seed_stages / sizeof seed_stages[0]; i++)
        check_stats(s, cJSON_GetObjectItemCaseSensitive(stages, seed_stages[i]), seed_stages[i]);
    const cJSON *pack = cJSON_GetObjectItemCaseSensitive(run, "pack");
    CHECK(s, cJSON_IsString(pack) && !strcmp(pack->valuestring, "staging"),
          "run.pack is not \"staging\"");
    CHECK(s, cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "in_place")),
          "--staging always: run.in_place is not false");
    CHECK(s, !cJSON_GetObjectItemCaseSensitive(stages, "chain"),
          "--bench-stages: the stages were also timed as one span");
    cJSON_Delete(root);
    /* --repeat: each kernel recorded R times, the stages timed apart (a span may hold a copy,
     * which is not repeated), R in the JSON */
    r = RUN("--bench", "--grid", "33x47", "--frames", "4", "--warmup", "1", "--validation",
            "--deform", "cpu", "--pack", "staging", "--repeat", "3", "--json", json);
    CHECK(s, r.status == 0, "bench --repeat 3: exit %d: %s", r.status, r.err);
    slurp(json, text, sizeof text);
    root = cJSON_Parse(text);
    run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "runs"), 0);
    stages = cJSON_GetObjectItemCaseSensitive(run, "stages");
    const cJSON *repeat = cJSON_GetObjectItemCaseSensitive(run, "repeat");
    CHECK(s, cJSON_IsNumber(repeat) && repeat->valuedouble == 3.0, "--repeat 3: run.repeat");
    check_stats(s, cJSON_GetObjectItemCaseSensitive(stages, "tri_normals"), "tri_normals");
    CHECK(s, !cJSON_GetObjectItemCaseSensitive(stages, "chain"),
          "--repeat: the stages were timed as one span");
    cJSON_Delete(root);
    /* without --bench-stages the kernels and copies of one submission are one span: no
     * timestamps between them */
    r = RUN("--bench", "--grid", "33x47", "--frames", "8", "--warmup", "2", "--validation",
            "--deform", "cpu", "--pack", "staging", "--staging", "always", "--json", json);
    CHECK(s, r.status == 0, "bench --pack staging, one span: exit %d: %s", r.status, r.err);
    slurp(json, text, sizeof text);
    root = cJSON_Parse(text);
    run = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "runs"), 0);
    stages = cJSON_GetObjectItemCaseSensitive(run, "stages");
    /* upload, tri_normals, vertex_normals and readback_soa before the host's pack; then
     * upload_vertices alone, under its own name */
    static const char *const span_stages[] = {"deform", "chain", "pack", "upload_vertices",
                                              "render"};
    for (size_t i = 0; i < sizeof span_stages / sizeof span_stages[0]; i++)
        check_stats(s, cJSON_GetObjectItemCaseSensitive(stages, span_stages[i]), span_stages[i]);
    CHECK(s, cJSON_GetArraySize(stages) == (int)(sizeof span_stages / sizeof span_stages[0]),
          "one span: want %zu stages, got %d: %s", sizeof span_stages / sizeof span_stages[0],
          cJSON_GetArraySize(stages), text);
    cJSON_Delete(root);

    slurp(csv, text, sizeof text);
    CHECK(s, strncmp(text, "nx,ny,frame,", 12) == 0 && line_count(text) == 31,
          "bench.csv: want a header and 30 rows, got %d lines", line_count(text));

    /* the plot script draws that CSV */
    char cmd[1200], svg[512];
    path_in(c, svg, sizeof svg, "frames.svg");
    snprintf(cmd, sizeof cmd, "sh %s %s > %s", c->plot, csv, svg);
    CHECK(s, system(cmd) == 0, "%s failed", cmd);
    slurp(svg, text, sizeof text);
    CHECK(s, strstr(text, "<svg") && strstr(text, "<polyline") && strstr(text, "render"),
          "frames.svg has no curves");

    /* A device lost in the second size of a sweep: exit 1, and the JSON still holds the first
     * size's measurements and the second's error (PAGECURL_FAULT counts frame submissions: the
     * bandwidth probe's one, then 10 frames and a read-back frame for 16x16). */
    char partial[512];
    path_in(c, partial, sizeof partial, "partial.json");
    r = RUN_ENV("PAGECURL_FAULT=submit:15", "--bench", "--grids", "16,32", "--frames", "10",
                "--warmup", "0", "--json", partial);
    CHECK(s, r.status == 1, "bench with a lost device: exit %d", r.status);
    slurp(partial, text, sizeof text);
    root = cJSON_Parse(text);
    runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    const cJSON *measured = cJSON_GetArrayItem(runs, 0), *lost_run = cJSON_GetArrayItem(runs, 1);
    CHECK(s,
          cJSON_GetArraySize(runs) == 2 &&
              cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(measured, "stages")) &&
              cJSON_IsString(cJSON_GetObjectItemCaseSensitive(lost_run, "error")),
          "a bench that lost its device did not keep what it measured: %s", text);
    cJSON_Delete(root);

    /* a size beyond the device (lavapipe's 128 MiB storage range) is skipped, naming the limit */
    r = RUN("--bench", "--grids", "16,4096", "--frames", "3", "--warmup", "0");
    CHECK(s, r.status == 0 && strstr(r.out, "skipped") && strstr(r.out, "maxStorageBufferRange"),
          "--grids 16,4096: exit %d: %s", r.status, r.out);

    /* bad values: one line, the right status, no file left behind */
    char never[512];
    path_in(c, never, sizeof never, "never.json");
    r = RUN("--bench", "--frames", "0", "--json", never);
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--frames"),
          "--frames 0: exit %d: %s", r.status, r.err);
    r = RUN("--bench", "--grids", "64,,x", "--json", never);
    CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--grids"),
          "--grids 64,,x: exit %d: %s", r.status, r.err);
    r = RUN("--json", never);
    CHECK(s, r.status == 2 && strstr(r.err, "--bench"), "--json without --bench: exit %d",
          r.status);
    CHECK(s, !exists(never), "a failed run left %s", never);
    char bad[512];
    snprintf(bad, sizeof bad, "%s/no-such-dir/bench.json", c->dir);
    r = RUN("--bench", "--grid", "8x8", "--frames", "2", "--warmup", "0", "--json", bad);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no-such-dir"),
          "unwritable --json: exit %d: %s", r.status, r.err);
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* Pixels of the page's back colour (a pale blue) in the left half: the turned leaf lies there. */
static size_t left_back_pixels(const char *path)
{
    Image img = image_load(path);
    size_t count = 0;
    for (int y = 0; img.rgba && y < img.h; y++)
        for (int x = 0; x < img.w / 2; x++) {
            const unsigned char *p = &img.rgba[4 * (y * img.w + x)];
            count += p[2] > 150 && p[2] > p[0] + 25;
        }
    image_free(&img);
    return count;
}

/* Pixels of two pictures of one size that differ by more than 48 in a channel (all of them for
 * pictures of two sizes). */
static size_t pixels_apart(const Image *a, const Image *b)
{
    if (!a->rgba || !b->rgba || a->w != b->w || a->h != b->h)
        return (size_t)-1;
    size_t n = 0;
    for (size_t i = 0; i < (size_t)a->w * (size_t)a->h; i++) {
        bool apart = false;
        for (int c = 0; c < 3; c++)
            apart = apart || abs(a->rgba[4 * i + c] - b->rgba[4 * i + c]) > 48;
        n += apart;
    }
    return n;
}

/* A replayed click on a link follows it as the window's click did (app/trace_apply.c: the same
 * code): headless, a click at the middle of page 1 (found in a still of the first spread, flat:
 * its paper's box), on its link to page 4, ends on the spread --page 4 opens at, flat; a press
 * there dragged past a click's travel and let go where it was pressed is no click. */
static void check_replay_links(CheckState *s, const Cli *c)
{
#ifdef PAGECURL_HAVE_MUPDF
    char pdf[512], trace[512], first[512], clicked[512], dragged[512], at4[512];
    path_in(c, pdf, sizeof pdf, "replay-links.pdf");
    path_in(c, trace, sizeof trace, "replay-links.trace");
    path_in(c, first, sizeof first, "replay-links-first.png");
    path_in(c, clicked, sizeof clicked, "replay-links-clicked.png");
    path_in(c, dragged, sizeof dragged, "replay-links-dragged.png");
    path_in(c, at4, sizeof at4, "replay-links-4.png");
    CHECK(s, pdf_file_links_book(pdf), "cannot write %s", pdf);
    Run r = RUN("--headless", "--size", "320x240", "--curl", "0", "--screenshot", first, pdf);
    CHECK(s, r.status == 0, "the first spread: exit %d: %s", r.status, r.err);
    Image img = image_load(first);
    int x0 = 320, y0 = 240, x1 = -1, y1 = -1;
    for (int y = 0; img.rgba && y < img.h; y++)
        for (int x = 0; x < img.w; x++) {
            const unsigned char *p = &img.rgba[4 * (y * img.w + x)];
            if (p[0] > 180 && p[1] > 180 && p[2] > 180) {
                x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
            }
        }
    image_free(&img);
    CHECK(s, x1 > x0 + 40 && y1 > y0 + 40, "page 1's paper: (%d %d)-(%d %d)", x0, y0, x1, y1);
    if (x1 <= x0 + 40 || y1 <= y0 + 40)
        return;
    float fx = 0.5f * (x0 + x1 + 1) / 320.0f, fy = 0.5f * (y0 + y1 + 1) / 240.0f;
    char text[256];
    snprintf(text, sizeof text, "0.5 mouse down %.4f %.4f\n0.55 mouse up %.4f %.4f\n", fx, fy, fx,
             fy);
    CHECK(s, write_text(trace, text), "cannot write %s", trace);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--screenshot", clicked, pdf);
    CHECK(s, r.status == 0, "the click replayed: exit %d: %s", r.status, r.err);
    /* what the click's run said (a link read that failed says so): for the check below */
    char click_said[sizeof r.err];
    memcpy(click_said, r.err, sizeof click_said);
    snprintf(text, sizeof text,
             "0.5 mouse down %.4f %.4f\n0.52 mouse move %.4f %.4f\n0.54 mouse move %.4f %.4f\n"
             "0.56 mouse up %.4f %.4f\n",
             fx, fy, fx - 0.05f, fy, fx, fy, fx, fy);
    CHECK(s, write_text(trace, text), "cannot write %s", trace);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--screenshot", dragged, pdf);
    CHECK(s, r.status == 0, "the drag replayed: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--size", "320x240", "--page", "4", "--curl", "0", "--screenshot", at4,
            pdf);
    CHECK(s, r.status == 0, "--page 4: exit %d: %s", r.status, r.err);
    Image a = image_load(clicked), b = image_load(at4), d = image_load(dragged),
          f = image_load(first);
    CHECK(s, a.rgba && b.rgba && d.rgba && f.rgba, "no screenshots of the replayed click");
    /* a spread drawn after a cut, and the same opened at, differ a little (the print's texels) */
    size_t to4 = pixels_apart(&a, &b), to1 = pixels_apart(&a, &f);
    size_t drag4 = pixels_apart(&d, &b), drag1 = pixels_apart(&d, &f);
    printf("replayed click: %zu pixels apart from --page 4's, %zu from page 1's; the drag %zu "
           "and %zu\n",
           to4, to1, drag4, drag1);
    CHECK(s, 20 * to4 < to1,
          "a replayed click on page 1's link to page 4: %zu pixels apart from --page 4's, %zu "
          "from page 1's (its run said: %s)",
          to4, to1, click_said);
    CHECK(s, 20 * drag1 < drag4,
          "a replayed drag from page 1's link: %zu pixels apart from page 1's, %zu from --page "
          "4's",
          drag1, drag4);
    image_free(&a);
    image_free(&b);
    image_free(&d);
    image_free(&f);
#else
    (void)s, (void)c;
#endif
}

/* `pagecurl BOOK`, as every viewer opens a file: the one bare argument is the book, the picture
 * the same as with --book BOOK (and not the built-in book's), its errors --book's. */
static void check_bare_book(CheckState *s, const Cli *c)
{
    char dir[512], page[600], bare[512], flag[512], builtin[512], missing[512];
    path_in(c, dir, sizeof dir, "bare-book");
    path_in(c, bare, sizeof bare, "bare.png");
    path_in(c, flag, sizeof flag, "flag.png");
    path_in(c, builtin, sizeof builtin, "builtin.png");
    path_in(c, missing, sizeof missing, "no-such-book.pdf");
    CHECK(s, mkdir(dir, 0755) == 0 || errno == EEXIST, "cannot make %s", dir);
    static const unsigned char colours[2][3] = {{200, 40, 40}, {40, 40, 200}};
    for (int k = 0; k < 2; k++) {
        unsigned char px[8 * 11 * 3];
        for (int i = 0; i < 8 * 11; i++)
            memcpy(&px[3 * i], colours[k], 3);
        snprintf(page, sizeof page, "%s/%d.png", dir, k + 1);
        CHECK(s, stbi_write_png(page, 8, 11, 3, px, 8 * 3), "cannot write %s", page);
    }
    /* a headless run keeps no place (app/place.h): the state folder stays as it was */
    char state[600], env[620];
    path_in(c, state, sizeof state, "bare-state");
    snprintf(env, sizeof env, "XDG_STATE_HOME=%s", state);
    Run r =
        RUN_ENV(env, "--headless", "--curl", "0", "--size", "160x120", "--screenshot", bare, dir);
    CHECK(s, r.status == 0, "pagecurl --headless ... BOOK: exit %d: %s", r.status, r.err);
    CHECK(s, kind(state) == 0, "a headless run made the state folder %s", state);
    r = RUN("--headless", "--curl", "0", "--size", "160x120", "--screenshot", flag, "--book", dir);
    CHECK(s, r.status == 0, "--book BOOK: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--curl", "0", "--size", "160x120", "--screenshot", builtin);
    CHECK(s, r.status == 0, "the built-in book: exit %d: %s", r.status, r.err);
    Image a = image_load(bare), b = image_load(flag), d = image_load(builtin);
    CHECK(s, a.rgba && image_same(&a, &b), "BOOK and --book BOOK show different pictures");
    CHECK(s, a.rgba && d.rgba && !image_same(&a, &d), "BOOK shows the built-in book");
    image_free(&a), image_free(&b), image_free(&d);
    Run x = RUN("--headless", "--curl", "0", missing),
        y = RUN("--headless", "--curl", "0", "--book", missing);
    CHECK(s, x.status == y.status && x.status != 0 && !strcmp(x.err, y.err),
          "a missing BOOK: exit %d '%s', as --book: exit %d '%s'", x.status, x.err, y.status,
          y.err);
}

/* Input traces: a finger dragging the right page over the spine, replayed headless at a fixed
 * step, turns it (the back of the leaf shows on the left); twice gives the same pixels; a trace
 * that is not one is refused with its line number and exit 2. */
static void check_traces(CheckState *s, const Cli *c)
{
    char trace[512], shot[512], again[512], flat[512];
    path_in(c, trace, sizeof trace, "finger.trace");
    path_in(c, shot, sizeof shot, "finger.png");
    path_in(c, again, sizeof again, "finger-again.png");
    path_in(c, flat, sizeof flat, "untouched.png");
    char text[2048] = "# a finger drags the bottom right of the right page to the left\n"
                      "0.00 finger down 0.64 0.80\n";
    for (int k = 1; k <= 12; k++) {
        char line[64];
        snprintf(line, sizeof line, "%.2f finger move %.3f %.3f\n", 0.03 * k, 0.64 - 0.04 * k,
                 0.80 - 0.005 * k);
        strcat(text, line);
    }
    strcat(text, "0.40 finger up 0.16 0.74\n");
    CHECK(s, write_text(trace, text), "cannot write %s", trace);
    Run r = RUN("--headless", "--validation", "--size", "320x240", "--replay", trace,
                "--screenshot", shot);
    CHECK(s, r.status == 0, "replay: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--validation", "--size", "320x240", "--replay", trace, "--screenshot",
            again);
    CHECK(s, r.status == 0, "second replay: exit %d: %s", r.status, r.err);
    Image a = image_load(shot), b = image_load(again);
    CHECK(s, image_same(&a, &b), "the same trace replayed twice gave different pictures");
    image_free(&a);
    image_free(&b);
    CHECK(s, write_text(trace, "0.0 key prev\n"), "cannot write %s", trace); /* nothing to do */
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--screenshot", flat);
    CHECK(s, r.status == 0, "replay of a key before the first page: exit %d: %s", r.status, r.err);
    /* End opens the book at its last spread and Home back at its first, as in the window */
    char end[512], home[512];
    path_in(c, end, sizeof end, "end.png");
    path_in(c, home, sizeof home, "home.png");
    CHECK(s, write_text(trace, "0.0 key end\n"), "cannot write %s", trace);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--frames", "3", "--screenshot",
            end);
    CHECK(s, r.status == 0, "replay of End: exit %d: %s", r.status, r.err);
    CHECK(s, write_text(trace, "0.0 key end\n0.1 key home\n"), "cannot write %s", trace);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--screenshot", home);
    CHECK(s, r.status == 0, "replay of End, Home: exit %d: %s", r.status, r.err);
    Image at_end = image_load(end), at_home = image_load(home), at_start = image_load(flat);
    CHECK(s, at_end.rgba && at_home.rgba && at_start.rgba, "no End/Home screenshots");
    if (at_end.rgba && at_home.rgba && at_start.rgba) {
        CHECK(s, left_back_pixels(end) > 5000, "End left no turned leaves on the left");
        CHECK(s, image_same(&at_home, &at_start), "End then Home is not the first spread");
    }
    image_free(&at_end);
    image_free(&at_home);
    image_free(&at_start);
    size_t turned = left_back_pixels(shot), untouched = left_back_pixels(flat);
    CHECK(s, turned > 5000 && untouched == 0,
          "the finger trace did not turn the page: %zu back-coloured pixels on the left (%zu "
          "without input)",
          turned, untouched);

    static const struct {
        const char *text, *where;
    } bad[] = {
        {"0.0 mouse down 0.5 0.5\n0.1 mouse move abc 0.5\n", ":2:"},
        {"0.0 mouse down 0.5 0.5\n\n0.1 finger wiggle 0.5 0.5\n", ":3:"},
        {"# truncated\n0.1 finger down 0.5\n", ":2:"},
        {"0.5 key next\n0.4 key next\n", ":2:"},
        {"0.1 mouse down 1.5 0.5\n", ":1:"},
        {"0.1 ink down 0.5 0.5 1.5\n", ":1:"},
        {"0.0 ink down 0.5 0.5\n0.1 ink up 0.5 0.5 1\n", ":2:"},
        /* a stroke's moves and its up follow its down */
        {"0.0 ink move 0.5 0.5\n", ":1: ink move with no ink down"},
        {"0.0 ink down 0.5 0.5\n0.1 ink up 0.5 0.5\n0.2 ink up 0.5 0.5\n", ":3: ink up"},
        {"0.0 mouse down 0.5 0.5\n0.1 ink move 0.5 0.5\n", ":2: ink move"},
        {"0.1 key clear\n", ":1:"},
        {"0.1 mouse down 0.5 0.5 0.5\n", ":1:"},
        {"0.1 finger clear 0.5 0.5\n", ":1:"},
        {"0.1 mouse home 0.5 0.5\n", ":1:"},
        {"0.1 key end 0.5 0.5\n", ":1:"},
        /* the notebook's start: once, at 0, before the events, 16 lower-case hex digits */
        {"0.0 key next\n0 notebook start 0123456789abcdef\n", ":2:"},
        {"0 notebook start 0123456789abcdef\n0 notebook start 0123456789abcdef\n", ":2:"},
        {"0.5 notebook start 0123456789abcdef\n", ":1:"},
        {"0 notebook start 0123456789ABCDEF\n", ":1:"},
        {"0 notebook start 12345\n", ":1:"},
        {"0 notebook end 0123456789abcdef\n", ":1:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(s, write_text(trace, bad[i].text), "cannot write %s", trace);
        r = RUN("--headless", "--replay", trace);
        CHECK(s, r.status == 2 && line_count(r.err) == 1 && strstr(r.err, bad[i].where),
              "malformed trace %zu: exit %d: %s", i, r.status, r.err);
    }
}

/* The whole file, or an empty string. */
static char *read_file(const char *path)
{
    static char buf[1 << 16];
    buf[0] = '\0';
    slurp(path, buf, sizeof buf);
    return buf;
}

/* A notebook that cannot be kept is refused up front, before anything renders (no frame, the
 * --screenshot not written): exit 1 and one line naming the cause. A FIFO (without blocking: a
 * hang fails by the timeout), devices, a read-only file, one with two names (a hard link), and a
 * read-only file system where this test may mount one (root, in a mount namespace of its own:
 * unshare -m). */
static void check_notebook_refused(CheckState *s, const Cli *c, const char *trace)
{
    char fifo[512], ro[512], hard[512], shot[512];
    path_in(c, fifo, sizeof fifo, "fifo.notebook");
    path_in(c, ro, sizeof ro, "read-only.notebook");
    path_in(c, hard, sizeof hard, "hard-link.notebook");
    path_in(c, shot, sizeof shot, "refused.png");
    CHECK(s, mkfifo(fifo, 0644) == 0 && write_text(ro, EMPTY_NOTEBOOK) && chmod(ro, 0444) == 0,
          "cannot set up %s", fifo);
    const struct {
        const char *path, *why;
    } refused[] = {
        {fifo, "a FIFO"},        {"/dev/null", "device"}, {"/dev/zero", "device"},
        {"/dev/full", "device"}, {ro, "read-only"},       {hard, "hard links"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        if (refused[i].path == hard) {
            unlink(hard);
            CHECK(s, chmod(ro, 0644) == 0 && link(ro, hard) == 0, "cannot link %s", hard);
        }
        const char *args[] = {"--headless", "--size",        "64x48",        "--replay", trace,
                              "--notebook", refused[i].path, "--screenshot", shot,       NULL};
        Run r = run_wait(run_spawn(c->exe, c->dir, NULL, args), c->dir, 60.0);
        CHECK(s,
              r.status == 1 && line_count(r.err) == 1 && strstr(r.err, refused[i].path) &&
                  strstr(r.err, refused[i].why) && !strstr(r.out, "rendered") && !exists(shot),
              "%s as the notebook: exit %d (137: it hung), want 1 naming \"%s\": %s",
              refused[i].path, r.status, refused[i].why, r.err);
    }
    CHECK(s, !strcmp(read_file(ro), EMPTY_NOTEBOOK), "a refused notebook changed");
    unlink(hard);
    unlink(fifo);
    chmod(ro, 0644);

    /* Read-only file systems, in a mount namespace of the test's own: a notebook bind-mounted
     * read-only in a writable folder, then the whole tmpfs holding it remounted read-only. */
    char script[512], out[512], cmd[2048];
    path_in(c, script, sizeof script, "read-only-fs.sh");
    path_in(c, out, sizeof out, "read-only-fs.txt");
    CHECK(s,
          write_text(script, "m=$1/ro-mount; exe=$2; trace=$3\n"
                             "mkdir -p \"$m\" && mount -t tmpfs none \"$m\" || exit 99\n"
                             "printf '%s\\n' '{\"format\": \"pagecurl-notebook\", \"version\": 1, "
                             "\"pages\": []}' > \"$m/n.json\"\n"
                             "cp \"$m/n.json\" \"$m/bound.json\"\n"
                             "mount --bind \"$m/bound.json\" \"$m/bound.json\" &&\n"
                             "    mount -o remount,ro,bind \"$m/bound.json\" || exit 99\n"
                             "timeout 60 \"$exe\" --headless --size 64x48 --replay \"$trace\" "
                             "--notebook \"$m/bound.json\"; echo \"exit $?\"\n"
                             "umount \"$m/bound.json\"; mount -o remount,ro \"$m\" || exit 99\n"
                             "timeout 60 \"$exe\" --headless --size 64x48 --replay \"$trace\" "
                             "--notebook \"$m/n.json\"; echo \"exit $?\"\n"),
          "cannot write %s", script);
    snprintf(cmd, sizeof cmd, "unshare -m sh '%s' '%s' '%s' '%s' > '%s' 2>&1", script, c->dir,
             c->exe, trace, out);
    int rc = system(cmd);
    char text[2048];
    slurp(out, text, sizeof text);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 99) {
        printf("test_cli: no read-only file system to try (unshare -m or mount not allowed)\n");
    } else {
        const char *second = strstr(text, "exit 1\n");
        CHECK(s,
              second && strstr(second + 1, "exit 1\n") && line_count(text) == 4 &&
                  strstr(text, "bound.json: cannot be written: Read-only file system") &&
                  strstr(text, "n.json: cannot be written: Read-only file system") &&
                  !strstr(text, "rendered"),
              "notebooks on read-only file systems: %s", text);
    }
}

/* Undo takes back the last action of any kind: a stroke on page 1, the page turned, a stroke on
 * page 3, Delete over page 3, Ctrl+Z: both strokes are in the notebook (Ctrl+Z took back the
 * clear, not page 1's stroke). */
static void check_undo_clear(CheckState *s, const Cli *c)
{
    char trace[512], book[512];
    path_in(c, trace, sizeof trace, "undo-clear.trace");
    path_in(c, book, sizeof book, "undo-clear.json");
    CHECK(s,
          write_text(trace, "0.00 ink down 0.60 0.50\n0.05 ink move 0.70 0.50\n"
                            "0.10 ink up 0.70 0.50\n0.30 key next\n2.00 ink down 0.60 0.40\n"
                            "2.05 ink move 0.70 0.40\n2.10 ink up 0.70 0.40\n"
                            "2.30 ink clear 0.65 0.45\n2.50 key undo\n"),
          "cannot write %s", trace);
    Run r = RUN("--headless", "--size", "320x240", "--replay", trace, "--notebook", book);
    cJSON *root = cJSON_Parse(read_file(book));
    const cJSON *pages = cJSON_GetObjectItem(root, "pages");
    const cJSON *first = cJSON_GetArrayItem(pages, 0), *second = cJSON_GetArrayItem(pages, 1);
    CHECK(s,
          r.status == 0 && cJSON_GetArraySize(pages) == 2 &&
              cJSON_GetNumberValue(cJSON_GetObjectItem(first, "page")) == 1.0 &&
              cJSON_GetNumberValue(cJSON_GetObjectItem(second, "page")) == 3.0 &&
              cJSON_GetArraySize(cJSON_GetObjectItem(second, "strokes")) == 1,
          "clear then undo: exit %d, want strokes on pages 1 and 3: %s", r.status, read_file(book));
    cJSON_Delete(root);
}

/* Ink drawn by a replayed trace lands in the notebook: a stroke across the right page at half
 * pressure (page 1, left to right, level), a dot taken back by undo, a stroke off the book
 * dropped; a later run clears the page; a malformed notebook is refused with one line and stays
 * as it was; an unwritable one fails the run with one line. */
static void check_notebook(CheckState *s, const Cli *c)
{
    char trace[512], book[512],
        text[4096] = "# ink across the right page, a dot, undo\n"
                     "0.00 ink down 0.36 0.50 1.0\n";
    path_in(c, trace, sizeof trace, "ink.trace");
    path_in(c, book, sizeof book, "ink.json");
    for (int k = 1; k <= 12; k++) {
        char line[80];
        snprintf(line, sizeof line, "%.2f ink move %.3f 0.500 0.5\n", 0.02 * k, 0.36 + 0.02 * k);
        strcat(text, line);
    }
    strcat(text, "0.26 ink up 0.60 0.50\n0.30 ink down 0.50 0.30\n0.32 ink up 0.50 0.30\n"
                 "0.40 key undo\n0.50 ink down 0.02 0.50\n0.52 ink move 0.03 0.55\n"
                 "0.54 ink up 0.03 0.55\n");
    CHECK(s, write_text(trace, text), "cannot write %s", trace);
    Run r = RUN("--headless", "--validation", "--size", "320x240", "--replay", trace, "--notebook",
                book);
    CHECK(s, r.status == 0, "ink replay: exit %d: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(read_file(book));
    const cJSON *pages = cJSON_GetObjectItem(root, "pages");
    const cJSON *page = cJSON_GetArrayItem(pages, 0);
    const cJSON *strokes = cJSON_GetObjectItem(page, "strokes");
    const cJSON *stroke = cJSON_GetArrayItem(strokes, 0);
    CHECK(s,
          cJSON_GetArraySize(pages) == 1 && cJSON_GetArraySize(strokes) == 1 &&
              cJSON_GetNumberValue(cJSON_GetObjectItem(page, "page")) == 1.0,
          "want one stroke on page 1: %s", read_file(book));
    int n = cJSON_GetArraySize(stroke);
    CHECK(s, n == 13, "the stroke has %d points, want 13", n);
    double u0 = -1.0, v_min = 2.0, v_max = -1.0;
    bool rising = true, half = true;
    for (int i = 0; i < n; i++) {
        const cJSON *p = cJSON_GetArrayItem(stroke, i);
        double u = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 0));
        double v = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 1));
        double w = cJSON_GetNumberValue(cJSON_GetArrayItem(p, 2));
        rising = rising && u > u0;
        u0 = u, v_min = fmin(v_min, v), v_max = fmax(v_max, v);
        if (i > 0) /* the moves' half pressure: half the full width */
            half = half && fabs(w - 0.006) < 1e-6;
    }
    CHECK(s, rising && v_max - v_min < 0.05 && v_min > 0.2 && v_max < 0.8 && half,
          "the stroke is not a level line left to right at half width: %s", read_file(book));
    cJSON_Delete(root);

    /* Delete over the page clears it; the notebook is written with no pages */
    CHECK(s, write_text(trace, "0.0 ink clear 0.50 0.50\n"), "cannot write %s", trace);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--notebook", book);
    root = cJSON_Parse(read_file(book));
    CHECK(s, r.status == 0 && cJSON_GetArraySize(cJSON_GetObjectItem(root, "pages")) == 0,
          "clearing the page: exit %d, notebook %s", r.status, read_file(book));
    cJSON_Delete(root);

    static const struct {
        const char *text, *names;
    } bad[] = {
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 99, "
         "\"strokes\": []}]}",
         "page number"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [\n  {\"page\": 1,",
         "line 2"},
        {"just text", "not valid JSON"},
    };
    CHECK(s, write_text(trace, text), "cannot write %s", trace);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(s, write_text(book, bad[i].text), "cannot write %s", book);
        r = RUN("--headless", "--size", "320x240", "--replay", trace, "--notebook", book);
        CHECK(s,
              r.status == 2 && line_count(r.err) == 1 && strstr(r.err, "--notebook") &&
                  strstr(r.err, "ink.json") && strstr(r.err, bad[i].names),
              "malformed notebook %zu: exit %d: %s", i, r.status, r.err);
        CHECK(s, !strcmp(read_file(book), bad[i].text), "malformed notebook %zu was changed", i);
    }
    r = RUN("--headless", "--notebook", c->dir, "--curl", "0");
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "a folder"),
          "a directory as the notebook: exit %d: %s", r.status, r.err);
    check_notebook_refused(s, c, trace);
    check_undo_clear(s, c);
    char unwritable[600];
    snprintf(unwritable, sizeof unwritable, "%s/no-such-dir/ink.json", c->dir);
    r = RUN("--headless", "--size", "320x240", "--replay", trace, "--notebook", unwritable);
    CHECK(s, r.status == 1 && line_count(r.err) == 1 && strstr(r.err, "no-such-dir"),
          "unwritable notebook: exit %d: %s", r.status, r.err);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: test_cli PAGECURL OUTDIR PLOT_SCRIPT NO_LOADER_SHIM [CHECK...]\n");
        return 2;
    }
    const Cli cli = {argv[1], argv[2], argv[3], argv[4]};
    if (mkdir(cli.dir, 0755) != 0 && errno != EEXIST) {
        perror(cli.dir);
        return 1;
    }
    /* all of them, or only those named after the four arguments (while working on one) */
    static const struct {
        const char *name;
        void (*run)(CheckState *, const Cli *);
    } checks[] = {
        {"usage_errors", check_usage_errors},
        {"bare_book", check_bare_book},
        {"screenshots", check_screenshots},
        {"framing", check_framing},
        {"zoom", check_zoom},
        {"last_page", check_last_page},
        {"find", check_find},
        {"links", check_links},
        {"replay_links", check_replay_links},
        {"text", check_text},
        {"obj", check_obj},
        {"formats", check_formats},
        {"frames_out", check_frames_out},
        {"runtime_errors", check_runtime_errors},
        {"bench", check_bench},
        {"traces", check_traces},
        {"notebook", check_notebook},
        {"safe_writes", check_safe_writes},
        {"conflicts", check_conflicts},
        {"stdout", check_stdout},
        {"bounded_work", check_bounded_work},
        {"bench_signal", check_bench_signal},
        {"stop_stages", check_stop_stages},
        {"no_leftovers", check_no_leftovers},
    };
    CheckState s = {0};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        bool named = argc == 5;
        for (int a = 5; a < argc; a++)
            named = named || !strcmp(argv[a], checks[i].name);
        if (named)
            checks[i].run(&s, &cli);
    }
    return check_finish(&s, "test_cli");
}
