/* SPDX-License-Identifier: MIT */
/* A host's pages (pages/book_source.h's PageProvider, libpagecurl's page provider): drawn, and
 * their text and links asked, on threads of their own and waited for within a time
 * (pages/provider_call.h); a page of its own shape fitted within its layer on paper. Whatever the
 * host gives is checked: a count out of range or a box that is no number is refused in a line. */
#include "book_source.h"
#include "source.h"
#include "../mesh/ink.h"

#include <stdlib.h>
#include <string.h>

#define fail pages_source_fail

int pages_source_provider_open(const PageProvider *provider, PagesBookSource **out, char *message,
                               size_t size)
{
    *out = NULL;
    /* height : width, 1:100 .. 100:1 both included (NaN fails too) */
    if (provider->pages < 1 || !provider->draw || !(provider->aspect >= 0.01f) ||
        !(provider->aspect <= 100.0f))
        return fail(message, size, 2,
                    "a page provider needs at least one page, a draw function and a page shape "
                    "between 1:100 and 100:1");
    if (provider->pages > MESH_INK_MAX_SIDES)
        return fail(message, size, 2,
                    "a page provider's %d pages: more than the %d a book may have", provider->pages,
                    MESH_INK_MAX_SIDES);
    PagesBookSource *src = pages_source_new(&pages_source_provider_ops);
    if (!src || !(src->name = strdup(""))) {
        pages_book_source_close(src);
        return fail(message, size, 1, "out of memory");
    }
    src->provider = *provider;
    src->pages = provider->pages;
    src->aspect = provider->aspect;
    if (provider->size && !(src->shapes = calloc((size_t)provider->pages, sizeof *src->shapes))) {
        pages_book_source_close(src);
        return fail(message, size, 1, "out of memory");
    }
    *out = src;
    return 0;
}

void pages_source_provider_shape(PagesBookSource *src, int side)
{
    if (!src->shapes || side < 0 || side >= src->pages)
        return;
    float known;
    __atomic_load(&src->shapes[side], &known, __ATOMIC_RELAXED);
    if (known != 0.0f)
        return;
    float w = 0.0f, h = 0.0f;
    src->provider.size(src->provider.user, side + 1, &w, &h);
    /* a shape the book would refuse (none, beyond 1:100 .. 100:1) is drawn as the leaf's */
    float aspect = w > 0.0f && h > 0.0f ? h / w : -1.0f;
    if (!(aspect >= 0.01f && aspect <= 100.0f))
        aspect = -1.0f;
    __atomic_store(&src->shapes[side], &aspect, __ATOMIC_RELAXED);
}

void pages_source_provider_forget_shape(PagesBookSource *src, int side)
{
    if (!src->shapes || side >= src->pages)
        return;
    float unknown = 0.0f;
    for (int p = side < 0 ? 0 : side; p < (side < 0 ? src->pages : side + 1); p++)
        __atomic_store(&src->shapes[p], &unknown, __ATOMIC_RELAXED);
}

void pages_source_provider_hand_over(PagesBookSource *to, PagesBookSource *from)
{
    if (to->ops == &pages_source_provider_ops && from->ops == &pages_source_provider_ops &&
        !to->left && to->provider.draw == from->provider.draw) {
        to->left = from->left;
        from->left = NULL;
    }
}

/* Side `side`'s text (`links` false: `capacity` PagesTextChar) or links (PagesLink) asked
 * of the host into `out` (`bytes`), waited for while `*stop` is not set, within the provider's
 * time: their count, or -1 with the line in message (the host could not give them, gave what is
 * refused, or has not returned). Text under finder_lock; links on the host's thread. */
static int provided(PagesBookSource *src, bool links, int side, void *out, size_t bytes,
                    int capacity, const volatile int *stop, char *message, size_t size)
{
    const PageProvider *p = &src->provider;
    const char *what = links ? "links" : "text";
    double seconds = p->seconds;
    if (links && (seconds <= 0.0 || seconds > PAGES_LINKS_SECONDS))
        seconds = PAGES_LINKS_SECONDS;
    PagesProviderArgs args = {.page = side + 1, .capacity = capacity, .pages = src->pages};
    int64_t got = 0;
    int stuck = 0;
    switch (pages_provider_call(links ? &src->links_left : &src->text_left,
                                links ? p->links : p->text, links ? p->links_fn : p->text_fn,
                                p->user, &args, out, bytes, stop, seconds, &got, &stuck)) {
    case PAGES_PROVIDER_DRAWN:
        break;
    case PAGES_PROVIDER_FAILED: /* not called */
        return -fail(message, size, 1,
                     "page %d: its %s cannot be asked of the page provider (out of memory)",
                     side + 1, what);
    case PAGES_PROVIDER_LEFT:
        return -fail(message, size, 1, "page %d: the page provider has not returned its %s",
                     side + 1, what);
    case PAGES_PROVIDER_STUCK:
        return -fail(message, size, 1,
                     "page %d: no %s: the page provider has not returned page %d's, given up "
                     "before it",
                     side + 1, what, stuck);
    }
    if (got >= 0 && got <= capacity)
        return (int)got;
    if (got == PAGES_PROVIDER_CANNOT)
        return -fail(message, size, 1, "page %d: the page provider could not give its %s", side + 1,
                     what);
    if (got == PAGES_PROVIDER_NOT_FINITE)
        return -fail(message, size, 1,
                     "page %d: the page provider's %s refused: a box that is not a finite number",
                     side + 1, what);
    return -fail(message, size, 1,
                 "page %d: the page provider's %s refused: a count of %lld, not 0 to %d", side + 1,
                 what, (long long)(got - PAGES_PROVIDER_JUNK), capacity);
}

