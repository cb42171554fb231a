/* SPDX-License-Identifier: MIT */
/* libpagecurl's functions for a book (include/pagecurl/pagecurl.h), the facade: each checks its
 * arguments (NULL, sizes, finite numbers, ranges) and converts between the header's types and the
 * book's, then calls the book (book/open_book.h, its frames book/open_frame.h). What a book's pages
 * say is book/pagecurl_text.c's, a context's functions book/context.c's. No book logic here: a
 * book's state and what it does are open_book.c's and open_frame.c's. */
#include "../include/pagecurl/pagecurl.h"
#include "pagecurl_program.h"

#include "../gpu/offscreen.h"
#include "../shaders/shared.h"
#include "facade.h"
#include "open_book.h"
#include "provided.h"

#include <math.h>
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

const char *pagecurl_version(void)
{
    return PAGECURL_VERSION;
}

/* --- the book -------------------------------------------------------------------------------- */

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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_desc: %s", bad);
    return !bad;
}

/* The host's provider as the page source takes it: its user, count and calls (the two shapes of
 * draw_page and page_size are one; the text and links are the description's). */
static PageProvider provider_of(const pagecurl_page_provider *p)
{
    return (PageProvider){
        .user = p->user, .pages = p->page_count, .draw = p->draw_page, .size = p->page_size};
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
        if (!api_error_sized(desc->size, had, "pagecurl_book_desc", err))
            return NULL;
        memcpy(&d, desc, desc->size < sizeof d ? desc->size : sizeof d);
        d.size = (uint32_t)sizeof d;
    }
    if (!ctx) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_create: no context");
        return NULL;
    }
    if (!desc_valid(&d, err))
        return NULL;
    const VkPhysicalDeviceLimits *lim = &ctx->gpu.props.limits;
    if (d.target_samples && !(lim->framebufferColorSampleCounts &
                              lim->framebufferDepthSampleCounts & d.target_samples)) {
        api_error_set(err, PAGECURL_ERROR_USAGE,
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
            api_error_set(
                err, PAGECURL_ERROR_USAGE,
                "pagecurl_book_desc: target_depth_format %d: %s has no depth attachment in "
                "it",
                (int)d.target_depth_format, ctx->gpu.props.deviceName);
            return NULL;
        }
    }
    pagecurl_book *b = calloc(1, sizeof *b);
    if (!b) {
        api_error_set(err, PAGECURL_ERROR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    PageProvider provider = provider_of(&d.provider);
    provider.text = d.page_text ? book_provided_text : NULL;
    provider.text_fn = (void (*)(void))d.page_text;
    provider.links = d.page_links ? book_provided_links : NULL;
    provider.links_fn = (void (*)(void))d.page_links;
    BookOpenDesc od = {.path = d.path,
                       .font_size = d.font_size,
                       .page_aspect = d.page_aspect,
                       .provider = provider,
                       .page = d.page,
                       .binding = (BookBinding)d.binding,  /* the same order */
                       .layout = (BookLayoutKind)d.layout, /* the same order */
                       .hard_cover = d.cover == PAGECURL_COVER_HARD,
                       .grid_columns = d.grid_columns,
                       .grid_rows = d.grid_rows,
                       .leaf_readback = d.leaf_readback,
                       .wait_for_pages = d.wait_for_pages,
                       .thumb_through = d.thumb_through,
                       .timed = d.timed,
                       .reduced_motion = d.reduced_motion,
                       .page_detail = d.page_detail,
                       .show_through = d.show_through,
                       .page_seconds = d.page_seconds,
                       .stop = d.stop,
                       .stop_user = d.stop_user,
                       .target_format = d.target_format,
                       .target_depth_format = d.target_depth_format,
                       .target_samples = d.target_samples,
                       .max_samples = d.max_samples,
                       .quality = (GpuQuality)d.quality}; /* the same order */
    GpuError gerr = {0};
    if (!book_open_create(&ctx->gpu, &od, &b->open, &gerr)) {
        api_error_from_gpu(err, &gerr);
        free(b);
        return NULL;
    }
    return b;
}

void pagecurl_book_destroy(pagecurl_book *b)
{
    if (!b)
        return;
    book_open_destroy(b->open);
    free(b);
}

bool pagecurl_book_poll_event(pagecurl_book *b, pagecurl_event *out)
{
    BookEvent e;
    if (!b || !out || !book_events_poll(&b->open->events, &e))
        return false;
    *out = (pagecurl_event){.type = (pagecurl_event_type)e.type, /* the same values */
                            .forward = e.forward,
                            .completed = e.completed,
                            .left = e.left,
                            .right = e.right,
                            .page = e.page};
    memcpy(out->message, e.message, sizeof out->message);
    return true;
}

int pagecurl_book_page_count(const pagecurl_book *b)
{
    if (!b)
        return 0;
    return b->open->pages;
}

/* --- input ----------------------------------------------------------------------------------- */

bool pagecurl_book_hit(const pagecurl_book *b, double x, double y, pagecurl_hit *out)
{
    if (!b || !out || !isfinite(x) || !isfinite(y))
        return false;
    uint32_t size = out->size;
    BookHit hit;
    if (!book_open_hit(b->open, x, y, &hit))
        return false;
    pagecurl_hit h = {.size = size, .page = hit.side + 1, .u = hit.u, .v = hit.v};
    memcpy(out, &h, size < sizeof h ? size : sizeof h);
    return true;
}

int pagecurl_book_page_outline(const pagecurl_book *b, int page, float *xy, int max)
{
    if (!b || !xy || max <= 0 || page < 1 || page > b->open->pages)
        return 0;
    return book_open_side_outline(b->open, page - 1, xy, max);
}

void pagecurl_book_pointer(pagecurl_book *b, const pagecurl_pointer_event *ev)
{
    if (!b)
        return;
    if (!ev || ev->size < sizeof *ev || !isfinite(ev->x) || !isfinite(ev->y) || !isfinite(ev->time))
        return;
    book_open_pointer(
        b->open,
        &(BookPointerInput){.device = ev->kind == PAGECURL_POINTER_PEN      ? BOOK_INPUT_INK
                                      : ev->kind == PAGECURL_POINTER_FINGER ? BOOK_INPUT_FINGER
                                                                            : BOOK_INPUT_MOUSE,
                            .action = ev->phase == PAGECURL_POINTER_DOWN   ? BOOK_INPUT_DOWN
                                      : ev->phase == PAGECURL_POINTER_MOVE ? BOOK_INPUT_MOVE
                                      : ev->phase == PAGECURL_POINTER_UP   ? BOOK_INPUT_UP
                                                                           : BOOK_INPUT_CANCEL,
                            .id = ev->id,
                            .x = ev->x,
                            .y = ev->y,
                            .time = ev->time,
                            .pressure = ev->pressure});
}

/* A zoom event in target pixels; false where it cannot act. */
static bool zoom_event(pagecurl_book *b, BookInputAction action, float scale, double x, double y,
                       double time)
{
    return b && book_open_zoom(b->open, action, scale, x, y, time);
}

bool pagecurl_book_action(pagecurl_book *b, pagecurl_action action, double time)
{
    if (!b)
        return false;
    BookInputAction key = action == PAGECURL_ACTION_NEXT       ? BOOK_INPUT_NEXT
                          : action == PAGECURL_ACTION_PREVIOUS ? BOOK_INPUT_PREV
                          : action == PAGECURL_ACTION_FIRST    ? BOOK_INPUT_HOME
                          : action == PAGECURL_ACTION_LAST     ? BOOK_INPUT_END
                          : action == PAGECURL_ACTION_UNDO     ? BOOK_INPUT_UNDO
                          : action == PAGECURL_ACTION_ZOOM_FIT ? BOOK_INPUT_FIT
                                                               : BOOK_INPUT_DOWN; /* none */
    return book_open_key(b->open, key, time);
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

bool pagecurl_book_scroll(pagecurl_book *b, float amount, double time)
{
    if (!b || !isfinite(amount) || amount == 0.0f || !isfinite(time))
        return false;
    return book_open_scroll(b->open, amount, time);
}

bool pagecurl_book_zoom_toggle(pagecurl_book *b, double x, double y, double time)
{
    return zoom_event(b, BOOK_INPUT_TOGGLE, 1.0f, x, y, time);
}

bool pagecurl_book_set_zoom(pagecurl_book *b, float zoom, double x, double y, double time)
{
    if (!b)
        return false;
    if (!(zoom > 0.0f) || !isfinite(zoom) || !isfinite(x) || !isfinite(y) || !isfinite(time))
        return false;
    return book_open_set_zoom(b->open, zoom, x, y, time);
}

bool pagecurl_book_pan(pagecurl_book *b, double dx, double dy, double time)
{
    return zoom_event(b, BOOK_INPUT_PAN, 1.0f, dx, dy, time);
}

bool pagecurl_book_set_camera(pagecurl_book *b, const float *view_proj)
{
    return b && book_open_set_camera(b->open, view_proj);
}

float pagecurl_book_page_height(const pagecurl_book *b)
{
    if (!b)
        return 0.0f;
    return b->open->leaf.grid.height / b->open->leaf.grid.width;
}

void pagecurl_book_get_zoom(const pagecurl_book *b, pagecurl_zoom *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    BookOpenZoom v;
    book_open_get_zoom(b->open, &v);
    pagecurl_zoom z = {.size = size,
                       .zoom = v.zoom,
                       .x = v.x,
                       .y = v.y,
                       .moving = v.moving,
                       .fit = v.width ? PAGECURL_FIT_WIDTH : PAGECURL_FIT_PAGE,
                       .returning = v.returning,
                       .page = v.page,
                       .down = v.down};
    memcpy(out, &z, size < sizeof z ? size : sizeof z);
}

bool pagecurl_book_set_view(pagecurl_book *b, const pagecurl_zoom *v, double time)
{
    if (!b || !v || v->size < offsetof(pagecurl_zoom, down) + sizeof v->down || !isfinite(time) ||
        !isfinite(v->zoom) || !isfinite(v->x) || !isfinite(v->y) || !isfinite(v->down) ||
        (v->fit != PAGECURL_FIT_PAGE && v->fit != PAGECURL_FIT_WIDTH))
        return false;
    BookOpenZoom z = {.zoom = v->zoom,
                      .x = v->x,
                      .y = v->y,
                      .down = v->down,
                      .width = v->fit == PAGECURL_FIT_WIDTH,
                      .page = v->page};
    return book_open_set_view(b->open, &z, time);
}

/* A pointer's event of pagecurl_book_input (its actions DOWN, MOVE, UP, CANCEL). */
static bool input_pointer(pagecurl_book *b, const pagecurl_input_event *e)
{
    if (e->action != PAGECURL_INPUT_DOWN && e->action != PAGECURL_INPUT_MOVE &&
        e->action != PAGECURL_INPUT_UP && e->action != PAGECURL_INPUT_CANCEL)
        return false;
    if (!isfinite(e->x) || !isfinite(e->y) || !isfinite(e->time))
        return true; /* taken, as a pointer's event, and ignored */
    book_open_pointer(
        b->open, &(BookPointerInput){.device = (BookInputDevice)e->device, /* the same values */
                                     .action = (BookInputAction)e->action,
                                     /* one pointer a device where the host names none: a pen writes
                                      * while a finger holds */
                                     .id = e->id ? e->id : (uint64_t)e->device + 1,
                                     .x = e->x,
                                     .y = e->y,
                                     .time = e->time,
                                     .pressure = e->pressure});
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
    if (page < 1 || page > b->open->pages)
        return false;
    return book_open_go_to(b->open, page);
}

bool pagecurl_book_hold(pagecurl_book *b, float progress, float grab, bool backward)
{
    return b && book_open_hold(b->open, progress, grab, backward);
}

bool pagecurl_book_set_quality(pagecurl_book *b, pagecurl_quality quality)
{
    if (!b)
        return false;
    if ((unsigned)quality > PAGECURL_QUALITY_REFERENCE)
        return false;
    return book_open_set_quality(b->open, (GpuQuality)quality); /* the same order */
}

void pagecurl_book_set_ink_mode(pagecurl_book *b, bool ink)
{
    if (!b)
        return;
    book_open_set_ink_mode(b->open, ink);
}

bool pagecurl_book_clear_at(pagecurl_book *b, double x, double y, double time)
{
    if (!b)
        return false;
    if (!isfinite(x) || !isfinite(y) || !isfinite(time))
        return false;
    return book_open_clear_at(b->open, x, y, time);
}

uint32_t pagecurl_book_stroke_count(const pagecurl_book *b, int page)
{
    if (!b)
        return 0;
    const MeshInk *ink = &b->open->ink;
    if (page == 0)
        return (uint32_t)mesh_ink_stroke_count(ink);
    if (page < 1 || page > ink->side_count)
        return 0;
    return (uint32_t)ink->sides[page - 1].count;
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
    const MeshInk *ink = &b->open->ink;
    if (page < 1 || page > ink->side_count || stroke >= ink->sides[page - 1].count)
        return 0;
    const MeshInkStroke *s = &ink->sides[page - 1].strokes[stroke];
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
    return book_open_add_stroke(b->open, page - 1, (const MeshInkPoint *)points, count);
}

uint64_t pagecurl_book_ink_revision(const pagecurl_book *b)
{
    if (!b)
        return 0;
    return b->open->ink.revision;
}

/* --- state ----------------------------------------------------------------------------------- */

void pagecurl_book_state(const pagecurl_book *b, pagecurl_state *out)
{
    if (!b || !out)
        return;
    uint32_t size = out->size;
    BookOpenState o;
    book_open_state(b->open, &o);
    pagecurl_state s = {.size = size,
                        .single = o.single,
                        .streaming = o.streaming,
                        .pages_ready = o.pages_ready,
                        .quality = (pagecurl_quality)o.quality, /* the same order */
                        .turning = o.turning,
                        .held = o.held,
                        .progress = o.progress,
                        .moving = o.moving,
                        .bound_right = o.bound_right,
                        .drawing = o.drawing,
                        .page = o.page,
                        .left = o.left,
                        .right = o.right,
                        .heading_left = o.heading_left,
                        .heading_right = o.heading_right,
                        .hold = o.hold,
                        .hold_progress = o.hold_progress};
    memcpy(out, &s, size < sizeof s ? size : sizeof s);
}

/* --- frames ---------------------------------------------------------------------------------- */

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

/* The target as the book records into it. */
static BookTarget recorded_target(const pagecurl_target *t)
{
    BookTarget o = {.image = t->image,
                    .view = t->view,
                    .format = t->format,
                    .size = viewport_of(t),
                    .offset = viewport_offset(t),
                    .layout = t->layout,
                    .final_layout = t->final_layout,
                    .src_stage = t->src_stage,
                    .src_access = t->src_access,
                    .keep = t->keep,
                    .in_pass = t->in_pass,
                    .generation = t->generation,
                    .background_set = t->background_set};
    memcpy(o.background, t->background, sizeof o.background);
    return o;
}

/* Whether the book can draw frames of `kind` and `size`: a size the device allows, and the kind
 * of the book's first frames. */
static bool drawable(const BookOpen *b, BookViewKind kind, VkExtent2D size, const char *what,
                     pagecurl_error *err)
{
    uint32_t side = b->gpu->props.limits.maxImageDimension2D;
    if (!size.width || !size.height || size.width > side || size.height > side) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "a %s of %ux%u: 1 to %u pixels a side", what,
                      size.width, size.height, side);
        return false;
    }
    if (b->view_made && b->view.kind != kind) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "this book draws %s",
                      kind == BOOK_VIEW_HOSTED
                          ? "its own frames (pagecurl_book_render), not the host's"
                          : "into the host's frames, not its own");
        return false;
    }
    return true;
}

