/* SPDX-License-Identifier: MIT */
/* A book file: a PDF, EPUB, FB2, XPS or comic book (CBZ), told by its name or its first bytes,
 * opened here (never a FIFO or a device) and read by the page helper alone (source_helper.c),
 * which parses all of it. A reflowable book (EPUB, FB2) is laid out by the helper to a page's
 * shape and a text size, and laid out again by a helper of its own. */
#include "book_source.h"
#include "source.h"

#include "../files/input.h"
#include "../files/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define fail pages_source_fail

/* Whether the file at `path` is a document the helper reads (a PDF, EPUB, FB2, XPS or comic
 * book): by its name, or by its first bytes whatever its name (a PDF's header, a zip's, an FB2
 * book's <FictionBook>). The helper then tells which by its content; this process parses none of
 * it. */
bool pages_source_document_file(const char *path)
{
    static const char *const names[] = {".pdf", ".epub", ".fb2", ".xps", ".oxps", ".cbz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (pages_book_has_suffix(path, names[i]))
            return true;
    char why[256];
    FILE *f = files_open(path, why, sizeof why);
    if (!f)
        return false;
    unsigned char head[1024];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n >= 4 && !memcmp(head, "PK\3\4", 4))
        return true;
    /* MuPDF finds a PDF's header within its first 1 KiB; an FB2 book's element comes after its
     * XML declaration */
    bool pdf = false, fb2 = false;
    for (size_t i = 0; i < n && !pdf && !fb2; i++) {
        pdf = i + 5 <= n && !memcmp(head + i, "%PDF-", 5);
        fb2 = i + 12 <= n && !memcmp(head + i, "<FictionBook", 12);
    }
    return pdf || fb2;
}

/* `layout` as the helper lays a book out to it: a page's shape and a text size outside a book's
 * (NaN among them) are the defaults. */
static PagesTextLayout text_layout(const PagesTextLayout *layout)
{
    PagesTextLayout l = {PAGES_BOOK_PAGE_ASPECT, PAGES_BOOK_FONT_SIZE};
    if (layout && layout->aspect >= PAGES_BOOK_ASPECT_MIN &&
        layout->aspect <= PAGES_BOOK_ASPECT_MAX)
        l.aspect = layout->aspect;
    if (layout && layout->font_size >= PAGES_BOOK_FONT_MIN &&
        layout->font_size <= PAGES_BOOK_FONT_MAX)
        l.font_size = layout->font_size;
    return l;
}

/* The document at `path`, opened here (files_open: never a FIFO or a device) and given to the
 * helper as its descriptor: MuPDF opening the path itself would block on a FIFO. */
int pages_source_document_open(PagesBookSource *src, const char *path,
                               const PagesTextLayout *layout, char *message, size_t size)
{
#ifndef PAGECURL_HAVE_PDF
    (void)src, (void)layout;
    return fail(message, size, 1,
                "%s: this build reads no PDF, EPUB, FB2, XPS or CBZ books (built "
                "without MuPDF); give a folder of images",
                path);
#else
    char why[256];
    FILE *f = files_open(path, why, sizeof why);
    if (!f)
        return fail(message, size, errno == ENOENT ? 2 : 1, "%s: %s", path, why);
    struct stat st;
    bool empty = fstat(fileno(f), &st) == 0 && st.st_size == 0;
    src->book = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
    int e = errno;
    fclose(f);
    if (src->book < 0)
        return fail(message, size, 1, "%s: %s", path, strerror(e));
    if (empty) /* MuPDF: "cannot tell in file" */
        return fail(message, size, 1, "%s: an empty file, not a book", path);
    pages_wire_u32(&src->request, PAGES_OPEN_DOCUMENT);
    pages_wire_str(&src->request, path, strlen(path));
    pages_wire_str(&src->request, src->name, strlen(src->name));
    pages_wire_u32(&src->request, 0);
    src->layout = text_layout(layout);
    pages_wire_f32(&src->request, src->layout.aspect);
    pages_wire_f32(&src->request, src->layout.font_size);
    return src->request.failed ? fail(message, size, 1, "%s: out of memory", path) : 0;
#endif
}

int pages_source_document_relayout(const PagesBookSource *src, const PagesTextLayout *layout,
                                   const int *pages, int *moved, int count, PagesBookSource **out,
                                   char *message, size_t size)
{
    *out = NULL;
    PagesBookSource *to = pages_source_new(&pages_source_document_ops);
    if (!to)
        return fail(message, size, 1, "out of memory");
    to->draw_fault_ms = src->draw_fault_ms;
    to->name = strdup(src->name);
    to->book = fcntl(src->book, F_DUPFD_CLOEXEC, 0);
    pages_wire_put(&to->request, src->request.data, src->request.size);
    int status = !to->name || to->book < 0 || to->request.failed || to->request.size < 8
                     ? fail(message, size, 1, "%s: %s", src->name,
                            to->book < 0 ? strerror(errno) : "out of memory")
                     : 0;
    /* a helper of its own opens the book as it was laid out, takes note of where each page's
     * text begins, and lays it out again: the helper that draws the new pages */
    if (!status)
        status = pages_source_helper_open(to, true, src->name, message, size);
    PagesWireOut o = {0};
    to->layout = text_layout(layout);
    pages_wire_f32(&o, to->layout.aspect);
    pages_wire_f32(&o, to->layout.font_size);
    pages_wire_u32(&o, (uint32_t)count);
    for (int i = 0; i < count; i++)
        pages_wire_i32(&o, pages[i]);
    if (!status && o.failed)
        status = fail(message, size, 1, "%s: out of memory", src->name);
    if (!status)
        status = pages_source_helper_ask(to, &to->helper, PAGES_WIRE_RELAYOUT, &o, NULL, true,
                                         src->name, moved, count, message, size);
    pages_wire_out_free(&o);
    if (!status) { /* a helper started again, or the search's, opens it as laid out now */
        memcpy(to->request.data + to->request.size - 8, &to->layout.aspect, 4);
        memcpy(to->request.data + to->request.size - 4, &to->layout.font_size, 4);
    }
    if (status) {
        pages_book_source_close(to);
        return status;
    }
    *out = to;
    return 0;
}

/* The file itself, by name, through symbolic links or as a hard link; or a name that leads to
 * it once written (files/safe_write.h's canonical path). */
static bool holds(const PagesBookSource *src, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && pages_source_same_file(src->name, &st))
        return true;
    char *target = files_safe_write_canonical(path);
    if (!target)
        return false;
    bool held = !strcmp(target, src->name);
    free(target);
    return held;
}

static bool has_text(const PagesBookSource *src)
{
    (void)src;
    return true;
}

const PagesSourceOps pages_source_document_ops = {
    .draw = pages_source_helper_draw,
    .draw_region = pages_source_helper_draw_region,
    .has_text = has_text,
    .find = pages_source_helper_find,
    .text = pages_source_helper_text,
    .links = pages_source_helper_links,
    .holds = holds,
    .place = pages_source_helper_place,
    .close = pages_source_helper_close,
};