/* The host's text of side `side` searched for `query` (pages/text_find.h); its page fills its
 * leaf (`place` as it is). Under finder_lock. */
static int find(PagesBookSource *src, int side, const char *query, PagesFindRect *rects,
                bool *first, int max, float place[4], char *message, size_t size)
{
    (void)place;
    PagesTextChar *chars = malloc(PAGES_TEXT_MAX_CHARS * sizeof *chars);
    if (!chars)
        return -fail(message, size, 1, "page %d: out of memory for its text", side + 1);
    int n = provided(src, false, side, chars, PAGES_TEXT_MAX_CHARS * sizeof *chars,
                     PAGES_TEXT_MAX_CHARS, &src->find_stop, message, size);
    int found = n > 0 ? pages_text_find(chars, n, query, rects, first, max) : n;
    free(chars);
    return found;
}

static int text(PagesBookSource *src, int side, PagesTextChar *out, int max, float place[4],
                char *message, size_t size)
{
    (void)place;
    return provided(src, false, side, out, (size_t)max * sizeof *out,
                    max < PAGES_TEXT_MAX_CHARS ? max : PAGES_TEXT_MAX_CHARS, &src->find_stop,
                    message, size);
}

static int links(PagesBookSource *src, int side, PagesLinked *out, char *message, size_t size)
{
    if (!src->provider.links)
        return 0;
    int n = provided(src, true, side, out->links, sizeof out->links, PAGES_LINKS_MAX,
                     &src->link_stop, message, size);
    out->count = n > 0 ? n : 0;
    return n;
}

static bool has_text(const PagesBookSource *src)
{
    return src->provider.text;
}

static bool draw(PagesBookSource *src, int side, uint32_t width, uint32_t height, uint8_t *rgba,
                 char *message, size_t size)
{
    bool ok = false;
    pages_book_placeholder(width, height, false, rgba); /* what the provider draws on */
    /* a page of another shape is drawn at its own, fitted within the layer on its paper */
    float aspect = 0.0f;
    if (src->shapes && side >= 0 && side < src->pages)
        __atomic_load(&src->shapes[side], &aspect, __ATOMIC_RELAXED);
    uint32_t x = 0, y = 0, w = width, h = height;
    if (aspect > 0.0f)
        pages_book_fit(aspect, width, height, &x, &y, &w, &h);
    bool whole = w == width && h == height;
    uint8_t *print = whole ? rgba : malloc((size_t)w * h * 4);
    if (!print) {
        pages_book_placeholder(width, height, true, rgba);
        fail(message, size, 1, "page %d: out of memory", side + 1);
        return false;
    }
    if (!whole)
        pages_book_placeholder(w, h, false, print);
    int stuck = 0;
    switch (pages_provider_call_draw(&src->left, src->provider.draw, src->provider.user, side + 1,
                                     w, h, print, &src->stop, &stuck)) {
    case PAGES_PROVIDER_DRAWN:
        ok = true;
        for (uint32_t row = 0; row < h && !whole; row++)
            memcpy(rgba + 4 * ((size_t)(y + row) * width + x), print + 4 * (size_t)row * w,
                   4 * (size_t)w);
        src->drawn[0] = (float)w / (float)width, src->drawn[1] = (float)h / (float)height;
        break;
    case PAGES_PROVIDER_FAILED:
        fail(message, size, 1, "page %d: the page provider could not draw it", side + 1);
        break;
    case PAGES_PROVIDER_LEFT:
        fail(message, size, 1, "page %d: the page provider has not returned from drawing it",
             side + 1);
        break;
    case PAGES_PROVIDER_STUCK:
        fail(message, size, 1,
             "page %d: not drawn: the page provider has not returned from page %d, given up "
             "before it",
             side + 1, stuck);
        break;
    }
    if (!whole)
        free(print);
    return ok;
}

static void close_provider(PagesBookSource *src)
{
    pages_provider_call_forget(&src->left); /* a call left running frees itself as it returns */
    free(src->shapes);
    pages_provider_call_forget(&src->text_left);
    pages_provider_call_forget(&src->links_left);
}

const PagesSourceOps pages_source_provider_ops = {
    .draw = draw,
    .has_text = has_text,
    .find = find,
    .text = text,
    .links = links,
    .close = close_provider,
};
