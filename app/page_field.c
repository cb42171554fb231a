/* SPDX-License-Identifier: MIT */
#include "page_field.h"

#include <stdio.h>
#include <string.h>

void app_page_field_open(AppPageField *f)
{
    *f = (AppPageField){.open = true, .match = -1};
}

void app_page_field_close(AppPageField *f)
{
    *f = (AppPageField){.match = -1};
}

/* Where what is typed leads: a page by label or number first, else the outline's first entry
 * from `from` on (round to the first) that holds it. */
static void resolve(AppPageField *f, const pagecurl_book *book, int from)
{
    f->page = pagecurl_book_find_page(book, f->typed);
    f->match = -1;
    if (f->page || !f->typed[0])
        return;
    int i = pagecurl_book_outline_find(book, f->typed, from);
    if (i < 0 && from > 0)
        i = pagecurl_book_outline_find(book, f->typed, 0);
    if (i >= 0) {
        f->match = i;
        f->page = pagecurl_book_outline_entry(book, i, NULL, 0, NULL);
    }
}

void app_page_field_type(AppPageField *f, const pagecurl_book *book, const char *utf8)
{
    size_t have = strlen(f->typed), add = strlen(utf8);
    while (add && have + add >= sizeof f->typed) { /* whole characters off the end */
        add--;
        while (add && ((unsigned char)utf8[add] & 0xc0) == 0x80)
            add--;
    }
    for (size_t i = 0; i < add; i++) /* a control character is no part of a page's name */
        if ((unsigned char)utf8[i] < 0x20 || utf8[i] == 0x7f)
            return;
    memcpy(f->typed + have, utf8, add);
    f->typed[have + add] = '\0';
    resolve(f, book, 0);
}

void app_page_field_erase(AppPageField *f, const pagecurl_book *book)
{
    size_t n = strlen(f->typed);
    while (n && ((unsigned char)f->typed[--n] & 0xc0) == 0x80)
        ;
    f->typed[n] = '\0';
    resolve(f, book, 0);
}

void app_page_field_next(AppPageField *f, const pagecurl_book *book)
{
    if (f->match >= 0)
        resolve(f, book, f->match + 1);
}

/* `in` as ASCII into out: every other character one '?'. */
static void ascii(const char *in, char *out, size_t size)
{
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && at + 1 < size; p++) {
        if (*p >= 0x80 && (*p & 0xc0) == 0x80)
            continue; /* a character's later bytes */
        out[at++] = *p < 0x80 ? (char)*p : '?';
    }
    if (size)
        out[at] = '\0';
}

void app_page_field_text(const AppPageField *f, const pagecurl_book *book, char *out, size_t size)
{
    char typed[APP_PAGE_FIELD_MAX], where[256 + 160];
    ascii(f->typed, typed, sizeof typed);
    if (!f->typed[0]) {
        snprintf(where, sizeof where, "a page number or label%s (Escape: close)",
                 pagecurl_book_outline_count(book) ? ", or part of a title" : "");
    } else if (!f->page) {
        snprintf(where, sizeof where, "no page or title holds it (%d pages)",
                 pagecurl_book_page_count(book));
    } else {
        char label[64], shown[64], title[256], full[256];
        pagecurl_book_page_label(book, f->page, label, sizeof label);
        ascii(label, shown, sizeof shown);
        char page[96];
        if (shown[0] && strcmp(shown, typed))
            snprintf(page, sizeof page, "page %s (%d / %d)", shown, f->page,
                     pagecurl_book_page_count(book));
        else
            snprintf(page, sizeof page, "page %d / %d", f->page, pagecurl_book_page_count(book));
        if (f->match >= 0) {
            pagecurl_book_outline_entry(book, f->match, full, sizeof full, NULL);
            ascii(full, title, sizeof title);
            snprintf(where, sizeof where, "%s, %s (Enter: go, Tab: next title)", title, page);
        } else {
            snprintf(where, sizeof where, "%s (Enter: go)", page);
        }
    }
    snprintf(out, size, "Go to: %s_\n%s", typed, where);
}
