#include "notebook.h"
#include "say.h"

#include "file.h"
#include "json_text.h"

#include "safe_write.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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

/* "the built-in book" or "the book PATH (N pages)". */
static void describe(AppNotebookBook book, char *out, size_t size)
{
    if (!book.path[0])
        snprintf(out, size, "the built-in book");
    else
        snprintf(out, size, "the book %s (%d pages)", book.path, book.pages);
}

/* The notebook is `book`'s; false with the message. */
static bool same_book(const cJSON *root, const char *name, AppNotebookBook book, char *message,
                      size_t size)
{
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(root, "book");
    AppNotebookBook theirs = APP_NOTEBOOK_BUILTIN;
    if (own) {
        const cJSON *path = cJSON_GetObjectItemCaseSensitive(own, "path");
        const cJSON *pages = cJSON_GetObjectItemCaseSensitive(own, "pages");
        if (!cJSON_IsString(path) || !path->valuestring[0] || !cJSON_IsNumber(pages) ||
            pages->valuedouble < 1 || pages->valuedouble > MESH_INK_MAX_PAGES ||
            pages->valuedouble != (int)pages->valuedouble)
            return fail(message, size, name,
                        "\"book\" is not {\"path\": \"...\", \"pages\": N} with N in 1..%d",
                        MESH_INK_MAX_PAGES);
        theirs = (AppNotebookBook){path->valuestring, (int)pages->valuedouble};
    }
    if (!strcmp(theirs.path, book.path) && (!own || theirs.pages == book.pages))
        return true;
    char a[320], b[320];
    describe(theirs, a, sizeof a);
    describe(book, b, sizeof b);
    return fail(message, size, name, "the ink of %s, not of %s", a, b);
}

/* The document's pages into ink; false with the message. */
static bool read_pages(const cJSON *root, const char *name, AppNotebookBook book, MeshInk *ink,
                       char *message, size_t size)
{
    if (!cJSON_IsObject(root))
        return fail(message, size, name, "not a notebook (the top level is not an object)");
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
    const cJSON *pages = cJSON_GetObjectItemCaseSensitive(root, "pages");
    if (!cJSON_IsArray(pages))
        return fail(message, size, name, "\"pages\" is missing or not an array");
    bool *seen = calloc((size_t)ink->page_count, sizeof *seen);
    MeshInkPoint *points = NULL;
    size_t capacity = 0;
    bool ok = seen != NULL;
    if (!ok)
        fail(message, size, name, "out of memory");
    size_t index = 0;
    const cJSON *page;
    cJSON_ArrayForEach(page, pages)
    {
        if (!ok)
            break;
        index++;
        const cJSON *number = cJSON_GetObjectItemCaseSensitive(page, "page");
        const cJSON *strokes = cJSON_GetObjectItemCaseSensitive(page, "strokes");
        double p = cJSON_IsNumber(number) ? number->valuedouble : 0.0;
        if (!cJSON_IsObject(page) || !cJSON_IsNumber(number) || p != floor(p) || p < 1.0 ||
            p > ink->page_count) {
            ok = fail(message, size, name, "pages[%zu]: \"page\" must be a page number 1..%d",
                      index, ink->page_count);
            break;
        }
        int pg = (int)p - 1;
        if (seen[pg]) {
            ok = fail(message, size, name, "page %d appears twice", pg + 1);
            break;
        }
        seen[pg] = true;
        if (!cJSON_IsArray(strokes)) {
            ok = fail(message, size, name, "page %d: \"strokes\" is missing or not an array",
                      pg + 1);
            break;
        }
        size_t s = 0;
        const cJSON *stroke;
        cJSON_ArrayForEach(stroke, strokes)
        {
            s++;
            char why[160];
            size_t count = 0;
            if (!read_stroke(stroke, &points, &capacity, &count, why, sizeof why)) {
                ok = fail(message, size, name, "page %d, stroke %zu: %s", pg + 1, s, why);
                break;
            }
            if (count > MESH_INK_MAX_POINTS - ink->points) {
                ok = fail(message, size, name,
                          "page %d, stroke %zu: more than %d points in all (the limit of a "
                          "notebook)",
                          pg + 1, s, MESH_INK_MAX_POINTS);
                break;
            }
            if (!mesh_ink_stroke_add(ink, pg, points, count)) {
                ok = fail(message, size, name, "out of memory");
                break;
            }
        }
    }
    free(points);
    free(seen);
    return ok;
}

