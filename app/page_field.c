#include "page_field.h"

#include "../pages/page_labels.h"

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
static void resolve(AppPageField *f, const AppBookSource *src, int from)
{
    f->page = app_book_source_find_page(src, f->typed);
    f->match = -1;
    if (f->page || !f->typed[0])
        return;
    int i = app_book_source_outline_find(src, f->typed, from);
    if (i < 0 && from > 0)
        i = app_book_source_outline_find(src, f->typed, 0);
    if (i >= 0) {
        f->match = i;
        f->page = app_book_source_outline(src, i)->page + 1;
    }
}

void app_page_field_type(AppPageField *f, const AppBookSource *src, const char *utf8)
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
    resolve(f, src, 0);
}

void app_page_field_erase(AppPageField *f, const AppBookSource *src)
{
    size_t n = strlen(f->typed);
    while (n && ((unsigned char)f->typed[--n] & 0xc0) == 0x80)
        ;
    f->typed[n] = '\0';
    resolve(f, src, 0);
}

void app_page_field_next(AppPageField *f, const AppBookSource *src)
{
    if (f->match >= 0)
        resolve(f, src, f->match + 1);
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

void app_page_field_text(const AppPageField *f, const AppBookSource *src, char *out, size_t size)
{
    char typed[APP_PAGE_FIELD_MAX], where[APP_OUTLINE_TITLE_MAX + 160];
    ascii(f->typed, typed, sizeof typed);
    if (!f->typed[0]) {
        snprintf(where, sizeof where, "a page number or label%s (Escape: close)",
                 app_book_source_outline_count(src) ? ", or part of a title" : "");
    } else if (!f->page) {
        snprintf(where, sizeof where, "no page or title holds it (%d pages)",
                 app_book_source_pages(src));
    } else {
        char label[APP_PAGE_LABEL_MAX], shown[APP_PAGE_LABEL_MAX], title[APP_OUTLINE_TITLE_MAX];
        app_book_source_page_label(src, f->page - 1, label, sizeof label);
        ascii(label, shown, sizeof shown);
        char page[96];
        if (shown[0] && strcmp(shown, typed))
            snprintf(page, sizeof page, "page %s (%d / %d)", shown, f->page,
                     app_book_source_pages(src));
        else
            snprintf(page, sizeof page, "page %d / %d", f->page, app_book_source_pages(src));
        if (f->match >= 0) {
            ascii(app_book_source_outline(src, f->match)->title, title, sizeof title);
            snprintf(where, sizeof where, "%s, %s (Enter: go, Tab: next title)", title, page);
        } else {
            snprintf(where, sizeof where, "%s (Enter: go)", page);
        }
    }
    snprintf(out, size, "Go to: %s_\n%s", typed, where);
}
