/* SPDX-License-Identifier: MIT */
/* The inside of pages/book_source.h: a book's source is one of four, each in a file of its own
 * behind one table of functions (PagesSourceOps) that book_source.c dispatches through. The
 * built-in book (source_builtin.c), a host's provider (source_provider.c), a folder of images
 * (source_folder.c) and a book file (source_document.c: a PDF, EPUB, FB2, XPS or comic book);
 * the last two are read by the page helper, whose conversation with them both is
 * source_helper.c's. book_source.c holds what every source shares: the checks of a call's
 * arguments, a book's labels and contents, the locks. Private to pages/: no caller outside it
 * includes this, and it names none of book_source.h's calls: they are book_source.c's. */
#ifndef PAGECURL_PAGES_SOURCE_H
#define PAGECURL_PAGES_SOURCE_H

#include "book_source_types.h"
#include "page_helper.h"
#include "page_labels.h"
#include "page_wire.h"
#include "text_find.h"
#include "typeface.h"

#include <stdbool.h>
#include <stddef.h>

#include <pthread.h>
#include <sys/stat.h>

/* What a source does its own way. The caller (book_source.c) has checked what every source
 * checks (a page in the book, a search's query, a region's size) and holds the lock the call
 * needs (finder_lock around find and text). A NULL entry: the source has none of it. */
typedef struct PagesSourceOps {
    /* Side `side` drawn into width x height RGBA8; false with the line (the caller
     * marks the page). */
    bool (*draw)(PagesBookSource *src, int side, uint32_t width, uint32_t height, uint8_t *rgba,
                 char *message, size_t size);
    /* NULL: its pages are drawn whole only (pages_book_source_draws_regions). */
    bool (*draw_region)(PagesBookSource *src, int side, const PageRegion *region, uint8_t *rgba,
                        char *message, size_t size);
    /* NULL: no text to search (a source whose text depends on more answers has_text). */
    bool (*has_text)(const PagesBookSource *src);
    int (*find)(PagesBookSource *src, int side, const char *query, PagesFindRect *rects,
                bool *first, int max, float place[4], char *message, size_t size);
    int (*text)(PagesBookSource *src, int side, PagesTextChar *out, int max, float place[4],
                char *message, size_t size);
    /* NULL: no links. */
    int (*links)(PagesBookSource *src, int side, PagesLinked *out, char *message, size_t size);
    /* NULL: writing a file changes nothing of the book. */
    bool (*holds)(const PagesBookSource *src, const char *path);
    /* A reflowable book's place in its text (pages/book_source.h's text_place: `side` >= 0 its
     * place into `place`, else the page holding `place`); NULL for a book of fixed pages. */
    int (*place)(PagesBookSource *src, int side, int32_t place[3]);
    /* Frees what is the source's own; book_source.c frees the rest. */
    void (*close)(PagesBookSource *src);
} PagesSourceOps;

extern const PagesSourceOps pages_source_builtin_ops, pages_source_provider_ops,
    pages_source_folder_ops, pages_source_document_ops;

/* What the OPEN request's kind says (docs/page-helper.md): a document file (the helper tells
 * which by its content) or a folder of images. */
enum { PAGES_OPEN_DOCUMENT = 1, PAGES_OPEN_FOLDER = 2 };

struct PagesBookSource {
    const PagesSourceOps *ops;
    int pages;
    float aspect;
    char *name;                 /* absolute path; "" for the built-in book and a host's */
    char notice[512];           /* pages_book_source_notice */
    PageLabels labels;          /* a PDF's own, read at open; none for other books */
    bool right_to_left;         /* a PDF's /ViewerPreferences /Direction /R2L; a comic's Manga */
    bool reflowable;            /* an EPUB's or FB2's text, laid out by the helper */
    bool repaired;              /* a PDF whose cross-reference MuPDF rebuilt */
    PagesOutlineEntry *outline; /* a PDF's table of contents, in reading order; NULL: none */
    int outline_count;
    char id[PAGES_BOOK_ID_MAX]; /* what the book is by content (pages_book_source_id); "" none */
    float drawn[2];             /* pages_book_source_drawn_print */
    volatile int stop;          /* pages_book_source_abort: the page being drawn stops */
    volatile int find_stop;     /* pages_book_source_find_abort */
    /* a test's fault (pages_book_source_draw_fault): a file's or a folder's page drawn takes this
     * many ms longer for each million texels drawn (0: no delay) */
    uint32_t draw_fault_ms;
    pthread_mutex_t finder_lock; /* one call at a time with a search's and a page's text */
    /* one call at a time with the drawing helper: a page's drawing (the stream's worker) and a
     * place in the text (the host's thread, pages_book_source_text_place) */
    pthread_mutex_t helper_lock;

    /* The built-in book's (source_builtin.c): its text's face; NULL: stb_easy_font. */
    PagesTypeface *face;

