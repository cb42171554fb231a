/* SPDX-License-Identifier: MIT */
#include "notebook.h"
#include "say.h"

#include "../files/input.h"
#include "json_text.h"

#include "../files/safe_write.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest notebook read: MESH_INK_MAX_POINTS points as this file writes them take ~22 MB;
 * parsing it with cJSON takes ~5 times its size. */
#define NOTEBOOK_MAX_BYTES (32u << 20)
static bool fail(char *message, size_t size, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail(char *message, size_t size, const char *name, const char *fmt, ...)
{
    char why[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(why, sizeof why, fmt, args);
    va_end(args);
    snprintf(message, size, "%s: %s", name, why);
    return false;
}

/* One stroke's points; false with the reason in `why`. */
static bool read_stroke(const cJSON *stroke, MeshInkPoint **points, size_t *capacity, size_t *count,
                        char *why, size_t size)
{
    if (!cJSON_IsArray(stroke)) {
        snprintf(why, size, "is not an array of points");
        return false;
    }
    size_t n = 0;
    const cJSON *point;
    cJSON_ArrayForEach(point, stroke)
    {
        float f[3];
        int k = 0;
        const cJSON *x;
        if (cJSON_IsArray(point))
            cJSON_ArrayForEach(x, point)
            {
                if (k == 3 || !cJSON_IsNumber(x)) {
                    k = -1;
                    break;
                }
                f[k++] = (float)x->valuedouble;
            }
        if (k != 3) {
            snprintf(why, size, "point %zu is not [u, v, width]", n + 1);
            return false;
        }
        if (!(f[0] >= 0.0f && f[0] <= 1.0f && f[1] >= 0.0f && f[1] <= 1.0f)) {
            snprintf(why, size, "point %zu lies off the page (u and v are 0..1)", n + 1);
            return false;
        }
        if (!(f[2] >= MESH_INK_MIN_WIDTH && f[2] <= MESH_INK_MAX_WIDTH)) {
            snprintf(why, size, "point %zu: width %g outside %g..%g page widths", n + 1,
                     (double)f[2], (double)MESH_INK_MIN_WIDTH, (double)MESH_INK_MAX_WIDTH);
            return false;
        }
        if (n == MESH_INK_MAX_STROKE_POINTS) {
            snprintf(why, size, "more than %d points (the limit of a stroke)",
                     MESH_INK_MAX_STROKE_POINTS);
            return false;
        }
        if (n == *capacity) {
            size_t cap = *capacity ? 2 * *capacity : 64;
            MeshInkPoint *grown = realloc(*points, cap * sizeof *grown);
            if (!grown) {
                snprintf(why, size, "out of memory");
                return false;
            }
            *points = grown, *capacity = cap;
        }
        (*points)[n++] = (MeshInkPoint){f[0], f[1], f[2]};
    }
    if (n == 0) {
        snprintf(why, size, "has no points");
        return false;
    }
    *count = n;
    return true;
}

/* The first of `keys` that `object` gives more than once (cJSON keeps both and finds the
 * first: the second would be dropped unseen), or NULL. Other keys are not read, so any number
 * of them is harmless. */
static const char *given_twice(const cJSON *object, const char *const *keys, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int seen = 0;
        const cJSON *item;
        cJSON_ArrayForEach(item, object)
        {
            if (item->string && !strcmp(item->string, keys[k]) && ++seen == 2)
                return keys[k];
        }
    }
    return NULL;
}

/* "the built-in book" or "the book PATH (N pages)"; a path too long for `out` is cut (the
 * message is one line, not the path's record). */
static void describe(AppNotebookBook book, char *out, size_t size)
{
    if (!book.path[0])
        snprintf(out, size, "the built-in book");
    else
        snprintf(out, size, "the book %.*s (%d pages)", (int)(size > 40 ? size - 40 : 0), book.path,
                 book.pages);
}

/* "path_bytes": a path's bytes as hex (two lower-case digits a byte, none of them 0) into
 * `path`; false where it is not that or does not fit. */
static bool path_from_hex(const char *hex, char *path, size_t size)
{
    size_t n = strlen(hex);
    if (!n || n % 2 || n / 2 >= size)
        return false;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned byte = 0;
        for (int k = 0; k < 2; k++) {
            char c = hex[2 * i + k];
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
                return false;
            byte = byte << 4 | (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
        }
        if (!byte)
            return false;
        path[i] = (char)byte;
    }
    path[n / 2] = '\0';
    return true;
}

/* The notebook is `book`'s; false with the message. */
static bool same_book(const cJSON *root, const char *name, AppNotebookBook book, char *message,
                      size_t size)
{
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(root, "book");
    AppNotebookBook theirs = APP_NOTEBOOK_BUILTIN;
    static const char *const book_keys[] = {"path", "path_bytes", "pages", "id"};
    char exact[4096]; /* the path "path_bytes" gives */
    const char *twice = cJSON_IsObject(own) ? given_twice(own, book_keys, 4) : NULL;
    if (twice)
        return fail(message, size, name, "\"book\" gives \"%s\" twice", twice);
    if (own) {
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(own, "path");
        const cJSON *pages = cJSON_GetObjectItemCaseSensitive(own, "pages");
        if (!cJSON_IsString(path) || !path->valuestring[0] || !cJSON_IsNumber(pages) ||
            pages->valuedouble < 1 || pages->valuedouble > MESH_INK_MAX_SIDES ||
            pages->valuedouble != (int)pages->valuedouble)
            return fail(message, size, name,
                        "\"book\" is not {\"path\": \"...\", \"pages\": N} with N in 1..%d",
                        MESH_INK_MAX_SIDES);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(own, "id");
        if (id && (!cJSON_IsString(id) || !id->valuestring[0]))
            return fail(message, size, name, "\"book\" has an \"id\" that is no name");
        theirs = (AppNotebookBook){path->valuestring, (int)pages->valuedouble,
                                   id ? id->valuestring : NULL};
        const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(own, "path_bytes");
        if (bytes &&
            (!cJSON_IsString(bytes) || !path_from_hex(bytes->valuestring, exact, sizeof exact)))
            return fail(message, size, name,
                        "\"book\" has a \"path_bytes\" that is not a path's bytes in hex");
        if (bytes)
            theirs.path = exact;
    }
    bool ids = theirs.id && book.id && book.id[0];
    if (ids && !strcmp(theirs.id, book.id))
        return true; /* the same book, wherever it lies now */
    if (!ids && !strcmp(theirs.path, book.path) && (!own || theirs.pages == book.pages))
        return true;
    char a[320], b[320];
    describe(theirs, a, sizeof a);
    describe(book, b, sizeof b);
    if (ids && !strcmp(theirs.path, book.path))
        return fail(message, size, name,
                    "the ink of %s as it was: the book there has changed since (now %d pages); "
                    "open the book it was drawn on, or delete the notebook's \"id\" to keep its "
                    "ink on this one",
                    a, book.pages);
    return fail(message, size, name, "the ink of %s, not of %s", a, b);
}

/* The document's pages into ink; false with the message. */
static bool read_pages(const cJSON *root, const char *name, AppNotebookBook book, MeshInk *ink,
                       int *at, AppNotebookStop stop, char *message, size_t size)
{
    if (!cJSON_IsObject(root))
        return fail(message, size, name, "not a notebook (the top level is not an object)");
    static const char *const root_keys[] = {"format", "version", "book", "at", "pages"};
    const char *twice = given_twice(root, root_keys, 5);
    if (twice)
        return fail(message, size, name, "\"%s\" is given twice", twice);
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, APP_NOTEBOOK_FORMAT) != 0)
        return fail(message, size, name, "not a notebook (\"format\" is not \"%s\")",
                    APP_NOTEBOOK_FORMAT);
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsNumber(version) || version->valuedouble != APP_NOTEBOOK_VERSION)
        return fail(message, size, name, "unsupported \"version\" (this program reads %d)",
                    APP_NOTEBOOK_VERSION);
    if (!same_book(root, name, book, message, size))
        return false;
    const cJSON *place = cJSON_GetObjectItemCaseSensitive(root, "at");
    if (place &&
        (!cJSON_IsNumber(place) || place->valuedouble < 1 || place->valuedouble > ink->side_count ||
         place->valuedouble != (int)place->valuedouble))
        return fail(message, size, name, "\"at\" is not a page of the book (1..%d)",
                    ink->side_count);
    if (at)
        *at = place ? (int)place->valuedouble : 0;
    const cJSON *pages = cJSON_GetObjectItemCaseSensitive(root, "pages");
    if (!cJSON_IsArray(pages))
        return fail(message, size, name, "\"pages\" is missing or not an array");
    bool *seen = calloc((size_t)ink->side_count, sizeof *seen);
    MeshInkPoint *points = NULL;
    size_t capacity = 0;
    bool ok = seen != NULL;
    if (!ok)
        fail(message, size, name, "out of memory");
    size_t index = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, pages)
    {
        if (!ok)
            break;
        if (stop && stop()) {
            ok = fail(message, size, name, "not read: the run was stopped");
            break;
        }
        index++;
        const cJSON *number = cJSON_GetObjectItemCaseSensitive(entry, "page");
        const cJSON *strokes = cJSON_GetObjectItemCaseSensitive(entry, "strokes");
        double p = cJSON_IsNumber(number) ? number->valuedouble : 0.0;
        if (!cJSON_IsObject(entry) || !cJSON_IsNumber(number) || p != floor(p) || p < 1.0 ||
            p > ink->side_count) {
            ok = fail(message, size, name, "pages[%zu]: \"page\" must be a page number 1..%d",
                      index, ink->side_count);
            break;
        }
        int page = (int)p, side = page - 1;
        static const char *const page_keys[] = {"page", "strokes"};
        const char *again = given_twice(entry, page_keys, 2);
        if (again) {
            ok = fail(message, size, name, "pages[%zu] gives \"%s\" twice", index, again);
            break;
        }
        if (seen[side]) {
            ok = fail(message, size, name, "page %d appears twice", page);
            break;
        }
        seen[side] = true;
        if (!cJSON_IsArray(strokes)) {
            ok = fail(message, size, name, "page %d: \"strokes\" is missing or not an array", page);
            break;
        }
        size_t s = 0;
        const cJSON *stroke;
        cJSON_ArrayForEach(stroke, strokes)
        {
            if (++s % 256 == 0 && stop && stop()) {
                ok = fail(message, size, name, "not read: the run was stopped");
                break;
            }
            char why[160];
            size_t count = 0;
            if (!read_stroke(stroke, &points, &capacity, &count, why, sizeof why)) {
                ok = fail(message, size, name, "page %d, stroke %zu: %s", page, s, why);
                break;
            }
            if (count > MESH_INK_MAX_POINTS - ink->points) {
                ok = fail(message, size, name,
                          "page %d, stroke %zu: more than %d points in all (the limit of a "
                          "notebook)",
                          page, s, MESH_INK_MAX_POINTS);
                break;
            }
            if (!mesh_ink_stroke_add(ink, side, points, count)) {
                ok = fail(message, size, name, "out of memory");
                break;
            }
        }
    }
    free(points);
    free(seen);
    return ok;
}

