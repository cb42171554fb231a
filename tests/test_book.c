/* SPDX-License-Identifier: MIT */
/* realpath */
#define _XOPEN_SOURCE   700
#define _DEFAULT_SOURCE /* syscall */

/* Books of the user's own pages (--book, --page), made by the test: a folder of solid-colour PNGs
 * (stb_image_write) and multi-page PDFs written as text, each page filled with one colour. The
 * program runs headless as a user would run it; its screenshots are read back and each page told
 * by its colour. Also the pool's bookkeeping and the natural name order, without Vulkan.
 * usage: test_book PAGECURL OUTDIR [CHECK...] */
#include "../app/page_field.h"
#include "../helper/sandbox.h"
#include "../pages/book_source.h"
#include "../pages/page_helper.h"
#include "../pages/page_labels.h"
#include "../app/notebook.h"
#include "../app/where.h"
#include "../book/pool.h"
#include "check.h"
#include "image.h"
#include "gif_file.h"
#include "pdf_file.h"
#include "run.h"
#include "zip_file.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <uchar.h>
#include <unistd.h>

#include <stb_image_write.h>

#ifdef PAGECURL_HAVE_MUPDF
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#include <zlib.h>
#endif
#ifndef PAGECURL_HAVE_MUPDF
/* a build without MuPDF (-DPAGECURL_PDF=OFF) runs no PDF check: their helpers go unused */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

typedef struct Ctx {
    const char *exe, *dir;
} Ctx;

/* Page colours: each a different set of full channels, so shading cannot mistake one for another.
 * Page n (1-based) has COLOURS[(n - 1) % 6]. */
static const unsigned char COLOURS[6][3] = {{255, 0, 0},   {0, 255, 0},   {0, 0, 255},
                                            {255, 255, 0}, {255, 0, 255}, {0, 255, 255}};

static Run run(const Ctx *c, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    Run r = run_va(c->exe, c->dir, NULL, first, ap);
    va_end(ap);
    return r;
}
#define RUN(...) run(c, __VA_ARGS__, (const char *)NULL)

static void path_in(const Ctx *c, const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", c->dir, name);
}

/* A w x h PNG of one colour. */
static bool write_png(const char *path, int w, int h, const unsigned char rgb[3])
{
    unsigned char *px = malloc((size_t)w * h * 3);
    if (!px)
        return false;
    for (long i = 0; i < (long)w * h; i++)
        memcpy(&px[3 * i], rgb, 3);
    bool ok = stbi_write_png(path, w, h, 3, px, w * 3) != 0;
    free(px);
    return ok;
}

/* A PDF of `pages` pages of w x h points, page n filled with COLOURS[(n - 1) % 6]: objects 1 (the
 * catalogue, with `catalog` in its dictionary), 2 (the page tree), then each page and its
 * content stream, then `extra` (NULL: none) as object 2 * pages + 3, and the cross-reference
 * table with their byte offsets. */
static bool write_pdf_with(const char *path, int pages, int w, int h, const char *catalog,
                           const char *extra)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R %s>>", catalog);
    pdf_file_page_tree(&pdf, pages, 3, 2);
    for (int p = 0; p < pages; p++) {
        const unsigned char *col = COLOURS[p % 6];
        char stream[128];
        int len = snprintf(stream, sizeof stream, "%d %d %d rg 0 0 %d %d re f", col[0] / 255,
                           col[1] / 255, col[2] / 255, w, h);
        pdf_file_object(&pdf,
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R >>", w,
                        h, 4 + 2 * p);
        pdf_file_stream(&pdf, "", stream, (size_t)len);
    }
    if (extra)
        pdf_file_object(&pdf, "%s", extra);
    return pdf_file_close(&pdf);
}

/* A PDF of n x (n + 1) pages that costs a few kilobytes: its root's /Kids name one /Pages node n +
 * 1 times, and that node's /Kids one page n times (a page tree may name an object more than once;
 * MuPDF reads each as its own page). */
static bool write_deep_pdf(const char *path, int n)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_begin(&pdf);
    fprintf(pdf.f, "<< /Type /Pages /Count %ld /Kids [", (long)n * (n + 1));
    for (int k = 0; k <= n; k++)
        fprintf(pdf.f, "3 0 R ");
    fprintf(pdf.f, "] >>");
    pdf_file_end(&pdf);
    pdf_file_begin(&pdf);
    fprintf(pdf.f, "<< /Type /Pages /Parent 2 0 R /Count %d /Kids [", n);
    for (int k = 0; k < n; k++)
        fprintf(pdf.f, "4 0 R ");
    fprintf(pdf.f, "] >>");
    pdf_file_end(&pdf);
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 3 0 R /MediaBox [0 0 100 140] /Contents 5 0 R >>");
    const char red[] = "1 0 0 rg 0 0 100 140 re f";
    pdf_file_stream(&pdf, "", red, sizeof red - 1);
    return pdf_file_close(&pdf);
}

/* A PDF of `pages` pages of 200 x 280 points but page `wide` (1-based), of 280 x 200: a landscape
 * page among portrait ones; page n filled with COLOURS[(n - 1) % 6]. */
static bool write_mixed_pdf(const char *path, int pages, int wide)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_page_tree(&pdf, pages, 3, 2);
    for (int p = 0; p < pages; p++) {
        const unsigned char *col = COLOURS[p % 6];
        int w = p + 1 == wide ? 280 : 200, h = p + 1 == wide ? 200 : 280;
        char stream[128];
        int len = snprintf(stream, sizeof stream, "%d %d %d rg 0 0 %d %d re f", col[0] / 255,
                           col[1] / 255, col[2] / 255, w, h);
        pdf_file_object(&pdf,
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Contents %d 0 R >>", w,
                        h, 4 + 2 * p);
        pdf_file_stream(&pdf, "", stream, (size_t)len);
    }
    return pdf_file_close(&pdf);
}

static bool write_pdf(const char *path, int pages, int w, int h)
{
    return write_pdf_with(path, pages, w, h, "", NULL);
}

/* A PDF whose one page lies `depth` /Pages nodes down its page tree, each /Count 1. */
static bool write_nested_pdf(const char *path, int depth)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count 1 /Kids [3 0 R] >>");
    for (int node = 3; node < depth + 2; node++)
        pdf_file_object(&pdf, "<< /Type /Pages /Parent %d 0 R /Count 1 /Kids [%d 0 R] >>", node - 1,
                        node + 1);
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent %d 0 R /MediaBox [0 0 200 280] /Contents %d 0 R >>",
                    depth + 1, depth + 3);
    pdf_file_stream(&pdf, "", "0 0 1 rg 0 0 200 280 re f", 25);
    return pdf_file_close(&pdf);
}

/* The page colour (1-based page number, mod 6) nearest the pixel's hue at (fx, fy) of the image,
 * or 0 where none is near (paper, background, another colour). */
static int page_at(const Image *img, float fx, float fy)
{
    int x = (int)(fx * (float)img->w), y = (int)(fy * (float)img->h);
    const unsigned char *p = &img->rgba[4 * ((size_t)y * img->w + x)];
    int max = p[0] > p[1] ? p[0] : p[1];
    max = max > p[2] ? max : p[2];
    if (max < 60)
        return 0;
    for (int k = 0; k < (int)(sizeof COLOURS / sizeof COLOURS[0]); k++) {
        bool match = true;
        for (int ch = 0; ch < 3; ch++) {
            bool on = p[ch] * 10 > max * 6; /* over 60% of the brightest channel */
            match = match && on == (COLOURS[k][ch] != 0);
        }
        if (match)
            return k + 1;
    }
    return 0;
}

/* The brightest channel of the pixel at (fx, fy) of the image. */
static int brightness(const Image *img, float fx, float fy)
{
    int x = (int)(fx * (float)img->w), y = (int)(fy * (float)img->h);
    const unsigned char *p = &img->rgba[4 * ((size_t)y * img->w + x)];
    int max = p[0] > p[1] ? p[0] : p[1];
    return max > p[2] ? max : p[2];
}

/* How many pixels of the row through fy (across) and of the column through fx (down) show colour
 * `colour` (page_at's): a page's print as wide and as tall as it is shown. */
static void colour_extent(const Image *img, int colour, float fx, float fy, int *across, int *down)
{
    *across = *down = 0;
    for (int x = 0; x < img->w; x++)
        *across += page_at(img, ((float)x + 0.5f) / (float)img->w, fy) == colour;
    for (int y = 0; y < img->h; y++)
        *down += page_at(img, fx, ((float)y + 0.5f) / (float)img->h) == colour;
}

/* The colour index (1..6) of book page n. */
static int colour_of(int n)
{
    return (n - 1) % 6 + 1;
}

/* A headless shot of `book` at --page n with --curl t, --size `size` and the flags `extra`
 * (NULL-terminated, four at most), read back (no pixels where the run or the file failed). */
static Image shot_of(CheckState *s, const Ctx *c, const char *book, int n, const char *curl,
                     const char *size, const char *const *extra, const char *what)
{
    char shot[512], page[16];
    path_in(c, "shot.png", shot, sizeof shot);
    snprintf(page, sizeof page, "%d", n);
    remove(shot);
    const char *args[20] = {"--headless", "--validation", "--book", book, "--page",       page,
                            "--curl",     curl,           "--size", size, "--screenshot", shot};
    int count = 12;
    for (int i = 0; extra[i] && i < 4; i++)
        args[count++] = extra[i];
    args[count] = NULL;
    Run r = run_program(c->exe, c->dir, NULL, args);
    CHECK(s, r.status == 0, "%s: --page %d --curl %s: exit %d: %s", what, n, curl, r.status, r.err);
    Image img = image_load(shot);
    CHECK(s, img.rgba, "%s: no screenshot %s", what, shot);
    return img;
}

/* Checks what a 480x270 shot (as shot_of) shows left and right. */
static void check_spread_with(CheckState *s, const Ctx *c, const char *book, int n,
                              const char *curl, const char *const *extra, int want_left,
                              int want_right, const char *what)
{
    Image img = shot_of(s, c, book, n, curl, "480x270", extra, what);
    if (img.rgba) {
        int left = page_at(&img, 0.30f, 0.5f), right = page_at(&img, 0.70f, 0.5f);
        CHECK(s, left == want_left && right == want_right,
              "%s: --page %d --curl %s shows colours %d | %d, want %d | %d", what, n, curl, left,
              right, want_left, want_right);
    }
    image_free(&img);
}

static void check_spread(CheckState *s, const Ctx *c, const char *book, int n, const char *curl,
                         int want_left, int want_right, const char *what)
{
    check_spread_with(s, c, book, n, curl, (const char *const[]){NULL}, want_left, want_right,
                      what);
}

static void check_refused(CheckState *s, Run r, int status, const char *names, const char *what);

/* A w x h PNG, its left half one colour and its right half another. */
static bool write_halves(const char *path, int w, int h, const unsigned char left[3],
                         const unsigned char right[3])
{
    unsigned char *px = malloc((size_t)w * h * 3);
    if (!px)
        return false;
    for (long i = 0; i < (long)w * h; i++)
        memcpy(&px[3 * i], i % w < w / 2 ? left : right, 3);
    bool ok = stbi_write_png(path, w, h, 3, px, w * 3) != 0;
    free(px);
    return ok;
}

/* A folder of 11 PNGs named so that only a natural order puts them right (page2 < page10). */
static void colour_folder(CheckState *s, const Ctx *c, char *dir, size_t size)
{
    path_in(c, "folder", dir, size);
    mkdir(dir, 0755);
    for (int n = 1; n <= 11; n++) {
        char file[600];
        snprintf(file, sizeof file, "%s/page%d.png", dir, n);
        CHECK(s, write_png(file, 100, 140, COLOURS[(n - 1) % 6]), "cannot write %s", file);
    }
}

static void check_folder(CheckState *s, const Ctx *c)
{
    char dir[512];
    colour_folder(s, c, dir, sizeof dir);
    /* pages N-1 | N, left to right */
    check_spread(s, c, dir, 3, "0", colour_of(2), colour_of(3), "folder");
    check_spread(s, c, dir, 11, "0", colour_of(10), colour_of(11), "folder");
    /* turned over: the leaf's back is the next page, on the left */
    check_spread(s, c, dir, 9, "1", colour_of(10), colour_of(11), "folder, turned");
    /* a trace's goto (the window's page field) opens at the spread holding the page, past a
     * turn under way */
    char trace[512], shot[512];
    path_in(c, "goto.trace", trace, sizeof trace);
    path_in(c, "goto.png", shot, sizeof shot);
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    fprintf(f, "0.0 key next\n0.1 key goto 9\n");
    fclose(f);
    Run r = RUN("--headless", "--validation", "--book", dir, "--size", "480x270", "--replay", trace,
                "--screenshot", shot);
    CHECK(s, r.status == 0, "goto: exit %d: %s", r.status, r.err);
    Image img = image_load(shot);
    CHECK(s, img.rgba, "goto: no screenshot");
    if (img.rgba)
        CHECK(s,
              page_at(&img, 0.30f, 0.5f) == colour_of(8) &&
                  page_at(&img, 0.70f, 0.5f) == colour_of(9),
              "goto 9: colours %d | %d", page_at(&img, 0.30f, 0.5f), page_at(&img, 0.70f, 0.5f));
    image_free(&img);
    /* a press a few pixels past the right page's bottom corner (at 423, 263 of 480 x 270) still
     * takes the page; one 30 px past it takes nothing: against the same replay without a press */
    long changed[2] = {-1, -1};
    const char *downs[3] = {"0.8958 0.9852", "0.9500 0.9852", NULL};
    Image shots[3];
    for (int k = 0; k < 3; k++) {
        shots[k] = (Image){0};
        f = fopen(trace, "w");
        CHECK(s, f != NULL, "cannot write %s", trace);
        if (!f)
            break;
        fprintf(f, "0.0 key next\n");
        if (downs[k])
            fprintf(f, "2.0 mouse down %s\n2.1 mouse move 0.625 0.74\n", downs[k]);
        else
            fprintf(f, "2.1 key undo\n"); /* nothing to undo: the same length of replay */
        fclose(f);
        r = RUN("--headless", "--book", dir, "--size", "480x270", "--replay", trace, "--screenshot",
                shot);
        CHECK(s, r.status == 0, "corner zone %d: exit %d: %s", k, r.status, r.err);
        shots[k] = image_load(shot);
    }
    for (int k = 0; k < 2; k++)
        if (shots[k].rgba && shots[2].rgba && shots[k].w == shots[2].w &&
            shots[k].h == shots[2].h) {
            changed[k] = 0;
            for (size_t i = 0; i < (size_t)shots[2].w * shots[2].h * 4; i++)
                changed[k] += abs(shots[k].rgba[i] - shots[2].rgba[i]) > 24;
        }
    for (int k = 0; k < 3; k++)
        image_free(&shots[k]);
    CHECK(s, changed[0] > 5000 && changed[1] == 0,
          "corner zone: %ld bytes changed by a press 7 px off the corner (want many), %ld by one "
          "30 px off (want none)",
          changed[0], changed[1]);
}

/* Bound on the right (--rtl): the spread mirrored, N | N-1 left to right, a turned leaf's back
 * (the next page) on the right; each page still reads left to right (a page of two halves); ink
 * drawn on a page lands there, under the pointer. */
static void check_rtl(CheckState *s, const Ctx *c)
{
    char dir[512], halves[512], file[600], shot[512], trace[512];
    colour_folder(s, c, dir, sizeof dir);
    const char *rtl[] = {"--rtl", NULL};
    check_spread_with(s, c, dir, 3, "0", rtl, colour_of(3), colour_of(2), "rtl");
    check_spread_with(s, c, dir, 8, "0", rtl, colour_of(9), colour_of(8), "rtl");
    check_spread_with(s, c, dir, 9, "1", rtl, colour_of(11), colour_of(10), "rtl, turned");

    /* a PDF that says it reads right to left binds on the right by itself; --ltr overrides it,
     * and a PDF that says left to right binds on the left */
    char pdf[512];
    path_in(c, "r2l.pdf", pdf, sizeof pdf);
#ifdef PAGECURL_HAVE_MUPDF
    CHECK(s, write_pdf_with(pdf, 9, 200, 280, "/ViewerPreferences << /Direction /R2L >> ", NULL),
          "cannot write %s", pdf);
    const char *none[] = {NULL}, *ltr[] = {"--ltr", NULL};
    check_spread_with(s, c, pdf, 3, "0", none, colour_of(3), colour_of(2), "R2L pdf");
    check_spread_with(s, c, pdf, 3, "0", ltr, colour_of(2), colour_of(3), "R2L pdf, --ltr");
    check_spread_with(s, c, pdf, 3, "0", rtl, colour_of(3), colour_of(2), "R2L pdf, --rtl");
    CHECK(s, write_pdf_with(pdf, 9, 200, 280, "/ViewerPreferences << /Direction /L2R >> ", NULL),
          "cannot write %s", pdf);
    check_spread_with(s, c, pdf, 3, "0", none, colour_of(2), colour_of(3), "L2R pdf");
#endif
    check_refused(s, RUN("--headless", "--book", dir, "--rtl", "--ltr"), 2,
                  "--ltr cannot go with --rtl", "--rtl --ltr");

    path_in(c, "halves", halves, sizeof halves);
    mkdir(halves, 0755);
    for (int n = 1; n <= 2; n++) {
        snprintf(file, sizeof file, "%s/%d.png", halves, n);
        CHECK(s, write_halves(file, 100, 140, COLOURS[0], COLOURS[2]), "cannot write %s", file);
    }
    path_in(c, "rtl-halves.png", shot, sizeof shot);
    Run r = RUN("--headless", "--validation", "--book", halves, "--rtl", "--curl", "0", "--size",
                "480x270", "--screenshot", shot);
    CHECK(s, r.status == 0, "rtl halves: exit %d: %s", r.status, r.err);
    Image img = image_load(shot);
    CHECK(s, img.rgba, "rtl halves: no screenshot");
    if (img.rgba) /* page 1 alone, framed in the middle: its left half left */
        CHECK(s, page_at(&img, 0.40f, 0.5f) == 1 && page_at(&img, 0.60f, 0.5f) == 3,
              "rtl halves: page 1 reads %d .. %d left to right, want 1 .. 3",
              page_at(&img, 0.40f, 0.5f), page_at(&img, 0.60f, 0.5f));
    image_free(&img);

    /* a stroke on page 1's left half, off the page's middle: mirrored ink would miss it */
    path_in(c, "rtl-ink.trace", trace, sizeof trace);
    path_in(c, "rtl-ink.png", shot, sizeof shot);
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    fprintf(f, "0.00 ink down 0.36 0.50\n0.05 ink move 0.40 0.50\n0.10 ink move 0.44 0.50\n"
               "0.15 ink up 0.44 0.50\n");
    fclose(f);
    r = RUN("--headless", "--validation", "--book", dir, "--rtl", "--size", "480x270", "--replay",
            trace, "--screenshot", shot);
    CHECK(s, r.status == 0, "rtl ink: exit %d: %s", r.status, r.err);
    img = image_load(shot);
    CHECK(s, img.rgba, "rtl ink: no screenshot");
    if (img.rgba)
        CHECK(s,
              brightness(&img, 0.40f, 0.5f) < 90 && page_at(&img, 0.40f, 0.62f) == colour_of(1) &&
                  page_at(&img, 0.60f, 0.5f) == colour_of(1),
              "rtl ink on page 1: %d bright under the stroke (the ink's blue-black), colours %d "
              "beside it, %d at its mirror",
              brightness(&img, 0.40f, 0.5f), page_at(&img, 0.40f, 0.62f),
              page_at(&img, 0.60f, 0.5f));
    image_free(&img);
}

/* Pages of mixed sizes: the leaf takes the shape most pages have, not page 1's (a landscape
 * cover before portrait pages), and a page of another shape is fitted within it. */
/* The page helper among `parent`'s children (its pid; 0: none). */
static pid_t helper_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;
    while (d && !found && (e = readdir(d))) {
        char path[300], stat[512] = "";
        long pid = strtol(e->d_name, NULL, 10);
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = pid > 0 ? fopen(path, "r") : NULL;
        if (!f)
            continue;
        char *got = fgets(stat, sizeof stat, f);
        fclose(f);
        char *close = got ? strrchr(stat, ')') : NULL;
        long ppid = 0;
        char state = 0;
        if (close && sscanf(close + 2, "%c %ld", &state, &ppid) == 2 && ppid == (long)parent &&
            state != 'Z' && strstr(stat, "(pagecurl-pages)"))
            found = (pid_t)pid;
    }
    if (d)
        closedir(d);
    return found;
}

/* The page helper (docs/page-helper.md) reads a folder's pages, those that link to files outside
 * it too, and gives up what it may: no new privileges always; where the kernel has Landlock, no
 * file opened but the book's: a page made a link to a file outside the folder after the open is
 * refused ("Permission denied"), where without Landlock it would be read. */
