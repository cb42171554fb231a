/* SPDX-License-Identifier: MIT */
/* libpagecurl (include/pagecurl/pagecurl.h) over the book's parts: a context is a GpuContext, its
 * own or adopted from the host; a book is a page source streamed into a hosted view (book/view.h),
 * the turning leaf's mesh, the flip state and the ink. Events are queued as they happen: the
 * flip's log of lifts and landings is taken after every call that moves it, the pages whose ink
 * changed are gathered until no stroke is being drawn. */
#include "../include/pagecurl/pagecurl.h"
#include "pagecurl_internal.h"
#include "pagecurl_program.h"

#include "../gpu/offscreen.h"
#include "../shaders/shared.h"
#include "../mesh/ink.h"
#include "book.h"
#include "search.h"
#include "links.h"
#include "provided.h"
#include "selection.h"
#include "book_stream.h"
#include "camera.h"
#include "reader.h"
#include "view.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The description's layout is handed to the book as it is. */
_Static_assert((int)PAGECURL_LAYOUT_AUTO == (int)BOOK_LAYOUT_AUTO &&
                   (int)PAGECURL_LAYOUT_SPREAD == (int)BOOK_LAYOUT_SPREAD &&
                   (int)PAGECURL_LAYOUT_SINGLE == (int)BOOK_LAYOUT_SINGLE,
               "pagecurl_layout and BookLayoutKind in one order");
_Static_assert((int)PAGECURL_BINDING_BOOK == (int)BOOK_BINDING_BOOK &&
                   (int)PAGECURL_BINDING_LEFT == (int)BOOK_BINDING_LEFT &&
                   (int)PAGECURL_BINDING_RIGHT == (int)BOOK_BINDING_RIGHT,
               "pagecurl_binding and BookBinding in one order");

/* Events kept for a host that does not poll: the oldest go first. */
#define EVENT_RING 256
/* Pages whose ink changes are told one by one between two updates; beyond, one event of page 0. */
#define INK_PAGES 32

/* No state of the process's: a context owns its Vulkan functions (gpu/vk.h), its device's objects
 * and its books' threads and page helpers, so any number live at once, each on its own thread:
 * on one device, on several, on other drivers or under other layers. */
struct pagecurl_context {
    GpuContext gpu;
    GpuMessages messages;
};

GpuCounters pagecurl_context_counters(const pagecurl_context *ctx)
{
    return ctx && ctx->gpu.counters ? *ctx->gpu.counters : (GpuCounters){0};
}

void pagecurl_context_faults(pagecurl_context *ctx, const pagecurl_faults *faults)
{
    if (!ctx)
        return;
    GpuFaultSpec spec = {0};
    if (faults)
        spec = (GpuFaultSpec){.submit_after = faults->submit_after,
                              .allocate_after = faults->allocate_after,
                              .draw_ms = faults->draw_ms};
    gpu_context_faults(&ctx->gpu, &spec);
}

/* A pointer that acts, while it is down. */
typedef struct Pointer {
    bool down;
    uint64_t id;
    double x0, y0; /* where it went down, target pixels */
    bool swiped;   /* its swipe stepped the one-page view already (swipe) */
} Pointer;

/* A swipe across this share of the viewport's width, more across than down, goes to the one-page
 * view's other side of the spread (swipe). */
#define SWIPE_SHARE 0.08

/* A turn held still (pagecurl_book_hold): what a headless --curl/--grab frame shows. */
typedef struct Held {
    bool on, backward;
    float progress, grab;
} Held;

struct pagecurl_book {
    pagecurl_context *ctx;
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
    double scroll_turned; /* the fitted view's last turn by a scroll (pagecurl_book_scroll) */
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
    bool quality_asked; /* pagecurl_book_set_quality since the view was made */
    uint32_t max_samples;
    float show_through;
    bool ink_mode;
    bool thumb_through; /* the reader's presses and keys (pagecurl_book_desc.thumb_through) */
    pagecurl_page_provider provider; /* the host's, as it was given */
    /* its pages' text and links (the description's), kept for a provider that replaces it */
    pagecurl_page_text_fn page_text;
    pagecurl_page_links_fn page_links;
    double provider_seconds; /* the longest a call for a page's text is waited for */
    Held held;
    /* the pointers that act while they are down: one turns pages, one draws (a pen writes while
     * a finger holds the page) */
    Pointer turning, inking;
    int pages;
    /* the frame update readied for record */
    CurlParams pose;
    BookSpread spread;
    /* what the last update saw, for the events, and its time (the view's lift eases by the clock)
     */
    MeshFlipView seen;
    double seen_time;
    uint64_t ink_seen;
    int ink_page;             /* the page side (0-based) the last stroke, clear or undo changed */
    int ink_pages[INK_PAGES]; /* the page sides changed since the last INK_CHANGED (0-based) */
    int ink_pending;
    bool ink_more;       /* more changed than ink_pages holds */
    int told_spread;     /* the spread the events last told (SPREAD_CHANGED) */
    double lead;         /* frames show the book this long after the update's time */
    double posed_at;     /* the last frame's moment: never earlier, when the lead shrinks */
    double detail_hold;  /* the next update waits this long for the detail it shows; 0: none */
    bool read_leaf_next; /* the next recorded frame reads the leaf back */
    bool timed;
    VkFormat target_format;       /* pagecurl_book_desc's: a hosted view draws in it */
    uint32_t target_samples;      /* pagecurl_book_desc's: every tier draws at it (0: the tier's) */
    VkFormat target_depth_format; /* pagecurl_book_desc's: the host's pass's depth (0: none) */
    float page_seconds;           /* pagecurl_book_desc's (0: the stream's own limit) */
    pagecurl_frame_times times;   /* the last finished timed frame's */
    bool times_valid;
    pagecurl_event events[EVENT_RING];
    uint32_t event_head, event_count;
    uint32_t recorded_slot;   /* the slot + 1 recorded since the last update (0: none) */
    BookSearch *search;       /* made at the first search */
    BookLinks links;          /* the pages' links asked, and the way back along those followed */
    BookSelection *selection; /* made at the first page's text asked for */
};

const char *pagecurl_version(void)
{
    return PAGECURL_VERSION;
}