bool app_notebook_parse(const char *text, size_t len, const char *name, MeshInk *ink, char *message,
                        size_t size)
{
    return app_notebook_parse_for(text, len, name, APP_NOTEBOOK_BUILTIN, ink, message, size);
}

static bool parse(const char *text, size_t len, const char *name, AppNotebookBook book,
                  MeshInk *ink, int *place, AppNotebookStop stop, char *message, size_t size);

bool app_notebook_parse_for(const char *text, size_t len, const char *name, AppNotebookBook book,
                            MeshInk *ink, char *message, size_t size)
{
    return parse(text, len, name, book, ink, NULL, NULL, message, size);
}

/* As app_notebook_parse_for, with the page the reader had open into *place (NULL: not asked). */
static bool parse(const char *text, size_t len, const char *name, AppNotebookBook book,
                  MeshInk *ink, int *place, AppNotebookStop stop, char *message, size_t size)
{
    if (app_json_nesting(text, len, APP_JSON_MAX_DEPTH) > APP_JSON_MAX_DEPTH)
        return fail(message, size, name, "nested deeper than a notebook (%d levels)",
                    APP_JSON_MAX_DEPTH);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!root && app_json_valid(text, len)) /* cJSON cannot tell: its allocation failed */
        return fail(message, size, name, "out of memory while reading it");
    if (!root) {
        size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        long line, column;
        app_json_position(text, at, &line, &column);
        return fail(message, size, name, "line %ld, column %ld: not valid JSON", line, column);
    }
    /* trailing text after the document (whitespace aside) is an error too */
    size_t at = (size_t)(end - text);
    while (at < len &&
           (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
        at++;
    bool ok;
    if (at < len) {
        long line, column;
        app_json_position(text, at, &line, &column);
        ok = fail(message, size, name, "line %ld, column %ld: text after the notebook", line,
                  column);
    } else {
        ok = read_pages(root, name, book, ink, place, stop, message, size);
    }
    cJSON_Delete(root);
    if (!ok)
        mesh_ink_reset(ink);
    return ok;
}

bool app_notebook_load(const char *path, MeshInk *ink, char *message, size_t size)
{
    return app_notebook_load_for(path, APP_NOTEBOOK_BUILTIN, ink, message, size);
}

/* The notebook `f` holds into ink (f is closed). False with the message and *status the exit
 * status it calls for: 1 when the file cannot be read or memory runs out, 2 when it is no
 * notebook of the book. */
static bool load_file(FILE *f, const char *name, AppNotebookBook book, MeshInk *ink, int *at,
                      AppNotebookStop stop, char *message, size_t size, int *status)
{
    char *text;
    size_t len;
    FilesRead r = files_read(f, NOTEBOOK_MAX_BYTES, &text, &len);
    int e = errno;
    fclose(f);
    *status = r == FILES_READ_TOO_LARGE ? 2 : 1;
    if (r == FILES_READ_TOO_LARGE)
        return fail(message, size, name, "larger than %u MiB (the limit of a notebook)",
                    NOTEBOOK_MAX_BYTES >> 20);
    if (r == FILES_READ_NO_MEMORY)
        return fail(message, size, name, "out of memory while reading it");
    if (r == FILES_READ_ERROR)
        return fail(message, size, name, "cannot read it (%s)", e ? strerror(e) : "error");
    bool ok = parse(text, len, name, book, ink, at, stop, message, size);
    free(text);
    /* running out of memory is the machine's failure, not a bad notebook */
    *status = ok ? 0 : strstr(message, "out of memory") ? 1 : 2;
    return ok;
}

bool app_notebook_load_for(const char *path, AppNotebookBook book, MeshInk *ink, char *message,
                           size_t size)
{
    char name[512], why[256];
    snprintf(name, sizeof name, "--notebook %s", path);
    FILE *f = files_open(path, why, sizeof why);
    if (!f) {
        if (errno == ENOENT)
            return true; /* a new notebook: written on the way out */
        return fail(message, size, name, "%s", why);
    }
    int status;
    return load_file(f, name, book, ink, NULL, NULL, message, size, &status);
}

typedef struct Written {
    AppNotebookBook book;
    const MeshInk *ink;
    int at; /* the page shown; 0: none */
} Written;

/* `text` as a JSON string: quotes, backslashes and control bytes escaped, the rest as it is. */
static bool write_notebook(FILE *f, const void *user)
{
    const Written *w = user;
    const MeshInk *ink = w->ink;
    fprintf(f, "{\"format\": \"%s\", \"version\": %d, ", APP_NOTEBOOK_FORMAT, APP_NOTEBOOK_VERSION);
    if (w->book.path[0]) {
        fputs("\"book\": {\"path\": ", f);
        /* a path not in UTF-8 is shown to other readers with U+FFFD for its strange bytes, and
         * kept exactly, for this one, in "path_bytes" */
        if (!app_json_write_string(f, w->book.path)) {
            fputs(", \"path_bytes\": \"", f);
            for (const unsigned char *p = (const unsigned char *)w->book.path; *p; p++)
                fprintf(f, "%02x", *p);
            fputc('"', f);
        }
        fprintf(f, ", \"pages\": %d", w->book.pages);
        if (w->book.id && w->book.id[0]) {
            fputs(", \"id\": ", f);
            app_json_write_string(f, w->book.id);
        }
        fputs("}, ", f);
    }
    if (w->at > 0)
        fprintf(f, "\"at\": %d, ", w->at);
    fputs("\"pages\": [", f);
    bool first_page = true;
    for (int side = 0; side < ink->side_count; side++) {
        const MeshInkSide *sd = &ink->sides[side];
        if (!sd->count)
            continue;
        fprintf(f, "%s\n {\"page\": %d, \"strokes\": [", first_page ? "" : ",", side + 1);
        first_page = false;
        for (size_t s = 0; s < sd->count; s++) {
            const MeshInkStroke *st = &sd->strokes[s];
            fputs(s ? ",\n  [" : "\n  [", f);
            /* %.9g: every float reads back bit for bit */
            for (size_t i = 0; i < st->count; i++)
                fprintf(f, "%s[%.9g, %.9g, %.9g]", i ? ", " : "", (double)st->points[i].u,
                        (double)st->points[i].v, (double)st->points[i].width);
            fputc(']', f);
        }
        fputs("]}", f);
    }
    return fprintf(f, "\n]}\n") > 0;
}

bool app_notebook_save(const char *path, const MeshInk *ink, char *message, size_t size)
{
    return app_notebook_save_for(path, APP_NOTEBOOK_BUILTIN, ink, message, size);
}

bool app_notebook_save_for(const char *path, AppNotebookBook book, const MeshInk *ink,
                           char *message, size_t size)
{
    return files_safe_write(path, true, write_notebook, &(Written){book, ink, 0}, message, size);
}

/* A save of `ink` that keeps the notebook locked: the new file is locked before it takes the
 * name and *lock_fd becomes it. `exclusive`: the notebook is new (it must not exist). */
static bool save_locked(const char *path, AppNotebookBook book, const MeshInk *ink, int at,
                        int *lock_fd, bool exclusive, char *message, size_t size)
{
    FilesSafeWrite how = {.durable = true, .exclusive = exclusive, .lock = lock_fd};
    return files_safe_write_with(path, how, write_notebook, &(Written){book, ink, at}, message,
                                 size);
}

/* files/safe_write.c's "cannot write PATH: why" as "cannot be written: why", for a line that
 * names the notebook already. */
static const char *reason(const char *message, const char *path)
{
    static const char lead[] = "cannot write ";
    size_t n = strlen(path);
    if (!strncmp(message, lead, sizeof lead - 1) && !strncmp(message + sizeof lead - 1, path, n) &&
        !strncmp(message + sizeof lead - 1 + n, ": ", 2))
        return message + sizeof lead - 1 + n + 2;
    return message;
}

/* A failed save's line, in the reader's terms: their ink is not on disk, and which file. */
static void unsaved(char *out, size_t size, const char *path, const char *message)
{
    snprintf(out, size, "--notebook %s: the ink was not saved: %s", path, reason(message, path));
}

/* The writer thread's state. The frame thread hands it copies of the ink (`next`); the writer
 * takes one at a time, saves it and says how that went. */
struct AppNotebookWriter {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t wake; /* a copy is waiting, or the writer is to stop */
    pthread_cond_t idle; /* a save has ended */
    /* under the mutex */
    MeshInk *next;  /* the copy to save next, NULL when none waits */
    int next_at;    /* the page shown when it was handed over */
    bool busy;      /* a save is under way */
    bool stop;      /* no more copies: end once `next` is saved */
    uint64_t saved; /* the revision of the last save that succeeded */
    bool failed;    /* a save failed (kept until the frame thread reads it) */
    bool wrote;
    char message[768];
    /* the writer's own while it runs; the frame thread's once it has stopped */
    const char *path;
    AppNotebookBook book;
    int *lock_fd;
};

static void *writer_main(void *arg)
{
    AppNotebookWriter *w = arg;
    pthread_mutex_lock(&w->mutex);
    for (;;) {
        while (!w->next && !w->stop)
            pthread_cond_wait(&w->wake, &w->mutex);
        if (!w->next)
            break;
        MeshInk *ink = w->next;
        int at = w->next_at;
        w->next = NULL;
        w->busy = true;
        pthread_mutex_unlock(&w->mutex);
        char message[768];
        bool ok =
            save_locked(w->path, w->book, ink, at, w->lock_fd, false, message, sizeof message);
        pthread_mutex_lock(&w->mutex);
        if (ok)
            w->saved = ink->revision, w->wrote = true;
        else if (!w->failed)
            w->failed = true, unsaved(w->message, sizeof w->message, w->path, message);
        w->busy = false;
        pthread_cond_broadcast(&w->idle);
        pthread_mutex_unlock(&w->mutex);
        mesh_ink_free(ink);
        free(ink);
        pthread_mutex_lock(&w->mutex);
    }
    pthread_mutex_unlock(&w->mutex);
    return NULL;
}

/* Starts the writer; NULL when it cannot (then saves run on the caller's thread). */
static AppNotebookWriter *writer_start(AppNotebook *nb)
{
    AppNotebookWriter *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->path = nb->path, w->book = nb->book, w->lock_fd = &nb->lock_fd;
    w->saved = nb->saved;
    if (pthread_mutex_init(&w->mutex, NULL) != 0) {
        free(w);
        return NULL;
    }
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->idle, NULL);
    /* The writer takes no signal: SIGINT, SIGTERM and SIGHUP are the frame thread's to see (a
     * save is never cut short by one). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    bool started = pthread_create(&w->thread, NULL, writer_main, w) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!started) {
        pthread_cond_destroy(&w->idle);
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->mutex);
        free(w);
        return NULL;
    }
    return w;
}

/* Takes in what the writer has done: the revision on disk, a failure to report. */
static void writer_news(AppNotebook *nb)
{
    AppNotebookWriter *w = nb->writer;
    char message[768] = "";
    pthread_mutex_lock(&w->mutex);
    nb->saved = w->saved;
    nb->wrote |= w->wrote;
    if (w->failed) {
        snprintf(message, sizeof message, "%s", w->message);
        w->failed = false;
        nb->failed = true;
    }
    pthread_mutex_unlock(&w->mutex);
    if (message[0] && !nb->said)
        app_say(stderr, "%s", message);
    nb->said |= message[0] != '\0';
}

/* Stops the writer once everything handed to it is saved. */
static void writer_stop(AppNotebook *nb)
{
    AppNotebookWriter *w = nb->writer;
    if (!w)
        return;
    pthread_mutex_lock(&w->mutex);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mutex);
    pthread_join(w->thread, NULL);
    writer_news(nb);
    pthread_cond_destroy(&w->idle);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mutex);
    free(w);
    nb->writer = NULL;
}

