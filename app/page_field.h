/* SPDX-License-Identifier: MIT */
/* The window's page field (G): what the reader types to go to a page, a page label or number
 * ("iv", "120": pagecurl_book_find_page) or else part of a title in the PDF's outline (the
 * first entry holding it; Tab the next). Below it, the book's contents: the outline's entries
 * that lead to a page (all of them while nothing is typed, those whose title holds what is typed
 * once something is), a few rows at a time, the one chosen marked; Up and Down choose, and Enter
 * goes to the one chosen. It opens on the entry of the reader's section. It says as it is typed
 * where Enter would go, and shows as lines of the HUD's panel. Owns only its text and the list of
 * entries shown. */
#ifndef PAGECURL_APP_PAGE_FIELD_H
#define PAGECURL_APP_PAGE_FIELD_H

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

/* The most bytes typed (a label is shorter, a title's part need not be longer). */
#define APP_PAGE_FIELD_MAX 64
/* The most outline entries listed: as many as a book's outline holds (pagecurl.h). */
#define APP_PAGE_FIELD_LIST 4096
/* The outline's entries shown at once (the one chosen among them). */
#define APP_PAGE_FIELD_ROWS 8
/* Room for the field's lines, their terminating zero included: what is typed, where Enter goes,
 * and the contents' rows, each cut to fit. */
#define APP_PAGE_FIELD_TEXT 1536

typedef struct AppPageField {
    bool open;
    char typed[APP_PAGE_FIELD_MAX]; /* UTF-8 */
    int match;  /* the outline entry chosen, -1: none (a page by number, or nothing) */
    int page;   /* where Enter goes, 1-based; 0: nowhere */
    int number; /* the page what is typed names by label or number, 0: none */
    int here;   /* the entry of the reader's section when the field opened, -1: none */
    int count;  /* entries listed */
    int listed[APP_PAGE_FIELD_LIST]; /* their indices in the outline: a word begun by what is
                                      * typed first, then the rest, each in the outline's order */
    /* by outline index: the entry's children are not listed (folded with Left) */
    bool folded[APP_PAGE_FIELD_LIST];
} AppPageField;

/* Opens it empty, the contents' entry of the section that holds `page` (1-based: the last entry
 * in the outline's order of those that lead furthest without passing it) chosen; where no entry
 * leads to `page` or before it, the first. */
void app_page_field_open(AppPageField *f, const pagecurl_book *book, int page);
void app_page_field_close(AppPageField *f);
/* `utf8` typed at the end (what does not fit is dropped, whole characters only). */
void app_page_field_type(AppPageField *f, const pagecurl_book *book, const char *utf8);
/* The last character typed taken back. */
void app_page_field_erase(AppPageField *f, const pagecurl_book *book);
/* The outline's next entry holding what is typed (after the one shown, round to the first). */
void app_page_field_next(AppPageField *f, const pagecurl_book *book);
/* Another entry of the list chosen: `rows` on (below 0: back), stopping at its ends; back from
 * the first where what is typed names a page, none (Enter goes to that page again). */
void app_page_field_move(AppPageField *f, const pagecurl_book *book, int rows);
/* The contents as a tree (nothing typed): with `open` false (Left) the entry chosen folds its
 * children away, or where it has none shown the entry it lies under is chosen; with `open` (Right)
 * a folded entry shows its children again, or an open one's first child is chosen. */
void app_page_field_fold(AppPageField *f, const pagecurl_book *book, bool open);
/* Line `line` of the field's text (app_page_field_text) clicked: where it is a row of the
 * contents, that entry chosen; whether it was one (Enter then goes to its page). */
bool app_page_field_click(AppPageField *f, const pagecurl_book *book, int line);
/* The field's lines for the HUD, ASCII ('?' for any other character): what is typed, where Enter
 * goes ("page 37 (xii)", "2.1 Sections, page 40", "no page or title ...") with the keys, then
 * the contents' rows around the one chosen ("> " marks it, "* " the reader's section), each
 * indented by its depth ("[+] " before a folded one's title) and ending with its page, and how
 * many more lie above and below. */
void app_page_field_text(const AppPageField *f, const pagecurl_book *book, char *out, size_t size);

#endif
