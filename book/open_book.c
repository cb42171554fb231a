/* SPDX-License-Identifier: MIT */
/* The book held open: the flip, the reader, the zoom and the ink moved by input at its time (its
 * frames are open_frame.c's); its pages' search, links and text; its pages replaced or laid out
 * again; its events queued as they happen: the flip's log of lifts and landings is taken after
 * every call that moves it, the pages whose ink changed are gathered until no stroke is being drawn
 * (book/events.h). */
#include "open_book.h"

#include "camera.h"
#include "provided.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A swipe across this share of the viewport's width, more across than down, goes to the one-page
 * view's other side of the spread (swipe). */
#define SWIPE_SHARE 0.08

/* The pages spread s shows (1-based, 0: none), as the reader sees them left and right. */
static void spread_pages(const BookOpen *b, int s, int *left, int *right)
{
    book_events_spread_pages(b->pages, b->layout.rtl, s, left, right);
}

/* The flip's lifts and landings queued as events (book/events.h). */
static void take_turns(BookOpen *b)
{
    book_events_take_turns(&b->events, &b->flip, b->pages, b->layout.rtl);
}

/* --- book ------------------------------------------------------------------------------------ */

/* The shape most of the provider's pages have, from up to PROVIDER_SHAPE_SAMPLES of them spread
 * evenly (page 1 always); 0 (refused) where none has a shape. */
#define PROVIDER_SHAPE_SAMPLES 64
static float provided_shape(const PageProvider *p)
{
    if (!p->size)
        return 210.0f / 148.0f; /* A5 */
    float aspects[PROVIDER_SHAPE_SAMPLES];
    int n = 0, samples = p->pages < PROVIDER_SHAPE_SAMPLES ? p->pages : PROVIDER_SHAPE_SAMPLES;
    for (int i = 0; i < samples; i++) {
        float w = 0.0f, h = 0.0f;
        p->size(p->user, 1 + (int)((int64_t)i * p->pages / samples), &w, &h);
        if (w > 0.0f && h > 0.0f && isfinite(h / w))
            aspects[n++] = h / w;
    }
    return n ? pages_book_common_aspect(aspects, n) : 0.0f;
}

/* The source of the host's pages `pp` (its user, pages, draw and size) on leaves of `aspect`, with
 * the book's text and links: the host's own user and functions, so that a call the book leaves
 * running (a page given up) reads nothing of the book's. 0, or the status with the line in
 * message. */
static int provider_source(const BookOpen *b, const PageProvider *pp, float aspect,
                           PagesBookSource **src, char *message, size_t size)
{
    PageProvider p = b->provider;
    p.user = pp->user, p.pages = pp->pages, p.draw = pp->draw, p.size = pp->size;
    p.aspect = aspect;
    return pages_book_source_open_provider(&p, src, message, size);
}

/* The book's pages: a path, else the host's provider, else the built-in book. */
static int open_source(BookOpen *b, const BookOpenDesc *d, PagesBookSource **src, char *message,
                       size_t size)
{
    if (d->path) {
        PagesTextLayout text = {.aspect = d->page_aspect, .font_size = d->font_size};
        if (text.aspect > 0.0f) /* a view's shape held to a book's */
            text.aspect = fminf(fmaxf(text.aspect, PAGES_BOOK_ASPECT_MIN), PAGES_BOOK_ASPECT_MAX);
        int status = pages_book_source_open_with(d->path, &text, src, message, size);
        if (!status && d->font_size != 0.0f && !pages_book_source_reflowable(*src)) {
            status = 2; /* the book is closed by the caller */
            snprintf(message, size,
                     "%s: a book whose pages are its own (a PDF, XPS, comic or folder of images) "
                     "has no text size to choose",
                     d->path);
        }
        return status;
    }
    if (d->provider.pages <= 0)
        return pages_book_source_open(NULL, src, message, size);
    b->provider = d->provider;
    /* as long as a page's drawing (book_stream.h) */
    b->provider.seconds = d->page_seconds == 0.0f  ? BOOK_STREAM_PAGE_SECONDS
                          : d->page_seconds < 0.0f ? 0.0
                                                   : d->page_seconds;
    return provider_source(b, &b->provider, provided_shape(&b->provider), src, message, size);
}

