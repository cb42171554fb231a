/* SPDX-License-Identifier: MIT */
#include "library_notebook.h"
#include "say.h"
#include "signals.h"

#include <stdio.h>
#include <stdlib.h>

/* The book's point is the ink's: strokes pass between them as they are. */
_Static_assert(sizeof(pagecurl_ink_point) == sizeof(MeshInkPoint) &&
                   offsetof(pagecurl_ink_point, u) == offsetof(MeshInkPoint, u) &&
                   offsetof(pagecurl_ink_point, v) == offsetof(MeshInkPoint, v) &&
                   offsetof(pagecurl_ink_point, width) == offsetof(MeshInkPoint, width),
               "pagecurl_ink_point and MeshInkPoint in one layout");

/* A signal that ends the run gives up the reading of a notebook. */
static bool stop_asked(void)
{
    return app_signals_caught() != 0;
}

int app_library_notebook_open(AppLibraryNotebook *nb, const char *path, pagecurl_book *book,
                              char *message, size_t size)
{
    nb->mirrored = false;
    nb->notebook = (AppNotebook){.lock_fd = -1, .book = APP_NOTEBOOK_BUILTIN};
    nb->identity = (pagecurl_book_identity){.size = sizeof nb->identity};
    pagecurl_book_identity_of(book, &nb->identity);
    int pages = pagecurl_book_page_count(book);
    MeshInk ink;
    if (!mesh_ink_init(&ink, pages)) {
        snprintf(message, size, "out of memory for the book's ink");
        return 1;
    }
    int status = app_notebook_open(&nb->notebook, path,
                                   (AppNotebookBook){nb->identity.path, pages, nb->identity.id},
                                   &ink, stop_asked, message, size);
    if (status == APP_NOTEBOOK_STOPPED) {
        snprintf(message, size, "%s", ""); /* the run's end says it was stopped */
        status = 128 + app_signals_caught();
    }
    if (status) {
        mesh_ink_free(&ink);
        return status;
    }
    for (int side = 0; side < ink.side_count; side++)
        for (size_t k = 0; k < ink.sides[side].count; k++) {
            const MeshInkStroke *st = &ink.sides[side].strokes[k];
            /* the book keeps the bounds the notebook was read within */
            if (!pagecurl_book_add_stroke(book, side + 1, (const pagecurl_ink_point *)st->points,
                                          (uint32_t)st->count)) {
                snprintf(message, size, "--notebook %s: out of memory for its strokes", path);
                mesh_ink_free(&ink);
                app_notebook_close(&nb->notebook);
                return 1;
            }
        }
    nb->opened = app_notebook_digest(&ink);
    nb->mirror = ink;
    nb->mirrored = true;
    nb->mirror.revision = nb->taken = pagecurl_book_ink_revision(book);
    nb->notebook.saved = nb->notebook.queued = nb->mirror.revision;
    return 0;
}

int app_library_notebook_replayable(const AppLibraryNotebook *nb, const char *path,
                                    const AppTrace *replay, const char *replay_path, char *message,
                                    size_t size)
{
    if (!path || !replay || !replay->notebook_known || !app_trace_inks(replay) ||
        replay->notebook_digest == nb->opened)
        return 0;
    MeshInk none = {0};
    if (replay->notebook_digest == app_notebook_digest(&none))
        snprintf(message, size,
                 "--replay %s: recorded on a new notebook, and %s holds ink (its own notebook "
                 "would get its strokes twice): give a new notebook, or leave out --notebook",
                 replay_path, path);
    else
        snprintf(message, size,
                 "--replay %s: recorded on a notebook holding other ink than %s holds now (its "
                 "own notebook would get its strokes twice): give a copy of the notebook as the "
                 "recording found it, or leave out --notebook",
                 replay_path, path);
    return 2;
}

/* The mirror made the book's strokes again where the book's ink moved; false out of memory (the
 * mirror then keeps what it held). */
static bool mirror_book(AppLibraryNotebook *nb, const pagecurl_book *book)
{
    uint64_t revision = pagecurl_book_ink_revision(book);
    pagecurl_state state = {.size = sizeof state};
    pagecurl_book_state(book, &state);
    /* a stroke's end moves no revision: the mirror's stroke ends with the book's */
    if (revision == nb->mirror.revision) {
        nb->mirror.drawing = state.drawing - 1;
        return true;
    }
    MeshInk ink;
    if (!mesh_ink_init(&ink, nb->mirror.side_count))
        return false;
    MeshInkPoint *points = NULL;
    size_t room = 0;
    bool ok = true;
    for (int page = 1; ok && page <= ink.side_count; page++) {
        int side = page - 1;
        uint32_t strokes = pagecurl_book_stroke_count(book, page);
        for (uint32_t k = 0; ok && k < strokes; k++) {
            uint32_t n = pagecurl_book_get_stroke(book, page, k, NULL, 0);
            if (n > room) {
                MeshInkPoint *more = realloc(points, n * sizeof *points);
                ok = more != NULL;
                points = ok ? more : points, room = ok ? n : room;
            }
            ok = ok &&
                 pagecurl_book_get_stroke(book, page, k, (pagecurl_ink_point *)points, n) == n &&
                 mesh_ink_stroke_add(&ink, side, points, n);
        }
    }
    free(points);
    if (!ok) {
        mesh_ink_free(&ink);
        return false;
    }
    mesh_ink_free(&nb->mirror);
    nb->mirror = ink;
    nb->mirror.revision = revision;
    nb->mirror.drawing = state.drawing - 1;
    return true;
}

bool app_library_notebook_keep(AppLibraryNotebook *nb, const pagecurl_book *book, bool final)
{
    if (!nb->notebook.path || !nb->mirrored)
        return !nb->notebook.failed;
    mirror_book(nb, book); /* out of memory: kept again next time, and at the end */
    return app_notebook_keep(&nb->notebook, &nb->mirror, final);
}

bool app_library_notebook_wrote_all(const AppLibraryNotebook *nb, const pagecurl_book *book)
{
    return nb->notebook.wrote && nb->notebook.saved == pagecurl_book_ink_revision(book);
}

void app_library_notebook_close(AppLibraryNotebook *nb)
{
    app_notebook_close(&nb->notebook);
    if (nb->mirrored)
        mesh_ink_free(&nb->mirror);
    nb->mirrored = false;
}

int app_library_notebook_end(AppLibraryNotebook *nb, pagecurl_book *book, const char *path,
                             int status)
{
    if (book && !app_library_notebook_keep(nb, book, true) && status == 0)
        status = 1;
    else if (book && app_library_notebook_wrote_all(nb, book) &&
             pagecurl_book_ink_revision(book) != nb->taken)
        app_say(stdout, "%u stroke(s) written to %s", pagecurl_book_stroke_count(book, 0), path);
    app_library_notebook_close(nb); /* before the book: its last save names it */
    pagecurl_book_destroy(book);
    return status;
}