/* Who holds the lock on the file `st` describes: the PID /proc/locks gives, 0 when unknown. */
static long lock_holder(const struct stat *st)
{
    FILE *f = fopen("/proc/locks", "re");
    long found = 0;
    char line[256];
    while (f && !found && fgets(line, sizeof line, f)) {
        long pid;
        unsigned major, minor;
        unsigned long inode;
        if (sscanf(line, "%*d: FLOCK %*s WRITE %ld %x:%x:%lu", &pid, &major, &minor, &inode) == 4 &&
            inode == (unsigned long)st->st_ino)
            found = pid;
    }
    if (f)
        fclose(f);
    return found;
}

/* The notebook's file opened, checked and locked into nb->lock_fd; `*created` when it did not
 * exist and was made empty. 0, or the exit status with the message. */
static int take(AppNotebook *nb, const char *name, const char *target, bool *created, char *message,
                size_t size)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        int fd = open(target, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
            /* a new notebook, made empty and locked, unless another run made it meanwhile */
            MeshInk none = {.side_count = 0, .drawing = -1};
            char why[768];
            if (save_locked(nb->path, nb->book, &none, 0, &nb->lock_fd, true, why, sizeof why)) {
                *created = true;
                return 0;
            }
            if (errno == EEXIST)
                continue;
            fail(message, size, name, "cannot be written: %s", reason(why, nb->path));
            return 1;
        }
        if (fd < 0) {
            fail(message, size, name, "%s", strerror(errno));
            return 1;
        }
        struct stat held, there;
        int status = 0;
        if (fstat(fd, &held) != 0)
            status = 1, fail(message, size, name, "%s", strerror(errno));
        else if (!S_ISREG(held.st_mode))
            status = 1,
            fail(message, size, name, "%s, not a regular file", files_kind(held.st_mode));
        else if (held.st_nlink > 1)
            status = 1, fail(message, size, name,
                             "the file has %lu names (hard links), which a save (a new file "
                             "renamed into place) would part; give it one name",
                             (unsigned long)held.st_nlink);
        else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            status = 1;
            long pid = errno == EWOULDBLOCK ? lock_holder(&held) : 0;
            if (errno != EWOULDBLOCK)
                fail(message, size, name, "cannot lock it (%s)", strerror(errno));
            else if (pid)
                fail(message, size, name,
                     "in use by another pagecurl (process %ld); close that one first", pid);
            else
                fail(message, size, name, "in use by another pagecurl; close that one first");
        } else if (stat(target, &there) != 0 || there.st_dev != held.st_dev ||
                   there.st_ino != held.st_ino) {
            close(fd); /* replaced by a save between the open and the lock: once more */
            continue;
        }
        if (status) {
            close(fd);
            return status;
        }
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        nb->lock_fd = fd;
        return 0;
    }
    fail(message, size, name, "cannot lock it (it keeps changing)");
    return 1;
}

