/* SPDX-License-Identifier: MIT */
#include "window.h"
#include "say.h"

#include "../book/pagecurl_program.h"

#include "frame_budget.h"
#include "frame_log.h"
#include "headless.h"
#include "hud.h"
#include "library_book.h"
#include "kept_notebook.h"
#include "text_select.h"
#include "library_notebook.h"
#include "overlay.h"
#include "place.h"
#include "screenshot.h"
#include "search_field.h"
#include "shm_present.h"
#include "link_click.h"
#include "signals.h"
#include "swapchain.h"
#include "upscale.h"
#include "where.h"
#include "window_input.h"
#include "x11.h"

#include <SDL.h>
#include <SDL_vulkan.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(APP_HUD_VERTEX_BYTES == APP_OVERLAY_VERTEX_BYTES,
               "the HUD's quads are the overlay's");

bool app_window_open(const AppOptions *opts, AppWindow *out, char *message, size_t size)
{
    *out = (AppWindow){0};
    out->fault_acquire = opts->faults.acquire;
    out->fault_submit = opts->faults.library.submit_after;
    /* app/signals.c's handlers stop the loop and save; SDL's would only queue an SDL_QUIT */
    SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(message, size, "no display (%s)", SDL_GetError());
        return false;
    }
    out->sdl_started = true;
    app_x11_watch(SDL_GetCurrentVideoDriver()); /* a lost display ends the run, not Xlib */
    app_x11_input_times(SDL_GetCurrentVideoDriver());
    out->window = SDL_CreateWindow("pagecurl", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   (int)opts->width, (int)opts->height,
                                   SDL_WINDOW_VULKAN | SDL_WINDOW_RESIZABLE |
                                       SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_HIDDEN);
    /* the book's backdrop as the library clears to it, in sRGB: the window shows it, not black,
     * from when it is mapped until its first frame (the device and the book take a second) */
    app_x11_background(out->window, 60, 63, 72);
    unsigned count = APP_WINDOW_MAX_EXTENSIONS;
    if (!out->window || !SDL_Vulkan_GetInstanceExtensions(out->window, &count, out->extensions)) {
        snprintf(message, size, "no Vulkan window (%s)", SDL_GetError());
        app_window_close(out);
        return false;
    }
    out->extension_count = count;
    return true;
}

void app_window_close(AppWindow *win)
{
    if (win->window)
        SDL_DestroyWindow(win->window);
    if (win->sdl_started)
        SDL_Quit();
    *win = (AppWindow){0};
}

/* pagecurl_context_desc.create_surface, with the AppWindow as user pointer. */
static bool create_surface(void *user, VkInstance instance, VkSurfaceKHR *out)
{
    AppWindow *win = user;
    return SDL_Vulkan_CreateSurface(win->window, instance, out) == SDL_TRUE;
}

/* The window's size in pixels (not points: HiDPI-correct); 0 x 0 while minimised. */
static AppSessionSize drawable_size(const AppWindow *win)
{
    int w = 0, h = 0;
    SDL_Vulkan_GetDrawableSize(win->window, &w, &h);
    if (SDL_GetWindowFlags(win->window) & SDL_WINDOW_MINIMIZED)
        w = h = 0;
    return (AppSessionSize){(uint32_t)w, (uint32_t)h};
}

/* Frames whose motion is remembered until their GPU times come back: the times of a frame arrive
 * once its slot is recorded again, two frames later. */
#define WINDOW_MOVING_RING (2 * APP_VK_FRAMES)

/* The frames at the start that pose the book as a turn's start (frame's `warm`): one builds
 * every draw state of a turn (a first key turn's first frame took 30-39 ms after one or two of
 * them, 137-165 without, on lavapipe at 1280x720), and each delays the sharp print at rest. */
#define WINDOW_WARM_FRAMES 1u
/* The frame after it, the first with the page at rest, waits this long at most for the page's
 * print at the scale shown (its detail), so that the warm-up's picture becomes the sharp one in
 * one frame, not by a soft frame at rest first (a full frame: 0.1-0.2 s on lavapipe at
 * 1920x1080). A page slower than that shows soft until it is drawn. */
#define WINDOW_OPEN_DETAIL_HOLD 0.3

/* A test hook, not a user option: with --quality auto, start at the high tier on any device (a
 * GPU's start, on lavapipe) and take this many milliseconds as the frame budget, so that the
 * window's step down can be tested. */
#define WINDOW_STEP_BUDGET_ENV "PAGECURL_STEP_BUDGET_MS"

/* A test hook, not a user option: every frame drawn takes this many milliseconds longer (0 to
 * 1000), as on a device that draws a few frames a second, so that input at a slow frame rate
 * (a flick's speed) can be tested on any machine. */
#define WINDOW_FRAME_SLEEP_ENV "PAGECURL_FRAME_SLEEP_MS"

/* A save says so in the window for this long (F12/P's file, a notebook that failed). */
#define WINDOW_TOAST_SECONDS 2.5

/* A step of the zoom (a key, a double-click, a wheel's notch) waits a moment for the pages in
 * view to be drawn at the density it shows, so that its first frame is sharp: on a slow device
 * the magnified frame and then the sharp one would take two frames' time. A page slower to draw
 * than the wait shows magnified until it is drawn. */
#define WINDOW_DETAIL_HOLD 0.08
/* A test hook, not a user option: the step's wait in seconds (0 to 1), so that a test of the
 * first frame's sharpness holds on a busy machine, where the drawing takes longer than the wait. */
#define WINDOW_DETAIL_HOLD_ENV "PAGECURL_DETAIL_HOLD"

/* A run: the library's context and book, the window's Vulkan, and what the loop keeps. */
/* The HUD's panel lies this many pixels from the window's top left corner. */
#define WINDOW_HUD_MARGIN 8.0f

typedef struct Window {
    AppWindow *win;
    AppOptions *opts;
    const AppTrace *replay; /* NULL: the reader's own session */
    pagecurl_context *ctx;
    pagecurl_book *book;
    bool straight; /* the book draws straight into the swapchain's images (target_samples 1) */
    AppLibraryNotebook notebook;
    AppKeptNotebook kept;    /* the notebook where --notebook names none (app/kept_notebook.h) */
    AppPlace place;          /* where the reader is, kept for the next run (app/place.h) */
    bool place_view;         /* the book opened at the place kept: its view comes back too */
    bool view_restored;      /* ... in the first frame */
    bool toast_new;          /* a screenshot's note set after its frame: a frame to show it */
    AppTraceRecorder record; /* --record's file, written as the input comes */
    AppVk vk;
    AppSwapchain sc;
    AppShmPresent *shm; /* the frames shown through X's shared memory (sc.own), else NULL */
    /* with shm, the input time each slot's frame answers (0: none), counted once it is shown */
    uint64_t answers[APP_VK_FRAMES];
    AppUpscale upscale; /* the book drawn smaller than the window, scaled up to it */
    /* counts the swapchain's remakes (and the image scaled up from, remade with it): the book
     * keeps its commands for the images it draws straight into while this holds
     * (pagecurl_target.generation) */
    uint64_t images_made;
    uint32_t book_side;   /* the largest the book is drawn a side: its images, framebuffers */
    VkExtent2D hud_most;  /* the largest framebuffer: the HUD's pass within it */
    AppSessionSize drawn; /* the book's last viewport: input's pixels while none is drawn */
    bool said_large;      /* the window too large to draw in has been said */
    AppOverlay overlay;
    AppScreenshot shot;
    AppHud hud;
    char device[256];
    char message[512]; /* a failure's line */
    bool stale;        /* the swapchain must be rebuilt before the next frame */
    bool redo;         /* the last frame was given up or not shown (out of date): draw it again */
    uint64_t acquires, submits; /* so far, for PAGECURL_FAULT */
    bool faulting;              /* acquires report out of date until the swapchain is rebuilt */
    uint64_t recorded;          /* frames recorded: the book numbers its frames so */
    uint64_t shown;             /* frames the session showed (not the exit files' frame) */
    uint64_t timed;             /* the frame whose times the HUD shows last, + 1 */
    AppFrameBudget budget;
    int refresh_hz;          /* the display's, 0 when it does not say */
    bool step_due;           /* the budget was missed: step down before the next frame */
    bool forced;             /* the budget is the test hook's... */
    double forced_ms;        /* ...this many milliseconds */
    double detail_hold;      /* a step of the zoom's wait for its pages (WINDOW_DETAIL_HOLD) */
    uint32_t frame_sleep_ms; /* WINDOW_FRAME_SLEEP_ENV */
    /* whether the leaf moved in each of the last frames recorded, by frame number */
    bool moving[WINDOW_MOVING_RING];
    char title[APP_WHERE_MAX + 64]; /* the window's, as last set */
    double toast_until;             /* hud.toast shows until then (the session's clock) */
    bool notebook_failed;           /* the toast has said the notebook could not be saved */
    AppPageField field;             /* G: go to a page */
    AppSearchField search;          /* / or Ctrl+F: find in the book's text */
    AppTextSelect select;           /* Shift+drag: select text; Ctrl+C copies it */
    bool match_due;                 /* a match gone to: enlarged once shown, where too small */
    bool match_fitted;              /* its page was out of a zoomed view: fitted to find it */
    uint64_t match_frame;           /* the frames recorded when it was gone to */
    bool search_skip;               /* the / that opened the search field is no text of it */
    AppLinkClick links;             /* a click on a link follows it; the hand over one */
    bool field_skip;                /* the G (or T) that opened the field is no text of it */
    SDL_Keycode field_opener;       /* that key */
    float hud_scale;                /* the HUD's enlargement (draw_hud), 0: not chosen yet */
    bool book_still;                /* the book neither turns nor moves (the loop's state) */
    /* the window took another size at resized_at (the session's clock): a reflowable book is
     * laid out again to its shape once it has kept it WINDOW_SHAPE_SETTLE */
    bool shape_due;
    double resized_at;
    AppFrameLog frame_log; /* PAGECURL_FRAME_LOG's frame times (app/frame_log.h) */
} Window;

/* The pixels the book's input is in: its viewport's, the window's own or, where the window is
 * larger than the book is drawn, the smaller image's scaled up to it (app/upscale.h); while the
 * window is too large to draw at all, the last viewport drawn. 0 x 0 while minimised. */
static AppSessionSize input_size(const Window *w)
{
    AppSessionSize s = drawable_size(w->win);
    if (!s.width || !s.height)
        return s;
    if (w->sc.too_large)
        return w->drawn;
    VkExtent2D d = app_upscale_size((VkExtent2D){s.width, s.height}, w->book_side);
    return (AppSessionSize){d.width, d.height};
}