bool book_open_create(GpuContext *gpu, const BookOpenDesc *d, BookOpen **out, GpuError *err)
{
    *out = NULL;
    BookOpen *b = calloc(1, sizeof *b);
    if (!b)
        return gpu_error_set(err, "out of memory");
    b->gpu = gpu;
    b->scroll_turned = -INFINITY;
    book_links_init(&b->links);
    b->wait_for_pages = d->wait_for_pages;
    b->page_detail = d->page_detail > 0.0f ? d->page_detail : 1.0f;
    b->stop = d->stop;
    b->stop_user = d->stop_user;
    b->thumb_through = d->thumb_through;
    b->timed = d->timed;
    b->target_format = d->target_format;
    b->target_samples = d->target_samples;
    b->target_depth_format = d->target_depth_format;
    b->page_seconds = d->page_seconds;
    b->quality = d->quality;
    b->max_samples = d->max_samples;
    b->show_through = d->show_through < 0.0f    ? 0.0f
                      : d->show_through == 0.0f ? GPU_SHOW_THROUGH_PAPER
                                                : fminf(d->show_through, 1.0f);
    b->ink_side = -1;
    char message[512];
    PagesBookSource *src = NULL;
    int refused = open_source(b, d, &src, message, sizeof message);
    if (!refused && (d->page < 0 || d->page > pages_book_source_pages(src))) {
        refused = 2;
        snprintf(message, sizeof message, "page %d: the book has %d page(s)", d->page,
                 pages_book_source_pages(src));
    }
    if (refused) {
        gpu_error_set(err, "%s", message);
        err->usage = refused == 2;
        pages_book_source_close(src);
        free(b);
        return false;
    }
    b->pages = pages_book_source_pages(src);
    pages_book_source_draw_fault(src, gpu->faults ? gpu->faults->spec.draw_ms : 0);
    b->first_wait_ms = gpu->faults ? gpu->faults->spec.first_wait_ms : 0;
    b->find_fail = gpu->faults ? gpu->faults->spec.find_fail : 0;
    b->layout = (BookLayout){
        .rtl = book_binds_right(d->binding, pages_book_source_right_to_left(src)),
        .hard_cover = d->hard_cover,
        .layout = d->layout,
    };
    BookLeafDesc ld = {
        .nx = d->grid_columns ? d->grid_columns : 64,
        .ny = d->grid_rows ? d->grid_rows : 90,
        .aspect = pages_book_source_builtin(src) ? 0.0f : pages_book_source_aspect(src),
        .readback = d->leaf_readback,
    };
    b->source = src;
    if (!book_leaf_create(gpu, &ld, &b->leaf, err)) {
        book_open_destroy(b);
        return false;
    }
    b->leaf_made = true;
    if (!mesh_ink_init(&b->ink, b->pages)) {
        book_open_destroy(b);
        return gpu_error_set(err, "out of memory for the book's ink");
    }
    (d->thumb_through ? book_init_reader : book_init_flip)(
        &b->flip, &b->leaf, b->pages, book_first_spread((uint32_t)d->page, false),
        d->reduced_motion);
    book_zoom_init(&b->zoom);
    b->panned_at = -INFINITY; /* no pan yet */
    b->seen = mesh_flip_view(&b->flip);
    book_reader_init(&b->reader, b->pages, d->page, b->seen.spread);
    b->layout.left_page = book_reader_left_page(&b->reader, &b->seen, 0.0);
    book_events_init(&b->events, b->seen.spread, b->ink.revision);
    if (pages_book_source_notice(src)[0]) /* what the book goes on without (a damaged face) */
        book_events_error(&b->events, 0, pages_book_source_notice(src));
    b->spread = book_spread(&b->seen);
    b->pose = book_pose(&b->seen, &b->leaf, &b->layout);
    *out = b;
    return true;
}

void book_open_destroy(BookOpen *b)
{
    if (!b)
        return;
    GpuError ignored = {0};
    /* the host's frames may still read the book's buffers and images */
    if (b->view_made || b->leaf_made)
        gpu_queue_idle(b->gpu, &ignored);
    if (b->view_made)
        book_view_destroy(b->gpu, &b->view);
    if (b->leaf_made)
        book_leaf_destroy(b->gpu, &b->leaf);
    book_search_stop(b->search); /* before the source it reads goes */
    book_stream_destroy(b->stream);
    pages_book_source_close(b->source);
    book_search_destroy(b->search); /* after the stream's worker, which marks pages with it */
    book_selection_destroy(b->selection);
    mesh_ink_free(&b->ink);
    book_links_free(&b->links);
    free(b);
}

PagesBookSource *book_open_source(const BookOpen *b)
{
    return b->stream ? (PagesBookSource *)book_stream_source(b->stream) : b->source;
}

void book_open_text_id(const BookOpen *b, char *out, size_t size)
{
    const PagesBookSource *src = book_open_source(b);
    if (!size)
        return;
    out[0] = '\0';
    if (!src)
        return;
    snprintf(out, size, "%s", pages_book_source_id(src));
    /* the helper's id of a reflowable book is "kind-PAGES-digest": the count goes */
    char *digest = strrchr(out, '-'), *count = digest;
    while (pages_book_source_reflowable(src) && count && count > out && count[-1] != '-')
        count--;
    if (pages_book_source_reflowable(src) && digest && count > out && count < digest)
        memmove(count - 1, digest, strlen(digest) + 1);
}

/* --- input ----------------------------------------------------------------------------------- */

/* The flip's view at `time`, the reader following it there (a leaf that has landed since the
 * last frame leaves the view where it carried it; book/reader.h). */
static MeshFlipView follow(BookOpen *b, double time)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    book_reader_follow(&b->reader, &view, time);
    return view;
}

/* How the book lies open for input at `time`: the one-page view where the reader's slide has it
 * then. */
static BookLayout layout_at(BookOpen *b, double time)
{
    MeshFlipView view = follow(b, time);
    BookLayout layout = b->layout;
    layout.left_page = book_reader_left_page(&b->reader, &view, time);
    return layout;
}

/* An event of the book's input (book/book.h) at target pixel (x, y), given to it as a fraction
 * of the viewport, which a replayed fraction times the viewport's size gives back exactly (the
 * product and quotient are exact in doubles). False where it did nothing. */
static bool feed(BookOpen *b, BookInputDevice device, BookInputAction action, double x, double y,
                 float pressure, float scale, double time)
{
    if (!b->width || !b->height)
        return false; /* no frame yet: nothing on screen to point at */
    BookInput e = {.time = time,
                   .device = device,
                   .action = action,
                   .x = (float)(x / b->width),
                   .y = (float)(y / b->height),
                   .pressure = pressure,
                   .scale = scale};
    BookLayout layout = layout_at(b, time);
    return book_apply_input(&b->flip, &b->zoom, &b->ink, &e, b->width, b->height, &b->leaf,
                            &layout);
}

