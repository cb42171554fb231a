/* SPDX-License-Identifier: MIT */
/* Notebooks: a book's ink (mesh/ink.h) as a JSON file, read with cJSON and written through
 * files/safe_write.c's temporary file + rename, so a failed save never damages the notebook on
 * disk. Loading checks everything (format, page numbers, coordinates, widths, no key given twice)
 * and names the first problem in one line; a file that does not exist yet is an empty notebook.
 * Format:
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

/* The book a notebook belongs to, written as "book": {"path": PATH, "pages": N, "id": ID} beside
 * "pages" (absent for the built-in book; "id" absent for a book without one). A notebook is its
 * book's when both have ids and they agree, wherever the book now lies (a copy, a moved book: the
 * path is rewritten at the next save); without an id on either side, when path and page count
 * agree. Another book's notebook, or one of a book changed since, is refused, naming the book. */
typedef struct AppNotebookBook {
    const char *path; /* absolute; "" for the built-in book */
    int pages;
    const char *id; /* pages/book_source.h pages_book_source_id; NULL or "" for none */
} AppNotebookBook;
#define APP_NOTEBOOK_BUILTIN ((AppNotebookBook){"", 0, NULL})

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
/* Written under a temporary name, synced to disk and renamed into place (files/safe_write.h). */
bool app_notebook_save(const char *path, const MeshInk *ink, char *message, size_t size);
/* A 64-bit digest of the strokes `ink` holds (their pages, order and points, bit for bit): a trace
 * recorded on a notebook names its ink so, and a replay onto other ink is refused. */
uint64_t app_notebook_digest(const MeshInk *ink);

/* A notebook held for writing by this process. The file itself is locked (flock on its inode,
 * so no other name for it, a hard link or a symlink, gets around the lock), and each save hands
 * the lock to the file that replaces it, locked before it takes the name; a killed run leaves no
 * lock behind. A notebook that does not exist yet is created empty when it is taken (and removed
 * again if nothing is saved to it), so a second pagecurl finds it locked. The ink is saved as it
 * is made, on a writer thread of the notebook's own: the frame thread hands it a copy of the ink
 * when a stroke ends (the latest copy replaces one not yet begun) and never waits for the disk;
 * each save is synced before the next is begun. */
typedef struct AppNotebookWriter AppNotebookWriter;
typedef struct AppNotebook {
    const char *path; /* as given; NULL: no notebook */
    AppNotebookBook book;
    int lock_fd;               /* the notebook's file, locked; -1 when not held */
    AppNotebookWriter *writer; /* NULL: saves run on the caller's thread */
    uint64_t queued;           /* the ink's revision last handed to a save */
    uint64_t saved;            /* the ink's revision on disk */
    bool created;              /* made empty by app_notebook_open */
    bool said;                 /* a failed save has been reported (once a run) */
    bool failed;               /* a save failed: the run ends in failure */
    bool wrote;                /* something was saved */
    /* The page the reader has open (1-based; 0: none), read at open where the notebook says
     * ("at": N) and set by the window as the reader moves: saved with the ink, and at the end
     * where it changed and the notebook holds more than it (a notebook this run made with no
     * ink still goes). */
    int at;
    int at_saved; /* the place the last save handed over held */
} AppNotebook;

/* Asked while a notebook is read (between its pages, and every few hundred strokes): true gives
 * the reading up (a signal that ends the run), so that a notebook of any size within the limits
 * holds up a run's end no longer than a moment. */
typedef bool (*AppNotebookStop)(void);
/* app_notebook_open's status when `stop` gave the reading up: nothing was loaded and the notebook
 * is let go (no line to say: the run's end says why). */
#define APP_NOTEBOOK_STOPPED (-1)

/* Takes `path` (NULL: no notebook, nothing to do) for writing and loads it into `ink`, removing
 * the temporary files killed runs left beside it; `stop` (NULL: never) is asked as it is read.
 * 0, or the exit status with the one line in message: 1 when another process holds it, it
 * cannot be written (its mode, its folder, a read-only file system), it is not a regular file (a
 * folder, a device, a FIFO) or has more than one name (a hard link: a save by rename would part
 * them), 2 when it is not a notebook; or APP_NOTEBOOK_STOPPED. */
int app_notebook_open(AppNotebook *nb, const char *path, AppNotebookBook book, MeshInk *ink,
                      AppNotebookStop stop, char *message, size_t size);
/* Hands `ink` to the writer when it changed since the last save and no stroke is being drawn;
 * says a failed save (once a run) on stderr. With `final`, waits for every save under way and
 * saves whatever is left, a stroke being drawn included. False once any save has failed. */
bool app_notebook_keep(AppNotebook *nb, const MeshInk *ink, bool final);
/* Lets the notebook go (the writer stopped, its lock released). */
void app_notebook_close(AppNotebook *nb);

#endif
