/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink, link */
/* What a user hands the program that it must not trust: a trace's numbers in a notation no one
 * means, a FIFO where a file should be, a signal while it starts, too little memory for the
 * driver, an output that is the book it reads; and the rules for where a turn may start and
 * where End lands. Real processes, real files. */
#include "check.h"
#include "image.h"
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image_write.h>

typedef struct Ctx {
    const char *exe, *dir, *slow_loader;
} Ctx;

static Run run_env(const Ctx *c, const char *env, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    Run r = run_va(c->exe, c->dir, env, first, ap);
    va_end(ap);
    return r;
}
#define RUN(...)          run_env(c, NULL, __VA_ARGS__, (const char *)NULL)
#define RUN_ENV(env, ...) run_env(c, env, __VA_ARGS__, (const char *)NULL)

static const char *path_in(const Ctx *c, char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", c->dir, name);
    return buf;
}

static int line_count(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fputs(text, f) >= 0;
    return f && fclose(f) == 0 && ok;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Refused as asked: the status, one line, naming `names`. */
static void check_refused(CheckState *s, Run r, int status, const char *names, const char *what)
{
    CHECK(s, r.status == status && line_count(r.err) == 1 && strstr(r.err, names),
          "%s: exit %d (want %d), stderr: %s", what, r.status, status, r.err);
}

/* Page n of `pages` in one colour each, w x h: red, green, blue, yellow, magenta, cyan. */
static const unsigned char COLOURS[6][3] = {{255, 0, 0},   {0, 255, 0},   {0, 0, 255},
                                            {255, 255, 0}, {255, 0, 255}, {0, 255, 255}};

static bool colour_book(const char *dir, int pages)
{
    mkdir(dir, 0755);
    enum { W = 50, H = 70 };
    static unsigned char px[W * H * 3];
    for (int n = 1; n <= pages; n++) {
        for (int i = 0; i < W * H; i++)
            memcpy(&px[3 * i], COLOURS[(n - 1) % 6], 3);
        char file[600];
        snprintf(file, sizeof file, "%s/page-%d.png", dir, n);
        if (!stbi_write_png(file, W, H, 3, px, W * 3))
            return false;
    }
    return true;
}

/* Which of COLOURS the picture shows at (fx, fy) of its size, -1 for none (the paper's
 * shading leaves each channel within 80 of the colour's). */
static int colour_at(const Image *img, float fx, float fy)
{
    const unsigned char *p =
        &img->rgba[4 * ((size_t)(fy * img->h) * img->w + (size_t)(fx * img->w))];
    for (int k = 0; k < 6; k++) {
        int far = 0;
        for (int ch = 0; ch < 3; ch++)
            far |= abs(p[ch] - COLOURS[k][ch]) > 80;
        if (!far)
            return k;
    }
    return -1;
}

/* A trace's numbers are decimal: "0x10" is no time (strtod would read 16). */
static void check_trace_numbers(CheckState *s, const Ctx *c)
{
    char trace[512];
    path_in(c, trace, sizeof trace, "hex.trace");
    static const char *const bad[] = {"0x10 key next\n", "inf key next\n",
                                      "1 mouse down 0x0.8 0.5\n", " nan key next\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(s, write_text(trace, bad[i]), "cannot write %s", trace);
        check_refused(s, RUN("--headless", "--replay", trace), 2, "hex.trace:1", bad[i]);
    }
    CHECK(s, write_text(trace, "1e-1 key next\n"), "cannot write %s", trace);
    Run r = RUN("--headless", "--size", "64x48", "--replay", trace);
    CHECK(s, r.status == 0, "a time in decimal notation with an exponent: exit %d: %s", r.status,
          r.err);
    check_refused(s, RUN("--headless", "--curl", "0x0.8"), 2, "--curl", "--curl 0x0.8");
}

/* A name holding a newline and an escape sequence is printed escaped: still one line, and nothing
 * the terminal would obey. */
static void check_names_escaped(CheckState *s, const Ctx *c)
{
    char book[512], trace[512];
    path_in(c, book, sizeof book, "no\nsuch\x1b[31mbook");
    path_in(c, trace, sizeof trace, "bad\rtrace\x07");
    Run r = RUN("--headless", "--book", book);
    CHECK(s,
          r.status == 2 && line_count(r.err) == 1 && !strchr(r.err, '\x1b') &&
              strstr(r.err, "no\\nsuch\\x1b[31mbook"),
          "a book name with a newline and ESC: exit %d: %s", r.status, r.err);
    CHECK(s, write_text(trace, "x key next\n"), "cannot write %s", trace);
    r = RUN("--headless", "--replay", trace);
    CHECK(s,
          r.status == 2 && line_count(r.err) == 1 && !strchr(r.err, '\r') &&
              !strchr(r.err, '\x07') && strstr(r.err, "bad\\rtrace\\x07"),
          "a trace name with CR and BEL: exit %d: %s", r.status, r.err);
}

/* A FIFO as the trace: refused at once (open would wait for a writer forever). */
static void check_fifo_trace(CheckState *s, const Ctx *c)
{
    char fifo[512];
    path_in(c, fifo, sizeof fifo, "fifo.trace");
    unlink(fifo);
    CHECK(s, mkfifo(fifo, 0644) == 0, "mkfifo %s: %s", fifo, strerror(errno));
    const char *args[] = {"--headless", "--replay", fifo, NULL};
    Run r = run_wait(run_spawn(c->exe, c->dir, NULL, args), c->dir, 20.0);
    check_refused(s, r, 2, "FIFO", "--replay FIFO");
    unlink(fifo);
}

/* A signal while the program starts (here: a Vulkan loader that takes a minute to open) ends it
 * at once, by that signal. */
static void check_startup_signal(CheckState *s, const Ctx *c)
{
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        char env[600];
        snprintf(env, sizeof env, "LD_PRELOAD=%s", c->slow_loader);
        const char *args[] = {"--headless", "--size", "64x48", NULL};
        pid_t pid = run_spawn(c->exe, c->dir, env, args);
        sleep(1);
        kill(pid, sigs[i]);
        Run r = run_wait(pid, c->dir, 10.0);
        CHECK(s, r.status == 128 + sigs[i] && strstr(r.err, "stopped by SIG"),
              "signal %d while starting: exit %d (want %d), stderr: %s", sigs[i], r.status,
              128 + sigs[i], r.err);
    }
}

