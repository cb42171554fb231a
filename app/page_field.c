/* SPDX-License-Identifier: MIT */
#include "page_field.h"

#include "ascii.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A title's characters shown in a row of the contents: a longer one ends in "...". */
#define FIELD_TITLE_SHOWN 56
/* A page's label's characters shown in a row (labels are short; a hostile one is not). */
#define FIELD_LABEL_SHOWN 16
/* The deepest indent a row shows (two spaces a level): a deeper entry is indented as this. */
#define FIELD_DEPTH_SHOWN 6

/* The page entry `i` leads to, 0 for none. */
static int entry_page(const pagecurl_book *book, int i)
{
    int page = pagecurl_book_outline_entry(book, i, NULL, 0, NULL);
    return page > 0 ? page : 0;
}

/* The entry of the section that holds `page`: the last in the outline's order of those leading
 * furthest without passing it; -1 where none leads to it or before it. */
static int section_of(const pagecurl_book *book, int page)
{
    int best = -1, best_page = 0, n = pagecurl_book_outline_count(book);
    for (int i = 0; i < n; i++) {
        int p = entry_page(book, i);
        if (p >= 1 && p <= page && p >= best_page)
            best = i, best_page = p;
    }
    return best;
}

/* Entry `i`'s depth in the outline (0 at the top), -1 for no such entry. */
static int entry_depth(const pagecurl_book *book, int i)
{
    int depth = 0;
    if (i < 0 || i >= pagecurl_book_outline_count(book))
        return -1;
    pagecurl_book_outline_entry(book, i, NULL, 0, &depth);
    return depth < 0 ? 0 : depth;
}

/* Whether entry `i` has children: the entry after it lies deeper. */
static bool has_children(const pagecurl_book *book, int i)
{
    int d = entry_depth(book, i);
    return d >= 0 && entry_depth(book, i + 1) > d;
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether entry `i`'s title holds `typed` (ASCII letters in either case, as
 * pagecurl_book_outline_find matches) where a word begins: at its start or after a character
 * that is not an ASCII letter or digit (a byte of a UTF-8 character counts as a letter). */
static bool begins_word(const pagecurl_book *book, int i, const char *typed)
{
    char title[256];
    if (pagecurl_book_outline_entry(book, i, title, sizeof title, NULL) < 0)
        return false;
    size_t n = strlen(typed);
    for (size_t at = 0; title[at]; at++) {
        unsigned char before = at ? (unsigned char)title[at - 1] : ' ';
        bool word = before < 0x80 && !(before >= '0' && before <= '9') &&
                    !(lower((char)before) >= 'a' && lower((char)before) <= 'z');
        size_t k = 0;
        while (word && k < n && title[at + k] && lower(title[at + k]) == lower(typed[k]))
            k++;
        if (word && k == n)
            return true;
    }
    return false;
}

/* The entries the contents lists: those leading to a page whose title holds what is typed (all of
 * them with nothing typed, but for the children of a folded one). */
static void list(AppPageField *f, const pagecurl_book *book)
{
    f->count = 0;
    if (!f->typed[0]) {
        int n = pagecurl_book_outline_count(book), hidden = -1; /* below a folded entry's depth */
        for (int i = 0; i < n && f->count < APP_PAGE_FIELD_LIST; i++) {
            int depth = entry_depth(book, i);
            if (hidden >= 0 && depth > hidden)
                continue;
            hidden = f->folded[i] && has_children(book, i) ? depth : -1;
            if (entry_page(book, i))
                f->listed[f->count++] = i;
        }
        return;
    }
    /* titles where what is typed begins a word first ("iv" lists "IV. Results" before "Driver
     * program"), each group in the outline's order */
    for (int pass = 0; pass < 2; pass++)
        for (int i = pagecurl_book_outline_find(book, f->typed, 0);
             i >= 0 && f->count < APP_PAGE_FIELD_LIST;
             i = pagecurl_book_outline_find(book, f->typed, i + 1))
            if (begins_word(book, i, f->typed) == (pass == 0))
                f->listed[f->count++] = i;
}

