/* SPDX-License-Identifier: MIT */
/* The page helper's side of a folder of images and a book file (pages/source.h): their OPEN sent
 * to a helper started with the book and its answer read, pages drawn whole or in regions, a
 * page's matches and text asked of the search's helper, its links of the links' helper, a
 * reflowable book's place of the drawing one. Every answer is a hostile process's: checked, and
 * a malformed one stops the helper (the next call starts it again). */
#define _XOPEN_SOURCE 700

#include "book_source.h"
#include "source.h"
#include "../mesh/ink.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define fail pages_source_fail

/* The page labels and outline of the helper's OPENED: false where they are malformed. */
static bool read_contents(PagesBookSource *src, PagesWireIn *in)
{
    page_labels_free(&src->labels);
    for (int i = 0; i < src->outline_count; i++)
        free(src->outline[i].title);
    free(src->outline);
    src->outline = NULL, src->outline_count = 0;
    uint32_t ranges = pages_wire_get_u32(in);
    if (ranges > PAGE_LABELS_MAX_RANGES)
        return false;
    for (uint32_t i = 0; i < ranges && !in->bad; i++) {
        char prefix[4 * PAGE_LABELS_MAX_PREFIX + 1];
        int32_t start = pages_wire_get_i32(in);
        uint32_t style = pages_wire_get_u32(in);
        int32_t first = pages_wire_get_i32(in);
        pages_wire_get_str(in, prefix, sizeof prefix - 1, true);
        if (style > PAGES_LABEL_LETTERS_LOWER)
            return false;
        page_labels_add(&src->labels, start, (PagesLabelStyle)style, first, prefix);
    }
    page_labels_finish(&src->labels, src->pages);
    uint32_t entries = pages_wire_get_u32(in);
    if (in->bad || entries > PAGES_OUTLINE_MAX)
        return false;
    if (entries && !(src->outline = calloc(entries, sizeof *src->outline)))
        return false;
    for (uint32_t i = 0; i < entries && !in->bad; i++) {
        char title[PAGES_OUTLINE_TITLE_MAX];
        int32_t side = pages_wire_get_i32(in), depth = pages_wire_get_i32(in);
        size_t n = pages_wire_get_str(in, title, sizeof title - 1, true);
        PagesOutlineEntry *e = &src->outline[src->outline_count];
        *e = (PagesOutlineEntry){.title = malloc(n + 1),
                                 .side = side >= 0 && side < src->pages ? side : -1,
                                 .depth = depth < 0                      ? 0
                                          : depth >= PAGES_OUTLINE_DEPTH ? PAGES_OUTLINE_DEPTH - 1
                                                                         : depth};
        if (!e->title)
            return false;
        memcpy(e->title, title, n + 1);
        src->outline_count++;
    }
    return !in->bad;
}

/* A helper started with the book, and its OPENED read: what the book is, where `first` (the
 * open), else only checked against it (a helper started again for the next page). 0, or the exit
 * status with the line. */
static int helper_answer(PagesBookSource *src, PageHelper *helper, uint32_t type, uint8_t *answer,
                         size_t n, bool first, const char *shown, int *moved, int count,
                         char *message, size_t size);

int pages_source_helper_ask(PagesBookSource *src, PageHelper **helper, uint32_t type,
                            const PagesWireOut *payload, const volatile int *stop, bool first,
                            const char *shown, int *moved, int count, char *message, size_t size)
{
    if (!*helper && !(*helper = page_helper_create()))
        return fail(message, size, 1, "%s: out of memory", shown);
    uint32_t answered = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char why[512];
    switch (page_helper_call(*helper, type, payload, type == PAGES_WIRE_OPEN ? src->book : -1,
                             &answered, &answer, &n, first ? NULL : stop, why, sizeof why)) {
    case PAGES_HELPER_ANSWERED:
        break;
    case PAGES_HELPER_NONE:
        return fail(message, size, 1, "%s: %s", shown, why);
    case PAGES_HELPER_DIED:
        return fail(message, size, 1, "%s: cannot be read (%s)", shown, why);
    case PAGES_HELPER_STOPPED:
        return fail(message, size, 1, "%s: stopped", shown);
    }
    return helper_answer(src, *helper, answered, answer, n, first, shown, moved, count, message,
                         size);
}