static void error_set(pagecurl_error *err, pagecurl_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_set(pagecurl_error *err, pagecurl_status status, const char *fmt, ...)
{
    if (!err)
        return;
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static void error_from_gpu(pagecurl_error *err, const GpuError *g)
{
    pagecurl_status status = g->usage ? PAGECURL_ERROR_USAGE : PAGECURL_ERROR_RUNTIME;
    if (strstr(g->message, "out of memory") || strstr(g->message, "OUT_OF_"))
        status = PAGECURL_ERROR_OUT_OF_MEMORY;
    else if (strstr(g->message, "DEVICE_LOST"))
        status = PAGECURL_ERROR_DEVICE_LOST;
    error_set(err, status, "%s", g->message);
}

/* A description's size must cover the fields this version reads up to `need`. */
static bool sized(uint32_t size, size_t need, const char *what, pagecurl_error *err)
{
    if (size >= need)
        return true;
    error_set(err, PAGECURL_ERROR_USAGE,
              "%s: .size is %u, under the %zu bytes of it this library reads: set it to "
              "sizeof(%s)",
              what, size, need, what);
    return false;
}

pagecurl_context *pagecurl_context_create(const pagecurl_context_desc *desc, pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    pagecurl_context_desc d = {0};
    if (desc) {
        /* a host built before gpu_assisted was added passes the size it had then */
        if (!sized(desc->size, offsetof(pagecurl_context_desc, gpu_assisted),
                   "pagecurl_context_desc", err))
            return NULL;
        memcpy(&d, desc, desc->size < sizeof d ? desc->size : sizeof d);
    }
    bool host = d.instance || d.physical_device || d.device || d.queue;
    pagecurl_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        error_set(err, PAGECURL_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    GpuError gerr = {0};
    bool ok;
    if (host)
        ok = gpu_context_adopt(&(GpuHostDevice){.instance = d.instance,
                                                .physical = d.physical_device,
                                                .device = d.device,
                                                .queue_family = d.queue_family,
                                                .queue = d.queue,
                                                .get_instance_proc_addr = d.get_instance_proc_addr,
                                                .allocator = d.allocator,
                                                .pipeline_cache = d.pipeline_cache,
                                                .debug_names = d.debug_names,
                                                .geometry_shader = d.geometry_shader,
                                                .sampler_anisotropy = d.sampler_anisotropy,
                                                .enabled = d.enabled_features},
                               &ctx->gpu, &gerr);
    else
        ok = gpu_context_create(
            &(GpuContextDesc){.validation = d.validation,
                              .gpu_assisted = d.validation && d.gpu_assisted,
                              .device_index = d.prefer_index ? d.device_index : -1,
                              .messages = &ctx->messages,
                              .instance_extensions = d.instance_extensions,
                              .instance_extension_count = d.instance_extension_count,
                              .create_surface = d.create_surface,
                              .surface_user = d.surface_user},
            &ctx->gpu, &gerr);
    if (!ok) {
        error_from_gpu(err, &gerr);
        free(ctx);
        return NULL;
    }
    return ctx;
}

void pagecurl_context_destroy(pagecurl_context *ctx)
{
    if (!ctx)
        return;
    gpu_context_destroy(&ctx->gpu);
    free(ctx);
}

void pagecurl_context_limits(const pagecurl_context *ctx, pagecurl_limits *out)
{
    if (!ctx || !out)
        return;
    uint32_t size = out->size;
    pagecurl_limits l = {.size = size};
    const VkPhysicalDeviceProperties *p = &ctx->gpu.props;
    l.cpu_device = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    l.auto_tier = l.cpu_device ? PAGECURL_QUALITY_LOW : PAGECURL_QUALITY_HIGH;
    VkSampleCountFlags both =
        p->limits.framebufferColorSampleCounts & p->limits.framebufferDepthSampleCounts;
    l.max_samples = both & VK_SAMPLE_COUNT_4_BIT ? 4 : 1;
    /* the leaf's SoA planes are storage buffers: the largest grid whose biggest (the vertices,
     * PC_VERTEX_FLOATS floats each) fits the device's storage range */
    uint64_t vertices = p->limits.maxStorageBufferRange / (PC_VERTEX_FLOATS * sizeof(float));
    l.max_grid_vertices = vertices > UINT32_MAX ? UINT32_MAX : (uint32_t)vertices;
    l.max_target_side = p->limits.maxImageDimension2D;
    snprintf(l.device_name, sizeof l.device_name, "%s", p->deviceName);
    memcpy(out, &l, size < sizeof l ? size : sizeof l);
}

void pagecurl_context_vulkan(const pagecurl_context *ctx, pagecurl_vulkan *out)
{
    if (!ctx || !out)
        return;
    *out = (pagecurl_vulkan){.instance = ctx->gpu.instance,
                             .physical_device = ctx->gpu.physical,
                             .device = ctx->gpu.device,
                             .queue_family = ctx->gpu.queue_family,
                             .queue = ctx->gpu.queue,
                             .get_instance_proc_addr = ctx->gpu.vk.vkGetInstanceProcAddr};
}

VkSurfaceKHR pagecurl_context_surface(const pagecurl_context *ctx)
{
    if (!ctx)
        return VK_NULL_HANDLE;
    return ctx->gpu.surface;
}

uint32_t pagecurl_context_messages(const pagecurl_context *ctx)
{
    if (!ctx)
        return 0;
    return ctx->messages.warnings + ctx->messages.errors;
}

/* --- events ---------------------------------------------------------------------------------- */

static pagecurl_event *event_push(pagecurl_book *b, pagecurl_event_type type)
{
    if (b->event_count == EVENT_RING) { /* the oldest goes */
        b->event_head = (b->event_head + 1) % EVENT_RING;
        b->event_count--;
    }
    pagecurl_event *e = &b->events[(b->event_head + b->event_count++) % EVENT_RING];
    *e = (pagecurl_event){.type = type};
    return e;
}

bool pagecurl_book_poll_event(pagecurl_book *b, pagecurl_event *out)
{
    if (!b || !out)
        return false;
    if (!b->event_count)
        return false;
    *out = b->events[b->event_head];
    b->event_head = (b->event_head + 1) % EVENT_RING;
    b->event_count--;
    return true;
}

/* The pages spread s shows (1-based, 0: none), as the reader sees them left and right. */
static void spread_pages(const pagecurl_book *b, int s, int *left, int *right)
{
    int l = s >= 1 && 2 * s <= b->pages ? 2 * s : 0;
    int r = 2 * s + 1 <= b->pages ? 2 * s + 1 : 0;
    bool mirrored = b->layout.rtl;
    *left = mirrored ? r : l;
    *right = mirrored ? l : r;
}

/* A search's matches highlighted on the page as it is drawn (book/search.h). The search is made
 * before it is read here or not at all: a book's search is never destroyed before its stream. */
static void stream_mark(void *user, int page, uint8_t *rgba, uint32_t width, uint32_t height,
                        const PageRegion *region)
{
    pagecurl_book *b = user;
    BookSearch *search = __atomic_load_n(&b->search, __ATOMIC_ACQUIRE);
    if (search)
        book_search_mark(search, page, rgba, width, height, region);
    BookSelection *selection = __atomic_load_n(&b->selection, __ATOMIC_ACQUIRE);
    if (selection)
        book_selection_mark(selection, page, rgba, width, height, region);
}

static void stream_warn(void *user, int page, const char *line)
{
    pagecurl_event *e = event_push(user, PAGECURL_EVENT_ERROR);
    e->page = page + 1;
    snprintf(e->message, sizeof e->message, "%s", line);
}

static void stream_ready(void *user, int page)
{
    event_push(user, PAGECURL_EVENT_PAGE_READY)->page = page + 1;
}

static bool stream_stopped(void *user)
{
    const pagecurl_book *b = user;
    return b->stop && b->stop(b->stop_user);
}

/* Pages whose ink changed and not yet told (INK_CHANGED comes once no stroke is being drawn):
 * beyond INK_PAGES the rest are told as one event of page 0. */
static void ink_touched(pagecurl_book *b, int side)
{
    if (side < 0)
        return;
    for (int i = 0; i < b->ink_pending; i++)
        if (b->ink_pages[i] == side)
            return;
    if (b->ink_pending < INK_PAGES)
        b->ink_pages[b->ink_pending++] = side;
    else
        b->ink_more = true;
}

/* The leaves' lifts and landings as the flip logged them, when they happened (thumbing through,
 * a leaf lands as the next lifts; several may land between two updates): taken after every
 * call that moves the flip, so none is lost. */
static void take_turns(pagecurl_book *b)
{
    MeshFlipEvent fe;
    while (mesh_flip_take_event(&b->flip, &fe)) {
        pagecurl_event *e =
            event_push(b, fe.started ? PAGECURL_EVENT_TURN_STARTED : PAGECURL_EVENT_TURN_ENDED);
        e->forward = fe.forward; /* the turn's, though it fell back the other way */
        e->completed = !fe.started && fe.completed;
        spread_pages(b, fe.spread, &e->left, &e->right);
        if (!fe.started && fe.spread != b->told_spread) {
            e = event_push(b, PAGECURL_EVENT_SPREAD_CHANGED);
            spread_pages(b, fe.spread, &e->left, &e->right);
            b->told_spread = fe.spread;
        }
    }
}

/* The events of the calls since the last update, and what no turn tells: a jump's spread (go to,
 * first, last), the ink changed once no stroke is being drawn. */
static void derive_events(pagecurl_book *b, const MeshFlipView *now)
{
    take_turns(b);
    if (!now->turning && now->spread != b->told_spread) {
        pagecurl_event *e = event_push(b, PAGECURL_EVENT_SPREAD_CHANGED);
        spread_pages(b, now->spread, &e->left, &e->right);
        b->told_spread = now->spread;
    }
    if (b->ink.revision != b->ink_seen && b->ink.drawing < 0) {
        for (int i = 0; i < b->ink_pending; i++)
            event_push(b, PAGECURL_EVENT_INK_CHANGED)->page = b->ink_pages[i] + 1;
        if (b->ink_more)
            event_push(b, PAGECURL_EVENT_INK_CHANGED)->page = 0;
        b->ink_pending = 0, b->ink_more = false;
        b->ink_seen = b->ink.revision;
    }
    b->seen = *now;
}

/* --- book ------------------------------------------------------------------------------------ */

/* The shape most of the provider's pages have, from up to PROVIDER_SHAPE_SAMPLES of them spread
 * evenly (page 1 always); 0 (refused) where none has a shape. */
#define PROVIDER_SHAPE_SAMPLES 64
static float provided_shape(const pagecurl_page_provider *p)
{
    if (!p->page_size)
        return 210.0f / 148.0f; /* A5 */
    float aspects[PROVIDER_SHAPE_SAMPLES];
    int n = 0,
        samples = p->page_count < PROVIDER_SHAPE_SAMPLES ? p->page_count : PROVIDER_SHAPE_SAMPLES;
    for (int i = 0; i < samples; i++) {
        float w = 0.0f, h = 0.0f;
        p->page_size(p->user, 1 + (int)((int64_t)i * p->page_count / samples), &w, &h);
        if (w > 0.0f && h > 0.0f && isfinite(h / w))
            aspects[n++] = h / w;
    }
    return n ? pages_book_common_aspect(aspects, n) : 0.0f;
}

/* The source of the host's pages `pp` on leaves of `aspect`, with the book's text and links: the
 * host's own user and functions, so that a call the book leaves running (a page given up) reads
 * nothing of the book's. 0, or the status with the line in message. */
static int provider_source(const pagecurl_book *b, const pagecurl_page_provider *pp, float aspect,
                           PagesBookSource **src, char *message, size_t size)
{
    PageProvider p = {.user = pp->user,
                      .pages = pp->page_count,
                      .aspect = aspect,
                      .draw = pp->draw_page,
                      .size = pp->page_size,
                      .text = b->page_text ? book_provided_text : NULL,
                      .text_fn = (void (*)(void))b->page_text,
                      .links = b->page_links ? book_provided_links : NULL,
                      .links_fn = (void (*)(void))b->page_links,
                      .seconds = b->provider_seconds};
    return pages_book_source_open_provider(&p, src, message, size);
}

/* The book's pages: a path, else the host's provider, else the built-in book. */
static int open_source(pagecurl_book *b, const pagecurl_book_desc *d, PagesBookSource **src,
                       char *message, size_t size)
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
    if (d->provider.page_count <= 0)
        return pages_book_source_open(NULL, src, message, size);
    b->provider = d->provider;
    b->page_text = d->page_text, b->page_links = d->page_links;
    /* as long as a page's drawing (book_stream.h) */
    b->provider_seconds = d->page_seconds == 0.0f  ? BOOK_STREAM_PAGE_SECONDS
                          : d->page_seconds < 0.0f ? 0.0
                                                   : d->page_seconds;
    return provider_source(b, &b->provider, provided_shape(&b->provider), src, message, size);
}

static bool desc_valid(const pagecurl_book_desc *d, pagecurl_error *err)
{
    const char *bad = NULL;
    if (d->frames_in_flight > GPU_FRAMES_IN_FLIGHT)
        bad = "frames_in_flight: at most 2";
    else if (d->max_samples != 0 && d->max_samples != 1 && d->max_samples != 4)
        bad = "max_samples: 1 or 4 (0: the tier's)";
    else if ((unsigned)d->binding > PAGECURL_BINDING_RIGHT)
        bad = "binding out of range";
    else if ((unsigned)d->layout > PAGECURL_LAYOUT_SINGLE)
        bad = "layout out of range";
    else if ((unsigned)d->cover > PAGECURL_COVER_HARD)
        bad = "cover out of range";
    else if (!(d->show_through <= 1.0f) && !(d->show_through < 0.0f))
        bad = "show_through: at most 1 (0: the default, below 0: none)";
    else if ((unsigned)d->quality > PAGECURL_QUALITY_REFERENCE)
        bad = "quality out of range";
    else if (!(d->page_detail <= 8.0f))
        bad = "page_detail: at most 8";
    else if (d->font_size != 0.0f &&
             !(d->font_size >= PAGES_BOOK_FONT_MIN && d->font_size <= PAGES_BOOK_FONT_MAX))
        bad = "font_size: 6 to 48 points (0: 11)";
    else if (d->font_size != 0.0f && !d->path)
        bad = "font_size: only a book's text is laid out (an EPUB's or FB2's path)";
    else if (!(d->page_aspect >= 0.0f) || isinf(d->page_aspect))
        bad = "page_aspect: a page's height / width (0: 1.5)";
    else if (isnan(d->page_seconds))
        bad = "page_seconds: a number of seconds (0: the default, below 0: no limit)";
    else if ((d->grid_columns && d->grid_columns < 2) || (d->grid_rows && d->grid_rows < 2))
        bad = "a leaf's mesh needs at least 2 x 2 vertices";
    else if (d->target_samples > 8 || (d->target_samples & (d->target_samples - 1)))
        bad = "target_samples: 1, 2, 4 or 8 (0: the tier's)";
    else if (d->provider.page_count < 0 ||
             (d->provider.page_count == 0 && (d->provider.draw_page || d->provider.page_size)))
        bad = "provider.page_count: at least 1 (a provider with no pages would be the built-in "
              "book)";
    else if (d->path && (d->provider.page_count || d->provider.draw_page || d->provider.page_size))
        bad = "path and provider: the pages come from one of them";
    else if ((d->page_text || d->page_links) && d->provider.page_count <= 0)
        bad = "page_text and page_links: a page provider's pages' (provider.page_count)";
    else if (d->target_depth_format && d->target_depth_format != VK_FORMAT_D16_UNORM &&
             d->target_depth_format != VK_FORMAT_X8_D24_UNORM_PACK32 &&
             d->target_depth_format != VK_FORMAT_D32_SFLOAT)
        bad = "target_depth_format: a depth format without stencil (D16_UNORM, X8_D24_UNORM_PACK32 "
              "or D32_SFLOAT)";
    else if (d->target_depth_format && !d->target_samples)
        bad = "target_depth_format: for the host's pass, drawn at target_samples (none given)";
    if (bad)
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_desc: %s", bad);
    return !bad;
}

pagecurl_book *pagecurl_book_create(pagecurl_context *ctx, const pagecurl_book_desc *desc,
                                    pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    pagecurl_book_desc d = {0};
    if (desc) {
        /* a host built before reduced_motion was added passes the size it had then */
        size_t had = offsetof(pagecurl_book_desc, reduced_motion);
        if (!sized(desc->size, had, "pagecurl_book_desc", err))
            return NULL;
        memcpy(&d, desc, desc->size < sizeof d ? desc->size : sizeof d);
        d.size = (uint32_t)sizeof d;
    }
    if (!ctx) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_create: no context");
        return NULL;
    }
    if (!desc_valid(&d, err))
        return NULL;
    const VkPhysicalDeviceLimits *lim = &ctx->gpu.props.limits;
    if (d.target_samples && !(lim->framebufferColorSampleCounts &
                              lim->framebufferDepthSampleCounts & d.target_samples)) {
        error_set(err, PAGECURL_ERROR_USAGE,
                  "pagecurl_book_desc: target_samples %u: %s draws colour and depth with "
                  "other counts",
                  d.target_samples, ctx->gpu.props.deviceName);
        return NULL;
    }
    if (d.target_depth_format) {
        VkFormatProperties props;
        ctx->gpu.vk.vkGetPhysicalDeviceFormatProperties(ctx->gpu.physical, d.target_depth_format,
                                                        &props);
        if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
            error_set(err, PAGECURL_ERROR_USAGE,
                      "pagecurl_book_desc: target_depth_format %d: %s has no depth attachment in "
                      "it",
                      (int)d.target_depth_format, ctx->gpu.props.deviceName);
            return NULL;
        }
    }
    pagecurl_book *b = calloc(1, sizeof *b);
    if (!b) {
        error_set(err, PAGECURL_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    b->ctx = ctx;
    b->scroll_turned = -INFINITY;
    book_links_init(&b->links);
    b->wait_for_pages = d.wait_for_pages;
    b->page_detail = d.page_detail > 0.0f ? d.page_detail : 1.0f;
    b->stop = d.stop;
    b->stop_user = d.stop_user;
    b->thumb_through = d.thumb_through;
    b->timed = d.timed;
    b->target_format = d.target_format;
    b->target_samples = d.target_samples;
    b->target_depth_format = d.target_depth_format;
    b->page_seconds = d.page_seconds;
    b->quality = (GpuQuality)d.quality; /* the same order */
    b->max_samples = d.max_samples;
    b->show_through = d.show_through < 0.0f    ? 0.0f
                      : d.show_through == 0.0f ? GPU_SHOW_THROUGH_PAPER
                                               : fminf(d.show_through, 1.0f);
    b->ink_page = -1;
    char message[512];
    PagesBookSource *src = NULL;
    int refused = open_source(b, &d, &src, message, sizeof message);
    if (!refused && (d.page < 0 || d.page > pages_book_source_pages(src))) {
        refused = 2;
        snprintf(message, sizeof message, "page %d: the book has %d page(s)", d.page,
                 pages_book_source_pages(src));
    }
    if (refused) {
        error_set(err, refused == 2 ? PAGECURL_ERROR_USAGE : PAGECURL_ERROR_RUNTIME, "%s", message);
        pages_book_source_close(src);
        free(b);
        return NULL;
    }
    b->pages = pages_book_source_pages(src);
    pages_book_source_draw_fault(src, ctx->gpu.faults ? ctx->gpu.faults->spec.draw_ms : 0);
    b->layout = (BookLayout){
        .rtl = book_binds_right((BookBinding)d.binding, pages_book_source_right_to_left(src)),
        .hard_cover = d.cover == PAGECURL_COVER_HARD,
        .layout = (BookLayoutKind)d.layout,
    };
    BookLeafDesc ld = {
        .nx = d.grid_columns ? d.grid_columns : 64,
        .ny = d.grid_rows ? d.grid_rows : 90,
        .aspect = pages_book_source_builtin(src) ? 0.0f : pages_book_source_aspect(src),
        .readback = d.leaf_readback,
    };
    b->source = src;
    if (pages_book_source_notice(src)[0])
        snprintf(event_push(b, PAGECURL_EVENT_ERROR)->message, sizeof b->events[0].message, "%s",
                 pages_book_source_notice(src));
    GpuError gerr = {0};
    if (!book_leaf_create(&ctx->gpu, &ld, &b->leaf, &gerr)) {
        error_from_gpu(err, &gerr);
        pagecurl_book_destroy(b);
        return NULL;
    }
    b->leaf_made = true;
    if (!mesh_ink_init(&b->ink, b->pages)) {
        error_set(err, PAGECURL_ERROR_OUT_OF_MEMORY, "out of memory for the book's ink");
        pagecurl_book_destroy(b);
        return NULL;
    }
    (d.thumb_through ? book_init_reader : book_init_flip)(
        &b->flip, &b->leaf, b->pages, book_first_spread((uint32_t)d.page, false), d.reduced_motion);
    book_zoom_init(&b->zoom);
    b->panned_at = -INFINITY; /* no pan yet */
    b->seen = mesh_flip_view(&b->flip);
    book_reader_init(&b->reader, b->pages, d.page, b->seen.spread);
    b->layout.left_page = book_reader_left_page(&b->reader, &b->seen, 0.0);
    b->told_spread = b->seen.spread;
    b->ink_seen = b->ink.revision;
    b->spread = book_spread(&b->seen);
    b->pose = book_pose(&b->seen, &b->leaf, &b->layout);
    return b;
}

void pagecurl_book_destroy(pagecurl_book *b)
{
    if (!b)
        return;
    GpuError ignored = {0};
    /* the host's frames may still read the book's buffers and images */
    if (b->view_made || b->leaf_made)
        gpu_queue_idle(&b->ctx->gpu, &ignored);
    if (b->view_made)
        book_view_destroy(&b->ctx->gpu, &b->view);
    if (b->leaf_made)
        book_leaf_destroy(&b->ctx->gpu, &b->leaf);
    book_search_stop(b->search); /* before the source it reads goes */
    book_stream_destroy(b->stream);
    pages_book_source_close(b->source);
    book_search_destroy(b->search); /* after the stream's worker, which marks pages with it */
    book_selection_destroy(b->selection);
    mesh_ink_free(&b->ink);
    book_links_free(&b->links);
    free(b);
}

int pagecurl_book_page_count(const pagecurl_book *b)
{
    if (!b)
        return 0;
    return b->pages;
}

/* The book's pages: its own until the first frame, then its stream's; NULL once a stream could
 * not be made. */
static const PagesBookSource *book_source(const pagecurl_book *b)
{
    return b->stream ? book_stream_source(b->stream) : b->source;
}

void pagecurl_book_page_label(const pagecurl_book *b, int page, char *out, size_t size)
{
    if (!b || !out) {
        if (out && size)
            out[0] = '\0';
        return;
    }
    const PagesBookSource *src = book_source(b);
    if (src)
        pages_book_source_page_label(src, page - 1, out, size);
    else if (size)
        out[0] = '\0';
}

int pagecurl_book_find_page(const pagecurl_book *b, const char *text)
{
    if (!b || !text)
        return 0;
    const PagesBookSource *src = book_source(b);
    return src ? pages_book_source_find_page(src, text) : 0;
}

int pagecurl_book_outline_count(const pagecurl_book *b)
{
    if (!b)
        return 0;
    const PagesBookSource *src = book_source(b);
    return src ? pages_book_source_outline_count(src) : 0;
}

int pagecurl_book_outline_entry(const pagecurl_book *b, int entry, char *title, size_t size,
                                int *depth)
{
    if (!b)
        return -1;
    const PagesBookSource *src = book_source(b);
    const PagesOutlineEntry *e = src ? pages_book_source_outline(src, entry) : NULL;
    if (!e)
        return -1;
    if (title && size) {
        /* cut at a character's boundary: a UTF-8 title's continuation bytes stay together */
        size_t n = strlen(e->title);
        if (n >= size) {
            n = size - 1;
            while (n && ((unsigned char)e->title[n] & 0xc0) == 0x80)
                n--;
        }
        memcpy(title, e->title, n);
        title[n] = '\0';
    }
    if (depth)
        *depth = e->depth;
    return e->page + 1; /* -1 (nowhere) is 0 */
}

bool pagecurl_book_text_place(pagecurl_book *b, int page, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    PagesBookSource *src = b ? (PagesBookSource *)book_source(b) : NULL;
    int32_t place[3];
    if (!src || !out || size < PAGECURL_TEXT_PLACE_MAX ||
        !pages_book_source_text_place(src, page - 1, place))
        return false;
    snprintf(out, size, "t1 %d %d %d", place[0], place[1], place[2]);
    return true;
}

int pagecurl_book_text_place_page(pagecurl_book *b, const char *place)
{
    PagesBookSource *src = b ? (PagesBookSource *)book_source(b) : NULL;
    int32_t at[3];
    int end = -1;
    if (!src || !place ||
        sscanf(place, "t1 %" SCNd32 " %" SCNd32 " %" SCNd32 "%n", &at[0], &at[1], &at[2], &end) !=
            3 ||
        end < 0 || place[end] != '\0')
        return 0;
    return pages_book_source_text_place_page(src, at) + 1; /* -1 (none) is 0 */
}

int pagecurl_book_outline_find(const pagecurl_book *b, const char *text, int from)
{
    if (!b)
        return -1;
    const PagesBookSource *src = book_source(b);
    return src && text && from >= 0 ? pages_book_source_outline_find(src, text, from) : -1;
}

/* --- input ----------------------------------------------------------------------------------- */

/* The flip's view at `time`, the reader following it there (a leaf that has landed since the
 * last frame leaves the view where it carried it; book/reader.h). */
static MeshFlipView follow(pagecurl_book *b, double time)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    book_reader_follow(&b->reader, &view, time);
    return view;
}

/* How the book lies open for input at `time`: the one-page view where the reader's slide has it
 * then. */
static BookLayout layout_at(pagecurl_book *b, double time)
{
    MeshFlipView view = follow(b, time);
    BookLayout layout = b->layout;
    layout.left_page = book_reader_left_page(&b->reader, &view, time);
    return layout;
}

/* An event of the book's input (book/book.h) at target pixel (x, y), given to it as a fraction
 * of the viewport, which a replayed fraction times the viewport's size gives back exactly (the
 * product and quotient are exact in doubles). False where it did nothing. */
static bool feed(pagecurl_book *b, BookInputDevice device, BookInputAction action, double x,
                 double y, float pressure, float scale, double time)
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

/* The page side under target pixel (x, y) as the book is seen at `time`, 0-based; -1 off the
 * book. */
static int side_at(pagecurl_book *b, double x, double y, double time)
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
    return hit.page;
}