/* Entry `match` chosen (-1: none): Enter goes to its page, or without one to the page typed. */
static void choose(AppPageField *f, const pagecurl_book *book, int match)
{
    f->match = match;
    f->page = match >= 0 ? entry_page(book, match) : f->number;
}

/* Where the entry chosen lies in the list; -1 where none is. */
static int position(const AppPageField *f)
{
    for (int k = 0; k < f->count; k++)
        if (f->listed[k] == f->match)
            return k;
    return -1;
}

/* Where what is typed leads: a page by label or number first, else the first entry listed; with
 * nothing typed, the reader's section (else the first entry). */
static void resolve(AppPageField *f, const pagecurl_book *book)
{
    list(f, book);
    f->number = f->typed[0] ? pagecurl_book_find_page(book, f->typed) : 0;
    if (!f->typed[0] && f->here >= 0)
        choose(f, book, f->here);
    else
        choose(f, book, !f->number && f->count ? f->listed[0] : -1);
}

void app_page_field_open(AppPageField *f, const pagecurl_book *book, int page)
{
    f->open = true;
    memset(f->folded, 0, sizeof f->folded);
    f->typed[0] = '\0';
    f->here = section_of(book, page);
    resolve(f, book);
}

void app_page_field_close(AppPageField *f)
{
    f->open = false;
    f->typed[0] = '\0';
    f->match = f->here = -1;
    f->page = f->number = f->count = 0;
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
    resolve(f, book);
}

void app_page_field_erase(AppPageField *f, const pagecurl_book *book)
{
    size_t n = strlen(f->typed);
    while (n && ((unsigned char)f->typed[--n] & 0xc0) == 0x80)
        ;
    f->typed[n] = '\0';
    resolve(f, book);
}

void app_page_field_next(AppPageField *f, const pagecurl_book *book)
{
    int at = position(f);
    if (at >= 0)
        choose(f, book, f->listed[(at + 1) % f->count]);
}

void app_page_field_move(AppPageField *f, const pagecurl_book *book, int rows)
{
    if (!f->count || !rows)
        return;
    int at = position(f);
    int to = at < 0 ? (rows > 0 ? rows - 1 : -1) : at + rows;
    if (to >= f->count)
        to = f->count - 1;
    if (to < 0 && !f->number)
        to = 0; /* nothing typed names a page: the first entry stays chosen */
    choose(f, book, to >= 0 ? f->listed[to] : -1);
}

void app_page_field_fold(AppPageField *f, const pagecurl_book *book, bool open)
{
    int i = f->match;
    if (f->typed[0] || i < 0 || i >= APP_PAGE_FIELD_LIST)
        return;
    bool children = has_children(book, i);
    if (open && f->folded[i]) {
        f->folded[i] = false;
        list(f, book);
    } else if (open && children) { /* its first child listed */
        int at = position(f);
        if (at >= 0 && at + 1 < f->count &&
            entry_depth(book, f->listed[at + 1]) > entry_depth(book, i))
            choose(f, book, f->listed[at + 1]);
    } else if (!open && children && !f->folded[i]) {
        f->folded[i] = true;
        list(f, book);
    } else if (!open) { /* the entry it lies under, where that is listed */
        int depth = entry_depth(book, i);
        for (int at = position(f) - 1; at >= 0; at--)
            if (entry_depth(book, f->listed[at]) < depth) {
                choose(f, book, f->listed[at]);
                break;
            }
    }
}

/* `in` as ASCII, at most `most` characters: a longer one cut, ending in "...". */
static void shown(const char *in, size_t most, char *out, size_t size)
{
    char all[256];
    app_ascii(in, all, sizeof all);
    if (strlen(all) > most && most > 3)
        snprintf(out, size, "%.*s...", (int)(most - 3), all);
    else
        snprintf(out, size, "%s", all);
}

/* The list's entries shown as rows: first .. last - 1, around the entry chosen (from the first
 * where none is). */
static void shown_rows(const AppPageField *f, int *first, int *last)
{
    int from = position(f) - APP_PAGE_FIELD_ROWS / 2;
    if (from > f->count - APP_PAGE_FIELD_ROWS)
        from = f->count - APP_PAGE_FIELD_ROWS;
    *first = from > 0 ? from : 0;
    *last = *first + APP_PAGE_FIELD_ROWS < f->count ? *first + APP_PAGE_FIELD_ROWS : f->count;
}

