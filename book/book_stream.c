/* SPDX-License-Identifier: MIT */
#include "book_stream.h"

#include "../pages/content.h"
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
#define STREAM_SIDES (2 * APP_BOOK_STREAM_SLOTS)
/* What the worker may have drawn and not handed over: those sides, and a detail. */
#define STREAM_DONE (STREAM_SIDES + 2)

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
    int page; /* -1: none */
    AppPageRegion region;
} Detail;

typedef struct Drawn {
    int page;
    uint8_t *pixels;
    bool ok;
    char message[256];
    int detail_slot; /* a detail's slot (`region` of `page`), -1 for a whole page */
    AppPageRegion region;
    uint64_t serial; /* the stream's redraws when it was begun */
    float print[2];  /* a whole page's: app_book_source_drawn_print */
    bool stale;      /* a detail whose page was to be drawn again (its marks changed) meanwhile */
} Drawn;

struct AppBookStream {
    AppBookSource *src;
    int pages, leaves;
    uint32_t width, height; /* texels of a layer */
    AppPool pool;
    bool ready[STREAM_SIDES];     /* per layer: its page is uploaded (else plain paper) */
    float print[STREAM_SIDES][2]; /* per layer uploaded: its page's print (app_book_stream_print) */
    /* per layer: a redraw asked (app_book_stream_redraw) at this serial (0: none); a drawing
     * begun before it does not answer it */
    uint64_t stale[STREAM_SIDES];
    uint64_t redraws;                  /* the last serial given */
    bool blank[APP_BOOK_STREAM_SLOTS]; /* the slot's layers hold plain paper */
    int direction;                     /* the last turn's: +1 forward, -1 back */
    bool *warned;                      /* per page: its failure was said */
    uint8_t *paper;                    /* two layers of plain paper */
    /* Shared with the worker, under `lock`. */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, done_cond;
    int jobs[STREAM_SIDES]; /* pages to draw, most wanted first */
    uint32_t job_count;
    int working;          /* the page being drawn, -1 none */
    double working_since; /* when the page or detail being drawn was begun */
    double page_seconds;  /* its time: past it, it is given up (0: no limit) */
    bool overran;         /* the page or detail being drawn was given up for its time */
    Drawn done[STREAM_DONE];
    uint32_t done_count;
    bool quit;
    AppBookStreamHooks hooks;
    /* The detail: what each slot holds (uploaded), what the view wants (since when), and which
     * pages' sides want it now (the others show their layers). */
    bool regions; /* the source draws regions */
    Detail held[GPU_DETAIL_SLOTS];
    uint64_t details; /* uploaded so far */

    int sharp[2];
    float shown[2]; /* the width in pixels the view shows each of them at */
    /* Shared with the worker, under `lock`: the detail to draw next and the one being drawn. */
    Detail detail_job[GPU_DETAIL_SLOTS], detail_working; /* page -1: none */
    double detail_due_at;      /* the jobs are drawn from then on (CLOCK_MONOTONIC seconds) */
    int detail_working_slot;   /* -1: none */
    bool detail_working_stale; /* its page was to be drawn again (app_book_stream_redraw) */
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

void app_book_stream_set_hooks(AppBookStream *s, const AppBookStreamHooks *hooks)
{
    s->hooks = *hooks;
}

static bool stopped(const AppBookStream *s)
{
    return s->hooks.stopped && s->hooks.stopped(s->hooks.user);
}

static bool detail_pending(const AppBookStream *s)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->detail_job[k].page >= 0)
            return true;
    return false;
}

/* A detail slot with a drawing to make now (the view has held still long enough), or -1. */
static int detail_due(const AppBookStream *s)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->detail_job[k].page >= 0 && now_seconds() >= s->detail_due_at)
            return k;
    return -1;
}

/* A page or a detail begun by the worker (under the lock): an abort for the one before it, given
 * under the lock too, is over. */
static void begin(AppBookStream *s)
{
    app_book_source_resume(s->src);
    s->working_since = now_seconds();
    s->overran = false;
}

/* The page or detail being drawn given up where it is past its time (under the lock). */
static void give_up_late(AppBookStream *s)
{
    bool drawing = s->working >= 0 || s->detail_working_slot >= 0;
    if (drawing && s->page_seconds > 0.0 && !s->overran && !s->quit &&
        now_seconds() - s->working_since > s->page_seconds) {
        s->overran = true;
        app_book_source_abort(s->src);
    }
}

