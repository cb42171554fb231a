/* SPDX-License-Identifier: MIT */
/* libpagecurl's functions on what a book's pages say (include/pagecurl/pagecurl.h): their labels,
 * the outline, a place in the text, the book's identity, the search, the links and the way along
 * them, a page's text and its selection. Each checks the host's arguments and converts between the
 * header's types and the book's (book/open_book.h, the page source's), as book/pagecurl.c does. */
#include "../include/pagecurl/pagecurl.h"
#include "facade.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void pagecurl_book_page_label(const pagecurl_book *b, int page, char *out, size_t size)
{
    if (!b || !out) {
        if (out && size)
            out[0] = '\0';
        return;
    }
    const PagesBookSource *src = facade_source(b);
    if (src)
        pages_book_source_side_label(src, page - 1, out, size);
    else if (size)
        out[0] = '\0';
}

int pagecurl_book_find_page(const pagecurl_book *b, const char *text)
{
    if (!b || !text)
        return 0;
    const PagesBookSource *src = facade_source(b);
    return src ? pages_book_source_find_page(src, text) : 0;
}

int pagecurl_book_outline_count(const pagecurl_book *b)
{
    if (!b)
        return 0;
    const PagesBookSource *src = facade_source(b);
    return src ? pages_book_source_outline_count(src) : 0;
}

int pagecurl_book_outline_entry(const pagecurl_book *b, int entry, char *title, size_t size,
                                int *depth)
{
    if (!b)
        return -1;
    const PagesBookSource *src = facade_source(b);
    const PagesOutlineEntry *e = src ? pages_book_source_outline(src, entry) : NULL;
    if (!e)
        return -1;
    if (title && size) {
        /* cut at a character's boundary: a UTF-8 title's continuation bytes stay together */
        size_t n = strlen(e->title);
        if (n >= size) {
            n = size - 1;
            while (n && ((unsigned char)e->title[n] & 0xc0) == 0x80)
                n--;
        }
        memcpy(title, e->title, n);
        title[n] = '\0';
    }
    if (depth)
        *depth = e->depth;
    return e->side + 1; /* -1 (nowhere) is 0 */
}

bool pagecurl_book_text_place(pagecurl_book *b, int page, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    PagesBookSource *src = facade_source(b);
    int32_t place[3];
    if (!src || !out || size < PAGECURL_TEXT_PLACE_MAX ||
        !pages_book_source_text_place(src, page - 1, place))
        return false;
    snprintf(out, size, "t1 %d %d %d", place[0], place[1], place[2]);
    return true;
}

int pagecurl_book_text_place_page(pagecurl_book *b, const char *place)
{
    PagesBookSource *src = facade_source(b);
    int32_t at[3];
    int end = -1;
    if (!src || !place ||
        sscanf(place, "t1 %" SCNd32 " %" SCNd32 " %" SCNd32 "%n", &at[0], &at[1], &at[2], &end) !=
            3 ||
        end < 0 || place[end] != '\0')
        return 0;
    return pages_book_source_text_place_side(src, at) + 1; /* -1 (none) is 0 */
}

int pagecurl_book_outline_find(const pagecurl_book *b, const char *text, int from)
{
    if (!b)
        return -1;
    const PagesBookSource *src = facade_source(b);
    return src && text && from >= 0 ? pages_book_source_outline_find(src, text, from) : -1;
}

/* --- files ----------------------------------------------------------------------------------- */

void pagecurl_book_identity_of(const pagecurl_book *b, pagecurl_book_identity *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    pagecurl_book_identity id = {.size = size};
    const PagesBookSource *src = facade_source(b);
    if (src) {
        snprintf(id.path, sizeof id.path, "%s", pages_book_source_name(src));
        snprintf(id.id, sizeof id.id, "%s", pages_book_source_id(src));
        id.repaired = pages_book_source_repaired(src);
        book_open_text_id(b->open, id.text_id, sizeof id.text_id);
    }
    memcpy(out, &id, size < sizeof id ? size : sizeof id);
}

bool pagecurl_book_holds(const pagecurl_book *b, const char *path)
{
    const PagesBookSource *src = facade_source(b);
    return src && path && pages_book_source_holds(src, path);
}

bool pagecurl_book_search(pagecurl_book *b, const char *query)
{
    return b && book_open_search(b->open, query);
}

void pagecurl_book_search_state(const pagecurl_book *b, pagecurl_search_state *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    const PagesBookSource *src = facade_source(b);
    BookSearchProgress p = {.done = true, .pages = b->open->pages};
    if (b->open->search)
        book_search_progress(b->open->search, &p);
    pagecurl_search_state s = {.size = size,
                               .generation = (uint32_t)p.generation,
                               .has_text = src && pages_book_source_has_text(src),
                               .done = p.done,
                               .pages_read = p.pages_read,
                               .pages = p.pages,
                               .matches = p.matches,
                               .failed = p.failed_page};
    memcpy(out, &s, size < sizeof s ? size : sizeof s);
}