static void check_confined(CheckState *s, const Ctx *c)
{
    char dir[512], elsewhere[512], file[600], outside[600], message[512];
    path_in(c, "confined", dir, sizeof dir);
    path_in(c, "confined-elsewhere", elsewhere, sizeof elsewhere);
    mkdir(dir, 0755);
    mkdir(elsewhere, 0755);
    snprintf(outside, sizeof outside, "%s/linked.png", elsewhere);
    CHECK(s, write_png(outside, 64, 90, COLOURS[1]), "cannot write %s", outside);
    snprintf(file, sizeof file, "%s/1.png", dir);
    CHECK(s, write_png(file, 64, 90, COLOURS[0]), "cannot write %s", file);
    snprintf(file, sizeof file, "%s/2.png", dir);
    remove(file);
    CHECK(s, symlink(outside, file) == 0, "symlink %s: %s", file, strerror(errno));
    snprintf(file, sizeof file, "%s/3.png", dir);
    remove(file); /* a link a run before left */
    CHECK(s, write_png(file, 64, 90, COLOURS[2]), "cannot write %s", file);
    PagesBookSource *src = NULL;
    int status = pages_book_source_open(dir, &src, message, sizeof message);
    CHECK(s, status == 0, "confined: %s", message);
    if (!src)
        return;
    uint32_t confined = pages_book_source_confined(src);
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* the ABI's version */);
    printf("confined: the page helper gave up %#x (Landlock ABI %ld)\n", confined, abi);
    CHECK(s, confined & PAGES_CONFINED_NO_NEW_PRIVS, "confined: the helper kept new privileges");
    CHECK(s, abi < 1 || (confined & PAGES_CONFINED_FILES),
          "confined: the kernel has Landlock (ABI %ld) but the helper did not use it (%#x)", abi,
          confined);
    static uint8_t rgba[32 * 45 * 4];
    for (int page = 0; page < 2; page++)
        CHECK(s, pages_book_source_draw(src, page, 32, 45, rgba, message, sizeof message),
              "confined: page %d: %s", page + 1, message);
    /* the helper killed between pages (by the OOM killer, say): seen gone before the next page,
     * which a helper started again draws */
    pid_t helper = helper_of(getpid());
    CHECK(s, helper > 0, "confined: no page helper among the test's children");
    if (helper > 0) {
        kill(helper, SIGKILL);
        /* dead as a whole: its leader shows 'Z' while its other threads (the socket's watcher)
         * still hold its descriptors; waitid says when all are gone (WNOWAIT: not reaped, that is
         * the library's) */
        for (siginfo_t si = {0};
             waitid(P_PID, (id_t)helper, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
             si.si_pid != helper;)
            usleep(1000);
        CHECK(s, pages_book_source_draw(src, 1, 32, 45, rgba, message, sizeof message),
              "confined: page 2 after the helper was killed: %s", message);
        CHECK(s, helper_of(getpid()) > 0 && helper_of(getpid()) != helper,
              "confined: no helper started again after one was killed");
    }
    /* page 3 now a link to another file outside the folder: one the helper may not open */
    snprintf(outside, sizeof outside, "%s/other.png", elsewhere);
    CHECK(s, write_png(outside, 64, 90, COLOURS[3]), "cannot write %s", outside);
    remove(file);
    CHECK(s, symlink(outside, file) == 0, "symlink %s: %s", file, strerror(errno));
    bool drawn = pages_book_source_draw(src, 2, 32, 45, rgba, message, sizeof message);
    if (confined & PAGES_CONFINED_FILES)
        CHECK(s, !drawn && strstr(message, "Permission denied"),
              "confined: page 3 made a link to a file outside the book after the open: %s",
              drawn ? "drawn" : message);
    else
        CHECK(s, drawn, "confined: page 3 a link, no Landlock: %s", message);
    pages_book_source_close(src);
}

static void check_shapes(CheckState *s, const Ctx *c)
{
    char dir[512], file[600], message[512];
    path_in(c, "shapes", dir, sizeof dir);
    mkdir(dir, 0755);
    for (int n = 1; n <= 5; n++) {
        snprintf(file, sizeof file, "%s/%d.png", dir, n);
        bool wide = n == 1 || n == 4;
        CHECK(s,
              write_png(file,
                        wide     ? 200
                        : n == 5 ? 104
                                 : 103,
                        wide ? 100 : 140, COLOURS[n - 1]),
              "cannot write %s", file);
    }
    PagesBookSource *src = NULL;
    int status = pages_book_source_open(dir, &src, message, sizeof message);
    CHECK(s, status == 0, "shapes: %s", message);
    if (src) {
        /* 140/103, 140/103 and 140/104 lie within 1 % of one another: 140/103 */
        float aspect = pages_book_source_aspect(src);
        CHECK(s, fabsf(aspect - 140.0f / 103.0f) < 1e-4f,
              "shapes: the leaf's shape %.4f, want the portrait pages' %.4f (page 1's is 0.5)",
              aspect, 140.0f / 103.0f);
        pages_book_source_close(src);
    }
    float tie[] = {2.0f, 1.0f, 2.0f, 1.0f}, spread[] = {1.0f, 1.005f, 1.009f, 1.5f, 1.02f};
    CHECK(s, pages_book_common_aspect(tie, 4) == 1.0f, "shapes: a tie goes to the wider shape");
    CHECK(s, pages_book_common_aspect(spread, 5) == 1.005f,
          "shapes: three shapes within 1 %%: the middle one, got %g",
          (double)pages_book_common_aspect(spread, 5));
    /* page 1, landscape (2:1) on the portrait leaf, fitted in it: too small beside a page, it is
     * shown alone at its own shape, as large as the view allows (95 % of 480 across: 456 x 228),
     * its leaf's paper above and below it (the leaf framed, it was 174 x 87) */
    const char *const none[] = {NULL}, *const single[] = {"--layout", "single", NULL};
    Image img = shot_of(s, c, dir, 1, "0", "480x270", none, "shapes");
    int across, down;
    if (img.rgba) {
        colour_extent(&img, colour_of(1), 0.5f, 0.5f, &across, &down);
        int paper = brightness(&img, 0.5f, 0.04f);
        CHECK(s, across >= 450 && across <= 462 && down >= 222 && down <= 234 && paper > 200,
              "shapes: page 1 (2:1) shown %d x %d (brightness %d above it), want it alone in "
              "95 %% of the view: 456 x 228, on paper",
              across, down, paper);
    }
    image_free(&img);
    /* A PDF of portrait pages (200 x 280) with a landscape page 4 (280 x 200) in a 600 x 400
     * view: page 4 at rest fills 95 % of the view's height at its own shape, 532 x 380, in the
     * one-page layout and alone in the auto layout's spread (the leaf framed, it was 250 x 178);
     * the portrait pages beside it as they were: 271 x 380, two to a spread where both are
     * portrait. */
    char pdf[512];
    path_in(c, "mixed.pdf", pdf, sizeof pdf);
    CHECK(s, write_mixed_pdf(pdf, 8, 4), "cannot write %s", pdf);
    static const struct {
        int page;
        bool single;
        int colour_page, other_page; /* measured; one not to be seen (0: none) */
        float fx;
        int across, down;
    } SHOTS[] = {
        {4, true, 4, 0, 0.5f, 532, 380},
        {4, false, 4, 5, 0.5f, 532, 380},
        {5, false, 5, 4, 0.5f, 271, 380},
        {3, false, 3, 0, 0.72f, 271, 380},
    };
    for (size_t k = 0; k < sizeof SHOTS / sizeof SHOTS[0]; k++) {
        img = shot_of(s, c, pdf, SHOTS[k].page, "0", "600x400", SHOTS[k].single ? single : none,
                      "shapes");
        if (!img.rgba)
            continue;
        colour_extent(&img, colour_of(SHOTS[k].colour_page), SHOTS[k].fx, 0.5f, &across, &down);
        int other = 0, ignored;
        if (SHOTS[k].other_page)
            colour_extent(&img, colour_of(SHOTS[k].other_page), 0.5f, 0.5f, &other, &ignored);
        CHECK(s, abs(across - SHOTS[k].across) <= 6 && abs(down - SHOTS[k].down) <= 6 && other == 0,
              "shapes: mixed.pdf --page %d%s: page %d shown %d x %d, want %d x %d; page %d "
              "across %d pixels, want none",
              SHOTS[k].page, SHOTS[k].single ? " --layout single" : "", SHOTS[k].colour_page,
              across, down, SHOTS[k].across, SHOTS[k].down, SHOTS[k].other_page, other);
        if (SHOTS[k].page == 3) { /* the spread of two portrait pages: page 2 beside it */
            colour_extent(&img, colour_of(2), 0.28f, 0.5f, &across, &down);
            CHECK(s, abs(across - 271) <= 6 && abs(down - 380) <= 6,
                  "shapes: mixed.pdf --page 3: page 2 beside it shown %d x %d, want 271 x 380",
                  across, down);
        }
        image_free(&img);
    }
}

/* The colours at (fx0, 0.5) and (fx1, 0.5) of one portrait shot (270x480, as shot_of) of the
 * colour folder (-1 without a shot). */
static void portrait_at(CheckState *s, const Ctx *c, int n, const char *curl,
                        const char *const *extra, float fx0, float fx1, int *at0, int *at1)
{
    char dir[512];
    colour_folder(s, c, dir, sizeof dir);
    Image img = shot_of(s, c, dir, n, curl, "270x480", extra, "portrait");
    *at0 = img.rgba ? page_at(&img, fx0, 0.5f) : -1;
    *at1 = img.rgba ? page_at(&img, fx1, 0.5f) : -1;
    image_free(&img);
}

/* --layout single (and auto in a portrait view): one page fills the view, page N from edge to
 * edge, an even page (the left-hand one) as an odd one; a leaf posed turned over has lifted off
 * page N and uncovers the next recto (the window's view slides to the leaf's back as it lands).
 * --layout spread in the same view still shows both. */
static void check_layout(CheckState *s, const Ctx *c)
{
    const char *single[] = {"--layout", "single", NULL}, *none[] = {NULL};
    const char *spread[] = {"--layout", "spread", NULL},
               *rtl[] = {"--layout", "single", "--rtl", NULL};
    int a, b;
    portrait_at(s, c, 3, "0", single, 0.15f, 0.85f, &a, &b);
    CHECK(s, a == colour_of(3) && b == colour_of(3), "single: page 3 shows %d .. %d", a, b);
    /* page 2, from edge to edge; a posed frame at rest shows the reader's page alone: the leaf
     * of page 3 lying flat past the spine is not drawn in the view's margin beside it */
    char dir[512];
    colour_folder(s, c, dir, sizeof dir);
    Image img = shot_of(s, c, dir, 2, "0", "270x480", single, "portrait");
    if (img.rgba) {
        a = page_at(&img, 0.15f, 0.5f), b = page_at(&img, 0.85f, 0.5f);
        CHECK(s, a == colour_of(2) && b == colour_of(2), "single: page 2 shows %d .. %d, want %d",
              a, b, colour_of(2));
        int strip = 0;
        for (int x = img.w / 2; x < img.w; x++)
            strip += page_at(&img, ((float)x + 0.5f) / (float)img.w, 0.5f) == colour_of(3);
        CHECK(s, strip == 0, "single: --page 2 --curl 0 shows page 3 across %d pixels", strip);
    }
    image_free(&img);
    portrait_at(s, c, 3, "0", none, 0.15f, 0.15f, &a, &b);
    CHECK(s, a == colour_of(3), "auto in a portrait view: %d at the left, want page 3's %d", a,
          colour_of(3));
    portrait_at(s, c, 8, "0", none, 0.15f, 0.85f, &a, &b);
    CHECK(s, a == colour_of(8) && b == colour_of(8),
          "auto in a portrait view: page 8 shows %d .. %d, want %d", a, b, colour_of(8));
    portrait_at(s, c, 3, "0", spread, 0.3f, 0.7f, &a, &b);
    CHECK(s, a == colour_of(2) && b == colour_of(3), "spread in a portrait view: %d | %d", a, b);
    portrait_at(s, c, 9, "1", single, 0.5f, 0.5f, &a, &b);
    CHECK(s, a == colour_of(11), "single, turned: %d, want page 11's %d", a, colour_of(11));
    portrait_at(s, c, 5, "0", rtl, 0.15f, 0.85f, &a, &b);
    CHECK(s, a == colour_of(5) && b == colour_of(5), "single, rtl: page 5 shows %d .. %d", a, b);
    portrait_at(s, c, 4, "0", rtl, 0.15f, 0.85f, &a, &b);
    CHECK(s, a == colour_of(4) && b == colour_of(4), "single, rtl: page 4 shows %d .. %d", a, b);
}

/* The largest distance of a turning leaf's exported vertices (--export-obj of a headless --curl
 * 0.3 run with `extra` flags, NULL-terminated) from the plane through three of them, in units of
 * the leaf's size; negative when the run or the file fails. */
static double leaf_flatness(CheckState *s, const Ctx *c, const char *const *extra, const char *what)
{
    char obj[512];
    path_in(c, "leaf.obj", obj, sizeof obj);
    remove(obj);
    const char *args[16] = {"--headless", "--validation", "--curl",       "0.3",
                            "--grid",     "16x20",        "--export-obj", obj};
    int n = 8;
    for (int i = 0; extra[i] && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    Run r = run_program(c->exe, c->dir, NULL, args);
    CHECK(s, r.status == 0, "%s: exit %d: %s", what, r.status, r.err);
    FILE *f = fopen(obj, "r");
    CHECK(s, f != NULL, "%s: no %s", what, obj);
    if (!f)
        return -1.0;
    static double v[16 * 20][3];
    int count = 0;
    char line[256];
    while (fgets(line, sizeof line, f) && count < 16 * 20)
        if (sscanf(line, "v %lf %lf %lf", &v[count][0], &v[count][1], &v[count][2]) == 3)
            count++;
    fclose(f);
    CHECK(s, count == 16 * 20, "%s: %d vertices, want 320", what, count);
    if (count != 16 * 20)
        return -1.0;
    /* the plane through the spine's bottom end, the free edge's bottom corner and the top one */
    const double *a = v[0], *b = v[15], *t = v[16 * 20 - 1];
    double e1[3], e2[3], nrm[3];
    for (int k = 0; k < 3; k++)
        e1[k] = b[k] - a[k], e2[k] = t[k] - a[k];
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    double size = sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2]), worst = 0.0;
    for (int i = 0; i < count; i++) {
        double d = 0.0;
        for (int k = 0; k < 3; k++)
            d += (v[i][k] - a[k]) * nrm[k] / len;
        worst = fmax(worst, fabs(d));
    }
    return worst / size;
}

/* --cover hard: the first and the last leaf turn as boards (planar mid-turn); a leaf between them
 * still curls, and so does the first with paper covers. */
static void check_cover(CheckState *s, const Ctx *c)
{
    double hard = leaf_flatness(s, c, (const char *const[]){"--cover", "hard", NULL}, "hard");
    double last = leaf_flatness(
        s, c, (const char *const[]){"--cover", "hard", "--page", "16", "--backward", NULL},
        "hard, last");
    double paper = leaf_flatness(s, c, (const char *const[]){NULL}, "paper");
    double middle = leaf_flatness(
        s, c, (const char *const[]){"--cover", "hard", "--page", "5", NULL}, "hard, middle");
    printf("cover: off-plane extent mid-turn (of the leaf's size): hard first %.2g, last %.2g; "
           "paper %.2g; a middle leaf %.2g\n",
           hard, last, paper, middle);
    CHECK(s, hard >= 0.0 && hard < 1e-4 && last >= 0.0 && last < 1e-4,
          "a hard cover mid-turn is not planar: %g, %g off its plane", hard, last);
    CHECK(s, paper > 0.02 && middle > 0.02,
          "a paper leaf mid-turn is flat (%g, %g off a plane): the check cannot tell", paper,
          middle);
}

static void check_pdf(CheckState *s, const Ctx *c)
{
    char pdf[512];
    path_in(c, "book.pdf", pdf, sizeof pdf);
    CHECK(s, write_pdf(pdf, 9, 200, 280), "cannot write %s", pdf);
#ifndef PAGECURL_HAVE_MUPDF
    check_refused(s, RUN("--headless", "--book", pdf), 1, "without MuPDF", "pdf, no MuPDF");
    return;
#endif
    check_spread(s, c, pdf, 7, "0", colour_of(6), colour_of(7), "pdf");
    check_spread(s, c, pdf, 5, "1", colour_of(6), colour_of(7), "pdf, turned");
}

/* A PDF page of fine bars (0.6 pt wide every 2 pt, as a text's strokes), one page. */
static bool write_bars_pdf(const char *path)
{
    char content[4096];
    int len = snprintf(content, sizeof content, "0 0 0 rg");
    for (int i = 0; i < 100 && len < (int)sizeof content - 32; i++)
        len += snprintf(content + len, sizeof content - (size_t)len, " %d 40 0.6 200 re", 2 * i);
    len += snprintf(content + len, sizeof content - (size_t)len, " f");
    return pdf_file_one_page(path, 1, "", content, (size_t)len);
}

/* The mean squared step between horizontal neighbours (luma, 0..255) over w x h pixels of `img`
 * from (x, y): how much fine detail the picture holds. */
static double detail(const Image *img, int x, int y, int w, int h)
{
    double sum = 0.0;
    long n = 0;
    for (int j = y; j < y + h && j < img->h; j++)
        for (int i = x; i + 1 < x + w && i + 1 < img->w; i++) {
            const unsigned char *a = img->rgba + 4 * ((size_t)j * img->w + i), *b = a + 4;
            double d = (0.3 * (a[0] - b[0]) + 0.59 * (a[1] - b[1]) + 0.11 * (a[2] - b[2]));
            sum += d * d, n++;
        }
    return n ? sum / n : 0.0;
}

/* A crop of a picture: the PNG, the width it must have, the crop's top-left corner. */
typedef struct Crop {
    const char *png;
    int width, x, y;
} Crop;

/* `test`'s w x h crop holds at least `least` of the fine detail of `ref`'s, and `ref`'s has some
 * (its bars resolved): `what` names the pair. */
static void check_as_sharp(CheckState *s, const char *what, Crop test, Crop ref, int w, int h,
                           double least)
{
    Image t = image_load(test.png), r = image_load(ref.png);
    if (t.rgba && r.rgba && t.w == test.width && r.w == ref.width) {
        double dt = detail(&t, test.x, test.y, w, h), dr = detail(&r, ref.x, ref.y, w, h);
        printf("%s: fine detail %.1f, in the reference %.1f\n", what, dt, dr);
        CHECK(s, dr > 100.0 && dt >= least * dr,
              "%s: the bars hold %.1f of the reference's detail %.1f (%s, %s)", what, dt, dr,
              test.png, ref.png);
    } else {
        CHECK(s, false, "%s: the pictures: %dx%d, %dx%d", what, t.w, t.h, r.w, r.h);
    }
    image_free(&t), image_free(&r);
}

/* At --zoom 4 the page is drawn from its source at four times the density (MuPDF at that
 * scale): its fine bars are as sharp as in the same page rendered four times larger, the crop
 * that --zoom 4 about the centre shows (pixel q of the zoomed picture shows pixel q + 3 x the
 * centre of the larger one). */
static void check_zoom_sharp(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
    return;
#endif
    char pdf[512], zoomed[512], big[512];
    path_in(c, "bars.pdf", pdf, sizeof pdf);
    path_in(c, "bars-zoom4.png", zoomed, sizeof zoomed);
    path_in(c, "bars-big.png", big, sizeof big);
    CHECK(s, write_bars_pdf(pdf), "cannot write %s", pdf);
    Run r = RUN("--headless", "--book", pdf, "--curl", "0", "--quality", "low", "--size", "320x180",
                "--zoom", "4", "--screenshot", zoomed);
    CHECK(s, r.status == 0, "--zoom 4: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--book", pdf, "--curl", "0", "--quality", "low", "--size", "1280x720",
            "--screenshot", big);
    CHECK(s, r.status == 0, "four times larger: exit %d: %s", r.status, r.err);
    check_as_sharp(s, "zoom_sharp: at --zoom 4 against rendered four times larger",
                   (Crop){zoomed, 320, 0, 0}, (Crop){big, 1280, 480, 270}, 320, 180, 0.9);
}

/* A page in a portrait view (one page, --layout auto) is drawn for the width it is shown at, as
 * a spread's pages are for half theirs: its fine bars are as sharp as the same page shown at the
 * same size in a landscape view (a one-page book, closed: its page alone, centred, 489 pixels
 * wide in both). Drawn for half the portrait's width, they were magnified 1.8 times. */
static void check_portrait_sharp(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
    return;
#endif
    char pdf[512], tall[512], wide[512];
    path_in(c, "bars-portrait.pdf", pdf, sizeof pdf);
    path_in(c, "bars-portrait.png", tall, sizeof tall);
    path_in(c, "bars-landscape.png", wide, sizeof wide);
    CHECK(s, write_bars_pdf(pdf), "cannot write %s", pdf);
    Run r = RUN("--headless", "--book", pdf, "--curl", "0", "--quality", "low", "--size", "515x720",
                "--screenshot", tall);
    CHECK(s, r.status == 0, "portrait: exit %d: %s", r.status, r.err);
    r = RUN("--headless", "--book", pdf, "--curl", "0", "--quality", "low", "--size", "1280x720",
            "--screenshot", wide);
    CHECK(s, r.status == 0, "landscape: exit %d: %s", r.status, r.err);
    /* 160 x 160 pixels of bars about the page's middle, in each; 0.90 drawn for the page's
     * width, 0.43 for half */
    check_as_sharp(s, "portrait_sharp: in a portrait view against a landscape one",
                   (Crop){tall, 515, 257 - 80, 300 - 80}, (Crop){wide, 1280, 640 - 80, 300 - 80},
                   160, 160, 0.8);
}

/* A PDF of three 200 x 280 pt pages printed black on white, as a manual is: page 1 a black bar
 * and lines of text (Helvetica, which MuPDF holds), page 2 (its back) a page of text, page 3
 * blank. */
static bool write_print_pdf(const char *path)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count 3 /Kids [4 0 R 6 0 R 8 0 R] >>");
    pdf_file_object(&pdf, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    for (int p = 0; p < 3; p++) {
        char stream[4096];
        int len = 0;
        if (p == 0)
            len = snprintf(stream, sizeof stream, "0 0 0 rg 30 220 140 24 re f ");
        for (int line = 0; p < 2 && line < (p == 0 ? 8 : 22); line++)
            len += snprintf(stream + len, sizeof stream - (size_t)len,
                            "BT /F1 7 Tf 20 %d Td (Paper does not stretch: each line keeps "
                            "its length.) Tj ET ",
                            (p == 0 ? 190 : 256) - 11 * line);
        pdf_file_object(&pdf,
                        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents %d 0 R "
                        "/Resources << /Font << /F1 3 0 R >> >> >>",
                        5 + 2 * p);
        pdf_file_stream(&pdf, "", stream, (size_t)len);
    }
    return pdf_file_close(&pdf);
}

static int luma(const unsigned char *p)
{
    return (2126 * p[0] + 7152 * p[1] + 722 * p[2] + 5000) / 10000;
}

#ifdef PAGECURL_HAVE_MUPDF
/* MuPDF's own rendering of page 1 of `path` at `scale` pixels a point: its darkest and its
 * lightest luma; false where it cannot be drawn. */
static bool mupdf_extremes(const char *path, float scale, int *darkest, int *lightest)
{
    fz_context *fz = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
    if (!fz)
        return false;
    bool ok = false;
    fz_document *doc = NULL;
    fz_pixmap *pix = NULL;
    fz_var(doc);
    fz_var(pix);
    fz_try(fz)
    {
        fz_register_document_handlers(fz);
        doc = fz_open_document(fz, path);
        pix = fz_new_pixmap_from_page_number(fz, doc, 0, fz_scale(scale, scale), fz_device_rgb(fz),
                                             0);
        const unsigned char *px = fz_pixmap_samples(fz, pix);
        int w = fz_pixmap_width(fz, pix), h = fz_pixmap_height(fz, pix);
        ptrdiff_t stride = fz_pixmap_stride(fz, pix);
        *darkest = 255, *lightest = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int l = luma(px + y * stride + 3 * x);
                *darkest = l < *darkest ? l : *darkest;
                *lightest = l > *lightest ? l : *lightest;
            }
        ok = w > 0 && h > 0;
    }
    fz_always(fz)
    {
        fz_drop_pixmap(fz, pix);
        fz_drop_document(fz, doc);
    }
    fz_catch(fz)
    {
        fprintf(stderr, "MuPDF: %s\n", fz_caught_message(fz));
    }
    fz_drop_context(fz);
    return ok;
}

