/* SPDX-License-Identifier: MIT */
#include "content.h"

#include "line_break.h"
#include "typeface.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* stb_easy_font is a header of static functions; this file uses two of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

/* Linear-light colours (the texture is sRGB: encoded once at the end). */
typedef struct Rgb {
    float r, g, b;
} Rgb;
static const Rgb FRONT_PAPER = {0.92f, 0.88f, 0.78f};
static const Rgb BACK_PAPER = {0.58f, 0.68f, 0.90f}; /* blue: a turned page shows at a glance */
static const Rgb RULE = {0.25f, 0.42f, 0.75f};
static const Rgb MARGIN = {0.80f, 0.20f, 0.20f};
static const Rgb GRID = {0.36f, 0.47f, 0.70f};
static const Rgb INK = {0.03f, 0.04f, 0.10f};

/* Ruled lines per page height: a notebook page has about 30. */
#define CONTENT_RULES 28
/* Graph-paper squares across the back. */
#define CONTENT_SQUARES 16

typedef struct Canvas {
    float *rgb; /* linear light */
    int w, h;
} Canvas;

static void canvas_fill(Canvas *c, Rgb col)
{
    for (long i = 0; i < (long)c->w * c->h; i++) {
        c->rgb[3 * i] = col.r, c->rgb[3 * i + 1] = col.g, c->rgb[3 * i + 2] = col.b;
    }
}

static float overlap(float a0, float a1, float b0, float b1)
{
    float lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0.0f;
}

/* Blends `col` at `alpha` over the rectangle [x0, x1) x [y0, y1) (pixels, y down), each pixel by
 * the share of it the rectangle covers: edges are anti-aliased exactly, thin lines keep their
 * weight at any position, so the mips average what is really there. */
static void canvas_rect(Canvas *c, float x0, float y0, float x1, float y1, Rgb col, float alpha)
{
    int ix0 = (int)floorf(x0), iy0 = (int)floorf(y0), ix1 = (int)ceilf(x1), iy1 = (int)ceilf(y1);
    ix0 = ix0 < 0 ? 0 : ix0, iy0 = iy0 < 0 ? 0 : iy0;
    ix1 = ix1 > c->w ? c->w : ix1, iy1 = iy1 > c->h ? c->h : iy1;
    for (int y = iy0; y < iy1; y++) {
        float cy = overlap(y0, y1, (float)y, y + 1.0f);
        for (int x = ix0; x < ix1; x++) {
            float a = alpha * cy * overlap(x0, x1, (float)x, x + 1.0f);
            float *p = &c->rgb[3 * ((long)y * c->w + x)];
            p[0] += a * (col.r - p[0]), p[1] += a * (col.g - p[1]), p[2] += a * (col.b - p[2]);
        }
    }
}

/* Type sizes, pixels to the em per texel across the page, so the text keeps its place on the
 * paper at any texture resolution. */
#define TITLE_EM   0.085f
#define HEADING_EM 0.062f
#define BODY_EM    0.034f
#define NOTE_EM    0.042f
#define FOLIO_EM   0.05f
/* stb_easy_font's capitals are 7 units tall standing on y = 7; DejaVu's are 0.73 em. */
#define EASY_CAP 7.0f
#define FACE_CAP 0.73f

/* What the text of a page is set in: a TrueType face, or stb_easy_font where there is none. */
typedef struct Pen {
    Canvas *c;
    const PagesTypeface *face;
    float em; /* the size line breaking measures at */
} Pen;

typedef struct Ink {
    Canvas *c;
    Rgb col;
} Ink;

static void plot_glyph(void *user, int x, int y, float coverage)
{
    const Ink *ink = user;
    Canvas *c = ink->c;
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    float *p = &c->rgb[3 * ((long)y * c->w + x)];
    Rgb col = ink->col;
    p[0] += coverage * (col.r - p[0]), p[1] += coverage * (col.g - p[1]);
    p[2] += coverage * (col.b - p[2]);
}

static float text_width(const Pen *pen, PagesTypefaceStyle style, const char *text, float em)
{
    if (pen->face)
        return pages_typeface_width(pen->face, style, text, em);
    return em * FACE_CAP / EASY_CAP * (float)stb_easy_font_width((char *)text);
}

