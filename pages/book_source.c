/* SPDX-License-Identifier: MIT */
/* What every source of pages shares (pages/source.h): a call's arguments checked once, then
 * passed to the source's own function through its table; a book's labels, contents and the
 * facts it was opened with; the locks that keep one call at a time with a helper. */
/* realpath */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include "book_source.h"
#include "source.h"

#include "../files/input.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define fail pages_source_fail

int pages_source_fail(char *message, size_t size, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
    return status;
}

PagesBookSource *pages_source_new(const PagesSourceOps *ops)
{
    PagesBookSource *src = calloc(1, sizeof *src);
    if (src)
        src->ops = ops, src->book = -1,
        src->finder_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER,
        src->helper_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    return src;
}

bool pages_source_same_file(const char *a, const struct stat *sb)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

int pages_book_source_open_provider(const PageProvider *provider, PagesBookSource **out,
                                    char *message, size_t size)
{
    return pages_source_provider_open(provider, out, message, size);
}

void pages_book_source_shape(PagesBookSource *src, int side)
{
    pages_source_provider_shape(src, side);
}

void pages_book_source_forget_shape(PagesBookSource *src, int side)
{
    pages_source_provider_forget_shape(src, side);
}

void pages_book_source_hand_over(PagesBookSource *to, PagesBookSource *from)
{
    pages_source_provider_hand_over(to, from);
}

void pages_book_source_draw_fault(PagesBookSource *src, uint32_t ms)
{
    src->draw_fault_ms = ms;
}

int pages_book_source_open(const char *path, PagesBookSource **out, char *message, size_t size)
{
    return pages_book_source_open_with(path, NULL, out, message, size);
}

int pages_book_source_open_with(const char *path, const PagesTextLayout *layout,
                                PagesBookSource **out, char *message, size_t size)
{
    *out = NULL;
    if (!path)
        return pages_source_builtin_open(out, message, size);
    struct stat st;
    char *abs = realpath(path, NULL);
    if (stat(path, &st) != 0 || !abs) {
        int status = fail(message, size, 2, "%s: %s", path, strerror(errno));
        free(abs);
        return status;
    }
    const PagesSourceOps *ops = NULL;
    int status = 0;
    if (S_ISDIR(st.st_mode))
        ops = &pages_source_folder_ops;
    else if (!S_ISREG(st.st_mode))
        status = fail(message, size, 1, "%s: %s, not a regular file", path, files_kind(st.st_mode));
    else if (pages_source_document_file(path))
        ops = &pages_source_document_ops;
    else
        status = fail(message, size, 2,
                      "%s: neither a folder of images nor a book pagecurl opens (PDF, EPUB, "
                      "FB2, XPS, CBZ)",
                      path);
    PagesBookSource *src = ops ? pages_source_new(ops) : NULL;
    if (ops && !src)
        status = fail(message, size, 1, "out of memory");
    if (status) {
        free(abs);
        return status;
    }
    src->name = abs;
    status = ops == &pages_source_folder_ops
                 ? pages_source_folder_open(src, path, message, size)
                 : pages_source_document_open(src, path, layout, message, size);
    if (!status)
        status = pages_source_helper_open(src, true, path, message, size);
    if (status) {
        pages_book_source_close(src);
        return status;
    }
    *out = src;
    return 0;
}

int pages_book_source_relayout(const PagesBookSource *src, const PagesTextLayout *layout,
                               const int *sides, int *moved, int count, PagesBookSource **out,
                               char *message, size_t size)
{
    *out = NULL;
    if (src->ops != &pages_source_document_ops || !src->reflowable)
        return fail(message, size, 2,
                    "%s%sits pages are its own (a PDF, XPS, comic, folder of images or a host's): "
                    "its text cannot be laid out again",
                    src->name, src->name[0] ? ": " : "");
    return pages_source_document_relayout(src, layout, sides, moved, count, out, message, size);
}

PagesTextLayout pages_book_source_layout(const PagesBookSource *src)
{
    return src->reflowable ? src->layout : (PagesTextLayout){0};
}