/* Where a page's edge lies in a row or column of `img` crossing it from the page's paper (at
 * `in`) to the desk (at `out`, a step of +-1 along the line): the edge pixel's share of paper,
 * from its luma between the desk's and the paper's, added to the last pixel that is all paper. */
static float edge_at(const Image *img, int x, int y, int step_x, int step_y)
{
    int paper = luma(img->rgba + 4 * ((size_t)y * img->w + x));
    for (;;) {
        int nx = x + step_x, ny = y + step_y;
        if (nx < 1 || ny < 1 || nx >= img->w - 1 || ny >= img->h - 1)
            return -1.0f;
        int l = luma(img->rgba + 4 * ((size_t)ny * img->w + nx));
        if (l < paper - 4) {
            int desk = luma(img->rgba + 4 * ((size_t)(ny + step_y) * img->w + nx + step_x));
            float share = (float)(l - desk) / (float)(paper - desk > 1 ? paper - desk : 1);
            float at = (float)(step_x ? x : y) + 0.5f;
            return at + (float)(step_x + step_y) * (0.5f + fminf(fmaxf(share, 0.0f), 1.0f));
        }
        x = nx, y = ny;
    }
}

/* MuPDF's page 1 of `doc` at `scale`, its corner at pixel point (x0, y0) of `img`: the sum of
 * the lumas' differences from `img`'s (throws as MuPDF does). */
static double mupdf_distance(fz_context *fz, fz_document *doc, const Image *img, float scale,
                             float x0, float y0)
{
    int ox = (int)floorf(x0), oy = (int)floorf(y0);
    fz_pixmap *pix = fz_new_pixmap_from_page_number(
        fz, doc, 0, fz_concat(fz_scale(scale, scale), fz_translate(x0 - (float)ox, y0 - (float)oy)),
        fz_device_rgb(fz), 0);
    const unsigned char *px = fz_pixmap_samples(fz, pix);
    int w = fz_pixmap_width(fz, pix), h = fz_pixmap_height(fz, pix);
    int ax = fz_pixmap_x(fz, pix), ay = fz_pixmap_y(fz, pix);
    ptrdiff_t stride = fz_pixmap_stride(fz, pix);
    double sum = 0.0;
    for (int y = 2; y < h - 2; y++)
        for (int x = 2; x < w - 2; x++) {
            int sx = ox + ax + x, sy = oy + ay + y;
            if (sx >= 0 && sy >= 0 && sx < img->w && sy < img->h)
                sum += abs(luma(px + y * stride + 3 * x) -
                           luma(img->rgba + 4 * ((size_t)sy * img->w + sx)));
        }
    fz_drop_pixmap(fz, pix);
    return sum;
}

/* Each glyph's darkest luma in MuPDF's own rendering of page 1 of `path` placed as the page lies
 * in `img` (*scale pixels a point, its top left corner at pixel point (*x0, *y0), found closer
 * and told back: the same phase of the pixel grid, which decides how dark a stroke a pixel wide
 * comes out), against the darkest in `img` within a pixel of the glyph: the largest difference,
 * the median one, and how many glyphs (ink joined where MuPDF's luma is under 224, darker than
 * 128 somewhere, narrower than 40 pixels: not the bar). */
static bool glyphs_against_mupdf(const char *path, const Image *img, float *scale, float *x0,
                                 float *y0, int *worst, int *glyphs, int *median)
{
    fz_context *fz = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
    if (!fz)
        return false;
    bool ok = false;
    fz_document *doc = NULL;
    fz_pixmap *pix = NULL;
    unsigned char *seen = NULL;
    int *stack = NULL, *diffs = NULL;
    fz_var(doc);
    fz_var(pix);
    fz_try(fz)
    {
        fz_register_document_handlers(fz);
        doc = fz_open_document(fz, path);
        /* the placement and scale found from the edges to a fifth of a pixel or so: those that
         * MuPDF's pixels match best, within half a pixel (by eighths) and 0.2 % (by 0.05 %),
         * then within an eighth (by 32nds) and 0.05 % of that (a stroke a pixel wide shifted
         * by a tenth of a pixel is 25 levels lighter) */
        float best_x = *x0, best_y = *y0, best_s = *scale;
        double best = -1.0;
        for (int round = 0; round < 2; round++) {
            float cx = best_x, cy = best_y, cs = best_s;
            float step = round ? 1.0f / 32.0f : 0.125f, grow = round ? 0.000125f : 0.0005f;
            for (int k = -4; k <= 4; k++)
                for (int j = -4; j <= 4; j++)
                    for (int i = -4; i <= 4; i++) {
                        float px0 = cx + step * (float)i, py0 = cy + step * (float)j;
                        float ps = cs * (1.0f + grow * (float)k);
                        double d = mupdf_distance(fz, doc, img, ps, px0, py0);
                        if (best < 0.0 || d < best)
                            best = d, best_x = px0, best_y = py0, best_s = ps;
                    }
        }
        *scale = best_s, *x0 = best_x, *y0 = best_y;
        pix = fz_new_pixmap_from_page_number(
            fz, doc, 0,
            fz_concat(fz_scale(*scale, *scale), fz_translate(*x0 - floorf(*x0), *y0 - floorf(*y0))),
            fz_device_rgb(fz), 0);
        int ox = (int)floorf(*x0), oy = (int)floorf(*y0);
        const unsigned char *px = fz_pixmap_samples(fz, pix);
        int w = fz_pixmap_width(fz, pix), h = fz_pixmap_height(fz, pix);
        int ax = fz_pixmap_x(fz, pix), ay = fz_pixmap_y(fz, pix);
        ptrdiff_t stride = fz_pixmap_stride(fz, pix);
        seen = calloc((size_t)w * h, 1);
        stack = malloc(sizeof *stack * (size_t)w * h);
        diffs = malloc(sizeof *diffs * (size_t)w * h);
        *worst = 0, *glyphs = 0;
        for (int y = 2; seen && stack && diffs && y < h - 2; y++)
            for (int x = 2; x < w - 2; x++) {
                if (seen[y * w + x] || luma(px + y * stride + 3 * x) >= 224)
                    continue;
                int n = 0, mu = 255, bx0 = x, bx1 = x, by0 = y, by1 = y;
                stack[n++] = y * w + x, seen[y * w + x] = 1;
                while (n) {
                    int i = stack[--n], a = i % w, b = i / w;
                    int l = luma(px + b * stride + 3 * a);
                    mu = l < mu ? l : mu;
                    bx0 = a < bx0 ? a : bx0, bx1 = a > bx1 ? a : bx1;
                    by0 = b < by0 ? b : by0, by1 = b > by1 ? b : by1;
                    static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                    for (int k = 0; k < 4; k++) {
                        int na = a + step[k][0], nb = b + step[k][1];
                        if (na >= 0 && nb >= 0 && na < w && nb < h && !seen[nb * w + na] &&
                            luma(px + nb * stride + 3 * na) < 224)
                            seen[nb * w + na] = 1, stack[n++] = nb * w + na;
                    }
                }
                if (bx1 - bx0 > 40 || mu >= 128)
                    continue;
                int shot = 255;
                for (int b = by0 - 1; b <= by1 + 1; b++)
                    for (int a = bx0 - 1; a <= bx1 + 1; a++) {
                        int sx = ox + ax + a, sy = oy + ay + b;
                        if (sx >= 0 && sy >= 0 && sx < img->w && sy < img->h) {
                            int l = luma(img->rgba + 4 * ((size_t)sy * img->w + sx));
                            shot = l < shot ? l : shot;
                        }
                    }
                int d = abs(shot - mu);
                diffs[(*glyphs)++] = d;
                *worst = d > *worst ? d : *worst;
            }
        /* the median: a count of each difference */
        int count[256] = {0}, below = 0;
        for (int i = 0; i < *glyphs; i++)
            count[diffs[i] > 255 ? 255 : diffs[i]]++;
        *median = 0;
        for (int d = 0; d < 256 && below <= *glyphs / 2; d++)
            below += count[d], *median = d;
        ok = seen && stack && diffs && *glyphs > 0;
    }
    fz_always(fz)
    {
        fz_drop_pixmap(fz, pix);
        fz_drop_document(fz, doc);
    }
    fz_catch(fz)
    {
        fprintf(stderr, "MuPDF: %s\n", fz_caught_message(fz));
    }
    free(seen), free(stack), free(diffs);
    fz_drop_context(fz);
    return ok;
}
#endif

/* Issue 50: at rest, face on, a PDF's print reaches the screen as MuPDF draws it at that scale:
 * its darkest ink (the black bar) and its paper's white within 8/255 of MuPDF's, the white in
 * every column of the page but the gutter's (a tenth of the page from the spine), so that no
 * highlight or vignette greys the page; and the back's text shows through by at most 2/255 (but
 * shows), at both tiers. */
static void check_print(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
    return;
#else
    char pdf[512], shot[512], bare[512], rest[512], still[512];
    path_in(c, "print.pdf", pdf, sizeof pdf);
    CHECK(s, write_print_pdf(pdf), "cannot write %s", pdf);
    path_in(c, "still.trace", still, sizeof still);
    FILE *f = fopen(still, "w");
    CHECK(s, f && fputs("# pagecurl input trace: TIME DEVICE ACTION [X Y [PRESSURE]]\n", f) >= 0,
          "cannot write %s", still);
    if (f)
        fclose(f);
    static const char *const tiers[] = {"low", "high"};
    for (int t = 0; t < 2; t++) {
        path_in(c, "print.png", shot, sizeof shot);
        path_in(c, "print-bare.png", bare, sizeof bare);
        Run r = RUN("--headless", "--validation", "--book", pdf, "--page", "1", "--curl", "0",
                    "--quality", tiers[t], "--size", "960x540", "--screenshot", shot);
        CHECK(s, r.status == 0, "print %s: exit %d: %s", tiers[t], r.status, r.err);
        r = RUN("--headless", "--validation", "--book", pdf, "--page", "1", "--curl", "0",
                "--quality", tiers[t], "--size", "960x540", "--show-through", "0", "--screenshot",
                bare);
        CHECK(s, r.status == 0, "print %s, no show-through: exit %d: %s", tiers[t], r.status,
              r.err);
        Image img = image_load(shot), off = image_load(bare);
        if (!img.rgba || !off.rgba || img.w != off.w || img.h != off.h) {
            CHECK(s, false, "print %s: no screenshots", tiers[t]);
            image_free(&img), image_free(&off);
            continue;
        }
        /* the page: the box of its paper (light pixels), page 1 alone on the right */
        int x0 = img.w, x1 = -1, y0 = img.h, y1 = -1;
        for (int y = 0; y < img.h; y++)
            for (int x = 0; x < img.w; x++)
                if (luma(img.rgba + 4 * ((size_t)y * img.w + x)) > 200) {
                    x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
                    y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
                }
        int pw = x1 - x0 + 1;
        CHECK(s, pw > 200 && y1 > y0 + 200, "print %s: no page found (%d..%d)", tiers[t], x0, x1);
        int mu_dark = -1, mu_white = -1;
        CHECK(s, pw > 0 && mupdf_extremes(pdf, (float)pw / 200.0f, &mu_dark, &mu_white),
              "print: MuPDF cannot draw %s", pdf);
        /* inside the page's anti-aliased outline: its darkest, and each column's lightest */
        int dark = 255, grey_col = 256, most = 0, shown = 0;
        for (int x = x0 + 2; x <= x1 - 2; x++) {
            int col = 0;
            for (int y = y0 + 2; y <= y1 - 2; y++) {
                size_t i = 4 * ((size_t)y * img.w + x);
                int l = luma(img.rgba + i);
                dark = l < dark ? l : dark;
                col = l > col ? l : col;
                for (int k = 0; k < 3; k++) {
                    int d = off.rgba[i + k] - img.rgba[i + k];
                    most = d > most ? d : most;
                    shown += d > 0;
                }
            }
            if (x > x0 + pw / 10)
                grey_col = col < grey_col ? col : grey_col;
        }
        printf("print %s: page %d px wide: darkest %d, paper %d at least (MuPDF %d, %d); "
               "show-through %d levels at most (%d channels)\n",
               tiers[t], pw, dark, grey_col, mu_dark, mu_white, most, shown);
        CHECK(s, abs(dark - mu_dark) <= 8, "print %s: the darkest ink %d, MuPDF's %d", tiers[t],
              dark, mu_dark);
        CHECK(s, abs(grey_col - mu_white) <= 8, "print %s: the paper %d in places, MuPDF's %d",
              tiers[t], grey_col, mu_white);
        CHECK(s, most <= 2 && shown > 100,
              "print %s: the back's text shows through by %d levels (%d channels; 1 or 2)",
              tiers[t], most, shown);
        /* each glyph of the 7 pt text (strokes about a pixel wide) as dark as MuPDF draws it
         * where the page lies, at rest (a replay of no events: at --curl 0 page 1 is the turning
         * leaf, held flat): the page's edges found to a fraction of a pixel (top, bottom, and
         * the outer edge, away from the gutter) in its outer margin */
        path_in(c, "print-rest.png", rest, sizeof rest);
        r = RUN("--headless", "--validation", "--book", pdf, "--replay", still, "--quality",
                tiers[t], "--size", "960x540", "--screenshot", rest);
        CHECK(s, r.status == 0, "print %s at rest: exit %d: %s", tiers[t], r.status, r.err);
        Image at = image_load(rest);
        float top = -1.0f, bottom = -1.0f, right = -1.0f;
        if (at.rgba && at.w == img.w && at.h == img.h) {
            top = edge_at(&at, x1 - 4, y0 + 4, 0, -1);
            bottom = edge_at(&at, x1 - 4, y1 - 4, 0, 1);
            right = edge_at(&at, x1 - 4, y0 + 4, 1, 0);
        }
        float scale = (bottom - top) / 280.0f, left = right - 200.0f * scale;
        int worst = -1, glyphs = 0, median = -1;
        CHECK(s,
              top > 0.0f && bottom > top && right > 0.0f &&
                  glyphs_against_mupdf(pdf, &at, &scale, &left, &top, &worst, &glyphs, &median),
              "print %s: the page's edges (%.2f %.2f %.2f) or MuPDF's glyphs not found", tiers[t],
              top, bottom, right);
        image_free(&at);
        printf("print %s: at rest, the page at (%.2f, %.2f), %.3f px a point: %d glyphs' darkest "
               "within %d of MuPDF's (median %d)\n",
               tiers[t], left, top, scale, glyphs, worst, median);
        CHECK(s, glyphs > 250 && worst <= 8,
              "print %s: a glyph's darkest %d levels from MuPDF's (median %d of %d glyphs)",
              tiers[t], worst, median, glyphs);
        image_free(&img), image_free(&off);
    }
#endif
}

static PagesBookSource *open_source(CheckState *s, const char *path);

/* How far region `r` as drawn is from the same texels of the page drawn whole into a layer of
 * its full size (whole texels; paper where they lie beyond it): the largest difference and the
 * mean, in levels; false where either could not be drawn. */
static bool region_error(PagesBookSource *src, int page, const PageRegion *r, int *worst,
                         double *mean)
{
    uint32_t fw = (uint32_t)r->full_width, fh = (uint32_t)r->full_height;
    uint8_t *whole = malloc((size_t)fw * fh * 4), *part = malloc((size_t)r->width * r->height * 4);
    char message[512];
    bool ok = whole && part &&
              pages_book_source_draw(src, page, fw, fh, whole, message, sizeof message) &&
              pages_book_source_draw_region(src, page, r, part, message, sizeof message);
    static const uint8_t PAPER_RGBA[4] = {244, 240, 230, 255};
    *worst = 0;
    double sum = 0.0;
    for (uint32_t j = 0; ok && j < r->height; j++)
        for (uint32_t i = 0; i < r->width; i++) {
            int64_t x = (int64_t)r->x + (int64_t)i, y = (int64_t)r->y + (int64_t)j;
            bool inside = x >= 0 && y >= 0 && x < (int64_t)fw && y < (int64_t)fh;
            const uint8_t *want = inside ? &whole[4 * ((size_t)y * fw + (size_t)x)] : PAPER_RGBA;
            const uint8_t *got = &part[4 * ((size_t)j * r->width + i)];
            for (int k = 0; k < 4; k++) {
                int d = abs((int)want[k] - (int)got[k]);
                *worst = d > *worst ? d : *worst;
                sum += d;
            }
        }
    *mean = ok ? sum / (4.0 * r->width * r->height) : 0.0;
    free(whole), free(part);
    return ok;
}

/* A page drawn in regions (a zoomed view's detail, book/book_stream.h) is the page drawn whole
 * at that size, texel for texel, cut to the region: a PDF's (MuPDF clipped to the region) and a
 * folder's images (larger than the layer: box-filtered alike), one of the book's shape and one
 * fitted in a margin, at the region's edges, across the
 * layer's edges and beyond them (paper). The built-in book draws no regions. */
static void check_regions(CheckState *s, const Ctx *c)
{
    char pdf[512], dir[512], png[600];
    path_in(c, "regions.pdf", pdf, sizeof pdf);
    path_in(c, "regions", dir, sizeof dir);
    CHECK(s, write_bars_pdf(pdf), "cannot write %s", pdf);
    mkdir(dir, 0755);
    snprintf(png, sizeof png, "%s/page1.png", dir);
    CHECK(s, write_halves(png, 1200, 1680, COLOURS[0], COLOURS[2]), "cannot write %s", png);
    snprintf(png, sizeof png, "%s/page2.png", dir);
    CHECK(s, write_halves(png, 1600, 1200, COLOURS[1], COLOURS[3]), "cannot write %s", png);
    static const PageRegion REGIONS[] = {
        {600, 840, 100, 200, 256, 128}, /* inside */
        {600, 840, -40, -30, 200, 150}, /* across the top left corner */
        {600, 840, 500, 790, 160, 100}, /* across the bottom right */
        {600, 840, 700, 900, 64, 64},   /* beyond the layer: paper */
        {600, 840, 0, 0, 600, 840},     /* the whole page */
    };
    const char *books[] = {pdf, dir};
    for (int b = 0; b < 2; b++) {
        PagesBookSource *src = open_source(s, books[b]);
        if (!src)
            continue;
        CHECK(s, pages_book_source_draws_regions(src), "%s draws no regions", books[b]);
        int pages = pages_book_source_pages(src);
        for (int page = 0; page < pages; page++)
            for (size_t k = 0; k < sizeof REGIONS / sizeof REGIONS[0]; k++) {
                int worst;
                double mean;
                bool drawn = region_error(src, page, &REGIONS[k], &worst, &mean);
                CHECK(s, drawn && (b == 0 ? worst <= 1 : mean <= 1.0),
                      "%s page %d, region %zu: %d levels off the page drawn whole at worst, %.2f "
                      "on average%s",
                      books[b], page + 1, k, worst, mean, drawn ? "" : " (not drawn)");
            }
        pages_book_source_close(src);
    }
    PagesBookSource *builtin = NULL;
    char message[512];
    if (pages_book_source_open(NULL, &builtin, message, sizeof message) == 0) {
        CHECK(s, !pages_book_source_draws_regions(builtin), "the built-in book draws regions");
        pages_book_source_close(builtin);
    }
}

/* More leaves visited than the pool holds (8): from the end of a 20-leaf book, eight turns back
 * want leaves 19 down to 8, so slots are reused; the spread the replay ends on shows its own
 * pages, its left one (leaf 11's back) from a slot that held leaf 19. */
static void check_evict(CheckState *s, const Ctx *c)
{
    char pdf[512], trace[512], shot[512];
    path_in(c, "forty.pdf", pdf, sizeof pdf);
    path_in(c, "evict.trace", trace, sizeof trace);
    path_in(c, "evict.png", shot, sizeof shot);
    CHECK(s, write_pdf(pdf, 40, 200, 280), "cannot write %s", pdf);
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    fprintf(f, "0.0 key end\n");
    for (int k = 0; k < 8; k++)
        fprintf(f, "%.1f key prev\n", 0.5 + 0.8 * k);
    fclose(f);
#ifndef PAGECURL_HAVE_MUPDF
    return;
#endif
    Run r = RUN("--headless", "--validation", "--book", pdf, "--size", "240x135", "--replay", trace,
                "--screenshot", shot);
    CHECK(s, r.status == 0, "evict: exit %d: %s", r.status, r.err);
    Image img = image_load(shot);
    CHECK(s, img.rgba, "evict: no screenshot");
    if (img.rgba) { /* spread 12: pages 24 | 25 */
        int left = page_at(&img, 0.30f, 0.5f), right = page_at(&img, 0.70f, 0.5f);
        CHECK(s, left == colour_of(24) && right == colour_of(25),
              "evict: colours %d | %d, want %d | %d", left, right, colour_of(24), colour_of(25));
    }
    image_free(&img);
}

/* Thumbing through, replayed: 20 Right presses 60 ms apart (a fast hand) from the first spread of
 * a 41-page book turn it 20 spreads, to the one holding its last page (40 | 41): the picture End
 * shows, pixel for pixel. Five flicks of the right page 150 ms apart, each made while the leaf
 * before still falls, turn five (pages 10 | 11). */
