/* SPDX-License-Identifier: MIT */
#include "hud.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* stb_easy_font is a header of static functions; this file uses some of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

/* Exponential smoothing of the frame time: steady enough to read, quick to follow a change. */
#define HUD_SMOOTHING 0.1
/* The backdrop's margin around the text, in glyph pixels. */
#define HUD_PAD 4.0f
/* The panel's text: the page field's lines and contents (APP_PAGE_FIELD_TEXT), a toast and the
 * HUD's own lines. */
#define HUD_TEXT_MAX (APP_PAGE_FIELD_TEXT + 1024)

void app_hud_frame(AppHud *hud, double ms)
{
    hud->frame_ms = hud->frame_ms > 0.0 ? hud->frame_ms + HUD_SMOOTHING * (ms - hud->frame_ms) : ms;
}

void app_hud_latency(AppHud *hud, double ms)
{
    hud->latency_ms =
        hud->latency_ms > 0.0 ? hud->latency_ms + HUD_SMOOTHING * (ms - hud->latency_ms) : ms;
}

void app_hud_stages(AppHud *hud, const double *ms, const char *const *names, uint32_t count)
{
    hud->stage_count = count < PAGECURL_MAX_STAGES ? count : PAGECURL_MAX_STAGES;
    for (uint32_t i = 0; i < hud->stage_count; i++) {
        hud->stage_ms[i] = ms[i];
        hud->stage_names[i] = names[i];
    }
}

/* Where the reader is, then two lines, so that the panel fits above the book: what runs and how
 * fast, then the GPU's stages; one more after a step down, saying why. */
static void hud_text(const AppHud *hud, char *text, size_t size)
{
    size_t at = 0;
    if (hud->toast[0]) {
        at = (size_t)snprintf(text, size, "%s%s", hud->toast,
                              hud->field[0] || hud->shown ? "\n" : "");
        at = at < size ? at : size - 1;
    }
    if (hud->field[0]) {
        at += (size_t)snprintf(text + at, size - at, "%s%s", hud->field, hud->shown ? "\n" : "");
        at = at < size ? at : size - 1;
    }
    if (!hud->shown || at + 1 >= size)
        return;
    if (hud->where[0]) { /* ASCII (app/where.h), as stb_easy_font needs */
        at += (size_t)snprintf(text + at, size - at, "%s%s\n", hud->where,
                               hud->contents ? "   (T, or a click on this line: contents)" : "");
        at = at < size ? at : size - 1;
    }
    at += (size_t)snprintf(
        text + at, size - at,
        "%s, %s quality, %s mode (I): %.2f ms a frame, %.0f frames/s, input to display "
        "%.0f ms\nGPU:",
        hud->device ? hud->device : "?", hud->quality ? hud->quality : "?",
        hud->ink_mode ? "ink" : "turn", hud->frame_ms,
        hud->frame_ms > 0.0 ? 1000.0 / hud->frame_ms : 0.0, hud->latency_ms);
    for (uint32_t i = 0; i < hud->stage_count && at < size; i++)
        at += (size_t)snprintf(text + at, size - at, "%s %s %.3f ms", i ? "," : "",
                               hud->stage_names[i], hud->stage_ms[i]);
    if (hud->note[0] && at < size)
        snprintf(text + at, size - at, "\n%s", hud->note);
}

void app_hud_size(const AppHud *hud, float *width, float *height)
{
    char text[HUD_TEXT_MAX];
    hud_text(hud, text, sizeof text);
    *width = (float)stb_easy_font_width(text) + 2.0f * HUD_PAD;
    *height = (float)stb_easy_font_height(text) + 2.0f * HUD_PAD;
}

