/* SPDX-License-Identifier: MIT */
#include "kept_notebook.h"
#include "place.h"
#include "say.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool app_kept_notebook_folder(char *out, size_t size)
{
    const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    /* the XDG base directory specification: a relative path is to be ignored */
    if (data && data[0] == '/')
        n = snprintf(out, size, "%s/pagecurl/notebooks", data);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.local/share/pagecurl/notebooks", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* Takes the notebook; its line said where it cannot be. */
static int take(AppKeptNotebook *k, AppLibraryNotebook *nb, pagecurl_book *book)
{
    char message[sizeof k->why];
    app_library_notebook_close(nb); /* the run's own, with no file: its mirror freed */
    int status = app_library_notebook_open(nb, k->path, book, message, sizeof message);
    if (status > 128)
        return status;
    if (status) { /* left as it is: never replaced by a run that could not read it */
        /* the notebook's lines name the flag that gave it; this one no flag gave */
        static const char flag[] = "--notebook ";
        const char *line =
            strncmp(message, flag, sizeof flag - 1) ? message : message + sizeof flag - 1;
        app_say(stderr, "warning: the ink drawn is not kept: %s", line);
        snprintf(k->why, sizeof k->why, "%s", line);
        nb->notebook = (AppNotebook){.lock_fd = -1};
    }
    return 0;
}

int app_kept_notebook_open(AppKeptNotebook *k, AppLibraryNotebook *nb, pagecurl_book *book)
{
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    char folder[sizeof k->path - 160];
    k->path[0] = '\0';
    if (!id.id[0] || !app_place_id_name(id.id) || !app_kept_notebook_folder(folder, sizeof folder))
        return 0;
    snprintf(k->path, sizeof k->path, "%s/%s.json", folder, id.id);
    struct stat st;
    k->pending = lstat(k->path, &st) != 0 && errno == ENOENT;
    return k->pending ? 0 : take(k, nb, book);
}

void app_kept_notebook_inked(AppKeptNotebook *k, AppLibraryNotebook *nb, pagecurl_book *book)
{
    if (!k->path[0] || k->said)
        return;
    k->said = true;
    if (k->pending) {
        k->pending = false;
        char folder[sizeof k->path];
        snprintf(folder, sizeof folder, "%s", k->path);
        *strrchr(folder, '/') = '\0';
        if (!app_place_make_folders(folder)) {
            snprintf(k->why, sizeof k->why, "%.400s: the folder cannot be made", folder);
            app_say(stderr, "warning: the ink drawn is not kept: %s", k->why);
        } else if (take(k, nb, book) == 0 && !k->why[0])
            /* the strokes drawn before it was taken are the book's, not yet the notebook's */
            nb->mirror.revision = nb->notebook.saved = nb->notebook.queued = UINT64_MAX;
    }
    const char *home = getenv("HOME");
    size_t h = home && home[0] == '/' ? strlen(home) : 0;
    bool under_home = h && !strncmp(k->path, home, h) && k->path[h] == '/';
    if (!k->why[0])
        app_say(stdout, "the ink drawn is kept in %s (--notebook FILE names another)", k->path);
    /* the toast is short: the path's end, which names the book's notebook */
    const char *shown = k->path + (under_home ? h : 0);
    size_t n = strlen(shown), most = 130;
    if (k->why[0])
        snprintf(k->toast, sizeof k->toast, "the ink is NOT kept: %.130s", k->why);
    else
        snprintf(k->toast, sizeof k->toast, "ink kept in %s%.130s",
                 n > most     ? "..."
                 : under_home ? "~"
                              : "",
                 shown + (n > most ? n - most : 0));
}