int app_notebook_open(AppNotebook *nb, const char *path, AppNotebookBook book, MeshInk *ink,
                      AppNotebookStop stop, char *message, size_t size)
{
    *nb = (AppNotebook){.lock_fd = -1, .book = book};
    if (!path)
        return 0;
    nb->path = path;
    char name[512];
    snprintf(name, sizeof name, "--notebook %s", path);
    char *target = files_safe_write_target(path);
    if (!target) {
        fail(message, size, name, "%s", errno == ENOMEM ? "out of memory" : strerror(ELOOP));
        nb->path = NULL;
        return 1;
    }
    bool created = false;
    int status = take(nb, name, target, &created, message, size);
    char why[768];
    if (!status && !created && !files_safe_write_check(path, why, sizeof why))
        status = 1, fail(message, size, name, "cannot be written: %s", reason(why, path));
    if (!status && !created) {
        int copy = fcntl(nb->lock_fd, F_DUPFD_CLOEXEC, 0);
        FILE *f = copy >= 0 ? fdopen(copy, "rb") : NULL;
        if (!f) {
            if (copy >= 0)
                close(copy);
            status = 1, fail(message, size, name, "%s", strerror(errno));
        } else if (!load_file(f, name, book, ink, &nb->at, stop, message, size, &status)) {
            status = status ? status : 2;
        }
        /* a stop asked while it was read (a signal ending the run) is why it was not */
        if (status && stop && stop())
            status = APP_NOTEBOOK_STOPPED;
    }
    free(target);
    if (status) {
        app_notebook_close(nb);
        return status;
    }
    nb->created = created;
    files_safe_write_sweep(path);
    nb->saved = nb->queued = ink->revision;
    nb->at_saved = nb->at;
    nb->writer = writer_start(nb);
    return 0;
}