/* The book's events since the last frame: errors said, the ink's changes saved; whether a page
 * (or a sharper drawing of one) came in, which shows in this frame. */
static bool drain_events(Window *w)
{
    bool ready = false, inked = false;
    pagecurl_event e;
    while (pagecurl_book_poll_event(w->book, &e)) {
        if (e.type == PAGECURL_EVENT_ERROR)
            app_say(stderr, "warning: %s", e.message);
        ready = ready || e.type == PAGECURL_EVENT_PAGE_READY;
        inked = inked || e.type == PAGECURL_EVENT_INK_CHANGED;
    }
    if (inked && !w->replay)
        app_kept_notebook_inked(&w->kept, &w->notebook, w->book);
    if (inked)
        app_library_notebook_keep(&w->notebook, w->book, false);
    return ready;
}

/* A finished frame's stage times: to the HUD, in the stages' order, and their sum (the frame's
 * GPU time) to the budget when the leaf moved in it. */
static void frame_times(Window *w)
{
    pagecurl_frame_times t = {.size = sizeof t};
    if (!pagecurl_book_frame_times(w->book, &t) || t.frame + 1 == w->timed)
        return;
    w->timed = t.frame + 1;
    app_hud_stages(&w->hud, t.ms, t.names, t.stage_count);
    if (app_frame_budget_add(&w->budget, t.total_ms, w->moving[t.frame % WINDOW_MOVING_RING]))
        w->step_due = true;
}

static const char *tier_name(pagecurl_quality q)
{
    return q == PAGECURL_QUALITY_LOW ? "low" : q == PAGECURL_QUALITY_HIGH ? "high" : "reference";
}

/* The low tier from the next frame on, once the budget was missed: the book remakes what the
 * tier draws with; the pages, the ink and the turn stay. Said once, with why. */
static void step_down(Window *w)
{
    w->step_due = false;
    pagecurl_book_set_quality(w->book, PAGECURL_QUALITY_LOW);
    w->hud.quality = tier_name(PAGECURL_QUALITY_LOW);
    char hz[32];
    snprintf(hz, sizeof hz, "%d Hz%s",
             w->refresh_hz > 0 ? w->refresh_hz : APP_FRAME_BUDGET_DEFAULT_HZ,
             w->refresh_hz > 0 ? "" : ", assumed");
    /* the HUD's line short enough for a small window; stderr's says where the budget came from */
    snprintf(w->hud.note, sizeof w->hud.note,
             "stepped down: GPU %.1f ms a moving frame (median of %d) > %.3g ms budget (%s)",
             w->budget.median_ms, APP_FRAME_BUDGET_FRAMES, w->budget.budget_ms,
             w->forced ? "test" : hz);
    fprintf(stderr,
            "pagecurl: stepped down to low quality: the GPU took %.1f ms a moving frame (median "
            "of the last %d), over the %.3g ms budget (%s)\n",
            w->budget.median_ms, APP_FRAME_BUDGET_FRAMES, w->budget.budget_ms,
            w->forced ? "set by " WINDOW_STEP_BUDGET_ENV : hz);
}

/* The spread (pages 2s | 2s + 1) whose pages `left`, `right` are (either side, 0: none). Neither:
 * the spread past the last page, where a book of an odd length lies closed on its last leaf's
 * blank back (the spread before the first has page 1). */
static int spread_of(int pages, int left, int right)
{
    return left || right ? (left > right ? left : right) / 2 : pages / 2 + 1;
}

/* Where the book is heading: the spread a turn's leaf and the turns queued behind it land on, so
 * that the title answers a key at once and, thumbing through, counts the presses rather than
 * lagging the leaves in the air; a held leaf's end is the hand's, so while one is held (and at
 * rest) the spread shown. */
static int heading_spread(const pagecurl_book *book, const pagecurl_state *s)
{
    int pages = pagecurl_book_page_count(book);
    return s->held ? spread_of(pages, s->left, s->right)
                   : spread_of(pages, s->heading_left, s->heading_right);
}

/* The reader's place: the page of the spread the book heads for that a notebook and the place
 * kept name (its left-hand page; the first page before it, the last past the end), or the one
 * page shown. */
static int place_page(const pagecurl_book *book, const pagecurl_state *s)
{
    if (s->single && s->page > 0) /* one page shown: that page */
        return s->page;
    int pages = pagecurl_book_page_count(book), heading = heading_spread(book, s);
    return heading > 0 ? (2 * heading < pages ? 2 * heading : pages) : 1;
}

/* The identity a book's place is kept under: a reflowable book's text's, whatever its layout
 * (the place says where in the text it was). */
static void place_open(Window *w)
{
    pagecurl_book_identity id = {.size = sizeof id};
    pagecurl_book_identity_of(w->book, &id);
    app_place_open(&w->place, pagecurl_book_font_size(w->book) > 0.0f ? id.text_id : id.id,
                   pagecurl_book_page_count(w->book));
}

/* The place kept (app/place.h) as the reader's page is now; a failed write said once. A
 * reflowable book's last place (the run's end, before a re-layout) says where it is in the text,
 * so that another window shape or type size finds it (asked of the page helper: a few ms). */
static void keep_place(Window *w, bool final)
{
    char message[4608];
    if (final && w->book && pagecurl_book_font_size(w->book) > 0.0f && w->place.path[0])
        pagecurl_book_text_place(w->book, w->place.at, w->place.text, sizeof w->place.text);
    else if (w->place.at != w->place.saved)
        w->place.text[0] = '\0'; /* the text's place is the page's it was asked for */
    if (!app_place_keep(&w->place, final, message, sizeof message))
        app_say(stderr, "note: the place in the book is not kept for the next run: %s", message);
}

/* The view kept with the place (app/place.h): how the book is zoomed in at rest; while a turn or
 * an ease moves it, what it was before. */
static void keep_view(Window *w, const pagecurl_state *s)
{
    pagecurl_zoom z = {.size = sizeof z};
    pagecurl_book_get_zoom(w->book, &z);
    AppSessionSize in = input_size(w);
    if (s->turning || s->moving || z.moving || z.returning || !in.width || !in.height)
        return;
    if (z.fit == PAGECURL_FIT_WIDTH)
        w->place.view = (AppPlaceView){.fit = APP_PLACE_WIDTH, .page = z.page, .down = z.down};
    else if (z.zoom > 1.0001f)
        w->place.view = (AppPlaceView){.fit = APP_PLACE_ZOOM,
                                       .zoom = z.zoom,
                                       .x = z.x / (float)in.width,
                                       .y = z.y / (float)in.height};
    else
        w->place.view = (AppPlaceView){0};
}

/* The view kept with the place the book opened at, shown: whether it changed the view. */
/* The book reopened at the place kept with a view of it to come back (not the fitted one). */
static bool view_kept(const Window *w)
{
    return w->place_view && w->place.read_view.fit != APP_PLACE_FITTED;
}

static bool restore_view(Window *w, double now)
{
    const AppPlaceView *v = &w->place.read_view;
    AppSessionSize in = input_size(w);
    if (v->fit == APP_PLACE_FITTED || !in.width || !in.height)
        return false;
    pagecurl_zoom z = {.size = sizeof z,
                       .zoom = v->fit == APP_PLACE_ZOOM ? v->zoom : 1.0f,
                       .x = v->x * (float)in.width,
                       .y = v->y * (float)in.height,
                       .fit = v->fit == APP_PLACE_WIDTH ? PAGECURL_FIT_WIDTH : PAGECURL_FIT_PAGE,
                       .page = v->page,
                       .down = v->down};
    return pagecurl_book_set_view(w->book, &z, now);
}

/* The title and the HUD say where the reader is and which mode the pointer is in: "pagecurl:
 * 4-5 / 16", with ", ink (I: turn pages)" in ink mode. SDL is told only when the title changes;
 * whether it did (the HUD then shows it only in a frame drawn after: a resize into one page's
 * layout changes the line a frame after the one drawn for it). */
static bool show_where(Window *w, const AppSession *session, const pagecurl_state *s)
{
    app_where_line(w->book, heading_spread(w->book, s), s->single ? s->page : 0, w->hud.where,
                   sizeof w->hud.where);
    w->hud.ink_mode = session->ink_mode;
    w->hud.contents = pagecurl_book_outline_count(w->book) > 0;
    char title[sizeof w->title];
    snprintf(title, sizeof title, "pagecurl: %s%s", w->hud.where,
             session->ink_mode ? ", ink (I: turn pages)" : "");
    if (!strcmp(title, w->title))
        return false;
    SDL_SetWindowTitle(w->win->window, title);
    memcpy(w->title, title, sizeof title);
    return true;
}

/* An open field's first look at event `e`: whether it takes it, with the text typed in *text
 * (NULL for none) or the key pressed in *key (0 for none). The text of the key that opened the
 * field (one of `keys`, pressed as `opener`), which SDL sends after that key, is not typed:
 * `skip` says the field has just opened, and anything else ends it. F11 and F12 pass on:
 * fullscreen and the screenshot still work. */
static bool field_takes(const SDL_Event *e, bool *skip, const char *keys, SDL_Keycode opener,
                        const char **text, SDL_Keycode *key)
{
    *text = NULL, *key = 0;
    if (e->type == SDL_TEXTINPUT) {
        const char *t = e->text.text;
        bool typed = !(*skip && t[0] && !t[1] && strchr(keys, t[0]));
        *skip = false;
        *text = typed ? t : NULL;
        return true;
    }
    if (e->type != SDL_KEYDOWN)
        return false;
    *key = e->key.keysym.sym;
    if (*key == SDLK_F11 || *key == SDLK_F12)
        return false;
    if (*key != opener)
        *skip = false;
    return true;
}

/* Where a mouse button's event `e` lies in the swapchain's pixels, the HUD's. */
static void hud_pixel(const Window *w, const SDL_Event *e, double *x, double *y)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(w->win->window, &ww, &wh); /* mouse coordinates are in window points */
    *x = e->button.x * (double)w->sc.extent.width / (ww > 0 ? ww : 1);
    *y = e->button.y * (double)w->sc.extent.height / (wh > 0 ? wh : 1);
}

/* Whether `e` is a left click on the HUD's line of where the reader is. */
static bool where_clicked(const Window *w, const SDL_Event *e)
{
    /* the line offers the contents only where the book has some */
    if (e->type != SDL_MOUSEBUTTONDOWN || e->button.button != SDL_BUTTON_LEFT || !w->hud.contents)
        return false;
    double x, y;
    hud_pixel(w, e, &x, &y);
    return app_hud_on_where(&w->hud, w->hud_scale > 0.0f ? w->hud_scale : 1.0f, WINDOW_HUD_MARGIN,
                            x, y);
}

