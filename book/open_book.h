/* SPDX-License-Identifier: MIT */
/* A book held open: its pages (a source, then the stream that draws them), the turning leaf, the
 * flip, the reader's page, the zoom, the ink, the pointers that act on it, its search, links and
 * selection, the frame the last update readied and the view that draws it, and its events
 * (book/events.h). The logic of libpagecurl's book lives here (its frames in book/open_frame.h);
 * book/pagecurl.c only checks a host's arguments and converts its types to these. Takes and returns
 * the book's own types: a side (BookHit, the ink) counts from 0, side = page - 1, and a page is
 * a page number, from 1; errors as GpuError (usage: the caller's request). Not thread-safe: one
 * thread a book. */
#ifndef PAGECURL_BOOK_OPEN_BOOK_H
#define PAGECURL_BOOK_OPEN_BOOK_H

#include "../gpu/context.h"
#include "../mesh/ink.h"
#include "book.h"
#include "book_stream.h"
#include "events.h"
#include "links.h"
#include "pointers.h"
#include "reader.h"
#include "search.h"
#include "selection.h"
#include "view.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a book is opened; zero means default throughout. */
typedef struct BookOpenDesc {
    const char *path;  /* a book file or folder; NULL: the provider's pages, else built in */
    float font_size;   /* a reflowable book's (0: its own) */
    float page_aspect; /* a reflowable book's page height / width (0: its own) */
    PageProvider
        provider; /* a host's pages (.pages 0: none); .aspect and .seconds are the book's */
    int page;     /* opened at (1-based; 0: the cover) */
    BookBinding binding;
    BookLayoutKind layout;
    bool hard_cover;
    uint32_t grid_columns, grid_rows; /* the leaf's mesh (0: 64 x 90) */
    bool leaf_readback;
    bool wait_for_pages, thumb_through, timed, reduced_motion;
    float page_detail;        /* the stream's width over the first viewport's page's (0: 1) */
    float show_through;       /* 0: paper's, below 0: none */
    float page_seconds;       /* a page's drawing's limit (0: the stream's, below 0: none) */
    bool (*stop)(void *user); /* asked during a wait for pages */
    void *stop_user;
    VkFormat target_format, target_depth_format;
    uint32_t target_samples, max_samples;
    GpuQuality quality;
} BookOpenDesc;

/* A turn held still (book_open_hold): what a headless --curl/--grab frame shows. */
typedef struct BookOpenHeld {
    bool on, backward;
    float progress, grab;
} BookOpenHeld;

/* The zoom and pan (pagecurl_zoom's fields): the scale and the point of the fitted view at the
 * viewport's centre, in its pixels, and a page's width's fit. */
typedef struct BookOpenZoom {
    float zoom, x, y, down;
    bool moving, width, returning;
    int page;
} BookOpenZoom;