/* Saves `ink` on this thread (no writer, or the writer stopped). */
static void save_here(AppNotebook *nb, const MeshInk *ink)
{
    char message[768];
    nb->queued = ink->revision;
    nb->at_saved = nb->at;
    if (save_locked(nb->path, nb->book, ink, nb->at, &nb->lock_fd, false, message,
                    sizeof message)) {
        nb->saved = ink->revision;
        nb->wrote = true;
        return;
    }
    nb->failed = true;
    char line[1024];
    unsaved(line, sizeof line, nb->path, message);
    if (!nb->said)
        app_say(stderr, "%s", line);
    nb->said = true;
}

bool app_notebook_keep(AppNotebook *nb, const MeshInk *ink, bool final)
{
    if (!nb->path)
        return true;
    if (final) {
        writer_stop(nb); /* every save handed to it done */
        /* the place in the book too, where the notebook holds something besides it */
        if (ink->revision != nb->saved || (nb->at != nb->at_saved && (!nb->created || nb->wrote)))
            save_here(nb, ink);
        return !nb->failed;
    }
    if (nb->writer)
        writer_news(nb);
    if (ink->revision == nb->queued || ink->drawing >= 0)
        return !nb->failed; /* saved, or being saved; or saved when the stroke ends */
    if (!nb->writer) {
        save_here(nb, ink);
        return !nb->failed;
    }
    MeshInk *copy = malloc(sizeof *copy);
    if (!copy || !mesh_ink_copy(copy, ink)) {
        free(copy);
        return !nb->failed; /* no memory for a copy now: tried again next frame, and at the end */
    }
    AppNotebookWriter *w = nb->writer;
    pthread_mutex_lock(&w->mutex);
    MeshInk *older = w->next; /* not begun: this one holds all it held */
    w->next = copy;
    w->next_at = nb->at;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->mutex);
    if (older) {
        mesh_ink_free(older);
        free(older);
    }
    nb->queued = ink->revision;
    nb->at_saved = nb->at;
    return !nb->failed;
}

