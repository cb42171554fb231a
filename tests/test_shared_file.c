/* SPDX-License-Identifier: MIT */
/* Decoders of one PDF on one open file (helper/decoder.c): the library hands the book's drawing,
 * finding and links helpers the one descriptor it opened, and SCM_RIGHTS passes the open file,
 * its offset included, not a copy. Here two decoders on duplicates of one descriptor (dup shares
 * the offset as SCM_RIGHTS does) find a word on every page and draw it, each in a thread of its
 * own, many times over: every answer is the one a decoder alone gives. MuPDF's own file stream
 * (fseeko, then fread) moved the shared offset under the other decoder's reads: pages "not
 * found", matches lost (the window's search under load). No device. */
#include "../helper/decoder.h"
#include "check.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS    200
#define MAX_PAGES 16
#define SIDE      96

typedef struct Reader {
    PagesDecoder *src;
    int pages;
    int found[MAX_PAGES];      /* the matches a page holds, as one decoder alone finds them */
    uint64_t drawn[MAX_PAGES]; /* a sum of its pixels */
    int wrong;                 /* answers unlike those */
    char message[512];
} Reader;

/* Page `page` read: its matches of "zephyr" and a sum of its pixels; false with the reason. */
static bool read_page(Reader *r, int page, int *found, uint64_t *drawn)
{
    PagesFindRect rects[32];
    bool first[32];
    float place[4];
    *found = pages_decoder_find(r->src, page, "zephyr", rects, first, 32, place, r->message,
                                sizeof r->message);
    static _Thread_local uint8_t rgba[SIDE * SIDE * 4];
    if (*found < 0 ||
        !pages_decoder_draw(r->src, page, SIDE, SIDE, rgba, r->message, sizeof r->message))
        return false;
    *drawn = 0;
    for (size_t i = 0; i < sizeof rgba; i++)
        *drawn += rgba[i] * (i % 7 + 1);
    return true;
}

static void *rounds(void *arg)
{
    Reader *r = arg;
    for (int k = 0; k < ROUNDS; k++)
        for (int p = 0; p < r->pages; p++) {
            int found = -1;
            uint64_t drawn = 0;
            bool ok = read_page(r, (p * 5 + k) % r->pages, &found, &drawn);
            int q = (p * 5 + k) % r->pages;
            r->wrong += !ok || found != r->found[q] || drawn != r->drawn[q];
        }
    return NULL;
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    const char *path = argc > 1 ? argv[1] : "search.pdf";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    CHECK(&s, fd >= 0, "%s cannot be opened", path);
    if (fd < 0)
        return check_finish(&s, "test_shared_file");
    Reader r[2] = {{0}};
    int status = 0;
    for (int i = 0; i < 2 && !status; i++) {
        int mine = dup(fd); /* the same open file, as each helper is handed it */
        status = pages_decoder_open_pdf(mine, path, path, NULL, &r[i].src, r[i].message,
                                        sizeof r[i].message);
        CHECK(&s, status == 0, "decoder %d: %s", i, r[i].message);
    }
    close(fd);
    if (!status) {
        int pages = pages_decoder_pages(r[0].src);
        CHECK(&s, pages >= 2 && pages <= MAX_PAGES, "%d pages", pages);
        pages = pages < MAX_PAGES ? pages : MAX_PAGES;
        int total = 0;
        /* the answers of a decoder alone */
        for (int p = 0; p < pages; p++) {
            r[0].pages = r[1].pages = pages;
            CHECK(&s, read_page(&r[0], p, &r[0].found[p], &r[0].drawn[p]), "page %d: %s", p + 1,
                  r[0].message);
            r[1].found[p] = r[0].found[p], r[1].drawn[p] = r[0].drawn[p];
            total += r[0].found[p];
        }
        CHECK(&s, total >= 2, "\"zephyr\" found %d times alone", total);
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, rounds, &r[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        printf("test_shared_file: %d pages, %d matches; %d rounds a decoder, answers unlike one "
               "alone: %d and %d\n",
               pages, total, ROUNDS, r[0].wrong, r[1].wrong);
        CHECK(&s, r[0].wrong == 0 && r[1].wrong == 0,
              "decoders sharing the open file read other answers (%d, %d): %s %s", r[0].wrong,
              r[1].wrong, r[0].message, r[1].message);
    }
    for (int i = 0; i < 2; i++)
        if (r[i].src)
            pages_decoder_close(r[i].src);
    return check_finish(&s, "test_shared_file");
}