/* The side under target pixel (x, y) as the book is seen at `time`; -1 off the book. */
static int side_at(BookOpen *b, double x, double y, double time)
{
    if (!b->width || !b->height)
        return -1;
    BookLayout layout = layout_at(b, time);
    /* the pixel as the input's door reads it: its fraction of the viewport */
    float px = (float)(x / b->width) * (float)b->width,
          py = (float)(y / b->height) * (float)b->height;
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    BookZoomView zoom =
        book_zoom_view(&b->zoom, &view, &b->leaf, &layout, b->width, b->height, time);
    BookHit hit;
    if (!book_pick(&view, &zoom, &b->leaf, &layout, b->width, b->height, px, py, &hit))
        return -1;
    return hit.side;
}

bool book_open_hit(const BookOpen *b, double x, double y, BookHit *out)
{
    if (!b->width || !b->height)
        return false;
    float px = (float)(x / b->width) * (float)b->width,
          py = (float)(y / b->height) * (float)b->height;
    if (b->held.on && !b->spread.fading) {
        /* a held pose (book_open_hold) is no flip's: through the pose the update drew */
        return book_pick_posed(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height, px,
                               py, out);
    }
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    BookZoomView zoom =
        book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, b->seen_time);
    return book_pick(&view, &zoom, &b->leaf, &b->layout, b->width, b->height, px, py, out);
}

int book_open_side_outline(const BookOpen *b, int side, float *xy, int max)
{
    if (!b->width || !b->height || side < 0 || side >= b->pages)
        return 0;
    if (b->held.on && !b->spread.fading) /* through the pose the update drew, as the hit test */
        return book_outline_posed(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height,
                                  side, xy, max);
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    BookZoomView zoom =
        book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, b->seen_time);
    return book_outline(&view, &zoom, &b->leaf, &b->layout, b->width, b->height, side, xy, max);
}

static bool page_step(BookOpen *b, bool next, double time);

/* The one-page view, fitted: a swipe away from the spine goes to the spread's other page, as a
 * key does (a slide of the view), where no drag can: from an even page (the back of the leaf
 * turned before) a drag that way holds nothing but that leaf, which it lays down flat, and from
 * an odd page it holds the leaf to turn, which it lays down too. At the pointer's release, where
 * the release turns no leaf over, once a press. */
static void swipe(BookOpen *b, BookPointer *p, double x, double y, double time)
{
    if (p->swiped || !b->width || !book_one_page(&b->layout, b->width, b->height) ||
        b->zoom.width || book_zoom_enlarged(&b->zoom.set))
        return;
    MeshFlipView view = follow(b, time);
    double dx = x - p->x0, dy = y - p->y0;
    if ((view.turning && view.completing) || fabs(dx) < SWIPE_SHARE * b->width ||
        fabs(dx) < 2.0 * fabs(dy))
        return;
    bool even = book_reader_left_page(&b->reader, &view, time) > 0.5f;
    bool leftwards = (dx < 0.0) != b->layout.rtl; /* in the left-bound frame */
    if (even != leftwards)
        return; /* towards the spine: the drag's own, a turn */
    p->swiped = true;
    page_step(b, even, time);
}

void book_open_pointer(BookOpen *b, const BookPointerInput *ev)
{
    b->held.on = false;
    float pressure = ev->pressure > 0.0f ? fminf(ev->pressure, 1.0f) : 1.0f;
    BookPointer *p;
    if (ev->action == BOOK_INPUT_DOWN) {
        bool ink = b->ink_mode || ev->device == BOOK_INPUT_INK;
        p = book_pointers_press(&b->pointers, ink, ev->id, ev->x, ev->y);
        if (!p)
            return; /* another pointer acts */
        if (ink)
            b->ink_side = side_at(b, ev->x, ev->y, ev->time);
    } else {
        p = book_pointers_find(&b->pointers, ev->id);
        if (!p)
            return;
    }
    bool ink = p == &b->pointers.inking;
    BookInputDevice device = ink                               ? BOOK_INPUT_INK
                             : ev->device == BOOK_INPUT_FINGER ? BOOK_INPUT_FINGER
                                                               : BOOK_INPUT_MOUSE;
    BookInputAction action = ev->action == BOOK_INPUT_CANCEL ? BOOK_INPUT_UP : ev->action;
    uint64_t revision = b->ink.revision;
    if (ev->action == BOOK_INPUT_CANCEL && !ink)
        mesh_flip_cancel(&b->flip, ev->time); /* a held page falls back */
    else
        feed(b, device, action, ev->x, ev->y, pressure, 1.0f, ev->time);
    if (ink && b->ink.revision != revision)
        book_events_ink_touched(&b->events, b->ink_side);
    else if (!ink && ev->action == BOOK_INPUT_UP)
        swipe(b, p, ev->x, ev->y, ev->time);
    take_turns(b);
    if (ev->action == BOOK_INPUT_UP || ev->action == BOOK_INPUT_CANCEL)
        p->down = false;
}

