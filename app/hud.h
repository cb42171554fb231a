/* SPDX-License-Identifier: MIT */
/* The window's heads-up display: where the reader is in the book, the device, the renderer's
 * quality tier (and why it stepped down, when it did), the pointer's mode, the time and rate of
 * drawn frames and each GPU stage's time, as text (stb_easy_font's quads) on a translucent backdrop
 * for the overlay to draw. Owns only numbers and the text it makes. */
#ifndef PAGECURL_APP_HUD_H
#define PAGECURL_APP_HUD_H

#include "page_field.h"
#include "where.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pagecurl/pagecurl.h>

/* A quad's vertex: x, y, z floats, then RGBA8 (stb_easy_font's layout). */
#define APP_HUD_VERTEX_BYTES 16

typedef struct AppHud {
    bool shown;
    /* the page field's lines (app/page_field.h) while it is open, first, shown with or without
     * the rest; empty when it is closed */
    char field[APP_PAGE_FIELD_TEXT];
    char toast[160];     /* a save's line while it shows, before the rest; empty when none */
    const char *device;  /* the device's name */
    const char *quality; /* the renderer's tier: "low" or "high" */
    char note[160];      /* why the tier changed, when it did: a line of its own; else empty */
    char where[APP_WHERE_MAX]; /* where the reader is (app/where.h): the first line; or empty */
    bool contents;   /* the book has contents (an outline): the line says T or a click opens them */
    bool ink_mode;   /* the pointer draws instead of turning pages */
    double frame_ms; /* smoothed, of drawn frames only */
    double latency_ms; /* smoothed: an input's timestamp to the present of the frame showing it */
    uint32_t stage_count;
    double stage_ms[PAGECURL_MAX_STAGES];
    const char *stage_names[PAGECURL_MAX_STAGES];
} AppHud;

/* One more frame was drawn in `ms`: from the end of the frame before, or from the moment the loop
 * woke up when it had slept, to the end of this one. */
void app_hud_frame(AppHud *hud, double ms);
/* One more input reached the screen `ms` after its event. */
void app_hud_latency(AppHud *hud, double ms);
/* The GPU stage times of a finished frame (pagecurl_book_frame_times). */
void app_hud_stages(AppHud *hud, const double *ms, const char *const *names, uint32_t count);
/* The panel's size in glyph pixels, backdrop included. */
void app_hud_size(const AppHud *hud, float *width, float *height);
/* How much to enlarge the panel (2, 1.5 or 1: glyph pixels a pixel) so that, drawn `margin`
 * pixels from the top-left corner of a width x height view, it stays above `head_row`, the first
 * row below the book's far edge (pagecurl_book_head_row), clear of the pages' text; where nothing
 * larger fits, 1, but 1.5 in a view APP_HUD_LEGIBLE_ROWS tall or more that it fits across (its
 * letters 10 px, not 7: legible on a large screen, over the page's head margin). */
float app_hud_scale(const AppHud *hud, uint32_t head_row, uint32_t width, uint32_t height,
                    float margin);
#define APP_HUD_LEGIBLE_ROWS 800
/* The line of the page field's text (counted from 0, app/page_field.h) under the point (x, y) of
 * the panel drawn `scale` times at (margin, margin) in the same pixels; -1 for none. */
int app_hud_field_line(const AppHud *hud, float scale, float margin, double x, double y);
/* Whether the point (x, y), as app_hud_field_line's, lies on the line that says where the reader
 * is (shown with the HUD), which opens the contents when clicked. */
bool app_hud_on_where(const AppHud *hud, float scale, float margin, double x, double y);
/* The panel as overlay quads (APP_HUD_VERTEX_BYTES a vertex) in glyph pixels from its top-left
 * corner: the backdrop first, then the text. Returns how many. */
uint32_t app_hud_quads(const AppHud *hud, void *vertices, size_t bytes);

#endif
