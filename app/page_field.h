/* SPDX-License-Identifier: MIT */
/* The window's page field (G): what the reader types to go to a page, a page label or number
 * ("iv", "120": pagecurl_book_find_page) or else part of a title in the PDF's outline (the
 * first entry holding it; Tab the next). It says as it is typed where Enter would go, and shows
 * as two lines of the HUD's panel. Owns only its text. */
#ifndef PAGECURL_APP_PAGE_FIELD_H
#define PAGECURL_APP_PAGE_FIELD_H

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

/* The most bytes typed (a label is shorter, a title's part need not be longer). */
#define APP_PAGE_FIELD_MAX 64
/* Room for the field's two lines, their terminating zero included. */
#define APP_PAGE_FIELD_TEXT 240

typedef struct AppPageField {
    bool open;
    char typed[APP_PAGE_FIELD_MAX]; /* UTF-8 */
    int match;                      /* the outline entry found, -1: none (or a page by number) */
    int page;                       /* where Enter goes, 1-based; 0: nowhere */
} AppPageField;

/* Opens it empty. */
void app_page_field_open(AppPageField *f);
void app_page_field_close(AppPageField *f);
/* `utf8` typed at the end (what does not fit is dropped, whole characters only). */
void app_page_field_type(AppPageField *f, const pagecurl_book *book, const char *utf8);
/* The last character typed taken back. */
void app_page_field_erase(AppPageField *f, const pagecurl_book *book);
/* The outline's next entry holding what is typed (after the one shown, round to the first). */
void app_page_field_next(AppPageField *f, const pagecurl_book *book);
/* The field's two lines for the HUD, ASCII ('?' for any other character): what is typed, and
 * where Enter goes ("page 37 (xii)", "2.1 Sections, page 40", "no page or title ...") with the
 * keys. */
void app_page_field_text(const AppPageField *f, const pagecurl_book *book, char *out, size_t size);

#endif