bool book_open_zoom(BookOpen *b, BookInputAction action, float scale, double x, double y,
                    double time)
{
    /* no position (both NAN): a zoom about the page's centre, the width of the right-hand page */
    bool none = isnan(x) && isnan(y) && (action == BOOK_INPUT_BY || action == BOOK_INPUT_WIDTH);
    if (!b->width || !b->height || !isfinite(scale) || (!none && (!isfinite(x) || !isfinite(y))) ||
        !isfinite(time) || mesh_flip_view_at(&b->flip, time).phase == MESH_FLIP_DRAGGING)
        return false;
    if (b->zoom.hosted)
        return false; /* the host's camera frames the book: no zoom or pan of the library's */
    b->held.on = false;
    return feed(b, BOOK_INPUT_ZOOM, action, x, y, 1.0f, scale, time);
}

/* A turn to the next spread (or the one before) asked by a key or an action. */
static bool turn(BookOpen *b, bool next, double time)
{
    if (b->thumb_through && b->width) /* the reader's turn, as the program's keys ask it */
        return feed(b, BOOK_INPUT_KEY, next ? BOOK_INPUT_NEXT : BOOK_INPUT_PREV, 0.0, 0.0, 1.0f,
                    1.0f, time);
    if (!(next ? mesh_flip_next(&b->flip, time) : mesh_flip_prev(&b->flip, time)))
        return false;
    if (b->width) { /* a turn from a zoomed view eases it back to fit */
        BookLayout layout = layout_at(b, time);
        MeshFlipView view = mesh_flip_view_at(&b->flip, time);
        BookSpread spread = book_spread(&view);
        BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &layout, b->width, b->height);
        book_zoom_ease_fit(&b->zoom, time, &fit);
    }
    return true;
}

/* The one-page layout's step to the next page (or the one before): the other side of the spread
 * the book heads for by a slide of the view, else a turn, whose leaf carries the view to the page
 * it lands on (book/reader.h). False where there is no such page, or the turn is refused (a page
 * held, the queue of turns full). */
static bool page_step(BookOpen *b, bool next, double time)
{
    MeshFlipView view = follow(b, time);
    if (view.phase == MESH_FLIP_DRAGGING)
        return false; /* the hand has the book */
    int page = book_reader_page(&b->reader, &view) + (next ? 1 : -1);
    if (page < 1 || page > b->pages)
        return false;
    if (page / 2 != view.heading && !turn(b, next, time))
        return false;
    view = mesh_flip_view_at(&b->flip, time);
    book_reader_step(&b->reader, page, &view, time, view.reduced_motion);
    return true;
}

/* Opens the book at `page` at `time`, a turn settling cut short: the reader asked for a place. */
static bool jump(BookOpen *b, int page, double time)
{
    int spread = book_first_spread((uint32_t)page, false), end = mesh_flip_end_spread(&b->flip);
    spread = spread < end ? spread : end;
    if (!mesh_flip_jump(&b->flip, spread, time))
        return false;
    book_reader_jump(&b->reader, page, spread, time);
    return true;
}

static bool key(BookOpen *b, BookInputAction action, double time)
{
    if (!isfinite(time))
        return false;
    b->held.on = false;
    switch (action) {
    case BOOK_INPUT_NEXT:
    case BOOK_INPUT_PREV: {
        bool next = action == BOOK_INPUT_NEXT;
        if (b->width && book_one_page(&b->layout, b->width, b->height))
            return page_step(b, next, time);
        return turn(b, next, time);
    }
    case BOOK_INPUT_HOME:
        return jump(b, 1, time);
    case BOOK_INPUT_END:
        return jump(b, b->pages, time);
    case BOOK_INPUT_UNDO: {
        int side = mesh_ink_undo(&b->ink);
        if (side >= 0)
            b->ink_side = side;
        book_events_ink_touched(&b->events, side);
        return side >= 0;
    }
    case BOOK_INPUT_FIT:
        return book_open_zoom(b, BOOK_INPUT_FIT, 1.0f, 0.0, 0.0, time);
    default:
        return false;
    }
}

bool book_open_key(BookOpen *b, BookInputAction action, double time)
{
    bool acted = key(b, action, time);
    take_turns(b);
    return acted;
}

/* From the fitted view a scroll goes on to the next page (back: the one before), as a PDF
 * viewer's Space, wheel and arrows do, at most once in this many seconds: a wheel's gesture or a
 * touchpad's stream of small scrolls turns once or twice, not once a notch. */
#define SCROLL_TURN_GAP 0.25

bool book_open_scroll(BookOpen *b, float amount, double time)
{
    bool fitted = b->width && !b->zoom.hosted && !b->zoom.width && !b->zoom.resume &&
                  !book_zoom_enlarged(&b->zoom.set) && !book_zoom_moving(&b->zoom, time);
    if (fitted) { /* the page is all in view: nothing to scroll but on to the next */
        MeshFlipView view = mesh_flip_view_at(&b->flip, time);
        if (view.phase == MESH_FLIP_DRAGGING || time - b->scroll_turned < SCROLL_TURN_GAP)
            return false;
        if (!book_open_key(b, amount > 0.0f ? BOOK_INPUT_NEXT : BOOK_INPUT_PREV, time))
            return false;
        b->scroll_turned = time;
        return true;
    }
    if (!b->width || !b->height || !isfinite(amount) || !isfinite(time) || b->zoom.hosted)
        return false; /* the host's camera frames the book: no scroll of the library's */
    b->held.on = false;
    BookLayout layout = layout_at(b, time);
    BookZoomScroll did =
        book_scroll(&b->zoom, &b->flip, amount, time, b->width, b->height, &b->leaf, &layout);
    if (did != BOOK_ZOOM_SCROLL_NEXT && did != BOOK_ZOOM_SCROLL_BACK)
        return did == BOOK_ZOOM_SCROLL_MOVED;
    /* past the page's foot (head): the reader's next page (the one before) as a key's step goes
     * there, in the one-page view the spread's other page by a slide (a turn of the leaf skipped
     * it: a portrait window at fit width went 1, 2, 4, 6) */
    bool stepped =
        book_open_key(b, did == BOOK_ZOOM_SCROLL_NEXT ? BOOK_INPUT_NEXT : BOOK_INPUT_PREV, time);
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    if (stepped && view.turning) {
        book_zoom_scroll_turned(&b->zoom, did); /* the zoom comes back as the leaf lands */
    } else if (stepped) {                       /* slid: at the other page's head (foot) at once */
        BookSpread spread = book_spread(&view);
        BookLayout now = layout_at(b, time);
        BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &now, b->width, b->height);
        book_zoom_scroll_slid(&b->zoom, did, time, &fit);
    }
    return stepped;
}