bool pagecurl_book_hit(const pagecurl_book *b, double x, double y, pagecurl_hit *out)
{
    if (!b || !out || !b->width || !b->height || !isfinite(x) || !isfinite(y))
        return false;
    uint32_t size = out->size;
    float px = (float)(x / b->width) * (float)b->width,
          py = (float)(y / b->height) * (float)b->height;
    BookHit hit;
    if (b->held.on && !b->spread.fading) {
        /* a held pose (pagecurl_book_hold) is no flip's: through the pose the update drew */
        if (!book_pick_posed(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height, px,
                             py, &hit))
            return false;
    } else {
        MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
        BookZoomView zoom = book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width,
                                           b->height, b->seen_time);
        if (!book_pick(&view, &zoom, &b->leaf, &b->layout, b->width, b->height, px, py, &hit))
            return false;
    }
    pagecurl_hit h = {.size = size, .page = hit.page + 1, .u = hit.u, .v = hit.v};
    memcpy(out, &h, size < sizeof h ? size : sizeof h);
    return true;
}

int pagecurl_book_page_outline(const pagecurl_book *b, int page, float *xy, int max)
{
    if (!b || !xy || max <= 0 || !b->width || !b->height || page < 1 || page > b->pages)
        return 0;
    if (b->held.on && !b->spread.fading) /* through the pose the update drew, as the hit test */
        return book_outline_posed(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height,
                                  page - 1, xy, max);
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    BookZoomView zoom =
        book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, b->seen_time);
    return book_outline(&view, &zoom, &b->leaf, &b->layout, b->width, b->height, page - 1, xy, max);
}

static bool page_step(pagecurl_book *b, bool next, double time);

/* The one-page view, fitted: a swipe away from the spine goes to the spread's other page, as a
 * key does (a slide of the view), where no drag can: from an even page (the back of the leaf
 * turned before) a drag that way holds nothing but that leaf, which it lays down flat, and from
 * an odd page it holds the leaf to turn, which it lays down too. At the pointer's release, where
 * the release turns no leaf over, once a press. */
static void swipe(pagecurl_book *b, Pointer *p, double x, double y, double time)
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

void pagecurl_book_pointer(pagecurl_book *b, const pagecurl_pointer_event *ev)
{
    if (!b)
        return;
    if (!ev || ev->size < sizeof *ev || !isfinite(ev->x) || !isfinite(ev->y) || !isfinite(ev->time))
        return;
    b->held.on = false;
    float pressure = ev->pressure > 0.0f ? fminf(ev->pressure, 1.0f) : 1.0f;
    Pointer *p;
    if (ev->phase == PAGECURL_POINTER_DOWN) {
        bool ink = b->ink_mode || ev->kind == PAGECURL_POINTER_PEN;
        p = ink ? &b->inking : &b->turning;
        if (p->down)
            return; /* another pointer acts */
        *p = (Pointer){.down = true, .id = ev->id, .x0 = ev->x, .y0 = ev->y};
        if (ink)
            b->ink_page = side_at(b, ev->x, ev->y, ev->time);
    } else {
        p = b->inking.down && ev->id == b->inking.id     ? &b->inking
            : b->turning.down && ev->id == b->turning.id ? &b->turning
                                                         : NULL;
        if (!p)
            return;
    }
    bool ink = p == &b->inking;
    BookInputDevice device = ink                                   ? BOOK_INPUT_INK
                             : ev->kind == PAGECURL_POINTER_FINGER ? BOOK_INPUT_FINGER
                                                                   : BOOK_INPUT_MOUSE;
    BookInputAction action = ev->phase == PAGECURL_POINTER_DOWN   ? BOOK_INPUT_DOWN
                             : ev->phase == PAGECURL_POINTER_MOVE ? BOOK_INPUT_MOVE
                                                                  : BOOK_INPUT_UP;
    uint64_t revision = b->ink.revision;
    if (ev->phase == PAGECURL_POINTER_CANCEL && !ink)
        mesh_flip_cancel(&b->flip, ev->time); /* a held page falls back */
    else
        feed(b, device, action, ev->x, ev->y, pressure, 1.0f, ev->time);
    if (ink && b->ink.revision != revision)
        ink_touched(b, b->ink_page);
    else if (!ink && ev->phase == PAGECURL_POINTER_UP)
        swipe(b, p, ev->x, ev->y, ev->time);
    take_turns(b);
    if (ev->phase == PAGECURL_POINTER_UP || ev->phase == PAGECURL_POINTER_CANCEL)
        p->down = false;
}

/* A zoom event as the program's window gives one, in target pixels; false where it cannot act. */
static bool zoom_event(pagecurl_book *b, BookInputAction action, float scale, double x, double y,
                       double time)
{
    /* no position (both NAN): a zoom about the page's centre, the width of the right-hand page */
    bool none = isnan(x) && isnan(y) && (action == BOOK_INPUT_BY || action == BOOK_INPUT_WIDTH);
    if (!b || !b->width || !b->height || !isfinite(scale) ||
        (!none && (!isfinite(x) || !isfinite(y))) || !isfinite(time) ||
        mesh_flip_view_at(&b->flip, time).phase == MESH_FLIP_DRAGGING)
        return false;
    if (b->zoom.hosted)
        return false; /* the host's camera frames the book: no zoom or pan of the library's */
    b->held.on = false;
    return feed(b, BOOK_INPUT_ZOOM, action, x, y, 1.0f, scale, time);
}

/* A turn to the next spread (or the one before) asked by a key or an action. */
static bool turn(pagecurl_book *b, bool next, double time)
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
static bool page_step(pagecurl_book *b, bool next, double time)
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
static bool jump(pagecurl_book *b, int page, double time)
{
    int spread = book_first_spread((uint32_t)page, false), end = mesh_flip_end_spread(&b->flip);
    spread = spread < end ? spread : end;
    if (!mesh_flip_jump(&b->flip, spread, time))
        return false;
    book_reader_jump(&b->reader, page, spread, time);
    return true;
}

static bool book_action(pagecurl_book *b, pagecurl_action action, double time);

