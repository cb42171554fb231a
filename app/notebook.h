/* Notebooks: a book's ink (mesh/ink.h) as a JSON file, read with cJSON and written through
 * app/output.c's temporary file + rename, so a failed save never damages the notebook on disk.
 * Loading checks everything (format, page numbers, coordinates, widths) and names the first
 * problem in one line; a file that does not exist yet is an empty notebook. Format:
 *     {"format": "pagecurl-notebook", "version": 1,
 *      "pages": [{"page": 1, "strokes": [[[u, v, width], [u, v, width], ...], ...]}, ...]}
 * page: 1-based book page (leaf k's front is 2k + 1, its back 2k + 2); u, v in 0..1 (mesh/ink.h:
 * the side seen face up, v up from its bottom edge); width in page widths, within
 * MESH_INK_MIN_WIDTH .. MESH_INK_MAX_WIDTH. Pages may come in any order, each at most once. */
#ifndef PAGECURL_APP_NOTEBOOK_H
#define PAGECURL_APP_NOTEBOOK_H

#include "../mesh/ink.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APP_NOTEBOOK_FORMAT  "pagecurl-notebook"
#define APP_NOTEBOOK_VERSION 1

/* The book a notebook belongs to, written as "book": {"path": PATH, "pages": N} beside "pages"
 * (absent for the built-in book, as in every notebook before books of one's own). A notebook of
 * another book is refused. */
typedef struct AppNotebookBook {
    const char *path; /* absolute; "" for the built-in book */
    int pages;
} AppNotebookBook;
#define APP_NOTEBOOK_BUILTIN ((AppNotebookBook){"", 0})

/* As app_notebook_parse and app_notebook_save, for the notebook of `book`. */
bool app_notebook_parse_for(const char *text, size_t len, const char *name, AppNotebookBook book,
                            MeshInk *ink, char *message, size_t size);
bool app_notebook_save_for(const char *path, AppNotebookBook book, const MeshInk *ink,
                           char *message, size_t size);

/* `len` bytes of JSON into `ink`, which the caller has initialised with the book's page count
 * (strokes are added to it; on failure it is left empty). False with "NAME: reason" in message.
 * Any bytes are safe (the fuzzer's door). The built-in book's notebook. */
bool app_notebook_parse(const char *text, size_t len, const char *name, MeshInk *ink, char *message,
                        size_t size);
/* The file into `ink` (initialised by the caller); a missing file leaves it empty and succeeds.
 * False with "--notebook FILE: reason" in message. */
bool app_notebook_load(const char *path, MeshInk *ink, char *message, size_t size);
bool app_notebook_load_for(const char *path, AppNotebookBook book, MeshInk *ink, char *message,
                           size_t size);
/* Written under a temporary name, synced to disk and renamed into place (app/safe_write.h). */
bool app_notebook_save(const char *path, const MeshInk *ink, char *message, size_t size);

/* A notebook held for writing by this process: a lock file TARGET.lock beside it (flock, with
 * the holder's PID in it, removed on close) keeps a second pagecurl from writing it too, and the
 * ink is saved as it is made, so a crash or a failure elsewhere loses at most the stroke being
 * drawn. */
typedef struct AppNotebook {
    const char *path; /* as given; NULL: no notebook */
    AppNotebookBook book;
    char *lock_path; /* TARGET.lock */
    int lock_fd;     /* -1 when not held */
    uint64_t saved;  /* the ink's revision on disk */
    uint64_t tried;  /* the revision whose save last failed */
    bool said;       /* a failed save has been reported (once a run) */
    bool wrote;      /* something was saved */
} AppNotebook;

/* Takes `path` (NULL: no notebook, nothing to do) for writing and loads it into `ink`. 0, or the
 * exit status with the one line in message: 1 when another process holds it or its folder cannot
 * be written, 2 when it is not a notebook. */
int app_notebook_open(AppNotebook *nb, const char *path, AppNotebookBook book, MeshInk *ink,
                      char *message, size_t size);
/* Saves `ink` when it changed since the last save and no stroke is being drawn (with `final`,
 * whatever is being drawn). A failure is said once a run on stderr; false while the notebook on
 * disk is behind because a save failed. */
bool app_notebook_keep(AppNotebook *nb, const MeshInk *ink, bool final);
/* Lets the notebook go (the lock file removed). */
void app_notebook_close(AppNotebook *nb);

#endif