/* Under an address-space limit, wherever the driver runs out (the instance, the device, a
 * pipeline, a buffer), the cause is named in one line and the exit is 1: never a crash. */
static void check_out_of_memory(CheckState *s, const Ctx *c)
{
#ifdef PAGECURL_SANITIZED
    (void)s, (void)c; /* ASan reserves terabytes of address space: no limit can be set */
#else
    static const unsigned limits_kib[] = {100000, 150000, 250000, 320000, 340000,
                                          400000, 460000, 540000, 700000, 860000};
    for (size_t i = 0; i < sizeof limits_kib / sizeof limits_kib[0]; i++) {
        char script[64];
        snprintf(script, sizeof script, "ulimit -v %u && exec \"$0\" \"$@\"", limits_kib[i]);
        const char *args[] = {"-c",  script,   c->exe,    "--headless", "--curl",
                              "0.4", "--size", "320x180", NULL};
        Run r = run_wait(run_spawn("/bin/sh", c->dir, NULL, args), c->dir, 60.0);
        /* Where the limit runs out just as a thread first touches the thread-local data of a
         * library loaded at run time (the Vulkan driver and what it loads), glibc's loader ends the
         * process with this one line and 127: nothing in the process sees it coming (seen once in a
         * CI run). A crash would still fail: a signal, or any other line. */
        static const char LOADER[] = "cannot allocate memory for thread-local data: ABORT";
        bool loader = r.status == 127 && !strncmp(r.err, LOADER, sizeof LOADER - 1) &&
                      strspn(r.err + sizeof LOADER - 1, "\n") == strlen(r.err + sizeof LOADER - 1);
        CHECK(s,
              r.status == 0 || loader ||
                  (r.status == 1 && strstr(r.err, "out of ") && strstr(r.err, " memory") &&
                   !strstr(r.err, "\n\n")),
              "ulimit -v %u: exit %d, stderr: %s", limits_kib[i], r.status, r.err);
    }
#endif
}

