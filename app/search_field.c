/* SPDX-License-Identifier: MIT */
#include "search_field.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void app_search_field_open(AppSearchField *f)
{
    f->open = true;
    f->selected = f->typed[0] != '\0';
}

void app_search_field_close(AppSearchField *f)
{
    f->open = false;
    f->selected = false;
}

static void search(AppSearchField *f, pagecurl_book *book)
{
    f->current = -1;
    f->pending = 0;
    pagecurl_book_search(book, f->typed);
}

void app_search_field_type(AppSearchField *f, pagecurl_book *book, const char *utf8)
{
    if (f->selected) /* the last search, selected: what is typed replaces it */
        f->typed[0] = '\0', f->selected = false;
    size_t have = strlen(f->typed), add = strlen(utf8);
    if (have + add > APP_SEARCH_FIELD_MAX) /* a character's bytes whole or not at all */
        return;
    memcpy(f->typed + have, utf8, add + 1);
    search(f, book);
}

void app_search_field_erase(AppSearchField *f, pagecurl_book *book)
{
    size_t n = strlen(f->typed);
    if (!n)
        return;
    if (f->selected) { /* the last search, selected: erased whole */
        f->typed[0] = '\0', f->selected = false;
        search(f, book);
        return;
    }
    do /* back over a UTF-8 character's continuation bytes */
        n--;
    while (n && ((unsigned char)f->typed[n] & 0xc0) == 0x80);
    f->typed[n] = '\0';
    search(f, book);
}

/* The match after (before) the one gone to while its page is still the spread shown, else -1:
 * so that each step shows the next match, not the first on the next spread (the manual's
 * matches 4-10 on a spread's left page were passed over, 1, 3, 11). */
static int after_current(const AppSearchField *f, const pagecurl_book *book, bool forward)
{
    pagecurl_search_match at = {.size = sizeof at};
    pagecurl_state shown = {.size = sizeof shown};
    pagecurl_search_state counted = {.size = sizeof counted};
    if (f->current < 0 || !pagecurl_book_search_match(book, f->current, &at))
        return -1;
    pagecurl_book_state(book, &shown);
    if (at.page != shown.heading_left && at.page != shown.heading_right)
        return -1;
    pagecurl_book_search_state(book, &counted);
    int k = f->current + (forward ? 1 : -1);
    if (k >= 0 && k < counted.matches)
        return k;
    return counted.done && counted.matches ? (forward ? 0 : counted.matches - 1) : -1;
}

int app_search_field_step(AppSearchField *f, const pagecurl_book *book, bool forward)
{
    int k = after_current(f, book, forward);
    if (k < 0)
        k = pagecurl_book_search_next(book, forward);
    pagecurl_search_match m = {.size = sizeof m};
    if (k < 0 || !pagecurl_book_search_match(book, k, &m)) {
        pagecurl_search_state s = {.size = sizeof s};
        pagecurl_book_search_state(book, &s);
        f->pending = s.done ? 0 : forward ? 1 : -1; /* taken when the count finds one */
        return 0;
    }
    f->pending = 0;
    f->current = k;
    return m.page;
}

int app_search_field_pending(AppSearchField *f, const pagecurl_book *book)
{
    return f->pending ? app_search_field_step(f, book, f->pending > 0) : 0;
}

void app_search_field_text(const AppSearchField *f, const pagecurl_book *book, char *out,
                           size_t size)
{
    char typed[64];
    size_t n = 0;
    for (const char *c = f->typed; *c && n + 1 < sizeof typed; c++) {
        unsigned char b = (unsigned char)*c;
        if ((b & 0xc0) == 0x80)
            continue; /* one '?' a character */
        typed[n++] = b >= 0x20 && b < 0x7f ? (char)b : '?';
    }
    typed[n] = '\0';
    pagecurl_search_state s = {.size = sizeof s};
    pagecurl_book_search_state(book, &s);
    char count[64] = "";
    if (!s.has_text)
        snprintf(count, sizeof count, "no text in this book");
    else if (!f->typed[0])
        snprintf(count, sizeof count, "Enter: next, Shift+Enter: previous");
    else if (s.done && !s.matches)
        snprintf(count, sizeof count,
                 s.failed ? "not found; some pages' text could not be read" : "not found");
    else if (f->current >= 0)
        snprintf(count, sizeof count, "%d of %d%s", f->current + 1, s.matches,
                 s.done ? "" : " ... counting");
    else
        snprintf(count, sizeof count, "%d found%s", s.matches, s.done ? "" : ", counting ...");
    snprintf(out, size, f->selected ? "find: [%s]_   %s" : "find: %s_   %s", typed, count);
}

bool app_search_field_place(const AppSearchField *f, const pagecurl_book *book, uint32_t width,
                            uint32_t height, float *factor, double *x, double *y)
{
    pagecurl_search_match m = {.size = sizeof m};
    if (f->current < 0 || !pagecurl_book_search_match(book, f->current, &m) || !m.rect_count)
        return false;
    /* a point of the match's page: the viewport's middle, or either half's */
    const double d = 8.0, at[3] = {0.5, 0.25, 0.75};
    pagecurl_hit h[3];
    double x0 = 0.0, y0 = 0.5 * height;
    bool on = false;
    for (int i = 0; i < 3 && !on; i++) {
        x0 = at[i] * width;
        h[0] = (pagecurl_hit){.size = sizeof h[0]};
        on = pagecurl_book_hit(book, x0, y0, &h[0]) && h[0].page == m.page;
    }
    h[1] = h[2] = (pagecurl_hit){.size = sizeof h[1]};
    if (!on || !pagecurl_book_hit(book, x0 + d, y0, &h[1]) ||
        !pagecurl_book_hit(book, x0, y0 + d, &h[2]) || h[1].page != m.page || h[2].page != m.page)
        return false;
    /* the flat page's (u, v) from target pixels: (u, v) = h0 + J (dx, dy) */
    double ux = (h[1].u - h[0].u) / d, vx = (h[1].v - h[0].v) / d;
    double uy = (h[2].u - h[0].u) / d, vy = (h[2].v - h[0].v) / d;
    double det = ux * vy - uy * vx;
    if (!(fabs(det) > 1e-12))
        return false;
    /* the match's line, as fractions of the page's box (its leaf where the page has the book's
     * shape) */
    const float *r = m.rects[0];
    double line = (r[3] - r[1]) * sqrt(ux * ux + uy * uy) / fabs(det);
    if (!(line > 0.0))
        return false;
    double du = 0.5 * (r[0] + r[2]) - h[0].u, dv = 1.0 - 0.5 * (r[1] + r[3]) - h[0].v;
    *x = x0 + (vy * du - uy * dv) / det;
    *y = y0 + (-vx * du + ux * dv) / det;
    *factor = line < APP_SEARCH_READABLE_PX ? (float)(APP_SEARCH_READABLE_PX / line) : 1.0f;
    return isfinite(*x) && isfinite(*y);
}
