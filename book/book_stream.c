/* SPDX-License-Identifier: MIT */
#include "book_stream.h"

#include "../pages/content.h"
#include "page_renderer.h"
#include "pool.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Leaves read ahead in the direction of turning (and as many kept behind). */
#define STREAM_AHEAD 2
/* Page sides that wait at once: every side of every slot. */
#define STREAM_SIDES (2 * BOOK_STREAM_SLOTS)
/* What the worker may have drawn and not handed over: those sides, and a detail. */
#define STREAM_DONE (STREAM_SIDES + 2)
/* A draft (a book file's or a folder's side, whose drawing costs about its texels): the side
 * drawn at this share of its layer's width and height (1/16 of the texels) and scaled up to the
 * layer, shown until its sharp drawing comes. */
#define STREAM_DRAFT_SHARE 4
/* A frame of a stream that does not wait for its pages (a window's) that would show a side with
 * nothing drawn yet waits this long at most for the side's draft (the worker draws those
 * first): the last picture stays on screen meanwhile, as a viewer holds its side until the next
 * is there, and a side whose draft takes longer shows paper until it comes. */
#define STREAM_DRAFT_WAIT 1.0
/* A frame at rest of a stream that does not wait for its pages (a window's) whose sides in sight
 * have nothing drawn (the book opened, a cut to a far spread: a go-to, a link, a match) waits
 * this long at most for them drawn sharp and shows no draft of them: a reader arriving on a page
 * looks for legible text, and a draft's upload and the frame that shows it only delay it (on
 * lavapipe each upload is some 70 ms of the one core drawing). The book's first are begun before
 * its view is made (book_stream_prime). Past the wait the frame goes on as any other: drafts,
 * STREAM_DRAFT_WAIT in all at most. */
#define STREAM_FIRST_WAIT 0.5
/* ... but only where the book's pages are drawn sharp this fast (the latest drawings', a moving
 * mean): a heavy book's go-to shows its drafts first, as a leaf thumbed onto does. */
#define STREAM_JUMP_SHARP 0.15
/* Drafts drawn (each scaled up to a layer's texels) that wait at once to be uploaded: the worker
 * draws them quickly, and a slow frame would otherwise find a layer's worth of memory for each
 * of the read-ahead's sides. */
#define STREAM_DRAFTS_HELD 4

/* A view's detail (gpu/renderer.h): a region of a side as large as the view and this many texels
 * beyond it on each side (a small pan needs no drawing), drawn for every side at rest, once what
 * is wanted has held still SETTLE seconds (the notches of a wheel and the steps of a pinch come
 * closer together than that). Not only where the side is shown denser than its layer holds
 * (zoomed in): at 1x a layer is drawn for half the view's width and shown smaller, and its mip
 * levels read between them greyed thin print (a 7 pt line's darkest 76 levels above MuPDF's);
 * a detail's texels are the view's pixels, so its print is MuPDF's own at the scale shown. */
#define STREAM_DETAIL_MARGIN 64
#define STREAM_DETAIL_SETTLE 0.03
/* A detail is read texel for pixel from its one level: it is shown while the side is shown at
 * least SMALLEST as wide as it was drawn, its layer beyond. */
#define STREAM_DETAIL_SMALLEST 0.75f

typedef struct Detail {
    int side; /* -1: none */
    PageRegion region;
} Detail;

/* A side to draw: its draft, or sharp. */
typedef struct Job {
    int side;
    bool draft;
} Job;

typedef struct Drawn {
    int side;
    uint8_t *pixels; /* a whole side's: the layer's texels (a draft's scaled up to them) */
    bool ok;
    bool draft; /* a side's draft (one that failed is the side's drawing: not tried again) */
    char message[256];
    int detail_slot; /* a detail's slot (`region` of `side`), -1 for a whole side */
    PageRegion region;
    uint64_t serial; /* the stream's redraws when it was begun */
    float print[2];  /* a whole side's: pages_book_source_drawn_print */
    bool stale;      /* a detail whose side was to be drawn again (its marks changed) meanwhile */
} Drawn;

struct BookStream {
    PagesBookSource *src;
    int pages, leaves;
    uint32_t width, height; /* texels of a layer */
    BookPool pool;
    bool ready[STREAM_SIDES];   /* per layer: its side is uploaded (else plain paper) */
    bool drafted[STREAM_SIDES]; /* per layer not ready: its side's draft is uploaded */
    /* per layer: a frame waited for its draft in vain (STREAM_DRAFT_WAIT), and waits no more */
    bool waited[STREAM_SIDES];
    bool drafts;                  /* the source's pages are drafted (a book file's, a folder's) */
    float print[STREAM_SIDES][2]; /* per layer uploaded (or drafted): its side's print
                                     (book_stream_print) */
    /* per layer: a redraw asked (book_stream_redraw) at this serial (0: none); a drawing
     * begun before it does not answer it */
    uint64_t stale[STREAM_SIDES];
    uint64_t redraws;              /* the last serial given */
    bool blank[BOOK_STREAM_SLOTS]; /* the slot's layers hold plain paper */
    /* per layer: its side is past the end of a replaced source's book: paper at the next update */
    bool wipe[STREAM_SIDES];
    bool reassign;     /* a replaced source: every layer's ink pointed at its side anew */
    int direction;     /* the last turn's: +1 forward, -1 back */
    double first_wait; /* STREAM_FIRST_WAIT, or a test's (book_stream_set_first_wait) */
    bool updated;      /* an update was made (the book's first frames excepted from turns) */
    bool *warned;      /* per side: its failure was said */
    uint8_t *paper;    /* two layers of plain paper */
    /* Shared with the worker, under `lock`. */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, done_cond;
    Job jobs[2 * STREAM_SIDES]; /* pages to draw (drafts and sharp), most wanted first */
    uint32_t job_count;
    int working;          /* the side being drawn, -1 none */
    bool working_draft;   /* its draft */
    double working_since; /* when the side or detail being drawn was begun */
    double page_seconds;  /* its time: past it, it is given up (0: no limit) */
    double sharp_seconds; /* a side's sharp drawing lately takes (a moving mean; 0: none yet) */
    bool overran;         /* the side or detail being drawn was given up for its time */
    Drawn done[STREAM_DONE];
    uint32_t done_count;
    bool quit;
    BookStreamHooks hooks;
    /* The detail: what each slot holds (uploaded), what the view wants (since when), and which
     * pages' sides want it now (the others show their layers). */
    bool regions; /* the source draws regions */
    Detail held[GPU_DETAIL_SLOTS];
    uint64_t details; /* uploaded so far */