bool pagecurl_book_action(pagecurl_book *b, pagecurl_action action, double time)
{
    if (!b)
        return false;
    bool acted = book_action(b, action, time);
    take_turns(b);
    return acted;
}

static bool book_action(pagecurl_book *b, pagecurl_action action, double time)
{
    if (!isfinite(time))
        return false;
    b->held.on = false;
    switch (action) {
    case PAGECURL_ACTION_NEXT:
    case PAGECURL_ACTION_PREVIOUS: {
        bool next = action == PAGECURL_ACTION_NEXT;
        if (b->width && book_one_page(&b->layout, b->width, b->height))
            return page_step(b, next, time);
        return turn(b, next, time);
    }
    case PAGECURL_ACTION_FIRST:
        return jump(b, 1, time);
    case PAGECURL_ACTION_LAST:
        return jump(b, b->pages, time);
    case PAGECURL_ACTION_UNDO: {
        int page = mesh_ink_undo(&b->ink);
        if (page >= 0)
            b->ink_page = page;
        ink_touched(b, page);
        return page >= 0;
    }
    case PAGECURL_ACTION_ZOOM_FIT:
        return zoom_event(b, BOOK_INPUT_FIT, 1.0f, 0.0, 0.0, time);
    }
    return false;
}

bool pagecurl_book_zoom_by(pagecurl_book *b, float factor, double x, double y, double time)
{
    return factor > 0.0f && zoom_event(b, BOOK_INPUT_BY, factor, x, y, time);
}

bool pagecurl_book_fit(pagecurl_book *b, pagecurl_fit fit, double x, double y, double time)
{
    if (fit == PAGECURL_FIT_PAGE)
        return zoom_event(b, BOOK_INPUT_FIT, 1.0f, 0.0, 0.0, time);
    if (fit != PAGECURL_FIT_WIDTH)
        return false;
    if (!isfinite(x) || !isfinite(y))
        x = y = NAN; /* the right-hand page */
    return zoom_event(b, BOOK_INPUT_WIDTH, 1.0f, x, y, time);
}

/* From the fitted view a scroll goes on to the next page (back: the one before), as a PDF
 * viewer's Space, wheel and arrows do, at most once in this many seconds: a wheel's gesture or a
 * touchpad's stream of small scrolls turns once or twice, not once a notch. */
#define SCROLL_TURN_GAP 0.25

bool pagecurl_book_scroll(pagecurl_book *b, float amount, double time)
{
    if (!b || !isfinite(amount) || amount == 0.0f || !isfinite(time))
        return false;
    bool fitted = b->width && !b->zoom.hosted && !b->zoom.width && !b->zoom.resume &&
                  !book_zoom_enlarged(&b->zoom.set) && !book_zoom_moving(&b->zoom, time);
    if (fitted) { /* the page is all in view: nothing to scroll but on to the next */
        MeshFlipView view = mesh_flip_view_at(&b->flip, time);
        if (view.phase == MESH_FLIP_DRAGGING || time - b->scroll_turned < SCROLL_TURN_GAP)
            return false;
        if (!pagecurl_book_action(
                b, amount > 0.0f ? PAGECURL_ACTION_NEXT : PAGECURL_ACTION_PREVIOUS, time))
            return false;
        b->scroll_turned = time;
        return true;
    }
    /* the amount rides as the event's y, a fraction of the viewport's height */
    return zoom_event(b, BOOK_INPUT_SCROLL, 1.0f, 0.0, (double)amount * b->height, time);
}

bool pagecurl_book_zoom_toggle(pagecurl_book *b, double x, double y, double time)
{
    return zoom_event(b, BOOK_INPUT_TOGGLE, 1.0f, x, y, time);
}