bool book_open_set_zoom(BookOpen *b, float zoom, double x, double y, double time)
{
    if (!b->width || !b->height)
        return false;
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    if (view.phase == MESH_FLIP_DRAGGING || b->zoom.hosted)
        return false; /* the point held stays under the pointer; the host's camera frames it */
    b->held.on = false;
    BookLayout layout = layout_at(b, time);
    BookSpread spread = book_spread(&view);
    BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &layout, b->width, b->height);
    /* about the pixel's centre, as a pointer's zoom */
    book_zoom_set(&b->zoom, fminf(fmaxf(zoom, BOOK_ZOOM_MIN), BOOK_ZOOM_MAX),
                  (float)((x + 0.5) / b->width), (float)((y + 0.5) / b->height), time, &fit);
    return true;
}

bool book_open_set_camera(BookOpen *b, const float *view_proj)
{
    if (!view_proj) {
        b->zoom.hosted = false;
        return true;
    }
    if (!book_camera_invertible(view_proj))
        return false;
    memcpy(b->zoom.host, view_proj, sizeof b->zoom.host);
    b->zoom.hosted = true;
    return true;
}

void book_open_get_zoom(const BookOpen *b, BookOpenZoom *out)
{
    const BookZoomView *v = &b->spread.zoom;
    *out = (BookOpenZoom){.zoom = v->scale > 0.0f ? v->scale : 1.0f,
                          .x = v->x * (float)b->width,
                          .y = v->y * (float)b->height,
                          .moving = book_zoom_moving(&b->zoom, b->seen_time),
                          .width = b->zoom.width,
                          .returning = b->zoom.resume};
    if (b->zoom.width) {
        MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
        int left, right, shown = book_reader_page(&b->reader, &view);
        spread_pages(b, view.spread, &left, &right);
        out->page = b->zoom.side < 0                  ? left
                    : b->zoom.side > 0                ? right
                    : shown >= 1 && shown <= b->pages ? shown
                    : right                           ? right
                                                      : left;
        out->down = b->zoom.down;
    }
}

bool book_open_set_view(BookOpen *b, const BookOpenZoom *v, double time)
{
    if (!b->width || !b->height)
        return false;
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    if (view.phase == MESH_FLIP_DRAGGING || b->zoom.hosted)
        return false; /* as book_open_set_zoom */
    b->held.on = false;
    BookLayout layout = layout_at(b, time);
    BookSpread spread = book_spread(&view);
    BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &layout, b->width, b->height);
    int left, right;
    spread_pages(b, view.spread, &left, &right);
    book_zoom_restore(&b->zoom, v->width, v->page && v->page == left ? -1 : 1, v->down, v->zoom,
                      (float)(v->x / b->width), (float)(v->y / b->height), time, &fit);
    return true;
}

bool book_open_go_to(BookOpen *b, int page)
{
    b->held.on = false;
    bool went = jump(b, page, b->seen_time);
    take_turns(b);
    return went;
}

bool book_open_hold(BookOpen *b, float progress, float grab, bool backward)
{
    MeshFlipView view = mesh_flip_view(&b->flip);
    int leaves = (b->pages + 1) / 2;
    bool leaf = backward ? view.spread >= 1 : view.spread < leaves;
    if (view.turning || !leaf || !isfinite(progress) || !isfinite(grab))
        return false;
    b->held = (BookOpenHeld){.on = true,
                             .backward = backward,
                             .progress = fminf(fmaxf(progress, 0.0f), 1.0f),
                             .grab = fminf(fmaxf(grab, 0.0f), 1.0f)};
    return true;
}

bool book_open_set_quality(BookOpen *b, GpuQuality quality)
{
    b->quality = quality;
    b->quality_asked = b->view_made;
    return true;
}

void book_open_set_ink_mode(BookOpen *b, bool ink)
{
    b->ink_mode = ink;
}

void book_open_set_lead(BookOpen *b, double seconds)
{
    b->lead = seconds;
}

void book_open_hold_detail(BookOpen *b, double seconds)
{
    b->detail_hold = seconds;
}

void book_open_set_hold_radius(BookOpen *b, float radius)
{
    b->hold_radius = radius;
}

bool book_open_read_leaf(BookOpen *b)
{
    if (!b->leaf.desc.readback)
        return false;
    b->read_leaf_next = true;
    return true;
}