/* A quad from (x0, y0) to (x1, y1) in glyph pixels, of one colour, at v. */
static unsigned char *quad(unsigned char *v, float x0, float y0, float x1, float y1,
                           const unsigned char colour[4])
{
    const float corners[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    for (int k = 0; k < 4; k++, v += APP_HUD_VERTEX_BYTES) {
        float xyz[3] = {corners[k][0], corners[k][1], 0.0f};
        memcpy(v, xyz, sizeof xyz);
        memcpy(v + sizeof xyz, colour, 4);
    }
    return v;
}

/* The line of `text` (counted from 0) that is the page field's contents' entry chosen (the field's
 * line starting "> ", app/page_field.h), -1 for none. */
static int chosen_line(const AppHud *hud, const char *text)
{
    const char *field = hud->field[0] ? strstr(text, hud->field) : NULL;
    int line = 0;
    for (const char *p = text; field && *p; p++) {
        if (p >= field && p < field + strlen(hud->field) && (p == text || p[-1] == '\n') &&
            p[0] == '>' && p[1] == ' ')
            return line;
        line += *p == '\n';
    }
    return -1;
}

uint32_t app_hud_quads(const AppHud *hud, void *vertices, size_t bytes)
{
    if (bytes < 8 * APP_HUD_VERTEX_BYTES)
        return 0;
    char text[HUD_TEXT_MAX];
    hud_text(hud, text, sizeof text);
    float w, h;
    app_hud_size(hud, &w, &h);
    /* the backdrop, and a lighter bar behind the contents' entry chosen: stb_easy_font's vertex
     * layout, x y z and four colour bytes. The backdrop all but hides the page under it (at 176 a
     * page's print ran through the contents' entries, and the text was pale on grey) */
    static const unsigned char shade[4] = {16, 18, 24, 236}, bar[4] = {18, 26, 64, 250};
    unsigned char *v = quad(vertices, 0.0f, 0.0f, w, h, shade);
    uint32_t quads = 1;
    int chosen = chosen_line(hud, text);
    if (chosen >= 0) { /* stb_easy_font's lines are 12 glyph pixels apart */
        float top = HUD_PAD + 12.0f * (float)chosen - 2.0f;
        v = quad(v, HUD_PAD - 2.0f, top, w - HUD_PAD + 2.0f, top + 12.0f, bar);
        quads++;
    }
    unsigned char colour[4] = {255, 236, 140, 255};
    size_t left = bytes - quads * 4 * APP_HUD_VERTEX_BYTES;
    int size = left > (size_t)INT32_MAX ? INT32_MAX : (int)left;
    return quads + (uint32_t)stb_easy_font_print(HUD_PAD, HUD_PAD, text, colour, v, size);
}

/* The lines of `text` ("" has none). */
static int lines_of(const char *text)
{
    int n = text[0] != '\0';
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* The panel's line (0-based) under the point (x, y) of the panel drawn `scale` times at (margin,
 * margin), -1 for none. */
static int line_at(const AppHud *hud, float scale, float margin, double x, double y)
{
    if (!(scale > 0.0f))
        return -1;
    float w, h;
    app_hud_size(hud, &w, &h);
    /* glyph pixels from the panel's top left; stb_easy_font's lines are 12 apart, from HUD_PAD */
    double gx = (x - margin) / scale, gy = (y - margin) / scale - HUD_PAD + 2.0;
    if (gx < 0.0 || gx > w || gy < 0.0 || gy >= h)
        return -1;
    return (int)(gy / 12.0);
}

int app_hud_field_line(const AppHud *hud, float scale, float margin, double x, double y)
{
    int line = line_at(hud, scale, margin, x, y) - lines_of(hud->toast); /* the toast comes first */
    return hud->field[0] && line >= 0 && line < lines_of(hud->field) ? line : -1;
}

bool app_hud_on_where(const AppHud *hud, float scale, float margin, double x, double y)
{
    return hud->shown && hud->where[0] &&
           line_at(hud, scale, margin, x, y) == lines_of(hud->toast) + lines_of(hud->field);
}

float app_hud_scale(const AppHud *hud, uint32_t head_row, uint32_t width, uint32_t height,
                    float margin)
{
    float w, h;
    app_hud_size(hud, &w, &h);
    for (float scale = 2.0f; scale > 1.0f; scale -= 0.5f)
        if (margin + h * scale + margin <= (float)head_row && margin + w * scale <= (float)width)
            return scale;
    bool legible = height >= APP_HUD_LEGIBLE_ROWS && margin + w * 1.5f <= (float)width &&
                   margin + h * 1.5f + margin <= (float)height;
    return legible ? 1.5f : 1.0f;
}