bool pagecurl_book_set_zoom(pagecurl_book *b, float zoom, double x, double y, double time)
{
    if (!b)
        return false;
    if (!b->width || !b->height || !(zoom > 0.0f) || !isfinite(zoom) || !isfinite(x) ||
        !isfinite(y) || !isfinite(time))
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

bool pagecurl_book_pan(pagecurl_book *b, double dx, double dy, double time)
{
    return zoom_event(b, BOOK_INPUT_PAN, 1.0f, dx, dy, time);
}

bool pagecurl_book_set_camera(pagecurl_book *b, const float *view_proj)
{
    if (!b)
        return false;
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

float pagecurl_book_page_height(const pagecurl_book *b)
{
    if (!b)
        return 0.0f;
    return b->leaf.grid.height / b->leaf.grid.width;
}

void pagecurl_book_get_zoom(const pagecurl_book *b, pagecurl_zoom *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    const BookZoomView *v = &b->spread.zoom;
    pagecurl_zoom z = {.size = size,
                       .zoom = v->scale > 0.0f ? v->scale : 1.0f,
                       .x = v->x * (float)b->width,
                       .y = v->y * (float)b->height,
                       .moving = book_zoom_moving(&b->zoom, b->seen_time),
                       .fit = b->zoom.width ? PAGECURL_FIT_WIDTH : PAGECURL_FIT_PAGE,
                       .returning = b->zoom.resume};
    if (b->zoom.width) {
        MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
        int left, right, shown = book_reader_page(&b->reader, &view);
        spread_pages(b, view.spread, &left, &right);
        z.page = b->zoom.side < 0                  ? left
                 : b->zoom.side > 0                ? right
                 : shown >= 1 && shown <= b->pages ? shown
                 : right                           ? right
                                                   : left;
        z.down = b->zoom.down;
    }
    memcpy(out, &z, size < sizeof z ? size : sizeof z);
}

bool pagecurl_book_set_view(pagecurl_book *b, const pagecurl_zoom *v, double time)
{
    if (!b || !v || v->size < offsetof(pagecurl_zoom, down) + sizeof v->down || !b->width ||
        !b->height || !isfinite(time) || !isfinite(v->zoom) || !isfinite(v->x) || !isfinite(v->y) ||
        !isfinite(v->down) || (v->fit != PAGECURL_FIT_PAGE && v->fit != PAGECURL_FIT_WIDTH))
        return false;
    MeshFlipView view = mesh_flip_view_at(&b->flip, time);
    if (view.phase == MESH_FLIP_DRAGGING || b->zoom.hosted)
        return false; /* as pagecurl_book_set_zoom */
    b->held.on = false;
    BookLayout layout = layout_at(b, time);
    BookSpread spread = book_spread(&view);
    BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &layout, b->width, b->height);
    int left, right;
    spread_pages(b, view.spread, &left, &right);
    book_zoom_restore(&b->zoom, v->fit == PAGECURL_FIT_WIDTH, v->page && v->page == left ? -1 : 1,
                      v->down, v->zoom, (float)(v->x / b->width), (float)(v->y / b->height), time,
                      &fit);
    return true;
}

/* A pointer's event of pagecurl_book_input (its actions DOWN, MOVE, UP, CANCEL). */
static bool input_pointer(pagecurl_book *b, const pagecurl_input_event *e)
{
    if (e->action != PAGECURL_INPUT_DOWN && e->action != PAGECURL_INPUT_MOVE &&
        e->action != PAGECURL_INPUT_UP && e->action != PAGECURL_INPUT_CANCEL)
        return false;
    pagecurl_pointer_event p = {
        .size = sizeof p,
        .phase = e->action == PAGECURL_INPUT_DOWN   ? PAGECURL_POINTER_DOWN
                 : e->action == PAGECURL_INPUT_MOVE ? PAGECURL_POINTER_MOVE
                 : e->action == PAGECURL_INPUT_UP   ? PAGECURL_POINTER_UP
                                                    : PAGECURL_POINTER_CANCEL,
        .kind = e->device == PAGECURL_INPUT_INK      ? PAGECURL_POINTER_PEN
                : e->device == PAGECURL_INPUT_FINGER ? PAGECURL_POINTER_FINGER
                                                     : PAGECURL_POINTER_MOUSE,
        /* one pointer a device where the host names none: a pen writes while a finger holds */
        .id = e->id ? e->id : (uint64_t)e->device + 1,
        .x = e->x,
        .y = e->y,
        .pressure = e->pressure,
        .time = e->time};
    pagecurl_book_pointer(b, &p);
    return true;
}

bool pagecurl_book_input(pagecurl_book *b, const pagecurl_input_event *e)
{
    if (!b || !e || e->size < sizeof *e)
        return false;
    pagecurl_input_action a = e->action;
    switch (e->device) {
    case PAGECURL_INPUT_MOUSE:
    case PAGECURL_INPUT_FINGER:
        return input_pointer(b, e);
    case PAGECURL_INPUT_INK:
        return a == PAGECURL_INPUT_CLEAR ? pagecurl_book_clear_at(b, e->x, e->y, e->time)
                                         : input_pointer(b, e);
    case PAGECURL_INPUT_KEY:
        switch (a) {
        case PAGECURL_INPUT_NEXT:
            return pagecurl_book_action(b, PAGECURL_ACTION_NEXT, e->time);
        case PAGECURL_INPUT_PREV:
            return pagecurl_book_action(b, PAGECURL_ACTION_PREVIOUS, e->time);
        case PAGECURL_INPUT_HOME:
            return pagecurl_book_action(b, PAGECURL_ACTION_FIRST, e->time);
        case PAGECURL_INPUT_END:
            return pagecurl_book_action(b, PAGECURL_ACTION_LAST, e->time);
        case PAGECURL_INPUT_UNDO:
            return pagecurl_book_action(b, PAGECURL_ACTION_UNDO, e->time);
        case PAGECURL_INPUT_GOTO:
            return pagecurl_book_go_to(b, e->page);
        case PAGECURL_INPUT_FONT: /* a failure is the book's error event too */
            return pagecurl_book_relayout(b, e->amount, 0.0f, NULL);
        default:
            return false;
        }
    case PAGECURL_INPUT_ZOOM:
        switch (a) {
        case PAGECURL_INPUT_BY:
            return pagecurl_book_zoom_by(b, e->amount, e->x, e->y, e->time);
        case PAGECURL_INPUT_WIDTH:
            return pagecurl_book_fit(b, PAGECURL_FIT_WIDTH, e->x, e->y, e->time);
        case PAGECURL_INPUT_SCROLL:
            return pagecurl_book_scroll(b, e->amount, e->time);
        case PAGECURL_INPUT_PAN:
            return pagecurl_book_pan(b, e->x, e->y, e->time);
        case PAGECURL_INPUT_FIT:
            return pagecurl_book_action(b, PAGECURL_ACTION_ZOOM_FIT, e->time);
        case PAGECURL_INPUT_TOGGLE:
            return pagecurl_book_zoom_toggle(b, e->x, e->y, e->time);
        default:
            return false;
        }
    }
    return false;
}

bool pagecurl_book_go_to(pagecurl_book *b, int page)
{
    if (!b)
        return false;
    if (page < 1 || page > b->pages)
        return false;
    b->held.on = false;
    bool went = jump(b, page, b->seen_time);
    take_turns(b);
    return went;
}

bool pagecurl_book_hold(pagecurl_book *b, float progress, float grab, bool backward)
{
    if (!b)
        return false;
    MeshFlipView view = mesh_flip_view(&b->flip);
    int leaves = (b->pages + 1) / 2;
    bool leaf = backward ? view.spread >= 1 : view.spread < leaves;
    if (view.turning || !leaf || !isfinite(progress) || !isfinite(grab))
        return false;
    b->held = (Held){.on = true,
                     .backward = backward,
                     .progress = fminf(fmaxf(progress, 0.0f), 1.0f),
                     .grab = fminf(fmaxf(grab, 0.0f), 1.0f)};
    return true;
}

bool pagecurl_book_set_quality(pagecurl_book *b, pagecurl_quality quality)
{
    if (!b)
        return false;
    if ((unsigned)quality > PAGECURL_QUALITY_REFERENCE)
        return false;
    b->quality = (GpuQuality)quality; /* the same order */
    b->quality_asked = b->view_made;
    return true;
}

void pagecurl_book_set_ink_mode(pagecurl_book *b, bool ink)
{
    if (!b)
        return;
    b->ink_mode = ink;
}

bool pagecurl_book_clear_at(pagecurl_book *b, double x, double y, double time)
{
    if (!b)
        return false;
    if (!isfinite(x) || !isfinite(y) || !isfinite(time))
        return false;
    int side = side_at(b, x, y, time);
    if (side < 0 || side >= b->ink.page_count)
        return false;
    feed(b, BOOK_INPUT_INK, BOOK_INPUT_CLEAR, x, y, 1.0f, 1.0f, time);
    b->ink_page = side;
    ink_touched(b, side);
    return true;
}

uint32_t pagecurl_book_stroke_count(const pagecurl_book *b, int page)
{
    if (!b)
        return 0;
    if (page == 0)
        return (uint32_t)mesh_ink_stroke_count(&b->ink);
    if (page < 1 || page > b->ink.page_count)
        return 0;
    return (uint32_t)b->ink.pages[page - 1].count;
}

/* The public point is the book's own: a stroke passes between them as it is. */
_Static_assert(sizeof(pagecurl_ink_point) == sizeof(MeshInkPoint) &&
                   offsetof(pagecurl_ink_point, u) == offsetof(MeshInkPoint, u) &&
                   offsetof(pagecurl_ink_point, v) == offsetof(MeshInkPoint, v) &&
                   offsetof(pagecurl_ink_point, width) == offsetof(MeshInkPoint, width),
               "pagecurl_ink_point and MeshInkPoint in one layout");

uint32_t pagecurl_book_get_stroke(const pagecurl_book *b, int page, uint32_t stroke,
                                  pagecurl_ink_point *out, uint32_t capacity)
{
    if (!b)
        return 0;
    if (page < 1 || page > b->ink.page_count || stroke >= b->ink.pages[page - 1].count)
        return 0;
    const MeshInkStroke *s = &b->ink.pages[page - 1].strokes[stroke];
    size_t n = s->count < capacity ? s->count : capacity;
    if (out && n)
        memcpy(out, s->points, n * sizeof *out);
    return (uint32_t)s->count; /* at most MESH_INK_MAX_STROKE_POINTS */
}

bool pagecurl_book_add_stroke(pagecurl_book *b, int page, const pagecurl_ink_point *points,
                              uint32_t count)
{
    if (!b)
        return false;
    /* a stroke added over one being drawn would take its place as the page's last */
    if (page < 1 || page > b->pages || !points || b->ink.drawing >= 0)
        return false;
    /* the host's own ink is no news to it: unless the reader changed the ink since the last
     * frame, the event stays unraised */
    bool news = b->ink.revision != b->ink_seen;
    bool added = mesh_ink_stroke_add(&b->ink, page - 1, (const MeshInkPoint *)points, count);
    if (!news)
        b->ink_seen = b->ink.revision;
    return added;
}

uint64_t pagecurl_book_ink_revision(const pagecurl_book *b)
{
    if (!b)
        return 0;
    return b->ink.revision;
}

/* --- state ----------------------------------------------------------------------------------- */

/* layout.alone at `time`: eased in and out (smootherstep) from where it was to where it goes. */
static float alone_at(const pagecurl_book *b, double time)
{
    double u = (time - b->alone.since) / BOOK_READER_SLIDE_TIME;
    u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
    float e = (float)(u * u * u * (u * (6.0 * u - 15.0) + 10.0));
    return b->alone.from + (b->alone.to - b->alone.from) * e;
}

void pagecurl_book_state(const pagecurl_book *b, pagecurl_state *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    GpuQuality tier = b->view_made                     ? b->view.renderer.quality
                      : b->quality != GPU_QUALITY_AUTO ? b->quality
                      : b->ctx->gpu.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
                          ? GPU_QUALITY_LOW
                          : GPU_QUALITY_HIGH;
    pagecurl_state s = {.size = size,
                        .single = b->width && book_one_page(&b->layout, b->width, b->height),
                        .streaming = b->stream && book_stream_busy(b->stream),
                        .pages_ready = b->stream && book_stream_news(b->stream),
                        .quality = (pagecurl_quality)tier, /* the same order */
                        .turning = view.turning,
                        .held = view.phase == MESH_FLIP_DRAGGING,
                        .progress = view.turning ? view.progress : 0.0f,
                        .moving = view.phase == MESH_FLIP_SETTLING ||
                                  view.phase == MESH_FLIP_FADING ||
                                  (view.phase == MESH_FLIP_IDLE && view.lift > 0.0f) ||
                                  book_zoom_moving(&b->zoom, b->seen_time) ||
                                  b->zoom_rounded || /* the next frame draws it exactly */
                                  book_reader_sliding(&b->reader, &view, b->seen_time) ||
                                  alone_at(b, b->seen_time) != b->alone.to,
                        .bound_right = b->layout.rtl,
                        .drawing = b->ink.drawing + 1,
                        .page = book_reader_page(&b->reader, &view),
                        .hold = b->held.on,
                        .hold_progress = b->held.on ? b->held.progress : 0.0f};
    if (s.page > b->pages)
        s.page = 0; /* closed on a last leaf's blank back */
    spread_pages(b, view.spread, &s.left, &s.right);
    /* the turns queued behind a settling leaf count (thumbing through); a drag's end is the
     * hand's, so a held leaf heads where it would land if let go now */
    int heading = view.heading;
    if (heading == view.spread && view.turning && view.completing)
        heading += view.direction == MESH_FLIP_FORWARD ? 1 : -1;
    spread_pages(b, heading, &s.heading_left, &s.heading_right);
    memcpy(out, &s, size < sizeof s ? size : sizeof s);
}

/* --- frames ---------------------------------------------------------------------------------- */

/* A finished frame's stage times (book/view.c hands them on), kept for pagecurl_book_frame_times.
 */
static void took_times(void *user, const BookViewTimes *times)
{
    pagecurl_book *b = user;
    pagecurl_frame_times *t = &b->times;
    *t = (pagecurl_frame_times){.size = sizeof *t, .frame = times->frame};
    for (int s = 0; s < GPU_STAGE_COUNT && t->stage_count < PAGECURL_MAX_STAGES; s++)
        if (times->ran[s]) {
            t->names[t->stage_count] = gpu_stage_name(s);
            t->ms[t->stage_count++] = times->ms[s];
            t->total_ms += times->ms[s];
        }
    b->times_valid = true;
}

static bool make_view(pagecurl_book *b, BookViewKind kind, uint32_t width, uint32_t height,
                      GpuError *err)
{
    const GpuContext *ctx = &b->ctx->gpu;
    if (kind == BOOK_VIEW_HOSTED && b->target_format) {
        VkFormatProperties props;
        ctx->vk.vkGetPhysicalDeviceFormatProperties(ctx->physical, b->target_format, &props);
        VkFormatFeatureFlags need =
            VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
        if ((props.optimalTilingFeatures & need) != need)
            return gpu_error_set(err, "target_format %d: the device cannot draw and blend in it",
                                 (int)b->target_format);
    }
    if (b->view_made) {
        /* a new size: the host's frames may still read the old image */
        if (!gpu_queue_idle(ctx, err))
            return false;
        return book_view_resize(ctx, &b->view, width, height, err);
    }
    /* the pages are drawn for the width the first viewport shows a page at, as the program
     * draws them for its window's or image's: half of it for a spread, or as wide as the page
     * is where its height fills the view (a landscape view's spread: at 1920x1080 a page is
     * shown 793 px wide, and 960-texel layers held 13 of their 101 MB for no pixel at rest; the
     * detail draws what is zoomed); for one page, all of it (a portrait view's: drawn at half
     * its width, its print showed magnified), or as wide as its height allows */
    if (!b->stream && !b->source)
        return gpu_error_set(err, "the book's pages could not be streamed (out of memory)");
    if (!b->stream) {
        char message[512];
        bool one = book_one_page(&b->layout, width, height);
        float page_width = fminf(one ? (float)width : 0.5f * (float)width,
                                 (float)height / pages_book_source_aspect(b->source));
        b->stream = book_stream_create(b->source, (uint32_t)lrintf(page_width * b->page_detail),
                                       message, sizeof message);
        b->source = NULL; /* the stream's now, made or not */
        if (!b->stream)
            return gpu_error_set(err, "%s", message);
        book_stream_set_hooks(b->stream, &(BookStreamHooks){.user = b,
                                                            .warn = stream_warn,
                                                            .ready = stream_ready,
                                                            .stopped = stream_stopped,
                                                            .mark = stream_mark});
        if (b->page_seconds != 0.0f) /* below 0: none */
            book_stream_set_page_limit(b->stream, b->page_seconds);
    }
    BookViewDesc desc = {
        .kind = kind,
        .width = width,
        .height = height,
        .timed = b->timed,
        .book = b->stream,
        .renderer = {.quality = b->quality,
                     .max_samples = b->max_samples,
                     .samples = b->target_samples,
                     /* a host's frames in its targets' format, copied in (0: the view's own) */
                     .color_format = kind == BOOK_VIEW_HOSTED ? b->target_format : 0,
                     /* the pipelines match the host's pass's depth (0: the device's) */
                     .depth_format = kind == BOOK_VIEW_HOSTED ? b->target_depth_format : 0,
                     .shadow_size = gpu_shadow_size(width, height),
                     .show_through = b->show_through},
    };
    if (!book_view_create(ctx, &desc, &b->leaf, &b->view, err))
        return false;
    b->view_made = true;
    b->view.on_times = took_times;
    b->view.times_user = b;
    return book_view_ink_upload(ctx, &b->view, &b->ink, err);
}

/* The host's target with the fields its description has not (it ends before them) zero. */
static pagecurl_target target_of(const pagecurl_target *t)
{
    pagecurl_target all = {0};
    memcpy(&all, t, t->size < sizeof all ? t->size : sizeof all);
    return all;
}

static VkExtent2D viewport_of(const pagecurl_target *t)
{
    VkExtent2D e = t->viewport.extent;
    return e.width && e.height ? e : t->extent;
}

/* Where the viewport's top left lies in the image: its offset, or the corner for the whole. */
static VkOffset2D viewport_offset(const pagecurl_target *t)
{
    bool whole = !t->viewport.extent.width || !t->viewport.extent.height;
    return whole ? (VkOffset2D){0, 0} : t->viewport.offset;
}

/* The depth a target drawn straight into needs: to the viewport's far corner (a rendering's
 * attachments share its area's coordinates, so the depth starts at the image's corner), not
 * the whole image. */
static VkExtent2D depth_extent(const pagecurl_target *t)
{
    VkExtent2D size = viewport_of(t);
    VkOffset2D at = viewport_offset(t);
    return (VkExtent2D){(uint32_t)at.x + size.width, (uint32_t)at.y + size.height};
}

/* A posed leaf (pagecurl_book_hold) at an end of its turn lies flat on one side; in the one-page
 * layout at rest on the other side's page that side is not drawn (book/book.c), nor is the leaf:
 * else its edge shows past the spine in the view's margin. */
static bool held_beside(const pagecurl_book *b)
{
    float t = b->held.progress, a = b->layout.left_page;
    bool right = b->held.backward ? t >= 1.0f : t <= 0.0f;
    bool left = b->held.backward ? t <= 0.0f : t >= 1.0f;
    return b->width && book_one_page(&b->layout, b->width, b->height) &&
           ((right && a >= 1.0f) || (left && a <= 0.0f));
}

/* The auto layout's page alone (book_alone) for the spread of `view` at `time`, from the
 * pages' shapes known (layout.print): aimed afresh only while no leaf turns (a turn ends in the
 * framing it began in, then goes on to its spread's), and at once (`cut`) before the book is
 * first framed or with reduced motion. */
static void follow_alone(pagecurl_book *b, const MeshFlipView *view, double time, bool cut)
{
    if (!view->turning && b->width) {
        float aspect = b->leaf.grid.height / b->leaf.grid.width;
        float want = book_alone(&b->layout, aspect, b->width, b->height) ? 1.0f : 0.0f;
        if (want != b->alone.to) {
            b->alone.from = alone_at(b, time);
            b->alone.to = want, b->alone.since = time;
        }
    }
    if (cut || view->reduced_motion)
        b->alone.from = b->alone.to;
    b->layout.alone = alone_at(b, time);
}

/* The book at `time` (a time that is not finite: where it was), its events derived, and the
 * frame's pose and spread readied. */
static void step(pagecurl_book *b, double time)
{
    if (isfinite(time))
        mesh_flip_step(&b->flip, time), b->seen_time = time;
    MeshFlipView now = mesh_flip_view_at(&b->flip, b->seen_time);
    derive_events(b, &now);
    /* the frame shows the book at its moment on the screen (pagecurl_book_set_lead); input and
     * events stay on the clock */
    double shown = b->seen_time;
    if (b->lead > 0.0) {
        shown = b->seen_time + b->lead > b->posed_at ? b->seen_time + b->lead : b->posed_at;
        b->posed_at = shown;
    }
    MeshFlipView view = mesh_flip_view_at(&b->flip, shown);
    book_reader_follow(&b->reader, &view, shown);
    b->layout.left_page = book_reader_left_page(&b->reader, &view, shown);
    if (b->held.on && !view.turning) {
        int leaves = (b->pages + 1) / 2;
        b->spread = book_spread_at(view.spread, leaves, b->held.backward);
        b->pose = book_turn_pose(&b->spread, b->held.progress, b->held.grab, &b->leaf, &b->layout);
        if (b->hold_radius > 0.0f)
            book_pose_radius(&b->pose, b->hold_radius, &b->leaf);
        b->spread.progress = b->held.progress; /* the camera widens with it, as in --curl */
        if (view.reduced_motion) { /* the cross-fade at that point, as --curl --reduced-motion */
            b->pose = book_turn_pose(&b->spread, 0.0f, b->held.grab, &b->leaf, &b->layout);
            book_spread_fading(&b->spread, b->held.progress);
        } else if (held_beside(b)) {
            b->spread.turning = false;
        }
    } else {
        b->spread = book_spread(&view);
        b->pose = book_pose(&view, &b->leaf, &b->layout);
    }
    if (b->stream) /* the shapes of the pages drawn so far */
        book_stream_prints(b->stream, &b->spread, &b->layout);
    b->alone.at = shown;
    follow_alone(b, &view, shown, !b->alone.shown);
    if (!b->held.on) /* a turn from a zoomed view has landed: the zoom comes back */
        book_settle_zoom(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, shown);
    BookZoomView exact =
        book_zoom_view(&b->zoom, &view, &b->leaf, &b->layout, b->width, b->height, shown);
    /* A pan on its way (the view moved since the frame before, at the same scale, and not
     * BOOK_ZOOM_PAN_REST ago) is drawn on whole pixels: the renderer then moves the last frame's
     * picture instead of drawing it anew (gpu/renderer.h, GpuStillCache). Once it has rested that
     * long the view is drawn exactly, and the book moves until then. */
    bool panned = !exact.hosted && exact.scale == b->zoom_exact.scale &&
                  book_zoom_enlarged(&exact) &&
                  (exact.x != b->zoom_exact.x || exact.y != b->zoom_exact.y);
    if (panned)
        b->panned_at = shown;
    else if (exact.hosted || exact.scale != b->zoom_exact.scale || !book_zoom_enlarged(&exact))
        b->panned_at = -INFINITY; /* a zoom of another scale is no pan */
    b->zoom_exact = exact;
    b->spread.zoom = exact;
    b->zoom_rounded = shown - b->panned_at < BOOK_ZOOM_PAN_REST && b->width && b->height;
    if (b->zoom_rounded) {
        BookSpread spread = book_spread(&view);
        BookZoomRect fit = book_fit_rect(&spread, &b->leaf, &b->layout, b->width, b->height);
        b->spread.zoom = book_zoom_whole_pixels(exact, b->width, b->height, &fit);
    }
}

/* The tier pagecurl_book_set_quality asked for, taken by the view made before it. */
static bool requalify(pagecurl_book *b, GpuError *err)
{
    if (!b->quality_asked)
        return true;
    b->quality_asked = false;
    return book_view_set_quality(&b->ctx->gpu, &b->view, b->quality, err);
}

/* The view for a frame of `kind` at `size` (drawable's checks passed): made, or made anew for
 * another size, and drawing by the tier last asked for. */
static bool ready_view(pagecurl_book *b, BookViewKind kind, VkExtent2D size, GpuError *err)
{
    if ((!b->view_made || size.width != b->width || size.height != b->height) &&
        !make_view(b, kind, size.width, size.height, err))
        return false;
    b->width = size.width, b->height = size.height;
    return requalify(b, err);
}

/* Whether the book can draw frames of `kind` and `size`: a size the device allows, and the kind
 * of the book's first frames. */
static bool drawable(const pagecurl_book *b, BookViewKind kind, VkExtent2D size, const char *what,
                     pagecurl_error *err)
{
    uint32_t side = b->ctx->gpu.props.limits.maxImageDimension2D;
    if (!size.width || !size.height || size.width > side || size.height > side) {
        error_set(err, PAGECURL_ERROR_USAGE, "a %s of %ux%u: 1 to %u pixels a side", what,
                  size.width, size.height, side);
        return false;
    }
    if (b->view_made && b->view.kind != kind) {
        error_set(err, PAGECURL_ERROR_USAGE, "this book draws %s",
                  kind == BOOK_VIEW_HOSTED ? "its own frames (pagecurl_book_render), not the host's"
                                           : "into the host's frames, not its own");
        return false;
    }
    return true;
}

/* Whether the book can draw into `t`: a viewport within the image, and a view only where the
 * book draws at the host's samples in its format. */
static bool target_valid(const pagecurl_book *b, const pagecurl_target *t, pagecurl_error *err)
{
    const VkRect2D *v = &t->viewport;
    bool whole = !v->extent.width || !v->extent.height;
    const char *bad = NULL;
    if (!v->extent.width != !v->extent.height)
        bad = "its viewport has a width or a height of 0, not both (0 x 0: the whole image)";
    else if (!whole && (v->offset.x < 0 || v->offset.y < 0 ||
                        (uint64_t)v->offset.x + v->extent.width > t->extent.width ||
                        (uint64_t)v->offset.y + v->extent.height > t->extent.height))
        bad = "its viewport is not within its extent";
    else if (t->view && !b->target_samples)
        bad = "a view is drawn straight into only by a book with target_samples";
    else if (t->view && t->format != (b->target_format ? b->target_format : GPU_OFFSCREEN_FORMAT))
        bad = "a view's format must be the book's target_format";
    else if (t->keep && !t->view)
        bad = "keep needs a view (the book's frame is copied in whole)";
    else if (t->in_pass && (t->view || t->keep))
        bad = "in_pass draws into the host's rendering: no view, no keep";
    else if (t->in_pass && !b->target_depth_format)
        bad = "in_pass needs the book's target_depth_format (the host's pass's depth attachment)";
    else if (t->background_set && (t->in_pass || t->keep))
        bad = "a background is for the book's own clear (copied in, or drawn straight in without "
              "keep): with in_pass or keep the host's pixels stay";
    else if (t->background_set &&
             !(isfinite(t->background[0]) && isfinite(t->background[1]) &&
               isfinite(t->background[2]) && t->background[3] >= 0.0f && t->background[3] <= 1.0f))
        bad = "a background of finite numbers, its alpha 0 to 1";
    if (bad)
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_target: %s", bad);
    return !bad;
}

static void redraw_page(void *user, int page)
{
    book_stream_redraw(user, page);
}

/* The pages whose search marks changed since the last frame are drawn again (shown as they were
 * until then), so that a count that finds matches on a page in view highlights them there. */
static void redraw_marked(pagecurl_book *b)
{
    if (b->search && b->stream)
        book_search_take_changed(b->search, redraw_page, b->stream);
    if (b->selection && b->stream)
        book_selection_take_changed(b->selection, redraw_page, b->stream);
}

bool pagecurl_book_update(pagecurl_book *b, double time, const pagecurl_target *target,
                          pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    if (!b || !target || !isfinite(time)) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_update: %s",
                  !b        ? "no book"
                  : !target ? "no target"
                            : "a time that is no number of seconds");
        return false;
    }
    if (!sized(target->size, offsetof(pagecurl_target, format), "pagecurl_target", err))
        return false;
    pagecurl_target t = target_of(target);
    VkExtent2D size = viewport_of(&t);
    if (!drawable(b, BOOK_VIEW_HOSTED, size, "viewport", err) || !target_valid(b, &t, err))
        return false;
    GpuError gerr = {0};
    BookViewTarget how = t.in_pass                  ? BOOK_VIEW_TARGET_PASS
                         : t.view != VK_NULL_HANDLE ? BOOK_VIEW_TARGET_DIRECT
                                                    : BOOK_VIEW_TARGET_COPY;
    if (!ready_view(b, BOOK_VIEW_HOSTED, size, &gerr) ||
        !book_view_host_target(&b->ctx->gpu, &b->view, how, depth_extent(&t), &gerr)) {
        error_from_gpu(err, &gerr);
        return false;
    }
    step(b, time);
    b->alone.shown = true;
    b->recorded_slot = 0;
    b->view.pass_ready = false; /* a frame readied for the host's pass is drawn before this */
    if (b->detail_hold > 0.0) { /* the pages this frame shows, drawn for it while it waits */
        BookViewFrame shown = {.pose = b->pose, .spread = b->spread, .layout = b->layout};
        book_view_want_detail(&b->view, &shown, size);
        book_stream_detail_now(b->stream, b->detail_hold);
        b->detail_hold = 0.0;
    }
    redraw_marked(b);
    if (!book_view_stream(&b->ctx->gpu, &b->view, &b->ink, &b->spread, b->wait_for_pages, &gerr)) {
        error_from_gpu(err, &gerr);
        return false;
    }
    if (b->stream) /* the pages just uploaded framed at their shapes in this frame */
        book_stream_prints(b->stream, &b->spread, &b->layout);
    return true;
}