static void check_thumb(CheckState *s, const Ctx *c)
{
    char pdf[512], trace[512], rapid[512], end[512];
    path_in(c, "thumb.pdf", pdf, sizeof pdf);
    path_in(c, "thumb.trace", trace, sizeof trace);
    path_in(c, "thumb.png", rapid, sizeof rapid);
    path_in(c, "thumb-end.png", end, sizeof end);
    CHECK(s, write_pdf(pdf, 41, 200, 280), "cannot write %s", pdf);
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    for (int k = 0; k < 20; k++)
        fprintf(f, "%.2f key next\n", 0.06 * k);
    fclose(f);
#ifndef PAGECURL_HAVE_MUPDF
    return;
#endif
    Run r = RUN("--headless", "--validation", "--book", pdf, "--size", "240x135", "--replay", trace,
                "--screenshot", rapid);
    CHECK(s, r.status == 0, "thumb: exit %d: %s", r.status, r.err);
    f = fopen(trace, "w");
    CHECK(s, f && fputs("0.0 key end\n", f) >= 0 && fclose(f) == 0, "cannot write %s", trace);
    r = RUN("--headless", "--book", pdf, "--size", "240x135", "--replay", trace, "--frames", "3",
            "--screenshot", end);
    CHECK(s, r.status == 0, "thumb, End: exit %d: %s", r.status, r.err);
    Image a = image_load(rapid), b = image_load(end);
    CHECK(s, a.rgba && b.rgba, "thumb: no screenshots");
    if (a.rgba && b.rgba) {
        int left = page_at(&a, 0.30f, 0.5f), right = page_at(&a, 0.70f, 0.5f);
        CHECK(s, left == colour_of(40) && right == colour_of(41),
              "thumb: colours %d | %d, want pages 40 | 41's %d | %d", left, right, colour_of(40),
              colour_of(41));
        /* the same picture: within 2 levels, as the two cameras at rest differ by 0.005 px
         * (3.411 and 3.406 rows to the pages' top), which moves the pages' own drawing at the
         * scale shown (a detail, book/book_stream.c) by that much at their edges */
        int most = a.w == b.w && a.h == b.h ? 0 : 256;
        for (size_t i = 0; most < 256 && i < (size_t)a.w * a.h * 4; i++)
            most = abs(a.rgba[i] - b.rgba[i]) > most ? abs(a.rgba[i] - b.rgba[i]) : most;
        CHECK(s, most <= 2,
              "thumb: 20 presses 60 ms apart did not end on End's spread (%s vs %s: %d levels "
              "apart)",
              rapid, end, most);
    }
    image_free(&a);
    image_free(&b);
    f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    for (int k = 0; k < 5; k++) { /* 0.1 of the view's width leftwards in 50 ms */
        double t0 = 0.15 * k;
        fprintf(f, "%.3f mouse down 0.60 0.6\n", t0);
        for (int i = 1; i <= 6; i++)
            fprintf(f, "%.3f mouse move %.3f 0.6\n", t0 + 0.05 * i / 6, 0.60 - 0.10 * i / 6);
        fprintf(f, "%.3f mouse up 0.50 0.6\n", t0 + 0.05);
    }
    fclose(f);
    r = RUN("--headless", "--book", pdf, "--size", "240x135", "--replay", trace, "--screenshot",
            rapid);
    CHECK(s, r.status == 0, "thumb, flicks: exit %d: %s", r.status, r.err);
    a = image_load(rapid);
    CHECK(s, a.rgba, "thumb, flicks: no screenshot");
    if (a.rgba) {
        int left = page_at(&a, 0.30f, 0.5f), right = page_at(&a, 0.70f, 0.5f);
        CHECK(s, left == colour_of(10) && right == colour_of(11),
              "thumb: 5 flicks show colours %d | %d, want pages 10 | 11's %d | %d", left, right,
              colour_of(10), colour_of(11));
    }
    image_free(&a);
}

/* Opens `path` as a book, for the checks that read it without the program; NULL (a failed
 * check) where it does not open. */
static PagesBookSource *open_source(CheckState *s, const char *path)
{
    PagesBookSource *src = NULL;
    char message[512];
    int status = pages_book_source_open(path, &src, message, sizeof message);
    CHECK(s, status == 0, "cannot open %s: %s", path, message);
    return status ? NULL : src;
}

/* Checks side `side`'s label and, where `where` is given, the line for spread `spread`
 * (single page where `single`). */
static void check_label(CheckState *s, const PagesBookSource *src, int side, const char *want,
                        const char *what)
{
    char label[PAGE_LABEL_MAX];
    pages_book_source_side_label(src, side, label, sizeof label);
    CHECK(s, !strcmp(label, want), "%s: page %d is labelled '%s', want '%s'", what, side + 1, label,
          want);
}

/* The context libpagecurl books are made on here (the window's lines and field take one): made
 * once, on the first call; destroyed by main. */
static pagecurl_context *library_context(bool destroy)
{
    static pagecurl_context *ctx;
    if (destroy) {
        pagecurl_context_destroy(ctx);
        ctx = NULL;
    } else if (!ctx) {
        ctx = pagecurl_context_create(
            &(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc)}, NULL);
    }
    return ctx;
}

/* The libpagecurl book of `src`'s pages (the window's view of them); NULL (checked) where it
 * cannot be made. */
static pagecurl_book *library_book(CheckState *s, const PagesBookSource *src)
{
    pagecurl_error err = {0};
    pagecurl_context *ctx = library_context(false);
    const char *path = pages_book_source_builtin(src) ? NULL : pages_book_source_name(src);
    pagecurl_book *book =
        ctx ? pagecurl_book_create(
                  ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .path = path},
                  &err)
            : NULL;
    CHECK(s, book != NULL, "no libpagecurl book of %s: %s", path ? path : "the built-in book",
          ctx ? err.message : "no context");
    return book;
}

static void check_where(CheckState *s, const PagesBookSource *src, int spread, int page,
                        const char *want, const char *what)
{
    char line[APP_WHERE_MAX] = "";
    pagecurl_book *book = library_book(s, src);
    if (book)
        app_where_line(book, spread, page, line, sizeof line);
    pagecurl_book_destroy(book);
    CHECK(s, !strcmp(line, want), "%s: spread %d (page %d alone) reads '%s', want '%s'", what,
          spread, page, line, want);
}

/* A PDF's own page labels (/PageLabels), as the title and the HUD say where the reader is: roman
 * front matter, then arabic from 1, a lettered appendix with a prefix, a page with a prefix
 * alone, arabic again from 100; in a tree whose kids lead back to it (read once, no hang); at
 * the extremes (a start near the largest integer, labels longer than a label may be, a prefix
 * beyond ASCII). A PDF without labels, a folder and the built-in book have none: plain numbers. */
static void check_labels(CheckState *s, const Ctx *c)
{
    char pdf[512];
    path_in(c, "labels.pdf", pdf, sizeof pdf);
#ifndef PAGECURL_HAVE_MUPDF
    return;
#endif
    CHECK(s,
          write_pdf_with(pdf, 14, 200, 280,
                         "/PageLabels << /Nums [0 << /S /r >> 4 << /S /D >> 8 << /S /A /P (App-) "
                         ">> 10 << /P (Cover) >> 11 << /S /D /St 100 >>] >> ",
                         NULL),
          "cannot write %s", pdf);
    PagesBookSource *src = open_source(s, pdf);
    if (src) {
        static const char *const want[14] = {"i", "ii",    "iii",   "iv",    "1",   "2",   "3",
                                             "4", "App-A", "App-B", "Cover", "100", "101", "102"};
        for (int p = 0; p < 14; p++)
            check_label(s, src, p, want[p], "labels");
        check_label(s, src, 14, "", "labels, past the end");
        check_where(s, src, 0, 0, "i (1 / 14)", "labels");
        check_where(s, src, 2, 0, "iv-1 (4-5 / 14)", "labels");
        check_where(s, src, 3, 0, "2-3 (6-7 / 14)", "labels");
        check_where(s, src, 5, 0, "App-B to Cover (10-11 / 14)", "hyphenated labels");
        check_where(s, src, 2, 5, "1 (5 / 14)", "labels");
        check_where(s, src, 2, 4, "iv (4 / 14)", "labels, a left-hand page alone");
        check_where(s, src, 7, 0, "102 (14 / 14)", "labels");
        /* what a reader types: a label (exactly, else ignoring case), else a page's number */
        static const struct {
            const char *text;
            int page;
        } finds[] = {{"iv", 4},  {"IV", 4}, {"1", 5},   {"app-b", 10}, {"101", 13},
                     {"14", 14}, {"2", 6},  {"12", 12}, {"9", 9},      {"v", 0},
                     {"0", 0},   {"", 0},   {"4x", 0},  {"cover", 11}, {"-1", 0}};
        for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++)
            CHECK(s, pages_book_source_find_page(src, finds[i].text) == finds[i].page,
                  "labels: '%s' finds page %d, want %d", finds[i].text,
                  pages_book_source_find_page(src, finds[i].text), finds[i].page);
        pages_book_source_close(src);
        /* --page by label: "iv" opens at the spread of pages 4 and 5 (iv | 1) */
        char shot[512];
        path_in(c, "labels.png", shot, sizeof shot);
        Run r = RUN("--headless", "--book", pdf, "--page", "iv", "--curl", "0", "--size", "480x270",
                    "--screenshot", shot);
        CHECK(s, r.status == 0 && !strstr(r.err, "note"), "--page iv: exit %d: %s", r.status,
              r.err);
        /* a number no page is labelled: page 7 of the book, said (its label is 3) */
        Run n = RUN("--headless", "--book", pdf, "--page", "7", "--curl", "0", "--size", "160x90");
        CHECK(s,
              n.status == 0 &&
                  strstr(n.err, "no page is labelled so; page 7 of the book, labelled 3"),
              "--page 7 (no such label): exit %d: %s", n.status, n.err);
        Image img = image_load(shot);
        CHECK(s, img.rgba, "--page iv: no screenshot");
        if (img.rgba)
            CHECK(s,
                  page_at(&img, 0.30f, 0.5f) == colour_of(4) &&
                      page_at(&img, 0.70f, 0.5f) == colour_of(5),
                  "--page iv shows colours %d | %d, want %d | %d", page_at(&img, 0.30f, 0.5f),
                  page_at(&img, 0.70f, 0.5f), colour_of(4), colour_of(5));
        image_free(&img);
        check_refused(s, RUN("--headless", "--book", pdf, "--page", "v"), 2, "--page v",
                      "--page v (no such label)");
        /* label 102 is page 14, the last, with no leaf to turn: named as it was typed */
        check_refused(s, RUN("--headless", "--book", pdf, "--page", "102"), 2,
                      "--page 102: the spread holding it", "--page 102 (the last page)");
    }
    /* a number tree whose kids lead back to its root, and a cycle through the kids' kids */
    CHECK(s,
          write_pdf_with(pdf, 3, 200, 280, "/PageLabels 9 0 R ",
                         "<< /Kids [9 0 R << /Kids [9 0 R] >>] /Nums [0 << /S /R >>] >>"),
          "cannot write %s", pdf);
    if ((src = open_source(s, pdf))) {
        check_label(s, src, 2, "III", "a cyclic tree");
        pages_book_source_close(src);
    }
    /* the extremes */
    CHECK(s,
          write_pdf_with(pdf, 6, 200, 280,
                         "/PageLabels << /Nums [0 << /S /D /St 2147483647 >> 2 << /S /a /St "
                         "100000 >> 3 << /S /R /St 1000000 >> 4 << /S /D /P <FEFF0416> >> 5 "
                         "<< /S /X /P (\\n) >>] >> ",
                         NULL),
          "cannot write %s", pdf);
    if ((src = open_source(s, pdf))) {
        check_label(s, src, 1, "2147483648", "past the largest int");
        char label[PAGE_LABEL_MAX], line[APP_WHERE_MAX];
        pages_book_source_side_label(src, 2, label, sizeof label);
        CHECK(s, strlen(label) == PAGE_LABEL_MAX - 1 && strspn(label, "d") == strlen(label),
              "letters 100000 (99999 = 3846 x 26 + 3: d, 3847 times, cut): '%s'", label);
        pages_book_source_side_label(src, 3, label, sizeof label);
        CHECK(s, strlen(label) == PAGE_LABEL_MAX - 1 && strspn(label, "M") == strlen(label),
              "roman 1000000: '%s'", label);
        check_label(s, src, 4,
                    "\xd0\x96"
                    "1",
                    "a prefix beyond ASCII");
        check_label(s, src, 5, " ", "an unknown style, a line break for a prefix");
        check_where(s, src, 2, 5, "?1 (5 / 6)", "beyond ASCII");
        pagecurl_book *book = library_book(s, src);
        line[0] = '\0';
        if (book)
            app_where_line(book, 2, 0, line, sizeof line);
        pagecurl_book_destroy(book);
        CHECK(s, strlen(line) < sizeof line - 1 && strstr(line, "M-?1 (4-5 / 6)"),
              "a long label and one beyond ASCII: '%s'", line);
        check_where(s, src, 3, 0, "6 / 6", "a blank label");
        pages_book_source_close(src);
    }
    /* none */
    CHECK(s, write_pdf(pdf, 9, 200, 280), "cannot write %s", pdf);
    if ((src = open_source(s, pdf))) {
        check_label(s, src, 0, "", "no /PageLabels");
        check_where(s, src, 0, false, "1 / 9", "no /PageLabels");
        check_where(s, src, 4, false, "8-9 / 9", "no /PageLabels");
        check_where(s, src, 5, false, "end / 9", "no /PageLabels");
        pages_book_source_close(src);
    }
    if ((src = open_source(s, NULL))) {
        check_label(s, src, 3, "", "the built-in book");
        check_where(s, src, 2, false, "4-5 / 16", "the built-in book");
        pages_book_source_close(src);
    }
}

/* A PDF's outline, flattened in reading order (a section under its chapter, then the next
 * chapter), each entry's page from a /Dest or a /GoTo action, a title's line break a space; an
 * entry whose /Next leads back to itself is read once; the search finds titles by any part in
 * either case, from a given entry on. */
static void check_outline(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
    return;
#endif
    char pdf[512];
    path_in(c, "outline.pdf", pdf, sizeof pdf);
    /* side p (page p + 1) is object 3 + 2p; the extra object 21 names itself as its /Next */
    CHECK(s,
          write_pdf_with(pdf, 9, 200, 280,
                         "/Outlines << /First << /Title (Introduction) /Dest [3 0 R /Fit] /Next "
                         "<< /Title (Part Two) /Dest [11 0 R /Fit] /First << /Title (Sec\\ntion "
                         "2.1) /A << /S /GoTo /D [13 0 R /Fit] >> >> /Next 21 0 R >> >> >> ",
                         "<< /Title (Loop) /Dest [5 0 R /Fit] /Next 21 0 R >>"),
          "cannot write %s", pdf);
    PagesBookSource *src = open_source(s, pdf);
    if (!src)
        return;
    static const struct {
        const char *title;
        int page, depth;
    } want[] = {{"Introduction", 0, 0}, {"Part Two", 4, 0}, {"Sec tion 2.1", 5, 1}, {"Loop", 1, 0}};
    int n = pages_book_source_outline_count(src);
    CHECK(s, n == 4, "outline: %d entries, want 4", n);
    for (int i = 0; i < n && i < 4; i++) {
        const PagesOutlineEntry *e = pages_book_source_outline(src, i);
        CHECK(s,
              !strcmp(e->title, want[i].title) && e->side == want[i].page &&
                  e->depth == want[i].depth,
              "outline %d: '%s' page %d depth %d, want '%s' %d %d", i, e->title, e->side, e->depth,
              want[i].title, want[i].page, want[i].depth);
    }
    CHECK(s, pages_book_source_outline(src, 4) == NULL, "outline: an entry past the last");
    static const struct {
        const char *text;
        int from, found;
    } finds[] = {{"part", 0, 1}, {"SECTION", 0, -1}, {"2.1", 0, 2}, {"o", 0, 0},    {"o", 1, 1},
                 {"o", 2, 2},    {"o", 3, 3},        {"o", 4, -1},  {"zzz", 0, -1}, {"", 0, -1}};
    for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++)
        CHECK(s,
              pages_book_source_outline_find(src, finds[i].text, finds[i].from) == finds[i].found,
              "outline: '%s' from %d finds %d, want %d", finds[i].text, finds[i].from,
              pages_book_source_outline_find(src, finds[i].text, finds[i].from), finds[i].found);
    /* the window's page field over it: a number, then a title's part, Tab to the next title */
    pagecurl_book *book = library_book(s, src);
    pages_book_source_close(src);
    if (!book)
        return;
    AppPageField f;
    char text[APP_PAGE_FIELD_TEXT];
    /* nothing typed: the contents, every entry that leads to a page, the reader's section chosen;
     * Down the second entry (Part Two, page 5) */
    app_page_field_open(&f, book, 1);
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s,
          f.count == 4 && f.match == 0 && f.page == 1 &&
              strstr(text, "\n> Introduction  1\n  Part Two  5\n    Sec tion 2.1  6\n  Loop  2") &&
              !strstr(text, "more"),
          "the contents at page 1: %d listed, match %d page %d:\n%s", f.count, f.match, f.page,
          text);
    app_page_field_move(&f, book, 1);
    CHECK(s, f.match == 1 && f.page == 5, "the contents, Down: match %d page %d", f.match, f.page);
    app_page_field_move(&f, book, 1);
    app_page_field_move(&f, book, -1);
    CHECK(s, f.match == 1 && f.page == 5, "Down, Up: match %d page %d", f.match, f.page);
    app_page_field_move(&f, book, -5);
    CHECK(s, f.match == 0 && f.page == 1, "Up past the first: match %d page %d", f.match, f.page);
    app_page_field_move(&f, book, 9);
    CHECK(s, f.match == 3 && f.page == 2, "Down past the last: match %d page %d", f.match, f.page);
    /* the section holding the reader's page: the entry leading furthest without passing it (the
     * last in order of those at that page); one moved away from is marked */
    static const struct {
        int page, here;
    } sections[] = {{1, 0}, {2, 3}, {4, 3}, {5, 1}, {6, 2}, {9, 2}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        app_page_field_open(&f, book, sections[i].page);
        CHECK(s, f.here == sections[i].here && f.match == sections[i].here,
              "page %d's section: %d (chosen %d), want %d", sections[i].page, f.here, f.match,
              sections[i].here);
    }
    app_page_field_move(&f, book, -1);
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s, strstr(text, "> Part Two  5\n*   Sec tion 2.1  6"), "the section marked:\n%s", text);
    /* typing filters the contents; a page's number goes before a title, Down chooses a title and
     * Up from the first comes back to the page */
    app_page_field_type(&f, book, "t");
    app_page_field_text(&f, book, text, sizeof text);
    /* where a word begins with it first ("Part Two", "Sec tion 2.1"), then within a word
     * ("Introduction"): a roman page number typed does not go to a title holding it mid-word */
    CHECK(s,
          f.count == 3 && f.listed[0] == 1 && f.listed[1] == 2 && f.listed[2] == 0 &&
              f.match == 1 && !strstr(text, "Loop"),
          "'t': %d listed (%d %d %d), match %d:\n%s", f.count, f.listed[0], f.listed[1],
          f.listed[2], f.match, text);
    app_page_field_erase(&f, book);
    app_page_field_type(&f, book, "2");
    CHECK(s, f.count == 1 && f.match < 0 && f.page == 2, "'2': %d listed, match %d page %d",
          f.count, f.match, f.page);
    app_page_field_move(&f, book, 1);
    CHECK(s, f.match == 2 && f.page == 6, "'2', Down: match %d page %d", f.match, f.page);
    app_page_field_move(&f, book, -1);
    CHECK(s, f.match < 0 && f.page == 2, "'2', Down, Up: match %d page %d", f.match, f.page);
    app_page_field_close(&f);
    app_page_field_open(&f, book, 1);
    app_page_field_type(&f, book, "7");
    CHECK(s, f.page == 7 && f.match < 0, "field '7': page %d match %d", f.page, f.match);
    app_page_field_erase(&f, book);
    app_page_field_type(&f, book, "o");
    CHECK(s, f.page == 1 && f.match == 0, "field 'o': page %d match %d", f.page, f.match);
    app_page_field_next(&f, book);
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s, f.page == 5 && f.match == 1 && strstr(text, "Part Two, page 5 / 9"),
          "field 'o', Tab: page %d match %d: %s", f.page, f.match, text);
    for (int k = 0; k < 3; k++)
        app_page_field_next(&f, book);
    CHECK(s, f.page == 1 && f.match == 0, "field 'o', Tab round: page %d match %d", f.page,
          f.match);
    app_page_field_type(&f, book, "zz\x01");
    CHECK(s, !strcmp(f.typed, "o"), "field: a control character typed: '%s'", f.typed);
    app_page_field_type(&f, book, "zz");
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s, f.page == 0 && strstr(text, "no page or title"), "field 'ozz': page %d: %s", f.page,
          text);
    for (int k = 0; k < 40; k++)
        app_page_field_type(&f, book, "\xd0\x96"); /* two bytes each: 63 hold 31 */
    CHECK(s, strlen(f.typed) == 3 + 60 && (f.typed[62] & 0xc0) == 0x80,
          "field: full of two-byte characters, %zu bytes", strlen(f.typed));
    app_page_field_erase(&f, book);
    CHECK(s, strlen(f.typed) == 61, "field: one two-byte character erased, %zu bytes left",
          strlen(f.typed));
    pagecurl_book_destroy(book);

    /* a longer outline: a few rows around the one chosen, how many more lie above and below, a
     * long title cut */
    char outline[4096] = "/Outlines << /First ";
    size_t at = strlen(outline);
    for (int i = 0; i < 12 && at < sizeof outline; i++) /* each entry's /Next the one after it */
        at += (size_t)snprintf(outline + at, sizeof outline - at,
                               "<< /Title (%s %d) /Dest [%d 0 R /Fit] /Next ",
                               i == 5 ? "A title far longer than a row of the contents shows, as "
                                        "a careless maker gave it"
                                      : "Entry",
                               i, 3 + 2 * i);
    for (int i = 0; i <= 12 && at < sizeof outline; i++)
        at += (size_t)snprintf(outline + at, sizeof outline - at, "%s>> ", i ? "" : "null ");
    CHECK(s, write_pdf_with(pdf, 12, 200, 280, outline, NULL), "cannot write %s", pdf);
    if (!(src = open_source(s, pdf)))
        return;
    book = library_book(s, src);
    pages_book_source_close(src);
    if (!book)
        return;
    app_page_field_open(&f, book, 12);
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s,
          f.count == 12 && f.match == 11 && strstr(text, "(4 more above)") &&
              !strstr(text, "below") && strstr(text, "> Entry 11  12") &&
              strstr(text, "A title far longer than a row of the contents shows, ...  6\n"),
          "12 entries at the last:\n%s", text);
    app_page_field_move(&f, book, -6);
    app_page_field_text(&f, book, text, sizeof text);
    CHECK(s,
          f.match == 5 && strstr(text, "(1 more above)") && strstr(text, "(3 more below)") &&
              strstr(text, "\n  Entry 0  1") == NULL && strstr(text, "\n  Entry 1  2"),
          "12 entries at the sixth:\n%s", text);
    pagecurl_book_destroy(book);
}

/* A 100,000-page PDF opened in the middle: the first frame in a few seconds of CPU, with memory
 * that does not grow with the book (its pages are not all drawn). */
