/* SPDX-License-Identifier: MIT */
#include "provided.h"

#include "../include/pagecurl/pagecurl.h"
#include "../pages/book_source.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool finite_box(const float r[4])
{
    return isfinite(r[0]) && isfinite(r[1]) && isfinite(r[2]) && isfinite(r[3]);
}

static float on_page(float v)
{
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* A host's rectangle on its page: held to it, its corners in order. */
static PagesFindRect box_of(const float r[4])
{
    float x0 = on_page(r[0]), y0 = on_page(r[1]), x1 = on_page(r[2]), y1 = on_page(r[3]);
    return (PagesFindRect){fminf(x0, x1), fminf(y0, y1), fmaxf(x0, x1), fmaxf(y0, y1)};
}

/* The host's count, checked against the list it was given. */
static int64_t counted(int n, int capacity)
{
    return n >= -1 && n <= capacity ? n : PAGES_PROVIDER_JUNK + n;
}

int64_t book_provided_text(void (*fn)(void), void *user, const PagesProviderArgs *args,
                           void *buffer, size_t bytes)
{
    int capacity = args->capacity;
    if (capacity < 0 || (size_t)capacity > bytes / sizeof(PagesTextChar))
        return PAGES_PROVIDER_CANNOT;
    pagecurl_text_char *given = calloc(capacity ? (size_t)capacity : 1, sizeof *given);
    if (!given)
        return PAGES_PROVIDER_CANNOT;
    int64_t n = counted(((pagecurl_page_text_fn)fn)(user, args->page, given, capacity), capacity);
    PagesTextChar *out = buffer;
    for (int64_t i = 0; i < n; i++) {
        const pagecurl_text_char *g = &given[i];
        if (!finite_box(g->rect)) {
            n = PAGES_PROVIDER_NOT_FINITE;
            break;
        }
        /* text: no control character, no surrogate, no code point past Unicode's */
        uint32_t c = g->code;
        if ((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
            c = ' ';
        PagesFindRect box = box_of(g->rect);
        bool none = !g->rect[0] && !g->rect[1] && !g->rect[2] && !g->rect[3];
        if (c == '\n' && none && i) /* where the line ends */
            box = (PagesFindRect){out[i - 1].box.x1, out[i - 1].box.y0, out[i - 1].box.x1,
                                  out[i - 1].box.y1};
        out[i] = (PagesTextChar){c, box};
    }
    free(given);
    return n;
}

int64_t book_provided_links(void (*fn)(void), void *user, const PagesProviderArgs *args,
                            void *buffer, size_t bytes)
{
    int capacity = args->capacity;
    if (capacity < 0 || (size_t)capacity > bytes / sizeof(PagesLink))
        return PAGES_PROVIDER_CANNOT;
    pagecurl_link *given = calloc(capacity ? (size_t)capacity : 1, sizeof *given);
    if (!given)
        return PAGES_PROVIDER_CANNOT;
    for (int i = 0; i < capacity; i++)
        given[i].size = sizeof *given, given[i].page = args->page;
    int64_t n = counted(((pagecurl_page_links_fn)fn)(user, args->page, given, capacity), capacity);
    PagesLink *out = buffer;
    for (int64_t i = 0; i < n; i++) {
        const pagecurl_link *g = &given[i];
        if (!finite_box(g->rect)) {
            n = PAGES_PROVIDER_NOT_FINITE;
            break;
        }
        PagesLink *l = &out[i];
        PagesFindRect box = box_of(g->rect);
        l->x0 = box.x0, l->y0 = box.y0, l->x1 = box.x1, l->y1 = box.y1;
        l->target = g->target >= 1 && g->target <= args->pages ? g->target - 1 : -1;
        /* the host's address as far as it is terminated, printable */
        size_t length = 0;
        while (length < PAGES_LINK_URI_MAX && length < sizeof g->uri && g->uri[length])
            length++;
        for (size_t k = 0; k < length; k++) {
            unsigned char b = (unsigned char)g->uri[k];
            l->uri[k] = b < 0x20 || b == 0x7f ? ' ' : (char)b;
        }
        l->uri[l->target >= 0 ? 0 : length] = '\0';
    }
    free(given);
    return n;
}