#ifdef PAGECURL_HAVE_MUPDF
/* One-page PDF, written as text (MuPDF repairs the missing cross-reference table). */
static bool write_pdf(const char *path)
{
    return write_text(path, "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
                            "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
                            "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] >> "
                            "endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
}
#endif

/* An output that is the book, a page of it or a new page in its folder: bad usage (exit 2), and
 * the book is as it was. By name, through a symlink, through a hard link. */
static void check_book_outputs(CheckState *s, const Ctx *c)
{
    char dir[512], page[600], copy[600], hard[600], soft[600], fresh[600], frames[600];
    path_in(c, dir, sizeof dir, "own-book");
    CHECK(s, colour_book(dir, 3), "cannot write the book in %s", dir);
    snprintf(page, sizeof page, "%s/page-2.png", dir);
    path_in(c, copy, sizeof copy, "page-2-copy.png");
    path_in(c, hard, sizeof hard, "hard-link.png");
    path_in(c, soft, sizeof soft, "soft-link.png");
    snprintf(fresh, sizeof fresh, "%s/page-0.png", dir);
    path_in(c, frames, sizeof frames, "own-book-link");
    unlink(hard), unlink(soft), unlink(frames), unlink(fresh);
    CHECK(s, link(page, hard) == 0 && symlink(page, soft) == 0 && symlink(dir, frames) == 0,
          "cannot link to %s: %s", page, strerror(errno));
    Run r =
        RUN("--headless", "--book", dir, "--curl", "0.3", "--size", "64x48", "--screenshot", hard);
    (void)r;
    /* what the page was, to compare with after each refusal */
    FILE *in = fopen(page, "rb"), *out = fopen(copy, "wb");
    for (int ch; in && out && (ch = fgetc(in)) != EOF;)
        fputc(ch, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    const struct {
        const char *flag, *path;
    } cases[] = {
        {"--screenshot", page},   {"--screenshot", hard},  {"--screenshot", soft},
        {"--export-obj", page},   {"--screenshot", fresh}, {"--frames-out", dir},
        {"--frames-out", frames}, {"--notebook", fresh},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = RUN("--headless", "--book", dir, "--curl", "0.3", "--size", "64x48", cases[i].flag,
                cases[i].path);
        char what[700];
        snprintf(what, sizeof what, "%s %s", cases[i].flag, cases[i].path);
        check_refused(s, r, 2, "book being read", what);
        CHECK(s, run_same_file(page, copy) && !exists(fresh), "%s changed the book", what);
    }
    char frame[700];
    snprintf(frame, sizeof frame, "%s/frame-0001.png", dir);
    CHECK(s, !exists(frame), "--frames-out wrote into the book: %s", frame);
    /* beside the book, not in it: written */
    char obj[600];
    path_in(c, obj, sizeof obj, "beside.obj");
    r = RUN("--headless", "--book", dir, "--curl", "0.3", "--size", "64x48", "--export-obj", obj);
    CHECK(s, r.status == 0 && exists(obj), "--export-obj beside the book: exit %d: %s", r.status,
          r.err);

#ifdef PAGECURL_HAVE_MUPDF
    char pdf[512], pdf_copy[512], pdf_link[512];
    path_in(c, pdf, sizeof pdf, "own.pdf");
    path_in(c, pdf_copy, sizeof pdf_copy, "own-copy.pdf");
    path_in(c, pdf_link, sizeof pdf_link, "own-link.obj");
    unlink(pdf_link);
    CHECK(s, write_pdf(pdf) && write_pdf(pdf_copy) && link(pdf, pdf_link) == 0, "cannot write %s",
          pdf);
    const char *pdf_cases[] = {pdf, pdf_link};
    for (size_t i = 0; i < 2; i++) {
        r = RUN("--headless", "--book", pdf, "--curl", "0.3", "--size", "64x48", "--export-obj",
                pdf_cases[i]);
        check_refused(s, r, 2, "book being read", pdf_cases[i]);
        CHECK(s, run_same_file(pdf, pdf_copy), "--export-obj %s replaced the PDF", pdf_cases[i]);
    }
#endif
}

/* --backward needs a leaf to turn back, with --page or without it; End opens the spread that
 * holds the last page, as --page LAST does. */
static void check_turn_rules(CheckState *s, const Ctx *c)
{
    char one[512], five[512], trace[512], shot[512];
    path_in(c, one, sizeof one, "one-page");
    path_in(c, five, sizeof five, "five-pages");
    CHECK(s, colour_book(one, 1) && colour_book(five, 5), "cannot write the books");
    check_refused(s, RUN("--headless", "--book", one, "--backward", "--curl", "0.5"), 2,
                  "--backward", "--backward, one page");
    check_refused(s, RUN("--headless", "--book", one, "--page", "1", "--backward", "--curl", "0.5"),
                  2, "--page 1", "--page 1 --backward, one page");
    Run r = RUN("--headless", "--book", five, "--backward", "--curl", "0.5", "--size", "64x48");
    CHECK(s, r.status == 0, "--backward on five pages: exit %d: %s", r.status, r.err);

    path_in(c, trace, sizeof trace, "end.trace");
    path_in(c, shot, sizeof shot, "end.png");
    CHECK(s, write_text(trace, "0 key end\n"), "cannot write %s", trace);
    r = RUN("--headless", "--book", five, "--replay", trace, "--size", "480x270", "--screenshot",
            shot);
    Image img = image_load(shot);
    CHECK(s, r.status == 0 && img.rgba, "End: exit %d: %s", r.status, r.err);
    if (img.rgba) {
        int left = colour_at(&img, 0.30f, 0.5f), right = colour_at(&img, 0.70f, 0.5f);
        CHECK(s, left == 3 && right == 4, "End on five pages shows colours %d | %d, want 3 | 4",
              left, right);
    }
    image_free(&img);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_inputs PAGECURL OUTDIR SLOW_LOADER_SHIM [CHECK...]\n");
        return 2;
    }
    const Ctx ctx = {argv[1], argv[2], argv[3]};
    if (mkdir(ctx.dir, 0755) != 0 && errno != EEXIST) {
        perror(ctx.dir);
        return 1;
    }
    static const struct {
        const char *name;
        void (*run)(CheckState *, const Ctx *);
    } checks[] = {
        {"trace_numbers", check_trace_numbers}, {"fifo_trace", check_fifo_trace},
        {"names_escaped", check_names_escaped}, {"startup_signal", check_startup_signal},
        {"out_of_memory", check_out_of_memory}, {"book_outputs", check_book_outputs},
        {"turn_rules", check_turn_rules},
    };
    CheckState s = {0};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        bool named = argc == 4;
        for (int a = 4; a < argc; a++)
            named = named || !strcmp(argv[a], checks[i].name);
        if (named)
            checks[i].run(&s, &ctx);
    }
    return check_finish(&s, "test_inputs");
}