/* A click on the page field's panel: on a row of the contents, that entry's page opened, as its
 * Enter would (the field then closes); anywhere else in the panel nothing. Whether it took the
 * click (a click elsewhere goes to the book). */
static bool contents_click(Window *w, AppSession *session, const SDL_Event *e, double now)
{
    double x, y;
    hud_pixel(w, e, &x, &y);
    int line = app_hud_field_line(&w->hud, w->hud_scale > 0.0f ? w->hud_scale : 1.0f,
                                  WINDOW_HUD_MARGIN, x, y);
    if (line < 0)
        return false;
    if (app_page_field_click(&w->field, w->book, line) && w->field.page) {
        pagecurl_input_event go = {.time = now,
                                   .device = PAGECURL_INPUT_KEY,
                                   .action = PAGECURL_INPUT_GOTO,
                                   .page = w->field.page};
        app_page_field_close(&w->field);
        if (!session->replay) {
            session->input_ms = e->button.timestamp ? e->button.timestamp : SDL_GetTicks64();
            app_session_apply(input_size(w), session, &go);
        }
    }
    return true;
}

/* The page field's share of the events while it is open: text, Backspace, Tab, Enter (the book
 * opens at the page, as a trace's goto), Escape (closes it); it takes every key. False for an
 * event that is not its own. */
static bool field_event(const SDL_Event *e, Window *w, AppSession *session, double now)
{
    AppPageField *f = &w->field;
    if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT)
        return contents_click(w, session, e, now);
    const char *text;
    SDL_Keycode key;
    if (!field_takes(e, &w->field_skip, "gGtT", w->field_opener, &text, &key))
        return false;
    if (text) {
        app_page_field_type(f, w->book, text);
    } else if (key == SDLK_ESCAPE) {
        app_page_field_close(f);
    } else if (key == SDLK_BACKSPACE) {
        app_page_field_erase(f, w->book);
    } else if (key == SDLK_TAB) {
        app_page_field_next(f, w->book);
    } else if (key == SDLK_DOWN || key == SDLK_UP) {
        app_page_field_move(f, w->book, key == SDLK_DOWN ? 1 : -1);
    } else if (key == SDLK_LEFT || key == SDLK_RIGHT) {
        app_page_field_fold(f, w->book, key == SDLK_RIGHT);
    } else if (key == SDLK_PAGEDOWN || key == SDLK_PAGEUP) {
        app_page_field_move(f, w->book,
                            key == SDLK_PAGEDOWN ? APP_PAGE_FIELD_ROWS : -APP_PAGE_FIELD_ROWS);
    } else if ((key == SDLK_RETURN || key == SDLK_KP_ENTER) && f->page) {
        pagecurl_input_event go = {.time = now,
                                   .device = PAGECURL_INPUT_KEY,
                                   .action = PAGECURL_INPUT_GOTO,
                                   .page = f->page};
        app_page_field_close(f);
        if (!session->replay) {
            /* an input the summary measures, as a key that turns a page is */
            session->input_ms = e->key.timestamp ? e->key.timestamp : SDL_GetTicks64();
            app_session_apply(input_size(w), session, &go);
        }
    }
    return true;
}

/* To the page of a match (the search field's Enter, n, N), as a trace's goto. */
static void go_to_page(Window *w, AppSession *session, const SDL_Event *e, double now, int page)
{
    if (!page || session->replay)
        return;
    pagecurl_input_event go = {
        .time = now, .device = PAGECURL_INPUT_KEY, .action = PAGECURL_INPUT_GOTO, .page = page};
    session->input_ms = e && e->key.timestamp ? e->key.timestamp : SDL_GetTicks64();
    app_session_apply(input_size(w), session, &go);
}

static void go_to_match(Window *w, AppSession *session, const SDL_Event *e, double now,
                        bool forward)
{
    int page = app_search_field_step(&w->search, w->book, forward);
    go_to_page(w, session, e, now, page);
    w->match_due = page && !session->replay, w->match_frame = w->recorded;
    w->match_fitted = false;
}

/* The match gone to, once shown at rest: enlarged where its line is too small to read
 * (app_search_field_place), about its middle, as a zoom key would, then moved towards the view's
 * middle; moved there where it reads but lies outside a zoomed view. Where its page is not under
 * the view at all (zoomed into the spread's other page) the view is fitted first, and the match
 * placed once that is at rest. */
static void enlarge_match(Window *w, AppSession *session, const pagecurl_state *s, double now)
{
    if (!w->match_due || w->recorded < w->match_frame + 1 || s->turning || s->moving)
        return;
    w->match_due = false;
    AppSessionSize in = input_size(w);
    float factor;
    double x, y;
    if (!in.width || !in.height)
        return;
    if (!app_search_field_place(&w->search, w->book, in.width, in.height, &factor, &x, &y)) {
        if (!w->match_fitted) { /* once: a page that is not in view after it is not sought */
            pagecurl_input_event fit = {
                .time = now, .device = PAGECURL_INPUT_ZOOM, .action = PAGECURL_INPUT_FIT};
            app_session_apply(in, session, &fit);
            w->match_fitted = w->match_due = true, w->match_frame = w->recorded;
        }
        return;
    }
    w->match_fitted = false;
    float fx = (float)(x / in.width), fy = (float)(y / in.height);
    bool inside = fx >= 0.0f && fx < 1.0f && fy >= 0.0f && fy < 1.0f;
    if (inside && factor <= 1.0f)
        return; /* in view and readable: the view stays */
    if (inside) {
        pagecurl_input_event zoom = {.time = now,
                                     .device = PAGECURL_INPUT_ZOOM,
                                     .action = PAGECURL_INPUT_BY,
                                     .amount = factor,
                                     .x = fx,
                                     .y = fy};
        app_session_apply(in, session, &zoom);
    }
    /* towards the middle (as far as the pan's limits let it), clear of the field's panel */
    pagecurl_input_event pan = {.time = now,
                                .device = PAGECURL_INPUT_ZOOM,
                                .action = PAGECURL_INPUT_PAN,
                                .x = 0.5f - fx,
                                .y = 0.5f - fy};
    app_session_apply(in, session, &pan);
    if (!inside && factor > 1.0f) { /* then enlarged about it, there */
        pagecurl_input_event zoom = {.time = now,
                                     .device = PAGECURL_INPUT_ZOOM,
                                     .action = PAGECURL_INPUT_BY,
                                     .amount = factor,
                                     .x = 0.5f,
                                     .y = 0.5f};
        app_session_apply(in, session, &zoom);
    }
}

/* The search field's share of the events while it is open: text, Backspace, Enter (the next
 * match; with Shift the previous), Escape (closes it); it takes every key. */
static bool search_event(const SDL_Event *e, Window *w, AppSession *session, double now)
{
    AppSearchField *f = &w->search;
    const char *text;
    SDL_Keycode key;
    if (!field_takes(e, &w->search_skip, "/", SDLK_SLASH, &text, &key))
        return false;
    if (text)
        app_search_field_type(f, w->book, text);
    else if (key == SDLK_ESCAPE)
        app_search_field_close(f);
    else if (key == SDLK_BACKSPACE)
        app_search_field_erase(f, w->book);
    else if (key == SDLK_RETURN || key == SDLK_KP_ENTER)
        go_to_match(w, session, e, now, !(e->key.keysym.mod & KMOD_SHIFT));
    return true;
}

/* Escape, the page field closed: clears a text selection, else hides the HUD, else leaves the zoom
 * (a fit to width, a zoom to come back after a turn) for the fitted view, as `0` does; quits only
 * from the fitted view with nothing open. A replay's window takes no input but this: it quits. */
static bool escape(Window *w, AppSession *session, double now)
{
    if (session->replay)
        return false;
    if (app_text_select_clear(&w->select, w->book))
        return true;
    if (w->hud.shown) {
        w->hud.shown = false;
        return true;
    }
    pagecurl_zoom z = {.size = sizeof z};
    pagecurl_book_get_zoom(w->book, &z);
    if (z.zoom <= 1.0001f && z.fit == PAGECURL_FIT_PAGE && !z.returning && !z.moving)
        return false;
    pagecurl_input_event fit = {
        .time = now, .device = PAGECURL_INPUT_ZOOM, .action = PAGECURL_INPUT_FIT};
    app_session_apply_move(input_size(w), session);
    app_session_apply(input_size(w), session, &fit);
    return true;
}

/* Shift+drag, Shift+double-click and Ctrl+C (app/text_select.h), in the book's input pixels. */
static bool text_select(Window *w, const AppSession *session, const SDL_Event *e, double now)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(w->win->window, &ww, &wh);
    AppSessionSize in = input_size(w);
    char toast[sizeof w->hud.toast] = "";
    bool took = app_text_select_event(
        &w->select, w->book, e, session->mods, (float)in.width / (float)(ww > 0 ? ww : 1),
        (float)in.height / (float)(wh > 0 ? wh : 1), toast, sizeof toast);
    if (toast[0]) {
        memcpy(w->hud.toast, toast, sizeof toast);
        w->toast_until = now + WINDOW_TOAST_SECONDS;
    }
    return took;
}

/* A window resized is held WINDOW_SHAPE_SETTLE before its book is laid out again to its shape:
 * a drag's every step would lay it out again (a third of a second for a novel). */
#define WINDOW_SHAPE_SETTLE 0.5

/* Why a reflowable book is not laid out again now (NULL: it may be). Ink is kept by page number,
 * which a new layout gives other text: a book holding ink, or bound to a notebook named on the
 * command line, is not laid out again. */
static const char *relayout_refused(Window *w)
{
    if (pagecurl_book_font_size(w->book) == 0.0f)
        return "this book's pages are its own (a PDF, XPS, comic or folder of images): its text "
               "cannot be laid out again";
    if (pagecurl_book_stroke_count(w->book, 0) || (w->notebook.notebook.path && !w->kept.path[0]))
        return "not laid out again: ink is kept by page number, and a new layout puts other text "
               "there (--font-size opens the book at another size)";
    return NULL;
}

/* Before a re-layout: the place kept is written as it is, its place in the text with it. */
static void relayout_begin(Window *w)
{
    if (w->place.path[0])
        keep_place(w, true);
}

/* After a re-layout: the HUD says so, a notebook kept for the book is the new layout's own (the
 * book's identity holds its page count) and the place is read again (kept under the text's). */