static void check_long_pdf(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
    return;
#endif
    char pdf[512], shot[512];
    path_in(c, "long.pdf", pdf, sizeof pdf);
    path_in(c, "long.png", shot, sizeof shot);
    CHECK(s, write_pdf(pdf, 100000, 420, 595), "cannot write %s", pdf);
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Run r = RUN("--headless", "--book", pdf, "--page", "50001", "--curl", "0", "--size", "1280x720",
                "--screenshot", shot);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    getrusage(RUSAGE_CHILDREN, &after);
    double cpu = (double)(after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
                 (double)(after.ru_stime.tv_sec - before.ru_stime.tv_sec) +
                 1e-6 * (double)(after.ru_utime.tv_usec - before.ru_utime.tv_usec +
                                 after.ru_stime.tv_usec - before.ru_stime.tv_usec);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    long rss = after.ru_maxrss; /* KiB, the largest child so far: this one or an earlier one */
    printf("long pdf: 100000 pages, first frame at page 50001: %.2f s CPU, %.2f s wall, peak RSS "
           "(of the test's children so far) %ld MiB\n",
           cpu, wall, rss / 1024);
    CHECK(s, r.status == 0, "long pdf: exit %d: %s", r.status, r.err);
    /* the sanitizers slow every instruction and keep freed memory in quarantine beside shadow
     * memory, so their bounds are scaled */
#ifdef PAGECURL_SANITIZED
    double cpu_limit = 40.0;
    long rss_limit_mib = 2048;
#else
    double cpu_limit = 8.0;
    long rss_limit_mib = 600;
#endif
    CHECK(s, cpu < cpu_limit, "long pdf: %.2f s of CPU to the first frame (limit %.0f)", cpu,
          cpu_limit);
    CHECK(s, rss < rss_limit_mib * 1024, "long pdf: peak RSS %ld MiB (limit %ld)", rss / 1024,
          rss_limit_mib);
    Image img = image_load(shot);
    if (img.rgba) {
        int left = page_at(&img, 0.30f, 0.5f), right = page_at(&img, 0.70f, 0.5f);
        CHECK(s, left == colour_of(50000) && right == colour_of(50001),
              "long pdf: colours %d | %d, want %d | %d", left, right, colour_of(50000),
              colour_of(50001));
    }
    CHECK(s, img.rgba, "long pdf: no screenshot");
    image_free(&img);
}

static void check_refused(CheckState *s, Run r, int status, const char *names, const char *what);

static void two_pages(const Ctx *c, const char *name, char *dir, size_t dir_size, char *file,
                      size_t file_size);

/* Whether `text` is UTF-8 throughout, as iconv(3), not the program, reads it. */
static bool utf8_text(const char *text)
{
    iconv_t cd = iconv_open("UTF-8", "UTF-8");
    if (cd == (iconv_t)-1)
        return false;
    char out[256], *in = (char *)text;
    size_t left = strlen(text);
    bool ok = true;
    while (ok && left) {
        char *o = out;
        size_t room = sizeof out;
        ok = iconv(cd, &in, &left, &o, &room) != (size_t)-1 || errno == E2BIG;
    }
    iconv_close(cd);
    return ok;
}

/* A book whose folder's name is not UTF-8 (Latin-1's é): the notebook names it in JSON that any
 * reader takes (its "path" with U+FFFD, the exact bytes in "path_bytes"), and reads it back to
 * the same bytes (a notebook of a changed book is refused by the path it names; one whose bytes
 * are not hex is refused). */
static void check_notebook_latin1(CheckState *s, const Ctx *c, const char *trace)
{
    char dir[512], file[600], nb[512], real[4096];
    two_pages(c, "caf\xe9 book", dir, sizeof dir, file, sizeof file);
    write_png(file, 40, 56, COLOURS[1]);
    path_in(c, "latin1.json", nb, sizeof nb);
    remove(nb);
    Run r =
        RUN("--headless", "--book", dir, "--size", "320x180", "--replay", trace, "--notebook", nb);
    CHECK(s, r.status == 0, "ink on a Latin-1 named book: exit %d: %s", r.status, r.err);
    static char text[1 << 16];
    text[0] = '\0';
    run_slurp(nb, text, sizeof text);
    cJSON *root = cJSON_Parse(text);
    const cJSON *book = cJSON_GetObjectItemCaseSensitive(root, "book");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(book, "path_bytes");
    char hex[8200] = "";
    CHECK(s, realpath(dir, real) != NULL, "realpath %s", dir);
    for (size_t i = 0; real[i] && 2 * i + 3 < sizeof hex; i++)
        snprintf(hex + 2 * i, 3, "%02x", (unsigned char)real[i]);
    CHECK(s, utf8_text(text) && root && cJSON_IsString(bytes) && !strcmp(bytes->valuestring, hex),
          "the notebook of a Latin-1 named book is not UTF-8 JSON with its path's bytes (%s): %s",
          hex, text);
    cJSON_Delete(root);
    r = RUN("--headless", "--book", dir, "--curl", "0", "--notebook", nb);
    CHECK(s, r.status == 0, "the notebook on its Latin-1 named book: exit %d: %s", r.status, r.err);
#ifdef PAGECURL_HAVE_MUPDF
    snprintf(file, sizeof file, "%s/3.png", dir);
    CHECK(s, write_png(file, 40, 56, COLOURS[2]), "cannot write %s", file);
    check_refused(s, RUN("--headless", "--book", dir, "--curl", "0", "--notebook", nb), 2,
                  "has changed since", "a Latin-1 named book, changed");
    remove(file);
#endif
    char *at = strstr(text, hex);
    if (at) { /* no longer hex */
        at[0] = 'x';
        FILE *f = fopen(nb, "wb");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        check_refused(s, RUN("--headless", "--book", dir, "--curl", "0", "--notebook", nb), 2,
                      "path_bytes", "a notebook whose path_bytes is no hex");
    }
}

/* Ink drawn on a book's page by a replay: drawn on that page (the ink layers follow the pool),
 * saved in a notebook that names the book, which loads on it again and on no other book. */
static void check_notebook(CheckState *s, const Ctx *c)
{
    char dir[512], trace[512], nb[512], shot[512], real[4096];
    path_in(c, "folder", dir, sizeof dir);
    path_in(c, "ink.trace", trace, sizeof trace);
    path_in(c, "ink-notebook.json", nb, sizeof nb);
    path_in(c, "ink.png", shot, sizeof shot);
    remove(nb);
    FILE *f = fopen(trace, "w");
    CHECK(s, f != NULL, "cannot write %s", trace);
    if (!f)
        return;
    /* no "up": the stroke is still being drawn at the end, saved by the run's last save */
    fprintf(f, "0.00 ink down 0.42 0.50\n0.05 ink move 0.50 0.50\n0.10 ink move 0.58 0.50\n");
    fclose(f);
    Run r = RUN("--headless", "--validation", "--book", dir, "--size", "480x270", "--replay", trace,
                "--notebook", nb, "--screenshot", shot);
    CHECK(s, r.status == 0, "ink replay on a book: exit %d: %s", r.status, r.err);
    Image img = image_load(shot);
    if (img.rgba) /* page 1's colour beside the stroke; under it, ink: much darker */
        CHECK(s,
              page_at(&img, 0.50f, 0.62f) == colour_of(1) &&
                  2 * brightness(&img, 0.50f, 0.5f) < brightness(&img, 0.50f, 0.62f),
              "ink on page 1: brightness %d under the stroke, %d beside it (colour %d)",
              brightness(&img, 0.50f, 0.5f), brightness(&img, 0.50f, 0.62f),
              page_at(&img, 0.50f, 0.62f));
    CHECK(s, img.rgba, "no screenshot %s", shot);
    image_free(&img);
    char text[4096] = "", want[4200];
    run_slurp(nb, text, sizeof text);
    CHECK(s, realpath(dir, real) != NULL, "realpath %s", dir);
    snprintf(want, sizeof want, "\"book\": {\"path\": \"%s\", \"pages\": 11", real);
    CHECK(s, strstr(text, want) && strstr(text, "\"page\": 1,"),
          "the notebook does not name its book (%s) or lacks page 1: %s", want, text);
    r = RUN("--headless", "--book", dir, "--curl", "0", "--notebook", nb);
    CHECK(s, r.status == 0, "the notebook on its own book: exit %d: %s", r.status, r.err);
    check_refused(s, RUN("--headless", "--curl", "0", "--notebook", nb), 2, real,
                  "a book's notebook on the built-in book");
#ifdef PAGECURL_HAVE_MUPDF
    /* the book moved: known by its content, its ink shown there; then changed: refused, named */
    char moved[512], page[700];
    path_in(c, "folder-moved", moved, sizeof moved);
    CHECK(s, rename(dir, moved) == 0, "cannot move %s", dir);
    r = RUN("--headless", "--book", moved, "--curl", "0", "--size", "480x270", "--notebook", nb,
            "--screenshot", shot);
    CHECK(s, r.status == 0, "the notebook on its book, moved: exit %d: %s", r.status, r.err);
    img = image_load(shot);
    if (img.rgba)
        CHECK(s, brightness(&img, 0.50f, 0.5f) < 120, "the moved book's ink: brightness %d",
              brightness(&img, 0.50f, 0.5f));
    image_free(&img);
    CHECK(s, rename(moved, dir) == 0, "cannot move %s back", moved);
    snprintf(page, sizeof page, "%s/page5.png", dir);
    CHECK(s, write_png(page, 100, 140, COLOURS[0]), "cannot write %s", page);
    check_refused(s, RUN("--headless", "--book", dir, "--curl", "0", "--notebook", nb), 2,
                  "has changed since", "a changed book");
    CHECK(s, write_png(page, 100, 140, COLOURS[4]), "cannot write %s", page);
#endif
    check_notebook_latin1(s, c, trace);
}

/* The run refused with `status` and one line naming `names`. */
static void check_refused(CheckState *s, Run r, int status, const char *names, const char *what)
{
    size_t lines = 0;
    for (const char *p = r.err; *p; p++)
        lines += *p == '\n';
    CHECK(s, r.status == status && lines == 1 && strstr(r.err, names),
          "%s: exit %d (want %d), want one line naming %s: %s", what, r.status, status, names,
          r.err);
}

/* The run went on (exit 0) with a warning naming `names` and saying `said`: a page crossed out. */
static void check_crossed(CheckState *s, Run r, const char *names, const char *said,
                          const char *what)
{
    CHECK(s,
          r.status == 0 && strstr(r.err, "warning") && strstr(r.err, names) &&
              strstr(r.err, said) && strstr(r.err, "crossed out"),
          "%s: exit %d, want 0 and a page crossed out, naming %s: %s", what, r.status, names,
          r.err);
}

static bool write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(bytes, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* A folder `name` with a good page 1.png; `file` names its page 2.png, for the caller to write. */
static void two_pages(const Ctx *c, const char *name, char *dir, size_t dir_size, char *file,
                      size_t file_size)
{
    path_in(c, name, dir, dir_size);
    mkdir(dir, 0755);
    snprintf(file, file_size, "%s/1.png", dir);
    write_png(file, 40, 56, COLOURS[0]);
    snprintf(file, file_size, "%s/2.png", dir);
}

static void check_bad_input(CheckState *s, const Ctx *c)
{
    char path[512], dir[512], file[600];
    path_in(c, "no-such-book", path, sizeof path);
    check_refused(s, RUN("--headless", "--book", path), 2, path, "missing path");
    path_in(c, "empty", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/notes.txt", dir);
    write_bytes(file, "not a page\n", 11);
    check_refused(s, RUN("--headless", "--book", dir), 2, "no images", "folder without images");
#ifdef PAGECURL_HAVE_MUPDF
    /* a folder of one PDF: the PDF named, which opens as a book itself (not a sub-folder named
     * like one) */
    char sub[600];
    snprintf(sub, sizeof sub, "%s/A folder.pdf", dir);
    mkdir(sub, 0755);
    snprintf(file, sizeof file, "%s/Manual.PDF", dir);
    write_bytes(file, "%PDF-1.4\n", 9);
    check_refused(s, RUN("--headless", "--book", dir), 2, "the PDF in it opens as a book itself",
                  "folder of a PDF");
    check_refused(s, RUN("--headless", "--book", dir), 2, file, "folder of a PDF, named");
#endif
    path_in(c, "plain.txt", path, sizeof path);
    write_bytes(path, "text\n", 5);
    check_refused(s, RUN("--headless", "--book", path), 2, "plain.txt", "not a book");

    /* a file named .png that is none: among images, the book opens and it is shown crossed out
     * when drawn, with a warning naming it; a folder of it alone is refused */
    two_pages(c, "garbage", dir, sizeof dir, file, sizeof file);
    write_bytes(file, "this is no PNG at all", 21);
    check_crossed(s, RUN("--headless", "--book", dir, "--page", "2", "--curl", "0"), "2.png",
                  "not an image", "garbage image among good ones");
    snprintf(file, sizeof file, "%s/1.png", dir);
    remove(file);
    check_refused(s, RUN("--headless", "--book", dir), 1, "2.png", "a folder of garbage alone");

    /* 100000 x 100000 pixels in its header: never decoded, shown crossed out */
    two_pages(c, "huge", dir, sizeof dir, file, sizeof file);
    write_png(file, 1, 1, COLOURS[1]);
    FILE *f = fopen(file, "r+b");
    if (f) { /* IHDR's width and height (big-endian) at bytes 16..23; the CRC is not checked */
        const unsigned char side[8] = {0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0};
        fseek(f, 16, SEEK_SET);
        fwrite(side, 1, sizeof side, f);
        fclose(f);
    }
    check_crossed(s, RUN("--headless", "--book", dir, "--page", "2", "--curl", "0"),
                  "100000x100000", "larger than a page", "huge image");

    /* a PNG cut short: its header is fine, its pixels are not; in a longer book it is shown
     * crossed out with one warning naming it, and the run goes on */
    path_in(c, "cut", dir, sizeof dir);
    mkdir(dir, 0755);
    for (int n = 1; n <= 5; n++) {
        snprintf(file, sizeof file, "%s/p%d.png", dir, n);
        write_png(file, 64, 90, COLOURS[(n - 1) % 6]);
    }
    snprintf(file, sizeof file, "%s/p3.png", dir);
    CHECK(s, truncate(file, 60) == 0, "cannot cut %s", file);
    char shot[512];
    path_in(c, "cut.png", shot, sizeof shot);
    Run r = RUN("--headless", "--validation", "--book", dir, "--page", "3", "--curl", "0", "--size",
                "480x270", "--screenshot", shot);
    CHECK(s,
          r.status == 0 && strstr(r.err, "p3.png") && strstr(r.err, "page 3") &&
              strchr(r.err, '\n') == strrchr(r.err, '\n'),
          "cut image: exit %d, want 0 and one warning naming page 3 and p3.png: %s", r.status,
          r.err);
    Image img = image_load(shot);
    if (img.rgba) { /* page 2 on the left as it is; page 3 paper, not its colour */
        CHECK(s, page_at(&img, 0.30f, 0.5f) == colour_of(2) && page_at(&img, 0.70f, 0.6f) == 0,
              "cut image: colours %d | %d", page_at(&img, 0.30f, 0.5f), page_at(&img, 0.70f, 0.6f));
    }
    image_free(&img);

    /* a PNG cut right after its header (no pixel data at all), and one whose header asks for
     * more rows than its pixel data holds (a whole zlib stream, short): MuPDF fills the rest
     * white with only a warning of its own; each is crossed out with its warning instead */
#ifdef PAGECURL_HAVE_MUPDF
    const char *cut = "cut short";
#else /* stb_image's reasons are its own */
    const char *cut = "cannot be decoded";
#endif
    two_pages(c, "cut-header", dir, sizeof dir, file, sizeof file);
    write_png(file, 40, 56, COLOURS[1]);
    CHECK(s, truncate(file, 33) == 0, "cannot cut %s", file); /* the signature and IHDR */
    check_crossed(s, RUN("--headless", "--book", dir, "--page", "2", "--curl", "0"), "2.png", cut,
                  "a PNG cut after its header");
    two_pages(c, "short-pixels", dir, sizeof dir, file, sizeof file);
    write_png(file, 40, 20, COLOURS[1]);
    f = fopen(file, "r+b");
    if (f) { /* IHDR's height (big-endian) at bytes 20..23: 56 rows where 20 are */
        const unsigned char rows[4] = {0, 0, 0, 56};
        fseek(f, 20, SEEK_SET);
        fwrite(rows, 1, sizeof rows, f);
        fclose(f);
    }
    check_crossed(s, RUN("--headless", "--book", dir, "--page", "2", "--curl", "0"), "2.png", cut,
                  "a PNG short of pixel data");

    /* a file called .pdf that is none */
    path_in(c, "broken.pdf", path, sizeof path);
    write_bytes(path, "%PDF-1.4\nnothing here\n", 22);
    check_refused(s, RUN("--headless", "--book", path), 1, "broken.pdf", "broken pdf");

#ifdef PAGECURL_HAVE_MUPDF
    /* an empty one: said so, not MuPDF's "cannot tell in file" */
    path_in(c, "empty.pdf", path, sizeof path);
    write_bytes(path, "", 0);
    check_refused(s, RUN("--headless", "--book", path), 1, "an empty file", "empty pdf");
    /* a download cut short before its page tree: MuPDF repairs it and finds no page */
    char plain[512];
    path_in(c, "plain.pdf", plain, sizeof plain);
    path_in(c, "truncated.pdf", path, sizeof path);
    write_pdf(plain, 3, 200, 280);
    FILE *whole = fopen(plain, "rb");
    char head[512] = "";
    size_t got = whole ? fread(head, 1, sizeof head - 1, whole) : 0;
    if (whole)
        fclose(whole);
    head[got] = '\0';
    const char *tree = strstr(head, "2 0 obj");
    CHECK(s, tree != NULL, "no page tree in %s", plain);
    if (tree) {
        write_bytes(path, head, (size_t)(tree - head));
        check_refused(s, RUN("--headless", "--book", path), 1, "damaged or truncated",
                      "truncated pdf");
    }
    /* ... and one cut after its first page opens, with a note that pages may be missing; the
     * whole file gives none */
    const char *second = strstr(head, "5 0 obj");
    CHECK(s, second != NULL, "no second page in %s", plain);
    if (second) {
        write_bytes(path, head, (size_t)(second - head));
        char cut_shot[512];
        path_in(c, "truncated.png", cut_shot, sizeof cut_shot);
        Run t = RUN("--headless", "--book", path, "--curl", "0", "--size", "160x100",
                    "--screenshot", cut_shot);
        CHECK(s,
              t.status == 0 && strchr(t.err, '\n') == strrchr(t.err, '\n') &&
                  strstr(t.err, "damaged") && strstr(t.err, "missing"),
              "pdf cut after a page: exit %d, want 0 and one note: %s", t.status, t.err);
        t = RUN("--headless", "--book", plain, "--curl", "0", "--size", "160x100", "--screenshot",
                cut_shot);
        CHECK(s, t.status == 0 && !strstr(t.err, "damaged"), "whole pdf: exit %d: %s", t.status,
              t.err);
    }
    /* a page tree 10,000 nodes deep, which MuPDF does not follow: said so, not "a PDF with no
     * pages" */
    path_in(c, "deep.pdf", path, sizeof path);
    CHECK(s, write_nested_pdf(path, 10000), "cannot write %s", path);
    check_refused(s, RUN("--headless", "--book", path), 1, "its page tree is nested too deeply",
                  "a page tree 10,000 deep");
    /* a password-protected PDF, encrypted by MuPDF from a plain one */
    path_in(c, "locked.pdf", path, sizeof path);
    write_pdf(plain, 3, 200, 280);
    fz_context *fz = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
    bool made = false;
    fz_try(fz)
    {
        pdf_document *doc = pdf_open_document(fz, plain);
        pdf_write_options o = pdf_default_write_options;
        o.do_encrypt = PDF_ENCRYPT_AES_128;
        o.permissions = -1;
        strcpy(o.upwd_utf8, "secret");
        strcpy(o.opwd_utf8, "owner");
        pdf_save_document(fz, doc, path, &o);
        pdf_drop_document(fz, doc);
        made = true;
    }
    fz_catch(fz)
    {
        fprintf(stderr, "cannot encrypt: %s\n", fz_caught_message(fz));
    }
    fz_drop_context(fz);
    CHECK(s, made, "no encrypted PDF to test with");
    check_refused(s, RUN("--headless", "--book", path), 1, "encrypted", "encrypted pdf");
#endif

    /* --page where it does not apply */
    path_in(c, "folder", dir, sizeof dir);
    check_refused(s, RUN("--headless", "--book", dir, "--page", "12"), 2, "--page 12",
                  "--page past the end");
    check_refused(s, RUN("--headless", "--page", "17"), 2, "--page 17",
                  "--page past the built-in book");
    check_refused(s, RUN("--headless", "--page", "0"), 2, "--page", "--page 0");
    check_refused(s, RUN("--headless", "--book", dir, "--page", "1", "--backward"), 2, "--page 1",
                  "--page 1 turned back");
    check_refused(s, RUN("--bench", "--book", dir), 2, "--book", "--book in the benchmark");

    /* a notebook of the built-in book, on this one */
    char nb[512];
    path_in(c, "builtin-notebook.json", nb, sizeof nb);
    const char *text = "{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": []}\n";
    write_bytes(nb, text, strlen(text));
    check_refused(s, RUN("--headless", "--book", dir, "--notebook", nb), 2, "the built-in book",
                  "a built-in notebook on a book");
}

/* A run that must end by itself within `seconds`: a hang is killed (status 137) and fails. */
static Run run_within(const Ctx *c, double seconds, const char *const *args)
{
    return run_wait(run_spawn(c->exe, c->dir, NULL, args), c->dir, seconds);
}

/* A w x h binary PPM of 16 bits a channel (maxval 65535), one colour. */
static bool write_ppm16(const char *path, int w, int h, const unsigned char rgb[3])
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fprintf(f, "P6\n%d %d\n65535\n", w, h);
    for (long i = 0; i < (long)w * h; i++)
        for (int ch = 0; ch < 3; ch++) {
            fputc(rgb[ch], f);
            fputc(rgb[ch], f);
        }
    return fclose(f) == 0;
}

/* A w x h BMP of one colour, uncompressed, with a `header`-byte header: 12 (OS/2 1.x), 40, or
 * 108 with 4 bits a pixel, a one-colour palette and ImageMagick's 8-bit masks in the header
 * (which an uncompressed BMP does not use); else 24 bits a pixel. Its rows from byte `offset`
 * (0: just past the header and palette). */
static bool write_bmp(const char *path, int w, int h, const unsigned char rgb[3], uint32_t header,
                      uint32_t offset)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    uint32_t bits = header == 108 ? 4 : 24, palette = bits == 4 ? 4 : 0;
    uint32_t row = ((uint32_t)w * bits / 8 + 3) / 4 * 4;
    uint32_t at = offset ? offset : 14 + header + palette;
    unsigned char b[14 + 108] = {'B', 'M'};
    const uint32_t words[] = {14 + header + palette + row * (uint32_t)h, 0, at, header};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            b[2 + 4 * k + i] = (unsigned char)(words[k] >> (8 * i));
    if (header == 12) { /* 16-bit width and height, planes, bits */
        const uint16_t core[] = {(uint16_t)w, (uint16_t)h, 1, 24};
        for (int k = 0; k < 4; k++)
            b[18 + 2 * k] = (unsigned char)core[k], b[19 + 2 * k] = (unsigned char)(core[k] >> 8);
    } else {
        /* width, height, planes, bits; compression 0 (none); the palette's colours; the masks;
         * the rest 0 */
        const uint32_t info[] = {(uint32_t)w, (uint32_t)h, 1u | bits << 16, 0, 0,
                                 0,           0,           palette / 4,     0, 0x00ff0000,
                                 0x0000ff00,  0x000000ff,  0xff000000};
        for (int k = 0; k < (header == 108 ? 13 : 4); k++)
            for (int i = 0; i < 4; i++)
                b[18 + 4 * k + i] = (unsigned char)(info[k] >> (8 * i));
    }
    fwrite(b, 1, 14 + header, f);
    if (palette)
        fwrite((const unsigned char[]){rgb[2], rgb[1], rgb[0], 0}, 1, 4, f);
    for (int y = 0; y < h; y++) {
        uint32_t x = 0;
        for (; bits == 24 && x < (uint32_t)w * 3; x += 3) {
            fputc(rgb[2], f);
            fputc(rgb[1], f);
            fputc(rgb[0], f);
        }
        for (; x < row; x++) /* a 4-bit row's indices (0) and every row's padding */
            fputc(0, f);
    }
    return fclose(f) == 0;
}