static void *worker(void *user)
{
    AppBookStream *s = user;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        int detail = -1;
        for (;;) { /* until there is room for what it draws, and a page or a detail due */
            if (s->quit)
                break;
            bool room = s->done_count < STREAM_DONE;
            double now = now_seconds();
            if (room && ((detail = detail_due(s)) >= 0 || s->job_count))
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
            Drawn d = {.page = s->detail_job[detail].page,
                       .detail_slot = detail,
                       .region = s->detail_job[detail].region};
            s->detail_working = s->detail_job[detail];
            s->detail_working_slot = detail;
            begin(s);
            s->detail_job[detail] = (Detail){.page = -1};
            pthread_mutex_unlock(&s->lock);
            d.pixels = malloc((size_t)d.region.width * d.region.height * 4);
            d.ok = d.pixels && app_book_source_draw_region(s->src, d.page, &d.region, d.pixels,
                                                           d.message, sizeof d.message);
            if (d.ok && s->hooks.mark)
                s->hooks.mark(s->hooks.user, d.page, d.pixels, d.region.width, d.region.height,
                              &d.region);
            pthread_mutex_lock(&s->lock);
            d.stale = s->detail_working_stale;
            s->detail_working_stale = false;
            s->done[s->done_count++] = d;
            s->detail_working_slot = -1;
            pthread_cond_broadcast(&s->done_cond);
            continue;
        }
        int page = s->jobs[0];
        memmove(s->jobs, s->jobs + 1, --s->job_count * sizeof *s->jobs);
        s->working = page;
        begin(s);
        uint64_t serial = s->redraws;
        pthread_mutex_unlock(&s->lock);
        Drawn d = {.page = page,
                   .pixels = malloc((size_t)s->width * s->height * 4),
                   .detail_slot = -1,
                   .serial = serial};
        d.print[0] = d.print[1] = 1.0f;
        if (d.pixels) {
            d.ok = app_book_source_draw(s->src, page, s->width, s->height, d.pixels, d.message,
                                        sizeof d.message);
            app_book_source_drawn_print(s->src, d.print);
        } else
            snprintf(d.message, sizeof d.message, "page %d: out of memory", page + 1);
        if (d.ok && s->hooks.mark)
            s->hooks.mark(s->hooks.user, page, d.pixels, s->width, s->height, NULL);
        pthread_mutex_lock(&s->lock);
        const char *name = app_book_source_name(s->src);
        if (s->overran && !d.ok && name[0])
            snprintf(d.message, sizeof d.message, "%s, page %d: given up after %g s of drawing",
                     name, page + 1, s->page_seconds);
        else if (s->overran && !d.ok) /* a host's page provider, whose call is left running */
            snprintf(d.message, sizeof d.message,
                     "page %d: given up after %g s: the page provider has not returned from "
                     "drawing it",
                     page + 1, s->page_seconds);
        s->done[s->done_count++] = d;
        s->working = -1;
        pthread_cond_broadcast(&s->done_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

AppBookStream *app_book_stream_create(AppBookSource *src, uint32_t page_width, char *message,
                                      size_t size)
{
    AppBookStream *s = calloc(1, sizeof *s);
    if (!s) {
        app_book_source_close(src);
        snprintf(message, size, "out of memory");
        return NULL;
    }
    s->src = src;
    s->pages = app_book_source_pages(src);
    s->leaves = (s->pages + 1) / 2;
    s->working = -1;
    s->page_seconds = APP_BOOK_STREAM_PAGE_SECONDS;
    s->direction = 1;
    s->regions = app_book_source_draws_regions(src);
    s->detail_working_slot = -1;
    s->sharp[0] = s->sharp[1] = -1;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->held[k].page = s->detail_job[k].page = -1;
    float aspect = app_book_source_aspect(src);
    if (app_book_source_builtin(src)) {
        s->width = APP_CONTENT_WIDTH;
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
    bool ok = s->warned && s->paper && app_pool_init(&s->pool, APP_BOOK_STREAM_SLOTS);
    if (!ok)
        snprintf(message, size, "out of memory");
    if (ok) {
        app_book_placeholder(s->width, s->height, false, s->paper);
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
    app_pool_free(&s->pool);
    app_book_source_close(src);
    free(s);
    return NULL;
}

void app_book_stream_destroy(AppBookStream *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    s->quit = true;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    /* a long page in progress is abandoned (a PDF's drawing stopped, a page provider's call
     * left running): the program's end does not wait for it */
    app_book_source_abort(s->src);
    pthread_join(s->thread, NULL);
    for (uint32_t k = 0; k < s->done_count; k++)
        free(s->done[k].pixels);
    pthread_cond_destroy(&s->done_cond);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    app_pool_free(&s->pool);
    app_book_source_close(s->src);
    free(s->warned);
    free(s->paper);
    free(s);
}

void app_book_stream_set_page_limit(AppBookStream *s, double seconds)
{
    pthread_mutex_lock(&s->lock);
    s->page_seconds = seconds > 0.0 ? seconds : 0.0;
    pthread_mutex_unlock(&s->lock);
}

const AppBookSource *app_book_stream_source(const AppBookStream *s)
{
    return s->src;
}

void app_book_stream_redraw(AppBookStream *s, int page)
{
    int slot = page >= 0 && page < s->pages ? app_pool_slot(&s->pool, page / 2) : -1;
    if (slot < 0)
        return;
    pthread_mutex_lock(&s->lock);
    s->stale[2 * slot + page % 2] = ++s->redraws;
    /* a detail of it drawn before its marks changed is not shown, but drawn again */
    for (uint32_t d = 0; d < s->done_count; d++)
        s->done[d].stale |= s->done[d].detail_slot >= 0 && s->done[d].page == page;
    s->detail_working_stale |= s->detail_working_slot >= 0 && s->detail_working.page == page;
    pthread_mutex_unlock(&s->lock);
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (s->held[k].page == page)
            s->held[k].page = -1;
}

int app_book_stream_leaves(const AppBookStream *s)
{
    return s->leaves;
}

bool app_book_stream_textures(AppBookStream *s, const GpuContext *ctx, const GpuRendererDesc *desc,
                              GpuRenderer *out, AppInkTexture *ink, GpuError *err)
{
    /* every layer starts as the paper's pair, uploaded a pair at a time */
    bool ok = app_content_renderer_layers(ctx, desc, s->width, s->height, STREAM_SIDES, s->paper, 2,
                                          out, err);
    if (!ok)
        return false;
    if (!app_ink_texture_init(ink, out->ink.layers, out->ink.width, out->ink.height)) {
        gpu_renderer_destroy(ctx, out);
        return gpu_error_set(err, "out of memory for the ink's coverage");
    }
    for (uint32_t l = 0; l < ink->layers; l++)
        ink->page[l] = -1;
    app_pool_clear(&s->pool);
    for (uint32_t k = 0; k < APP_BOOK_STREAM_SLOTS; k++)
        s->blank[k] = true;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        s->held[k].page = -1;
    memset(s->ready, 0, sizeof s->ready);
    return true;
}

/* Takes what the worker drew for pages whose leaves still hold a slot into their layers. */
/* A detail drawn into its slot of the renderer's detail texture (made anew at the view's size
 * when it is of another: the other slot's is then gone). One that could not be drawn is no
 * error: its side shows its layer. */
static bool collect_detail(AppBookStream *s, const GpuContext *ctx, GpuRenderer *r, Drawn *d,
                           GpuError *err)
{
    int k = d->detail_slot;
    s->held[k].page = -1;
    if (!d->ok || d->stale) /* a stale one is asked for again, drawn with the page's marks */
        return true;
    bool remade;
    if (!gpu_renderer_set_detail(ctx, r, (uint32_t)k, d->region.width, d->region.height, d->pixels,
                                 &remade, err))
        return false;
    if (remade)
        for (int o = 0; o < GPU_DETAIL_SLOTS; o++)
            s->held[o].page = -1;
    s->held[k] = (Detail){d->page, d->region};
    s->details++;
    if (s->hooks.ready) /* the page shows anew */
        s->hooks.ready(s->hooks.user, d->page);
    return true;
}

static bool collect(AppBookStream *s, const GpuContext *ctx, GpuRenderer *r, GpuError *err)
{
    Drawn done[STREAM_DONE];
    pthread_mutex_lock(&s->lock);
    give_up_late(s);
    uint32_t n = s->done_count;
    memcpy(done, s->done, n * sizeof *done);
    s->done_count = 0;
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
        int slot = app_pool_slot(&s->pool, d->page / 2);
        uint32_t layer = 2u * (uint32_t)slot + (uint32_t)(d->page % 2);
        if (!d->ok && !s->warned[d->page]) {
            s->warned[d->page] = true;
            if (s->hooks.warn) {
                char line[sizeof d->message + 32];
                snprintf(line, sizeof line, "%s; shown crossed out", d->message);
                s->hooks.warn(s->hooks.user, d->page, line);
            }
        }
        bool redrawn = slot >= 0 && s->stale[layer] && d->serial >= s->stale[layer];
        if (redrawn)
            s->stale[layer] = 0;
        if (ok && slot >= 0 && (!s->ready[layer] || redrawn)) {
            /* out of memory for the page: paper, so that a headless run waiting on it goes on */
            ok = gpu_texture_update(ctx, &r->content, layer, 1, d->pixels ? d->pixels : s->paper,
                                    err);
            s->ready[layer] = ok;
            s->print[layer][0] = d->pixels ? d->print[0] : 1.0f;
            s->print[layer][1] = d->pixels ? d->print[1] : 1.0f;
            s->blank[slot] = false;
            if (ok && s->hooks.ready)
                s->hooks.ready(s->hooks.user, d->page);
        }
        free(d->pixels);
    }
    return ok;
}

/* The pages still to draw, most wanted first, for the worker (what it has not started on is
 * replaced: a page no longer wanted is not drawn). */
static void queue_jobs(AppBookStream *s, const int *wanted, uint32_t count)
{
    pthread_mutex_lock(&s->lock);
    s->job_count = 0;
    for (uint32_t k = 0; k < count; k++)
        for (int side = 0; side < 2; side++) {
            int page = 2 * wanted[k] + side;
            int slot = app_pool_slot(&s->pool, wanted[k]);
            bool queued = page == s->working;
            for (uint32_t d = 0; d < s->done_count && !queued; d++)
                queued = s->done[d].detail_slot < 0 && s->done[d].page == page;
            if (page < s->pages && slot >= 0 &&
                (!s->ready[2 * slot + side] || s->stale[2 * slot + side]) && !queued)
                s->jobs[s->job_count++] = page;
        }
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

static bool shown_ready(const AppBookStream *s, const int shown[3])
{
    for (int k = 0; k < 3; k++) {
        if (shown[k] < 0)
            continue;
        int slot = app_pool_slot(&s->pool, shown[k]);
        for (int side = 0; side < 2; side++)
            if (2 * shown[k] + side < s->pages && (slot < 0 || !s->ready[2 * slot + side]))
                return false;
    }
    return true;
}

bool app_book_stream_update(AppBookStream *s, const GpuContext *ctx, GpuRenderer *r,
                            AppInkTexture *ink, AppSpread *spread, bool wait, bool *assigned,
                            GpuError *err)
{
    if (assigned)
        *assigned = false;
    int shown[3] = {spread->left ? spread->left_leaf : -1, spread->right ? spread->right_leaf : -1,
                    spread->turning ? spread->turning_leaf : -1};
    if (spread->turning)
        s->direction = spread->backward ? -1 : 1;
    /* At rest, also the leaves of the next turn: its first frames then neither upload a page nor
     * share the cores with the worker drawing one. */
    int wanted[APP_BOOK_STREAM_SLOTS];
    uint32_t count = spread->turning
                         ? app_pool_wanted(shown, s->direction, STREAM_AHEAD, s->leaves, wanted,
                                           APP_BOOK_STREAM_SLOTS)
                         : app_pool_wanted_at_rest(shown[0], shown[1], s->direction, STREAM_AHEAD,
                                                   s->leaves, wanted, APP_BOOK_STREAM_SLOTS);
    app_pool_tick(&s->pool);
    for (uint32_t k = 0; k < count; k++) {
        bool fresh;
        int slot = app_pool_take(&s->pool, wanted[k], &fresh);
        if (slot < 0 || !fresh)
            continue;
        /* what the slot showed goes: plain paper until the leaf's pages are drawn */
        s->ready[2 * slot] = s->ready[2 * slot + 1] = false;
        s->stale[2 * slot] = s->stale[2 * slot + 1] = 0;
        if (!s->blank[slot] &&
            !gpu_texture_update(ctx, &r->content, 2u * (uint32_t)slot, 2, s->paper, err))
            return false;
        s->blank[slot] = true;
        for (int side = 0; side < 2; side++) {
            int page = 2 * wanted[k] + side;
            app_ink_texture_assign(ink, 2u * (uint32_t)slot + (uint32_t)side,
                                   page < s->pages ? page : -1);
        }
        if (assigned)
            *assigned = true;
    }
    queue_jobs(s, wanted, count);
    if (!collect(s, ctx, r, err))
        return false;
    /* A signal that stops the run ends the wait too (polled: it wakes no condition), so a long
     * page does not hold up the run's end; the stream's end then abandons it. A page past its
     * time is given up in the wait (polled as well). */
    while (wait && !shown_ready(s, shown) && !stopped(s)) {
        pthread_mutex_lock(&s->lock);
        while (!s->done_count && !stopped(s)) {
            give_up_late(s);
            wait_at_most(&s->done_cond, &s->lock, 0.05);
        }
        pthread_mutex_unlock(&s->lock);
        if (!collect(s, ctx, r, err))
            return false;
    }
    spread->placed = true;
    spread->cover_print = !app_book_source_builtin(s->src);
    spread->leaves = s->leaves;
    int slots[3];
    for (int k = 0; k < 3; k++) {
        int slot = shown[k] >= 0 ? app_pool_slot(&s->pool, shown[k]) : -1;
        slots[k] = slot < 0 ? 0 : 2 * slot;
    }
    spread->left_layer = slots[0];
    spread->right_layer = slots[1];
    spread->turning_layer = slots[2];
    /* the detail each slot holds, for a side that wants it and lies at rest in its layer */
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++) {
        const Detail *d = &s->held[k];
        int slot = d->page >= 0 ? app_pool_slot(&s->pool, d->page / 2) : -1;
        int layer = 2 * slot + d->page % 2;
        /* read texel for pixel from its one level: not shown much smaller than it was drawn */
        float width = 0.0f;
        for (int i = 0; i < 2; i++)
            width = d->page >= 0 && d->page == s->sharp[i] ? s->shown[i] : width;
        bool sharp = width > 0.0f && d->region.full_width >= STREAM_DETAIL_SMALLEST * width;
        if (!spread->turning && sharp && slot >= 0 && s->ready[layer])
            spread->detail[k] = (AppSpreadDetail){layer + 1, (float)d->region.full_width,
                                                  (float)d->region.x, (float)d->region.y};
    }
    return true;
}

bool app_book_stream_print(const AppBookStream *s, int page, float print[2])
{
    print[0] = print[1] = 1.0f;
    int slot = page >= 0 && page < s->pages ? app_pool_slot(&s->pool, page / 2) : -1;
    int layer = 2 * slot + page % 2;
    if (slot < 0 || !s->ready[layer])
        return false;
    print[0] = s->print[layer][0], print[1] = s->print[layer][1];
    return true;
}

void app_book_stream_prints(const AppBookStream *s, const AppSpread *spread, AppBookLayout *layout)
{
    int pages[2];
    app_book_spread_pages(spread, pages);
    for (int k = 0; k < 2; k++)
        app_book_stream_print(s, pages[k], layout->print[k]);
}

/* Whether `d` holds what is wanted: the side `page` drawn `full` texels wide, its texels on the
 * view's pixels (the side's left edge at view pixel `left`, its top at `top`), around `part` of
 * it (in texels of the side). */
static bool holds(const Detail *d, int page, float full, float left, float top, const float part[4])
{
    const AppPageRegion *r = &d->region;
    float ox = left + r->x, oy = top + r->y; /* the region's corner in the view: on a pixel */
    return d->page == page && fabsf(r->full_width - full) < 0.01f &&
           fabsf(ox - roundf(ox)) < 0.02f && fabsf(oy - roundf(oy)) < 0.02f && r->x <= part[0] &&
           r->y <= part[1] && r->x + (float)r->width >= part[2] &&
           r->y + (float)r->height >= part[3];
}

/* Whether `d` is drawn, being drawn or to be drawn for `page` at this size around `part`. */
static bool detail_has(const AppBookStream *s, int page, float full, float left, float top,
                       const float part[4])
{
    bool has =
        s->detail_working_slot >= 0 && holds(&s->detail_working, page, full, left, top, part);
    for (uint32_t d = 0; d < s->done_count; d++) /* drawn, not yet uploaded */
        has = has ||
              (s->done[d].detail_slot >= 0 &&
               holds(&(Detail){s->done[d].page, s->done[d].region}, page, full, left, top, part));
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        has = has || holds(&s->held[k], page, full, left, top, part);
    return has;
}

/* The slot for a detail of `page`: the one that holds it or will, else one that holds no side in
 * view and is not `taken`. */
static int detail_slot(const AppBookStream *s, int page, int taken)
{
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (k != taken && (s->held[k].page == page || s->detail_job[k].page == page ||
                           (s->detail_working_slot == k && s->detail_working.page == page)))
            return k;
    for (int k = 0; k < GPU_DETAIL_SLOTS; k++)
        if (k != taken && s->held[k].page != s->sharp[0] && s->held[k].page != s->sharp[1])
            return k;
    return taken == 0 ? 1 : 0;
}

bool app_book_stream_want_detail(AppBookStream *s, const AppBookSide *sides, uint32_t count,
                                 uint32_t width, uint32_t height)
{
    s->sharp[0] = s->sharp[1] = -1;
    s->shown[0] = s->shown[1] = 0.0f;
    Detail want[GPU_DETAIL_SLOTS] = {{.page = -1}, {.page = -1}};
    if (!s->regions || !width || !height)
        count = 0;
    /* a view's worth and its margin, within what a texture may be */
    uint32_t rw = width + 2 * STREAM_DETAIL_MARGIN, rh = height + 2 * STREAM_DETAIL_MARGIN;
    rw = rw > 8192 ? 8192 : rw, rh = rh > 8192 ? 8192 : rh;
    pthread_mutex_lock(&s->lock);
    int taken = -1;
    for (uint32_t i = 0; i < count && i < 2; i++) {
        const AppBookSide *side = &sides[i];
        float pw = side->x1 - side->x0, ph = side->y1 - side->y0;
        if (side->page < 0 || side->page >= s->pages || !(pw >= 1.0f && ph >= 1.0f))
            continue;
        /* the part of the side in view, in texels of the side drawn full-sized */
        float vx0 = fmaxf(side->x0, 0.0f), vy0 = fmaxf(side->y0, 0.0f);
        float vx1 = fminf(side->x1, (float)width), vy1 = fminf(side->y1, (float)height);
        if (!(vx1 > vx0 && vy1 > vy0))
            continue;
        s->sharp[i] = side->page;
        s->shown[i] = pw;
        /* a texel a pixel: the side as wide as it is shown, the region's corner on a pixel */
        float full = fminf(pw, 65536.0f), full_h = fminf(ph, 65536.0f);
        float part[4] = {vx0 - side->x0, vy0 - side->y0, vx1 - side->x0, vy1 - side->y0};
        if (detail_has(s, side->page, full, side->x0, side->y0, part))
            continue;
        int k = detail_slot(s, side->page, taken);
        taken = k;
        float ox = floorf(0.5f * (vx0 + vx1) - 0.5f * (float)rw);
        float oy = floorf(0.5f * (vy0 + vy1) - 0.5f * (float)rh);
        want[k] = (Detail){side->page, {full, full_h, ox - side->x0, oy - side->y0, rw, rh}};
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

bool app_book_stream_detail_now(AppBookStream *s, double seconds)
{
    double now = now_seconds(), until = now + seconds;
    pthread_mutex_lock(&s->lock);
    if (detail_pending(s) && s->detail_due_at > now) {
        s->detail_due_at = now;
        pthread_cond_broadcast(&s->wake);
    }
    /* the worker may be drawing a page first: its details come after it. A page or a detail
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

bool app_book_stream_busy(AppBookStream *s)
{
    pthread_mutex_lock(&s->lock);
    give_up_late(s); /* a window that waits for pages polls this, and draws no frame meanwhile */
    bool busy = s->job_count || s->working >= 0 || s->done_count || detail_pending(s) ||
                s->detail_working_slot >= 0;
    pthread_mutex_unlock(&s->lock);
    return busy;
}

uint64_t app_book_stream_details(const AppBookStream *s)
{
    return s->details;
}

bool app_book_stream_news(AppBookStream *s)
{
    pthread_mutex_lock(&s->lock);
    bool news = s->done_count > 0;
    pthread_mutex_unlock(&s->lock);
    return news;
}
