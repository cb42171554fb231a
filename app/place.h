/* SPDX-License-Identifier: MIT */
/* The reader's place in each book, kept between the window's runs so that a book reopens where it
 * was left. A small file per book in the XDG state folder ($XDG_STATE_HOME/pagecurl/places/, else
 * ~/.local/state/pagecurl/places/; never beside the book), named by the book's own identity
 * (pagecurl_book_identity.id: a PDF's /ID, else a digest of its bytes, or of a folder's pages,
 * each with the page count): a moved or copied book keeps its place, and another book put at
 * the same path (another identity) does not take it. The file says the page, in two lines, and
 * where the view was zoomed in, how, in a third: fitted to the width of page 38, its top 0.42 of
 * the page's height down it; or zoomed 2.5 times, panned by fractions of the window; and for a
 * reflowable book (an EPUB, an FB2 book: its identity's text_id, the same whatever the layout), its
 * place in the text (pagecurl_book_text_place), with which another layout finds the page again:
 *     pagecurl-place 1
 *     page 37
 *     view width 38 0.42          (or: view zoom 2.5 0.1 -0.25)
 *     text t1 3 12 4567
 * It is written whole under a temporary name and renamed into place (files/safe_write.h), not
 * synced to the disk (a crash may lose the latest place, never leave half of one); at most
 * APP_PLACE_BOOKS are kept: a new one removes the least recently written beyond that. A file that
 * is not one of these (longer, another form, a page the book lacks, a folder, a FIFO, a link) is
 * no place: the book opens at its start, and the next write replaces it. Touches no SDL. */
#ifndef PAGECURL_APP_PLACE_H
#define PAGECURL_APP_PLACE_H

#include <stdbool.h>
#include <stddef.h>

/* The most books whose place is kept. */
#define APP_PLACE_BOOKS 1000
/* The most bytes a place's file holds (the longest page, view and text with room to spare). */
#define APP_PLACE_MAX_BYTES 224
/* The most bytes of a place in the text, its NUL included (PAGECURL_TEXT_PLACE_MAX), and the
 * longest book whose page a place with one may name (another layout's). */
#define APP_PLACE_TEXT_MAX   48
#define APP_PLACE_TEXT_PAGES 1000000

/* How the view was zoomed in at the place, kept with it. */
typedef enum AppPlaceFit {
    APP_PLACE_FITTED = 0, /* the fitted view: nothing kept */
    APP_PLACE_WIDTH,      /* fitted to the width of `page`, its top `down` it */
    APP_PLACE_ZOOM,       /* zoomed `zoom` times, the pan (x, y) in fractions of the window */
} AppPlaceFit;
typedef struct AppPlaceView {
    AppPlaceFit fit;
    int page;
    float down, zoom, x, y;
} AppPlaceView;

typedef struct AppPlace {
    char path[4096];              /* the book's file; "": no place is kept */
    int pages;                    /* the book's length */
    int read;                     /* the page its file held when opened, 0: none */
    int at;                       /* the reader's page now (the window sets it), 0: none yet */
    int saved;                    /* the page the file holds, as last read or written; 0: none */
    AppPlaceView read_view, view; /* as opened, and now (the window sets it) */
    /* the place in the text as opened ("": none; then `read` may be another layout's page, out
     * of this one), and of `at` now where known (the window sets it; "" writes none) */
    char read_text[APP_PLACE_TEXT_MAX], text[APP_PLACE_TEXT_MAX];
    bool failed; /* a write failed (the caller says so once): no more are tried */
} AppPlace;

/* The folder the places are kept in: $XDG_STATE_HOME/pagecurl/places where XDG_STATE_HOME is an
 * absolute path, else $HOME/.local/state/pagecurl/places; false where neither is (no place is
 * kept then). */
bool app_place_folder(char *out, size_t size);

/* The place of the book whose identity is `id` (pagecurl_book_identity.id, or text_id for a
 * reflowable book), `pages` long: p->read from its file where one is kept (0 where its page is
 * past the end: another layout's), p->read_text its place in the text where it says one. A book
 * without an identity (the built-in book), an identity that cannot name a file, or no state folder
 * keeps none (p->path ""). */
void app_place_open(AppPlace *p, const char *id, int pages);

/* Keeps p->at (and p->view): written where the page differs from what the file holds, and at the
 * run's end (`final`), which makes the book the most recently read. False where a write failed,
 * with the one line in `message`; no later call writes. */
bool app_place_keep(AppPlace *p, bool final, char *message, size_t size);

/* Whether `name` (a book's identity) may name a file: letters, digits, '-', '_' and '.', not
 * hidden, at most 127 bytes. */
bool app_place_id_name(const char *name);
/* `path`'s folders made where missing (0700, as the XDG specification asks), from the root down;
 * whether it is a folder now. */
bool app_place_make_folders(const char *path);

#endif