/* Empties ink, keeping its page count. */
static void ink_reset(MeshInk *ink)
{
    for (int p = 0; p < ink->page_count; p++)
        mesh_ink_clear(ink, p);
    ink->next_serial = 0;
}

bool app_notebook_parse(const char *text, size_t len, const char *name, MeshInk *ink, char *message,
                        size_t size)
{
    return app_notebook_parse_for(text, len, name, APP_NOTEBOOK_BUILTIN, ink, message, size);
}

bool app_notebook_parse_for(const char *text, size_t len, const char *name, AppNotebookBook book,
                            MeshInk *ink, char *message, size_t size)
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
        ok = read_pages(root, name, book, ink, message, size);
    }
    cJSON_Delete(root);
    if (!ok)
        ink_reset(ink);
    return ok;
}

bool app_notebook_load(const char *path, MeshInk *ink, char *message, size_t size)
{
    return app_notebook_load_for(path, APP_NOTEBOOK_BUILTIN, ink, message, size);
}

bool app_notebook_load_for(const char *path, AppNotebookBook book, MeshInk *ink, char *message,
                           size_t size)
{
    char name[512];
    snprintf(name, sizeof name, "--notebook %s", path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return true; /* a new notebook: written on the way out */
        return fail(message, size, name, "%s", strerror(errno));
    }
    char *text;
    size_t len;
    AppFileRead r = app_file_read(f, NOTEBOOK_MAX_BYTES, &text, &len);
    bool ok = r == APP_FILE_OK;
    if (r == APP_FILE_TOO_LARGE)
        fail(message, size, name, "larger than %u MiB (the limit of a notebook)",
             NOTEBOOK_MAX_BYTES >> 20);
    else if (r == APP_FILE_NO_MEMORY)
        fail(message, size, name, "out of memory while reading it");
    else if (r == APP_FILE_ERROR) /* a directory, say: EISDIR */
        fail(message, size, name, "cannot read it (%s)", errno ? strerror(errno) : "error");
    fclose(f);
    ok = ok && app_notebook_parse_for(text, len, name, book, ink, message, size);
    free(text);
    return ok;
}

typedef struct Written {
    AppNotebookBook book;
    const MeshInk *ink;
} Written;

