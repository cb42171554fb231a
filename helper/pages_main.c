/* SPDX-License-Identifier: AGPL-3.0-or-later */
/* pagecurl-pages: the page helper. libpagecurl starts it (pages/page_helper.h) to read a book's
 * files, the one part of pagecurl that parses them: a PDF through MuPDF, a folder's images
 * through MuPDF's image readers (stb_image in a build without MuPDF). It talks over the socket
 * pair it finds as descriptor 3 (docs/page-helper.md: HELLO, then OPEN and DRAW requests), gives
 * up what it does not need before it reads the book (helper/sandbox.h) and leaves when the
 * library's end closes, even in the middle of a page.
 *
 * Licence: this program links MuPDF, which is under the GNU Affero General Public License,
 * version 3 or later; as built with it, pagecurl-pages is under the AGPL-3.0-or-later (this
 * file's licence). Its other sources (helper/decoder.c, helper/sandbox.c, pages/) are pagecurl's,
 * under the MIT licence. The library and the pagecurl program link no MuPDF. */
#define _GNU_SOURCE

#include "decoder.h"
#include "sandbox.h"
#include "../mesh/ink.h"
#include "../pages/page_wire.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most bytes of a path, and of a folder's entry, that an OPEN may hold. */
#define PATH_BYTES 4096
#define NAME_BYTES 1024

typedef struct Helper {
    int socket;
    PagesDecoder *book; /* NULL until an OPEN has opened it */
    bool opened;        /* an OPEN came: the next is refused */
    uint32_t confined;
    uint8_t *pixels; /* the library's memory for pixels, mapped */
    size_t mapped;
} Helper;

/* The library's end closed: leave at once, even in the middle of a page the main thread draws. */
static void *watch(void *user)
{
    struct pollfd p = {.fd = *(int *)user, .events = POLLRDHUP};
    for (;;)
        if (poll(&p, 1, -1) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
            _exit(0);
    return NULL;
}

static bool reply(Helper *h, uint32_t type, PagesWireOut *o)
{
    PagesWireStatus s = pages_wire_send(h->socket, type, o, -1, NULL);
    pages_wire_out_free(o);
    return s == PAGES_WIRE_OK;
}

/* OPENED, and for a RELAYOUT the pages that hold what the pages asked for began with: u32 count,
 * count x i32 page (0-based). */
static bool opened_moved(Helper *h, int status, const char *message, const int *moved, int count)
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, status);
    pages_wire_str(&o, message, strlen(message));
    PagesDecoder *b = status ? NULL : h->book;
    pages_wire_u32(&o, h->confined);
    pages_wire_u32(&o, b ? (uint32_t)pages_decoder_pages(b) : 0u);
    pages_wire_f32(&o, b ? pages_decoder_aspect(b) : 0.0f);
    pages_wire_u32(&o, b ? (pages_decoder_repaired(b) ? 1u : 0u) |
                               (pages_decoder_right_to_left(b) ? 2u : 0u) |
                               (pages_decoder_reflowable(b) ? 4u : 0u)
                         : 0u);
    const char *id = b ? pages_decoder_id(b) : "";
    pages_wire_str(&o, id, strlen(id));
    const PageLabels *labels = b ? pages_decoder_labels(b) : NULL;
    pages_wire_u32(&o, labels ? (uint32_t)labels->count : 0u);
    for (int i = 0; labels && i < labels->count; i++) {
        const PagesLabelRange *r = &labels->ranges[i];
        pages_wire_i32(&o, r->start);
        pages_wire_u32(&o, (uint32_t)r->style);
        pages_wire_i32(&o, r->first);
        pages_wire_str(&o, r->prefix, r->prefix ? strlen(r->prefix) : 0);
    }
    int outline = b ? pages_decoder_outline_count(b) : 0;
    pages_wire_u32(&o, (uint32_t)outline);
    for (int i = 0; i < outline; i++) {
        const PagesOutlineEntry *e = pages_decoder_outline(b, i);
        pages_wire_i32(&o, e->side);
        pages_wire_i32(&o, e->depth);
        pages_wire_str(&o, e->title, strlen(e->title));
    }
    if (moved) {
        pages_wire_u32(&o, status ? 0u : (uint32_t)count);
        for (int i = 0; !status && i < count; i++)
            pages_wire_i32(&o, moved[i]);
    }
    return reply(h, PAGES_WIRE_OPENED, &o);
}