typedef struct BookOpen {
    GpuContext *gpu;
    PagesBookSource *source; /* until the first update makes the stream for its width */
    BookStream *stream;
    BookLeaf leaf;
    bool leaf_made;
    BookLayout layout; /* how it lies open: its binding, its covers, spread or one page */
    MeshFlip flip;
    BookReader reader; /* the page the reader is on: the one-page layout's (layout.left_page) */
    /* layout.alone on the clock: from `from` to `to` (0 the spread, 1 a page alone) since `since`,
     * over BOOK_READER_SLIDE_TIME; `shown` once a frame has framed the book (before, it cuts) */
    struct {
        float from, to;
        double since;
        bool shown;
        double at; /* the moment the last step showed */
    } alone;
    BookZoom zoom;
    double scroll_turned; /* the fitted view's last turn by a scroll (book_open_scroll) */
    /* the last frame's view as the zoom had it, when its pan last moved, and whether that frame
     * drew its pan on whole pixels (step) */
    BookZoomView zoom_exact;
    double panned_at;
    bool zoom_rounded;
    MeshInk ink;
    BookView view;
    bool view_made;
    uint32_t width, height; /* the viewport the view draws (0 before the first update) */
    bool wait_for_pages;
    float page_detail;        /* the stream's width over the first viewport's page's, as shown */
    bool (*stop)(void *user); /* the host's, asked during a wait for pages */
    void *stop_user;
    bool leaf_read;    /* the last render read the leaf back */
    float hold_radius; /* a held pose's roll, in page widths; 0: its own */
    GpuQuality quality;
    bool quality_asked; /* book_open_set_quality since the view was made */
    uint32_t max_samples;
    float show_through;
    bool ink_mode;
    bool thumb_through;    /* the reader's presses and keys (BookOpenDesc.thumb_through) */
    PageProvider provider; /* the host's, with the description's text and links (.pages 0: none) */
    BookOpenHeld held;
    BookPointers pointers;
    int pages;
    /* the frame update readied for record */
    CurlParams pose;
    BookSpread spread;
    /* what the last update saw and its time (the view's lift eases by the clock) */
    MeshFlipView seen;
    double seen_time;
    int ink_side;        /* the side the last stroke, clear or undo changed */
    double lead;         /* frames show the book this long after the update's time */
    double posed_at;     /* the last frame's moment: never earlier, when the lead shrinks */
    double detail_hold;  /* the next update waits this long for the detail it shows; 0: none */
    bool read_leaf_next; /* the next recorded frame reads the leaf back */
    bool timed;
    VkFormat target_format;       /* a hosted view draws in it */
    uint32_t target_samples;      /* every tier draws at it (0: the tier's) */
    VkFormat target_depth_format; /* the host's pass's depth (0: none) */
    float page_seconds;           /* 0: the stream's own limit */
    uint32_t first_wait_ms;       /* a test's limit on the first frame's wait; 0: the stream's */
    uint32_t find_fail;           /* a test's: the search's first pages read fail */
    BookViewTimes times;          /* the last finished timed frame's */
    bool times_valid;
    BookEvents events;
    uint32_t recorded_slot;   /* the slot + 1 recorded since the last update (0: none) */
    BookSearch *search;       /* made at the first search */
    BookLinks links;          /* the pages' links asked, and the way back along those followed */
    BookSelection *selection; /* made at the first page's text asked for */
} BookOpen;

/* --- the book ---------------------------------------------------------------------------------
 */

/* Opens the book `desc` describes on `gpu`: false with err (usage: the description's fault). */
bool book_open_create(GpuContext *gpu, const BookOpenDesc *desc, BookOpen **out, GpuError *err);
/* Waits for the device where the host's frames may read the book, then frees it (NULL: nothing). */
void book_open_destroy(BookOpen *b);
/* The book's pages: its own until the first frame, then its stream's; NULL once a stream could
 * not be made. */
PagesBookSource *book_open_source(const BookOpen *b);
/* The helper's id of the book with what changes with a reflowable book's layout taken out (its
 * page count): the same text, whatever its pages. */
void book_open_text_id(const BookOpen *b, char *out, size_t size);

/* --- input: each false where it did nothing --------------------------------------------------- */

/* A pointer's event (book/pointers.h). */
void book_open_pointer(BookOpen *b, const BookPointerInput *e);
/* A key's action: NEXT, PREV, HOME, END, UNDO, or FIT (the zoom back to the fitted view). */
bool book_open_key(BookOpen *b, BookInputAction action, double time);
/* A zoom event (BY `scale` about (x, y), WIDTH, TOGGLE, PAN by (x, y), FIT), in target pixels;
 * (x, y) both NAN for BY and WIDTH: about the right-hand page. */
bool book_open_zoom(BookOpen *b, BookInputAction action, float scale, double x, double y,
                    double time);