/* A PDF whose page 1 crashes MuPDF 1.21 as it draws: a Type 4 function computes INT_MIN / -1
 * (an integer division trap, SIGFPE, in ps_run); page 2 is black. */
static bool write_crashing_pdf(const char *path)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    const char fill[] = "/CS1 cs 0.5 scn 10 10 50 50 re f";
    const char function[] = "{ pop -2147483647 1 sub -1 idiv pop 0 0 0 }";
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count 2 /Kids [3 0 R 6 0 R] >>");
    pdf_file_object(&pdf, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 4 0 R "
                          "/Resources << /ColorSpace << /CS1 [/Separation /Spot /DeviceRGB 5 0 "
                          "R] >> >> >>");
    pdf_file_stream(&pdf, "", fill, sizeof fill - 1);
    pdf_file_stream(&pdf, "/FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1] ", function,
                    sizeof function - 1);
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 7 0 R >>");
    pdf_file_stream(&pdf, "", "0 g 0 0 200 280 re f", 20);
    return pdf_file_close(&pdf);
}

/* A PDF whose page tree claims `count` pages over the one it has. */
static bool write_lying_pdf(const char *path, int count)
{
    const char blue[] = "0 0 1 rg 0 0 200 280 re f";
    return pdf_file_one_page(path, count, "", blue, sizeof blue - 1);
}

#ifdef PAGECURL_HAVE_MUPDF /* zlib, for its CRC: linked with MuPDF */
/* A PNG of w x h whose one IDAT chunk is empty: zlib stops with no message of its own. */
static bool write_empty_png(const char *path, uint32_t w, uint32_t h)
{
    unsigned char png[64] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t n = 8;
    const struct {
        const char *type;
        unsigned char data[13];
        uint32_t size;
    } chunks[] = {
        {"IHDR",
         {w >> 24, w >> 16 & 255, w >> 8 & 255, w & 255, h >> 24, h >> 16 & 255, h >> 8 & 255,
          h & 255, 8, 2, 0, 0, 0},
         13},
        {"IDAT", {0}, 0},
        {"IEND", {0}, 0},
    };
    for (size_t i = 0; i < 3; i++) {
        uint32_t size = chunks[i].size;
        unsigned char *c = &png[n];
        c[0] = 0, c[1] = 0, c[2] = 0, c[3] = (unsigned char)size;
        memcpy(c + 4, chunks[i].type, 4);
        memcpy(c + 8, chunks[i].data, size);
        uLong crc = crc32(0L, c + 4, 4 + size);
        for (int b = 0; b < 4; b++)
            c[8 + size + b] = (unsigned char)(crc >> (24 - 8 * b));
        n += 12 + size;
    }
    return write_bytes(path, png, n);
}
#endif

/* A folder whose page 2 (`bad`) fails past its header: the closed book's page 1 drawn in
 * COLOURS[2] and one warning naming `bad` and saying `said`. */
static void crossed_second(CheckState *s, const Ctx *c, const char *dir, const char *shot,
                           const char *bad, const char *said, const char *what)
{
    remove(shot);
    Run r = run_within(c, 60,
                       (const char *const[]){"--headless", "--book", dir, "--curl", "0", "--size",
                                             "480x270", "--screenshot", shot, NULL});
    check_refused(s, r, 0, bad, what);
    CHECK(s, strstr(r.err, said), "%s: '%s' not said: %s", what, said, r.err);
    Image img = image_load(shot);
    if (img.rgba) /* page 1, alone on the right (the book closed), in its own colour */
        CHECK(s, page_at(&img, 0.50f, 0.5f) == 3, "%s: page 1 shows colour %d, want 3", what,
              page_at(&img, 0.50f, 0.5f));
    CHECK(s, img.rgba, "%s: no screenshot", what);
    image_free(&img);
}

/* Inputs that are no regular files, decoders' traps and lying PDFs: each run ends by itself
 * (within 60 s: a hang fails instead of holding ctest) with its status and one line. */
static void check_hostile(CheckState *s, const Ctx *c)
{
    char dir[512], file[600], path[512], shot[512];
    path_in(c, "hostile.png", shot, sizeof shot);

    /* a 16-bit binary PPM page (stb_image's 16-bit paths overflow its heap): drawn, its red */
    path_in(c, "deep", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/p1.ppm", dir);
    CHECK(s, write_ppm16(file, 64, 90, COLOURS[0]), "cannot write %s", file);
    snprintf(file, sizeof file, "%s/p2.ppm", dir);
    CHECK(s, write_ppm16(file, 64, 90, COLOURS[1]), "cannot write %s", file);
    const char *deep[] = {"--headless", "--book",       dir,  "--curl", "0", "--size",
                          "480x270",    "--screenshot", shot, NULL};
    remove(shot);
    Run r = run_within(c, 60, deep);
    Image img = {0};
#ifndef PAGECURL_HAVE_MUPDF /* stb_image reads no 16-bit image (docs/cli.md): refused at open */
    check_refused(s, r, 1, "16 bits a channel", "16-bit PPM pages without MuPDF");
#else
    CHECK(s, r.status == 0 && !strstr(r.err, "warning"), "16-bit PPM pages: exit %d: %s", r.status,
          r.err);
    img = image_load(shot);
    if (img.rgba) /* page 1, alone on the right (the book closed), in its own red */
        CHECK(s, page_at(&img, 0.50f, 0.5f) == 1, "16-bit PPM pages: page 1 shows colour %d",
              page_at(&img, 0.50f, 0.5f));
    CHECK(s, img.rgba, "16-bit PPM pages: no screenshot");
    image_free(&img);
#endif

#ifdef PAGECURL_HAVE_MUPDF
    /* BMP pages: a plain one drawn in its colour, and one with ImageMagick's 8-bit masks in an
     * uncompressed 4-bit palette BMP's 108-byte header (MuPDF 1.21 refuses masks wider than the
     * pixel: they are written as meant first); one whose rows lie past its end (MuPDF 1.21 reads
     * its palette, or rows, past the file: tests/fuzz_page.c crashed it so) shown crossed out with
     * one warning; an OS/2 1.x header refused at open */
    path_in(c, "bmp", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/p1.bmp", dir);
    CHECK(s, write_bmp(file, 64, 90, COLOURS[2], 40, 0), "cannot write %s", file);
    snprintf(file, sizeof file, "%s/p2.bmp", dir);
    CHECK(s, write_bmp(file, 64, 90, COLOURS[3], 40, 0x29008a), "cannot write %s", file);
    snprintf(file, sizeof file, "%s/p3.bmp", dir);
    CHECK(s, write_bmp(file, 64, 90, COLOURS[4], 108, 0), "cannot write %s", file);
    crossed_second(s, c, dir, shot, "p2.bmp", "past its end",
                   "BMP pages, the second's rows past its end");
    const char *bmp3[] = {"--headless", "--book", dir,       "--page",       "3",  "--curl",
                          "0",          "--size", "480x270", "--screenshot", shot, NULL};
    remove(shot);
    r = run_within(c, 60, bmp3);
    CHECK(s, r.status == 0, "BMP pages at page 3: exit %d: %s", r.status, r.err);
    img = image_load(shot);
    if (img.rgba) /* 2 | 3: page 3 on the right, the palette BMP with masks, in its colour */
        CHECK(s, page_at(&img, 0.70f, 0.5f) == 5,
              "a palette BMP with masks shows colour %d, want 5", page_at(&img, 0.70f, 0.5f));
    CHECK(s, img.rgba, "BMP pages at page 3: no screenshot");
    image_free(&img);
    snprintf(file, sizeof file, "%s/p2.bmp", dir);
    CHECK(s, write_bmp(file, 64, 90, COLOURS[3], 12, 0), "cannot write %s", file);
    check_crossed(s,
                  run_within(c, 60,
                             (const char *const[]){"--headless", "--book", dir, "--page", "2",
                                                   "--curl", "0", NULL}),
                  "p2.bmp", "12-byte header", "an OS/2 BMP");

    /* GIF pages: one drawn in its colour, and one whose codes expand to over 512 MB (MuPDF 1.21
     * keeps all of it, a gigabyte, then fails) shown crossed out with one warning, early */
    path_in(c, "gif", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/p1.gif", dir);
    CHECK(s, gif_file_write(file, 64, 90, COLOURS[2], (const GifFrame[]){{.w = 64, .h = 90}}, 1),
          "cannot write %s", file);
    snprintf(file, sizeof file, "%s/p2.gif", dir);
    CHECK(s,
          gif_file_write(file, 64, 90, COLOURS[3],
                         (const GifFrame[]){{.w = 64, .h = 90, .bomb_codes = 400000}}, 1),
          "cannot write %s", file);
    crossed_second(s, c, dir, shot, "p2.gif", "more than 512 MB",
                   "GIF pages, the second an LZW bomb");

    /* a PNG page whose image data is empty: its warning says so (MuPDF's was "zlib error:
     * (null)") */
    path_in(c, "empty-idat", dir, sizeof dir);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/p1.png", dir);
    CHECK(s, write_png(file, 64, 90, COLOURS[2]), "cannot write %s", file);
    snprintf(file, sizeof file, "%s/p2.png", dir);
    CHECK(s, write_empty_png(file, 64, 90), "cannot write %s", file);
    crossed_second(s, c, dir, shot, "p2.png", "its compressed data is damaged or cut short",
                   "a PNG with empty image data");

    /* a PDF page on which MuPDF crashes: drawn in a process of its own, it takes only itself
     * with it (shown crossed out, one warning; exit 0, where the program died of SIGFPE) */
    path_in(c, "crash.pdf", path, sizeof path);
    CHECK(s, write_crashing_pdf(path), "cannot write %s", path);
    remove(shot);
    r = run_within(c, 60,
                   (const char *const[]){"--headless", "--book", path, "--curl", "0", "--size",
                                         "480x270", "--screenshot", shot, NULL});
    check_refused(s, r, 0, "page 1: cannot be drawn", "a page MuPDF crashes on");
    img = image_load(shot);
    CHECK(s, img.rgba, "a page MuPDF crashes on: no screenshot");
    image_free(&img);
#endif

    /* FIFOs: as the book (with a PDF's name and without), and as a page in a folder */
    path_in(c, "fifo.pdf", path, sizeof path);
    remove(path);
    CHECK(s, mkfifo(path, 0644) == 0, "mkfifo %s: %s", path, strerror(errno));
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", path, NULL}),
                  1, "a FIFO", "a FIFO as --book");
    path_in(c, "fifo", path, sizeof path);
    remove(path);
    CHECK(s, mkfifo(path, 0644) == 0, "mkfifo %s: %s", path, strerror(errno));
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", path, NULL}),
                  1, "a FIFO", "a FIFO without a PDF's name as --book");
    two_pages(c, "fifo-page", dir, sizeof dir, file, sizeof file);
    remove(file);
    CHECK(s, mkfifo(file, 0644) == 0, "mkfifo %s: %s", file, strerror(errno));
    Run fifo_page = run_within(c, 60, (const char *const[]){"--headless", "--book", dir, NULL});
    check_refused(s, fifo_page, 1, "2.png", "a FIFO among the pages");
    CHECK(s, strstr(fifo_page.err, "a FIFO"), "a FIFO among the pages: not said: %s",
          fifo_page.err);

    /* a dangling link and a looping one among the pages: each a page crossed out with its
     * warning, the book open; a folder of such links alone is refused */
    two_pages(c, "links", dir, sizeof dir, file, sizeof file);
    remove(file);
    CHECK(s, symlink("no-such-page.png", file) == 0, "symlink %s: %s", file, strerror(errno));
    snprintf(file, sizeof file, "%s/3.png", dir);
    remove(file);
    CHECK(s, symlink("3.png", file) == 0, "symlink %s: %s", file, strerror(errno));
    r = run_within(
        c, 60,
        (const char *const[]){"--headless", "--book", dir, "--page", "2", "--curl", "0", NULL});
    check_crossed(s, r, "2.png", "a symbolic link to a file that is not there", "a dangling link");
    check_crossed(s, r, "3.png", "a symbolic link that loops", "a looping link");
    snprintf(file, sizeof file, "%s/1.png", dir);
    remove(file);
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", dir, NULL}), 1,
                  "symbolic link", "a folder of broken links alone");

    /* a PDF that is /dev/zero: a device, never read */
    path_in(c, "zero.pdf", path, sizeof path);
    remove(path);
    CHECK(s, symlink("/dev/zero", path) == 0, "symlink %s: %s", path, strerror(errno));
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", path, NULL}),
                  1, "a character device", "/dev/zero as --book");

    /* a folder with a page's name among the pages: skipped */
    two_pages(c, "subfolder", dir, sizeof dir, file, sizeof file);
    write_png(file, 40, 56, COLOURS[1]);
    snprintf(file, sizeof file, "%s/3.png", dir);
    write_png(file, 40, 56, COLOURS[2]);
    snprintf(file, sizeof file, "%s/0.png", dir);
    mkdir(file, 0755);
    const char *sub[] = {"--headless", "--book", dir, "--curl",       "0",  "--size",
                         "480x270",    "--page", "3", "--screenshot", shot, NULL};
    remove(shot);
    r = run_within(c, 60, sub);
    CHECK(s, r.status == 0 && !strstr(r.err, "warning"),
          "a folder named 0.png among the pages: exit %d: %s", r.status, r.err);
    img = image_load(shot);
    if (img.rgba) /* pages 2 | 3: the folder is no page */
        CHECK(s, page_at(&img, 0.30f, 0.5f) == 2 && page_at(&img, 0.70f, 0.5f) == 3,
              "a folder named 0.png among the pages: colours %d | %d, want 2 | 3",
              page_at(&img, 0.30f, 0.5f), page_at(&img, 0.70f, 0.5f));
    image_free(&img);
    check_refused(s, RUN("--headless", "--book", dir, "--page", "4"), 2, "--page 4",
                  "a folder named 0.png counted as a page");

#ifdef PAGECURL_HAVE_MUPDF
    /* a page tree that claims 100000 pages over one: a book of one page */
    path_in(c, "lying.pdf", path, sizeof path);
    CHECK(s, write_lying_pdf(path, 100000), "cannot write %s", path);
    const char *lying[] = {"--headless", "--book",  path,           "--curl", "0",
                           "--size",     "480x270", "--screenshot", shot,     NULL};
    remove(shot);
    r = run_within(c, 60, lying);
    CHECK(s, r.status == 0, "a PDF claiming 100000 pages over one: exit %d: %s", r.status, r.err);
    img = image_load(shot);
    if (img.rgba)
        CHECK(s, page_at(&img, 0.50f, 0.5f) == 3, "a PDF claiming 100000 pages: colour %d, want 3",
              page_at(&img, 0.50f, 0.5f));
    image_free(&img);
    check_refused(s, RUN("--headless", "--book", path, "--page", "2"), 2, "--page 2",
                  "a PDF claiming 100000 pages: its real count");
    /* and one that truly is longer than a book may be */
    path_in(c, "too-long.pdf", path, sizeof path);
    CHECK(s, write_deep_pdf(path, 1001), "cannot write %s", path);
    check_refused(s, RUN("--headless", "--book", path), 2, "1003002 pages", "a PDF too long");
#endif
}

#ifdef PAGECURL_HAVE_MUPDF
/* A one-page PDF whose page takes minutes to draw: 200,000 fills of the whole page, a few KiB
 * deflated. */
static bool write_slow_pdf(CheckState *s, const char *path)
{
    bool written = false;
    const char op[] = "0 0 200 280 re f\n";
    size_t n = 200000 * (sizeof op - 1);
    unsigned char *content = malloc(n);
    uLongf packed = compressBound((uLong)n);
    unsigned char *deflated = malloc(packed);
    CHECK(s, content && deflated, "out of memory");
    if (!content || !deflated) {
        free(content);
        free(deflated);
        return false;
    }
    for (size_t k = 0; k < n; k += sizeof op - 1)
        memcpy(content + k, op, sizeof op - 1);
    CHECK(s, compress2(deflated, &packed, content, (uLong)n, 9) == Z_OK, "deflate failed");
    written = pdf_file_one_page(path, 1, "/Filter /FlateDecode ", deflated, packed);
    CHECK(s, written, "cannot write %s", path);
    free(content);
    free(deflated);

    return written;
}

typedef struct SlowDraw {
    PagesBookSource *src;
    uint8_t *rgba;
    bool ok;
    char message[512];
    volatile int done; /* polled by the test's thread: set last */
} SlowDraw;

static void *slow_draw(void *user)
{
    SlowDraw *d = user;
    d->ok = pages_book_source_draw(d->src, 0, 1024, 1434, d->rgba, d->message, sizeof d->message);
    __atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
    return NULL;
}
#endif

/* A page that takes minutes to draw (200,000 fills of the whole page, a few KiB deflated) is
 * abandoned within a second of pages_book_source_abort, as the stream's end calls it: the run's
 * end does not wait for the page. */
static void check_abort(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
#else
    char path[512];
    path_in(c, "slow.pdf", path, sizeof path);
    if (!write_slow_pdf(s, path))
        return;
    char message[512];
    SlowDraw d = {.rgba = malloc((size_t)1024 * 1434 * 4)};
    int status = pages_book_source_open(path, &d.src, message, sizeof message);
    CHECK(s, status == 0 && d.rgba, "slow.pdf: %s", message);
    if (status || !d.rgba) {
        free(d.rgba);
        return;
    }
    pthread_t thread;
    CHECK(s, pthread_create(&thread, NULL, slow_draw, &d) == 0, "no thread");
    struct timespec tick = {0, 10 * 1000 * 1000}, t0, t1;
    for (int k = 0; k < 30; k++) /* 0.3 s into the page */
        nanosleep(&tick, NULL);
    bool early = __atomic_load_n(&d.done, __ATOMIC_ACQUIRE);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pages_book_source_abort(d.src);
    double waited = 0.0;
    while (!__atomic_load_n(&d.done, __ATOMIC_ACQUIRE) && waited < 60.0) {
        nanosleep(&tick, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        waited = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    }
    printf("abort: a page of 200000 fills abandoned %.3f s after the abort\n", waited);
    CHECK(s, !early, "slow.pdf: its page was drawn in 0.3 s: the check cannot tell");
    /* how soon is printed above (a few milliseconds); the ceiling only tells an abort that
     * waited for the page (minutes) from one slowed by a busy machine */
    CHECK(s, waited < 60.0, "slow.pdf: the page still drawn %.1f s after the abort", waited);
    if (!__atomic_load_n(&d.done, __ATOMIC_ACQUIRE))
        return; /* the thread draws on: leave it to the process's end */
    pthread_join(thread, NULL);
    CHECK(s, !d.ok && d.message[0], "slow.pdf: an abandoned page reported drawn");
    pages_book_source_close(d.src);
    free(d.rgba);
#endif
}

/* SIGTERM to a headless run that waits on a page taking minutes to draw (4 s in, past its
 * start-up): the run ends within seconds, the page abandoned. */
static void check_stop(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
#else
    char path[512], shot[512];
    path_in(c, "slow.pdf", path, sizeof path);
    path_in(c, "slow.png", shot, sizeof shot);
    if (!write_slow_pdf(s, path))
        return;
    const char *args[] = {"--headless", "--book", path, "--screenshot", shot, NULL};
    pid_t pid = run_spawn(c->exe, c->dir, NULL, args);
    struct timespec pause = {4, 0}, t0, t1;
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    kill(pid, SIGTERM);
    Run r = run_wait(pid, c->dir, 120);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("stop: a headless run waiting on a slow page ended %.2f s after SIGTERM (exit %d)\n",
           took, r.status);
    /* how soon is printed above; the ceiling only catches a run that waits for the page */
    CHECK(s, r.status == 128 + SIGTERM,
          "SIGTERM while a page is drawn: exit %d after %.1f s (137: still running at 120 s): %s",
          r.status, took, r.err);
#endif
}

/* The pool: leaves keep their slots while wanted, the least recently used one goes first. */
static void check_pool(CheckState *s, const Ctx *c)
{
    (void)c;
    BookPool pool;
    CHECK(s, book_pool_init(&pool, 3), "out of memory");
    bool fresh;
    for (int leaf = 0; leaf < 3; leaf++) {
        book_pool_tick(&pool);
        int slot = book_pool_take(&pool, leaf, &fresh);
        CHECK(s, slot >= 0 && fresh, "leaf %d: slot %d fresh %d", leaf, slot, fresh);
    }
    book_pool_tick(&pool);
    int held = book_pool_take(&pool, 1, &fresh); /* leaf 1 used again: 0 is now the oldest */
    CHECK(s, held == book_pool_slot(&pool, 1) && !fresh, "leaf 1 moved or was redrawn");
    int zero = book_pool_slot(&pool, 0);
    book_pool_tick(&pool);
    int slot = book_pool_take(&pool, 7, &fresh);
    CHECK(s, slot == zero && fresh && book_pool_slot(&pool, 0) == -1,
          "leaf 7 took slot %d, want leaf 0's %d", slot, zero);
    /* within one round a taken slot is never given away again */
    book_pool_tick(&pool);
    for (int leaf = 10; leaf < 13; leaf++)
        CHECK(s, book_pool_take(&pool, leaf, &fresh) >= 0, "leaf %d: no slot", leaf);
    CHECK(s, book_pool_take(&pool, 13, &fresh) == -1, "a fourth leaf in a round of three slots");
    book_pool_free(&pool);

    int out[8];
    /* at rest on spread 5 of a 10-leaf book going forward: 4 | 5, then 6, 7, then 3, 2 */
    uint32_t n = book_pool_wanted((const int[3]){4, 5, -1}, 1, 2, 10, out, 8);
    CHECK(s,
          n == 6 && out[0] == 4 && out[1] == 5 && out[2] == 6 && out[3] == 7 && out[4] == 3 &&
              out[5] == 2,
          "forward: %u leaves %d %d %d %d %d %d", n, out[0], out[1], out[2], out[3], out[4],
          out[5]);
    /* backward, at the start of the book: nothing before leaf 0 */
    n = book_pool_wanted((const int[3]){-1, 1, 0}, -1, 2, 10, out, 8);
    CHECK(s, n == 4 && out[0] == 1 && out[1] == 0 && out[2] == 2 && out[3] == 3,
          "backward at the start: %u leaves %d %d %d %d", n, out[0], out[1], out[2], out[3]);
    n = book_pool_wanted((const int[3]){8, 9, -1}, 1, 2, 10, out, 3);
    CHECK(s, n == 3 && out[2] == 7, "at the end, 3 at most: %u, %d", n, out[2]);
    /* at rest, the leaves of the next turn (either way, as the last turn went) are held already */
    for (int leaves = 1; leaves <= 12; leaves++)
        for (int spread = 0; spread <= leaves; spread++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int left = spread - 1, right = spread < leaves ? spread : -1;
                bool can = dir > 0 ? spread < leaves : spread > 0;
                if (!can)
                    continue;
                int turn[8], rest[8];
                const int shown[3] = {dir > 0 ? left : spread - 2,
                                      dir > 0 ? (spread + 1 < leaves ? spread + 1 : -1) : right,
                                      dir > 0 ? spread : spread - 1};
                uint32_t nt = book_pool_wanted(shown, dir, 2, leaves, turn, 8);
                uint32_t nr = book_pool_wanted_at_rest(left, right, dir, 2, leaves, rest, 8);
                for (uint32_t a = 0; a < nt; a++) {
                    bool kept = false;
                    for (uint32_t b = 0; b < nr; b++)
                        kept |= rest[b] == turn[a];
                    CHECK(s, kept,
                          "%d leaves, at rest on spread %d: leaf %d of the turn (%+d) "
                          "is not held",
                          leaves, spread, turn[a], dir);
                }
                CHECK(s, nr <= 7,
                      "%d leaves, spread %d: %u leaves at rest, at most 7 of 8 slots "
                      "(one free for the turn after)",
                      leaves, spread, nr);
            }

    CHECK(s, pages_book_name_compare("page2.png", "page10.png") < 0, "page2 after page10");
    CHECK(s, pages_book_name_compare("page010.png", "page9.png") > 0, "page010 before page9");
    CHECK(s, pages_book_name_compare("A1", "a1") == 0 && pages_book_name_compare("a", "ab") < 0,
          "case or prefix order");
}

/* A LINKED payload (the page helper's answer to LINKS) of `count` links, the first `bad` one made
 * hostile as `how` says (0: none). */
static PagesWireOut linked_payload(uint32_t count, int how)
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, 1);
    pages_wire_str(&o, "", 0);
    float place[4] = {0.1f, 0.0f, how == 4 ? 1.5f : 0.8f, 1.0f}; /* 4: off the leaf */
    for (int i = 0; i < 4; i++)
        pages_wire_f32(&o, place[i]);
    pages_wire_u32(&o, count);
    for (uint32_t k = 0; k < count && k < PAGES_LINKS_MAX + 1; k++) {
        pages_wire_f32(&o, 0.8f); /* corners out of order */
        pages_wire_f32(&o, 0.7f);
        pages_wire_f32(&o, k == 0 && how == 1 ? NAN : 0.2f);
        pages_wire_f32(&o, 0.3f);
        pages_wire_i32(&o, k == 0 && how == 2 ? 99 : (int32_t)k - 1);
        static char uri[PAGES_LINK_URI_MAX + 2];
        size_t n = k == 0 && how == 3 ? PAGES_LINK_URI_MAX + 1 : 5;
        memset(uri, 'a', n);
        memcpy(uri, "x\ty:", 4);
        pages_wire_str(&o, uri, n);
    }
    return o;
}

