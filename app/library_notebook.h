/* SPDX-License-Identifier: MIT */
/* The notebook (app/notebook.h) of a libpagecurl book: bound to the book's identity
 * (pagecurl_book_identity_of), its strokes put into the book when it is taken
 * (pagecurl_book_add_stroke) and copied out of it for each save (pagecurl_book_get_stroke) into
 * a mirror of the book's ink, whose revision is the book's. */
#ifndef PAGECURL_APP_LIBRARY_NOTEBOOK_H
#define PAGECURL_APP_LIBRARY_NOTEBOOK_H

#include "notebook.h"
#include "trace.h"

#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct AppLibraryNotebook {
    AppNotebook notebook;
    /* what the notebook's book names point into, for as long as it is held (the writer's saves
     * read them): the book does not move */
    pagecurl_book_identity identity;
    MeshInk mirror; /* the book's strokes as last copied out */
    bool mirrored;
    uint64_t opened; /* the digest of the ink it held when taken (app_notebook_digest) */
    uint64_t taken;  /* the book's ink revision then: the run's end speaks of strokes it changed */
} AppLibraryNotebook;

/* app_notebook_open of `path` (NULL: no notebook, nothing to do) for `book`, its strokes put
 * into the book. 0, or the exit status with the one line in message (as app_notebook_open's);
 * a signal that ends the run gives the reading up: 128 + the signal, and no line (the run's end
 * says it was stopped). */
int app_library_notebook_open(AppLibraryNotebook *nb, const char *path, pagecurl_book *book,
                              char *message, size_t size);
/* 0 where `replay` (read from `replay_path`) may be replayed onto the notebook (`path`, taken;
 * NULL: none), else 2 with the one line in message: a trace recorded on a notebook that draws
 * (app_trace_inks) is replayed only onto a notebook holding the ink that one held, since it adds
 * its strokes to what the notebook holds (onto its own notebook, a second time). */
int app_library_notebook_replayable(const AppLibraryNotebook *nb, const char *path,
                                    const AppTrace *replay, const char *replay_path, char *message,
                                    size_t size);
/* app_notebook_keep of the book's strokes as they are now, copied out where its ink moved since
 * the last copy. */
bool app_library_notebook_keep(AppLibraryNotebook *nb, const pagecurl_book *book, bool final);
/* Whether the last save holds the book's ink as it is: then something was written. */
bool app_library_notebook_wrote_all(const AppLibraryNotebook *nb, const pagecurl_book *book);
void app_library_notebook_close(AppLibraryNotebook *nb);
/* A run's end, whatever ended it (a failed output, a lost device, a signal): the book's ink kept
 * (said with `path`, the notebook's name, where all of it is written), the notebook closed, then
 * the book destroyed (book may be NULL). Returns `status`, or 1 for a 0 whose ink could not be
 * kept. */
int app_library_notebook_end(AppLibraryNotebook *nb, pagecurl_book *book, const char *path,
                             int status);

#endif
