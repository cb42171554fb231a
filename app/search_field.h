/* SPDX-License-Identifier: MIT */
/* The window's search field (/ or Ctrl+F): what the reader types is searched for in the book's
 * text as it is typed (pagecurl_book_search: counted in the background, a new letter dropping the
 * count of the last); Enter goes to the next match (from the one shown, else after the spread
 * open, round the book), Shift+Enter to the previous; it says "3 of 41" (the match gone to, of all)
 * once the whole book is counted, "3 of ..." while it counts. Shown as a line of the HUD's panel,
 * as the page field (app/page_field.h) is. Owns only its text. */
#ifndef PAGECURL_APP_SEARCH_FIELD_H
#define PAGECURL_APP_SEARCH_FIELD_H

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

/* The most bytes typed: the library's longest query. */
#define APP_SEARCH_FIELD_MAX 256

typedef struct AppSearchField {
    bool open;
    char typed[APP_SEARCH_FIELD_MAX + 1]; /* UTF-8 */
    int current;                          /* the match gone to (0-based), -1: none yet */
    int pending;   /* an Enter before any match was found: +1 next, -1 previous, 0 none */
    bool selected; /* reopened on the last search: what is typed replaces it, Backspace erases it */
} AppSearchField;

/* Opens it with what was searched for last, selected (shown in brackets): Enter searches it
 * again, what is typed replaces it, Backspace erases it whole, as a browser's find bar. */
void app_search_field_open(AppSearchField *f);
/* Closed; the book's search (and its highlight) stays for n and N. */
void app_search_field_close(AppSearchField *f);
/* `utf8` typed at the end (what does not fit is dropped, whole characters only), searched. */
void app_search_field_type(AppSearchField *f, pagecurl_book *book, const char *utf8);
/* The last character typed taken back, searched. */
void app_search_field_erase(AppSearchField *f, pagecurl_book *book);
/* The next (`forward`) or previous match: after the one gone to while its page is still shown,
 * else the first after (before) the spread open, round the book; its page (1-based), remembered
 * as the one gone to; 0 for none found (yet). */
int app_search_field_step(AppSearchField *f, const pagecurl_book *book, bool forward);
/* An Enter that found no match while the count went on is taken once a match is found: its page
 * (1-based), or 0 while there is none (given up once the count is done). Each frame. */
int app_search_field_pending(AppSearchField *f, const pagecurl_book *book);
/* The field's line for the HUD, ASCII ('?' for any other character): "find: TEXT_  3 of 41"
 * ("not found", and where pages could not be read, that they could not)
 * ("find: [TEXT]_" while selected),
 * "... counting", "not found", or "no text in this book". */
void app_search_field_text(const AppSearchField *f, const pagecurl_book *book, char *out,
                           size_t size);

/* The height (target pixels) a match's line is enlarged to where it shows smaller: a line of text
 * about this tall reads on a screen. */
#define APP_SEARCH_READABLE_PX 14.0f
/* Where the match gone to (f->current) lies on the book as last shown at rest in a `width` x
 * `height` viewport: target pixel (*x, *y), its middle, which may lie outside the viewport (a
 * zoomed view's other part of the page), and the zoom's factor that makes its line
 * APP_SEARCH_READABLE_PX tall (1 where it reads already). Measured through pagecurl_book_hit
 * (three points near the match's page: the flat page's scale and place); false where its page is
 * under none of the viewport's middle points (not in view, or a zoomed view of another page). */
bool app_search_field_place(const AppSearchField *f, const pagecurl_book *book, uint32_t width,
                            uint32_t height, float *factor, double *x, double *y);

#endif