static bool opened(Helper *h, int status, const char *message)
{
    return opened_moved(h, status, message, NULL, 0);
}

/* A bound on the processor time an open or a re-layout may take from now (0: none from now):
 * MuPDF's layout of a hostile book may never end, and nothing else would stop it (a page's
 * drawing has its own bound: the library kills the helper). SIGXCPU ends the helper past it;
 * the library names the cause. */
static void cpu_bound(int seconds)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_CPU, &r) != 0)
        return;
    if (seconds <= 0) {
        r.rlim_cur = r.rlim_max;
    } else {
        struct rusage u;
        if (getrusage(RUSAGE_SELF, &u) != 0)
            return;
        rlim_t used = (rlim_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1;
        rlim_t want = used + (rlim_t)seconds;
        /* within a bound the helper was started under, a second short of it: SIGXCPU, which
         * the library names, before the kernel's SIGKILL at the hard bound */
        if (r.rlim_max != RLIM_INFINITY && want >= r.rlim_max)
            want = r.rlim_max > 1 ? r.rlim_max - 1 : r.rlim_max;
        r.rlim_cur = want;
        struct rlimit core = {0, 0}; /* an ended layout leaves no core behind */
        setrlimit(RLIMIT_CORE, &core);
    }
    setrlimit(RLIMIT_CPU, &r);
}

/* OPEN: u32 kind (1 a document: PDF, EPUB, FB2, XPS, CBZ; 2 a folder), str shown, str name, u32
 * count, count x str entry, f32 aspect, f32 font size; the file's or the folder's descriptor. */
static bool open_book(Helper *h, PagesWireIn *in, int fd)
{
    char shown[PATH_BYTES + 1], name[PATH_BYTES + 1];
    uint32_t kind = pages_wire_get_u32(in);
    pages_wire_get_str(in, shown, PATH_BYTES, false);
    pages_wire_get_str(in, name, PATH_BYTES, false);
    uint32_t count = pages_wire_get_u32(in);
    if (h->opened || in->bad || fd < 0 || (kind != 1 && kind != 2) || count > MESH_INK_MAX_SIDES) {
        if (fd >= 0)
            close(fd);
        return opened(h, 1,
                      h->opened ? "the page helper has a book open already"
                                : "the page helper was asked to open no book it knows");
    }
    h->opened = true;
    char message[1024] = "";
    int status = 0;
    char **names = NULL;
    PagesSandbox sandbox;
    pages_sandbox_begin(&sandbox, kind == 2 ? fd : -1);
    if (kind == 2) {
        names = calloc(count ? count : 1, sizeof *names);
        status = names ? 0 : 1;
        for (uint32_t i = 0; !status && i < count; i++) {
            char entry[NAME_BYTES + 1];
            size_t n = pages_wire_get_str(in, entry, NAME_BYTES, false);
            struct stat st;
            if (in->bad || strlen(entry) != n || !n || strchr(entry, '/') ||
                !(names[i] = strdup(entry))) {
                status = 1;
            } else if (fstatat(fd, entry, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                /* a page that links to a file elsewhere: that file may be read too */
                int linked = openat(fd, entry, O_PATH | O_CLOEXEC);
                if (linked >= 0) {
                    pages_sandbox_allow(&sandbox, linked);
                    close(linked);
                }
            }
        }
        if (status)
            snprintf(message, sizeof message, "%.900s: the page helper could not take its pages",
                     shown);
    }
    /* given up before a byte of the book is read; the watch on the library's end is started
     * after, so that it is confined too (Landlock and no_new_privs hold for the thread that enters
     * them and the threads it starts after) */
    h->confined = pages_sandbox_enter(&sandbox);
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch, &h->socket) != 0 && !status) {
        status = 1;
        snprintf(message, sizeof message, "%.900s: the page helper could not start a thread",
                 shown);
    }
    /* appended after the entries: a reflowable book's page shape and type (0: the defaults) */
    PagesTextLayout layout = {0};
    if (in->left >= 8)
        layout.aspect = pages_wire_get_f32(in), layout.font_size = pages_wire_get_f32(in);
    cpu_bound(PAGES_OPEN_CPU_SECONDS);
    if (status)
        close(fd);
    else if (kind == 1)
        status =
            pages_decoder_open_pdf(fd, shown, name, &layout, &h->book, message, sizeof message);
    else
        status = pages_decoder_open_folder(fd, shown, names, (int)count, &h->book, message,
                                           sizeof message);
    cpu_bound(0);
    for (uint32_t i = 0; names && i < count; i++)
        free(names[i]);
    free(names);
    return opened(h, status, message);
}