bool book_open_clear_at(BookOpen *b, double x, double y, double time)
{
    int side = side_at(b, x, y, time);
    if (side < 0 || side >= b->ink.side_count)
        return false;
    feed(b, BOOK_INPUT_INK, BOOK_INPUT_CLEAR, x, y, 1.0f, 1.0f, time);
    b->ink_side = side;
    book_events_ink_touched(&b->events, side);
    return true;
}

bool book_open_add_stroke(BookOpen *b, int side, const MeshInkPoint *points, uint32_t count)
{
    /* a stroke added over one being drawn would take its place as the page's last */
    if (side < 0 || side >= b->pages || !points || b->ink.drawing >= 0)
        return false;
    /* the host's own ink is no news to it: unless the reader changed the ink since the last
     * frame, the event stays unraised */
    bool news = b->ink.revision != b->events.ink_seen;
    bool added = mesh_ink_stroke_add(&b->ink, side, points, count);
    if (!news)
        b->events.ink_seen = b->ink.revision;
    return added;
}

/* --- search and links ------------------------------------------------------------------------ */

/* The spread the book lies open at, or is heading for during a turn: a search's "next" is from
 * there, so that a second Enter during the turn goes on from the first's match. */
static int heading_spread(const BookOpen *b)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    int heading = view.heading;
    if (heading == view.spread && view.turning && view.completing)
        heading += view.direction == MESH_FLIP_FORWARD ? 1 : -1;
    return heading;
}

bool book_open_search(BookOpen *b, const char *query)
{
    /* the search reads through the source's own search helper, never the drawing one: it may
     * take the source from under the stream that owns it */
    PagesBookSource *src = book_open_source(b);
    if (!src)
        return false;
    if (!b->search) {
        BookSearch *made = book_search_create(src);
        if (!made)
            return false;
        book_search_fail_first(made, b->find_fail);
        __atomic_store_n(&b->search, made, __ATOMIC_RELEASE); /* the stream's worker reads it */
    }
    int at = heading_spread(b);
    int from = 2 * at - 1 > 0 ? 2 * at - 1 : 0; /* the spread's first side */
    return book_search_start(b->search, query, from);
}

int book_open_search_next(const BookOpen *b, bool forward)
{
    if (!b->search)
        return -1;
    int at = heading_spread(b);
    /* spread s shows sides 2s - 1 and 2s */
    return book_search_next(b->search, forward ? 2 * at : 2 * at - 1, forward);
}

const BookLinksSide *book_open_links(BookOpen *b, int side)
{
    /* the links are read through the source's own links helper, never the drawing one */
    PagesBookSource *src = book_open_source(b);
    if (!src || side < 0 || side >= b->pages)
        return NULL;
    bool failed = false;
    char line[BOOK_EVENT_MESSAGE];
    const BookLinksSide *p = book_links_side(&b->links, src, side, &failed, line, sizeof line);
    if (failed)
        book_events_error(&b->events, side + 1, line);
    return p;
}

/* The page a link followed from here is left from: the one page shown, else the spread's
 * left-hand page (its only one at either end), the spread it opens at again. */
static int left_from(BookOpen *b, double time)
{
    MeshFlipView view = follow(b, time);
    if (b->width && book_one_page(&b->layout, b->width, b->height)) {
        int page = book_reader_page(&b->reader, &view);
        return page < 1 ? 1 : page > b->pages ? b->pages : page;
    }
    int s = heading_spread(b);
    return s < 1 ? 1 : 2 * s <= b->pages ? 2 * s : b->pages;
}

/* To `page` as a followed link goes: a neighbouring spread (in the one-page view, page) by the
 * turn a key gives, any other by a cut (a turn refused, a queue full: a cut too). */
static bool travel(BookOpen *b, int page, double time)
{
    MeshFlipView view = follow(b, time);
    if (view.phase == MESH_FLIP_DRAGGING)
        return false; /* the hand has the book */
    if (b->width && book_one_page(&b->layout, b->width, b->height)) {
        int at = book_reader_page(&b->reader, &view);
        if (page == at)
            return true;
        if ((page == at + 1 || page == at - 1) && page_step(b, page > at, time))
            return true;
    } else {
        int at = heading_spread(b), to = book_first_spread((uint32_t)page, false);
        if (to == at)
            return true;
        if ((to == at + 1 || to == at - 1) && turn(b, to > at, time))
            return true;
    }
    return jump(b, page, time);
}

bool book_open_follow(BookOpen *b, int page, double time)
{
    b->held.on = false;
    int from = left_from(b, time);
    bool went = travel(b, page, time);
    if (went)
        book_links_went(&b->links, from);
    take_turns(b);
    return went;
}

bool book_open_step_back(BookOpen *b, bool forward, double time)
{
    int at = left_from(b, time), page = book_links_step(&b->links, at, forward, false);
    if (!page)
        return false;
    b->held.on = false;
    bool went = travel(b, page, time);
    if (went)
        book_links_step(&b->links, at, forward, true);
    take_turns(b);
    return went;
}

/* --- text and its selection ------------------------------------------------------------------ */

/* Side `side`'s text held by the book's selection (read where another side's is): false where it
 * cannot be read (said as an ERROR event) or memory runs short. */