float pages_book_source_font_step(float size, int steps)
{
    static const float sizes[] = {PAGES_BOOK_FONT_SIZES};
    const int n = (int)(sizeof sizes / sizeof sizes[0]);
    int at = 0; /* the listed size nearest `size` */
    for (int i = 1; i < n; i++)
        if (fabsf(sizes[i] - size) < fabsf(sizes[at] - size))
            at = i;
    /* a size between two listed steps to the next listed one that way */
    if (steps > 0 && sizes[at] > size)
        steps--;
    else if (steps < 0 && sizes[at] < size)
        steps++;
    at += steps;
    return sizes[at < 0 ? 0 : at >= n ? n - 1 : at];
}

void pages_book_source_abort(PagesBookSource *src)
{
    src->stop = 1; /* the helper drawing the page is killed */
}

void pages_book_source_resume(PagesBookSource *src)
{
    src->stop = 0;
}

void pages_book_source_close(PagesBookSource *src)
{
    if (!src)
        return;
    src->ops->close(src);
    pthread_mutex_destroy(&src->finder_lock);
    pthread_mutex_destroy(&src->helper_lock);
    page_labels_free(&src->labels);
    for (int i = 0; i < src->outline_count; i++)
        free(src->outline[i].title);
    free(src->outline);
    free(src->name);
    free(src);
}

int pages_book_source_pages(const PagesBookSource *src)
{
    return src->pages;
}

float pages_book_source_aspect(const PagesBookSource *src)
{
    return src->aspect;
}

int pages_book_source_outline_count(const PagesBookSource *src)
{
    return src->outline_count;
}

const PagesOutlineEntry *pages_book_source_outline(const PagesBookSource *src, int i)
{
    return i >= 0 && i < src->outline_count ? &src->outline[i] : NULL;
}

/* Whether `text` holds `needle`, ASCII letters in either case. */
static bool holds_folded(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (; *text; text++)
        if (!strncasecmp(text, needle, n))
            return true;
    return n == 0;
}

int pages_book_source_outline_find(const PagesBookSource *src, const char *text, int from)
{
    for (int i = from < 0 ? 0 : from; i < src->outline_count && text && *text; i++)
        if (src->outline[i].side >= 0 && holds_folded(src->outline[i].title, text))
            return i;
    return -1;
}

uint32_t pages_book_source_confined(const PagesBookSource *src)
{
    return src->confined;
}

const char *pages_book_source_id(const PagesBookSource *src)
{
    return src->id;
}

bool pages_book_source_repaired(const PagesBookSource *src)
{
    return src->repaired;
}

bool pages_book_source_right_to_left(const PagesBookSource *src)
{
    return src->right_to_left;
}

bool pages_book_source_reflowable(const PagesBookSource *src)
{
    return src->reflowable;
}

const char *pages_book_source_name(const PagesBookSource *src)
{
    return src->name;
}

bool pages_book_source_builtin(const PagesBookSource *src)
{
    return src->ops == &pages_source_builtin_ops;
}

void pages_book_source_side_label(const PagesBookSource *src, int side, char *out, size_t size)
{
    if (side >= 0 && side < src->pages)
        page_labels_text(&src->labels, side, out, size);
    else if (size)
        out[0] = '\0';
}

int pages_book_source_find_page(const PagesBookSource *src, const char *text)
{
    if (!text || !*text)
        return 0;
    int folded = 0;
    if (src->labels.count)
        for (int p = 0; p < src->pages; p++) {
            char label[PAGE_LABEL_MAX];
            page_labels_text(&src->labels, p, label, sizeof label);
            if (!strcmp(label, text))
                return p + 1;
            if (!folded && label[0] && !strcasecmp(label, text))
                folded = p + 1;
        }
    if (folded)
        return folded;
    char *end = NULL;
    errno = 0;
    long n = isdigit((unsigned char)text[0]) ? strtol(text, &end, 10) : 0;
    return n >= 1 && n <= src->pages && !errno && !*end ? (int)n : 0;
}
void pages_book_source_drawn_print(const PagesBookSource *src, float print[2])
{
    print[0] = src->drawn[0], print[1] = src->drawn[1];
}

bool pages_book_source_draw(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                            uint8_t *rgba, char *message, size_t size)
{
    src->drawn[0] = src->drawn[1] = 1.0f; /* the leaf's shape, unless the source says */
    bool ok = src->ops->draw(src, side, width, height, rgba, message, size);
    if (!ok)
        pages_book_placeholder(width, height, true, rgba);
    return ok;
}

