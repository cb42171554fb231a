/* SPDX-License-Identifier: MIT */
/* A folder of images as a book: its names listed here in natural order (page2 before page10),
 * the pages read by the page helper (source_helper.c) through the folder as it was listed. A
 * name that is no regular file is refused at open, a folder inside skipped. */
/* fstatat; d_type (DT_REG, DT_DIR) */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include "book_source.h"
#include "source.h"
#include "../mesh/ink.h"

#include "../files/input.h"
#include "../files/safe_write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define fail pages_source_fail

static int compare_names(const void *a, const void *b)
{
    int c = pages_book_name_compare(*(char *const *)a, *(char *const *)b);
    return c ? c : strcmp(*(char *const *)a, *(char *const *)b);
}

int pages_source_folder_open(PagesBookSource *src, const char *path, char *message, size_t size)
{
    DIR *dir = opendir(path);
    if (!dir)
        return fail(message, size, 1, "%s: %s", path, strerror(errno));
    /* the folder as it was listed: the helper reads its pages in it, whatever its name leads to
     * later */
    src->book = fcntl(dirfd(dir), F_DUPFD_CLOEXEC, 0);
    if (src->book < 0) {
        int e = errno;
        closedir(dir);
        return fail(message, size, 1, "%s: %s", path, strerror(e));
    }
    src->prefix = strlen(path) + 1;
    size_t cap = 0;
    struct dirent *e;
    int status = 0;
    char pdf[sizeof e->d_name] = ""; /* the first PDF the folder holds: where no image is, named */
    while (!status && (e = readdir(dir))) {
        if (!pdf[0] && e->d_name[0] != '.' && e->d_type != DT_DIR &&
            pages_book_has_suffix(e->d_name, ".pdf"))
            snprintf(pdf, sizeof pdf, "%s", e->d_name);
        if (!pages_book_image_name(e->d_name))
            continue;
        /* A folder with a page's name is no page: skipped, as the other names are. Anything
         * else that is no regular file (a FIFO, a device, a socket) would block or never end
         * when read: the book is refused, naming it. Links are followed; one that leads nowhere
         * (dangling, looping, unreadable) is a page that fails at open, as a file that is no
         * image is: crossed out when drawn, with its cause (files_open says it). */
        struct stat st = {.st_mode = e->d_type == DT_REG ? S_IFREG : S_IFDIR};
        /* the entry's own type where the file system gives it (a link's is its target's, and an
         * unknown type is asked): a stat of each of 100,000 pages is a noticeable wait */
        if (e->d_type != DT_REG && e->d_type != DT_DIR &&
            fstatat(dirfd(dir), e->d_name, &st, 0) != 0) {
            if (errno == ENOMEM) {
                status = fail(message, size, 1, "%s/%s: %s", path, e->d_name, strerror(errno));
                break;
            }
            st.st_mode = S_IFREG;
        }
        if (S_ISDIR(st.st_mode))
            continue;
        src->named_otherwise |= e->d_type != DT_REG;
        if (!S_ISREG(st.st_mode)) {
            status = fail(message, size, 1, "%s/%s: %s, not a regular file", path, e->d_name,
                          files_kind(st.st_mode));
            break;
        }
        if ((size_t)src->pages == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(src->files, cap * sizeof *grown);
            if (!grown) {
                status = fail(message, size, 1, "%s: out of memory", path);
                break;
            }
            src->files = grown;
        }
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *file = malloc(n);
        if (!file) {
            status = fail(message, size, 1, "%s: out of memory", path);
            break;
        }
        snprintf(file, n, "%s/%s", path, e->d_name);
        src->files[src->pages++] = file;
    }
    closedir(dir);
    if (status)
        return status;
#ifdef PAGECURL_HAVE_PDF
    if (!src->pages && pdf[0])
        return fail(message, size, 2,
                    "%s: a folder with no images (PNG, JPEG, BMP, GIF, PNM, TIFF); the PDF in it "
                    "opens as a book itself: %s/%s",
                    path, path, pdf);
#endif
    if (!src->pages)
        return fail(message, size, 2,
                    "%s: a folder with no images (PNG, JPEG, BMP, GIF, PNM, TIFF)", path);
    if (src->pages > MESH_INK_MAX_SIDES)
        return fail(message, size, 2, "%s: %d pages, more than the %d a book may have", path,
                    src->pages, MESH_INK_MAX_SIDES);
    qsort(src->files, (size_t)src->pages, sizeof *src->files, compare_names);
    pages_wire_u32(&src->request, PAGES_OPEN_FOLDER);
    pages_wire_str(&src->request, path, strlen(path));
    pages_wire_str(&src->request, src->name, strlen(src->name));
    pages_wire_u32(&src->request, (uint32_t)src->pages);
    for (int p = 0; p < src->pages; p++)
        pages_wire_str(&src->request, src->files[p] + src->prefix,
                       strlen(src->files[p] + src->prefix));
    return src->request.failed ? fail(message, size, 1, "%s: out of memory", path) : 0;
}

/* One of its pages, by name, through symbolic links or as a hard link (the same device and
 * inode); or a name in its folder that the folder would take as a page. */
static bool holds(const PagesBookSource *src, const char *path)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    /* a file of one name that no page links to is a page only by that name (below): 100,000
     * pages are not each asked */
    if (exists && !S_ISDIR(st.st_mode) && (st.st_nlink > 1 || src->named_otherwise) && src->files)
        for (int p = 0; p < src->pages; p++)
            if (pages_source_same_file(src->files[p], &st))
                return true;
    /* by its name, for a file not there yet: where the write would land */
    char *target = files_safe_write_canonical(path);
    if (!target)
        return false;
    char *slash = strrchr(target, '/');
    size_t folder = slash ? (size_t)(slash - target) : 0;
    bool held = slash && strlen(src->name) == (folder ? folder : 1) &&
                !strncmp(target, src->name, folder ? folder : 1) &&
                pages_book_image_name(slash + 1);
    free(target);
    return held;
}

static void close_folder(PagesBookSource *src)
{
    pages_source_helper_close(src);
    if (src->files)
        for (int p = 0; p < src->pages; p++)
            free(src->files[p]);
    free(src->files);
}

const PagesSourceOps pages_source_folder_ops = {
    .draw = pages_source_helper_draw,
    .draw_region = pages_source_helper_draw_region,
    .holds = holds,
    .close = close_folder,
};