static int helper_open_with(PagesBookSource *src, PageHelper **helper, const volatile int *stop,
                            bool first, const char *shown, char *message, size_t size)
{
    return pages_source_helper_ask(src, helper, PAGES_WIRE_OPEN, &src->request, stop, first, shown,
                                   NULL, 0, message, size);
}

/* The helper's OPENED (`answer`, taken): what the book is, where `first` (an open, a re-layout),
 * else only checked against it (a helper started again for the next page); and where `moved`,
 * the `count` pages a RELAYOUT says hold the text asked for. 0, or the exit status with the
 * line. */
static int helper_answer(PagesBookSource *src, PageHelper *helper, uint32_t type, uint8_t *answer,
                         size_t n, bool first, const char *shown, int *moved, int count,
                         char *message, size_t size)
{
    PagesWireIn in = {answer, n, false};
    int32_t status = type == PAGES_WIRE_OPENED ? pages_wire_get_i32(&in) : -1;
    char line[1024];
    pages_wire_get_str(&in, line, sizeof line - 1, true);
    uint32_t confined = pages_wire_get_u32(&in);
    uint32_t pages = pages_wire_get_u32(&in);
    float aspect = pages_wire_get_f32(&in);
    uint32_t flags = pages_wire_get_u32(&in);
    char id[PAGES_BOOK_ID_MAX];
    pages_wire_get_str(&in, id, sizeof id - 1, true);
    bool good = !in.bad && status >= 0 && status <= 2 &&
                (status ||
                 (pages >= 1 && pages <= MESH_INK_MAX_SIDES && isfinite(aspect) && aspect > 0.0f &&
                  (src->ops != &pages_source_folder_ops || (int)pages == src->pages)));
    int result = 0;
    if (good && !status && first) {
        src->pages = (int)pages, src->aspect = aspect, src->confined = confined;
        src->repaired = flags & 1u, src->right_to_left = flags & 2u, src->reflowable = flags & 4u;
        snprintf(src->id, sizeof src->id, "%s", id);
        good = read_contents(src, &in);
        if (good && moved) {
            good = pages_wire_get_u32(&in) == (uint32_t)count;
            for (int i = 0; good && i < count; i++) {
                int32_t p = pages_wire_get_i32(&in);
                moved[i] = p >= 0 && p < src->pages ? p : -1;
            }
            good = good && !in.bad;
        }
    }
    if (!good) {
        page_helper_stop(helper);
        result = fail(message, size, 1,
                      "%s: cannot be read (the page helper's answer is malformed)", shown);
    } else if (status) {
        result = fail(message, size, status, "%s", line);
    } else if (!first && (int)pages != src->pages) {
        page_helper_stop(helper);
        result = fail(message, size, 1, "%s: the book has changed since it was opened", shown);
    }
    free(answer);
    return result;
}

int pages_source_helper_open(PagesBookSource *src, bool first, const char *shown, char *message,
                             size_t size)
{
    return helper_open_with(src, &src->helper, &src->stop, first, shown, message, size);
}

