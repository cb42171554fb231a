/* SPDX-License-Identifier: MIT */
#include "text_find.h"

#include <math.h>
#include <stdlib.h>

/* A character of the page as the search reads it: folded, with its box and its line (-1: a space
 * put between words). */
typedef struct Folded {
    uint32_t c;
    PagesFindRect box;
    int line;
} Folded;

static bool is_space(uint32_t c)
{
    return c == ' ' || c == '\t' || c == 0xa0 || c == '\n' || c == '\r' ||
           (c >= 0x2000 && c <= 0x200b);
}

static bool is_hyphen(uint32_t c)
{
    return c == '-' || c == 0xad || c == 0x2010 || c == 0x2011;
}

/* Lower case where Latin, Greek and Cyrillic have it (MuPDF's fz_tolower folds these alike). */
static uint32_t fold(uint32_t c)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7))
        return c + 32;
    if (((c >= 0x100 && c <= 0x137) || (c >= 0x14a && c <= 0x177)) && !(c & 1))
        return c + 1;
    if (((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e)) && (c & 1))
        return c + 1;
    if (c == 0x178)
        return 0xff;
    if (c >= 0x391 && c <= 0x3a9 && c != 0x3a2)
        return c + 32;
    if (c == 0x386)
        return 0x3ac;
    if (c >= 0x388 && c <= 0x38a)
        return c + 37;
    if (c == 0x38c)
        return 0x3cc;
    if (c == 0x38e || c == 0x38f)
        return c + 63;
    if (c >= 0x410 && c <= 0x42f)
        return c + 32;
    if (c >= 0x400 && c <= 0x40f)
        return c + 80;
    return c;
}

/* The code point the UTF-8 at *s begins (a byte that begins none: U+FFFD), *s past it. */
static uint32_t next_rune(const unsigned char **s)
{
    const unsigned char *p = *s;
    int more = p[0] < 0x80    ? 0
               : p[0] >= 0xf5 ? -1
               : p[0] >= 0xf0 ? 3
               : p[0] >= 0xe0 ? 2
               : p[0] >= 0xc2 ? 1
                              : -1;
    if (more <= 0) {
        *s = p + 1;
        return more ? 0xfffd : p[0];
    }
    uint32_t c = p[0] & (0x3f >> more);
    for (int i = 1; i <= more; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s = p + i;
            return 0xfffd;
        }
        c = c << 6 | (p[i] & 0x3f);
    }
    *s = p + more + 1;
    return c;
}

/* The query folded as the page is: white space runs one space, none at either end. */
static int fold_query(const char *query, uint32_t *out, int max)
{
    const unsigned char *s = (const unsigned char *)query;
    int n = 0;
    while (*s && n < max) {
        uint32_t c = next_rune(&s);
        if (is_space(c)) {
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
        } else {
            out[n++] = fold(c);
        }
    }
    while (n && out[n - 1] == ' ')
        n--;
    return n;
}

/* The page's characters folded (at most n + 1 of them: spaces are never doubled). */
static int fold_page(const PagesTextChar *chars, int n, Folded *out)
{
    int count = 0, line = 0;
    for (int i = 0; i < n; i++) {
        uint32_t c = chars[i].c;
        if (c == '\n') {
            line++;
        } else if (is_hyphen(c) && i + 1 < n && chars[i + 1].c == '\n') {
            /* a hyphen ending a line that another follows: the word goes on there */
            bool more = false;
            for (int k = i + 2; k < n && !more; k++)
                more = !is_space(chars[k].c);
            if (more) {
                i++, line++;
                continue;
            }
        }
        if (is_space(c)) {
            if (count && out[count - 1].line >= 0)
                out[count++] = (Folded){' ', {0.0f, 0.0f, 0.0f, 0.0f}, -1};
            continue;
        }
        out[count++] = (Folded){fold(c), chars[i].box, line};
    }
    return count;
}

int pages_text_find(const PagesTextChar *chars, int n, const char *query, PagesFindRect *rects,
                    bool *first, int max)
{
    uint32_t needle[PAGES_FIND_MAX_QUERY];
    int length = fold_query(query, needle, PAGES_FIND_MAX_QUERY);
    if (!length || n <= 0 || max <= 0)
        return 0;
    Folded *page = malloc(((size_t)n + 1) * sizeof *page);
    if (!page)
        return 0;
    int count = fold_page(chars, n, page), found = 0;
    for (int at = 0; at + length <= count && found < max; at++) {
        int k = 0;
        while (k < length && page[at + k].c == needle[k])
            k++;
        if (k < length)
            continue;
        int line = -1;
        for (k = 0; k < length; k++) { /* one rectangle a line the match crosses */
            const Folded *c = &page[at + k];
            if (c->line < 0)
                continue;
            if (c->line != line) {
                if (found == max)
                    break;
                first[found] = line < 0;
                line = c->line;
                rects[found++] = c->box;
            } else {
                PagesFindRect *r = &rects[found - 1];
                r->x0 = fminf(r->x0, c->box.x0), r->y0 = fminf(r->y0, c->box.y0);
                r->x1 = fmaxf(r->x1, c->box.x1), r->y1 = fmaxf(r->y1, c->box.y1);
            }
        }
        at += length - 1; /* matches do not overlap */
    }
    free(page);
    return found;
}
