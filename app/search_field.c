/* SPDX-License-Identifier: MIT */
#include "search_field.h"

#include <stdio.h>
#include <string.h>

void app_search_field_open(AppSearchField *f)
{
    f->open = true;
}

void app_search_field_close(AppSearchField *f)
{
    f->open = false;
}

static void search(AppSearchField *f, pagecurl_book *book)
{
    f->current = -1;
    f->pending = 0;
    pagecurl_book_search(book, f->typed);
}

void app_search_field_type(AppSearchField *f, pagecurl_book *book, const char *utf8)
{
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
    do /* back over a UTF-8 character's continuation bytes */
        n--;
    while (n && ((unsigned char)f->typed[n] & 0xc0) == 0x80);
    f->typed[n] = '\0';
    search(f, book);
}

int app_search_field_step(AppSearchField *f, const pagecurl_book *book, bool forward)
{
    int k = pagecurl_book_search_next(book, forward);
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
        snprintf(count, sizeof count, "not found");
    else if (f->current >= 0)
        snprintf(count, sizeof count, "%d of %d%s", f->current + 1, s.matches,
                 s.done ? "" : " ... counting");
    else
        snprintf(count, sizeof count, "%d found%s", s.matches, s.done ? "" : ", counting ...");
    snprintf(out, size, "find: %s_   %s", typed, count);
}
