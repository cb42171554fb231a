/* SPDX-License-Identifier: MIT */
/* page_bench: what the page helper costs (BENCHMARKS.md, "The page helper"). A book opened and its
 * first N pages drawn WIDTH texels wide, as the stream's worker draws them: through the helper
 * (`helper`: app_book_source_*, the library's way) or in this process (`here`: the helper's own
 * decoder called directly, what a page costs without a process between). Prints the open's time
 * (the helper's start with it), the first page's, the median and mean of the rest, and the peak
 * resident memory of this process and of its children (the helper) as /proc shows them. `start`:
 * the helper started N times, each to the answer of its first request (spawn, exec, its
 * libraries, hello, one request refused), BOOK and WIDTH unused.
 *
 * `relayout`: a reflowable book opened through the helper, then laid out again N times, 13 pt and
 * 11 pt in turn (pages_book_source_relayout: the library's Ctrl + = and -), each from the page that
 * holds FROM's text, and that page drawn: each re-layout's time, and the page's after it.
 *
 * FROM (default 1): the first page drawn, the pages after it in turn (a page deep in the book: what
 * G to it asks of the helper before its spread shows, the first two figures).
 *
 * page_bench BOOK WIDTH N helper|here|start|relayout [FROM] */
#define _GNU_SOURCE

#include "../helper/decoder.h"
#include "../pages/book_source.h"
#include "../pages/page_helper.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* VmHWM of process `pid` in KiB (0: none). */
static long peak_kib(long pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    FILE *f = fopen(path, "r");
    long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* The largest VmHWM among this process's children. */
static long children_peak_kib(void)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    long most = 0;
    while (d && (e = readdir(d))) {
        char path[300], stat[512];
        long pid = strtol(e->d_name, NULL, 10);
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = pid > 0 ? fopen(path, "r") : NULL;
        if (!f)
            continue;
        long ppid = 0;
        if (fgets(stat, sizeof stat, f)) {
            char *close = strrchr(stat, ')');
            if (close)
                sscanf(close + 2, "%*c %ld", &ppid);
        }
        fclose(f);
        if (ppid == (long)getpid() && peak_kib(pid) > most)
            most = peak_kib(pid);
    }
    if (d)
        closedir(d);
    return most;
}

/* The helper's start, `n` times: least, median and most. */
static int starts(int n)
{
    double *ms = calloc(n > 0 ? (size_t)n : 1, sizeof *ms);
    for (int i = 0; ms && i < n; i++) {
        PageHelper *h = page_helper_create();
        PagesWireOut o = {0};
        pages_wire_u32(&o, 0); /* no book it knows: answered at once */
        uint32_t type;
        uint8_t *answer = NULL;
        size_t size;
        char why[512];
        double s = now_ms();
        PagesHelperCall call = h ? page_helper_call(h, PAGES_WIRE_OPEN, &o, 0, &type, &answer,
                                                    &size, NULL, why, sizeof why)
                                 : PAGES_HELPER_NONE;
        ms[i] = now_ms() - s;
        free(answer);
        pages_wire_out_free(&o);
        page_helper_destroy(h);
        if (call != PAGES_HELPER_ANSWERED) {
            fprintf(stderr, "page_bench: %s\n", why);
            free(ms);
            return 1;
        }
    }
    if (!ms || n < 1)
        return 1;
    qsort(ms, (size_t)n, sizeof *ms, compare);
    printf("start: the helper to its first answer, %d times: least %.2f ms, median %.2f ms, most "
           "%.2f ms\n",
           n, ms[0], ms[n / 2], ms[n - 1]);
    free(ms);
    return 0;
}