/* A target drawn straight into, after the book's pass: in its final layout, the pass's writes
 * made available to whatever the host does next. */
static void drawn_straight(const GpuContext *ctx, VkCommandBuffer cmd, const pagecurl_target *t)
{
    GpuImageBarrier after = {
        .image = t->image,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .old_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .new_layout = t->final_layout ? t->final_layout : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .src_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
        .dst_stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .dst_access = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
    };
    gpu_barriers(ctx, cmd, NULL, &after, 1);
}

/* A second target of the frame recorded for `slot` (a thumbnail, a minimap): that frame's picture
 * scaled into its viewport, from the book's own image. */
static bool record_copy(pagecurl_book *b, VkCommandBuffer cmd, uint32_t slot,
                        const pagecurl_target *t, pagecurl_error *err)
{
    VkExtent2D size = viewport_of(t);
    const char *bad = NULL;
    if (b->recorded_slot != slot + 1)
        bad = "not the size the last pagecurl_book_update readied, and no frame of this slot "
              "recorded since for a second target to copy";
    else if (t->view || t->in_pass || b->view.direct || b->view.in_pass)
        bad = "a second target is copied from the book's own picture: neither it nor the first "
              "may be drawn straight into (a view) or in the host's pass (in_pass)";
    if (bad) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_record: a viewport of %ux%u: %s",
                  size.width, size.height, bad);
        return false;
    }
    const GpuContext *ctx = &b->ctx->gpu;
    gpu_label_begin(ctx, cmd, "pagecurl second target");
    gpu_offscreen_record_blit(ctx, cmd, &b->view.offscreen,
                              &(GpuBlitTarget){.image = t->image,
                                               .format = t->format,
                                               .offset = viewport_offset(t),
                                               .extent = size,
                                               .layout = t->layout,
                                               .final_layout = t->final_layout,
                                               .src_stage = t->src_stage,
                                               .src_access = t->src_access});
    gpu_label_end(ctx, cmd);
    return true;
}

/* A record's or a draw's arguments: a book, a command buffer and a target of a known size, the
 * target read into *t (the fields its description has not zero). False with err (USAGE). */
static bool frame_args(const pagecurl_book *b, VkCommandBuffer cmd, const pagecurl_target *target,
                       const char *call, pagecurl_target *t, pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    if (!b || !cmd || !target) {
        error_set(err, PAGECURL_ERROR_USAGE, "%s: %s", call,
                  !b     ? "no book"
                  : !cmd ? "no command buffer"
                         : "no target");
        return false;
    }
    if (!sized(target->size, offsetof(pagecurl_target, format), "pagecurl_target", err))
        return false;
    *t = target_of(target);
    return true;
}

bool pagecurl_book_record(pagecurl_book *b, VkCommandBuffer cmd, uint32_t slot,
                          const pagecurl_target *target, pagecurl_error *err)
{
    pagecurl_target t;
    if (!frame_args(b, cmd, target, "pagecurl_book_record", &t, err))
        return false;
    VkExtent2D size = viewport_of(&t);
    bool direct = t.view != VK_NULL_HANDLE;
    VkExtent2D corner = depth_extent(&t);
    const char *bad = NULL;
    if (!b->view_made || b->view.kind != BOOK_VIEW_HOSTED)
        bad = b->view_made ? "this book draws its own frames (pagecurl_book_render)"
                           : "no pagecurl_book_update has readied a frame";
    else if (slot >= GPU_FRAMES_IN_FLIGHT)
        bad = "a slot beyond frames_in_flight";
    if (bad) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_record: %s", bad);
        return false;
    }
    if (!target_valid(b, &t, err))
        return false;
    if (size.width != b->width || size.height != b->height)
        return record_copy(b, cmd, slot, &t, err);
    if (direct != b->view.direct || t.in_pass != b->view.in_pass ||
        (direct && (corner.width != b->view.direct_extent.width ||
                    corner.height != b->view.direct_extent.height))) {
        error_set(err, PAGECURL_ERROR_USAGE,
                  "pagecurl_book_record: the target is not as the last pagecurl_book_update was "
                  "given it (%s)",
                  direct != b->view.direct       ? "a view, or none"
                  : t.in_pass != b->view.in_pass ? "in_pass, or not"
                                                 : "its viewport's place");
        return false;
    }
    const GpuContext *ctx = &b->ctx->gpu;
    /* a leaf asked for is read by this frame alone: one buffer, read once the host has waited */
    bool read = b->read_leaf_next && b->leaf.desc.readback;
    BookViewFrame frame = {.pose = b->pose,
                           .spread = b->spread,
                           .layout = b->layout,
                           .ink = &b->ink,
                           .readback_vertices = read,
                           .target_generation = direct ? t.generation : 0,
                           .background_set = t.background_set};
    memcpy(frame.background.float32, t.background, sizeof t.background);
    b->read_leaf_next = false;
    b->leaf_read = b->leaf_read || read;
    GpuError gerr = {0};
    bool recorded;
    gpu_label_begin(ctx, cmd, "pagecurl");
    if (direct) {
        /* the host's layout and last use met in its own command buffer, so that the slot's
         * commands start from the same layout whatever the host's */
        GpuImageBarrier before = {
            .image = t.image,
            .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
            .old_layout = t.layout,
            .new_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .src_stage = t.src_stage ? t.src_stage : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .src_access = t.src_stage ? t.src_access : VK_ACCESS_2_MEMORY_WRITE_BIT,
            .dst_stage =
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
            .dst_access = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
        };
        GpuRenderTarget straight = {
            .color = t.image,
            .color_view = t.view,
            .extent = size,
            .offset = viewport_offset(&t),
            .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .color_src_stage =
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
            .copy_in = !t.keep, /* the image takes copies (the header asks it without keep) */
            .keep = t.keep,
        };
        gpu_barriers(ctx, cmd, NULL, &before, 1);
        recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, &straight, &gerr);
        if (recorded)
            drawn_straight(ctx, cmd, &t);
    } else if (t.in_pass) {
        /* what comes before the host's pass; pagecurl_book_draw draws in it */
        GpuRenderTarget pass = {.extent = size, .offset = viewport_offset(&t), .in_pass = true};
        recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, &pass, &gerr);
    } else if ((recorded = book_view_record(ctx, &b->view, cmd, slot, &frame, NULL, &gerr))) {
        gpu_offscreen_record_blit(ctx, cmd, &b->view.offscreen,
                                  &(GpuBlitTarget){.image = t.image,
                                                   .format = t.format,
                                                   .offset = viewport_offset(&t),
                                                   .layout = t.layout,
                                                   .final_layout = t.final_layout,
                                                   .src_stage = t.src_stage,
                                                   .src_access = t.src_access});
    }
    gpu_label_end(ctx, cmd);
    if (!recorded) {
        error_from_gpu(err, &gerr);
        return false;
    }
    b->recorded_slot = slot + 1; /* a second target may copy it */
    return true;
}