bool app_page_field_click(AppPageField *f, const pagecurl_book *book, int line)
{
    int first, last;
    shown_rows(f, &first, &last);
    /* the text's lines: what is typed, where Enter goes, "(N more above)" where rows are, then
     * the rows (app_page_field_text) */
    int k = first + line - 2 - (first > 0);
    if (line < 2 || k < first || k >= last)
        return false;
    choose(f, book, f->listed[k]);
    return true;
}

/* The contents' rows around the entry chosen (or from the first, where none is) onto `out`, one a
 * line, with how many more lie above and below. */
static void rows(const AppPageField *f, const pagecurl_book *book, char *out, size_t size)
{
    size_t at = strlen(out);
    int first, last;
    shown_rows(f, &first, &last);
    if (first > 0 && at < size)
        at += (size_t)snprintf(out + at, size - at, "\n    (%d more above)", first);
    for (int k = first; k < last && at < size; k++) {
        int i = f->listed[k], depth = 0;
        char full[256], title[FIELD_TITLE_SHOWN + 1], label[APP_PAGE_FIELD_MAX], name[32];
        int page = pagecurl_book_outline_entry(book, i, full, sizeof full, &depth);
        shown(full, FIELD_TITLE_SHOWN, title, sizeof title);
        pagecurl_book_page_label(book, page, label, sizeof label);
        shown(label, FIELD_LABEL_SHOWN, name, sizeof name);
        if (strspn(name, " ") == strlen(name)) /* no label, or a blank one: its number */
            snprintf(name, sizeof name, "%d", page);
        depth = depth < 0 ? 0 : depth > FIELD_DEPTH_SHOWN ? FIELD_DEPTH_SHOWN : depth;
        bool folded = !f->typed[0] && f->folded[i] && has_children(book, i);
        at += (size_t)snprintf(out + at, size - at, "\n%s%*s%s%s  %s",
                               i == f->match  ? "> "
                               : i == f->here ? "* "
                                              : "  ",
                               2 * depth, "", folded ? "[+] " : "", title, name);
    }
    if (last < f->count && at < size)
        snprintf(out + at, size - at, "\n    (%d more below)", f->count - last);
}

void app_page_field_text(const AppPageField *f, const pagecurl_book *book, char *out, size_t size)
{
    char typed[APP_PAGE_FIELD_MAX], where[512];
    app_ascii(f->typed, typed, sizeof typed);
    if (!f->typed[0] && !f->count) {
        snprintf(where, sizeof where, "a page number or label%s (Escape: close)",
                 pagecurl_book_outline_count(book) ? ", or part of a title"
                                                   : "; this book has no contents");
    } else if (!f->page) {
        snprintf(where, sizeof where, "no page or title holds it (%d pages)",
                 pagecurl_book_page_count(book));
    } else {
        char label[64], name[64];
        pagecurl_book_page_label(book, f->page, label, sizeof label);
        app_ascii(label, name, sizeof name);
        char page[96];
        if (name[0] && strcmp(name, typed))
            snprintf(page, sizeof page, "page %s (%d / %d)", name, f->page,
                     pagecurl_book_page_count(book));
        else
            snprintf(page, sizeof page, "page %d / %d", f->page, pagecurl_book_page_count(book));
        if (f->match >= 0) {
            char full[256], title[256];
            pagecurl_book_outline_entry(book, f->match, full, sizeof full, NULL);
            app_ascii(full, title, sizeof title);
            snprintf(where, sizeof where, "%s, %s (Enter: go, %s)", title, page,
                     f->typed[0] ? "Tab: next title, Up/Down: choose"
                                 : "Up/Down: choose, Left/Right: fold, or type a page or part of "
                                   "a title");
        } else {
            snprintf(where, sizeof where, "%s (Enter: go%s)", page,
                     f->count ? ", Down: the titles holding it" : "");
        }
    }
    snprintf(out, size, "Go to: %s_\n%s", typed, where);
    rows(f, book, out, size);
}