static void relayout_done(Window *w, const char *what, double now)
{
    w->toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
    snprintf(w->hud.toast, sizeof w->hud.toast, "%s: %d pages", what,
             pagecurl_book_page_count(w->book));
    if (w->kept.path[0] || w->kept.pending) {
        app_library_notebook_close(&w->notebook);
        w->kept = (AppKeptNotebook){0};
        app_kept_notebook_open(&w->kept, &w->notebook, w->book);
    }
    if (w->place.path[0])
        place_open(w);
}

/* Ctrl + = and Ctrl + -: a reflowable book's text a size larger or smaller, laid out again
 * (pagecurl_book_relayout: the reader's words kept in view), said on the HUD either way. */
static void relayout(Window *w, AppSession *session, bool larger, double now)
{
    float was = pagecurl_book_font_size(w->book);
    const char *refused = relayout_refused(w);
    w->toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
    if (refused) {
        snprintf(w->hud.toast, sizeof w->hud.toast, "%s", refused);
        return;
    }
    pagecurl_input_event e = {.time = now,
                              .device = PAGECURL_INPUT_KEY,
                              .action = PAGECURL_INPUT_FONT,
                              .pressure = 1.0f,
                              .amount = pagecurl_font_size_step(was, larger ? 1 : -1)};
    if (e.amount == was) {
        snprintf(w->hud.toast, sizeof w->hud.toast, "the text is at its %s size already, %g pt",
                 larger ? "largest" : "smallest", was);
        return;
    }
    relayout_begin(w);
    app_session_apply(input_size(w), session, &e);
    if (pagecurl_book_font_size(w->book) != e.amount) {
        snprintf(w->hud.toast, sizeof w->hud.toast,
                 "the text could not be laid out again (see the terminal)");
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "text at %g pt", e.amount);
    relayout_done(w, what, now);
}

/* A reflowable book laid out again to the window's shape once a resize has settled: its page the
 * window's half for a spread, all of it for one page, held to a book's (as at open,
 * app_library_book_desc). Not recorded: a replay's window keeps the size it opened at. */
static void relayout_to_window(Window *w, double now)
{
    w->shape_due = false;
    int ww = 0, wh = 0;
    SDL_GetWindowSize(w->win->window, &ww, &wh);
    if (pagecurl_book_font_size(w->book) == 0.0f || ww <= 0 || wh <= 0)
        return;
    AppOptions o = *w->opts;
    o.width = (uint32_t)ww, o.height = (uint32_t)wh;
    float aspect = app_library_book_desc(&o).page_aspect;
    aspect = fminf(fmaxf(aspect, PAGECURL_PAGE_ASPECT_MIN), PAGECURL_PAGE_ASPECT_MAX);
    if (fabsf(aspect - pagecurl_book_page_height(w->book)) < 0.01f)
        return;
    const char *refused = relayout_refused(w);
    w->toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
    if (refused) {
        snprintf(w->hud.toast, sizeof w->hud.toast, "%s", refused);
        return;
    }
    relayout_begin(w);
    if (pagecurl_book_relayout(w->book, 0.0f, aspect, NULL))
        relayout_done(w, "laid out again to the window's shape", now);
    else
        snprintf(w->hud.toast, sizeof w->hud.toast,
                 "the text could not be laid out again (see the terminal)");
}

/* Handles one event; false when the user asked to quit. */
static bool handle_event(const SDL_Event *e, Window *w, AppSession *session, double now)
{
    if (e->type == SDL_QUIT)
        return false;
    app_session_track_mods(session, e);
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_q && (e->key.keysym.mod & KMOD_CTRL))
        return false; /* Ctrl+Q quits whatever is open */
    if (w->field.open && field_event(e, w, session, now)) {
        if (w->field.open)
            app_page_field_text(&w->field, w->book, w->hud.field, sizeof w->hud.field);
        else
            w->hud.field[0] = '\0';
        return true;
    }
    if (w->search.open && search_event(e, w, session, now)) {
        if (w->search.open)
            app_search_field_text(&w->search, w->book, w->hud.field, sizeof w->hud.field);
        else
            w->hud.field[0] = '\0';
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_ESCAPE)
        return escape(w, session, now);
    /* in ink mode a Shift+drag draws; Ctrl+C still copies */
    if (!session->replay && (!session->ink_mode || e->type == SDL_KEYDOWN) &&
        text_select(w, session, e, now))
        return true;
    if (e->type == SDL_KEYDOWN && !e->key.repeat && !session->replay && !w->field.open &&
        (e->key.keysym.sym == SDLK_SLASH ||
         (e->key.keysym.sym == SDLK_f && (e->key.keysym.mod & KMOD_CTRL)))) {
        app_search_field_open(&w->search);
        w->search_skip = e->key.keysym.sym == SDLK_SLASH;
        app_search_field_text(&w->search, w->book, w->hud.field, sizeof w->hud.field);
        return true;
    }
    /* n and N: the next and previous match of the last search, its field closed */
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_n && w->search.typed[0] &&
        !(e->key.keysym.mod & KMOD_CTRL)) {
        go_to_match(w, session, e, now, !(e->key.keysym.mod & KMOD_SHIFT));
        return true;
    }
    /* G to go to a page, T (or a click on the HUD's line of where the reader is) for the
     * contents: one field, which lists the contents below */
    bool key =
        e->type == SDL_KEYDOWN && (e->key.keysym.sym == SDLK_g || e->key.keysym.sym == SDLK_t);
    if (((key && !e->key.repeat) || where_clicked(w, e)) && !session->replay) {
        pagecurl_state s = {.size = sizeof s};
        pagecurl_book_state(w->book, &s);
        app_page_field_open(&w->field, w->book, place_page(w->book, &s));
        w->field_skip = key, w->field_opener = key ? e->key.keysym.sym : SDLK_UNKNOWN;
        app_page_field_text(&w->field, w->book, w->hud.field, sizeof w->hud.field);
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_h) {
        w->hud.shown = !w->hud.shown;
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_i && !e->key.repeat) {
        session->ink_mode = !session->ink_mode;
        return true;
    }
    if (e->type == SDL_KEYDOWN && !e->key.repeat &&
        (e->key.keysym.sym == SDLK_F12 || e->key.keysym.sym == SDLK_p)) {
        session->want_shot = true;
        w->hud.toast[0] = '\0'; /* the picture is the book's, not the last one's note */
        return true;
    }
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_F11) {
        bool full = SDL_GetWindowFlags(w->win->window) & SDL_WINDOW_FULLSCREEN_DESKTOP;
        SDL_SetWindowFullscreen(w->win->window, full ? 0 : SDL_WINDOW_FULLSCREEN_DESKTOP);
        w->stale = true; /* the size-changed event follows; rebuild in any case */
        return true;
    }
    if (e->type == SDL_WINDOWEVENT) {
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
            e->window.event == SDL_WINDOWEVENT_RESTORED)
            w->stale = true;
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED && !session->replay)
            w->shape_due = true, w->resized_at = now;
        return true;
    }
    if (e->type == SDL_KEYDOWN && !session->replay && (e->key.keysym.mod & KMOD_CTRL) &&
        (e->key.keysym.sym == SDLK_EQUALS || e->key.keysym.sym == SDLK_PLUS ||
         e->key.keysym.sym == SDLK_KP_PLUS || e->key.keysym.sym == SDLK_MINUS ||
         e->key.keysym.sym == SDLK_KP_MINUS)) {
        relayout(w, session, e->key.keysym.sym != SDLK_MINUS && e->key.keysym.sym != SDLK_KP_MINUS,
                 now);
        return true;
    }
    /* the way back along the links followed: Alt+Left or Backspace, Alt+Right forward again */
    if (e->type == SDL_KEYDOWN && !session->replay &&
        (e->key.keysym.sym == SDLK_BACKSPACE ||
         ((e->key.keysym.sym == SDLK_LEFT || e->key.keysym.sym == SDLK_RIGHT) &&
          (e->key.keysym.mod & KMOD_ALT)))) {
        if (e->key.keysym.sym == SDLK_RIGHT)
            pagecurl_book_forward(w->book, now);
        else
            pagecurl_book_back(w->book, now);
        return true;
    }
    pagecurl_input_event inputs[APP_SESSION_MAX_EVENTS];
    int n = session->replay ? 0 : app_session_trace_events(e, w->win->window, session, now, inputs);
    /* a pointer moved with no button held (or SDL's own as the window appears under it) changes
     * nothing on the screen: no input whose latency the summary measures */
    bool hover = e->type == SDL_MOUSEMOTION && !e->motion.state;
    for (int i = 0; i < n; i++) {
        const pagecurl_input_event *input = &inputs[i];
        if (!hover)
            session->input_ms = e->common.timestamp ? e->common.timestamp : SDL_GetTicks64();
        AppSessionSize size = input_size(w);
        if (input->action == PAGECURL_INPUT_MOVE && input->device != PAGECURL_INPUT_INK) {
            app_session_hold_move(size, session, input); /* ink keeps every point */
            continue;
        }
        app_session_apply_move(size, session);
        app_session_apply(size, session, input);
    }
    /* a click on a link to a page was followed as the trace's events were applied (the same
     * in a replay); one on an address is shown here, and opened on a Ctrl+click */
    AppSessionSize size = input_size(w);
    if (!session->replay) {
        app_link_click_hover(&w->links, w->book, e, w->win->window, size.width, size.height,
                             session->ink_mode);
        if (app_link_click_address(&w->links, &session->click, session->mods, w->hud.toast,
                                   sizeof w->hud.toast))
            w->toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
    }
    return true;
}

/* An event from SDL: X's own (SDL_SYSWMEVENT) only gives the time of the input event after it,
 * and draws nothing. */
static bool take_event(const SDL_Event *e, Window *w, AppSession *session, bool *redraw)
{
    if (e->type == SDL_SYSWMEVENT) {
        uint32_t x_ms = 0;
        int64_t age = -1;
        bool x = app_x11_input_time(e, &x_ms, &age);
        app_session_x_event(session, x, x_ms, age);
        return true;
    }
    *redraw = true;
    return handle_event(e, w, session, app_session_event_time(e, session));
}

/* Waits until the presenter has shown slot `slot`'s frame (UINT32_MAX: every frame), where
 * there is one. Its failure is most often the display lost: the window's own connection is asked
 * then, so that the run ends as it does when that connection finds it (app/x11.h). */
static bool wait_shown(Window *w, uint32_t slot)
{
    if (!w->shm || app_shm_present_wait(w->shm, slot, w->message, sizeof w->message))
        return true;
    app_x11_check(w->win->window);
    return false;
}