/* RELAYOUT: f32 aspect, f32 font size, u32 count, count x i32 page; answered OPENED with the
 * book as laid out now, then u32 count, count x i32 the page that holds each page's first text. */
static bool relayout(Helper *h, PagesWireIn *in)
{
    PagesTextLayout layout = {0};
    layout.aspect = pages_wire_get_f32(in);
    layout.font_size = pages_wire_get_f32(in);
    uint32_t count = pages_wire_get_u32(in);
    if (in->bad || !h->book || count > MESH_INK_MAX_SIDES)
        return opened(h, 1, !h->book ? "no book is open" : "a request cut short");
    int *pages = malloc((count ? count : 1u) * sizeof *pages);
    int *moved = malloc((count ? count : 1u) * sizeof *moved);
    for (uint32_t i = 0; pages && i < count; i++)
        pages[i] = pages_wire_get_i32(in);
    char message[1024] = "";
    int status = 1;
    if (!pages || !moved)
        snprintf(message, sizeof message, "out of memory for the pages to follow");
    else if (in->bad)
        snprintf(message, sizeof message, "a request cut short");
    else {
        cpu_bound(PAGES_OPEN_CPU_SECONDS);
        status = pages_decoder_relayout(h->book, &layout, pages, moved, (int)count, message,
                                        sizeof message);
        cpu_bound(0);
    }
    bool ok = opened_moved(h, status, message, moved, (int)count);
    free(pages);
    free(moved);
    return ok;
}

/* DRAWN: i32 ok, str message, f32 x2 the share of the layer a whole page's print covers (1 x 1
 * for a region). */
static bool drawn_print(Helper *h, bool ok, const char *message, const float print[2])
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, ok ? 1 : 0);
    pages_wire_str(&o, message, strlen(message));
    pages_wire_f32(&o, print[0]);
    pages_wire_f32(&o, print[1]);
    return reply(h, PAGES_WIRE_DRAWN, &o);
}

static bool drawn(Helper *h, bool ok, const char *message)
{
    return drawn_print(h, ok, message, (const float[2]){1.0f, 1.0f});
}

/* DRAW: i32 page, u32 width, u32 height, u32 in_region, f32 full_width, full_height, x, y; the
 * library's pixel memory with it where it is new. */
static bool draw(Helper *h, PagesWireIn *in, int fd)
{
    if (fd >= 0) {
        struct stat st;
        if (h->pixels)
            munmap(h->pixels, h->mapped);
        h->pixels = NULL, h->mapped = 0;
        void *map = MAP_FAILED;
        if (fstat(fd, &st) == 0 && st.st_size > 0)
            map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (map != MAP_FAILED)
            h->pixels = map, h->mapped = (size_t)st.st_size;
    }
    int32_t page = pages_wire_get_i32(in);
    uint32_t width = pages_wire_get_u32(in), height = pages_wire_get_u32(in);
    uint32_t in_region = pages_wire_get_u32(in);
    PageRegion r = {.full_width = pages_wire_get_f32(in), .full_height = pages_wire_get_f32(in)};
    r.x = pages_wire_get_f32(in), r.y = pages_wire_get_f32(in);
    r.width = width, r.height = height;
    char message[1024] = "";
    if (in->bad || !h->book)
        return drawn(h, false, !h->book ? "no book is open" : "a request cut short");
    if (!width || !height || (uint64_t)width * height * 4u > h->mapped)
        return drawn(h, false, "no memory shared for its pixels");
    if (in_region)
        return drawn(
            h, pages_decoder_draw_region(h->book, page, &r, h->pixels, message, sizeof message),
            message);
    bool ok = pages_decoder_draw(h->book, page, width, height, h->pixels, message, sizeof message);
    float print[2];
    pages_decoder_drawn_print(h->book, print);
    return drawn_print(h, ok, message, print);
}

/* What FOUND, LINKED and TEXT_READ begin with: i32 ok (`n` items found, or -1 and `message` why
 * not), str message, f32 x4 the page's place on its leaf, u32 the count of items that follow. */