void app_notebook_close(AppNotebook *nb)
{
    writer_stop(nb);
    if (nb->lock_fd >= 0) {
        /* an empty notebook this run made and never saved ink to goes again, if it is still
         * the file at the name (unlinked while locked) */
        struct stat held, there;
        char *target = nb->created && !nb->wrote ? files_safe_write_target(nb->path) : NULL;
        if (target && fstat(nb->lock_fd, &held) == 0 && stat(target, &there) == 0 &&
            held.st_dev == there.st_dev && held.st_ino == there.st_ino)
            unlink(target);
        free(target);
        close(nb->lock_fd);
    }
    *nb = (AppNotebook){.lock_fd = -1, .book = APP_NOTEBOOK_BUILTIN};
}

/* FNV-1a, 64 bits, over a value's bytes. */
static uint64_t digest_bytes(uint64_t h, const void *bytes, size_t size)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < size; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t app_notebook_digest(const MeshInk *ink)
{
    uint64_t h = 14695981039346656037ull;
    for (int side = 0; side < ink->side_count; side++) {
        const MeshInkSide *sd = &ink->sides[side];
        if (!sd->count)
            continue;
        uint64_t head[2] = {(uint64_t)side, (uint64_t)sd->count};
        h = digest_bytes(h, head, sizeof head);
        for (size_t k = 0; k < sd->count; k++) {
            const MeshInkStroke *st = &sd->strokes[k];
            uint64_t n = st->count;
            h = digest_bytes(h, &n, sizeof n);
            for (size_t i = 0; i < st->count; i++) {
                float point[3] = {st->points[i].u, st->points[i].v, st->points[i].width};
                h = digest_bytes(h, point, sizeof point);
            }
        }
    }
    return h;
}