/* The library's reading of LINKED (pages/page_wire.h), on any bytes: a good answer read whole
 * (corners put in order, a target in the book kept, the address printable), and each hostile
 * one refused or made harmless, never read past its end. */
static void check_wire_links(CheckState *s, const Ctx *c)
{
    (void)c;
    PagesLinked *got = malloc(sizeof *got);
    if (!got)
        return;
    PagesWireOut o = linked_payload(3, 0);
    bool ok = pages_wire_get_linked(o.data, o.size, 6, got);
    CHECK(s,
          ok && got->ok == 1 && got->count == 3 && got->place[0] == 0.1f &&
              got->links[0].x0 == 0.2f && got->links[0].x1 == 0.8f && got->links[0].y0 == 0.3f &&
              got->links[0].target == -1 && !strcmp(got->links[0].uri, "x y:a") &&
              got->links[2].target == 1 && !got->links[2].uri[0],
          "a good LINKED: %d, %d links, first (%.2f %.2f)-(%.2f %.2f) to %d '%s'", ok, got->count,
          got->links[0].x0, got->links[0].y0, got->links[0].x1, got->links[0].y1,
          got->links[0].target, got->links[0].uri);
    int read = 0;
    for (size_t n = 0; n < o.size; n++) /* cut short anywhere */
        read += pages_wire_get_linked(o.data, n, 6, got);
    CHECK(s, read == 0, "%d LINKED cut short read as whole", read);
    pages_wire_out_free(&o);
    o = linked_payload(PAGES_LINKS_MAX + 1, 0);
    CHECK(s, !pages_wire_get_linked(o.data, o.size, 6, got), "more than %d links read",
          PAGES_LINKS_MAX);
    pages_wire_out_free(&o);
    o = linked_payload(1, 1);
    CHECK(s, !pages_wire_get_linked(o.data, o.size, 6, got), "a NaN rectangle read");
    pages_wire_out_free(&o);
    o = linked_payload(1, 3);
    CHECK(s, !pages_wire_get_linked(o.data, o.size, 6, got), "an address too long read");
    pages_wire_out_free(&o);
    o = linked_payload(1, 2);
    CHECK(s, pages_wire_get_linked(o.data, o.size, 6, got) && got->links[0].target == -1,
          "a target past the book: %d", got->links[0].target);
    pages_wire_out_free(&o);
    o = linked_payload(1, 4);
    CHECK(s,
          pages_wire_get_linked(o.data, o.size, 6, got) && got->place[0] == 0.0f &&
              got->place[2] == 1.0f,
          "a place off the leaf: %.2f %.2f", got->place[0], got->place[2]);
    pages_wire_out_free(&o);
    free(got);
}

/* A host's page text searched as the helper searches MuPDF's (pages/text_find.h): letters folded
 * in Latin and Greek, white space runs (a line's end too) one space, the query trimmed, a word a
 * hyphen breaks across a line's end found whole (a rectangle on each line), matches counted up
 * to the rectangles' room. */
static void check_text_find(CheckState *s, const Ctx *c)
{
    (void)c;
    static const char32_t text[] =
        U"The \u00c9COLE and\n\u03a3\u03bf\u03c6\u03af\u03b1 zeph-\nyr end";
    PagesTextChar chars[64];
    int n = 0, line = 0, col = 0;
    for (; text[n]; n++) {
        float x = 0.05f * col, y = 0.1f * line;
        chars[n] = (PagesTextChar){(uint32_t)text[n], {x, y, x + 0.05f, y + 0.08f}};
        if (text[n] == '\n')
            line++, col = 0;
        else
            col++;
    }
    static const struct {
        const char *query;
        int rects, max;
    } finds[] = {{"\xc3\xa9"
                  "cole",
                  1, 8},
                 {"\xcf\x83\xce\xbf\xcf\x86\xce\xaf\xce\xb1", 1, 8},
                 {"ZEPHYR", 2, 8},
                 {"and \xce\xa3", 2, 8},
                 {"  THE   \xc3\x89"
                  "cole ",
                  1, 8},
                 {"e", 4, 8},
                 {"e", 1, 1},
                 {"", 0, 8},
                 {"zeph-", 0, 8}};
    for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++) {
        PagesFindRect rects[8];
        bool first[8];
        int got = pages_text_find(chars, n, finds[i].query, rects, first, finds[i].max);
        CHECK(s, got == finds[i].rects, "'%s' found in %d rectangles, want %d", finds[i].query, got,
              finds[i].rects);
    }
    PagesFindRect r[2];
    bool first[2];
    CHECK(s,
          pages_text_find(chars, n, "zephyr", r, first, 2) == 2 && first[0] && !first[1] &&
              fabsf(r[0].x0 - 0.30f) < 1e-4f && fabsf(r[0].x1 - 0.50f) < 1e-4f &&
              fabsf(r[0].y0 - 0.1f) < 1e-4f && r[1].x0 == 0.0f && fabsf(r[1].x1 - 0.10f) < 1e-4f &&
              fabsf(r[1].y0 - 0.2f) < 1e-4f,
          "zephyr broken: (%.2f %.2f)-(%.2f %.2f) and (%.2f %.2f)-(%.2f %.2f)", r[0].x0, r[0].y0,
          r[0].x1, r[0].y1, r[1].x0, r[1].y0, r[1].x1, r[1].y1);
}

/* A notebook names its book, reads back on it and is refused on another. */
static void check_notebook_unit(CheckState *s, const Ctx *c)
{
    char path[512], message[512];
    path_in(c, "bound.json", path, sizeof path);
    MeshInk ink, back;
    CHECK(s, mesh_ink_init(&ink, 20) && mesh_ink_init(&back, 20), "out of memory");
    mesh_ink_stroke_begin(&ink, 13, (MeshInkPoint){0.25f, 0.5f, 0.01f});
    mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.75f, 0.5f, 0.01f});
    mesh_ink_stroke_end(&ink);
    AppNotebookBook mine = {"/books/a \"quoted\"\\name", 20, NULL};
    CHECK(s, app_notebook_save_for(path, mine, &ink, message, sizeof message), "save: %s", message);
    CHECK(s,
          app_notebook_load_for(path, mine, &back, message, sizeof message) &&
              mesh_ink_stroke_count(&back) == 1 && back.sides[13].count == 1,
          "load on its own book: %s", message);
    mesh_ink_free(&back);
    const AppNotebookBook others[] = {
        {"/books/other", 20, NULL}, {mine.path, 21, NULL}, APP_NOTEBOOK_BUILTIN};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        CHECK(s, mesh_ink_init(&back, 21), "out of memory");
        bool loaded = app_notebook_load_for(path, others[k], &back, message, sizeof message);
        CHECK(s,
              !loaded && strstr(message, "the ink of the book /books/a") &&
                  mesh_ink_stroke_count(&back) == 0,
              "loaded onto another book (%zu): %s", k, message);
        mesh_ink_free(&back);
    }
    /* with an id: known wherever the book lies; a book of another id is another book, or the
     * same one changed (its path the notebook's) */
    AppNotebookBook with_id = {"/books/a", 20, "pages-20-0123456789abcdef"};
    CHECK(s, app_notebook_save_for(path, with_id, &ink, message, sizeof message), "save: %s",
          message);
    const struct {
        AppNotebookBook book;
        const char *refusal; /* NULL: loads */
    } ids[] = {
        {{"/elsewhere/copy", 20, "pages-20-0123456789abcdef"}, NULL},
        {{"/books/a", 20, NULL}, NULL}, /* a book without an id: by path */
        {{"/books/a", 20, "pages-20-fedcba9876543210"}, "has changed since"},
        {{"/books/b", 20, "pages-20-fedcba9876543210"}, "the ink of the book /books/a"},
        {{"/books/b", 20, NULL}, "the ink of the book /books/a"},
    };
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        CHECK(s, mesh_ink_init(&back, 20), "out of memory");
        bool loaded = app_notebook_load_for(path, ids[k].book, &back, message, sizeof message);
        CHECK(s,
              ids[k].refusal ? !loaded && strstr(message, ids[k].refusal)
                             : loaded && mesh_ink_stroke_count(&back) == 1,
              "ids (%zu): %s", k, loaded ? "loaded" : message);
        mesh_ink_free(&back);
    }
    /* the reader's place: a page of the book, or refused */
    static const struct {
        const char *at;
        bool ok;
    } places[] = {{"5", true},    {"20", true},     {"0", false},   {"21", false},
                  {"2.5", false}, {"\"5\"", false}, {"null", false}};
    for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
        char text[256];
        snprintf(text, sizeof text,
                 "{\"format\": \"pagecurl-notebook\", \"version\": 1, \"at\": %s, \"pages\": []}",
                 places[k].at);
        CHECK(s, mesh_ink_init(&back, 20), "out of memory");
        bool loaded = app_notebook_parse(text, strlen(text), "nb", &back, message, sizeof message);
        CHECK(s, loaded == places[k].ok && (loaded || strstr(message, "\"at\"")),
              "\"at\": %s %s: %s", places[k].at, loaded ? "loaded" : "refused",
              loaded ? "" : message);
        mesh_ink_free(&back);
    }
    /* the built-in book's notebooks, which name no book, load on it and nowhere else */
    CHECK(s, app_notebook_save(path, &ink, message, sizeof message), "save: %s", message);
    CHECK(s, mesh_ink_init(&back, 20), "out of memory");
    CHECK(s, app_notebook_load(path, &back, message, sizeof message), "built-in: %s", message);
    mesh_ink_free(&back);
    CHECK(s, mesh_ink_init(&back, 20), "out of memory");
    CHECK(s,
          !app_notebook_load_for(path, mine, &back, message, sizeof message) &&
              strstr(message, "the ink of the built-in book"),
          "a built-in notebook loaded onto a book: %s", message);
    mesh_ink_free(&back);
    mesh_ink_free(&ink);
}

/* An EPUB of two chapters (its table of contents in toc.ncx, a link from the first to the
 * second), `words` words in the first (each its own where `numbered`: "w1 w2 ..."); its second
 * chapter nested `depth` <div>s deep (0: none) and, where `bomb`, a third part that unpacks to
 * `bomb` zero bytes. */
static bool write_epub(const char *path, int words, bool numbered, int depth, size_t bomb)
{
    ZipFile zip;
    if (!zip_file_open(&zip, path))
        return false;
    zip_file_text(&zip, "mimetype", "application/epub+zip");
    zip_file_text(&zip, "META-INF/container.xml",
                  "<?xml version=\"1.0\"?><container version=\"1.0\" "
                  "xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles>"
                  "<rootfile full-path=\"OEBPS/content.opf\" "
                  "media-type=\"application/oebps-package+xml\"/></rootfiles></container>");
    zip_file_text(&zip, "OEBPS/content.opf",
                  "<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" "
                  "version=\"2.0\" unique-identifier=\"id\"><metadata "
                  "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>Test</dc:title>"
                  "<dc:identifier id=\"id\">pagecurl-test</dc:identifier></metadata><manifest>"
                  "<item id=\"c1\" href=\"ch1.xhtml\" media-type=\"application/xhtml+xml\"/>"
                  "<item id=\"c2\" href=\"ch2.xhtml\" media-type=\"application/xhtml+xml\"/>"
                  "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>"
                  "</manifest><spine toc=\"ncx\"><itemref idref=\"c1\"/><itemref idref=\"c2\"/>"
                  "</spine></package>");
    zip_file_text(&zip, "OEBPS/toc.ncx",
                  "<?xml version=\"1.0\"?><ncx xmlns=\"http://www.daisy.org/z3986/2005/ncx/\" "
                  "version=\"2005-1\"><navMap><navPoint id=\"n1\"><navLabel><text>Chapter "
                  "One</text></navLabel><content src=\"ch1.xhtml\"/></navPoint><navPoint "
                  "id=\"n2\"><navLabel><text>Chapter Two</text></navLabel><content "
                  "src=\"ch2.xhtml\"/></navPoint></navMap></ncx>");
    size_t n = (size_t)words * 8 + 1024;
    char *text = malloc(n);
    if (!text)
        return false;
    int k = snprintf(text, n,
                     "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>"
                     "<h1>Chapter One</h1><p>See <a href=\"ch2.xhtml\">the lighthouse</a>.</p><p>");
    for (int w = 0; w < words && (size_t)k + 16 < n; w++)
        k += numbered ? snprintf(text + k, n - (size_t)k, "w%d ", w)
                      : snprintf(text + k, n - (size_t)k, "%s ", w % 7 ? "word" : "paper");
    snprintf(text + k, n - (size_t)k, "</p></body></html>");
    zip_file_text(&zip, "OEBPS/ch1.xhtml", text);
    free(text);
    size_t m = (size_t)depth * 12 + 1024;
    char *two = malloc(m);
    if (!two)
        return false;
    k = snprintf(two, m,
                 "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>"
                 "<h1>Chapter Two</h1><p>The lighthouse keeper turned the page.</p>");
    for (int d = 0; d < depth; d++)
        k += snprintf(two + k, m - (size_t)k, "<div>");
    for (int d = 0; d < depth; d++)
        k += snprintf(two + k, m - (size_t)k, "</div>");
    snprintf(two + k, m - (size_t)k, "</body></html>");
    zip_file_text(&zip, "OEBPS/ch2.xhtml", two);
    free(two);
    if (bomb)
        zip_file_zeros(&zip, "OEBPS/never.xhtml", bomb);
    return zip_file_close(&zip);
}

/* The share of a page's pixels that are ink (dark), drawn w x h by the helper; -1 where it
 * could not be drawn. */
static double ink_of(PagesBookSource *src, int page, uint32_t w, uint32_t h)
{
    uint8_t *px = malloc((size_t)w * h * 4);
    char message[512];
    long dark = 0;
    bool ok = px && pages_book_source_draw(src, page, w, h, px, message, sizeof message);
    for (size_t i = 0; ok && i < (size_t)w * h; i++)
        dark += px[4 * i] < 128 && px[4 * i + 1] < 128 && px[4 * i + 2] < 128;
    free(px);
    return ok ? (double)dark / ((double)w * h) : -1.0;
}

/* A comic book of pages page1..page11.png (COLOURS as the folder's), stored out of order (zip
 * order is no reading order), with `comic_info` as its ComicInfo.xml (NULL: none) and `extra`,
 * a page that is no image, where given. */
static bool write_cbz(const Ctx *c, const char *path, const char *comic_info, bool extra)
{
    ZipFile zip;
    if (!zip_file_open(&zip, path))
        return false;
    static const int order[11] = {10, 2, 1, 11, 3, 9, 4, 8, 5, 7, 6};
    for (int i = 0; i < 11; i++) {
        char png[512], name[32];
        path_in(c, "cbz-page.png", png, sizeof png);
        snprintf(name, sizeof name, "page%d.png", order[i]);
        if (!write_png(png, 100, 140, COLOURS[(order[i] - 1) % 6]))
            return false;
        zip_file_copy(&zip, name, png);
    }
    if (comic_info)
        zip_file_text(&zip, "ComicInfo.xml", comic_info);
    if (extra)
        zip_file_text(&zip, "page12.png", "this is no picture");
    zip_file_text(&zip, "notes.txt", "not a page: no image's name");
    return zip_file_close(&zip);
}

/* An XPS document of three pages of 200 x 280 (its units), filled with COLOURS[0], [1], [2]. */
static bool write_xps(const char *path)
{
    ZipFile zip;
    if (!zip_file_open(&zip, path))
        return false;
    zip_file_text(&zip, "[Content_Types].xml",
                  "<?xml version=\"1.0\"?><Types "
                  "xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                  "<Default Extension=\"rels\" "
                  "ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                  "<Default Extension=\"fdseq\" "
                  "ContentType=\"application/vnd.ms-package.xps-fixeddocumentsequence+xml\"/>"
                  "<Default Extension=\"fdoc\" "
                  "ContentType=\"application/vnd.ms-package.xps-fixeddocument+xml\"/>"
                  "<Default Extension=\"fpage\" "
                  "ContentType=\"application/vnd.ms-package.xps-fixedpage+xml\"/></Types>");
    zip_file_text(&zip, "_rels/.rels",
                  "<?xml version=\"1.0\"?><Relationships "
                  "xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                  "<Relationship Type=\"http://schemas.microsoft.com/xps/2005/06/"
                  "fixedrepresentation\" Target=\"/FixedDocSeq.fdseq\" Id=\"R0\"/>"
                  "</Relationships>");
    zip_file_text(&zip, "FixedDocSeq.fdseq",
                  "<FixedDocumentSequence xmlns=\"http://schemas.microsoft.com/xps/2005/06\">"
                  "<DocumentReference Source=\"/Documents/1/FixedDoc.fdoc\"/>"
                  "</FixedDocumentSequence>");
    zip_file_text(&zip, "Documents/1/FixedDoc.fdoc",
                  "<FixedDocument xmlns=\"http://schemas.microsoft.com/xps/2005/06\">"
                  "<PageContent Source=\"Pages/1.fpage\"/><PageContent Source=\"Pages/2.fpage\"/>"
                  "<PageContent Source=\"Pages/3.fpage\"/></FixedDocument>");
    static const char *const fills[3] = {"#FF0000", "#00FF00", "#0000FF"};
    for (int p = 0; p < 3; p++) {
        char page[512], name[64];
        snprintf(page, sizeof page,
                 "<FixedPage xmlns=\"http://schemas.microsoft.com/xps/2005/06\" Width=\"200\" "
                 "Height=\"280\" xml:lang=\"en\"><Path Data=\"M 0,0 L 200,0 200,280 0,280 Z\" "
                 "Fill=\"%s\"/></FixedPage>",
                 fills[p]);
        snprintf(name, sizeof name, "Documents/1/Pages/%d.fpage", p + 1);
        zip_file_text(&zip, name, page);
    }
    return zip_file_close(&zip);
}

/* Every book MuPDF opens (issue 56), by content: an EPUB laid out to the page and a text size
 * (its chapters in its outline, its text searched, drawn with ink), more pages at a larger size
 * and --font-size refused for a PDF; an FB2 book; an XPS document's pages; a comic book's images
 * in natural name order, right to left where its ComicInfo.xml says so (--ltr overriding), a
 * page that is no image crossed out; hostile ones refused in one line (a zip bomb's chapter,
 * elements nested 1,000 deep, a zip of no book). */