/* The next image, unless PAGECURL_FAULT says this acquire finds the swapchain out of date. */
static VkResult acquire_image(Window *w, uint32_t slot, uint32_t *index)
{
    w->acquires++;
    if (w->win->fault_acquire && w->acquires == w->win->fault_acquire) {
        w->faulting = true;
        app_say(stderr, APP_FAULT_ENV ": acquire %" PRIu64 " reports the swapchain out of date",
                w->acquires);
    }
    if (w->faulting)
        return VK_ERROR_OUT_OF_DATE_KHR; /* as a driver does: no image, no semaphore signalled */
    if (w->sc.own) {
        *index = slot; /* the slot's own image, free once its frame is shown */
        return VK_SUCCESS;
    }
    return vkAcquireNextImageKHR(w->vk.vk.device, w->sc.swapchain, UINT64_MAX,
                                 w->sc.slots[slot].acquired, VK_NULL_HANDLE, index);
}

/* The frame's commands submitted, waiting for the image acquired, signalling its presentation
 * and the slot's fence; unless PAGECURL_FAULT says this submission loses the device, when the
 * image acquired is still waited for and the fence signalled (nothing left pending). */
static VkResult submit(Window *w, uint32_t slot, uint32_t index)
{
    VkCommandBuffer cmd = w->sc.slots[slot].cmd;
    /* the book's first use of the image: its copy into it (a transfer), or drawn straight in
     * (the still pages' copy, or the pass) */
    VkPipelineStageFlags stage =
        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    bool lost = w->win->fault_submit && ++w->submits > w->win->fault_submit;
    bool own = w->sc.own; /* no image acquired to wait for, no presentation to signal */
    VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .waitSemaphoreCount = own ? 0 : 1,
                         .pWaitSemaphores = &w->sc.slots[slot].acquired,
                         .pWaitDstStageMask = &stage,
                         .commandBufferCount = lost ? 0 : 1,
                         .pCommandBuffers = &cmd,
                         .signalSemaphoreCount = lost || own ? 0 : 1,
                         .pSignalSemaphores = &w->sc.rendered[index]};
    VkResult r = vkQueueSubmit(w->vk.vk.queue, 1, &info, w->sc.slots[slot].done);
    return lost ? VK_ERROR_DEVICE_LOST : r;
}

/* The HUD over the frame: drawn into the swapchain image before it is presented, enlarged as far
 * as it stays above the book's far edge at rest (or to be legible on a large screen). Chosen while
 * the book rests, and while it moves never enlarged: the view pulling back for a turn leaves room
 * for a larger panel, and the panel grew to twice its size and shrank back with every turn. */
static void draw_hud(Window *w, VkCommandBuffer cmd, uint32_t slot, uint32_t index)
{
    const float margin = WINDOW_HUD_MARGIN;
    /* the book's head in the window's rows (the book may be drawn smaller, scaled up) */
    uint32_t drawn = w->upscale.image ? w->upscale.extent.height : w->sc.extent.height;
    uint32_t head =
        (uint32_t)((uint64_t)pagecurl_book_head_row(w->book) * w->sc.extent.height / drawn);
    float fits = app_hud_scale(&w->hud, head, w->sc.extent.width, w->sc.extent.height, margin);
    /* while it moves, smaller where it must be (zoomed in, a longer line, a smaller window),
     * never larger (1 where it was not shown at rest yet) */
    w->hud_scale = w->book_still ? fits : fminf(w->hud_scale > 0.0f ? w->hud_scale : 1.0f, fits);
    float scale = w->hud_scale;
    const AppVkBuffer *vertices = &w->sc.slots[slot].overlay;
    uint32_t quads = app_hud_quads(&w->hud, vertices->mapped, (size_t)vertices->size);
    /* its pass within the largest framebuffer: it lies in the window's top left corner */
    VkExtent2D area = {
        w->sc.extent.width < w->hud_most.width ? w->sc.extent.width : w->hud_most.width,
        w->sc.extent.height < w->hud_most.height ? w->sc.extent.height : w->hud_most.height};
    app_overlay_record(cmd, &w->overlay, vertices, w->sc.views[index], area, quads, scale, margin,
                       margin);
}

/* Says once (until the window is drawn again) that it is too large to draw in. */
static void say_too_large(Window *w)
{
    if (w->said_large)
        return;
    w->said_large = true;
    const AppSwapchain *sc = &w->sc;
    char side[64] = "";
    if (sc->max_side != UINT32_MAX)
        snprintf(side, sizeof side, "%u pixels a side and ", sc->max_side);
    app_say(stderr,
            "the window is %ux%u pixels, more than it can be drawn at (%s%llu million pixels): it "
            "shows nothing until it is made smaller, and the session goes on",
            sc->extent.width, sc->extent.height, side,
            (unsigned long long)(APP_SWAPCHAIN_MAX_PIXELS / 1000000));
}

/* The image the book is scaled up from, made for the window's new size where it is larger than
 * the book is drawn, else let go; the device is idle (the swapchain was just rebuilt). */
static bool ready_upscale(Window *w)
{
    VkExtent2D want = app_upscale_size(w->sc.extent, w->book_side);
    if (want.width == w->sc.extent.width && want.height == w->sc.extent.height) {
        app_upscale_destroy(&w->vk, &w->upscale);
        return true;
    }
    if (w->upscale.image && want.width == w->upscale.extent.width &&
        want.height == w->upscale.extent.height)
        return true;
    return app_upscale_make(&w->vk, w->sc.format, want, &w->upscale, w->message, sizeof w->message);
}

/* One frame at `time` to the swapchain; with `shot`, copied for a screenshot. False (the reason
 * in w->message) only on a failure worth stopping for. */
static bool draw(Window *w, double time, bool shot)
{
    w->shot.taken = false;
    w->redo = false;
    AppSessionSize size = drawable_size(w->win);
    if (size.width == 0 || size.height == 0)
        return true; /* minimised: nothing to draw into */
    AppSwapchain *sc = &w->sc;
    if (w->stale || !app_swapchain_ready(sc)) {
        if (!wait_shown(w, UINT32_MAX))
            return false; /* the frames shown read the buffers about to go */
        if (!app_swapchain_rebuild(&w->vk, (VkExtent2D){size.width, size.height}, sc, w->message,
                                   sizeof w->message))
            return false;
        w->images_made++;
        w->stale = w->faulting = false;
        if (sc->too_large) {
            say_too_large(w);
            SDL_Delay(10); /* nothing is presented to pace a turn's frames */
            return true;
        }
        if (!app_swapchain_ready(sc))
            return true;
        w->said_large = false;
        if (!ready_upscale(w))
            return false;
    }
    /* the book draws into the window's image acquired, or into the image scaled up to it */
    const AppUpscale *up = w->upscale.image ? &w->upscale : NULL;
    pagecurl_target target = {
        .size = sizeof target,
        .extent = up ? up->extent : sc->extent,
        /* the image as acquired: its contents discarded, waited for at the copy or the pass
         * (the submit's wait stages); the image scaled up: last read by the frame before's blit */
        .layout = VK_IMAGE_LAYOUT_UNDEFINED,
        .final_layout =
            up ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .src_stage = up ? VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT
                        : VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT |
                              VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
        .format = sc->format,
        /* the update reads only that there is one: the acquired image's is set before recording */
        .view = !w->straight ? VK_NULL_HANDLE
                : up         ? up->view
                             : sc->views[0],
        .generation = w->images_made,
    };
    w->drawn = (AppSessionSize){target.extent.width, target.extent.height};
    pagecurl_error err;
    bool updated = pagecurl_book_update(w->book, time, &target, &err);
    /* The view kept with the place is the first frame's (no fitted frame shown, then a zoom): set
     * once the first update has the viewport and the pages' shapes, the frame updated again. */
    if (updated && view_kept(w) && !w->view_restored) {
        w->view_restored = true;
        if (restore_view(w, time)) {
            pagecurl_book_hold_detail(w->book, w->detail_hold); /* as a zoom step's */
            updated = pagecurl_book_update(w->book, time, &target, &err);
        }
    }
    if (!updated) {
        snprintf(w->message, sizeof w->message, "%s", err.message);
        return false;
    }
    uint32_t slot = (uint32_t)(w->recorded % APP_VK_FRAMES), index = 0;
    VkDevice dev = w->vk.vk.device;
    /* the slot's frame on the window first: until then the presenter reads its fence and pixels */
    if (!wait_shown(w, slot))
        return false;
    VkResult r = vkWaitForFences(dev, 1, &sc->slots[slot].done, VK_TRUE, UINT64_MAX);
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "waiting for a frame", w->message, sizeof w->message);
    r = acquire_image(w, slot, &index);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        w->stale = w->redo = true; /* given up: the slot stays as it was */
        return true;
    }
    if (r < 0)
        return app_vk_fail(r, "taking the window's next image", w->message, sizeof w->message);
    target.image = up ? up->image : sc->images[index];
    target.view = !w->straight ? VK_NULL_HANDLE : up ? up->view : sc->views[index];
    VkCommandBuffer cmd = sc->slots[slot].cmd;
    vkResetFences(dev, 1, &sc->slots[slot].done);
    vkResetCommandBuffer(cmd, 0);
    vkBeginCommandBuffer(
        cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                         .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT});
    /* the frame is submitted either way, so that the slot's fence signals */
    bool drawn = pagecurl_book_record(w->book, cmd, slot, &target, &err);
    if (up)
        app_upscale_record(cmd, up, sc->images[index], sc->extent);
    if (w->hud.shown || w->hud.field[0] || w->hud.toast[0])
        draw_hud(w, cmd, slot, index);
    bool copied = !shot || app_screenshot_record(&w->vk, cmd, &w->shot, sc, index, w->message,
                                                 sizeof w->message);
    /* drawn -> presented (the semaphore orders the presentation engine's read); or copied out
     * for the presenter, which reads it once the slot's fence signals */
    if (sc->own)
        app_vk_copy_to_host(cmd, sc->images[index], sc->extent, sc->slots[slot].pixels.buffer);
    else
        app_vk_image_barrier(cmd, sc->images[index], VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                             VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                             VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
    r = vkEndCommandBuffer(cmd);
    if (r == VK_SUCCESS)
        r = submit(w, slot, index);
    w->recorded++;
    if (r != VK_SUCCESS)
        return app_vk_fail(r, "submitting a frame", w->message, sizeof w->message);
    if (!drawn) {
        snprintf(w->message, sizeof w->message, "%s", err.message);
        return false;
    }
    if (!copied)
        return false;
    if (w->shm) {
        if (app_shm_present_queue(w->shm, slot, sc->slots[slot].done, sc->extent,
                                  sc->slots[slot].pixels.mapped, w->message, sizeof w->message))
            return true;
        app_x11_check(w->win->window); /* as wait_shown() */
        return false;
    }
    VkPresentInfoKHR present = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                                .waitSemaphoreCount = 1,
                                .pWaitSemaphores = &sc->rendered[index],
                                .swapchainCount = 1,
                                .pSwapchains = &sc->swapchain,
                                .pImageIndices = &index};
    r = vkQueuePresentKHR(w->vk.vk.queue, &present);
    AppSessionSize now = drawable_size(w->win);
    bool resized = now.width != sc->extent.width || now.height != sc->extent.height;
    /* out of date must be rebuilt; suboptimal only when the size really changed (a rebuild for
     * a mere transform hint would stall every frame on some compositors) */
    if (r == VK_ERROR_OUT_OF_DATE_KHR)
        w->stale = w->redo = true; /* the image may never have been shown */
    else if (r == VK_SUBOPTIMAL_KHR && resized)
        w->stale = true;
    else if (r < 0)
        return app_vk_fail(r, "showing a frame", w->message, sizeof w->message);
    return true;
}