static void page_answer_head(PagesWireOut *o, int n, const char *message, const float place[4])
{
    pages_wire_i32(o, n >= 0 ? 1 : 0);
    pages_wire_str(o, message, strlen(message));
    for (int i = 0; i < 4; i++)
        pages_wire_f32(o, place[i]);
    pages_wire_u32(o, n > 0 ? (uint32_t)n : 0u);
}

/* FIND: i32 page, str query; answered FOUND: i32 ok, str message, f32 x4 the page's place on its
 * leaf, u32 rects, then each u32 first
 * (1: a match begins), f32 x0, y0, x1, y1 (fractions of the page's box). */
static bool find(Helper *h, PagesWireIn *in)
{
    char query[PAGES_FIND_MAX_QUERY + 1], message[1024] = "";
    int32_t page = pages_wire_get_i32(in);
    pages_wire_get_str(in, query, PAGES_FIND_MAX_QUERY, false);
    PagesFindRect *rects = malloc(PAGES_FIND_MAX_RECTS * sizeof *rects);
    bool *first = malloc(PAGES_FIND_MAX_RECTS * sizeof *first);
    int n = -1;
    float place[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    if (in->bad || !h->book)
        snprintf(message, sizeof message, "%s",
                 !h->book ? "no book is open" : "a request cut short");
    else if (!rects || !first)
        snprintf(message, sizeof message, "page %d: out of memory for its matches", page + 1);
    else
        n = pages_decoder_find(h->book, page, query, rects, first, PAGES_FIND_MAX_RECTS, place,
                               message, sizeof message);
    PagesWireOut o = {0};
    page_answer_head(&o, n, message, place);
    for (int i = 0; i < n; i++) {
        pages_wire_u32(&o, first[i] ? 1u : 0u);
        pages_wire_f32(&o, rects[i].x0);
        pages_wire_f32(&o, rects[i].y0);
        pages_wire_f32(&o, rects[i].x1);
        pages_wire_f32(&o, rects[i].y1);
    }
    free(rects);
    free(first);
    return reply(h, PAGES_WIRE_FOUND, &o);
}

/* LINKS: i32 page; answered LINKED: i32 ok, str message, f32 x4 the page's place on its leaf,
 * u32 links, then each f32 x0, y0, x1, y1 (fractions of the page's box), i32 target (0-based;
 * -1: none in the book), str uri (an external link's address, else ""). */
static bool links(Helper *h, PagesWireIn *in)
{
    char message[1024] = "";
    int32_t page = pages_wire_get_i32(in);
    PagesLink *found = malloc(PAGES_LINKS_MAX * sizeof *found);
    int n = -1;
    float place[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    if (in->bad || !h->book)
        snprintf(message, sizeof message, "%s",
                 !h->book ? "no book is open" : "a request cut short");
    else if (!found)
        snprintf(message, sizeof message, "page %d: out of memory for its links", page + 1);
    else
        n = pages_decoder_links(h->book, page, found, PAGES_LINKS_MAX, place, message,
                                sizeof message);
    PagesWireOut o = {0};
    page_answer_head(&o, n, message, place);
    for (int i = 0; i < n; i++) {
        pages_wire_f32(&o, found[i].x0);
        pages_wire_f32(&o, found[i].y0);
        pages_wire_f32(&o, found[i].x1);
        pages_wire_f32(&o, found[i].y1);
        pages_wire_i32(&o, found[i].target);
        pages_wire_str(&o, found[i].uri, strlen(found[i].uri));
    }
    free(found);
    return reply(h, PAGES_WIRE_LINKED, &o);
}

/* TEXT: i32 page; answered TEXT_READ: i32 ok, str message, f32 x4 the page's place on its leaf,
 * u32 chars, then each u32 code point, f32 x0, y0, x1, y1 (fractions of the page's box). */
static bool text(Helper *h, PagesWireIn *in)
{
    char message[1024] = "";
    int32_t page = pages_wire_get_i32(in);
    PagesTextChar *chars = malloc(PAGES_TEXT_MAX_CHARS * sizeof *chars);
    int n = -1;
    float place[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    if (in->bad || !h->book)
        snprintf(message, sizeof message, "%s",
                 !h->book ? "no book is open" : "a request cut short");
    else if (!chars)
        snprintf(message, sizeof message, "page %d: out of memory for its text", page + 1);
    else
        n = pages_decoder_text(h->book, page, chars, PAGES_TEXT_MAX_CHARS, place, message,
                               sizeof message);
    PagesWireOut o = {0};
    page_answer_head(&o, n, message, place);
    for (int i = 0; i < n; i++) {
        pages_wire_u32(&o, chars[i].c);
        pages_wire_f32(&o, chars[i].box.x0);
        pages_wire_f32(&o, chars[i].box.y0);
        pages_wire_f32(&o, chars[i].box.x1);
        pages_wire_f32(&o, chars[i].box.y1);
    }
    free(chars);
    return reply(h, PAGES_WIRE_TEXT_READ, &o);
}

/* PLACE: i32 page, i32 x3 place; answered PLACED: i32 ok, str message, i32 page, i32 x3 place:
 * the page's place in the text where the page is given (>= 0), else the page holding the place
 * (-1 where none does). */
static bool text_place(Helper *h, PagesWireIn *in)
{
    char message[1024] = "";
    int32_t page = pages_wire_get_i32(in), place[3];
    for (int i = 0; i < 3; i++)
        place[i] = pages_wire_get_i32(in);
    int ok = 0;
    if (in->bad || !h->book)
        snprintf(message, sizeof message, "%s",
                 !h->book ? "no book is open" : "a request cut short");
    else if (page >= 0)
        ok = !pages_decoder_text_place(h->book, page, place, message, sizeof message);
    else {
        page = pages_decoder_text_place_page(h->book, place);
        ok = 1;
    }
    PagesWireOut o = {0};
    pages_wire_i32(&o, ok);
    pages_wire_str(&o, message, strlen(message));
    pages_wire_i32(&o, page);
    for (int i = 0; i < 3; i++)
        pages_wire_i32(&o, place[i]);
    return reply(h, PAGES_WIRE_PLACED, &o);
}

int main(int argc, char **argv)
{
    struct stat st;
    if (argc != 2 || strcmp(argv[1], "--serve") != 0 || fstat(PAGES_SOCKET_FD, &st) != 0 ||
        !S_ISSOCK(st.st_mode)) {
        fprintf(stderr,
                "pagecurl-pages: libpagecurl's page helper; the library starts it (with --serve "
                "and its socket as descriptor %d), not a person\n",
                PAGES_SOCKET_FD);
        return 2;
    }
    Helper h = {.socket = PAGES_SOCKET_FD};
    PagesWireOut hello = {0};
    pages_wire_u32(&hello, PAGES_PROTOCOL);
    if (!reply(&h, PAGES_WIRE_HELLO, &hello))
        return 1;
    for (;;) {
        uint32_t type;
        uint8_t *payload;
        size_t n;
        int fd;
        PagesWireStatus s = pages_wire_recv(h.socket, &type, &payload, &n, &fd, NULL, 0.0);
        if (s == PAGES_WIRE_CLOSED)
            break;
        if (s != PAGES_WIRE_OK)
            return 1;
        PagesWireIn in = {payload, n, false};
        bool ok;
        if (type == PAGES_WIRE_OPEN) {
            ok = open_book(&h, &in, fd);
        } else if (type == PAGES_WIRE_RELAYOUT) {
            if (fd >= 0)
                close(fd);
            ok = relayout(&h, &in);
        } else if (type == PAGES_WIRE_DRAW) {
            ok = draw(&h, &in, fd);
        } else if (type == PAGES_WIRE_FIND) {
            if (fd >= 0)
                close(fd);
            ok = find(&h, &in);
        } else if (type == PAGES_WIRE_LINKS) {
            if (fd >= 0)
                close(fd);
            ok = links(&h, &in);
        } else if (type == PAGES_WIRE_TEXT) {
            if (fd >= 0)
                close(fd);
            ok = text(&h, &in);
        } else if (type == PAGES_WIRE_PLACE) {
            if (fd >= 0)
                close(fd);
            ok = text_place(&h, &in);
        } else { /* a request of a later protocol: said unknown, so the library can do without */
            if (fd >= 0)
                close(fd);
            PagesWireOut o = {0};
            pages_wire_u32(&o, type);
            ok = reply(&h, PAGES_WIRE_UNKNOWN, &o);
        }
        free(payload);
        if (!ok)
            return 1;
    }
    pages_decoder_close(h.book);
    return 0;
}
