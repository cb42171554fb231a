/* SPDX-License-Identifier: MIT */
#include "library_book.h"
#include "say.h"

#include "output.h"
#include "signals.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

int app_library_status(const pagecurl_error *err)
{
    return err->status == PAGECURL_ERROR_USAGE ? 2 : 1;
}

pagecurl_quality app_library_quality(GpuQuality q)
{
    switch (q) {
    case GPU_QUALITY_LOW:
        return PAGECURL_QUALITY_LOW;
    case GPU_QUALITY_HIGH:
        return PAGECURL_QUALITY_HIGH;
    case GPU_QUALITY_REFERENCE:
        return PAGECURL_QUALITY_REFERENCE;
    case GPU_QUALITY_AUTO:
        break;
    }
    return PAGECURL_QUALITY_AUTO;
}

static pagecurl_binding binding_of(BookBinding b)
{
    return b == BOOK_BINDING_LEFT    ? PAGECURL_BINDING_LEFT
           : b == BOOK_BINDING_RIGHT ? PAGECURL_BINDING_RIGHT
                                     : PAGECURL_BINDING_BOOK;
}

static pagecurl_layout layout_of(BookLayoutKind l)
{
    return l == BOOK_LAYOUT_SPREAD   ? PAGECURL_LAYOUT_SPREAD
           : l == BOOK_LAYOUT_SINGLE ? PAGECURL_LAYOUT_SINGLE
                                     : PAGECURL_LAYOUT_AUTO;
}

pagecurl_book_desc app_library_book_desc(const AppOptions *o)
{
    /* a reflowable book's page: the view's shape, or half of it where two pages share it (the
     * library holds it to a book's) */
    float aspect = o->width && o->height ? (float)o->height / (float)o->width : 0.0f;
    if (o->layout == BOOK_LAYOUT_SPREAD || (o->layout == BOOK_LAYOUT_AUTO && aspect <= 1.0f))
        aspect *= 2.0f;
    return (pagecurl_book_desc){.size = sizeof(pagecurl_book_desc),
                                .font_size = o->font_size,
                                .page_aspect = aspect,
                                .path = o->book,
                                .binding = binding_of(o->binding),
                                .layout = layout_of(o->layout),
                                .cover = o->hard_cover ? PAGECURL_COVER_HARD : PAGECURL_COVER_SOFT,
                                .quality = app_library_quality(o->quality),
                                .max_samples = o->msaa,
                                .show_through = o->show_through > 0.0f ? o->show_through : -1.0f,
                                .grid_columns = o->nx,
                                .grid_rows = o->ny,
                                .reduced_motion = o->reduced_motion,
                                .leaf_readback = o->export_obj != NULL};
}

int app_library_find_page(const pagecurl_book *book, AppOptions *o)
{
    if (!o->page_text)
        return 0;
    int page = pagecurl_book_find_page(book, o->page_text);
    if (!page) {
        app_say(stderr,
                "--page %s: the book has no page labelled or numbered so (it has %d page(s))",
                o->page_text, pagecurl_book_page_count(book));
        return 2;
    }
    o->page = (uint32_t)page;
    char label[64];
    pagecurl_book_page_label(book, page, label, sizeof label);
    /* a number where the book labels its pages otherwise: said, since the reader may have
     * meant a printed page the book does not have */
    if (label[0] && strcasecmp(label, o->page_text))
        app_say(stderr, "note: --page %s: no page is labelled so; page %d of the book, labelled %s",
                o->page_text, page, label);
    return 0;
}

int app_library_find_text(pagecurl_book *book, AppOptions *o)
{
    if (!o->find)
        return 0;
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    const char *name = id.path[0] ? id.path : "the built-in book";
    pagecurl_search_state s = {.size = sizeof s};
    pagecurl_book_search_state(book, &s);
    if (!s.has_text) {
        app_say(stderr, "--find %s: %s has no text to search", o->find, name);
        return 1;
    }
    pagecurl_book_search(book, o->find);
    /* the whole count, so that the first match is the book's first: a signal ends the wait */
    const struct timespec nap = {0, 2 * 1000 * 1000};
    for (pagecurl_book_search_state(book, &s); !s.done && !app_signals_caught();
         pagecurl_book_search_state(book, &s))
        nanosleep(&nap, NULL);
    if (!s.done)
        return 1;
    pagecurl_search_match m = {.size = sizeof m};
    if (!pagecurl_book_search_match(book, 0, &m)) {
        app_say(stderr, "--find %s: not found in %s", o->find, name);
        return 1;
    }
    o->page = (uint32_t)m.page;
    if (!o->page_text) /* where it opens, as --page would say it */
        o->page_text = o->find;
    return 0;
}