/* The fault's delay for a page of width x height texels just drawn. */
static void draw_fault_wait(const PagesBookSource *src, uint32_t width, uint32_t height)
{
    if (!src->draw_fault_ms)
        return;
    double ms = src->draw_fault_ms * ((double)width * height / 1e6);
    ms = ms < 10000.0 ? ms : 10000.0;
    struct timespec t = {(time_t)(ms / 1000.0), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* A file's page, or `region` of it (NULL: the whole page, width x height), drawn by the helper
 * (started again with the book where none runs): a decoder that crashes or hangs on it takes
 * only the page with it. */
static bool helper_draw_locked(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                               const PageRegion *region, uint8_t *rgba, char *message, size_t size)
{
    char why[512] = "";
    if (!page_helper_running(src->helper) &&
        pages_source_helper_open(src, false, src->name, message, size) != 0)
        return false;
    size_t bytes = (size_t)width * height * 4;
    int fd;
    uint8_t *pixels = page_helper_pixels(src->helper, bytes, &fd);
    if (!pixels)
        return fail(message, size, 1, "page %d: no memory to share with the page helper",
                    side + 1) == 0;
    PagesWireOut o = {0};
    pages_wire_i32(&o, side);
    pages_wire_u32(&o, width);
    pages_wire_u32(&o, height);
    pages_wire_u32(&o, region ? 1u : 0u);
    pages_wire_f32(&o, region ? region->full_width : 0.0f);
    pages_wire_f32(&o, region ? region->full_height : 0.0f);
    pages_wire_f32(&o, region ? region->x : 0.0f);
    pages_wire_f32(&o, region ? region->y : 0.0f);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    PagesHelperCall call = page_helper_call(src->helper, PAGES_WIRE_DRAW, &o, fd, &type, &answer,
                                            &n, &src->stop, why, sizeof why);
    pages_wire_out_free(&o);
    if (call == PAGES_HELPER_ANSWERED) {
        PagesWireIn in = {answer, n, false};
        int32_t ok = type == PAGES_WIRE_DRAWN ? pages_wire_get_i32(&in) : -1;
        char line[1024];
        pages_wire_get_str(&in, line, sizeof line - 1, true);
        float print[2];
        print[0] = pages_wire_get_f32(&in); /* (two statements: in order) */
        print[1] = pages_wire_get_f32(&in);
        free(answer);
        if (!in.bad && ok == 1) {
            memcpy(rgba, pixels, bytes);
            /* a hostile helper's share is no more than the leaf, nor less than a texel's */
            for (int k = 0; k < 2 && !region; k++)
                src->drawn[k] = print[k] >= 1.0f / 65536.0f && print[k] <= 1.0f ? print[k] : 1.0f;
            return true;
        }
        if (!in.bad && ok == 0)
            return fail(message, size, 1, "%s", line) == 0;
        page_helper_stop(src->helper);
        snprintf(why, sizeof why, "the page helper's answer is malformed");
    } else if (call == PAGES_HELPER_STOPPED) {
        snprintf(why, sizeof why, "stopped");
    }
    if (src->files)
        fail(message, size, 1, "%s (page %d): cannot be decoded (%s)", src->files[side], side + 1,
             why);
    else
        fail(message, size, 1, "%s, page %d: cannot be drawn (%s)", src->name, side + 1, why);
    return false;
}

static bool helper_draw(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                        const PageRegion *region, uint8_t *rgba, char *message, size_t size)
{
    pthread_mutex_lock(&src->helper_lock);
    bool ok = helper_draw_locked(src, side, width, height, region, rgba, message, size);
    pthread_mutex_unlock(&src->helper_lock);
    return ok;
}

/* The helper draws the page's paper too: every pixel is its. */
bool pages_source_helper_draw(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                              uint8_t *rgba, char *message, size_t size)
{
    bool ok = side >= 0 && side < src->pages
                  ? helper_draw(src, side, width, height, NULL, rgba, message, size)
                  : fail(message, size, 1, "page %d: not in the book", side + 1) == 0;
    draw_fault_wait(src, width, height);
    return ok;
}

bool pages_source_helper_draw_region(PagesBookSource *src, int side, const PageRegion *region,
                                     uint8_t *rgba, char *message, size_t size)
{
    return side >= 0 && side < src->pages
               ? helper_draw(src, side, region->width, region->height, region, rgba, message, size)
               : fail(message, size, 1, "page %d: not in the book", side + 1) == 0;
}

/* A request to the search's helper (started where it is not running), its answer into *answer
 * (free it); false with the line in message. Called under finder_lock. */
static bool finder_call(PagesBookSource *src, uint32_t request, const PagesWireOut *o, int side,
                        uint32_t *type, uint8_t **answer, size_t *n, char *message, size_t size)
{
    if ((!src->finder || !page_helper_running(src->finder)) &&
        helper_open_with(src, &src->finder, &src->find_stop, false, src->name, message, size) != 0)
        return false;
    char why[512] = "stopped";
    PagesHelperCall call = page_helper_call(src->finder, request, o, -1, type, answer, n,
                                            &src->find_stop, why, sizeof why);
    if (call != PAGES_HELPER_ANSWERED)
        return fail(message, size, 1, "%s, page %d: its text cannot be read (%s)", src->name,
                    side + 1, why) == 0;
    return true;
}

/* FOUND's and TEXT_READ's head: ok, the line, the page's place on its leaf (kept where it is
 * one). */
static int32_t answer_head(PagesWireIn *in, char *line, size_t line_size, float place[4])
{
    int32_t ok = pages_wire_get_i32(in);
    pages_wire_get_str(in, line, line_size - 1, true);
    float at[4];
    for (int i = 0; i < 4; i++)
        at[i] = pages_wire_get_f32(in);
    if (at[0] >= 0.0f && at[1] >= 0.0f && at[2] > 0.0f && at[3] > 0.0f && at[0] + at[2] <= 1.001f &&
        at[1] + at[3] <= 1.001f)
        memcpy(place, at, sizeof at);
    return ok;
}

/* One of a FOUND's or TEXT_READ's items: a number (whether a match begins there; a character)
 * and its box on the page. */
typedef void (*FinderItem)(void *user, uint32_t head, PagesFindRect box);

/* `request` (FIND, TEXT) about side `side`, with `query` where not NULL, asked of the search's
 * helper, and its answer of type `answered` read: the page's place into `place`, then at most
 * `most` items, each given to `item`. 0 (also from an older helper, which knows no such request),
 * or -1 with the line in message (the helper stopped where its answer is malformed). Called under
 * finder_lock. */
static int finder_items(PagesBookSource *src, uint32_t request, uint32_t answered, int side,
                        const char *query, uint32_t most, float place[4], FinderItem item,
                        void *user, char *message, size_t size)
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, side);
    if (query)
        pages_wire_str(&o, query, strlen(query));
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    bool called = finder_call(src, request, &o, side, &type, &answer, &n, message, size);
    pages_wire_out_free(&o);
    if (!called)
        return -1;
    PagesWireIn in = {answer, n, false};
    char line[1024];
    int32_t ok = type == answered ? answer_head(&in, line, sizeof line, place) : -1;
    uint32_t count = pages_wire_get_u32(&in);
    for (uint32_t i = 0; ok == 1 && !in.bad && i < count && i < most; i++) {
        uint32_t head = pages_wire_get_u32(&in);
        PagesFindRect r;
        r.x0 = pages_wire_get_f32(&in), r.y0 = pages_wire_get_f32(&in);
        r.x1 = pages_wire_get_f32(&in), r.y1 = pages_wire_get_f32(&in);
        if (!(isfinite(r.x0) && isfinite(r.y0) && isfinite(r.x1) && isfinite(r.y1)))
            in.bad = true;
        else
            item(user, head, r);
    }
    free(answer);
    if (type == PAGES_WIRE_UNKNOWN)
        return 0;
    if (in.bad || ok < 0 || ok > 1 || count > most) {
        page_helper_stop(src->finder);
        return -fail(message, size, 1, "%s, page %d: the page helper's answer is malformed",
                     src->name, side + 1);
    }
    if (!ok)
        return -fail(message, size, 1, "%s", line);
    return 0;
}