/* `text` at `em` pixels to the em with its baseline's left end at (x, y), pixels y down. */
static void canvas_text(const Pen *pen, PagesTypefaceStyle style, float x, float y, float em,
                        const char *text, Rgb col)
{
    Canvas *c = pen->c;
    if (pen->face) {
        Ink ink = {c, col};
        /* out of memory for a glyph: the page goes without it, as it would without the face */
        (void)pages_typeface_draw(pen->face, style, text, em, x, y, plot_glyph, &ink);
        return;
    }
    float quads[4096]; /* 4 vertices x 16 bytes per quad: enough for a line of ~60 glyphs */
    unsigned char colour[4] = {255, 255, 255, 255};
    float scale = em * FACE_CAP / EASY_CAP, top = y - EASY_CAP * scale;
    int n = stb_easy_font_print(0.0f, 0.0f, (char *)text, colour, quads, (int)sizeof quads);
    for (int q = 0; q < n; q++) {
        const float *v = &quads[16 * q]; /* corners 0 and 2: x, y, z, colour each */
        canvas_rect(c, x + scale * v[0], top + scale * v[1], x + scale * v[8], top + scale * v[9],
                    col, 1.0f);
    }
}

/* What the fronts' written lines say, a passage a chapter. */
static const char *const PASSAGES[] = {
    "A page that turns over its spine must read the right way round on both sides. The leaf "
    "bends along a cylinder that rolls across it, and the words on its back come into view "
    "the right way round as it settles on the left.",
    "Paper does not stretch. However the corner is lifted, every line drawn on the leaf keeps "
    "its length; the curl is the shape that lets it, a sheet rolled around a cone or a "
    "cylinder and flat everywhere else.",
    "Hold the corner and pull it over the spine. The fold follows the hand, the shadow under "
    "the lifted leaf darkens where the paper stands close above the page, and the next page "
    "waits underneath.",
    "Let go half way and the leaf falls back or over, to whichever side of the spine holds "
    "more of it. A hard cover turns as one board hinged at the spine; a thin page curls.",
};

static float measure_body(void *user, const char *line)
{
    const Pen *pen = user;
    return text_width(pen, PAGES_TYPEFACE_REGULAR_STYLE, line, pen->em);
}

/* Sets `text` in lines at most `width` wide from baseline `y` down, `step` apart, breaking
 * between words; at most `lines` lines. */
static void canvas_paragraph(const Pen *pen, float x, float y, float width, float step, int lines,
                             float em, const char *text, Rgb col)
{
    char line[128];
    Pen body = *pen;
    body.em = em;
    for (int i = 0;
         i < lines && pages_line_break(&text, width, measure_body, &body, line, sizeof line); i++)
        canvas_text(pen, PAGES_TYPEFACE_REGULAR_STYLE, x, y + (float)i * step, em, line, col);
}

/* Recto: ruled paper, a chapter title, a written passage, the page number at the outer (right)
 * foot. */
static void draw_front(const Pen *pen, int side, int leaf)
{
    Canvas *c = pen->c;
    float w = (float)c->w, h = (float)c->h, line = h / CONTENT_RULES;
    canvas_fill(c, FRONT_PAPER);
    for (int k = 1; k < CONTENT_RULES - 2; k++) /* the top rules are left for the title */
        canvas_rect(c, 0.0f, h - k * line - 0.8f, w, h - k * line + 0.8f, RULE, 0.6f);
    canvas_rect(c, 0.12f * w - 0.8f, 0.0f, 0.12f * w + 0.8f, h, MARGIN, 0.8f);
    char text[64];
    snprintf(text, sizeof text, "Chapter %d", leaf + 1);
    canvas_text(pen, PAGES_TYPEFACE_BOLD_STYLE, 0.16f * w, 0.035f * h + FACE_CAP * TITLE_EM * w,
                TITLE_EM * w, text, INK);
    float top = h - (CONTENT_RULES - 3) * line; /* the first rule under the title */
    const char *passage = PASSAGES[leaf % (int)(sizeof PASSAGES / sizeof PASSAGES[0])];
    canvas_paragraph(pen, 0.15f * w, top + line - 0.2f * line, 0.78f * w, line, 9, BODY_EM * w,
                     passage, INK);
    snprintf(text, sizeof text, "%d", side);
    float em = FOLIO_EM * w;
    canvas_text(pen, PAGES_TYPEFACE_REGULAR_STYLE,
                0.93f * w - text_width(pen, PAGES_TYPEFACE_REGULAR_STYLE, text, em),
                0.95f * h + FACE_CAP * em, em, text, INK);
}