    int sharp[2];
    float shown[2]; /* the width in pixels the view shows each of them at */
    /* Shared with the worker, under `lock`: the detail to draw next and the one being drawn. */
    Detail detail_job[GPU_DETAIL_SLOTS], detail_working; /* side -1: none */
    double detail_due_at;      /* the jobs are drawn from then on (CLOCK_MONOTONIC seconds) */
    int detail_working_slot;   /* -1: none */
    bool detail_working_stale; /* its side was to be drawn again (book_stream_redraw) */
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Waits on `cond` (under `lock`) at most `seconds`: the deadline on the condition's clock. */
static void wait_at_most(pthread_cond_t *cond, pthread_mutex_t *lock, double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long ns = (long)(seconds * 1e9) + 1;
    until.tv_sec += ns / 1000000000, until.tv_nsec += ns % 1000000000;
    if (until.tv_nsec >= 1000000000)
        until.tv_sec++, until.tv_nsec -= 1000000000;
    pthread_cond_timedwait(cond, lock, &until);
}

void book_stream_set_hooks(BookStream *s, const BookStreamHooks *hooks)
{
    s->hooks = *hooks;
}

static bool stopped(const BookStream *s)
{
    return s->hooks.stopped && s->hooks.stopped(s->hooks.user);
}

static bool detail_pending(const BookStream *s)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->detail_job[k].side >= 0)
            return true;
    return false;
}

/* A detail slot with a drawing to make now (the view has held still long enough), or -1. */
static int detail_due(const BookStream *s)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->detail_job[k].side >= 0 && now_seconds() >= s->detail_due_at)
            return k;
    return -1;
}

/* A side or a detail begun by the worker (under the lock): an abort for the one before it, given
 * under the lock too, is over. */
static void begin(BookStream *s)
{
    pages_book_source_resume(s->src);
    s->working_since = now_seconds();
    s->overran = false;
}

/* The side or detail being drawn given up where it is past its time (under the lock). */
static void give_up_late(BookStream *s)
{
    bool drawing = s->working >= 0 || s->detail_working_slot >= 0;
    if (drawing && s->page_seconds > 0.0 && !s->overran && !s->quit &&
        now_seconds() - s->working_since > s->page_seconds) {
        s->overran = true;
        pages_book_source_abort(s->src);
    }
}

/* A texel centre of a side of `to` texels mapped onto a side of `from`, in 16.16 fixed point:
 * the first's, and the step from one to the next. */
static int64_t scale_start(uint32_t from, uint32_t to, int64_t *step)
{
    *step = ((int64_t)from << 16) / (int64_t)to;
    return *step / 2 - (1 << 15);
}

/* The widest draft: a layer's widest (2048 texels) over STREAM_DRAFT_SHARE. */
#define STREAM_DRAFT_MAX_WIDTH (2048 / STREAM_DRAFT_SHARE)

/* `src` (sw x sh RGBA8, sw at most STREAM_DRAFT_MAX_WIDTH) scaled up bilinearly to `dst` (dw x
 * dh), texel centres on texel centres (in sRGB: a draft's blur, shown until the side's sharp
 * drawing comes): each row of `dst` from a row blended between two of `src`, in fixed point. */
static void scale_up(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw,
                     uint32_t dh)
{
    uint16_t row[4 * STREAM_DRAFT_MAX_WIDTH]; /* src's two rows blended, times 256 */
    int64_t ystep, xstep, y16 = scale_start(sh, dh, &ystep), x16_0 = scale_start(sw, dw, &xstep);
    for (uint32_t y = 0; y < dh; y++, y16 += ystep) {
        int64_t py = y16 < 0 ? 0 : y16;
        uint32_t y0 = (uint32_t)(py >> 16) < sh - 1 ? (uint32_t)(py >> 16) : sh - 1;
        uint32_t y1 = y0 + 1 < sh ? y0 + 1 : y0, wy = (uint32_t)(py >> 8) & 255u;
        const uint8_t *r0 = src + (size_t)y0 * sw * 4, *r1 = src + (size_t)y1 * sw * 4;
        for (uint32_t i = 0; i < 4 * sw; i++)
            row[i] = (uint16_t)(r0[i] * (256u - wy) + r1[i] * wy);
        uint8_t *out = dst + (size_t)y * dw * 4;
        int64_t x16 = x16_0;
        for (uint32_t x = 0; x < dw; x++, x16 += xstep) {
            int64_t px = x16 < 0 ? 0 : x16;
            uint32_t x0 = (uint32_t)(px >> 16) < sw - 1 ? (uint32_t)(px >> 16) : sw - 1;
            uint32_t x1 = 4 * (x0 + 1 < sw ? x0 + 1 : x0), wx = (uint32_t)(px >> 8) & 255u;
            x0 *= 4;
            for (uint32_t c = 0; c < 4; c++)
                out[4 * x + c] =
                    (uint8_t)((row[x0 + c] * (256u - wx) + row[x1 + c] * wx + 32768u) >> 16);
        }
    }
}

/* Side d->side's draft into d->pixels (the layer's texels): drawn at a share of the layer's size
 * and scaled up to it. A side that cannot be drawn so is marked at the layer's size, as a sharp
 * drawing's failure is (and not drawn again: its failure is the side's). */
static void draw_draft(BookStream *s, Drawn *d)
{
    uint32_t w = (s->width + STREAM_DRAFT_SHARE - 1) / STREAM_DRAFT_SHARE;
    w = w < STREAM_DRAFT_MAX_WIDTH ? w : STREAM_DRAFT_MAX_WIDTH;
    long h = lrintf((float)s->height * (float)w / (float)s->width);
    uint32_t dh = h < 1 ? 1 : (uint32_t)h;
    uint8_t *small = malloc((size_t)w * dh * 4);
    if (!small) {
        snprintf(d->message, sizeof d->message, "page %d: out of memory", d->side + 1);
        d->ok = false;
    } else {
        d->ok =
            pages_book_source_draw(s->src, d->side, w, dh, small, d->message, sizeof d->message);
        pages_book_source_drawn_print(s->src, d->print);
    }
    if (d->ok)
        scale_up(small, w, dh, d->pixels, s->width, s->height);
    else
        pages_book_placeholder(s->width, s->height, true, d->pixels);
    free(small);
}