/* Whether the book can draw into `t`: a viewport within the image, and a view only where the
 * book draws at the host's samples in its format. */
static bool target_valid(const BookOpen *b, const pagecurl_target *t, pagecurl_error *err)
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_target: %s", bad);
    return !bad;
}

bool pagecurl_book_update(pagecurl_book *b, double time, const pagecurl_target *target,
                          pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    if (!b || !target || !isfinite(time)) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_update: %s",
                      !b        ? "no book"
                      : !target ? "no target"
                                : "a time that is no number of seconds");
        return false;
    }
    if (!api_error_sized(target->size, offsetof(pagecurl_target, format), "pagecurl_target", err))
        return false;
    pagecurl_target t = target_of(target);
    VkExtent2D size = viewport_of(&t);
    if (!drawable(b->open, BOOK_VIEW_HOSTED, size, "viewport", err) ||
        !target_valid(b->open, &t, err))
        return false;
    BookViewTarget how = t.in_pass                  ? BOOK_VIEW_TARGET_PASS
                         : t.view != VK_NULL_HANDLE ? BOOK_VIEW_TARGET_DIRECT
                                                    : BOOK_VIEW_TARGET_COPY;
    GpuError gerr = {0};
    if (!book_open_update(b->open, time, how, size, depth_extent(&t), &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "%s: %s", call,
                      !b     ? "no book"
                      : !cmd ? "no command buffer"
                             : "no target");
        return false;
    }
    if (!api_error_sized(target->size, offsetof(pagecurl_target, format), "pagecurl_target", err))
        return false;
    *t = target_of(target);
    return true;
}

