/* SPDX-License-Identifier: MIT */
/* A book's pages streamed into a fixed pool of texture layers (book/pool.h): the leaves around the
 * open spread and a few ahead in the direction of turning hold a slot (a front and a back layer
 * of the content texture and of the ink texture); a worker thread draws their pages
 * (pages/book_source.h) at the resolution the view needs, and each frame uploads what it finished.
 * A draft of each page first, sharp after: where drawing costs about the texels drawn (a book
 * file's pages, a folder's images) a page is first drawn at a quarter of its layer's width and
 * height, scaled up to the layer on the worker and uploaded, then drawn sharp over it. The worker
 * draws the drafts of the leaves shown first; at rest then their sharp pages, then the
 * read-ahead's drafts and sharp pages; while a leaf turns every draft (the read-ahead's too)
 * before any sharp page, and a page thumbed past is not drawn sharp (its job is replaced). A
 * frame that would show a side with nothing drawn (a go-to's spread, a leaf thumbed onto sooner
 * than it was drafted) waits for its draft, at most a second (the last frame stays on screen
 * meanwhile); the built-in book's and a host's pages have no drafts, and show plain paper until
 * drawn. A run that waits for its pages (headless runs, so that what they write is the whole
 * page) draws no drafts. Owns the source, the worker and the pages drawn but not yet uploaded;
 * the textures belong to the renderer. */
#ifndef PAGECURL_BOOK_BOOK_STREAM_H
#define PAGECURL_BOOK_BOOK_STREAM_H

#include "book.h"
#include "../pages/book_source.h"
#include "ink_texture.h"

/* Leaves with texture layers at once: those a spread shows (3 mid-turn), read-ahead and the way
 * back. The built-in book's 8 all fit. */
#define BOOK_STREAM_SLOTS 8

typedef struct BookStream BookStream;

/* Streams `src` (taken: closed with the stream) for views that show a page `page_width` pixels
 * wide; NULL with the line in message when out of memory or no thread can start. */
BookStream *book_stream_create(PagesBookSource *src, uint32_t page_width, char *message,
                               size_t size);
void book_stream_destroy(BookStream *stream);

/* How a stream speaks and is stopped (each optional): a side that cannot be drawn is
 * told once to `warn`, a side uploaded (and shown from the next frame: its draft, then its sharp
 * drawing, then a detail of it) to `ready`, and `stopped`
 * ends a wait for pages early, so that a signal ending the run is not held up by a long page. */
typedef struct BookStreamHooks {
    void *user;
    void (*warn)(void *user, int side, const char *line);
    void (*ready)(void *user, int side);
    bool (*stopped)(void *user);
    /* called on the stream's worker with a side's pixels just drawn (the whole layer, width x
     * height; or `region` of it): marks drawn on the side, bent with it (a search's highlight) */
    void (*mark)(void *user, int side, uint8_t *rgba, uint32_t width, uint32_t height,
                 const PageRegion *region);
} BookStreamHooks;
void book_stream_set_hooks(BookStream *stream, const BookStreamHooks *hooks);

/* A page (or a zoomed view's detail) still being drawn `seconds` after it was begun is given up,
 * seen at the next update or book_stream_busy: shown crossed out, told to the hooks' `warn`,
 * and the pages after it drawn. A PDF's drawing is stopped; a page provider's call is left
 * running, and the pages asked before it returns are given up at once (the provider draws one
 * page at a time). Default BOOK_STREAM_PAGE_SECONDS; 0 or less: no limit. */
/* A page at the view's width takes well under a second on a core, and one that takes minutes is
 * hostile, or of no use to its reader. */
#define BOOK_STREAM_PAGE_SECONDS 20.0
void book_stream_set_page_limit(BookStream *stream, double seconds);

/* The pages `spread` shows are begun at once, drawn sharp (those in sight first), before a view
 * is made for them (its pipelines take longest on a CPU device): the first update of a stream
 * that does not wait for its pages, as any update at rest with nothing drawn in sight where the
 * pages draw fast (a go-to's cut), waits for the sides in sight drawn sharp (STREAM_FIRST_WAIT at
 * most; then drafts, as any frame's), shows no draft of them and takes only those two in (the
 * leaves' hidden sides are uploaded by the next update). Only a drafted source's (a book file's,
 * a folder's): the built-in book and a host's pages are drawn as the first update asks. */
void book_stream_prime(BookStream *stream, const BookSpread *spread);
/* A test's limit on that first wait (pagecurl_faults.first_wait_ms), in seconds. */
void book_stream_set_first_wait(BookStream *stream, double seconds);