/* Verso: graph paper, a heading, a framed note, the page number at the outer (left) foot. */
static void draw_back(const Pen *pen, int side)
{
    Canvas *c = pen->c;
    float w = (float)c->w, h = (float)c->h, square = w / CONTENT_SQUARES;
    canvas_fill(c, BACK_PAPER);
    for (int k = 1; k * square < w; k++)
        canvas_rect(c, k * square - 0.6f, 0.0f, k * square + 0.6f, h, GRID, k % 4 ? 0.3f : 0.6f);
    for (int k = 1; k * square < h; k++)
        canvas_rect(c, 0.0f, h - k * square - 0.6f, w, h - k * square + 0.6f, GRID,
                    k % 4 ? 0.3f : 0.6f);
    char text[64];
    snprintf(text, sizeof text, "Sketches, p. %d", side);
    canvas_text(pen, PAGES_TYPEFACE_BOLD_STYLE, 0.08f * w, 0.035f * h + FACE_CAP * HEADING_EM * w,
                HEADING_EM * w, text, INK);
    /* a framed note: a frame of four bars, then the words */
    float x0 = 0.10f * w, y0 = 0.30f * h, x1 = 0.90f * w, y1 = 0.45f * h, t = 0.006f * w;
    canvas_rect(c, x0, y0, x1, y0 + t, INK, 0.9f);
    canvas_rect(c, x0, y1 - t, x1, y1, INK, 0.9f);
    canvas_rect(c, x0, y0, x0 + t, y1, INK, 0.9f);
    canvas_rect(c, x1 - t, y0, x1, y1, INK, 0.9f);
    float em = NOTE_EM * w;
    canvas_text(pen, PAGES_TYPEFACE_REGULAR_STYLE, x0 + 0.05f * w, y0 + 0.035f * h + FACE_CAP * em,
                em, "verso: reads left", INK);
    canvas_text(pen, PAGES_TYPEFACE_REGULAR_STYLE, x0 + 0.05f * w, y0 + 0.085f * h + FACE_CAP * em,
                em, "to right, not mirrored", INK);
    snprintf(text, sizeof text, "%d", side);
    em = FOLIO_EM * w;
    canvas_text(pen, PAGES_TYPEFACE_REGULAR_STYLE, 0.07f * w, 0.95f * h + FACE_CAP * em, em, text,
                INK);
}

/* Linear light to sRGB bytes, 4096 steps: finer than the 8-bit output needs. */
static void canvas_encode(const Canvas *c, uint8_t *out)
{
    uint8_t table[4096];
    for (int i = 0; i < 4096; i++) {
        float x = i / 4095.0f;
        float s = x <= 0.0031308f ? 12.92f * x : 1.055f * powf(x, 1.0f / 2.4f) - 0.055f;
        table[i] = (uint8_t)(s * 255.0f + 0.5f);
    }
    for (long i = 0; i < (long)c->w * c->h; i++) {
        for (int k = 0; k < 3; k++) {
            float x = c->rgb[3 * i + k];
            int at = (int)((x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x) * 4095.0f + 0.5f);
            out[4 * i + k] = table[at];
        }
        out[4 * i + 3] = 255;
    }
}

uint8_t *pages_content_pixels(const PagesTypeface *face, uint32_t leaves, uint32_t width,
                              uint32_t height)
{
    size_t layer = (size_t)width * height;
    uint8_t *pixels = malloc(layer * 4 * 2 * leaves);
    Canvas c = {malloc(layer * 3 * sizeof(float)), (int)width, (int)height};
    if (!pixels || !c.rgb) {
        free(pixels);
        free(c.rgb);
        return NULL;
    }
    Pen pen = {&c, face, 0.0f};
    for (uint32_t leaf = 0; leaf < leaves; leaf++) {
        /* Leaf k's front is book page 2k + 1, its back 2k + 2 (mesh/flip.h). */
        draw_front(&pen, (int)(2 * leaf + 1), (int)leaf);
        canvas_encode(&c, pixels + layer * 4 * (2 * leaf));
        draw_back(&pen, (int)(2 * leaf + 2));
        canvas_encode(&c, pixels + layer * 4 * (2 * leaf + 1));
    }
    free(c.rgb);
    return pixels;
}

bool pages_content_side(const PagesTypeface *face, int side, uint32_t width, uint32_t height,
                        uint8_t *rgba)
{
    Canvas c = {malloc((size_t)width * height * 3 * sizeof(float)), (int)width, (int)height};
    if (!c.rgb)
        return false;
    Pen pen = {&c, face, 0.0f};
    /* Side 2k (book page 2k + 1) is leaf k's front, the next its back. */
    if (side % 2 == 0)
        draw_front(&pen, side + 1, side / 2);
    else
        draw_back(&pen, side + 1);
    canvas_encode(&c, rgba);
    free(c.rgb);
    return true;
}