const char *pages_book_source_notice(const PagesBookSource *src)
{
    return src->notice;
}

bool pages_book_source_draws_regions(const PagesBookSource *src)
{
    return src->ops->draw_region;
}

bool pages_book_source_draw_region(PagesBookSource *src, int side, const PageRegion *region,
                                   uint8_t *rgba, char *message, size_t size)
{
    bool ok = false;
    if (region->full_width >= 1.0f && region->full_height >= 1.0f &&
        region->full_width <= 65536.0f && region->full_height <= 65536.0f) {
        if (src->ops->draw_region)
            ok = src->ops->draw_region(src, side, region, rgba, message, size);
        else
            fail(message, size, 1, "page %d: this book's pages are drawn whole", side + 1);
    }
    if (!ok) /* paper where it was not drawn (the helper draws the region's paper too) */
        pages_book_placeholder(region->width, region->height, false, rgba);
    return ok;
}

bool pages_book_source_holds(const PagesBookSource *src, const char *path)
{
    return src->ops->holds && src->ops->holds(src, path);
}

bool pages_book_source_has_text(const PagesBookSource *src)
{
    return src->ops->has_text && src->ops->has_text(src);
}

void pages_book_source_find_abort(PagesBookSource *src)
{
    src->find_stop = 1;
}

void pages_book_source_find_resume(PagesBookSource *src)
{
    src->find_stop = 0;
}

static int find_locked(PagesBookSource *src, int side, const char *query, PagesFindRect *rects,
                       bool *first, int max, float place[4], char *message, size_t size)
{
    place[0] = place[1] = 0.0f, place[2] = place[3] = 1.0f;
    if (!pages_book_source_has_text(src) || side < 0 || side >= src->pages)
        return 0;
    size_t length = strlen(query);
    if (!length || max <= 0)
        return 0;
    if (length > PAGES_FIND_MAX_QUERY)
        return -fail(message, size, 2, "the search is longer than %d bytes", PAGES_FIND_MAX_QUERY);
    return src->ops->find(src, side, query, rects, first, max, place, message, size);
}

int pages_book_source_find(PagesBookSource *src, int side, const char *query, PagesFindRect *rects,
                           bool *first, int max, float place[4], char *message, size_t size)
{
    pthread_mutex_lock(&src->finder_lock);
    int n = find_locked(src, side, query, rects, first, max, place, message, size);
    pthread_mutex_unlock(&src->finder_lock);
    return n;
}

int pages_book_source_text(PagesBookSource *src, int side, PagesTextChar *out, int max,
                           float place[4], char *message, size_t size)
{
    place[0] = place[1] = 0.0f, place[2] = place[3] = 1.0f;
    if (!pages_book_source_has_text(src) || side < 0 || side >= src->pages || max <= 0)
        return 0;
    pthread_mutex_lock(&src->finder_lock);
    int n = src->ops->text(src, side, out, max, place, message, size);
    pthread_mutex_unlock(&src->finder_lock);
    return n;
}

int pages_book_source_links(PagesBookSource *src, int side, PagesLinked *out, char *message,
                            size_t size)
{
    out->ok = 1, out->count = 0, out->message[0] = '\0';
    out->place[0] = out->place[1] = 0.0f, out->place[2] = out->place[3] = 1.0f;
    if (!src->ops->links || side < 0 || side >= src->pages)
        return 0;
    return src->ops->links(src, side, out, message, size);
}

bool pages_book_source_text_place(PagesBookSource *src, int side, int32_t place[3])
{
    if (!src->ops->place || !src->reflowable || side < 0 || side >= src->pages)
        return false;
    return src->ops->place(src, side, place) == side && place[0] >= 0 && place[1] >= 0 &&
           place[2] >= 0;
}

int pages_book_source_text_place_side(PagesBookSource *src, const int32_t place[3])
{
    if (!src->ops->place || !src->reflowable || place[0] < 0 || place[1] < 0 || place[2] < 0)
        return -1;
    int32_t asked[3] = {place[0], place[1], place[2]};
    return src->ops->place(src, -1, asked);
}