bool pagecurl_book_draw(pagecurl_book *b, VkCommandBuffer cmd, uint32_t slot,
                        const pagecurl_target *target, pagecurl_error *err)
{
    pagecurl_target t;
    if (!frame_args(b, cmd, target, "pagecurl_book_draw", &t, err))
        return false;
    VkExtent2D size = viewport_of(&t);
    VkOffset2D at = viewport_offset(&t);
    const GpuRenderTarget *readied = &b->view.pass_target;
    const char *bad = NULL;
    if (!t.in_pass)
        bad = "a target not in_pass (pagecurl_book_record draws the others)";
    else if (!b->view_made || b->view.kind != BOOK_VIEW_HOSTED || !b->view.in_pass ||
             !b->view.pass_ready || b->view.pass_slot != slot)
        bad = "no frame of this slot recorded for the host's pass since the last draw "
              "(pagecurl_book_record first, outside the pass)";
    else if (size.width != readied->extent.width || size.height != readied->extent.height ||
             at.x != readied->offset.x || at.y != readied->offset.y)
        bad = "a viewport other than the one pagecurl_book_record was given";
    if (bad) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_draw: %s", bad);
        return false;
    }
    const GpuContext *ctx = &b->ctx->gpu;
    GpuError gerr = {0};
    gpu_label_begin(ctx, cmd, "pagecurl in the host's pass");
    bool drawn = book_view_draw(ctx, &b->view, cmd, slot, &gerr);
    gpu_label_end(ctx, cmd);
    if (!drawn)
        error_from_gpu(err, &gerr);
    return drawn;
}

bool pagecurl_book_render(pagecurl_book *b, double time, const pagecurl_render_desc *desc,
                          uint8_t *rgba, pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    if (!b || !desc || !isfinite(time)) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_render: %s",
                  !b      ? "no book"
                  : !desc ? "no description"
                          : "a time that is no number of seconds");
        return false;
    }
    if (!sized(desc->size, sizeof *desc, "pagecurl_render_desc", err))
        return false;
    VkExtent2D size = {desc->width, desc->height};
    if (!drawable(b, BOOK_VIEW_OFFSCREEN, size, "picture", err))
        return false;
    if (b->view_made && (size.width != b->width || size.height != b->height)) {
        error_set(err, PAGECURL_ERROR_USAGE, "a picture of %ux%u: this book draws %ux%u",
                  size.width, size.height, b->width, b->height);
        return false;
    }
    if (desc->read_leaf && !b->leaf.desc.readback) {
        error_set(err, PAGECURL_ERROR_USAGE, "read_leaf: the book was made without leaf_readback");
        return false;
    }
    GpuError gerr = {0};
    const GpuContext *ctx = &b->ctx->gpu;
    if (!ready_view(b, BOOK_VIEW_OFFSCREEN, size, &gerr)) {
        error_from_gpu(err, &gerr);
        return false;
    }
    b->leaf_read = false;
    step(b, time);
    redraw_marked(b);
    if (!b->alone.shown && b->stream) {
        /* the first picture frames its pages at their shapes (the auto layout's page alone): its
         * pages drawn before its step is taken again, as its frame would wait for them anyway */
        if (!book_view_stream(ctx, &b->view, &b->ink, &b->spread, true, &gerr)) {
            error_from_gpu(err, &gerr);
            return false;
        }
        book_stream_prints(b->stream, &b->spread, &b->layout);
        MeshFlipView view = mesh_flip_view_at(&b->flip, b->alone.at);
        follow_alone(b, &view, b->alone.at, true);
        if (b->held.on && !view.reduced_motion && held_beside(b)) /* now one page */
            b->spread.turning = false;
    }
    b->alone.shown = true;
    BookViewFrame frame = {.pose = b->pose,
                           .spread = b->spread,
                           .layout = b->layout,
                           .ink = &b->ink,
                           .readback_pixels = rgba != NULL,
                           .readback_vertices = desc->read_leaf};
    /* one read-back buffer a view: a frame read waits for its copy */
    bool waits = rgba || desc->read_leaf;
    if (!book_view_frame(ctx, &b->view, &frame, NULL, &gerr) ||
        (waits && !book_view_wait(ctx, &b->view, &gerr))) {
        error_from_gpu(err, &gerr);
        return false;
    }
    if (rgba) {
        gpu_buffer_invalidate(ctx, &b->view.offscreen.pixels);
        memcpy(rgba, b->view.offscreen.pixels.mapped, (size_t)size.width * size.height * 4);
    }
    if (desc->read_leaf) {
        gpu_buffer_invalidate(ctx, &b->leaf.gpu.readback);
        b->leaf_read = true;
    }
    return true;
}

uint32_t pagecurl_book_head_row(const pagecurl_book *b)
{
    if (!b)
        return 0;
    if (!b->width || !b->height)
        return 0;
    BookCameraBook book =
        book_camera(&b->spread, &b->pose, &b->leaf, &b->layout, b->width, b->height);
    PcDrawPush push = book_camera_draw_push(b->width, b->height, &book);
    const float *m = push.view_proj.m; /* column-major */
    float x = 0.5f * (book.lo + book.hi) * book.width, y = book.height;
    float cy = m[1] * x + m[5] * y + m[13], cw = m[3] * x + m[7] * y + m[15];
    float row = cw > 0.0f ? 0.5f * (cy / cw + 1.0f) * (float)b->height : 0.0f;
    float first = ceilf(row - 0.5f); /* rows are sampled at their centres */
    return first <= 0.0f ? 0u : first >= (float)b->height ? b->height : (uint32_t)first;
}

bool pagecurl_book_set_lead(pagecurl_book *b, double seconds)
{
    if (!b)
        return false;
    if (!(seconds >= 0.0 && seconds <= 0.1))
        return false;
    b->lead = seconds;
    return true;
}

bool pagecurl_book_hold_detail(pagecurl_book *b, double seconds)
{
    if (!b)
        return false;
    if (!(seconds >= 0.0 && seconds <= 1.0))
        return false;
    b->detail_hold = seconds;
    return true;
}

bool pagecurl_book_read_leaf(pagecurl_book *b)
{
    if (!b)
        return false;
    if (!b->leaf.desc.readback)
        return false;
    b->read_leaf_next = true;
    return true;
}

bool pagecurl_book_frame_times(const pagecurl_book *b, pagecurl_frame_times *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    if (!b->times_valid)
        return false;
    pagecurl_frame_times t = b->times;
    t.size = size;
    memcpy(out, &t, size < sizeof t ? size : sizeof t);
    return true;
}

_Static_assert(PC_VERTEX_FLOATS == 8, "pagecurl_leaf's vertices: position, normal, uv");

bool pagecurl_book_leaf(const pagecurl_book *b, pagecurl_leaf *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    if (!b->leaf_read)
        return false;
    /* a host's frame read it: the host has waited for it, the buffer is read here */
    if (b->view_made && b->view.kind == BOOK_VIEW_HOSTED)
        gpu_buffer_invalidate(&b->ctx->gpu, &b->leaf.gpu.readback);
    const PageGrid *g = &b->leaf.grid;
    pagecurl_leaf leaf = {.size = size,
                          .columns = g->nx,
                          .rows = g->ny,
                          .width = g->width,
                          .height = g->height,
                          .vertex_count = (uint32_t)g->vertex_count,
                          .triangle_count = (uint32_t)g->triangle_count,
                          .vertices = b->leaf.gpu.readback.mapped,
                          .indices = g->indices};
    memcpy(out, &leaf, size < sizeof leaf ? size : sizeof leaf);
    return true;
}

bool pagecurl_book_set_hold_radius(pagecurl_book *b, float radius)
{
    if (!b)
        return false;
    if (radius != 0.0f && !(radius >= BOOK_RADIUS_MIN && radius <= BOOK_RADIUS_MAX))
        return false;
    b->hold_radius = radius;
    return true;
}

/* --- files ----------------------------------------------------------------------------------- */

void pagecurl_book_identity_of(const pagecurl_book *b, pagecurl_book_identity *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    pagecurl_book_identity id = {.size = size};
    const PagesBookSource *src = book_source(b);
    if (src) {
        snprintf(id.path, sizeof id.path, "%s", pages_book_source_name(src));
        snprintf(id.id, sizeof id.id, "%s", pages_book_source_id(src));
        id.repaired = pages_book_source_repaired(src);
        snprintf(id.text_id, sizeof id.text_id, "%s", id.id);
        /* the helper's id of a reflowable book is "kind-PAGES-digest": the count goes */
        char *digest = strrchr(id.text_id, '-'), *count = digest;
        while (pages_book_source_reflowable(src) && count && count > id.text_id && count[-1] != '-')
            count--;
        if (pages_book_source_reflowable(src) && digest && count > id.text_id && count < digest)
            memmove(count - 1, digest, strlen(digest) + 1);
    }
    memcpy(out, &id, size < sizeof id ? size : sizeof id);
}

bool pagecurl_book_holds(const pagecurl_book *b, const char *path)
{
    if (!b)
        return false;
    const PagesBookSource *src = book_source(b);
    return src && path && pages_book_source_holds(src, path);
}

/* The spread the book lies open at, or is heading for during a turn: a search's "next" is from
 * there, so that a second Enter during the turn goes on from the first's match. */
static int heading_spread(const pagecurl_book *b)
{
    MeshFlipView view = mesh_flip_view_at(&b->flip, b->seen_time);
    int heading = view.heading;
    if (heading == view.spread && view.turning && view.completing)
        heading += view.direction == MESH_FLIP_FORWARD ? 1 : -1;
    return heading;
}

bool pagecurl_book_search(pagecurl_book *b, const char *query)
{
    if (!b)
        return false;
    /* the search reads through the source's own search helper, never the drawing one: it may
     * take the source from under the stream that owns it */
    PagesBookSource *src = (PagesBookSource *)book_source(b);
    if (!src)
        return false;
    if (!b->search) {
        BookSearch *made = book_search_create(src);
        if (!made)
            return false;
        __atomic_store_n(&b->search, made, __ATOMIC_RELEASE); /* the stream's worker reads it */
    }
    int at = heading_spread(b);
    int from = 2 * at - 1 > 0 ? 2 * at - 1 : 0; /* the spread's first page, 0-based */
    return book_search_start(b->search, query, from);
}

void pagecurl_book_search_state(const pagecurl_book *b, pagecurl_search_state *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    const PagesBookSource *src = book_source(b);
    BookSearchProgress p = {.done = true, .pages = b->pages};
    if (b->search)
        book_search_progress(b->search, &p);
    pagecurl_search_state s = {.size = size,
                               .generation = (uint32_t)p.generation,
                               .has_text = src && pages_book_source_has_text(src),
                               .done = p.done,
                               .pages_read = p.pages_read,
                               .pages = p.pages,
                               .matches = p.matches,
                               .failed = p.failed_page};
    memcpy(out, &s, size < sizeof s ? size : sizeof s);
}

bool pagecurl_book_search_match(const pagecurl_book *b, int k, pagecurl_search_match *out)
{
    BookSearchMatch m;
    if (!b || !out || !b->search || !book_search_match(b->search, k, &m))
        return false;
    uint32_t size = out->size;
    pagecurl_search_match o = {.size = size, .page = m.page + 1, .rect_count = m.rects};
    for (int i = 0; i < m.rects; i++) {
        o.rects[i][0] = m.rect[i].x0, o.rects[i][1] = m.rect[i].y0;
        o.rects[i][2] = m.rect[i].x1, o.rects[i][3] = m.rect[i].y1;
    }
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
    return true;
}