bool pagecurl_book_search_match(const pagecurl_book *b, int k, pagecurl_search_match *out)
{
    BookSearchMatch m;
    if (!b || !out || !b->open->search || !book_search_match(b->open->search, k, &m))
        return false;
    uint32_t size = out->size;
    pagecurl_search_match o = {.size = size, .page = m.side + 1, .rect_count = m.rects};
    for (int i = 0; i < m.rects; i++) {
        o.rects[i][0] = m.rect[i].x0, o.rects[i][1] = m.rect[i].y0;
        o.rects[i][2] = m.rect[i].x1, o.rects[i][3] = m.rect[i].y1;
    }
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
    return true;
}

int pagecurl_book_search_next(const pagecurl_book *b, bool forward)
{
    return b ? book_open_search_next(b->open, forward) : -1;
}

bool pagecurl_book_show_match(pagecurl_book *b, int k)
{
    pagecurl_search_match m = {.size = sizeof m};
    return pagecurl_book_search_match(b, k, &m) && pagecurl_book_go_to(b, m.page);
}

static void link_out(const BookLinksSide *p, int k, pagecurl_link *out)
{
    uint32_t size = out->size;
    const PagesLink *l = &p->links[k];
    pagecurl_link o = {.size = size,
                       .page = p->side + 1,
                       .rect = {l->x0, l->y0, l->x1, l->y1},
                       .target = l->target + 1};
    snprintf(o.uri, sizeof o.uri, "%s", l->uri);
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
}

int pagecurl_book_link_count(pagecurl_book *b, int page)
{
    const BookLinksSide *p = b ? book_open_links(b->open, page - 1) : NULL;
    return p ? p->count : 0;
}

bool pagecurl_book_link(pagecurl_book *b, int page, int k, pagecurl_link *out)
{
    const BookLinksSide *p = b && out ? book_open_links(b->open, page - 1) : NULL;
    if (!p || k < 0 || k >= p->count)
        return false;
    link_out(p, k, out);
    return true;
}

bool pagecurl_book_link_at(pagecurl_book *b, double x, double y, pagecurl_link *out)
{
    pagecurl_hit hit = {.size = sizeof hit};
    if (!b || !out || !pagecurl_book_hit(b, x, y, &hit))
        return false;
    const BookLinksSide *p = book_open_links(b->open, hit.page - 1);
    int k = p ? book_links_at(p, hit.u, 1.0f - hit.v) : -1; /* v runs up from the page's foot */
    if (k < 0)
        return false;
    link_out(p, k, out);
    return true;
}

bool pagecurl_book_follow(pagecurl_book *b, int page, double time)
{
    if (!b || page < 1 || page > b->open->pages || !isfinite(time))
        return false;
    return book_open_follow(b->open, page, time);
}

bool pagecurl_book_back(pagecurl_book *b, double time)
{
    return b && isfinite(time) && book_open_step_back(b->open, false, time);
}

bool pagecurl_book_forward(pagecurl_book *b, double time)
{
    return b && isfinite(time) && book_open_step_back(b->open, true, time);
}

/* --- text and its selection ------------------------------------------------------------------ */

long pagecurl_book_page_text(pagecurl_book *b, int page, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    if (!b)
        return -1;
    return book_open_side_text(b->open, page - 1, out, size);
}

bool pagecurl_book_select(pagecurl_book *b, const pagecurl_hit *from, const pagecurl_hit *to,
                          bool words, pagecurl_selection *out)
{
    if (!b)
        return false;
    if (from) {
        to = to ? to : from;
        BookHit f = {.side = from->page - 1, .u = from->u, .v = from->v},
                t = {.side = to->page - 1, .u = to->u, .v = to->v};
        if (!book_open_select(b->open, &f, &t, words))
            return false;
    } else {
        book_open_select(b->open, NULL, NULL, words);
    }
    if (out)
        pagecurl_book_selection(b, out);
    return from != NULL;
}

bool pagecurl_book_selection(const pagecurl_book *b, pagecurl_selection *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    pagecurl_selection o = {.size = size};
    PagesFindRect r[PAGECURL_SELECTION_RECTS];
    BookSelection *selection = b->open->selection;
    int side = -1,
        n = selection ? book_selection_get(selection, &side, &o.chars, r, PAGECURL_SELECTION_RECTS)
                      : 0;
    o.page = side + 1, o.rect_count = n;
    for (int i = 0; i < n; i++) {
        o.rects[i][0] = r[i].x0, o.rects[i][1] = r[i].y0;
        o.rects[i][2] = r[i].x1, o.rects[i][3] = r[i].y1;
    }
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
    return o.page > 0;
}

size_t pagecurl_book_selection_text(const pagecurl_book *b, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    return b && b->open->selection ? book_selection_text(b->open->selection, out, size) : 0;
}