/* `relayout`: see the head of this file. */
static int relayouts(const char *book, uint32_t width, int n, int from)
{
    char message[1024];
    PagesBookSource *src = NULL;
    double t0 = now_ms();
    if (pages_book_source_open(book, &src, message, sizeof message)) {
        fprintf(stderr, "page_bench: %s\n", message);
        return 1;
    }
    printf("relayout: %s opened at 11 pt in %.1f ms, %d pages\n", book, now_ms() - t0,
           pages_book_source_pages(src));
    int page = from;
    for (int i = 0; i < n; i++) {
        PagesTextLayout to = {.aspect = pages_book_source_layout(src).aspect,
                              .font_size = i % 2 ? 11.0f : 13.0f};
        PagesBookSource *next = NULL;
        int moved = -1;
        double s = now_ms();
        if (pages_book_source_relayout(src, &to, &page, &moved, 1, &next, message,
                                       sizeof message)) {
            fprintf(stderr, "page_bench: %s\n", message);
            pages_book_source_close(src);
            return 1;
        }
        double laid = now_ms() - s;
        pages_book_source_close(src);
        src = next;
        uint32_t height = (uint32_t)((float)width * pages_book_source_aspect(src) + 0.5f);
        uint8_t *rgba = malloc((size_t)width * height * 4);
        s = now_ms();
        bool drawn = rgba && pages_book_source_draw(src, moved, width, height, rgba, message,
                                                    sizeof message);
        printf("relayout to %.0f pt: %.1f ms, %d pages; page %d (from %d) drawn in %.1f ms%s\n",
               to.font_size, laid, pages_book_source_pages(src), moved + 1, page + 1, now_ms() - s,
               drawn ? "" : " (failed)");
        free(rgba);
        page = moved;
    }
    pages_book_source_close(src);
    return 0;
}

int main(int argc, char **argv)
{
    if ((argc != 5 && argc != 6) || (strcmp(argv[4], "helper") && strcmp(argv[4], "here") &&
                                     strcmp(argv[4], "start") && strcmp(argv[4], "relayout"))) {
        fprintf(stderr, "usage: page_bench BOOK WIDTH N helper|here|start|relayout [FROM]\n");
        return 2;
    }
    if (!strcmp(argv[4], "start"))
        return starts(atoi(argv[3]));
    if (!strcmp(argv[4], "relayout"))
        return relayouts(argv[1], (uint32_t)atoi(argv[2]), atoi(argv[3]),
                         argc == 6 ? atoi(argv[5]) - 1 : 0);
    bool here = !strcmp(argv[4], "here");
    uint32_t width = (uint32_t)atoi(argv[2]);
    int n = atoi(argv[3]);
    int from = argc == 6 ? atoi(argv[5]) - 1 : 0;
    char message[1024];
    PagesBookSource *src = NULL;
    PagesDecoder *dec = NULL;
    double t0 = now_ms();
    int status = 0;
    if (here) {
        FILE *f = fopen(argv[1], "rb");
        status = f ? pages_decoder_open_pdf(dup(fileno(f)), argv[1], argv[1], NULL, &dec, message,
                                            sizeof message)
                   : 1;
        if (f)
            fclose(f);
    } else {
        status = pages_book_source_open(argv[1], &src, message, sizeof message);
    }
    double opened = now_ms() - t0;
    if (status) {
        fprintf(stderr, "page_bench: %s\n", message);
        return 1;
    }
    int pages = here ? pages_decoder_pages(dec) : pages_book_source_pages(src);
    float aspect = here ? pages_decoder_aspect(dec) : pages_book_source_aspect(src);
    uint32_t height = (uint32_t)((float)width * aspect + 0.5f);
    uint8_t *rgba = malloc((size_t)width * height * 4);
    double *ms = calloc((size_t)n, sizeof *ms);
    if (!rgba || !ms || from < 0 || from >= pages)
        return 1;
    for (int i = 0; i < n; i++) {
        double s = now_ms();
        bool ok = here ? pages_decoder_draw(dec, (from + i) % pages, width, height, rgba, message,
                                            sizeof message)
                       : pages_book_source_draw(src, (from + i) % pages, width, height, rgba,
                                                message, sizeof message);
        ms[i] = now_ms() - s;
        if (!ok)
            fprintf(stderr, "page_bench: page %d: %s\n", (from + i) % pages + 1, message);
    }
    double sum = 0.0;
    for (int i = 1; i < n; i++)
        sum += ms[i];
    double first = ms[0];
    qsort(ms + 1, (size_t)(n - 1), sizeof *ms, compare);
    printf("%s: %s at %ux%u: open %.1f ms, page %d %.1f ms, then %d pages: least %.2f ms, median "
           "%.2f ms, mean %.2f ms; peak RSS: this process %ld KiB, the helper %ld KiB\n",
           argv[4], argv[1], width, height, opened, from + 1, first, n - 1, n > 1 ? ms[1] : 0.0,
           n > 1 ? ms[1 + (n - 1) / 2] : 0.0, n > 1 ? sum / (n - 1) : 0.0, peak_kib((long)getpid()),
           children_peak_kib());
    free(ms);
    free(rgba);
    pages_book_source_close(src);
    pages_decoder_close(dec);
    return 0;
}