typedef struct Matches {
    PagesFindRect *rects;
    bool *first;
    int max, got;
} Matches;

static void take_match(void *user, uint32_t begins, PagesFindRect box)
{
    Matches *m = user;
    if (m->got < m->max) {
        m->rects[m->got] = box, m->first[m->got] = begins || !m->got;
        m->got++;
    }
}

int pages_source_helper_find(PagesBookSource *src, int side, const char *query,
                             PagesFindRect *rects, bool *first, int max, float place[4],
                             char *message, size_t size)
{
    Matches m = {rects, first, max, 0};
    return finder_items(src, PAGES_WIRE_FIND, PAGES_WIRE_FOUND, side, query, PAGES_FIND_MAX_RECTS,
                        place, take_match, &m, message, size) < 0
               ? -1
               : m.got;
}

int pages_source_helper_links(PagesBookSource *src, int side, PagesLinked *out, char *message,
                              size_t size)
{
    if ((!src->linker || !page_helper_running(src->linker)) &&
        helper_open_with(src, &src->linker, &src->link_stop, false, src->name, message, size) != 0)
        return -1;
    PagesWireOut o = {0};
    pages_wire_i32(&o, side);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char why[512] = "stopped";
    PagesHelperCall call =
        page_helper_call_within(src->linker, PAGES_WIRE_LINKS, &o, -1, &type, &answer, &n,
                                &src->link_stop, PAGES_LINKS_SECONDS, why, sizeof why);
    pages_wire_out_free(&o);
    if (call != PAGES_HELPER_ANSWERED)
        return -fail(message, size, 1, "%s, page %d: its links cannot be read (%s)", src->name,
                     side + 1, why);
    if (type == PAGES_WIRE_UNKNOWN) { /* an older helper: it knows of no links */
        free(answer);
        return 0;
    }
    bool good = type == PAGES_WIRE_LINKED && pages_wire_get_linked(answer, n, src->pages, out);
    free(answer);
    if (!good) {
        page_helper_stop(src->linker);
        out->count = 0;
        return -fail(message, size, 1, "%s, page %d: the page helper's answer is malformed",
                     src->name, side + 1);
    }
    if (!out->ok)
        return -fail(message, size, 1, "%s", out->message);
    return out->count;
}

