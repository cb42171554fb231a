/* SPDX-License-Identifier: MIT */
/* go_bench: G to a page deep in a book, end to end, as libpagecurl draws it (BENCHMARKS.md, issue
 * 50). The book is opened at page 1 on the library's own device and drawn at WIDTHxHEIGHT; then
 * for each PAGE in turn: go to it (pagecurl_book_go_to, what G, --page of a running window, a
 * link followed and the library's go-to do) and draw the frame with its pixels read back, which
 * waits for the spread's pages drawn sharp and uploaded and for the details of the sides in view
 * (their print at the scale shown: the window's sharp text at rest). Timed from the go-to to the
 * pixels read back: the helper's drawing, the uploads and their mips, the frame on the device.
 * A window's frame waits for no page: it shows the spread's drafts first (at a sixteenth of the
 * texels: page_bench at a quarter of the width gives their cost), then this.
 *
 * go_bench BOOK WIDTHxHEIGHT PAGE... */
#include <pagecurl/pagecurl.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    unsigned width = 0, height = 0;
    if (argc < 4 || sscanf(argv[2], "%ux%u", &width, &height) != 2 || !width || !height) {
        fprintf(stderr, "usage: go_bench BOOK WIDTHxHEIGHT PAGE...\n");
        return 2;
    }
    pagecurl_error err;
    pagecurl_context *ctx = pagecurl_context_create(
        &(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc)}, &err);
    if (!ctx) {
        fprintf(stderr, "go_bench: %s\n", err.message);
        return 1;
    }
    double t0 = now_ms();
    pagecurl_book *book = pagecurl_book_create(
        ctx,
        &(pagecurl_book_desc){
            .size = sizeof(pagecurl_book_desc), .path = argv[1], .page = 1, .wait_for_pages = true},
        &err);
    uint8_t *pixels = malloc((size_t)width * height * 4);
    pagecurl_render_desc render = {.size = sizeof render, .width = width, .height = height};
    int status = book && pixels ? 0 : 1;
    if (!book)
        fprintf(stderr, "go_bench: %s\n", err.message);
    else if (!pixels)
        fprintf(stderr, "go_bench: out of memory\n");
    double t = 0.0;
    if (!status && !pagecurl_book_render(book, t, &render, pixels, &err))
        status = 1;
    if (!status)
        printf("open at page 1: %.1f ms\n", now_ms() - t0);
    for (int k = 3; k < argc && !status; k++) {
        int page = atoi(argv[k]);
        double start = now_ms();
        if (!pagecurl_book_go_to(book, page)) {
            fprintf(stderr, "go_bench: page %s: not in the book\n", argv[k]);
            status = 2;
        } else if (!pagecurl_book_render(book, t += 1.0, &render, pixels, &err))
            status = 1;
        else {
            double sharp = now_ms() - start;
            /* the same frame again, nothing to draw or upload: the frame's own share */
            start = now_ms();
            if (!pagecurl_book_render(book, t += 1.0, &render, pixels, &err))
                status = 1;
            printf("G %d: sharp in %.1f ms (a still frame read back: %.1f ms)\n", page, sharp,
                   now_ms() - start);
        }
    }
    if (status == 1 && book)
        fprintf(stderr, "go_bench: %s\n", err.message);
    free(pixels);
    pagecurl_book_destroy(book);
    pagecurl_context_destroy(ctx);
    return status;
}