/* Waits for every frame recorded. */
static bool wait_frames(Window *w)
{
    if (!wait_shown(w, UINT32_MAX))
        return false;
    VkFence done[APP_VK_FRAMES];
    for (uint32_t i = 0; i < APP_VK_FRAMES; i++)
        done[i] = w->sc.slots[i].done;
    VkResult r = vkWaitForFences(w->vk.vk.device, APP_VK_FRAMES, done, VK_TRUE, UINT64_MAX);
    return r == VK_SUCCESS || app_vk_fail(r, "waiting for a frame", w->message, sizeof w->message);
}

/* The pages in view drawn before the exit's picture is taken, as a headless run waits for its
 * pages: on a busy machine the last input (Escape, a replay's last frame) can come before they
 * are, and the picture would show a page as plain paper or magnified where the same session
 * replayed shows it drawn. Frames are drawn as pages arrive (a zoom's sharp frame is counted as
 * in the loop). A stop signal, or a page source that never finishes, ends the wait. */
#define WINDOW_EXIT_PAGES_MS 60000

static void finish_pages(Window *w, AppSession *session, double clock)
{
    uint64_t start = SDL_GetTicks64();
    while (!app_signals_caught() && SDL_GetTicks64() - start <= WINDOW_EXIT_PAGES_MS) {
        pagecurl_state s = {.size = sizeof s};
        pagecurl_book_state(w->book, &s);
        if (!s.streaming && !s.pages_ready)
            return;
        uint64_t drawn = w->recorded;
        /* a minimised window draws nothing and takes no page in: it waits as for a page */
        if (s.pages_ready && !draw(w, clock, false))
            return;
        if (w->recorded != drawn)
            app_session_sharp(session, drain_events(w));
        else
            SDL_Delay(4);
    }
}

/* --screenshot / --export-obj on the way out: the view shown last, drawn once more (and shown)
 * with its pixels and the turning leaf's vertices read back. Returns the exit status. */
static int write_exit_files(Window *w, double clock)
{
    const AppOptions *opts = w->opts;
    uint64_t before = w->recorded;
    pagecurl_book_set_lead(w->book, 0.0); /* the view as it is at the loop's last moment */
    if (opts->export_obj)
        pagecurl_book_read_leaf(w->book);
    /* a swapchain found out of date is rebuilt by the next attempt */
    for (int attempt = 0; attempt < 3 && w->recorded == before; attempt++)
        if (!draw(w, clock, opts->screenshot != NULL) || !wait_frames(w)) {
            app_say(stderr, "%s", w->message);
            return 1;
        }
    if (w->recorded == before || (opts->screenshot && !w->shot.taken)) {
        app_say(stderr, "nothing written: the window %s",
                w->recorded != before ? "images cannot be read back"
                : w->sc.too_large     ? "shows nothing (larger than it can be drawn at)"
                                      : "shows nothing (minimised)");
        return 1;
    }
    char message[256];
    uint8_t *rgba =
        opts->screenshot ? app_screenshot_rgba(&w->shot, message, sizeof message) : NULL;
    if (opts->screenshot && !rgba) {
        app_say(stderr, "cannot write %s: %s", opts->screenshot, message);
        return 1;
    }
    pagecurl_leaf leaf = {.size = sizeof leaf};
    bool has_leaf = opts->export_obj && pagecurl_book_leaf(w->book, &leaf);
    int status = app_headless_write(opts, w->sc.extent.width, w->sc.extent.height, rgba,
                                    has_leaf ? &leaf : NULL);
    free(rgba);
    return status;
}

static double elapsed_ms(uint64_t from, uint64_t to)
{
    return (double)(to - from) * 1000.0 / (double)SDL_GetPerformanceFrequency();
}

/* How far ahead of the clock a moving frame is posed: the time from posing a frame to its present
 * returning, smoothed over the last few turning frames, at most this (a stall is not a period). */
#define WINDOW_LEAD_MAX       0.1
#define WINDOW_LEAD_SMOOTHING 0.25

static void lead_update(double *lead, double seconds)
{
    double s = seconds < WINDOW_LEAD_MAX ? seconds : WINDOW_LEAD_MAX;
    *lead += WINDOW_LEAD_SMOOTHING * (s - *lead);
}

static bool stop_asked(void *user)
{
    (void)user;
    return app_signals_caught() != 0;
}

/* The context on a device that presents to the window, the book the options name, checked, the
 * notebook bound to it. 0, or the exit status (said). */
static int open_book(Window *w)
{
    AppOptions *o = w->opts;
    pagecurl_error err;
    w->ctx = pagecurl_context_create(
        &(pagecurl_context_desc){.size = sizeof(pagecurl_context_desc),
                                 .validation = o->validation,
                                 .gpu_assisted = o->gpu_assisted,
                                 .prefer_index = o->device >= 0,
                                 .device_index = o->device,
                                 .instance_extensions = w->win->extensions,
                                 .instance_extension_count = w->win->extension_count,
                                 .create_surface = create_surface,
                                 .surface_user = w->win},
        &err);
    if (!w->ctx) {
        app_say(stderr, "%s", err.message);
        return app_library_status(&err);
    }
    pagecurl_context_faults(w->ctx, &o->faults.library);
    /* a test's start at the high tier, to be stepped down (WINDOW_STEP_BUDGET_ENV) */
    const char *forced = getenv(WINDOW_STEP_BUDGET_ENV);
    w->forced_ms = forced ? strtod(forced, NULL) : 0.0;
    w->forced = o->quality == GPU_QUALITY_AUTO && w->forced_ms > 0.0;
    const char *hold = getenv(WINDOW_DETAIL_HOLD_ENV);
    w->detail_hold = WINDOW_DETAIL_HOLD;
    if (hold && *hold) {
        char *end;
        w->detail_hold = strtod(hold, &end);
        if (*end || !(w->detail_hold >= 0.0 && w->detail_hold <= 1.0)) {
            app_say(stderr, "%s=%s: not a number of seconds from 0 to 1", WINDOW_DETAIL_HOLD_ENV,
                    hold);
            return 2;
        }
    }
    const char *sleep_ms = getenv(WINDOW_FRAME_SLEEP_ENV);
    if (sleep_ms && *sleep_ms) {
        char *end;
        long ms = strtol(sleep_ms, &end, 10);
        if (*end || ms < 0 || ms > 1000) {
            app_say(stderr, "%s=%s: not a whole number of milliseconds from 0 to 1000",
                    WINDOW_FRAME_SLEEP_ENV, sleep_ms);
            return 2;
        }
        w->frame_sleep_ms = (uint32_t)ms;
    }
    pagecurl_book_desc desc = app_library_book_desc(o);
    desc.quality = w->forced ? PAGECURL_QUALITY_HIGH : desc.quality;
    desc.timed = true;         /* the HUD shows each stage, the budget sums them */
    desc.thumb_through = true; /* the reader's presses and keys */
    desc.page_detail = o->zoom > 1.0f ? o->zoom : 1.0f;
    desc.stop = stop_asked;
    /* the book draws in the swapchain's format: its frames copied in, not blitted (a draw over
     * every pixel on lavapipe) */
    AppVk probe;
    app_vk_init(&probe, w->ctx);
    desc.target_format = app_swapchain_pick_format(&probe);
    /* A book that draws one sample a pixel at every tier it may take (a CPU device's low tier,
     * to which a step only goes down; --msaa 1) draws straight into the swapchain's image: no
     * image of its own, no copy (on lavapipe a memcpy of every frame). */
    pagecurl_limits lim = {.size = sizeof lim};
    pagecurl_context_limits(w->ctx, &lim);
    bool low = desc.quality == PAGECURL_QUALITY_LOW ||
               (desc.quality == PAGECURL_QUALITY_AUTO && lim.auto_tier == PAGECURL_QUALITY_LOW);
    w->straight = desc.max_samples == 1 || (low && desc.max_samples == 0);
    desc.target_samples = w->straight ? 1 : 0;
    /* Reading the book (a PDF MuPDF reads to its end to repair it: minutes for a file of
     * gigabytes) holds nothing of the user's: a signal still ends the run at once. */
    w->book = pagecurl_book_create(w->ctx, &desc, &err);
    if (!w->book) {
        /* the book names the file; the program names the flag that gave it */
        app_say(stderr, "%s%s", o->book ? "--book " : "", err.message);
        return app_library_status(&err);
    }
    int status = app_library_find_page(w->book, o);
    if (!status)
        status = app_library_find_text(w->book, o);
    if (!status)
        status = app_library_check_outputs(w->book, o);
    if (!status)
        app_library_note_damage(w->book);
    /* From here the run may hold what must be saved (a notebook it makes is removed again at its
     * end, a --record trace is written): a signal asks the loops to stop, and gives up the
     * notebook's reading. */
    app_signals_defer();
    if (!status) {
        char message[512];
        status =
            app_library_notebook_open(&w->notebook, o->notebook, w->book, message, sizeof message);
        if (!status)
            status = app_library_notebook_replayable(&w->notebook, o->notebook, w->replay,
                                                     o->replay, message, sizeof message);
        if (status && message[0])
            app_say(stderr, "%s", message);
    }
    if (!status && !o->notebook && !o->replay)
        status = app_kept_notebook_open(&w->kept, &w->notebook, w->book);
    if (status)
        return status;
    /* The place kept (app/place.h): not a replay's, whose trace poses the book. A recording
     * keeps the place but opens where its trace will replay from: the first spread, or --page. */
    if (!o->replay && !o->no_remember)
        place_open(w);
    /* a reflowable book's place in its text, found in the layout it has now (another window
     * shape or type size than the place's) */
    int kept = w->place.read;
    if (w->place.read_text[0]) {
        int found = pagecurl_book_text_place_page(w->book, w->place.read_text);
        kept = found ? found : kept;
    }
    /* --page says where; else a reader's notebook reopens where they were; else the place kept */
    int page = o->page_text                                           ? (int)o->page
               : !o->replay && o->notebook && w->notebook.notebook.at ? w->notebook.notebook.at
               : !o->record                                           ? kept
                                                                      : 0;
    if (page >= 1)
        pagecurl_book_go_to(w->book, page);
    w->place_view = page >= 1 && page == w->place.read && !o->page_text && !o->notebook &&
                    !o->record && !o->fit_width && !(o->zoom > 0.0f);
    pagecurl_limits limits = {.size = sizeof limits};
    pagecurl_context_limits(w->ctx, &limits);
    snprintf(w->device, sizeof w->device, "%s", limits.device_name);
    return 0;
}