    /* A host's provider's (source_provider.c). */
    PageProvider provider;
    PagesProviderCall *left; /* its call left running (a page given up), until it returns */
    /* with a size: each page's height / width as the host said (0: not asked yet; below 0:
     * none, the leaf's), written on the host's thread and read by the drawing one (__atomic: a
     * page forgotten while it is drawn) */
    float *shapes;
    PagesProviderCall *text_left, *links_left; /* its text's and its links' likewise */

    /* A folder's (source_folder.c). */
    char **files;         /* its pages' paths, in order */
    size_t prefix;        /* the bytes of "folder/" before each page's name in `files` */
    bool named_otherwise; /* a page is a link, or of a type its folder did not say */

    /* A book file's (source_document.c): the layout asked for, as the helper takes it. */
    PagesTextLayout layout;

    /* A folder or a book file is read by the page helper (source_helper.c), which `stop` kills:
     * the file or the folder, open here and given to every helper started, and the OPEN it is
     * sent. */
    int book;
    PagesWireOut request;
    PageHelper *helper;
    uint32_t confined; /* what the helper gave up (pages_book_source_confined) */
    /* a second helper for searches, so that a search never waits on a page being drawn nor a
     * page on a search; started at the first search */
    PageHelper *finder;
    /* a third for links, asked on the host's thread; started at the first page's links */
    PageHelper *linker;
    volatile int link_stop; /* never set: a page's links are waited for, PAGES_LINKS_SECONDS */
};

/* A source of `ops`, nothing in it yet (book -1, the locks ready); NULL: out of memory. */
PagesBookSource *pages_source_new(const PagesSourceOps *ops);
/* `fmt` into message; returns `status` (a caller's one line and its exit status). */
int pages_source_fail(char *message, size_t size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Whether the file at `a` is the one `sb` describes (the same device and inode). */
bool pages_source_same_file(const char *a, const struct stat *sb);

/* The built-in book (pages/content.h). */
int pages_source_builtin_open(PagesBookSource **out, char *message, size_t size);

/* A host's provider: pages/book_source.h's functions of the same names, for its sources. */
int pages_source_provider_open(const PageProvider *provider, PagesBookSource **out, char *message,
                               size_t size);
void pages_source_provider_shape(PagesBookSource *src, int side);
void pages_source_provider_forget_shape(PagesBookSource *src, int side);
void pages_source_provider_hand_over(PagesBookSource *to, PagesBookSource *from);

/* A folder at `path` listed into `src` and its OPEN written (the helper not asked yet). */
int pages_source_folder_open(PagesBookSource *src, const char *path, char *message, size_t size);

/* Whether the file at `path` is a book file the helper reads, by its name or first bytes. */
bool pages_source_document_file(const char *path);
/* The book file at `path` opened into `src` and its OPEN written (the helper not asked yet). */
int pages_source_document_open(PagesBookSource *src, const char *path,
                               const PagesTextLayout *layout, char *message, size_t size);
/* pages/book_source.h's pages_book_source_relayout, for a reflowable book file. */
int pages_source_document_relayout(const PagesBookSource *src, const PagesTextLayout *layout,
                                   const int *pages, int *moved, int count, PagesBookSource **out,
                                   char *message, size_t size);

/* The page helper's side of a folder and a book file (source_helper.c). */
/* `type` with `payload` to *helper (started with the book where none runs), its OPENED read: what
 * the book is where `first` (an open, a re-layout), else only checked against it; and where
 * `moved`, the `count` pages a RELAYOUT says hold the text asked for. 0, or the exit status with
 * the line (`shown` names the book in it). */
int pages_source_helper_ask(PagesBookSource *src, PageHelper **helper, uint32_t type,
                            const PagesWireOut *payload, const volatile int *stop, bool first,
                            const char *shown, int *moved, int count, char *message, size_t size);
/* The book's OPEN sent to the drawing helper (started where none runs). */
int pages_source_helper_open(PagesBookSource *src, bool first, const char *shown, char *message,
                             size_t size);
/* The entries of PagesSourceOps that a folder and a book file share. */
bool pages_source_helper_draw(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                              uint8_t *rgba, char *message, size_t size);
bool pages_source_helper_draw_region(PagesBookSource *src, int side, const PageRegion *region,
                                     uint8_t *rgba, char *message, size_t size);
int pages_source_helper_find(PagesBookSource *src, int side, const char *query,
                             PagesFindRect *rects, bool *first, int max, float place[4],
                             char *message, size_t size);
int pages_source_helper_text(PagesBookSource *src, int side, PagesTextChar *out, int max,
                             float place[4], char *message, size_t size);
int pages_source_helper_links(PagesBookSource *src, int side, PagesLinked *out, char *message,
                              size_t size);
int pages_source_helper_place(PagesBookSource *src, int side, int32_t place[3]);
/* Stops its helpers and frees what they were given (the book's descriptor, its OPEN). */
void pages_source_helper_close(PagesBookSource *src);

#endif
