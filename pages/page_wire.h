/* SPDX-License-Identifier: MIT */
/* The page helper's messages on the wire (docs/page-helper.md): each a header of two 32-bit
 * numbers, its type and its payload's length, then the payload, whose fields are 32-bit
 * numbers (host byte order) and strings (a 32-bit length, then that many bytes, no terminator),
 * one after another with no padding. A file descriptor may travel with a message (SCM_RIGHTS on
 * its header). What a message holds is the sender's and the reader's to agree on (the types
 * below); the framing lets either end skip a type it does not know. Shared by the library
 * (pages/page_helper.c) and the helper (helper/pages_main.c). */
#ifndef PAGECURL_PAGES_PAGE_WIRE_H
#define PAGECURL_PAGES_PAGE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The version of the messages below: the helper says it first (HELLO), and the library talks
 * only to a helper of its own version. Bumped when a message's fields change meaning or order;
 * a new type needs no bump (a helper answers UNKNOWN to a type it does not know). */
#define PAGES_PROTOCOL 1
/* The helper's end of the socket pair, in the helper. */
#define PAGES_SOCKET_FD 3
/* The most a payload may hold (a folder of 100,000 pages' names is a few MB). */
#define PAGES_WIRE_MAX_PAYLOAD (64u << 20)

typedef enum PagesWireType {
    PAGES_WIRE_HELLO = 1,      /* helper: u32 protocol */
    PAGES_WIRE_OPEN = 2,       /* library: the book (docs/page-helper.md); fd: the PDF or folder */
    PAGES_WIRE_OPENED = 3,     /* helper: the book's open, its status and what it read */
    PAGES_WIRE_DRAW = 4,       /* library: a page or a region of it; fd: new pixel memory */
    PAGES_WIRE_DRAWN = 5,      /* helper: i32 ok, str message; the pixels in the shared memory */
    PAGES_WIRE_UNKNOWN = 6,    /* helper: u32 type, a request it does not know */
    PAGES_WIRE_FIND = 7,       /* library: i32 page, str query: a page's text searched */
    PAGES_WIRE_FOUND = 8,      /* helper: i32 ok, str message, f32 x4 place, u32 rects, each u32
                                first, f32 x4 */
    PAGES_WIRE_LINKS = 9,      /* library: i32 page: a page's links */
    PAGES_WIRE_LINKED = 10,    /* helper: i32 ok, str message, f32 x4 place, u32 links, each f32 x4,
                                i32 target, str uri (pages_wire_get_linked) */
    PAGES_WIRE_TEXT = 11,      /* library: i32 page: a page's text */
    PAGES_WIRE_TEXT_READ = 12, /* helper: i32 ok, str message, f32 x4 place, u32 chars, each u32
                               code point, f32 x4 */
    PAGES_WIRE_RELAYOUT = 13,  /* library: f32 aspect, f32 font size, u32 count, each i32 page:
                                the book laid out again; answered OPENED, then u32 count, each
                                i32 the page now holding that page's first text */
    PAGES_WIRE_PLACE = 14,     /* library: i32 page, i32 x3 place: a reflowable book's page's
                                place in its text (page >= 0), or the page holding a place (-1) */
    PAGES_WIRE_PLACED = 15     /* helper: i32 ok, str message, i32 page, i32 x3 place */
} PagesWireType;

/* The most processor time the helper may spend opening a book or laying it out again (MuPDF's
 * layout of a hostile EPUB or FB2 may never end): past it the helper ends (SIGXCPU). A 500-page
 * novel takes about a second. */
#define PAGES_OPEN_CPU_SECONDS 60

/* The most links one page's LINKED holds (a page's further links are left out), and the longest
 * address (bytes; a link to a longer one is left out). */
#define PAGES_LINKS_MAX    256
#define PAGES_LINK_URI_MAX 1024
/* A link on a page: its rectangle as fractions of the page's own box (x right, y down from its
 * top left corner; x0 <= x1, y0 <= y1), and where it leads: a side of the book, else
 * -1 with the address it names (UTF-8; "" for a link that leads nowhere). */
typedef struct PagesLink {
    float x0, y0, x1, y1;
    int32_t target;
    char uri[PAGES_LINK_URI_MAX + 1];
} PagesLink;
/* A page's links as LINKED gives them. */
typedef struct PagesLinked {
    int32_t ok;         /* 1: read; 0: the page's links could not be read (the line says why) */
    char message[1024]; /* printable */
    float place[4];     /* where the page lies on its leaf (left, top, width, height: fractions) */
    int count;
    PagesLink links[PAGES_LINKS_MAX];
} PagesLinked;

/* A payload being written: a write that finds no memory marks it failed. */
typedef struct PagesWireOut {
    uint8_t *data;
    size_t size, capacity;
    bool failed;
} PagesWireOut;
void pages_wire_put(PagesWireOut *o, const void *bytes, size_t n);
void pages_wire_u32(PagesWireOut *o, uint32_t v);
void pages_wire_i32(PagesWireOut *o, int32_t v);
void pages_wire_f32(PagesWireOut *o, float v);
/* `n` bytes of `s` (NULL: none) as a string. */
void pages_wire_str(PagesWireOut *o, const char *s, size_t n);
void pages_wire_out_free(PagesWireOut *o);

/* A payload being read: reading past its end, or a string longer than asked, marks it bad and
 * gives zeros. */
typedef struct PagesWireIn {
    const uint8_t *at;
    size_t left;
    bool bad;
} PagesWireIn;
uint32_t pages_wire_get_u32(PagesWireIn *in);
int32_t pages_wire_get_i32(PagesWireIn *in);
float pages_wire_get_f32(PagesWireIn *in);
/* A string of at most `max` bytes, copied into `out` (`max` + 1 bytes) and terminated; bytes that
 * are zero or control characters become spaces where `printable`. Its length. */
size_t pages_wire_get_str(PagesWireIn *in, char *out, size_t max, bool printable);
/* LINKED's payload (any bytes: the helper may be hostile) into `out`, for a book of `pages`
 * pages: false where it is malformed (cut short, too many links, an address too long, a
 * rectangle not finite). A target outside the book leads nowhere (-1); a place that does not
 * lie on the leaf is the whole leaf; each rectangle's corners are put in order; addresses are
 * made printable (control characters as spaces). */
bool pages_wire_get_linked(const uint8_t *payload, size_t size, int pages, PagesLinked *out);

typedef enum PagesWireStatus {
    PAGES_WIRE_OK,
    PAGES_WIRE_CLOSED,  /* the other end is gone (before a whole message) */
    PAGES_WIRE_BAD,     /* a read or write failed, or a message too long */
    PAGES_WIRE_STOPPED, /* `*stop` became non-zero while waiting */
    PAGES_WIRE_LATE     /* no message within the ceiling given */
} PagesWireStatus;

/* Sends a message; `fd` (-1: none) travels with it. `stop` (NULL: never) is checked every few
 * milliseconds while the other end does not read. */
PagesWireStatus pages_wire_send(int socket, uint32_t type, const PagesWireOut *payload, int fd,
                                const volatile int *stop);
/* Receives a message: its type, its payload (malloc'd, *payload_size bytes; free it) and the
 * descriptor that came with it (-1: none; close-on-exec). `stop` as above; `ceiling` seconds at
 * most (0: none). */
PagesWireStatus pages_wire_recv(int socket, uint32_t *type, uint8_t **payload, size_t *payload_size,
                                int *fd, const volatile int *stop, double ceiling);

#endif