/* The window's Vulkan: its swapchain's frames, the overlay, the budget and the HUD's lines. 0, or
 * the exit status (said). */
static int open_vulkan(Window *w)
{
    const AppOptions *o = w->opts;
    app_vk_init(&w->vk, w->ctx);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(w->vk.vk.physical_device, &props);
    /* A CPU rasteriser's frames go to an X window through shared memory, shown off the window's
     * thread (app/shm_present.h says why), unless a swapchain's way is asked for. Its images are
     * X's bytes: BGRA. */
    VkFormat format = app_swapchain_pick_format(&w->vk);
    const VkFormat shm_format = VK_FORMAT_B8G8R8A8_SRGB;
    VkFormatProperties shm_props;
    vkGetPhysicalDeviceFormatProperties(w->vk.vk.physical_device, shm_format, &shm_props);
    const VkFormatFeatureFlags shm_needs = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                           VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                           VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    bool shm_asked = o->present_mode == APP_PRESENT_SHM;
    char why[160] = "";
    if ((shm_props.optimalTilingFeatures & shm_needs) != shm_needs)
        snprintf(why, sizeof why, "its images cannot be BGRA");
    else if (shm_asked || (o->present_mode == APP_PRESENT_AUTO &&
                           props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU))
        w->shm =
            app_shm_present_open(w->win->window, w->vk.vk.device, APP_VK_FRAMES, why, sizeof why);
    if (shm_asked && !w->shm)
        app_say(stderr,
                "the window cannot present through X's shared memory here (%s); using fifo "
                "(vsync)",
                why);
    static const VkPresentModeKHR modes[] = {
        VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
        VK_PRESENT_MODE_IMMEDIATE_KHR, VK_PRESENT_MODE_FIFO_KHR};
    VkPresentModeKHR mode = modes[o->present_mode];
    if (!w->shm) {
        mode = app_swapchain_pick_present_mode(&w->vk, modes[o->present_mode]);
        if (mode != modes[o->present_mode])
            app_say(stderr, "the window cannot present that way here; using fifo (vsync)");
    } else {
        format = shm_format;
    }
    if (!app_swapchain_create(&w->vk, format, mode, w->shm != NULL, &w->sc, w->message,
                              sizeof w->message) ||
        !app_overlay_create(&w->vk, format, &w->overlay, w->message, sizeof w->message)) {
        app_say(stderr, "%s", w->message);
        return 1;
    }
    /* the book's images and passes, and the HUD's pass, within the device's limits */
    const VkPhysicalDeviceLimits *l = &props.limits;
    w->hud_most = (VkExtent2D){l->maxFramebufferWidth, l->maxFramebufferHeight};
    w->book_side = l->maxImageDimension2D;
    w->book_side = l->maxFramebufferWidth < w->book_side ? l->maxFramebufferWidth : w->book_side;
    w->book_side = l->maxFramebufferHeight < w->book_side ? l->maxFramebufferHeight : w->book_side;
    SDL_DisplayMode display;
    w->refresh_hz =
        SDL_GetWindowDisplayMode(w->win->window, &display) == 0 ? display.refresh_rate : 0;
    pagecurl_state s = {.size = sizeof s};
    pagecurl_book_state(w->book, &s);
    w->hud.device = w->device;
    w->hud.quality = tier_name(s.quality);
    w->budget = app_frame_budget_init(
        w->forced ? w->forced_ms : app_frame_budget_ms(w->refresh_hz),
        app_frame_budget_applies(w->forced ? GPU_QUALITY_AUTO : o->quality, (GpuQuality)s.quality));
    w->field.match = -1;
    w->search.current = -1;
    return 0;
}

/* What the loop carries from one pass to the next. */
typedef struct Loop {
    const AppTrace *replay;
    AppSession *session;
    /* the HUD's frame time runs from the end of the frame before, or from waking up */
    uint64_t since;
    bool running, ok, redraw, zoomed, sharper;
    bool warmed; /* the first frame was the warm-up's */
    uint32_t frames;
    /* A turning frame shows the book as it will be when presented, not as it was when posed
     * (pagecurl_book_set_lead): the first frame after a key press then shows the leaf lifting.
     * A replay keeps its fixed clock. Kept across idle spells: a turn's first frame is posed by
     * the frames of the turns before it. */
    double lead;
    pagecurl_state last_shown;
    double clock; /* the loop's latest moment: the exit's frame shows the view then */
    double replay_end;
    bool replaying;
} Loop;

/* The input up to now: a replay's events to its clock, else the window's (asleep until one comes
 * while nothing moves and no frame count is to be reached). Returns the moment the frame is for. */
static double take_input(Window *w, Loop *l)
{
    const AppTrace *replay = l->replay;
    SDL_Event e;
    l->replay_end =
        replay && replay->count ? replay->events[replay->count - 1].time + APP_REPLAY_TAIL : 0.0;
    double sim = l->frames / APP_REPLAY_HZ;
    l->replaying = replay && sim <= l->replay_end;
    /* a replay without --frames ends with its trace (and its tail), as headless: it takes no
     * input of its own to go on with */
    if (replay && !w->opts->frames && !l->replaying && l->frames >= APP_VK_FRAMES)
        l->running = false;
    pagecurl_state before = {.size = sizeof before};
    pagecurl_book_state(w->book, &before);
    bool idle =
        !l->redraw && !w->opts->frames && !l->replaying && !before.turning && !before.moving;
    /* a bounded wait: a stop signal is seen within 0.1 s, and a page or a sharper view the
     * library is drawing within a few milliseconds of being done */
    if (idle) {
        bool woken = SDL_WaitEventTimeout(&e, before.streaming ? 4 : 100);
        /* the time asleep is no frame's: a frame drawn for a page the library finished
         * while nothing else happened read "426 ms a frame, 2 frames/s" at rest */
        l->since = SDL_GetPerformanceCounter();
        app_frame_log_restart(&w->frame_log);
        if (woken)
            l->running = take_event(&e, w, l->session, &l->redraw);
    }
    while (l->running && SDL_PollEvent(&e))
        l->running = take_event(&e, w, l->session, &l->redraw);
    AppSessionSize size = input_size(w);
    app_session_apply_move(size, l->session);
    l->running = l->running && !app_signals_caught();
    double now = replay ? sim : app_session_seconds(l->session);
    l->clock = now;
    app_session_replay_until(l->session, size, now);
    if (w->shape_due && now - w->resized_at >= WINDOW_SHAPE_SETTLE) {
        relayout_to_window(w, now);
        l->redraw = true;
    }
    return now;
}

/* A toast for twice the usual time. */
static void toast_long(Window *w, double now)
{
    w->toast_until = now + 2.0 * WINDOW_TOAST_SECONDS;
}

/* What follows the book's state `s` outside the frame: the search's count and pending go-to, the
 * reader's place and view kept, the notebook saved, the toasts. Returns whether the HUD changed. */
static bool follow_book(Window *w, const Loop *l, const pagecurl_state *s, double now)
{
    AppSession *session = l->session;
    bool changed = show_where(w, session, s) && w->hud.shown;
    if (w->search.pending && !l->replay) { /* an Enter given before the count found a match */
        int page = app_search_field_pending(&w->search, w->book);
        go_to_page(w, session, NULL, now, page);
        w->match_due |= page != 0, w->match_frame = page ? w->recorded : w->match_frame;
    }
    enlarge_match(w, session, s, now);
    if (w->search.open) { /* its count goes on in the background */
        char line[sizeof w->hud.field];
        app_search_field_text(&w->search, w->book, line, sizeof line);
        if (strcmp(line, w->hud.field)) {
            memcpy(w->hud.field, line, sizeof line);
            changed = true;
        }
    }
    /* the notebook keeps the reader's place: the spread the book heads for (a notebook of
     * the window's own not with --no-remember, which writes no place: app/kept_notebook.h) */
    w->place.at = place_page(w->book, s);
    if (w->opts->notebook || !w->opts->no_remember)
        w->notebook.notebook.at = w->place.at;
    keep_view(w, s);
    app_library_notebook_keep(&w->notebook, w->book, false);
    if (!s->turning) /* where a turn lands, not each leaf thumbed past */
        keep_place(w, false);
    if (w->notebook.notebook.failed && !w->notebook_failed) {
        w->notebook_failed = true;
        snprintf(w->hud.toast, sizeof w->hud.toast,
                 "the notebook could not be saved (see the terminal)");
        toast_long(w, now);
    }
    if (app_link_click_poll(&w->links, w->hud.toast, sizeof w->hud.toast)) {
        toast_long(w, now);
        changed = true;
    }
    if (w->kept.toast[0]) { /* the first stroke: where its ink is kept */
        memcpy(w->hud.toast, w->kept.toast, sizeof w->hud.toast);
        w->kept.toast[0] = '\0';
        toast_long(w, now);
        changed = true;
    }
    if (w->hud.toast[0] && now >= w->toast_until) {
        w->hud.toast[0] = '\0';
        changed = true;
    }
    changed |= w->toast_new;
    w->toast_new = false;
    return changed;
}

/* One frame of the book in state `s` at `now`, and what its showing measures: the HUD's times,
 * the lead, the latency, a screenshot asked for. */