int app_library_list_links(pagecurl_book *book, const char *page_text)
{
    int page = pagecurl_book_find_page(book, page_text);
    if (!page) {
        app_say(stderr,
                "--list-links %s: the book has no page labelled or numbered so (it has %d "
                "page(s))",
                page_text, pagecurl_book_page_count(book));
        return 2;
    }
    int count = pagecurl_book_link_count(book, page);
    pagecurl_event e;
    while (pagecurl_book_poll_event(book, &e))
        if (e.type == PAGECURL_EVENT_ERROR) { /* the page's links could not be read */
            app_say(stderr, "--list-links %s: %s", page_text, e.message);
            return 1;
        }
    for (int k = 0; k < count; k++) {
        pagecurl_link l = {.size = sizeof l};
        if (!pagecurl_book_link(book, page, k, &l))
            continue;
        printf("%.4f %.4f %.4f %.4f ", l.rect[0], l.rect[1], l.rect[2], l.rect[3]);
        if (l.target)
            printf("page %d\n", l.target);
        else if (l.uri[0])
            printf("uri %s\n", l.uri);
        else
            printf("nowhere\n");
    }
    return 0;
}

int app_library_print_text(pagecurl_book *book, const AppOptions *o)
{
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    const char *name = id.path[0] ? id.path : "the built-in book";
    int page = pagecurl_book_find_page(book, o->text_page);
    if (!page) {
        app_say(stderr,
                "--text %s: the book has no page labelled or numbered so (it has %d page(s))",
                o->text_page, pagecurl_book_page_count(book));
        return 2;
    }
    pagecurl_search_state s = {.size = sizeof s};
    pagecurl_book_search_state(book, &s);
    if (!s.has_text) {
        app_say(stderr, "--text %s: %s has no text", o->text_page, name);
        return 1;
    }
    long n = pagecurl_book_page_text(book, page, NULL, 0);
    char *text = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (n > 0 && text)
        pagecurl_book_page_text(book, page, text, (size_t)n + 1);
    int status = 0;
    pagecurl_event e;
    if (n < 0) {
        bool said = false;
        while (pagecurl_book_poll_event(book, &e))
            if (e.type == PAGECURL_EVENT_ERROR && !said)
                said = true, app_say(stderr, "--text %s: %s", o->text_page, e.message);
        if (!said)
            app_say(stderr, "--text %s: page %d's text cannot be read", o->text_page, page);
        status = 1;
    } else if (n == 0) {
        app_say(stderr, "--text %s: page %d of %s has no text", o->text_page, page, name);
        status = 1;
    } else if (!text) {
        app_say(stderr, "--text %s: out of memory for page %d's text", o->text_page, page);
        status = 1;
    } else if (fwrite(text, 1, (size_t)n, stdout) != (size_t)n ||
               (text[n - 1] != '\n' && putchar('\n') == EOF) || fflush(stdout) != 0) {
        app_say(stderr, "--text %s: the text could not be written out", o->text_page);
        status = 1;
    }
    free(text);
    return status;
}

static bool book_holds(const void *book, const char *path)
{
    return pagecurl_book_holds(book, path);
}

int app_library_check_outputs(const pagecurl_book *book, const AppOptions *o)
{
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    char message[4608];
    int refused = app_output_check_book(o, book_holds, book, id.path, message, sizeof message);
    if (refused)
        app_say(stderr, "%s", message);
    return refused;
}

void app_library_note_damage(const pagecurl_book *book)
{
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(book, &id);
    if (id.repaired)
        app_say(stderr,
                "note: %s is damaged or cut short, read as far as it goes: pages may be missing "
                "or blank",
                id.path);
}

int app_library_finish(pagecurl_context *ctx, int status)
{
    uint32_t findings = ctx ? pagecurl_context_messages(ctx) : 0;
    pagecurl_context_destroy(ctx);
    int caught = app_signals_caught();
    if (caught) {
        app_say(stderr, "stopped by %s", app_signals_name(caught));
        if (status == 0)
            status = 128 + caught;
    }
    if (findings) {
        app_say(stderr, "validation reported %u message(s)", findings);
        if (status == 0)
            status = 1;
    }
    return status;
}