static bool hold_text(BookOpen *b, int side)
{
    PagesBookSource *src = book_open_source(b);
    if (!src || side < 0 || side >= b->pages)
        return false;
    if (!b->selection) {
        BookSelection *made = book_selection_create();
        if (!made)
            return false;
        __atomic_store_n(&b->selection, made, __ATOMIC_RELEASE); /* the stream's worker reads it */
    }
    if (book_selection_holds(b->selection, side))
        return true;
    PagesTextChar *chars = malloc(PAGES_TEXT_MAX_CHARS * sizeof *chars);
    if (!chars)
        return false;
    char line[BOOK_EVENT_MESSAGE];
    float place[4];
    int n =
        pages_book_source_text(src, side, chars, PAGES_TEXT_MAX_CHARS, place, line, sizeof line);
    if (n < 0) {
        free(chars);
        book_events_error(&b->events, side + 1, line);
        return false;
    }
    PagesTextChar *kept = n ? realloc(chars, (size_t)n * sizeof *chars) : NULL;
    if (!kept)
        free(chars);
    book_selection_hold(b->selection, side, kept, n, place);
    return true;
}

long book_open_side_text(BookOpen *b, int side, char *out, size_t size)
{
    if (!hold_text(b, side))
        return -1;
    return (long)book_selection_page_text(b->selection, out, size);
}

bool book_open_select(BookOpen *b, const BookHit *from, const BookHit *to, bool words)
{
    if (!from) {
        if (b->selection)
            book_selection_clear(b->selection);
        return true;
    }
    to = to ? to : from;
    return to->side == from->side && isfinite(from->u) && isfinite(from->v) && isfinite(to->u) &&
           isfinite(to->v) && hold_text(b, from->side) &&
           book_selection_select(b->selection, from->u, from->v, to->u, to->v, words);
}

/* --- pages that change ----------------------------------------------------------------------- */

void book_open_invalidate(BookOpen *b, int page)
{
    int side = page - 1; /* page 0, all: side -1 */
    if (b->stream)
        book_stream_invalidate(b->stream, side);
    else if (b->source) /* nothing drawn yet: only a shape to ask again */
        pages_book_source_forget_shape(b->source, side);
}

/* The book's pages are `src`'s now (the stream has it already, where there is one), opened at
 * `shown` (1-based; 0: where the reader was, within the new count). */
static void take_pages(BookOpen *b, PagesBookSource *src, int shown)
{
    book_search_stop(b->search); /* before the source it reads goes */
    if (!b->stream) {
        pages_book_source_hand_over(src, b->source);
        pages_book_source_close(b->source);
        b->source = src;
    }
    /* the old pages' search, selection and links go with them (the stream's worker, which marks
     * pages with the first two, has nothing to draw until the next update) */
    book_search_destroy(b->search);
    __atomic_store_n(&b->search, NULL, __ATOMIC_RELEASE);
    book_selection_destroy(b->selection);
    __atomic_store_n(&b->selection, NULL, __ATOMIC_RELEASE);
    book_links_free(&b->links);
    book_links_init(&b->links);
    /* A leaf in the hand falls, one in flight lies down where it is (their events told), and the
     * book opens where it was, within the new count: the reader's page and its spread. */
    if (b->pointers.turning.down)
        mesh_flip_cancel(&b->flip, b->seen_time), b->pointers.turning.down = false;
    if (b->pointers.inking.down)
        mesh_ink_stroke_end(&b->ink), b->pointers.inking.down = false;
    MeshFlipView view = mesh_flip_view(&b->flip);
    if (view.turning)
        mesh_flip_jump(&b->flip, view.spread, b->seen_time);
    take_turns(b);
    view = mesh_flip_view(&b->flip);
    int page = shown ? shown : book_reader_page(&b->reader, &view);
    b->pages = pages_book_source_pages(src);
    page = page < 1 ? 1 : page > b->pages ? b->pages : page;
    int spread = view.spread < b->pages / 2 + 1 ? view.spread : b->pages / 2;
    if (spread != view.spread || shown)
        spread = book_first_spread((uint32_t)page, false);
    bool reduced = view.reduced_motion;
    (b->thumb_through ? book_init_reader : book_init_flip)(&b->flip, &b->leaf, b->pages, spread,
                                                           reduced);
    if (isfinite(b->seen_time))
        mesh_flip_step(&b->flip, b->seen_time);
    book_reader_init(&b->reader, b->pages, page, spread);
    b->held.on = false;
    b->seen = mesh_flip_view(&b->flip);
}

bool book_open_set_provider(BookOpen *b, const PageProvider *provider, GpuError *err)
{
    /* the book keeps its leaves' shape (the new pages are fitted within them), and its pages'
     * text and links come from the description's calls, as the first provider's did */
    PagesBookSource *src = NULL;
    char message[512];
    int refused = provider_source(b, provider, pages_book_source_aspect(book_open_source(b)), &src,
                                  message, sizeof message);
    if (!refused && !mesh_ink_grow(&b->ink, provider->pages)) {
        pages_book_source_close(src);
        refused = 1, snprintf(message, sizeof message, "out of memory for the book's ink");
    }
    if (!refused && b->stream) {
        book_search_stop(b->search); /* it reads the source the stream's replace closes */
        refused = !book_stream_replace(b->stream, src, message, sizeof message);
    }
    if (refused) {
        gpu_error_set(err, "%s", message);
        err->usage = refused == 2;
        return false;
    }
    b->provider.user = provider->user, b->provider.pages = provider->pages;
    b->provider.draw = provider->draw, b->provider.size = provider->size;
    take_pages(b, src, 0);
    return true;
}