typedef struct Chars {
    PagesTextChar *out;
    int max, got;
} Chars;

static void take_char(void *user, uint32_t c, PagesFindRect box)
{
    Chars *t = user;
    /* what the library passes on is text: no control character, no surrogate, no code point past
     * Unicode's */
    if ((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
        c = ' ';
    if (t->got < t->max)
        t->out[t->got++] = (PagesTextChar){c, box};
}

int pages_source_helper_text(PagesBookSource *src, int side, PagesTextChar *out, int max,
                             float place[4], char *message, size_t size)
{
    Chars t = {out, max, 0};
    return finder_items(src, PAGES_WIRE_TEXT, PAGES_WIRE_TEXT_READ, side, NULL,
                        PAGES_TEXT_MAX_CHARS, place, take_char, &t, message, size) < 0
               ? -1
               : t.got;
}

/* PLACE asked of the drawing helper where it runs (a search's helper, where none runs yet, or
 * the drawing one started again, would lay the whole book out first), between two of its pages,
 * and waited for PAGES_PLACE_SECONDS at most (a hostile book's text cannot hold the host's thread):
 * `side` >= 0 its place into `place`, else the page holding `place`. The page, or -1 (none, or
 * the helper failed). Called under helper_lock. */
static int place_locked(PagesBookSource *src, int side, int32_t place[3])
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, side);
    for (int i = 0; i < 3; i++)
        pages_wire_i32(&o, place[i]);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char message[1024];
    bool called = !o.failed && page_helper_running(src->helper) &&
                  page_helper_call_within(src->helper, PAGES_WIRE_PLACE, &o, -1, &type, &answer, &n,
                                          &src->stop, PAGES_PLACE_SECONDS, message,
                                          sizeof message) == PAGES_HELPER_ANSWERED;
    pages_wire_out_free(&o);
    if (!called) {
        free(answer);
        return -1;
    }
    PagesWireIn in = {answer, n, false};
    int32_t ok = type == PAGES_WIRE_PLACED ? pages_wire_get_i32(&in) : 0;
    pages_wire_get_str(&in, message, sizeof message - 1, true);
    int32_t found = pages_wire_get_i32(&in), at[3];
    for (int i = 0; i < 3; i++)
        at[i] = pages_wire_get_i32(&in);
    free(answer);
    if (in.bad || ok != 1 || found < -1 || found >= src->pages)
        return -1;
    if (side >= 0)
        memcpy(place, at, sizeof at);
    return found;
}

int pages_source_helper_place(PagesBookSource *src, int side, int32_t place[3])
{
    pthread_mutex_lock(&src->helper_lock);
    int found = place_locked(src, side, place);
    pthread_mutex_unlock(&src->helper_lock);
    return found;
}

void pages_source_helper_close(PagesBookSource *src)
{
    page_helper_destroy(src->helper);
    page_helper_destroy(src->finder);
    page_helper_destroy(src->linker);
    pages_wire_out_free(&src->request);
    if (src->book >= 0)
        close(src->book);
}
