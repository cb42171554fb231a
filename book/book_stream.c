#include "book_stream.h"

#include "../pages/content.h"
#include "pool.h"

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

typedef struct Drawn {
    int page;
    uint8_t *pixels;
    bool ok;
    char message[256];
} Drawn;

struct AppBookStream {
    AppBookSource *src;
    int pages, leaves;
    uint32_t width, height; /* texels of a layer */
    AppPool pool;
    bool ready[STREAM_SIDES];          /* per layer: its page is uploaded (else plain paper) */
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
    int working; /* the page being drawn, -1 none */
    Drawn done[STREAM_SIDES + 1];
    uint32_t done_count;
    bool quit;
    AppBookStreamHooks hooks;
};

void app_book_stream_set_hooks(AppBookStream *s, const AppBookStreamHooks *hooks)
{
    s->hooks = *hooks;
}

static bool stopped(const AppBookStream *s)
{
    return s->hooks.stopped && s->hooks.stopped(s->hooks.user);
}

static void *worker(void *user)
{
    AppBookStream *s = user;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->quit && (!s->job_count || s->done_count == STREAM_SIDES + 1))
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->quit)
            break;
        int page = s->jobs[0];
        memmove(s->jobs, s->jobs + 1, --s->job_count * sizeof *s->jobs);
        s->working = page;
        pthread_mutex_unlock(&s->lock);
        Drawn d = {.page = page, .pixels = malloc((size_t)s->width * s->height * 4)};
        if (d.pixels)
            d.ok = app_book_source_draw(s->src, page, s->width, s->height, d.pixels, d.message,
                                        sizeof d.message);
        else
            snprintf(d.message, sizeof d.message, "page %d: out of memory", page + 1);
        pthread_mutex_lock(&s->lock);
        s->done[s->done_count++] = d;
        s->working = -1;
        pthread_cond_broadcast(&s->done_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

AppBookStream *app_book_stream_create(AppBookSource *src, uint32_t view_width, char *message,
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
    s->direction = 1;
    float aspect = app_book_source_aspect(src);
    if (app_book_source_builtin(src)) {
        s->width = APP_CONTENT_WIDTH;
    } else {
        /* about a texel a pixel where the spread fills the view: two pages across it */
        uint32_t w = (view_width / 2 + 63) / 64 * 64;
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
    if (ok &&
        (pthread_mutex_init(&s->lock, NULL) || pthread_cond_init(&s->wake, NULL) ||
         pthread_cond_init(&s->done_cond, NULL) || pthread_create(&s->thread, NULL, worker, s))) {
        snprintf(message, size, "cannot start the thread that draws the pages");
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
    /* a long page in progress is abandoned: the program's end does not wait for it */
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

const AppBookSource *app_book_stream_source(const AppBookStream *s)
{
    return s->src;
}

int app_book_stream_leaves(const AppBookStream *s)
{
    return s->leaves;
}

bool app_book_stream_textures(AppBookStream *s, const GpuContext *ctx, const GpuRendererDesc *desc,
                              GpuRenderer *out, AppInkTexture *ink, GpuError *err)
{
    uint32_t layers = STREAM_SIDES;
    size_t layer = (size_t)s->width * s->height * 4;
    uint8_t *pixels = malloc(layer * layers);
    if (!pixels)
        return gpu_error_set(err, "out of memory for %u layers of %ux%u texels", layers, s->width,
                             s->height);
    for (uint32_t l = 0; l < layers; l++)
        memcpy(pixels + layer * l, s->paper, layer);
    bool ok = app_content_renderer_layers(ctx, desc, s->width, s->height, layers, pixels, out, err);
    free(pixels);
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
    memset(s->ready, 0, sizeof s->ready);
    return true;
}

/* Takes what the worker drew for pages whose leaves still hold a slot into their layers. */
static bool collect(AppBookStream *s, const GpuContext *ctx, GpuRenderer *r, GpuError *err)
{
    Drawn done[STREAM_SIDES + 1];
    pthread_mutex_lock(&s->lock);
    uint32_t n = s->done_count;
    memcpy(done, s->done, n * sizeof *done);
    s->done_count = 0;
    pthread_cond_broadcast(&s->wake);
    pthread_mutex_unlock(&s->lock);
    bool ok = true;
    for (uint32_t k = 0; k < n; k++) {
        Drawn *d = &done[k];
        int slot = app_pool_slot(&s->pool, d->page / 2);
        uint32_t layer = 2u * (uint32_t)slot + (uint32_t)(d->page % 2);
        if (!d->ok && !s->warned[d->page]) {
            s->warned[d->page] = true;
            if (s->hooks.warn) {
                char line[sizeof d->message + 32];
                snprintf(line, sizeof line, "warning: %s; shown crossed out", d->message);
                s->hooks.warn(s->hooks.user, d->page, line);
            }
        }
        if (ok && slot >= 0 && !s->ready[layer]) {
            /* out of memory for the page: paper, so that a headless run waiting on it goes on */
            ok = gpu_texture_update(ctx, &r->content, layer, 1, d->pixels ? d->pixels : s->paper,
                                    err);
            s->ready[layer] = ok;
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
                queued = s->done[d].page == page;
            if (page < s->pages && slot >= 0 && !s->ready[2 * slot + side] && !queued)
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
     * page does not hold up the run's end; the stream's end then abandons it. */
    while (wait && !shown_ready(s, shown) && !stopped(s)) {
        pthread_mutex_lock(&s->lock);
        while (!s->done_count && !stopped(s)) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 50 * 1000 * 1000;
            if (until.tv_nsec >= 1000 * 1000 * 1000)
                until.tv_sec++, until.tv_nsec -= 1000 * 1000 * 1000;
            pthread_cond_timedwait(&s->done_cond, &s->lock, &until);
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
    return true;
}

bool app_book_stream_busy(AppBookStream *s)
{
    pthread_mutex_lock(&s->lock);
    bool busy = s->job_count || s->working >= 0 || s->done_count;
    pthread_mutex_unlock(&s->lock);
    return busy;
}