/* Whether the next job may begin (under the lock): a draft waits while STREAM_DRAFTS_HELD
 * drafts wait to be uploaded. */
static bool job_due(const BookStream *s)
{
    if (!s->job_count || !s->jobs[0].draft)
        return s->job_count > 0;
    uint32_t held = 0;
    for (uint32_t d = 0; d < s->done_count; d++)
        held += s->done[d].detail_slot < 0 && s->done[d].draft;
    return held < STREAM_DRAFTS_HELD;
}

static void *worker(void *user)
{
    BookStream *s = user;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        int detail = -1;
        for (;;) { /* until there is room for what it draws, and a side or a detail due */
            if (s->quit)
                break;
            bool room = s->done_count < STREAM_DONE;
            double now = now_seconds();
            if (room && ((detail = detail_due(s)) >= 0 || job_due(s)))
                break;
            if (room && detail_pending(s) && now < s->detail_due_at) {
                wait_at_most(&s->wake, &s->lock, s->detail_due_at - now + 0.001);
            } else {
                pthread_cond_wait(&s->wake, &s->lock);
            }
        }
        if (s->quit)
            break;
        if (detail >= 0) { /* the view in sight first: its pages are drawn already */
            Drawn d = {.side = s->detail_job[detail].side,
                       .detail_slot = detail,
                       .region = s->detail_job[detail].region};
            s->detail_working = s->detail_job[detail];
            s->detail_working_slot = detail;
            begin(s);
            s->detail_job[detail] = (Detail){.side = -1};
            pthread_mutex_unlock(&s->lock);
            d.pixels = malloc((size_t)d.region.width * d.region.height * 4);
            d.ok = d.pixels && pages_book_source_draw_region(s->src, d.side, &d.region, d.pixels,
                                                             d.message, sizeof d.message);
            if (d.ok && s->hooks.mark)
                s->hooks.mark(s->hooks.user, d.side, d.pixels, d.region.width, d.region.height,
                              &d.region);
            pthread_mutex_lock(&s->lock);
            d.stale = s->detail_working_stale;
            s->detail_working_stale = false;
            s->done[s->done_count++] = d;
            s->detail_working_slot = -1;
            pthread_cond_broadcast(&s->done_cond);
            continue;
        }
        Job job = s->jobs[0];
        int side = job.side;
        memmove(s->jobs, s->jobs + 1, --s->job_count * sizeof *s->jobs);
        s->working = side;
        s->working_draft = job.draft;
        begin(s);
        uint64_t serial = s->redraws;
        pthread_mutex_unlock(&s->lock);
        Drawn d = {.side = side,
                   .pixels = malloc((size_t)s->width * s->height * 4),
                   .draft = job.draft,
                   .detail_slot = -1,
                   .serial = serial};
        d.print[0] = d.print[1] = 1.0f;
        if (d.pixels && job.draft)
            draw_draft(s, &d);
        else if (d.pixels) {
            d.ok = pages_book_source_draw(s->src, side, s->width, s->height, d.pixels, d.message,
                                          sizeof d.message);
            pages_book_source_drawn_print(s->src, d.print);
        } else
            snprintf(d.message, sizeof d.message, "page %d: out of memory", side + 1);
        if (d.ok && s->hooks.mark)
            s->hooks.mark(s->hooks.user, side, d.pixels, s->width, s->height, NULL);
        double took = now_seconds() - s->working_since;
        pthread_mutex_lock(&s->lock);
        if (d.ok && !job.draft)
            s->sharp_seconds =
                s->sharp_seconds > 0.0 ? 0.75 * s->sharp_seconds + 0.25 * took : took;
        const char *name = pages_book_source_name(s->src);
        if (s->overran && !d.ok && name[0])
            snprintf(d.message, sizeof d.message, "%s, page %d: given up after %g s of drawing",
                     name, side + 1, s->page_seconds);
        else if (s->overran && !d.ok) /* a host's page provider, whose call is left running */
            snprintf(d.message, sizeof d.message,
                     "page %d: given up after %g s: the page provider has not returned from "
                     "drawing it",
                     side + 1, s->page_seconds);
        s->done[s->done_count++] = d;
        s->working = -1;
        s->working_draft = false;
        pthread_cond_broadcast(&s->done_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

BookStream *book_stream_create(PagesBookSource *src, uint32_t page_width, char *message,
                               size_t size)
{
    BookStream *s = calloc(1, sizeof *s);
    if (!s) {
        pages_book_source_close(src);
        snprintf(message, size, "out of memory");
        return NULL;
    }
    s->src = src;
    s->pages = pages_book_source_pages(src);
    s->leaves = (s->pages + 1) / 2;
    s->working = -1;
    s->page_seconds = BOOK_STREAM_PAGE_SECONDS;
    s->direction = 1;
    s->first_wait = STREAM_FIRST_WAIT;
    s->regions = pages_book_source_draws_regions(src);
    /* a book file's pages and a folder's images cost about their texels (MuPDF's drawing, an
     * image's scaling); the built-in book's and a host's are drawn whole at their one size */
    s->drafts = s->regions;
    s->detail_working_slot = -1;
    s->sharp[0] = s->sharp[1] = -1;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->held[k].side = s->detail_job[k].side = -1;
    float aspect = pages_book_source_aspect(src);
    if (pages_book_source_builtin(src)) {
        s->width = PAGES_CONTENT_WIDTH;
    } else {
        /* about a texel a pixel */
        uint32_t w = (page_width + 63) / 64 * 64;
        s->width = w < 256 ? 256 : w > 2048 ? 2048 : w;
        if (s->width * aspect > 4096.0f)
            s->width = (uint32_t)(4096.0f / aspect);
        s->width = s->width ? s->width : 1;
    }
    long h = lrintf((float)s->width * aspect);
    s->height = h < 1 ? 1 : (uint32_t)h;
    s->warned = calloc((size_t)s->pages, sizeof *s->warned);
    s->paper = malloc((size_t)s->width * s->height * 4 * 2);
    bool ok = s->warned && s->paper && book_pool_init(&s->pool, BOOK_STREAM_SLOTS);
    if (!ok)
        snprintf(message, size, "out of memory");
    if (ok) {
        pages_book_placeholder(s->width, s->height, false, s->paper);
        memcpy(s->paper + (size_t)s->width * s->height * 4, s->paper,
               (size_t)s->width * s->height * 4);
    }
    int e = 0;
    if (ok &&
        ((e = pthread_mutex_init(&s->lock, NULL)) || (e = pthread_cond_init(&s->wake, NULL)) ||
         (e = pthread_cond_init(&s->done_cond, NULL)) ||
         (e = pthread_create(&s->thread, NULL, worker, s)))) {
        /* a thread's stack is what an address-space limit refuses first where the program is
         * small (no decoder in it) */
        snprintf(message, size, "cannot start the thread that draws the pages%s",
                 e == EAGAIN || e == ENOMEM ? ": out of memory" : "");
        ok = false;
    }
    if (ok)
        return s;
    free(s->warned);
    free(s->paper);
    book_pool_free(&s->pool);
    pages_book_source_close(src);
    free(s);
    return NULL;
}

void book_stream_destroy(BookStream *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    /* a long side in progress is abandoned (a PDF's drawing stopped, a page provider's call
     * left running): the program's end does not wait for it */
    pages_book_source_abort(s->src);
    pthread_join(s->thread, NULL);
    for (uint32_t k = 0; k < s->done_count; k++)
        free(s->done[k].pixels);
    pthread_cond_destroy(&s->done_cond);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    book_pool_free(&s->pool);
    pages_book_source_close(s->src);
    free(s->warned);
    free(s->paper);
    free(s);
}

void book_stream_set_page_limit(BookStream *s, double seconds)
{
    pthread_mutex_lock(&s->lock);
    s->page_seconds = seconds > 0.0 ? seconds : 0.0;
    pthread_mutex_unlock(&s->lock);
}

const PagesBookSource *book_stream_source(const BookStream *s)
{
    return s->src;
}

void book_stream_redraw(BookStream *s, int side)
{
    int slot = side >= 0 && side < s->pages ? book_pool_slot(&s->pool, side / 2) : -1;
    if (slot < 0)
        return;
    pthread_mutex_lock(&s->lock);
    s->stale[2 * slot + side % 2] = ++s->redraws;
    /* a detail of it drawn before its marks changed is not shown, but drawn again */
    for (uint32_t d = 0; d < s->done_count; d++)
        s->done[d].stale |= s->done[d].detail_slot >= 0 && s->done[d].side == side;
    s->detail_working_stale |= s->detail_working_slot >= 0 && s->detail_working.side == side;
    pthread_mutex_unlock(&s->lock);
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->held[k].side == side)
            s->held[k].side = -1;
}

void book_stream_invalidate(BookStream *s, int side)
{
    if (side >= s->pages)
        return;
    pages_book_source_forget_shape(s->src, side);
    if (side >= 0) {
        s->warned[side] = false;
        book_stream_redraw(s, side);
        return;
    }
    memset(s->warned, 0, (size_t)s->pages * sizeof *s->warned);
    /* only the pages a layer holds: the others are drawn afresh when a leaf takes a slot */
    for (uint32_t k = 0; k < s->pool.slots; k++)
        for (int face = 0; face < 2 && s->pool.leaf[k] >= 0; face++)
            book_stream_redraw(s, 2 * s->pool.leaf[k] + face);
}

bool book_stream_replace(BookStream *s, PagesBookSource *src, char *message, size_t size)
{
    int pages = pages_book_source_pages(src);
    bool *warned = calloc((size_t)pages, sizeof *warned);
    if (!warned) {
        pages_book_source_close(src);
        snprintf(message, size, "out of memory");
        return false;
    }
    pthread_mutex_lock(&s->lock);
    /* nothing more of the old source's: the side being drawn finishes (or is given up for its
     * time), what it drew is dropped */
    s->job_count = 0;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->detail_job[k].side = -1;
    while ((s->working >= 0 || s->detail_working_slot >= 0) && !s->quit) {
        give_up_late(s);
        wait_at_most(&s->done_cond, &s->lock, 0.05);
    }
    for (uint32_t k = 0; k < s->done_count; k++)
        free(s->done[k].pixels);
    s->done_count = 0;
    PagesBookSource *old = s->src;
    pages_book_source_hand_over(src, old);
    s->src = src;
    s->pages = pages;
    s->leaves = (pages + 1) / 2;
    free(s->warned);
    s->warned = warned;
    s->regions = pages_book_source_draws_regions(src);
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    /* what shows stays until it is drawn anew (no flash of paper); a side past the end goes */
    for (int layer = 0; layer < STREAM_SIDES; layer++) {
        int leaf = s->pool.leaf[layer / 2];
        int side = 2 * leaf + layer % 2;
        if (leaf < 0)
            continue;
        s->stale[layer] = side < pages && s->ready[layer] ? ++s->redraws : 0;
        s->wipe[layer] = side >= pages;
    }
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->held[k].side = -1;
    s->reassign = true;
    pages_book_source_close(old);
    return true;
}

int book_stream_leaves(const BookStream *s)
{
    return s->leaves;
}

bool book_stream_textures(BookStream *s, const GpuContext *ctx, const GpuRendererDesc *desc,
                          GpuRenderer *out, BookInkTexture *ink, GpuError *err)
{
    /* every layer starts as the paper's pair, uploaded a pair at a time */
    bool ok =
        book_renderer_layers(ctx, desc, s->width, s->height, STREAM_SIDES, s->paper, 2, out, err);
    if (!ok)
        return false;
    if (!book_ink_texture_init(ink, out->ink.layers, out->ink.width, out->ink.height)) {
        gpu_renderer_destroy(ctx, out);
        return gpu_error_set(err, "out of memory for the ink's coverage");
    }
    for (uint32_t l = 0; l < ink->layers; l++)
        ink->side[l] = -1;
    book_pool_clear(&s->pool);
    for (uint32_t k = 0; k < BOOK_STREAM_SLOTS; k++)
        s->blank[k] = true;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->held[k].side = -1;
    memset(s->ready, 0, sizeof s->ready);
    memset(s->drafted, 0, sizeof s->drafted);
    memset(s->waited, 0, sizeof s->waited);
    return true;
}

/* Takes what the worker drew for pages whose leaves still hold a slot into their layers. */
/* A detail drawn into its slot of the renderer's detail texture (made anew at the view's size
 * when it is of another: the other slot's is then gone). One that could not be drawn is no
 * error: its side shows its layer. */
static bool collect_detail(BookStream *s, const GpuContext *ctx, GpuRenderer *r, Drawn *d,
                           GpuError *err)
{
    int k = d->detail_slot;
    s->held[k].side = -1;
    if (!d->ok || d->stale) /* a stale one is asked for again, drawn with the side's marks */
        return true;
    bool remade;
    if (!gpu_renderer_set_detail(ctx, r, (uint32_t)k, d->region.width, d->region.height, d->pixels,
                                 &remade, err))
        return false;
    if (remade)
        for (int o = 0; o < GPU_DETAIL_SLOTS; o++)
            s->held[o].side = -1;
    s->held[k] = (Detail){d->side, d->region};
    s->details++;
    if (s->hooks.ready) /* the side shows anew */
        s->hooks.ready(s->hooks.user, d->side);
    return true;
}

/* Whether done drawing `d` is to be taken: any (`only` NULL), or a whole side's of only[0..1]. */
static bool taken(const Drawn *d, const int *only)
{
    return !only || (d->detail_slot < 0 && (d->side == only[0] || d->side == only[1]));
}

/* Takes what the worker drew (all, or `only` those sides', the rest left for the next update:
 * taken()) into the layers. */
static bool collect(BookStream *s, const GpuContext *ctx, GpuRenderer *r, const int *only,
                    GpuError *err)
{
    Drawn done[STREAM_DONE];
    pthread_mutex_lock(&s->lock);
    give_up_late(s);
    uint32_t n = 0, kept = 0;
    for (uint32_t k = 0; k < s->done_count; k++) {
        if (taken(&s->done[k], only))
            done[n++] = s->done[k];
        else
            s->done[kept++] = s->done[k];
    }
    s->done_count = kept;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    bool ok = true;
    for (uint32_t k = 0; k < n; k++) {
        Drawn *d = &done[k];
        if (d->detail_slot >= 0) {
            ok = ok && collect_detail(s, ctx, r, d, err);
            free(d->pixels);
            continue;
        }
        int slot = book_pool_slot(&s->pool, d->side / 2);
        uint32_t layer = 2u * (uint32_t)slot + (uint32_t)(d->side % 2);
        if (!d->ok && !s->warned[d->side]) {
            s->warned[d->side] = true;
            if (s->hooks.warn) {
                char line[sizeof d->message + 32];
                snprintf(line, sizeof line, "%s; shown crossed out", d->message);
                s->hooks.warn(s->hooks.user, d->side, line);
            }
        }
        if (d->draft && d->ok) { /* shown until the sharp drawing comes, never over it */
            if (ok && slot >= 0 && !s->ready[layer] && !s->drafted[layer]) {
                ok = gpu_texture_update(ctx, &r->content, layer, 1, d->pixels, err);
                s->drafted[layer] = ok;
                s->print[layer][0] = d->print[0], s->print[layer][1] = d->print[1];
                s->blank[slot] = false;
                if (ok && s->hooks.ready)
                    s->hooks.ready(s->hooks.user, d->side);
            }
            free(d->pixels);
            continue;
        }
        bool redrawn = slot >= 0 && s->stale[layer] && d->serial >= s->stale[layer];
        if (redrawn)
            s->stale[layer] = 0;
        if (ok && slot >= 0 && (!s->ready[layer] || redrawn)) {
            /* out of memory for the side: paper, so that a headless run waiting on it goes on */
            ok = gpu_texture_update(ctx, &r->content, layer, 1, d->pixels ? d->pixels : s->paper,
                                    err);
            s->ready[layer] = ok;
            s->print[layer][0] = d->pixels ? d->print[0] : 1.0f;
            s->print[layer][1] = d->pixels ? d->print[1] : 1.0f;
            s->blank[slot] = false;
            if (ok && s->hooks.ready)
                s->hooks.ready(s->hooks.user, d->side);
        }
        free(d->pixels);
    }
    return ok;
}

/* Whether side `side`'s draft (or its sharp drawing) is being drawn or waits to be uploaded
 * (under the lock). */
static bool in_hand(const BookStream *s, int side, bool draft)
{
    bool has = s->working == side && s->working_draft == draft;
    for (uint32_t d = 0; d < s->done_count && !has; d++)
        has = s->done[d].detail_slot < 0 && s->done[d].side == side && s->done[d].draft == draft;
    return has;
}

/* Leaf `leaf`'s sides' drafts, or their sharp drawings, queued where they are wanted and not in
 * hand (under the lock): a side drafted or drawn wants no draft, one drawn sharp (and not to be
 * drawn again) nothing. */
static void queue_leaf(BookStream *s, int leaf, bool draft)
{
    int slot = book_pool_slot(&s->pool, leaf);
    for (int face = 0; face < 2 && slot >= 0; face++) {
        int side = 2 * leaf + face, layer = 2 * slot + face;
        if (side >= s->pages || in_hand(s, side, false))
            continue;
        bool want = draft ? !s->ready[layer] && !s->drafted[layer] && !in_hand(s, side, true)
                          : !s->ready[layer] || s->stale[layer];
        if (want)
            s->jobs[s->job_count++] = (Job){side, draft};
    }
}

/* The pages still to draw, most wanted first, for the worker (what it has not started on is
 * replaced: a side no longer wanted is not drawn, such as a side thumbed past). wanted[0 ..
 * shown-1] are the leaves the spread shows. With `drafts` every side first gets a draft: those
 * the spread shows, then (at rest) their sharp drawings, so that a side gone to is sharp soon,
 * then the read-ahead's drafts and sharp drawings; while a leaf turns the read-ahead's drafts
 * come before any sharp drawing, so that thumbing onto the next leaf finds it drafted. */
static void queue_jobs(BookStream *s, const int *wanted, uint32_t count, uint32_t shown,
                       bool turning, bool drafts)
{
    /* (group, draft): group 0 the leaves shown, 1 the read-ahead */
    static const int at_rest[4][2] = {{0, 1}, {0, 0}, {1, 1}, {1, 0}};
    static const int thumbing[4][2] = {{0, 1}, {1, 1}, {0, 0}, {1, 0}};
    const int(*order)[2] = turning ? thumbing : at_rest;
    /* a provider's pages' shapes asked on this, the host's, thread (cached: a few calls at most) */
    for (uint32_t k = 0; k < count; k++)
        for (int face = 0; face < 2; face++)
            pages_book_source_shape(s->src, 2 * wanted[k] + face);
    pthread_mutex_lock(&s->lock);
    s->job_count = 0;
    for (int step = 0; step < 4; step++) {
        bool draft = order[step][1];
        uint32_t from = order[step][0] ? shown : 0, to = order[step][0] ? count : shown;
        for (uint32_t k = from; k < to && (drafts || !draft); k++)
            queue_leaf(s, wanted[k], draft);
    }
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void book_stream_set_first_wait(BookStream *s, double seconds)
{
    s->first_wait = seconds;
}

/* The sides of the leaves `spread` shows drawn sharp, those in view first (a frame that shows
 * no draft of them): the worker's jobs (under no lock; takes it). */
static void queue_shown_sharp(BookStream *s, const BookSpread *spread)
{
    int leaves[3] = {spread->left ? spread->left_leaf : -1, spread->right ? spread->right_leaf : -1,
                     spread->turning ? spread->turning_leaf : -1};
    int sides[6], n = 0, in_view[2];
    book_spread_sides(spread, in_view);
    for (int k = 0; k < 2; k++)
        if (in_view[k] >= 0)
            sides[n++] = in_view[k];
    for (int k = 0; k < 3; k++)
        for (int side = 2 * leaves[k]; leaves[k] >= 0 && side < 2 * leaves[k] + 2; side++) {
            bool has = false;
            for (int i = 0; i < n; i++)
                has = has || sides[i] == side;
            if (!has)
                sides[n++] = side;
        }
    pthread_mutex_lock(&s->lock);
    s->job_count = 0;
    for (int i = 0; i < n; i++) {
        int slot = book_pool_slot(&s->pool, sides[i] / 2);
        bool ready = slot >= 0 && s->ready[2 * slot + sides[i] % 2];
        if (sides[i] < s->pages && !ready && !in_hand(s, sides[i], false))
            s->jobs[s->job_count++] = (Job){sides[i], false};
    }
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void book_stream_prime(BookStream *s, const BookSpread *spread)
{
    if (s->drafts)
        queue_shown_sharp(s, spread);
}

/* Whether every side of the leaves shown is drawn sharp (or, `draft`, drafted at least). */
static bool shown_ready(const BookStream *s, const int shown[3], bool draft)
{
    for (int k = 0; k < 3; k++) {
        if (shown[k] < 0)
            continue;
        int slot = book_pool_slot(&s->pool, shown[k]);
        for (int face = 0; face < 2; face++) {
            int layer = 2 * slot + face;
            if (2 * shown[k] + face < s->pages &&
                (slot < 0 ||
                 !(s->ready[layer] || (draft && (s->drafted[layer] || s->waited[layer])))))
                return false;
        }
    }
    return true;
}

/* Waits for what the worker draws next, at most until `until` (CLOCK_MONOTONIC seconds; 0: no
 * limit), a side past its time given up meanwhile; then takes it in. */
static bool wait_and_collect(BookStream *s, const GpuContext *ctx, GpuRenderer *r, double until,
                             const int *only, GpuError *err)
{
    pthread_mutex_lock(&s->lock);
    double now = now_seconds();
    for (;;) {
        bool any = false;
        for (uint32_t k = 0; k < s->done_count && !any; k++)
            any = taken(&s->done[k], only);
        if (any || stopped(s) || (until > 0.0 && (now = now_seconds()) >= until))
            break;
        give_up_late(s);
        wait_at_most(&s->done_cond, &s->lock, until > 0.0 ? fmin(until - now, 0.05) : 0.05);
    }
    pthread_mutex_unlock(&s->lock);
    return collect(s, ctx, r, only, err);
}

/* Whether one of sides[0..1] (below 0: none) has nothing drawn in its layer (neither sharp nor
 * drafted) and was not given up on by a frame's wait (`waited`). */
static bool sides_blank(const BookStream *s, const int sides[2])
{
    for (int k = 0; k < 2; k++) {
        int slot = sides[k] >= 0 ? book_pool_slot(&s->pool, sides[k] / 2) : -1;
        int layer = 2 * slot + sides[k] % 2;
        if (slot >= 0 && sides[k] < s->pages && !s->ready[layer] && !s->drafted[layer] &&
            !s->waited[layer])
            return true;
    }
    return false;
}

/* Whether sides[0..1] (below 0: none) are drawn sharp in their layers. */
static bool sides_ready(const BookStream *s, const int sides[2])
{
    for (int k = 0; k < 2; k++) {
        int slot = sides[k] >= 0 ? book_pool_slot(&s->pool, sides[k] / 2) : -1;
        if (sides[k] >= 0 && sides[k] < s->pages &&
            (slot < 0 || !s->ready[2 * slot + sides[k] % 2]))
            return false;
    }
    return true;
}

bool book_stream_update(BookStream *s, const GpuContext *ctx, GpuRenderer *r, BookInkTexture *ink,
                        BookSpread *spread, bool wait, bool *assigned, GpuError *err)
{
    if (assigned)
        *assigned = false;
    int shown[3] = {spread->left ? spread->left_leaf : -1, spread->right ? spread->right_leaf : -1,
                    spread->turning ? spread->turning_leaf : -1};
    if (spread->turning)
        s->direction = spread->backward ? -1 : 1;
    /* At rest, also the leaves of the next turn: its first frames then neither upload a side nor
     * share the cores with the worker drawing one. */
    int wanted[BOOK_STREAM_SLOTS];
    uint32_t count = spread->turning
                         ? book_pool_wanted(shown, s->direction, STREAM_AHEAD, s->leaves, wanted,
                                            BOOK_STREAM_SLOTS)
                         : book_pool_wanted_at_rest(shown[0], shown[1], s->direction, STREAM_AHEAD,
                                                    s->leaves, wanted, BOOK_STREAM_SLOTS);
    /* a replaced source's: its pages' ink on their layers, paper past its end */
    for (int layer = 0; layer < STREAM_SIDES && s->reassign; layer++) {
        int leaf = s->pool.leaf[layer / 2], side = 2 * leaf + layer % 2;
        if (leaf < 0)
            continue;
        book_ink_texture_assign(ink, (uint32_t)layer, side < s->pages ? side : -1);
        if (assigned)
            *assigned = true;
        if (s->wipe[layer] &&
            !gpu_texture_update(ctx, &r->content, (uint32_t)layer, 1, s->paper, err))
            return false;
        s->ready[layer] = s->ready[layer] && !s->wipe[layer];
        s->drafted[layer] = s->drafted[layer] && !s->wipe[layer];
        s->wipe[layer] = false;
    }
    s->reassign = false;
    book_pool_tick(&s->pool);
    for (uint32_t k = 0; k < count; k++) {
        bool fresh;
        int slot = book_pool_take(&s->pool, wanted[k], &fresh);
        if (slot < 0 || !fresh)
            continue;
        /* what the slot showed goes: plain paper until the leaf's pages are drawn */
        s->ready[2 * slot] = s->ready[2 * slot + 1] = false;
        s->drafted[2 * slot] = s->drafted[2 * slot + 1] = false;
        s->waited[2 * slot] = s->waited[2 * slot + 1] = false;
        s->stale[2 * slot] = s->stale[2 * slot + 1] = 0;
        if (!s->blank[slot] &&
            !gpu_texture_update(ctx, &r->content, 2u * (uint32_t)slot, 2, s->paper, err))
            return false;
        s->blank[slot] = true;
        for (int face = 0; face < 2; face++) {
            int side = 2 * wanted[k] + face;
            book_ink_texture_assign(ink, 2u * (uint32_t)slot + (uint32_t)face,
                                    side < s->pages ? side : -1);
        }
        if (assigned)
            *assigned = true;
    }
    /* the leaves shown lead the wanted ones */
    uint32_t in_view = 0;
    while (in_view < count && (wanted[in_view] == shown[0] || wanted[in_view] == shown[1] ||
                               wanted[in_view] == shown[2]))
        in_view++;
    /* A frame at rest with nothing drawn in sight (the book opened, a cut to a far spread): the
     * sides in sight sharp, no draft of them, for a moment at most (STREAM_FIRST_WAIT); then as
     * any frame's (drafted where still blank). Only the two in sight are taken in: each upload is
     * its mips and show-through too (~70 ms of lavapipe's one core at 1920x1080), so the leaves'
     * hidden sides wait for the next frame. A turn is drafted (an animated go-to's cut lands beside
     * its target and turns onto it), but the book's first frames hold leaf 0 posed flat at the
     * start of a turn, which hides its other side as a leaf at rest does. */
    double began = now_seconds();
    int sight[2];
    book_spread_sides(spread, sight);
    bool moving =
        spread->turning && (s->updated || (spread->progress > 0.0f && spread->progress < 1.0f));
    s->updated = true;
    pthread_mutex_lock(&s->lock);
    double takes = s->sharp_seconds;
    pthread_mutex_unlock(&s->lock);
    bool first =
        !wait && s->drafts && !moving && takes < STREAM_JUMP_SHARP && sides_blank(s, sight);
    if (first) {
        queue_shown_sharp(s, spread);
        double until = began + s->first_wait;
        while (!sides_ready(s, sight) && !stopped(s) && now_seconds() < until)
            if (!wait_and_collect(s, ctx, r, until, sight, err))
                return false;
        first = sides_ready(s, sight);
    }
    /* a run that waits for its pages shows no draft: it draws none (nor does a first frame
     * shown sharp: the worker goes on with the sides queue_shown_sharp left) */
    if (!first)
        queue_jobs(s, wanted, count, in_view, spread->turning, s->drafts && !wait);
    if (!first && !collect(s, ctx, r, NULL, err))
        return false;
    /* A signal that stops the run ends the wait too (polled: it wakes no condition), so a long
     * side does not hold up the run's end; the stream's end then abandons it. A side past its
     * time is given up in the wait (polled as well). */
    while (wait && !shown_ready(s, shown, false) && !stopped(s))
        if (!wait_and_collect(s, ctx, r, 0.0, NULL, err))
            return false;
    /* A frame that would show a side with nothing drawn (a go-to's spread, a leaf thumbed onto
     * sooner than its read-ahead was drafted) waits a moment for the drafts, the worker's first
     * jobs: the last frame stays on screen meanwhile, never plain paper where a side will be. */
    double until = began + STREAM_DRAFT_WAIT;
    while (!wait && !first && s->drafts && !shown_ready(s, shown, true) && !stopped(s)) {
        if (now_seconds() >= until) { /* a side slow even as a draft: paper until it comes */
            for (int k = 0; k < 3; k++) {
                int slot = shown[k] >= 0 ? book_pool_slot(&s->pool, shown[k]) : -1;
                for (int face = 0; face < 2 && slot >= 0; face++)
                    s->waited[2 * slot + face] = true;
            }
            break;
        }
        if (!wait_and_collect(s, ctx, r, until, NULL, err))
            return false;
    }
    spread->placed = true;
    spread->cover_print = !pages_book_source_builtin(s->src);
    spread->leaves = s->leaves;
    int slots[3];
    for (int k = 0; k < 3; k++) {
        int slot = shown[k] >= 0 ? book_pool_slot(&s->pool, shown[k]) : -1;
        slots[k] = slot < 0 ? 0 : 2 * slot;
    }
    spread->left_layer = slots[0];
    spread->right_layer = slots[1];
    spread->turning_layer = slots[2];
    /* the detail each slot holds, for a side that wants it and lies at rest in its layer */
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++) {
        const Detail *d = &s->held[k];
        int slot = d->side >= 0 ? book_pool_slot(&s->pool, d->side / 2) : -1;
        int layer = 2 * slot + d->side % 2;
        /* read texel for pixel from its one level: not shown much smaller than it was drawn */
        float width = 0.0f;
        for (int i = 0; i < 2; i++)
            width = d->side >= 0 && d->side == s->sharp[i] ? s->shown[i] : width;
        bool sharp = width > 0.0f && d->region.full_width >= STREAM_DETAIL_SMALLEST * width;
        /* over a draft too: in view the detail is the side as sharp as its layer's drawing */
        if (!spread->turning && sharp && slot >= 0 && (s->ready[layer] || s->drafted[layer]))
            spread->detail[k] = (BookSpreadDetail){layer + 1, (float)d->region.full_width,
                                                   (float)d->region.x, (float)d->region.y};
    }
    return true;
}

bool book_stream_print(const BookStream *s, int side, float print[2])
{
    print[0] = print[1] = 1.0f;
    int slot = side >= 0 && side < s->pages ? book_pool_slot(&s->pool, side / 2) : -1;
    int layer = 2 * slot + side % 2;
    if (slot < 0 || !(s->ready[layer] || s->drafted[layer]))
        return false;
    print[0] = s->print[layer][0], print[1] = s->print[layer][1];
    return true;
}

void book_stream_prints(const BookStream *s, const BookSpread *spread, BookLayout *layout)
{
    int sides[2];
    book_spread_sides(spread, sides);
    for (int k = 0; k < 2; k++)
        book_stream_print(s, sides[k], layout->print[k]);
}

/* Whether `d` holds what is wanted: the side `side` drawn `full` texels wide, its texels on the
 * view's pixels (the side's left edge at view pixel `left`, its top at `top`), around `part` of
 * it (in texels of the side). */
static bool holds(const Detail *d, int side, float full, float left, float top, const float part[4])
{
    const PageRegion *r = &d->region;
    float ox = left + r->x, oy = top + r->y; /* the region's corner in the view: on a pixel */
    return d->side == side && fabsf(r->full_width - full) < 0.01f &&
           fabsf(ox - roundf(ox)) < 0.02f && fabsf(oy - roundf(oy)) < 0.02f && r->x <= part[0] &&
           r->y <= part[1] && r->x + (float)r->width >= part[2] &&
           r->y + (float)r->height >= part[3];
}

/* Whether `d` is drawn, being drawn or to be drawn for `side` at this size around `part`. */
static bool detail_has(const BookStream *s, int side, float full, float left, float top,
                       const float part[4])
{
    bool has =
        s->detail_working_slot >= 0 && holds(&s->detail_working, side, full, left, top, part);
    for (uint32_t d = 0; d < s->done_count; d++) /* drawn, not yet uploaded */
        has = has ||
              (s->done[d].detail_slot >= 0 &&
               holds(&(Detail){s->done[d].side, s->done[d].region}, side, full, left, top, part));
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        has = has || holds(&s->held[k], side, full, left, top, part);
    return has;
}

/* The slot for a detail of `side`: the one that holds it or will, else one that holds no side in
 * view and is not `taken`. */
static int detail_slot(const BookStream *s, int side, int taken)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (k != taken && (s->held[k].side == side || s->detail_job[k].side == side ||
                           (s->detail_working_slot == k && s->detail_working.side == side)))
            return k;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (k != taken && s->held[k].side != s->sharp[0] && s->held[k].side != s->sharp[1])
            return k;
    return taken == 0 ? 1 : 0;
}

bool book_stream_want_detail(BookStream *s, const BookSide *sides, uint32_t count, uint32_t width,
                             uint32_t height)
{
    s->sharp[0] = s->sharp[1] = -1;
    s->shown[0] = s->shown[1] = 0.0f;
    Detail want[GPU_DETAIL_SLOTS] = {{.side = -1}, {.side = -1}};
    if (!s->regions || !width || !height)
        count = 0;
    /* a view's worth and its margin, within what a texture may be */
    uint32_t rw = width + 2 * STREAM_DETAIL_MARGIN, rh = height + 2 * STREAM_DETAIL_MARGIN;
    rw = rw > 8192 ? 8192 : rw, rh = rh > 8192 ? 8192 : rh;
    pthread_mutex_lock(&s->lock);
    int taken = -1;
    for (uint32_t i = 0; i < count && i < 2; i++) {
        const BookSide *at = &sides[i];
        float pw = at->x1 - at->x0, ph = at->y1 - at->y0;
        if (at->side < 0 || at->side >= s->pages || !(pw >= 1.0f && ph >= 1.0f))
            continue;
        /* the part of the side in view, in texels of the side drawn full-sized */
        float vx0 = fmaxf(at->x0, 0.0f), vy0 = fmaxf(at->y0, 0.0f);
        float vx1 = fminf(at->x1, (float)width), vy1 = fminf(at->y1, (float)height);
        if (!(vx1 > vx0 && vy1 > vy0))
            continue;
        s->sharp[i] = at->side;
        s->shown[i] = pw;
        /* a texel a pixel: the side as wide as it is shown, the region's corner on a pixel */
        float full = fminf(pw, 65536.0f), full_h = fminf(ph, 65536.0f);
        float part[4] = {vx0 - at->x0, vy0 - at->y0, vx1 - at->x0, vy1 - at->y0};
        if (detail_has(s, at->side, full, at->x0, at->y0, part))
            continue;
        int k = detail_slot(s, at->side, taken);
        taken = k;
        float ox = floorf(0.5f * (vx0 + vx1) - 0.5f * (float)rw);
        float oy = floorf(0.5f * (vy0 + vy1) - 0.5f * (float)rh);
        want[k] = (Detail){at->side, {full, full_h, ox - at->x0, oy - at->y0, rw, rh}};
    }
    /* Drawn once the view has held still (the worker waits for it): a view that moves on first
     * replaces what it wanted and starts the wait anew. */
    if (memcmp(want, s->detail_job, sizeof want)) {
        memcpy(s->detail_job, want, sizeof want);
        s->detail_due_at = now_seconds() + STREAM_DETAIL_SETTLE;
        pthread_cond_broadcast(&s->wake);
    }
    bool pending = detail_pending(s);
    pthread_mutex_unlock(&s->lock);
    return pending;
}

bool book_stream_detail_now(BookStream *s, double seconds)
{
    double now = now_seconds(), until = now + seconds;
    pthread_mutex_lock(&s->lock);
    if (detail_pending(s) && s->detail_due_at > now) {
        s->detail_due_at = now;
        pthread_cond_broadcast(&s->wake);
    }
    /* the worker may be drawing a side first: its details come after it. A side or a detail
     * past its time is given up here, and a signal that stops the run ends the wait (both
     * polled, as the pages' wait polls them). */
    while ((detail_pending(s) || s->detail_working_slot >= 0) && !s->quit && !stopped(s) &&
           (now = now_seconds()) < until) {
        give_up_late(s);
        wait_at_most(&s->done_cond, &s->lock, fmin(until - now, 0.05));
    }
    bool drawn = !detail_pending(s) && s->detail_working_slot < 0;
    pthread_mutex_unlock(&s->lock);
    return drawn;
}

bool book_stream_busy(BookStream *s)
{
    pthread_mutex_lock(&s->lock);
    give_up_late(s); /* a window that waits for pages polls this, and draws no frame meanwhile */
    bool busy = s->job_count || s->working >= 0 || s->done_count || detail_pending(s) ||
                s->detail_working_slot >= 0;
    pthread_mutex_unlock(&s->lock);
    return busy;
}

uint64_t book_stream_details(const BookStream *s)
{
    return s->details;
}

bool book_stream_news(BookStream *s)
{
    pthread_mutex_lock(&s->lock);
    bool news = s->done_count > 0;
    pthread_mutex_unlock(&s->lock);
    return news;
}