static void frame(Window *w, Loop *l, const pagecurl_state *s, double now)
{
    AppSession *session = l->session;
    uint64_t drawn = w->recorded, posed = SDL_GetPerformanceCounter();
    pagecurl_book_set_lead(w->book, l->replay ? 0.0 : l->lead);
    if (session->zoom_step && !s->turning && app_swapchain_ready(&w->sc))
        pagecurl_book_hold_detail(w->book, w->detail_hold);
    session->zoom_step = false;
    if (l->warmed && l->frames == WINDOW_WARM_FRAMES && !s->turning && app_swapchain_ready(&w->sc))
        pagecurl_book_hold_detail(w->book, WINDOW_OPEN_DETAIL_HOLD);
    if (w->step_due)
        step_down(w);
    /* the warm-up frame builds lavapipe's draw states: no motion the user watches */
    bool leaf_moved =
        s->turning && (!l->last_shown.turning || s->progress != l->last_shown.progress ||
                       s->heading_left != l->last_shown.heading_left);
    w->moving[w->recorded % WINDOW_MOVING_RING] = l->frames >= WINDOW_WARM_FRAMES && leaf_moved;
    /* The first frame shows the book at rest as the start of a turn, its leaf held flat:
     * lavapipe then builds the turning frame's draw states and first touches its memory (some
     * 60 ms at 320x200) before anyone presses a key, instead of on the first turn's first
     * frame. Any pointer event lets go of a held pose: one of no pointer's does it after. Not
     * under a kept view the first frame shows (the held pose's framing would be the one the view
     * is set in: the reopened picture then sat a fraction of a pixel off the one left). */
    bool warm = !l->replay && !view_kept(w) && l->frames < WINDOW_WARM_FRAMES && !s->turning &&
                (pagecurl_book_hold(w->book, 0.0f, 0.25f, false) ||
                 pagecurl_book_hold(w->book, 0.0f, 0.25f, true));
    l->warmed |= warm;
    l->ok = draw(w, now, session->want_shot);
    if (w->frame_sleep_ms)
        SDL_Delay(w->frame_sleep_ms);
    if (warm)
        pagecurl_book_pointer(w->book,
                              &(pagecurl_pointer_event){.size = sizeof(pagecurl_pointer_event),
                                                        .phase = PAGECURL_POINTER_CANCEL,
                                                        .id = UINT64_MAX,
                                                        .time = now});
    l->sharper = drain_events(w) || l->sharper;
    l->last_shown = *s;
    if (!l->ok || w->recorded == drawn)
        return;
    frame_times(w);
    app_session_sharp(session, l->sharper);
    l->sharper = false;
    if (s->turning)
        lead_update(&l->lead, elapsed_ms(posed, SDL_GetPerformanceCounter()) / 1000.0);
    /* The input's latency to the frame on the screen: presented, or with shm put on the window,
     * which the presenter does after this frame is recorded: then its slot's last frame's,
     * known now that draw() has waited for it, and this one's when its slot comes round. */
    uint32_t slot = (uint32_t)((w->recorded - 1) % APP_VK_FRAMES);
    uint64_t answers = app_session_answered(session, !w->book_still);
    double latency =
        app_session_latency(session, w->shm ? w->answers[slot] : answers,
                            w->shm ? app_shm_present_shown_at(w->shm, slot) : SDL_GetTicks64());
    if (w->shm)
        w->answers[slot] = answers;
    if (latency >= 0.0)
        app_hud_latency(&w->hud, latency);
    uint64_t now_tick = SDL_GetPerformanceCounter();
    app_hud_frame(&w->hud, elapsed_ms(l->since, now_tick));
    app_frame_log_frame(&w->frame_log);
    l->since = now_tick;
    if (session->want_shot && (l->ok = wait_frames(w))) {
        app_screenshot_save(&w->shot, w->book, w->opts->screenshot, w->hud.toast,
                            sizeof w->hud.toast);
        w->toast_until = now + WINDOW_TOAST_SECONDS;
        w->toast_new = true; /* shown by the next frame, drawn for it */
    }
    session->want_shot = false;
}

/* Once the book is framed (after the first frame): the kept place's view, or --fit width. */
static bool first_framed(Window *w, Loop *l, double now)
{
    bool changed = false;
    if (w->opts->fit_width && !l->replay) {
        pagecurl_input_event width = {.time = now,
                                      .device = PAGECURL_INPUT_ZOOM,
                                      .action = PAGECURL_INPUT_WIDTH,
                                      .x = NAN,
                                      .y = NAN};
        app_session_apply(input_size(w), l->session, &width);
        changed = true;
    }
    return changed;
}

/* The frames until quit: input, the book at the clock, a frame when something changed. Returns
 * the exit status. */
static int loop(Window *w, const AppTrace *replay, AppSession *session)
{
    const AppOptions *opts = w->opts;
    Loop l = {.replay = replay,
              .session = session,
              .since = SDL_GetPerformanceCounter(),
              .running = true,
              .ok = true,
              .redraw = true,
              .lead = 1.0 / 60.0,
              .last_shown = {.size = sizeof l.last_shown}};
    while (l.running && l.ok) {
        double now = take_input(w, &l);
        pagecurl_state s = {.size = sizeof s};
        pagecurl_book_state(w->book, &s);
        bool moved = s.turning || s.moving;
        w->book_still = !moved;
        l.redraw |= moved || l.replaying;
        /* pages drawn, to show; a frame while they are still being drawn would show nothing new
         * and take the cores from the drawing */
        l.redraw |= s.pages_ready;
        l.redraw |= l.zoomed; /* once more where the zoom comes to rest */
        l.zoomed = s.moving;
        l.redraw |= follow_book(w, &l, &s, now);
        if (l.replaying && !moved) {
            /* nothing moves until the next event (or the end): its frames would all be alike */
            double due =
                session->next < replay->count ? replay->events[session->next].time : l.replay_end;
            if (due * APP_REPLAY_HZ > l.frames + 1.0)
                l.frames = (uint32_t)(due * APP_REPLAY_HZ) - 1;
        }
        if (!l.running || (!l.redraw && !opts->frames))
            continue;
        frame(w, &l, &s, now);
        /* the book as it is after the warm-up; a frame given up is drawn again */
        l.redraw = l.frames < WINDOW_WARM_FRAMES || w->redo;
        if (++l.frames == 1)
            l.redraw |= first_framed(w, &l, now);
        if (opts->frames && l.frames >= opts->frames)
            l.running = false;
    }
    w->shown = w->recorded;
    if (!l.ok) {
        app_say(stderr, "%s", w->message);
        return 1;
    }
    if ((opts->screenshot || opts->export_obj) && !app_signals_caught()) {
        finish_pages(w, session, l.clock);
        return write_exit_files(w, l.clock);
    }
    return 0;
}

/* The display lost (app/x11.h), between any two of the loop's steps: the ink saved, the stroke
 * being drawn too (the saves under way waited for), the notebook let go (an empty one this run made
 * goes again), the trace closed with every event made. Touches neither SDL, Xlib nor the device. */
static void window_lost(void *user, const char *why)
{
    Window *w = user;
    const char *notebook = w->notebook.notebook.path;
    bool kept = !w->book || app_library_notebook_keep(&w->notebook, w->book, true);
    keep_place(w, true);
    bool inked = w->book && app_library_notebook_wrote_all(&w->notebook, w->book);
    app_library_notebook_close(&w->notebook);
    char message[512], ink[640] = "", input[640] = "";
    bool recorded = w->record.fd >= 0;
    if (recorded && !app_trace_record_end(&w->record, message, sizeof message))
        app_say(stderr, "%s", message);
    if (notebook && !kept)
        snprintf(ink, sizeof ink, ", its ink not all saved in %s", notebook);
    else if (notebook && inked)
        snprintf(ink, sizeof ink, ", its ink saved in %s", notebook);
    if (recorded)
        snprintf(input, sizeof input, "%s its input (%zu event%s) recorded in %s",
                 ink[0] ? " and" : ",", w->record.count, w->record.count == 1 ? "" : "s",
                 w->opts->record);
    app_say(stderr, "the window is gone (%s): the session ended%s%s", why, ink, input);
}

int app_window_run(AppWindow *win, AppOptions *opts, const AppTrace *replay)
{
    Window w = {.win = win,
                .opts = opts,
                .replay = replay,
                .notebook = {.notebook = {.lock_fd = -1}},
                .record = {.fd = -1}};
    app_x11_on_lost(window_lost, &w);
    int status = open_book(&w);
    if (!status) {
        SDL_ShowWindow(win->window);
        status = open_vulkan(&w);
    }
    AppSession session = {
        .replay = replay, .sharp_ms = -1.0, .book = w.book, .start_ms = SDL_GetTicks64()};
    if (w.book) {
        pagecurl_state s = {.size = sizeof s};
        pagecurl_book_state(w.book, &s);
        session.right_bound = s.bound_right;
    }
    /* the trace names the ink its session starts on: replayed onto it, it adds its strokes again */
    AppTrace head = {0};
    if (opts->record && opts->notebook && w.notebook.mirrored)
        head.notebook_known = true, head.notebook_digest = w.notebook.opened;
    char message[512];
    if (!status && opts->record) {
        if (app_trace_record_start(&w.record, opts->record, &head, message, sizeof message))
            session.record = &w.record;
        else
            app_say(stderr, "%s", message), status = 1;
    }
    if (!status && !app_frame_log_open(&w.frame_log, message, sizeof message))
        app_say(stderr, "%s", message), status = 1;
    bool looped = !status;
    if (looped)
        status = loop(&w, replay, &session);
    if (!app_frame_log_close(&w.frame_log, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = status ? status : 1;
    }
    uint64_t shown = w.shown;
    if (w.vk.vk.device) { /* what open_vulkan made, all or part */
        /* the last frames' latencies, once they are on the window */
        if (w.shm && app_shm_present_wait(w.shm, UINT32_MAX, message, sizeof message))
            for (uint32_t i = 0; i < APP_VK_FRAMES; i++)
                app_session_latency(&session, w.answers[i], app_shm_present_shown_at(w.shm, i));
        app_shm_present_close(w.shm); /* its frames shown: nothing reads the buffers */
        vkDeviceWaitIdle(w.vk.vk.device);
        app_screenshot_destroy(&w.vk, &w.shot);
        app_overlay_destroy(&w.vk, &w.overlay);
        app_upscale_destroy(&w.vk, &w.upscale);
        app_swapchain_destroy(&w.vk, &w.sc);
    }
    /* the trace is on disk as it was made: what is left is to sync it */
    if (session.record && !app_trace_record_end(&w.record, message, sizeof message)) {
        app_say(stderr, "%s", message);
        status = status ? status : 1;
    } else if (session.record) {
        app_say(stdout, "%zu input events written to %s", w.record.count, opts->record);
    }
    if (looped) {
        keep_place(&w, true);
        app_session_summary(&session, shown);
    }
    app_link_click_free(&w.links);
    status = app_library_notebook_end(&w.notebook, w.book, w.notebook.notebook.path, status);
    app_x11_on_lost(NULL, NULL); /* w goes */
    status = app_library_finish(w.ctx, status);
    app_x11_ended(status);
    return status;
}