/* `text` as a JSON string: quotes, backslashes and control bytes escaped, the rest as it is. */
static void json_string(FILE *f, const char *text)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static bool write_notebook(FILE *f, const void *user)
{
    const Written *w = user;
    const MeshInk *ink = w->ink;
    fprintf(f, "{\"format\": \"%s\", \"version\": %d, ", APP_NOTEBOOK_FORMAT, APP_NOTEBOOK_VERSION);
    if (w->book.path[0]) {
        fputs("\"book\": {\"path\": ", f);
        json_string(f, w->book.path);
        fprintf(f, ", \"pages\": %d}, ", w->book.pages);
    }
    fputs("\"pages\": [", f);
    bool first_page = true;
    for (int p = 0; p < ink->page_count; p++) {
        const MeshInkPage *pg = &ink->pages[p];
        if (!pg->count)
            continue;
        fprintf(f, "%s\n {\"page\": %d, \"strokes\": [", first_page ? "" : ",", p + 1);
        first_page = false;
        for (size_t s = 0; s < pg->count; s++) {
            const MeshInkStroke *st = &pg->strokes[s];
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
    return app_safe_write(path, true, write_notebook, &(Written){book, ink}, message, size);
}

/* The lock file's descriptor, locked and holding our PID; -1 with the message. A holder removes
 * the file on close: a lock taken on a file no longer at the path is let go and taken again. */
static int take_lock(const char *path, const char *lock_path, char *message, size_t size)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        int fd = open(lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0) {
            fail(message, size, path, "cannot take its lock %s (%s)", lock_path,
                 errno == ENOENT ? "no such folder" : strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            char pid[32] = "";
            ssize_t n = errno == EWOULDBLOCK ? pread(fd, pid, sizeof pid - 1, 0) : -1;
            pid[n > 0 ? n : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            if (n >= 0)
                fail(message, size, path,
                     "in use by another pagecurl (process %s, lock %s); close that one first",
                     *pid ? pid : "unknown", lock_path);
            else
                fail(message, size, path, "cannot lock %s (%s)", lock_path, strerror(errno));
            close(fd);
            return -1;
        }
        struct stat held, there;
        if (fstat(fd, &held) == 0 && stat(lock_path, &there) == 0 && held.st_dev == there.st_dev &&
            held.st_ino == there.st_ino) {
            char pid[32];
            int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)n, 0) == n)
                return fd;
            fail(message, size, path, "cannot write its lock %s (%s)", lock_path, strerror(errno));
            unlink(lock_path);
            close(fd);
            return -1;
        }
        close(fd);
    }
    fail(message, size, path, "cannot take its lock %s (it keeps changing)", lock_path);
    return -1;
}

int app_notebook_open(AppNotebook *nb, const char *path, AppNotebookBook book, MeshInk *ink,
                      char *message, size_t size)
{
    *nb = (AppNotebook){.lock_fd = -1, .book = book};
    if (!path)
        return 0;
    char name[512];
    snprintf(name, sizeof name, "--notebook %s", path);
    char *target = app_safe_write_target(path);
    size_t n = target ? strlen(target) + 6 : 0;
    nb->lock_path = target ? malloc(n) : NULL;
    if (!nb->lock_path) {
        free(target);
        fail(message, size, name, "out of memory");
        return 1;
    }
    snprintf(nb->lock_path, n, "%s.lock", target);
    free(target);
    nb->lock_fd = take_lock(name, nb->lock_path, message, size);
    if (nb->lock_fd < 0) {
        app_notebook_close(nb);
        return 1;
    }
    nb->path = path;
    if (!app_notebook_load_for(path, book, ink, message, size)) {
        app_notebook_close(nb);
        /* running out of memory is the machine's failure, not a bad notebook */
        return strstr(message, "out of memory") ? 1 : 2;
    }
    nb->saved = nb->tried = ink->revision;
    return 0;
}

bool app_notebook_keep(AppNotebook *nb, const MeshInk *ink, bool final)
{
    if (!nb->path || ink->revision == nb->saved)
        return true;
    if (!final && ink->drawing >= 0)
        return true; /* saved when the stroke ends */
    if (!final && ink->revision == nb->tried)
        return false; /* failed already: tried again on the next change */
    char message[768];
    if (app_notebook_save_for(nb->path, nb->book, ink, message, sizeof message)) {
        nb->saved = nb->tried = ink->revision;
        nb->wrote = true;
        return true;
    }
    nb->tried = ink->revision;
    if (!nb->said)
        app_say(stderr, "%s", message);
    nb->said = true;
    return false;
}

void app_notebook_close(AppNotebook *nb)
{
    if (nb->lock_fd >= 0) {
        unlink(nb->lock_path); /* while still locked: the next holder's lock is on a new file */
        close(nb->lock_fd);
    }
    free(nb->lock_path);
    *nb = (AppNotebook){.lock_fd = -1, .book = APP_NOTEBOOK_BUILTIN};
}
