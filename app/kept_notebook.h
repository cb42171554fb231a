/* SPDX-License-Identifier: MIT */
/* The window's notebook where the reader names none (--notebook FILE), so that no ink is lost for
 * want of an option: one a book, $XDG_DATA_HOME/pagecurl/notebooks/ID.json (else
 * ~/.local/share/pagecurl/notebooks/ID.json), ID the book's own identity
 * (pagecurl_book_identity.id, as the place kept is named: app/place.h), so that a moved copy
 * finds its ink. It is taken at the start where it exists (its ink back on the pages), else made
 * at the first stroke: a book never drawn on leaves no file. The first stroke says where the ink
 * is kept (or why it is not). A headless run, a replay and the built-in book (no identity) have
 * none. */
#ifndef PAGECURL_APP_KEPT_NOTEBOOK_H
#define PAGECURL_APP_KEPT_NOTEBOOK_H

#include "library_notebook.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct AppKeptNotebook {
    char path[4096]; /* "": none for this book */
    bool pending;    /* not taken yet: made at the first stroke */
    bool said;       /* the first stroke's line has been given */
    char why[512];   /* why the ink is not kept ("": it is) */
    char toast[160]; /* the line for the window to show once ("": none due) */
} AppKeptNotebook;

/* The folder: $XDG_DATA_HOME/pagecurl/notebooks where XDG_DATA_HOME is an absolute path, else
 * $HOME/.local/share/pagecurl/notebooks; false where neither is. */
bool app_kept_notebook_folder(char *out, size_t size);

/* The book's notebook found, and taken into `nb` where its file exists. A notebook that cannot be
 * taken (another pagecurl holds it, it is damaged) is said in one line on stderr and left as it
 * is: the run goes on and keeps no ink (the first stroke says so). A signal while it is read:
 * 128 + the signal; else 0. */
int app_kept_notebook_open(AppKeptNotebook *k, AppLibraryNotebook *nb, pagecurl_book *book);

/* The book's ink changed: at the first change the notebook is made where it is pending (the
 * strokes drawn so far saved into it) and k->toast says where the ink is kept, or why not. */
void app_kept_notebook_inked(AppKeptNotebook *k, AppLibraryNotebook *nb, pagecurl_book *book);

#endif
