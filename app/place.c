/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* O_NOFOLLOW, st_mtim */
#include "place.h"

#include "../files/safe_write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The longest identity that names a place's file (pagecurl_book_identity.id is shorter). */
#define PLACE_ID_MAX 127
/* The most files of the folder looked at when the oldest places are removed: a folder holding
 * more (not of our making) is not read to its end, and the oldest among these go. */
#define PLACE_SCAN_MAX (8 * APP_PLACE_BOOKS)

static const char PLACE_HEADER[] = "pagecurl-place 1\npage ";

/* Whether `name` may be a place's file name: an identity of letters, digits, '-', '_' and '.',
 * not hidden (a write's temporary files are) and not "." or "..". */
bool app_place_id_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > PLACE_ID_MAX || name[0] == '.')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_' || c == '.';
        if (!ok)
            return false;
    }
    return true;
}

bool app_place_folder(char *out, size_t size)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    int n;
    /* the XDG base directory specification: a relative path is to be ignored */
    if (state && state[0] == '/')
        n = snprintf(out, size, "%s/pagecurl/places", state);
    else if (home && home[0] == '/')
        n = snprintf(out, size, "%s/.local/state/pagecurl/places", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* The view a place's third line says (`line`, NUL-terminated, its newline included), into
 * *view; false where it is not one of a book `pages` long. */
static bool parse_view(const char *line, size_t n, int pages, AppPlaceView *view)
{
    int page = 0, end = -1;
    float a = NAN, b = NAN, c = NAN;
    if (!n || line[n - 1] != '\n')
        return false;
    if (sscanf(line, "view width %d %f%n", &page, &a, &end) == 2 && end + 1 == (int)n &&
        page >= 1 && page <= pages && a >= 0.0f && a <= 1.0f) {
        *view = (AppPlaceView){.fit = APP_PLACE_WIDTH, .page = page, .down = a};
        return true;
    }
    end = -1;
    if (sscanf(line, "view zoom %f %f %f%n", &a, &b, &c, &end) == 3 && end + 1 == (int)n &&
        a >= 1.0f && a <= 8.0f && fabsf(b) <= 8.0f && fabsf(c) <= 8.0f) {
        *view = (AppPlaceView){.fit = APP_PLACE_ZOOM, .zoom = a, .x = b, .y = c};
        return true;
    }
    return false;
}

/* The place in the text a place's last line says (`line`, NUL-terminated, its newline included)
 * into `out`: "text " and up to APP_PLACE_TEXT_MAX - 1 printable ASCII characters. */
static bool parse_text(const char *line, size_t n, char out[APP_PLACE_TEXT_MAX])
{
    static const char head[] = "text ";
    size_t k = sizeof head - 1;
    if (n <= k + 1 || n - k - 1 >= APP_PLACE_TEXT_MAX || memcmp(line, head, k) != 0 ||
        line[n - 1] != '\n')
        return false;
    for (size_t i = k; i + 1 < n; i++)
        if (line[i] < ' ' || line[i] > '~')
            return false;
    memcpy(out, line + k, n - k - 1);
    out[n - k - 1] = '\0';
    return true;
}

/* The page a place's bytes say (`text`, with room for one more byte), 0 where they are not a
 * place of a book `pages` long; its view into *view (the fitted view where it keeps none), its
 * place in the text into `place` ("" for none). A place with a place in the text may be another
 * layout's: its page past the end is 0 (and its view none), the place in the text kept. */
static int parse(char *text, size_t n, int pages, AppPlaceView *view,
                 char place[APP_PLACE_TEXT_MAX])
{
    *view = (AppPlaceView){0};
    place[0] = '\0';
    size_t head = sizeof PLACE_HEADER - 1;
    if (n <= head || memcmp(text, PLACE_HEADER, head) != 0 || text[n - 1] != '\n')
        return 0;
    text[n] = '\0';
    /* the last line, where it is the text's place */
    size_t last = n - 1;
    while (last > 0 && text[last - 1] != '\n')
        last--;
    if (last > head && parse_text(text + last, n - last, place))
        n = last;
    /* another layout's page or view may lie past this one's end */
    int bound = place[0] ? APP_PLACE_TEXT_PAGES : pages;
    long page = 0;
    size_t at = head;
    for (; at < n && text[at] >= '0' && text[at] <= '9' && page <= bound; at++)
        page = page * 10 + (text[at] - '0');
    if (at == head || at >= n || text[at] != '\n' || page < 1 || page > bound) {
        place[0] = '\0';
        return 0;
    }
    text[n] = '\0';
    if (at + 1 < n && !parse_view(text + at + 1, n - at - 1, bound, view)) {
        place[0] = '\0';
        return 0;
    }
    if (page > pages || (view->fit == APP_PLACE_WIDTH && view->page > pages))
        *view = (AppPlaceView){0};
    return page <= pages ? (int)page : 0;
}

/* The page the file at `path` says, 0 for none: anything but a regular file of at most
 * APP_PLACE_MAX_BYTES in the form above (a link is not followed; a FIFO's open does not wait). */
static int read_place(const char *path, int pages, AppPlaceView *view,
                      char place[APP_PLACE_TEXT_MAX])
{
    *view = (AppPlaceView){0};
    place[0] = '\0';
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    char text[APP_PLACE_MAX_BYTES + 2];
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= APP_PLACE_MAX_BYTES)
        n = read(fd, text, APP_PLACE_MAX_BYTES + 1); /* one more than a place holds: a longer one
                                                        shows */
    close(fd);
    return n > 0 && n <= APP_PLACE_MAX_BYTES ? parse(text, (size_t)n, pages, view, place) : 0;
}