/* `amount` view heights down the page; from the fitted view, on to the next page (back: before). */
bool book_open_scroll(BookOpen *b, float amount, double time);
bool book_open_set_zoom(BookOpen *b, float zoom, double x, double y, double time);
/* The host's camera (NULL: the book's own again); false for one that cannot be inverted. */
bool book_open_set_camera(BookOpen *b, const float *view_proj);
void book_open_get_zoom(const BookOpen *b, BookOpenZoom *out);
bool book_open_set_view(BookOpen *b, const BookOpenZoom *v, double time);
/* Opens at `page` (1-based), cut: at the last update's time. */
bool book_open_go_to(BookOpen *b, int page);
/* To `page` by turns (a few spreads away: thumbed through; farther: one leaf from beside it). */
bool book_open_turn_to(BookOpen *b, int page, double time);
bool book_open_hold(BookOpen *b, float progress, float grab, bool backward);
bool book_open_set_quality(BookOpen *b, GpuQuality quality);
/* The program's settings (book/pagecurl_program.h's), their ranges checked by the facade: a press
 * draws (ink mode), the frames' lead, the next update's wait for its detail, the hold's radius. */
void book_open_set_ink_mode(BookOpen *b, bool ink);
void book_open_set_lead(BookOpen *b, double seconds);
void book_open_hold_detail(BookOpen *b, double seconds);
void book_open_set_hold_radius(BookOpen *b, float radius);
/* The next frame recorded copies the leaf's mesh out; false where the leaf was made without
 * readback. */
bool book_open_read_leaf(BookOpen *b);
/* The ink of the side under (x, y) wiped. */
bool book_open_clear_at(BookOpen *b, double x, double y, double time);
/* A host's stroke on side `side`, no news to it: no INK_CHANGED for it alone. */
bool book_open_add_stroke(BookOpen *b, int side, const MeshInkPoint *points, uint32_t count);

/* --- where things are ------------------------------------------------------------------------- */

/* The side under target pixel (x, y) as the last update drew the book, and where on it. */
bool book_open_hit(const BookOpen *b, double x, double y, BookHit *out);
/* Side `side`'s outline as the last update drew it: up to `max` points into xy. */
int book_open_side_outline(const BookOpen *b, int side, float *xy, int max);

/* --- search, links, text ---------------------------------------------------------------------- */

bool book_open_search(BookOpen *b, const char *query);
/* The match after (before) the spread the book heads for; -1: none. */
int book_open_search_next(const BookOpen *b, bool forward);
/* Side `side`'s links, read at the first ask (a failure told once as an ERROR event); NULL: none.
 */
const BookLinksSide *book_open_links(BookOpen *b, int side);
/* Page `page` (1-based) as a followed link goes there, the way back kept. */
bool book_open_follow(BookOpen *b, int page, double time);
/* Back (forward) along the links followed. */
bool book_open_step_back(BookOpen *b, bool forward, double time);
/* Side `side`'s text into out (its length; -1 where it cannot be read). */
long book_open_side_text(BookOpen *b, int side, char *out, size_t size);
/* The text from `from` to `to` on one side selected (by words); `from` NULL clears. */
bool book_open_select(BookOpen *b, const BookHit *from, const BookHit *to, bool words);

/* --- pages that change ------------------------------------------------------------------------ */

/* Page `page` (1-based; 0: all) drawn again, its shape asked again. */
void book_open_invalidate(BookOpen *b, int page);
/* The host's provider replaced by `p`'s user, pages, draw and size (the text and links stay the
 * description's); ink and place kept. Needs a book of a host's pages. */
bool book_open_set_provider(BookOpen *b, const PageProvider *p, GpuError *err);
/* A reflowable book laid out again at `font_size` and `page_aspect` (0: as now), or a book's
 * pages on leaves of another shape; the reader's place kept by its text. A runtime failure is an
 * ERROR event too. */
bool book_open_relayout(BookOpen *b, float font_size, float page_aspect, GpuError *err);

#endif