/* The leaf made again at `aspect` (a reflowable book laid out to another page shape), and with
 * it the view and the stream, made again for it at the next update: false with the line where
 * the new leaf cannot be made (the book then stays as it was). The search is stopped first (it
 * reads the stream's source). */
static bool reshape(BookOpen *b, float aspect, char *message, size_t size)
{
    const GpuContext *ctx = b->gpu;
    GpuError gerr = {0};
    BookLeafDesc desc = b->leaf.desc;
    desc.aspect = aspect;
    BookLeaf leaf;
    /* the host's frames may still read the old leaf and view */
    if (!gpu_queue_idle(ctx, &gerr) || !book_leaf_create(ctx, &desc, &leaf, &gerr)) {
        snprintf(message, size, "%s", gerr.message);
        return false;
    }
    if (b->view_made)
        book_view_destroy(ctx, &b->view), b->view_made = false;
    book_leaf_destroy(ctx, &b->leaf);
    b->leaf = leaf;
    book_search_stop(b->search);
    book_stream_destroy(b->stream);
    b->stream = NULL;
    return true;
}

bool book_open_relayout(BookOpen *b, float font_size, float page_aspect, GpuError *err)
{
    const PagesBookSource *now = book_open_source(b);
    PagesTextLayout was = pages_book_source_layout(now), to = was;
    if (font_size != 0.0f)
        to.font_size = font_size;
    if (page_aspect != 0.0f) /* a view's shape held to a book's */
        to.aspect = fminf(fmaxf(page_aspect, PAGES_BOOK_ASPECT_MIN), PAGES_BOOK_ASPECT_MAX);
    if (pages_book_source_reflowable(now) && to.font_size == was.font_size &&
        to.aspect == was.aspect)
        return true;
    /* the reader's place is the text at the top of the page read (the right-hand one of a
     * spread, as a kept place is): the same words open after, on whichever page holds them */
    MeshFlipView view = mesh_flip_view(&b->flip);
    int side = book_reader_page(&b->reader, &view) - 1, moved = -1;
    PagesBookSource *src = NULL;
    char message[512];
    int refused =
        pages_book_source_relayout(now, &to, &side, &moved, 1, &src, message, sizeof message);
    /* ink is kept by page number (a notebook's page is its number): a page's strokes stay on
     * the page of that number, and none is lost where the count falls */
    if (!refused && !mesh_ink_grow(&b->ink, pages_book_source_pages(src))) {
        pages_book_source_close(src);
        refused = 1, snprintf(message, sizeof message, "out of memory for the book's ink");
    }
    /* a page of another shape: the leaf takes it (the stream is made again for it) */
    bool reshaped = !refused && to.aspect != was.aspect;
    if (reshaped && !reshape(b, pages_book_source_aspect(src), message, sizeof message)) {
        pages_book_source_close(src);
        refused = 1;
    }
    if (!refused && !reshaped && b->stream) {
        book_search_stop(b->search); /* it reads the source the stream's replace closes */
        refused = !book_stream_replace(b->stream, src, message, sizeof message);
    }
    if (refused == 1) { /* a host that replays a trace has no error to read */
        BookEvent *e = book_events_push(&b->events, BOOK_EVENT_ERROR);
        snprintf(e->message, sizeof e->message, "%.250s", message);
    }
    if (refused) {
        gpu_error_set(err, "%s", message);
        err->usage = refused == 2;
        return false;
    }
    take_pages(b, src, moved + 1);
    return true;
}

/* The farthest a go-to thumbs through: the leaf in flight and the turns the flip queues behind
 * it (the public header says 4 spreads). */
#define TURN_TO_THUMBED (1 + MESH_FLIP_QUEUE_MAX)

bool book_open_turn_to(BookOpen *b, int page, double time)
{
    MeshFlipView view = follow(b, time);
    if (view.phase == MESH_FLIP_DRAGGING)
        return false; /* the hand has the book */
    b->held.on = false;
    int end = mesh_flip_end_spread(&b->flip), to = book_first_spread((uint32_t)page, false);
    to = to < end ? to : end;
    int at = view.heading, turns = to > at ? to - at : at - to;
    MeshFlipDirection way = to > at ? MESH_FLIP_FORWARD : MESH_FLIP_BACKWARD;
    if (turns > TURN_TO_THUMBED) {
        /* far: one leaf, from the spread beside the target (a cut to it first) */
        int from = way == MESH_FLIP_FORWARD ? to - 1 : to + 1;
        if (!mesh_flip_jump(&b->flip, from, time))
            return false;
        book_reader_jump(&b->reader, 2 * from > b->pages ? b->pages : 2 * from + (from == 0), from,
                         time);
        turns = 1;
    }
    for (int k = 0; k < turns; k++)
        if (!mesh_flip_turn(&b->flip, way, time))
            break;
    view = mesh_flip_view_at(&b->flip, time);
    bool there = view.heading == to || (!view.turning && view.spread == to);
    if (!there) { /* the flip took fewer turns (a leaf turned round, a queue full): a cut */
        bool went = jump(b, page, time);
        take_turns(b);
        return went;
    }
    if (turns && b->width) { /* a turn from a zoomed view eases it back to fit */
        BookLayout layout = layout_at(b, time);
        BookSpread spread = book_spread(&view);
        BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &layout, b->width, b->height);
        book_zoom_ease_fit(&b->zoom, time, &fit);
    }
    book_reader_step(&b->reader, page, &view, time, view.reduced_motion);
    take_turns(b);
    return true;
}