const PagesBookSource *book_stream_source(const BookStream *stream);
/* Side `side` is drawn again where its layer holds it (what it shows stays until the
 * new drawing is uploaded) and its detail, if any, too: its marks changed (book/search.h). */
void book_stream_redraw(BookStream *stream, int side);
/* The host says side `side` (-1: every side) changed: its shape is asked again (a
 * provider's) and, where a layer holds it, it is drawn again from its source, what it shows
 * staying until the new drawing is uploaded (book_stream_redraw), a failure told anew. */
void book_stream_invalidate(BookStream *stream, int side);
/* The stream's pages come from `src` from now on (taken; the old source closed, once the page it
 * was drawing is done: waited for, no longer than the page limit): the layers of pages still in
 * the book show what they showed until drawn anew from `src`, those past its end plain paper
 * from the next update. False with the line in message when out of memory (`src` closed, the
 * stream as it was). */
bool book_stream_replace(BookStream *stream, PagesBookSource *src, char *message, size_t size);
/* Leaves in the book: pages / 2, rounded up. */
int book_stream_leaves(const BookStream *stream);

/* The renderer of `desc` with the pool's content layers (plain paper until drafted or drawn), and
 * `ink`'s CPU side for as many ink layers, none showing a page yet. Forgets what the pool held
 * before. */
bool book_stream_textures(BookStream *stream, const GpuContext *ctx, const GpuRendererDesc *desc,
                          GpuRenderer *out, BookInkTexture *ink, GpuError *err);

/* Brings the pool in step with `spread` (its leaves and direction), uploads the pages the worker
 * finished into `renderer`'s content and points `ink`'s layers at their pages, then sets the
 * spread's layers. With `wait`, first blocks until the spread's own pages are drawn sharp;
 * without, until those with nothing drawn are drafted (at most STREAM_DRAFT_WAIT, once a side).
 * *assigned (optional) says ink layers changed page. A page that cannot be drawn is shown marked,
 * with a warning line once. False on a GPU failure. */
bool book_stream_update(BookStream *stream, const GpuContext *ctx, GpuRenderer *renderer,
                        BookInkTexture *ink, BookSpread *spread, bool wait, bool *assigned,
                        GpuError *err);

/* The sides the view's last frame showed (book_draws' BookDraws.sides: those at rest) on
 * its width x height target: the part of each in view is drawn again from its source at the
 * density shown, its texels on the view's pixels (a PDF's or an image's:
 * pages_book_source_draws_regions), into a detail slot of the renderer, once the view has held
 * still a moment (before the pages' sharp drawings: a page gone to is sharp in view soonest so),
 * and shown from the frame after its upload, over the page's draft too (the layer until then; a
 * layer's mip levels grey thin print, whatever its size); book_stream_update tells the
 * spread.
 * Detail takes at most GPU_DETAIL_SLOTS x (width + 128) x (height + 128) texels (one level) on
 * the device and as many in pixels drawn and not yet uploaded, whatever the zoom. Returns
 * whether a detail is still to be drawn (not held nor drawn already). */
bool book_stream_want_detail(BookStream *stream, const BookSide *sides, uint32_t count,
                             uint32_t width, uint32_t height);

/* What is wanted (book_stream_want_detail) is drawn now, without waiting for the view to
 * hold still: the view took a step of the zoom, which does not go on. Then waits up to `seconds`
 * for it to be drawn; returns whether it was (or nothing was wanted). */
bool book_stream_detail_now(BookStream *stream, double seconds);

/* Details uploaded so far: a frame recorded after it changed is the first to show one. */
uint64_t book_stream_details(const BookStream *stream);

/* The share of its leaf's width and height that side `side`'s print covers
 * (pages_book_source_drawn_print), once its drawing (or its draft's) is uploaded: true; else 1 x 1
 * (the leaf) and false. */
bool book_stream_print(const BookStream *stream, int side, float print[2]);
/* The layout's print (book/layout.h) for the pages `spread` shows lying flat
 * (book_spread_sides). */
void book_stream_prints(const BookStream *stream, const BookSpread *spread, BookLayout *layout);

/* Pages are being drawn or wait to be uploaded: a window keeps looking (book_stream_news)
 * until they show. A page past its time (book_stream_set_page_limit) is given up here too. */
bool book_stream_busy(BookStream *stream);

/* Pages (or a detail) drawn and not yet uploaded: the next frame shows them. */
bool book_stream_news(BookStream *stream);

#endif