void app_place_open(AppPlace *p, const char *id, int pages)
{
    *p = (AppPlace){.pages = pages};
    char folder[4096];
    if (!id || !app_place_id_name(id) || pages < 1 || !app_place_folder(folder, sizeof folder))
        return;
    int n = snprintf(p->path, sizeof p->path, "%s/%s", folder, id);
    if (n < 0 || (size_t)n >= sizeof p->path) {
        p->path[0] = '\0';
        return;
    }
    p->read = p->saved = read_place(p->path, pages, &p->read_view, p->read_text);
}

/* `path`'s folders made where missing, as the specification asks (0700), from the root down. */
bool app_place_make_folders(const char *path)
{
    char at[4096];
    int n = snprintf(at, sizeof at, "%s", path);
    if (n < 0 || (size_t)n >= sizeof at)
        return false;
    for (char *slash = strchr(at + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        struct stat st;
        /* a folder there already may answer EEXIST, or EACCES where its parent is not ours */
        if (mkdir(at, 0700) != 0 && errno != EEXIST && (stat(at, &st) != 0 || !S_ISDIR(st.st_mode)))
            return false;
        if (!slash)
            break;
        *slash = '/';
    }
    struct stat st;
    return stat(at, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef struct PlaceFile {
    struct timespec written;
    char name[PLACE_ID_MAX + 1];
} PlaceFile;

static int older_first(const void *a, const void *b)
{
    const PlaceFile *x = a, *y = b;
    if (x->written.tv_sec != y->written.tv_sec)
        return x->written.tv_sec < y->written.tv_sec ? -1 : 1;
    if (x->written.tv_nsec != y->written.tv_nsec)
        return x->written.tv_nsec < y->written.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The least recently written places in `folder` removed until APP_PLACE_BOOKS are left, never
 * `keep` (the one just written); only files named as places are counted or removed. */
static void prune(const char *folder, const char *keep)
{
    DIR *dir = opendir(folder);
    if (!dir)
        return;
    PlaceFile *files = NULL;
    size_t count = 0, room = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && count < PLACE_SCAN_MAX) {
        struct stat st;
        if (!app_place_id_name(e->d_name) || !strcmp(e->d_name, keep) ||
            fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (count == room) {
            size_t more = room ? 2 * room : 256;
            PlaceFile *grown = realloc(files, more * sizeof *files);
            if (!grown)
                break;
            files = grown, room = more;
        }
        files[count].written = st.st_mtim;
        memcpy(files[count].name, e->d_name, strlen(e->d_name) + 1); /* id_name: it fits */
        count++;
    }
    /* the one just written is the newest, and stays: the others make up the rest */
    if (count + 1 > APP_PLACE_BOOKS) {
        qsort(files, count, sizeof *files, older_first);
        for (size_t i = 0; i < count + 1 - APP_PLACE_BOOKS; i++)
            unlinkat(dirfd(dir), files[i].name, 0);
    }
    free(files);
    closedir(dir);
}

static bool write_place(FILE *f, const void *user)
{
    const AppPlace *p = user;
    const AppPlaceView *v = &p->view;
    if (fprintf(f, "%s%d\n", PLACE_HEADER, p->at) < 0)
        return false;
    if (v->fit == APP_PLACE_WIDTH && v->page >= 1 && v->page <= p->pages && v->down >= 0.0f &&
        v->down <= 1.0f && fprintf(f, "view width %d %.4f\n", v->page, (double)v->down) < 0)
        return false;
    if (v->fit == APP_PLACE_ZOOM && v->zoom > 1.0f && v->zoom <= 8.0f && fabsf(v->x) <= 8.0f &&
        fabsf(v->y) <= 8.0f &&
        fprintf(f, "view zoom %.4f %.4f %.4f\n", (double)v->zoom, (double)v->x, (double)v->y) < 0)
        return false;
    char line[APP_PLACE_TEXT_MAX + 8];
    /* a place in the text kept only where it reads back as one */
    return !p->text[0] || snprintf(line, sizeof line, "text %s\n", p->text) >= (int)sizeof line ||
           !parse_text(line, strlen(line), (char[APP_PLACE_TEXT_MAX]){0}) || fputs(line, f) >= 0;
}

bool app_place_keep(AppPlace *p, bool final, char *message, size_t size)
{
    if (!p->path[0] || p->failed || p->at < 1 || p->at > p->pages || (p->at == p->saved && !final))
        return true;
    char folder[4096];
    snprintf(folder, sizeof folder, "%s", p->path);
    char *slash = strrchr(folder, '/');
    *slash = '\0';
    struct stat st;
    bool known = lstat(p->path, &st) == 0;
    /* a link at a place's name is not followed (files_safe_write would write through it, into a
     * file no one named): the link goes, and a place's own file takes its name */
    if (known && S_ISLNK(st.st_mode))
        unlink(p->path), known = false;
    if (!app_place_make_folders(folder)) {
        snprintf(message, size, "cannot make the folder %s: %s", folder, strerror(errno));
        p->failed = true;
        return false;
    }
    if (!known)
        files_safe_write_sweep(p->path); /* what a killed run's write left */
    if (!files_safe_write(p->path, false, write_place, p, message, size)) {
        p->failed = true;
        return false;
    }
    p->saved = p->at;
    if (!known)
        prune(folder, slash + 1);
    return true;
}