int pagecurl_book_search_next(const pagecurl_book *b, bool forward)
{
    if (!b || !b->search)
        return -1;
    int at = heading_spread(b);
    /* spread s shows pages 2s - 1 and 2s (0-based) */
    return book_search_next(b->search, forward ? 2 * at : 2 * at - 1, forward);
}

bool pagecurl_book_show_match(pagecurl_book *b, int k)
{
    pagecurl_search_match m = {.size = sizeof m};
    return pagecurl_book_search_match(b, k, &m) && pagecurl_book_go_to(b, m.page);
}

/* Page `page`'s (0-based) links, read at the first ask (a page whose links cannot be read says
 * why once); NULL for none. */
static const BookLinksPage *page_links(pagecurl_book *b, int page)
{
    /* the links are read through the source's own links helper, never the drawing one */
    PagesBookSource *src = (PagesBookSource *)book_source(b);
    if (!src || page < 0 || page >= b->pages)
        return NULL;
    bool failed = false;
    char line[sizeof b->events[0].message];
    const BookLinksPage *p = book_links_page(&b->links, src, page, &failed, line, sizeof line);
    if (failed) {
        pagecurl_event *e = event_push(b, PAGECURL_EVENT_ERROR);
        e->page = page + 1;
        snprintf(e->message, sizeof e->message, "%s", line);
    }
    return p;
}

static void link_out(const BookLinksPage *p, int k, pagecurl_link *out)
{
    uint32_t size = out->size;
    const PagesLink *l = &p->links[k];
    pagecurl_link o = {.size = size,
                       .page = p->page + 1,
                       .rect = {l->x0, l->y0, l->x1, l->y1},
                       .target = l->target + 1};
    snprintf(o.uri, sizeof o.uri, "%s", l->uri);
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
}

int pagecurl_book_link_count(pagecurl_book *b, int page)
{
    const BookLinksPage *p = b ? page_links(b, page - 1) : NULL;
    return p ? p->count : 0;
}

bool pagecurl_book_link(pagecurl_book *b, int page, int k, pagecurl_link *out)
{
    const BookLinksPage *p = b && out ? page_links(b, page - 1) : NULL;
    if (!p || k < 0 || k >= p->count)
        return false;
    link_out(p, k, out);
    return true;
}

bool pagecurl_book_link_at(pagecurl_book *b, double x, double y, pagecurl_link *out)
{
    pagecurl_hit hit = {.size = sizeof hit};
    if (!b || !out || !pagecurl_book_hit(b, x, y, &hit))
        return false;
    const BookLinksPage *p = page_links(b, hit.page - 1);
    int k = p ? book_links_at(p, hit.u, 1.0f - hit.v) : -1; /* v runs up from the page's foot */
    if (k < 0)
        return false;
    link_out(p, k, out);
    return true;
}

/* The page a link followed from here is left from: the one page shown, else the spread's
 * left-hand page (its only one at either end), the spread it opens at again. */
static int left_from(pagecurl_book *b, double time)
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
static bool travel(pagecurl_book *b, int page, double time)
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

bool pagecurl_book_follow(pagecurl_book *b, int page, double time)
{
    if (!b || page < 1 || page > b->pages || !isfinite(time))
        return false;
    b->held.on = false;
    int from = left_from(b, time);
    bool went = travel(b, page, time);
    if (went)
        book_links_went(&b->links, from);
    take_turns(b);
    return went;
}

static bool step_back(pagecurl_book *b, bool forward, double time)
{
    if (!b || !isfinite(time))
        return false;
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

bool pagecurl_book_back(pagecurl_book *b, double time)
{
    return step_back(b, false, time);
}

bool pagecurl_book_forward(pagecurl_book *b, double time)
{
    return step_back(b, true, time);
}

/* --- text and its selection ------------------------------------------------------------------ */

/* Page `page`'s (0-based) text held by the book's selection (read where another page's is): false
 * where it cannot be read (said as an ERROR event) or memory runs short. */
static bool hold_text(pagecurl_book *b, int page)
{
    PagesBookSource *src = (PagesBookSource *)book_source(b);
    if (!src || page < 0 || page >= b->pages)
        return false;
    if (!b->selection) {
        BookSelection *made = book_selection_create();
        if (!made)
            return false;
        __atomic_store_n(&b->selection, made, __ATOMIC_RELEASE); /* the stream's worker reads it */
    }
    if (book_selection_holds(b->selection, page))
        return true;
    PagesTextChar *chars = malloc(PAGES_TEXT_MAX_CHARS * sizeof *chars);
    if (!chars)
        return false;
    char line[sizeof(pagecurl_event){0}.message];
    float place[4];
    int n =
        pages_book_source_text(src, page, chars, PAGES_TEXT_MAX_CHARS, place, line, sizeof line);
    if (n < 0) {
        free(chars);
        pagecurl_event *e = event_push(b, PAGECURL_EVENT_ERROR);
        e->page = page + 1;
        snprintf(e->message, sizeof e->message, "%s", line);
        return false;
    }
    PagesTextChar *kept = n ? realloc(chars, (size_t)n * sizeof *chars) : NULL;
    if (!kept)
        free(chars);
    book_selection_hold(b->selection, page, kept, n, place);
    return true;
}

long pagecurl_book_page_text(pagecurl_book *b, int page, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    if (!b || !hold_text(b, page - 1))
        return -1;
    return (long)book_selection_page_text(b->selection, out, size);
}

bool pagecurl_book_select(pagecurl_book *b, const pagecurl_hit *from, const pagecurl_hit *to,
                          bool words, pagecurl_selection *out)
{
    if (!b)
        return false;
    if (!from) {
        if (b->selection)
            book_selection_clear(b->selection);
    } else {
        to = to ? to : from;
        if (to->page != from->page || !isfinite(from->u) || !isfinite(from->v) ||
            !isfinite(to->u) || !isfinite(to->v) || !hold_text(b, from->page - 1) ||
            !book_selection_select(b->selection, from->u, from->v, to->u, to->v, words))
            return false;
    }
    if (out)
        pagecurl_book_selection(b, out);
    return from != NULL;
}

bool pagecurl_book_selection(const pagecurl_book *b, pagecurl_selection *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    pagecurl_selection o = {.size = size};
    PagesFindRect r[PAGECURL_SELECTION_RECTS];
    int page = -1, n = b->selection ? book_selection_get(b->selection, &page, &o.chars, r,
                                                         PAGECURL_SELECTION_RECTS)
                                    : 0;
    o.page = page + 1, o.rect_count = n;
    for (int i = 0; i < n; i++) {
        o.rects[i][0] = r[i].x0, o.rects[i][1] = r[i].y0;
        o.rects[i][2] = r[i].x1, o.rects[i][3] = r[i].y1;
    }
    memcpy(out, &o, size < sizeof o ? size : sizeof o);
    return o.page > 0;
}

size_t pagecurl_book_selection_text(const pagecurl_book *b, char *out, size_t size)
{
    if (out && size)
        out[0] = '\0';
    return b && b->selection ? book_selection_text(b->selection, out, size) : 0;
}

/* --- pages that change ----------------------------------------------------------------------- */

bool pagecurl_book_invalidate(pagecurl_book *b, int page)
{
    if (!b || page < PAGECURL_ALL_PAGES || page > b->pages)
        return false;
    if (b->stream)
        book_stream_invalidate(b->stream, page - 1);
    else if (b->source) /* nothing drawn yet: only a shape to ask again */
        pages_book_source_forget_shape(b->source, page - 1);
    return true;
}

static void take_pages(pagecurl_book *b, PagesBookSource *src, int shown);

bool pagecurl_book_set_provider(pagecurl_book *b, const pagecurl_page_provider *provider,
                                pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    const char *bad = !b || !provider           ? "no book or no provider"
                      : !b->provider.page_count ? "the book's pages are not a host's (a path's, or "
                                                  "the built-in book's)"
                      : !book_source(b)         ? "the book's pages could not be streamed"
                      : provider->page_count < 1 || !provider->draw_page
                          ? "a provider needs at least one page and a draw_page"
                          : NULL;
    if (bad) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_set_provider: %s", bad);
        return false;
    }
    /* the book keeps its leaves' shape (the new pages are fitted within them), and its pages'
     * text and links come from the description's calls, as the first provider's did */
    PagesBookSource *src = NULL;
    char message[512];
    int refused = provider_source(b, provider, pages_book_source_aspect(book_source(b)), &src,
                                  message, sizeof message);
    if (!refused && !mesh_ink_grow(&b->ink, provider->page_count)) {
        pages_book_source_close(src);
        refused = 1, snprintf(message, sizeof message, "out of memory for the book's ink");
    }
    if (!refused && b->stream) {
        book_search_stop(b->search); /* it reads the source the stream's replace closes */
        refused = !book_stream_replace(b->stream, src, message, sizeof message);
    }
    if (refused) {
        error_set(err, refused == 2 ? PAGECURL_ERROR_USAGE : PAGECURL_ERROR_RUNTIME, "%s", message);
        return false;
    }
    b->provider = *provider;
    take_pages(b, src, 0);
    return true;
}

/* The book's pages are `src`'s now (the stream has it already, where there is one), opened at
 * `shown` (1-based; 0: where the reader was, within the new count). */
static void take_pages(pagecurl_book *b, PagesBookSource *src, int shown)
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
    if (b->turning.down)
        mesh_flip_cancel(&b->flip, b->seen_time), b->turning.down = false;
    if (b->inking.down)
        mesh_ink_stroke_end(&b->ink), b->inking.down = false;
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

/* The leaf made again at `aspect` (a reflowable book laid out to another page shape), and with
 * it the view and the stream, made again for it at the next update: false with the line where
 * the new leaf cannot be made (the book then stays as it was). The search is stopped first (it
 * reads the stream's source). */
static bool reshape(pagecurl_book *b, float aspect, char *message, size_t size)
{
    const GpuContext *ctx = &b->ctx->gpu;
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

bool pagecurl_book_relayout(pagecurl_book *b, float font_size, float page_aspect,
                            pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    const PagesBookSource *now = b ? book_source(b) : NULL;
    const char *bad = !now ? "no book, or its pages could not be streamed"
                      : font_size != 0.0f && !(font_size >= PAGES_BOOK_FONT_MIN &&
                                               font_size <= PAGES_BOOK_FONT_MAX)
                          ? "font_size: 6 to 48 points (0: as now)"
                      : page_aspect != 0.0f && !(page_aspect > 0.0f && isfinite(page_aspect))
                          ? "page_aspect: a page's height / width (0: as now)"
                          : NULL;
    if (bad) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_relayout: %s", bad);
        return false;
    }
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
    int page = book_reader_page(&b->reader, &view) - 1, moved = -1;
    PagesBookSource *src = NULL;
    char message[512];
    int refused =
        pages_book_source_relayout(now, &to, &page, &moved, 1, &src, message, sizeof message);
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
    if (refused == 1) /* a host that replays a trace has no error to read */
        snprintf(event_push(b, PAGECURL_EVENT_ERROR)->message, sizeof b->events[0].message,
                 "%.250s", message);
    if (refused) {
        error_set(err, refused == 2 ? PAGECURL_ERROR_USAGE : PAGECURL_ERROR_RUNTIME, "%s", message);
        return false;
    }
    take_pages(b, src, moved + 1);
    return true;
}

float pagecurl_book_font_size(const pagecurl_book *b)
{
    return b && book_source(b) ? pages_book_source_layout(book_source(b)).font_size : 0.0f;
}

_Static_assert(PAGECURL_PAGE_ASPECT_MIN == PAGES_BOOK_ASPECT_MIN &&
                   PAGECURL_PAGE_ASPECT_MAX == PAGES_BOOK_ASPECT_MAX,
               "the header's page shapes are the page source's");

float pagecurl_font_size_step(float size, int steps)
{
    return pages_book_source_font_step(isfinite(size) ? size : PAGES_BOOK_FONT_SIZE, steps);
}

bool pagecurl_book_set_page_count(pagecurl_book *b, int count, pagecurl_error *err)
{
    if (!b) {
        error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_set_page_count: no book");
        return false;
    }
    pagecurl_page_provider p = b->provider;
    p.page_count = count;
    return pagecurl_book_set_provider(b, &p, err);
}

/* The farthest a go-to thumbs through: the leaf in flight and the turns the flip queues behind
 * it. */
#define TURN_TO_THUMBED (1 + MESH_FLIP_QUEUE_MAX)
_Static_assert(TURN_TO_THUMBED == 4, "pagecurl_book_turn_to's header says 4 spreads");

bool pagecurl_book_turn_to(pagecurl_book *b, int page, double time)
{
    if (!b || page < 1 || page > b->pages || !isfinite(time))
        return false;
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