static void check_formats(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
#else
    char epub[512], named[512], fb2[512], xps[512], cbz[512], manga[512], bad[512], shot[512];
    path_in(c, "novel.epub", epub, sizeof epub);
    path_in(c, "novel-by-content", named, sizeof named);
    CHECK(s, write_epub(epub, 600, false, 0, 0) && write_epub(named, 600, false, 0, 0),
          "cannot write %s", epub);
    PagesBookSource *src = open_source(s, epub);
    int pages = src ? pages_book_source_pages(src) : 0;
    if (src) {
        CHECK(s, pages_book_source_reflowable(src) && pages >= 2,
              "epub: %d pages, reflowable %d: want 2 or more, laid out", pages,
              pages_book_source_reflowable(src));
        CHECK(s, fabsf(pages_book_source_aspect(src) - PAGES_BOOK_PAGE_ASPECT) < 0.01f,
              "epub: pages of shape %.3f, want the default %.3f", pages_book_source_aspect(src),
              PAGES_BOOK_PAGE_ASPECT);
        const PagesOutlineEntry *one = pages_book_source_outline(src, 0);
        const PagesOutlineEntry *two = pages_book_source_outline(src, 1);
        CHECK(s,
              pages_book_source_outline_count(src) == 2 && one && two &&
                  !strcmp(one->title, "Chapter One") && !strcmp(two->title, "Chapter Two") &&
                  one->side == 0 && two->side > 0 && two->side < pages,
              "epub: outline of %d entries: '%s' p%d, '%s' p%d",
              pages_book_source_outline_count(src), one ? one->title : "", one ? one->side : -1,
              two ? two->title : "", two ? two->side : -1);
        double ink = ink_of(src, 0, 300, 450);
        CHECK(s, ink > 0.003 && ink < 0.5, "epub: page 1 has %.4f of its pixels ink (want text)",
              ink);
        PagesFindRect rects[8];
        bool first[8];
        float place[4];
        char message[512];
        int found = two ? pages_book_source_find(src, two->side, "LIGHTHOUSE keeper", rects, first,
                                                 8, place, message, sizeof message)
                        : -1;
        CHECK(s, found >= 1, "epub: 'lighthouse keeper' found %d times on chapter two's page: %s",
              found, found < 0 ? message : "");
        pages_book_source_close(src);
    }
    PagesTextLayout large = {.font_size = 22.0f};
    src = NULL;
    char message[512];
    CHECK(s, pages_book_source_open_with(epub, &large, &src, message, sizeof message) == 0,
          "epub at 22 pt: %s", message);
    if (src)
        CHECK(s, pages_book_source_pages(src) > pages, "epub at 22 pt: %d pages, at 11 pt %d",
              pages_book_source_pages(src), pages);
    pages_book_source_close(src);
    path_in(c, "epub.png", shot, sizeof shot);
    Run r = RUN("--headless", "--validation", "--book", named, "--curl", "0", "--size", "960x720",
                "--font-size", "14", "--screenshot", shot);
    CHECK(s, r.status == 0, "epub by content, --font-size 14: exit %d: %s", r.status, r.err);
    Image img = image_load(shot);
    long dark = 0;
    for (long i = 0; img.rgba && i < (long)img.w * img.h; i++)
        dark += img.rgba[4 * i] < 128 && img.rgba[4 * i + 1] < 128 && img.rgba[4 * i + 2] < 128;
    CHECK(s, img.rgba && dark > 500, "epub screenshot: %ld dark pixels (want its text)", dark);
    image_free(&img);
    char pdf[512];
    path_in(c, "fixed.pdf", pdf, sizeof pdf);
    CHECK(s, write_pdf(pdf, 2, 200, 280), "cannot write %s", pdf);
    check_refused(s, RUN("--headless", "--book", pdf, "--font-size", "14"), 2,
                  "no text size to choose", "--font-size, pdf");
    check_refused(s, RUN("--headless", "--book", epub, "--font-size", "100"), 2, "--font-size",
                  "--font-size 100");
    check_refused(s, RUN("--headless", "--font-size", "12"), 2, "it needs --book",
                  "--font-size, the built-in book");

    path_in(c, "tale.fb2", fb2, sizeof fb2);
    FILE *f = fopen(fb2, "w");
    if (f) {
        fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<FictionBook "
                   "xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\"><body><title><p>Tales"
                   "</p></title><section><title><p>A Tale</p></title>");
        for (int i = 0; i < 40; i++)
            fprintf(f, "<p>Paper turns slowly under the reader's thumb, page %d.</p>", i);
        fprintf(f, "</section></body></FictionBook>\n");
        fclose(f);
    }
    src = open_source(s, fb2);
    if (src) {
        /* MuPDF's FB2 style breaks the page before each section: the body's title alone on
         * page 1, the section's text from page 2 */
        double title = ink_of(src, 0, 300, 450), text = ink_of(src, 1, 300, 450);
        CHECK(s, pages_book_source_reflowable(src) && title > 0.0 && text > 0.003 && text < 0.5,
              "fb2: reflowable %d, ink on page 1 %.4f (its title), page 2 %.4f (its text)",
              pages_book_source_reflowable(src), title, text);
    }
    pages_book_source_close(src);

    path_in(c, "two.xps", xps, sizeof xps);
    CHECK(s, write_xps(xps), "cannot write %s", xps);
    src = open_source(s, xps);
    if (src)
        CHECK(s, pages_book_source_pages(src) == 3 && !pages_book_source_reflowable(src),
              "xps: %d pages (want 3), reflowable %d", pages_book_source_pages(src),
              pages_book_source_reflowable(src));
    pages_book_source_close(src);
    check_spread(s, c, xps, 3, "0", colour_of(2), colour_of(3), "xps");

    /* a comic: natural order whatever the zip's, as the colour folder's */
    path_in(c, "comic.cbz", cbz, sizeof cbz);
    CHECK(s, write_cbz(c, cbz, NULL, false), "cannot write %s", cbz);
    check_spread(s, c, cbz, 3, "0", colour_of(2), colour_of(3), "cbz");
    path_in(c, "manga.cbz", manga, sizeof manga);
    CHECK(s,
          write_cbz(c, manga,
                    "<?xml version=\"1.0\"?><ComicInfo><Title>M</Title>"
                    "<Manga>YesAndRightToLeft</Manga></ComicInfo>",
                    true),
          "cannot write %s", manga);
    const char *none[] = {NULL}, *ltr[] = {"--ltr", NULL};
    check_spread_with(s, c, manga, 3, "0", none, colour_of(3), colour_of(2), "manga cbz");
    check_spread_with(s, c, manga, 3, "0", ltr, colour_of(2), colour_of(3), "manga cbz, --ltr");
    src = open_source(s, manga);
    if (src) {
        CHECK(s, pages_book_source_pages(src) == 12 && pages_book_source_right_to_left(src),
              "manga cbz: %d pages (want 12: the text no page), right to left %d",
              pages_book_source_pages(src), pages_book_source_right_to_left(src));
        CHECK(s, ink_of(src, 11, 50, 70) < 0.0, "manga cbz: its page 12, no image, drawn");
    }
    pages_book_source_close(src);

    /* hostile: a chapter that unpacks to 80 MiB (a zip bomb), refused before it is parsed */
    path_in(c, "bomb.epub", bad, sizeof bad);
    CHECK(s, write_epub(bad, 10, false, 0, 80u << 20), "cannot write %s", bad);
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", bad, NULL}), 1,
                  "unpacks to more than 64 MiB", "zip bomb epub");
    /* elements nested 1,000 deep (MuPDF's layout takes seconds at 3,000 and crashes at 8,000),
     * in an EPUB's chapter and in an FB2 book: refused before MuPDF reads them */
    path_in(c, "deep.epub", bad, sizeof bad);
    CHECK(s, write_epub(bad, 10, false, 1000, 0), "cannot write %s", bad);
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", bad, NULL}), 1,
                  "OEBPS/ch2.xhtml nests its elements more than 256 deep", "deep epub");
    path_in(c, "deep.fb2", bad, sizeof bad);
    f = fopen(bad, "w");
    if (f) {
        fprintf(f, "<?xml version=\"1.0\"?><FictionBook><body>");
        for (int i = 0; i < 1000; i++)
            fprintf(f, "<section><p>deeper</p>");
        fprintf(f, "</body></FictionBook>");
        fclose(f);
    }
    check_refused(s, run_within(c, 60, (const char *const[]){"--headless", "--book", bad, NULL}), 1,
                  "nest more than 256 deep", "deep fb2");
    path_in(c, "empty.zip", bad, sizeof bad);
    ZipFile zip;
    CHECK(s, zip_file_open(&zip, bad), "cannot write %s", bad);
    zip_file_text(&zip, "readme.txt", "no pages here");
    CHECK(s, zip_file_close(&zip), "cannot write %s", bad);
    check_refused(s, RUN("--headless", "--book", bad), 2, "holds no images", "zip of no book");
#endif
}

/* The first numbered word ("w123", write_epub's) of page `page`'s text; -1 for none. */
static int first_word(pagecurl_book *book, int page)
{
    static char text[1 << 16];
    if (pagecurl_book_page_text(book, page, text, sizeof text) <= 0)
        return -1;
    for (const char *at = text; (at = strchr(at, 'w')); at++)
        if ((at == text || at[-1] == ' ' || at[-1] == '\n') && isdigit((unsigned char)at[1]))
            return atoi(at + 1);
    return -1;
}

/* A trace's "key font 22" (Ctrl + =) replayed headless re-lays the book as the library does:
 * from page 5 its last frame is the one a book opened at 22 pt shows at `shown` (the page that
 * holds page 5's words), and not what page 5 at 11 pt shows. */
static void relayout_replay(CheckState *s, const Ctx *c, const char *epub, int shown)
{
    char trace[512], shot[512];
    path_in(c, "relayout.trace", trace, sizeof trace);
    path_in(c, "relayout.png", shot, sizeof shot);
    static const char *const sizes[3] = {NULL, "22", NULL};
    Image img[3] = {{0}};
    for (int k = 0; k < 3; k++) {
        FILE *f = fopen(trace, "w");
        CHECK(s, f != NULL, "cannot write %s", trace);
        if (!f)
            return;
        if (k == 0)
            fprintf(f, "0.0 key goto 5\n0.1 key font 22\n");
        else /* nothing to undo: the same length of replay */
            fprintf(f, "0.0 key goto %d\n0.1 key undo\n", k == 1 ? shown : 5);
        fclose(f);
        Run r = sizes[k] ? RUN("--headless", "--validation", "--book", epub, "--size", "480x360",
                               "--font-size", sizes[k], "--replay", trace, "--screenshot", shot)
                         : RUN("--headless", "--validation", "--book", epub, "--size", "480x360",
                               "--replay", trace, "--screenshot", shot);
        CHECK(s, r.status == 0, "relayout replay %d: exit %d: %s", k, r.status, r.err);
        img[k] = image_load(shot);
    }
    long apart[2] = {-1, -1};
    for (int k = 1; k < 3; k++)
        if (img[0].rgba && img[k].rgba && img[0].w == img[k].w && img[0].h == img[k].h) {
            apart[k - 1] = 0;
            for (size_t i = 0; i < (size_t)img[0].w * img[0].h * 4; i++)
                apart[k - 1] += abs(img[0].rgba[i] - img[k].rgba[i]) > 24;
        }
    CHECK(s, apart[0] >= 0 && apart[0] < 200 && apart[1] > 2000,
          "relayout replay: key font 22 from page 5 is %ld values from page %d at 22 pt (want "
          "the same), %ld from page 5 at 11 pt (want other text)",
          apart[0], shown, apart[1]);
    for (int k = 0; k < 3; k++)
        image_free(&img[k]);
}

/* An open whose layout runs past the processor time the helper may spend on it is stopped, and
 * the book refused in one line that says so (not "crashed"), the host unharmed. A layout that
 * takes the bound's own 60 s would hold the test a minute: the helper is started by a wrapper
 * under a bound of 2 s that has spent a second of it already (a loop of the shell's own, before
 * it becomes the helper: the time is the process's), so that the open, held a second short of
 * the bound it was started under, has none left. Without the helper's own bound the kernel's
 * SIGKILL at the hard bound ends it, unnamed ("the decoder's process ended"); without the
 * library's line it "crashed". */
static void relayout_bounded(CheckState *s, const Ctx *c, const char *epub)
{
    char wrapper[512], helper[4096];
    path_in(c, "helper-1s.sh", wrapper, sizeof wrapper);
    char *exe = realpath(c->exe, NULL), *slash = exe ? strrchr(exe, '/') : NULL;
    if (slash) /* the build tree's app/pagecurl: its libexec/pagecurl/pagecurl-pages */
        *slash = '\0', slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(helper, sizeof helper, "%s/libexec/pagecurl/pagecurl-pages", exe ? exe : "");
    free(exe);
    FILE *f = fopen(wrapper, "w");
    if (f) {
        fprintf(f,
                "#!/bin/sh\nulimit -t 2\nburn() { while read -r stat </proc/$$/stat; set -- "
                "$stat; [ $((${14} + ${15})) -lt %ld ]; do :; done; }\nburn\nexec '%s' \"$@\"\n",
                sysconf(_SC_CLK_TCK), helper);
        fclose(f);
    }
    CHECK(s,
          f && chmod(wrapper, 0755) == 0 && access(helper, X_OK) == 0 &&
              write_epub(epub, 1500000, false, 0, 0),
          "cannot write %s or %s (the helper %s)", epub, wrapper, helper);
    setenv(PAGES_HELPER_ENV, wrapper, 1);
    PagesBookSource *src = NULL;
    char message[512] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = pages_book_source_open(epub, &src, message, sizeof message);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsetenv(PAGES_HELPER_ENV);
    CHECK(s, status == 1 && strstr(message, "of the processor") && !strchr(message, '\n'),
          "a layout past its processor time: status %d (%d pages), '%s' (want 1, the bound said) "
          "after %.1f s",
          status, src ? pages_book_source_pages(src) : 0, message,
          (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    pages_book_source_close(src);
}

/* A reflowable book laid out again (Ctrl + = and -, pagecurl_book_relayout, issue 56): an EPUB of
 * numbered words re-laid at a larger size has more pages, opens at the page that holds the words
 * the page read began with (not the same number), and its outline is the new layout's; a smaller
 * size back; a PDF refuses it in one line and stays as it was. */
static void check_relayout(CheckState *s, const Ctx *c)
{
#ifndef PAGECURL_HAVE_MUPDF
    (void)s, (void)c;
#else
    char epub[512], pdf[512];
    path_in(c, "relayout.epub", epub, sizeof epub);
    path_in(c, "relayout.pdf", pdf, sizeof pdf);
    CHECK(s, write_epub(epub, 3000, true, 0, 0) && write_pdf(pdf, 4, 200, 280), "cannot write %s",
          epub);
    /* a context of its own, under the validation layer: the leaf made again draws clean */
    pagecurl_error err = {0};
    pagecurl_context *ctx = pagecurl_context_create(
        &(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc), .validation = true}, &err);
    CHECK(s, ctx, "relayout: no context: %s", err.message);
    pagecurl_book *book =
        ctx ? pagecurl_book_create(ctx,
                                   &(pagecurl_book_desc){
                                       .size = sizeof(pagecurl_book_desc), .path = epub, .page = 5},
                                   &err)
            : NULL;
    CHECK(s, book, "relayout: no book of %s: %s", epub, err.message);
    if (!book) {
        pagecurl_context_destroy(ctx);
        return;
    }
    int pages = pagecurl_book_page_count(book);
    pagecurl_state st = {.size = sizeof st};
    pagecurl_book_state(book, &st);
    int page = st.page, word = first_word(book, page);
    int chapter = pagecurl_book_outline_entry(book, 1, NULL, 0, NULL);
    CHECK(s, pages >= 8 && page == 5 && word > 0 && pagecurl_book_font_size(book) == 11.0f,
          "relayout: %d pages at %.1f pt, on page %d beginning w%d (want 8 or more, page 5, 11 pt)",
          pages, pagecurl_book_font_size(book), page, word);
    /* the page's place in the text, kept as a reader's place is: the page holding it is the
     * page itself now, and after the re-layout the page the re-layout opens at */
    char place[PAGECURL_TEXT_PLACE_MAX];
    pagecurl_book_identity before = {.size = sizeof before};
    pagecurl_book_identity_of(book, &before);
    CHECK(s,
          pagecurl_book_text_place(book, page, place, sizeof place) &&
              pagecurl_book_text_place_page(book, place) == page &&
              !pagecurl_book_text_place(book, pages + 1, (char[PAGECURL_TEXT_PLACE_MAX]){0},
                                        PAGECURL_TEXT_PLACE_MAX) &&
              !pagecurl_book_text_place_page(book, "t1 999 0 0") &&
              !pagecurl_book_text_place_page(book, "t1 1 2 3 junk"),
          "text place: page %d's is '%s', which leads to page %d", page, place,
          pagecurl_book_text_place_page(book, place));
    /* a search under way as the book is laid out again reads the old layout's source: stopped
     * before it goes (the sanitizers' run sees any read after) */
    pagecurl_book_search(book, "w2999");
    CHECK(s, pagecurl_book_relayout(book, 22.0f, 0.0f, &err), "relayout to 22 pt: %s", err.message);
    pagecurl_search_state found = {.size = sizeof found};
    pagecurl_book_search_state(book, &found);
    CHECK(s, found.generation == 0 && found.matches == 0,
          "relayout to 22 pt: the old layout's search is still there (query %u, %d matches)",
          found.generation, found.matches);
    pagecurl_book_state(book, &st);
    int larger = pagecurl_book_page_count(book), at = first_word(book, st.page);
    pagecurl_book_identity now = {.size = sizeof now};
    pagecurl_book_identity_of(book, &now);
    int placed = pagecurl_book_text_place_page(book, place);
    CHECK(s,
          placed == st.page && strcmp(now.id, before.id) && !strcmp(now.text_id, before.text_id) &&
              !strncmp(now.text_id, "epub-", 5) && !strchr(now.text_id + 5, '-'),
          "relayout to 22 pt: the old place in the text '%s' leads to page %d, the re-layout to "
          "%d; ids '%s' -> '%s', text ids '%s' -> '%s'",
          place, placed, st.page, before.id, now.id, before.text_id, now.text_id);
    int after = st.page < larger ? first_word(book, st.page + 1) : 1 << 30;
    char title[64] = "";
    int two = pagecurl_book_outline_entry(book, 1, title, sizeof title, NULL);
    CHECK(s,
          larger > pages && pagecurl_book_font_size(book) == 22.0f && st.page != page && at >= 0 &&
              at <= word && after > word,
          "relayout to 22 pt: %d pages (had %d), on page %d whose words run from w%d (want the "
          "page holding w%d, its words before w%d after)",
          larger, pages, st.page, at, word, after);
    CHECK(s, two > chapter && chapter > 1 && !strcmp(title, "Chapter Two"),
          "relayout to 22 pt: outline's chapter two on page %d ('%s'), at 11 pt %d: want the new "
          "layout's",
          two, title, chapter);
    int shown = st.page;
    relayout_replay(s, c, epub, shown);
    /* a view of another shape: pages 1.2 times as tall as wide at 22 pt, the leaf made again at
     * that shape (a frame drawn before and after, with nothing from the validation layer) */
    static uint8_t rgba[320 * 240 * 4];
    pagecurl_render_desc rd = {.size = sizeof rd, .width = 320, .height = 240};
    uint32_t messages = pagecurl_context_messages(ctx);
    CHECK(s, pagecurl_book_render(book, 0.0, &rd, rgba, &err), "render at 22 pt: %s", err.message);
    word = first_word(book, shown);
    CHECK(s, pagecurl_book_relayout(book, 0.0f, 1.2f, &err), "relayout to 1.2: %s", err.message);
    pagecurl_book_state(book, &st);
    at = first_word(book, st.page);
    after = st.page < pagecurl_book_page_count(book) ? first_word(book, st.page + 1) : 1 << 30;
    bool drawn = pagecurl_book_render(book, 1.0, &rd, rgba, &err);
    long dark = 0;
    for (size_t i = 0; drawn && i < sizeof rgba / 4; i++)
        dark += rgba[4 * i] < 96 && rgba[4 * i + 1] < 96 && rgba[4 * i + 2] < 96;
    CHECK(s,
          drawn && dark > 200 && pagecurl_book_page_count(book) > larger &&
              fabsf(pagecurl_book_page_height(book) - 1.2f) < 0.01f &&
              pagecurl_book_font_size(book) == 22.0f && at >= 0 && at <= word && after > word &&
              pagecurl_context_messages(ctx) == messages,
          "relayout to pages 1.2 times as tall as wide: drawn %d (%s; %ld dark pixels), %d pages "
          "(had %d), page height %.3f, on page %d from w%d (want the page holding w%d), %u "
          "validation messages",
          drawn, drawn ? "" : err.message, dark, pagecurl_book_page_count(book), larger,
          pagecurl_book_page_height(book), st.page, at, word,
          pagecurl_context_messages(ctx) - messages);
    CHECK(s, pagecurl_book_relayout(book, 11.0f, 0.0f, &err), "relayout back to 11 pt: %s",
          err.message);
    pagecurl_book_state(book, &st);
    CHECK(s, pagecurl_book_page_count(book) > pages && st.page < shown,
          "relayout back to 11 pt, pages 1.2 times as tall as wide: %d pages (at 1.5: %d), page "
          "%d (from %d)",
          pagecurl_book_page_count(book), pages, st.page, shown);
    pagecurl_book_destroy(book);
    relayout_bounded(s, c, epub);
    book = pagecurl_book_create(
        ctx, &(pagecurl_book_desc){.size = sizeof(pagecurl_book_desc), .path = pdf, .page = 3},
        &err);
    CHECK(s, book, "relayout: no book of %s: %s", pdf, err.message);
    bool refused = book && !pagecurl_book_relayout(book, 14.0f, 0.0f, &err);
    pagecurl_book_state(book, &st);
    CHECK(s,
          refused && err.status == PAGECURL_ERROR_USAGE &&
              strstr(err.message, "cannot be laid out again") &&
              pagecurl_book_page_count(book) == 4 && st.page == 3 &&
              pagecurl_book_font_size(book) == 0.0f,
          "relayout of a PDF: refused %d (%d: %s), %d pages, page %d", refused, err.status,
          err.message, book ? pagecurl_book_page_count(book) : 0, st.page);
    pagecurl_book_destroy(book);
    pagecurl_context_destroy(ctx);
#endif
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_book PAGECURL OUTDIR [CHECK...]\n");
        return 2;
    }
    const Ctx ctx = {argv[1], argv[2]};
    if (mkdir(ctx.dir, 0755) != 0 && errno != EEXIST) {
        perror(ctx.dir);
        return 1;
    }
    static const struct {
        const char *name;
        void (*run)(CheckState *, const Ctx *);
    } checks[] = {
        {"pool", check_pool},
        {"notebook_unit", check_notebook_unit},
        {"wire_links", check_wire_links},
        {"text_find", check_text_find},
        {"folder", check_folder},
        {"notebook", check_notebook},
        {"pdf", check_pdf},
        {"evict", check_evict},
        {"long_pdf", check_long_pdf},
        {"bad_input", check_bad_input},
        {"rtl", check_rtl},
        {"cover", check_cover},
        {"layout", check_layout},
        {"hostile", check_hostile},
        {"abort", check_abort},
        {"stop", check_stop},
        {"thumb", check_thumb},
        {"labels", check_labels},
        {"shapes", check_shapes},
        {"confined", check_confined},
        {"outline", check_outline},
        {"zoom_sharp", check_zoom_sharp},
        {"portrait_sharp", check_portrait_sharp},
        {"regions", check_regions},
        {"print", check_print},
        {"formats", check_formats},
        {"relayout", check_relayout},
    };
    CheckState s = {0};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        bool named = argc == 3;
        for (int a = 3; a < argc; a++)
            named = named || !strcmp(argv[a], checks[i].name);
        if (named)
            checks[i].run(&s, &ctx);
    }
    library_context(true);
    return check_finish(&s, "test_book");
}
