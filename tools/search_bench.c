/* SPDX-License-Identifier: MIT */
/* search_bench: a book's text search as the library counts it (book/search.h: the page helper's
 * FIND, page after page on a thread of its own), timed from its start: to the first match found
 * and to the whole count (BENCHMARKS.md). The helper's start and the book's open again in it are
 * in the first figure, as a reader's first search has them.
 *
 * search_bench BOOK QUERY [FROM_PAGE] */
#define _POSIX_C_SOURCE 200809L

#include "../book/search.h"

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
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: search_bench BOOK QUERY [FROM_PAGE]\n");
        return 2;
    }
    char message[1024];
    PagesBookSource *src = NULL;
    int status = pages_book_source_open(argv[1], &src, message, sizeof message);
    if (status) {
        fprintf(stderr, "search_bench: %s\n", message);
        return status;
    }
    BookSearch *s = book_search_create(src);
    if (!s) {
        fprintf(stderr, "search_bench: out of memory\n");
        pages_book_source_close(src);
        return 1;
    }
    int from = argc == 4 ? atoi(argv[3]) - 1 : 0;
    double t0 = now_ms(), first = -1.0;
    book_search_start(s, argv[2], from);
    BookSearchProgress p;
    const struct timespec nap = {0, 200 * 1000};
    for (book_search_progress(s, &p); !p.done; book_search_progress(s, &p)) {
        if (first < 0.0 && p.matches > 0)
            first = now_ms() - t0;
        nanosleep(&nap, NULL);
    }
    double all = now_ms() - t0;
    if (first < 0.0 && p.matches > 0)
        first = all;
    BookSearchMatch m = {0};
    int k = book_search_next(s, from - 1, true);
    if (k >= 0)
        book_search_match(s, k, &m);
    printf("%s: '%s' from page %d: %d matches in %d pages; first found in %.1f ms (page %d), "
           "the whole count in %.1f ms%s\n",
           argv[1], argv[2], from + 1, p.matches, p.pages, first, k >= 0 ? m.side + 1 : 0, all,
           p.failed_page ? " (a page's text could not be read)" : "");
    book_search_destroy(s);
    pages_book_source_close(src);
    return 0;
}