/* A second target of the frame recorded for `slot` (a thumbnail, a minimap): that frame's picture
 * scaled into its viewport, from the book's own image. */
static bool record_copy(BookOpen *b, VkCommandBuffer cmd, uint32_t slot, const pagecurl_target *t,
                        pagecurl_error *err)
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_record: a viewport of %ux%u: %s",
                      size.width, size.height, bad);
        return false;
    }
    BookTarget to = recorded_target(t);
    book_open_record_copy(b, cmd, &to);
    return true;
}

bool pagecurl_book_record(pagecurl_book *book, VkCommandBuffer cmd, uint32_t slot,
                          const pagecurl_target *target, pagecurl_error *err)
{
    pagecurl_target t;
    if (!frame_args(book, cmd, target, "pagecurl_book_record", &t, err))
        return false;
    BookOpen *b = book->open;
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_record: %s", bad);
        return false;
    }
    if (!target_valid(b, &t, err))
        return false;
    if (size.width != b->width || size.height != b->height)
        return record_copy(b, cmd, slot, &t, err);
    if (direct != b->view.direct || t.in_pass != b->view.in_pass ||
        (direct && (corner.width != b->view.direct_extent.width ||
                    corner.height != b->view.direct_extent.height))) {
        api_error_set(
            err, PAGECURL_ERROR_USAGE,
            "pagecurl_book_record: the target is not as the last pagecurl_book_update was "
            "given it (%s)",
            direct != b->view.direct       ? "a view, or none"
            : t.in_pass != b->view.in_pass ? "in_pass, or not"
                                           : "its viewport's place");
        return false;
    }
    BookTarget to = recorded_target(&t);
    GpuError gerr = {0};
    if (!book_open_record(b, cmd, slot, &to, &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
    return true;
}

bool pagecurl_book_draw(pagecurl_book *book, VkCommandBuffer cmd, uint32_t slot,
                        const pagecurl_target *target, pagecurl_error *err)
{
    pagecurl_target t;
    if (!frame_args(book, cmd, target, "pagecurl_book_draw", &t, err))
        return false;
    BookOpen *b = book->open;
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_draw: %s", bad);
        return false;
    }
    GpuError gerr = {0};
    if (!book_open_draw(b, cmd, slot, &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
    return true;
}

bool pagecurl_book_render(pagecurl_book *book, double time, const pagecurl_render_desc *desc,
                          uint8_t *rgba, pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    if (!book || !desc || !isfinite(time)) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_render: %s",
                      !book   ? "no book"
                      : !desc ? "no description"
                              : "a time that is no number of seconds");
        return false;
    }
    if (!api_error_sized(desc->size, sizeof *desc, "pagecurl_render_desc", err))
        return false;
    BookOpen *b = book->open;
    VkExtent2D size = {desc->width, desc->height};
    if (!drawable(b, BOOK_VIEW_OFFSCREEN, size, "picture", err))
        return false;
    if (b->view_made && (size.width != b->width || size.height != b->height)) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "a picture of %ux%u: this book draws %ux%u",
                      size.width, size.height, b->width, b->height);
        return false;
    }
    if (desc->read_leaf && !b->leaf.desc.readback) {
        api_error_set(err, PAGECURL_ERROR_USAGE,
                      "read_leaf: the book was made without leaf_readback");
        return false;
    }
    GpuError gerr = {0};
    if (!book_open_render(b, time, size, rgba, desc->read_leaf, &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
    return true;
}

uint32_t pagecurl_book_head_row(const pagecurl_book *b)
{
    if (!b)
        return 0;
    return book_open_head_row(b->open);
}

bool pagecurl_book_set_lead(pagecurl_book *b, double seconds)
{
    if (!b)
        return false;
    if (!(seconds >= 0.0 && seconds <= 0.1))
        return false;
    book_open_set_lead(b->open, seconds);
    return true;
}

bool pagecurl_book_hold_detail(pagecurl_book *b, double seconds)
{
    if (!b)
        return false;
    if (!(seconds >= 0.0 && seconds <= 1.0))
        return false;
    book_open_hold_detail(b->open, seconds);
    return true;
}

bool pagecurl_book_read_leaf(pagecurl_book *b)
{
    if (!b)
        return false;
    return book_open_read_leaf(b->open);
}

bool pagecurl_book_frame_times(const pagecurl_book *b, pagecurl_frame_times *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    if (!b->open->times_valid)
        return false;
    const BookViewTimes *times = &b->open->times;
    pagecurl_frame_times t = {.size = size, .frame = times->frame};
    for (int s = 0; s < GPU_STAGE_COUNT && t.stage_count < PAGECURL_MAX_STAGES; s++)
        if (times->ran[s]) {
            t.names[t.stage_count] = gpu_stage_name(s);
            t.ms[t.stage_count++] = times->ms[s];
            t.total_ms += times->ms[s];
        }
    memcpy(out, &t, size < sizeof t ? size : sizeof t);
    return true;
}

_Static_assert(PC_VERTEX_FLOATS == 8, "pagecurl_leaf's vertices: position, normal, uv");

bool pagecurl_book_leaf(const pagecurl_book *b, pagecurl_leaf *out)
{
    if (!b || !out)
        return false;
    uint32_t size = out->size;
    const float *vertices = book_open_leaf_vertices(b->open);
    if (!vertices)
        return false;
    const MeshGrid *g = &b->open->leaf.grid;
    pagecurl_leaf leaf = {.size = size,
                          .columns = g->nx,
                          .rows = g->ny,
                          .width = g->width,
                          .height = g->height,
                          .vertex_count = (uint32_t)g->vertex_count,
                          .triangle_count = (uint32_t)g->triangle_count,
                          .vertices = vertices,
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
    book_open_set_hold_radius(b->open, radius);
    return true;
}

/* --- pages that change ----------------------------------------------------------------------- */

bool pagecurl_book_invalidate(pagecurl_book *b, int page)
{
    if (!b || page < PAGECURL_ALL_PAGES || page > b->open->pages)
        return false;
    book_open_invalidate(b->open, page);
    return true;
}

bool pagecurl_book_set_provider(pagecurl_book *b, const pagecurl_page_provider *provider,
                                pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    const char *bad = !b || !provider            ? "no book or no provider"
                      : !b->open->provider.pages ? "the book's pages are not a host's (a path's, "
                                                   "or the built-in book's)"
                      : !facade_source(b)        ? "the book's pages could not be streamed"
                      : provider->page_count < 1 || !provider->draw_page
                          ? "a provider needs at least one page and a draw_page"
                          : NULL;
    if (bad) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_set_provider: %s", bad);
        return false;
    }
    PageProvider p = provider_of(provider);
    GpuError gerr = {0};
    if (!book_open_set_provider(b->open, &p, &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
    return true;
}

bool pagecurl_book_relayout(pagecurl_book *b, float font_size, float page_aspect,
                            pagecurl_error *err)
{
    if (err)
        *err = (pagecurl_error){0};
    const char *bad = !facade_source(b) ? "no book, or its pages could not be streamed"
                      : font_size != 0.0f && !(font_size >= PAGES_BOOK_FONT_MIN &&
                                               font_size <= PAGES_BOOK_FONT_MAX)
                          ? "font_size: 6 to 48 points (0: as now)"
                      : page_aspect != 0.0f && !(page_aspect > 0.0f && isfinite(page_aspect))
                          ? "page_aspect: a page's height / width (0: as now)"
                          : NULL;
    if (bad) {
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_relayout: %s", bad);
        return false;
    }
    GpuError gerr = {0};
    if (!book_open_relayout(b->open, font_size, page_aspect, &gerr)) {
        api_error_from_gpu(err, &gerr);
        return false;
    }
    return true;
}

float pagecurl_book_font_size(const pagecurl_book *b)
{
    const PagesBookSource *src = facade_source(b);
    return src ? pages_book_source_layout(src).font_size : 0.0f;
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
        api_error_set(err, PAGECURL_ERROR_USAGE, "pagecurl_book_set_page_count: no book");
        return false;
    }
    const PageProvider *now = &b->open->provider;
    pagecurl_page_provider p = {
        .user = now->user, .page_count = count, .page_size = now->size, .draw_page = now->draw};
    return pagecurl_book_set_provider(b, &p, err);
}

_Static_assert(1 + MESH_FLIP_QUEUE_MAX == 4, "pagecurl_book_turn_to's header says 4 spreads");

bool pagecurl_book_turn_to(pagecurl_book *b, int page, double time)
{
    if (!b || page < 1 || page > b->open->pages || !isfinite(time))
        return false;
    return book_open_turn_to(b->open, page, time);
}
