#include "content.h"

#include "../mesh/ink_raster.h"

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
static const Rgb PENCIL = {0.16f, 0.16f, 0.18f};

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

/* Text with its top-left at (x, y), glyphs `scale` pixels per stb_easy_font unit. */
static void canvas_text(Canvas *c, float x, float y, float scale, const char *text, Rgb col)
{
    float quads[4096]; /* 4 vertices x 16 bytes per quad: enough for a line of ~60 glyphs */
    unsigned char colour[4] = {255, 255, 255, 255};
    int n = stb_easy_font_print(0.0f, 0.0f, (char *)text, colour, quads, (int)sizeof quads);
    for (int q = 0; q < n; q++) {
        const float *v = &quads[16 * q]; /* corners 0 and 2: x, y, z, colour each */
        canvas_rect(c, x + scale * v[0], y + scale * v[1], x + scale * v[8], y + scale * v[9], col,
                    1.0f);
    }
}

static float text_width(const char *text, float scale)
{
    return scale * (float)stb_easy_font_width((char *)text);
}

/* Recto: ruled paper, a title, three written lines, the page number at the outer (right) foot. */
static void draw_front(Canvas *c, int page, int leaf)
{
    float w = (float)c->w, h = (float)c->h, line = h / CONTENT_RULES;
    canvas_fill(c, FRONT_PAPER);
    for (int k = 1; k < CONTENT_RULES - 2; k++) /* the top rules are left for the title */
        canvas_rect(c, 0.0f, h - k * line - 0.8f, w, h - k * line + 0.8f, RULE, 0.6f);
    canvas_rect(c, 0.12f * w - 0.8f, 0.0f, 0.12f * w + 0.8f, h, MARGIN, 0.8f);
    char text[64];
    snprintf(text, sizeof text, "Chapter %d", leaf + 1);
    canvas_text(c, 0.16f * w, 0.035f * h, 5.0f, text, INK);
    const char *lines[] = {"A page that turns over its", "spine must read the right",
                           "way round on both sides."};
    float top = h - (CONTENT_RULES - 3) * line; /* the first rule under the title */
    for (int i = 0; i < 3; i++)
        canvas_text(c, 0.15f * w, top + (i + 1) * line - 2.4f * 7.0f, 2.4f, lines[i], PENCIL);
    snprintf(text, sizeof text, "%d", page);
    canvas_text(c, 0.93f * w - text_width(text, 4.0f), h - 0.05f * h, 4.0f, text, INK);
}

/* Verso: graph paper, a heading, a framed note, the page number at the outer (left) foot. */
static void draw_back(Canvas *c, int page)
{
    float w = (float)c->w, h = (float)c->h, square = w / CONTENT_SQUARES;
    canvas_fill(c, BACK_PAPER);
    for (int k = 1; k * square < w; k++)
        canvas_rect(c, k * square - 0.6f, 0.0f, k * square + 0.6f, h, GRID, k % 4 ? 0.3f : 0.6f);
    for (int k = 1; k * square < h; k++)
        canvas_rect(c, 0.0f, h - k * square - 0.6f, w, h - k * square + 0.6f, GRID,
                    k % 4 ? 0.3f : 0.6f);
    char text[64];
    snprintf(text, sizeof text, "Sketches, p. %d", page);
    canvas_text(c, 0.08f * w, 0.035f * h, 4.0f, text, INK);
    /* a framed note: a frame of four bars, then the words */
    float x0 = 0.10f * w, y0 = 0.30f * h, x1 = 0.90f * w, y1 = 0.45f * h, t = 3.0f;
    canvas_rect(c, x0, y0, x1, y0 + t, INK, 0.9f);
    canvas_rect(c, x0, y1 - t, x1, y1, INK, 0.9f);
    canvas_rect(c, x0, y0, x0 + t, y1, INK, 0.9f);
    canvas_rect(c, x1 - t, y0, x1, y1, INK, 0.9f);
    canvas_text(c, x0 + 0.05f * w, y0 + 0.035f * h, 3.0f, "verso: reads left", INK);
    canvas_text(c, x0 + 0.05f * w, y0 + 0.085f * h, 3.0f, "to right, not mirrored", INK);
    snprintf(text, sizeof text, "%d", page);
    canvas_text(c, 0.07f * w, h - 0.05f * h, 4.0f, text, INK);
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

uint8_t *app_content_pixels(uint32_t leaves, uint32_t width, uint32_t height)
{
    size_t layer = (size_t)width * height;
    uint8_t *pixels = malloc(layer * 4 * 2 * leaves);
    Canvas c = {malloc(layer * 3 * sizeof(float)), (int)width, (int)height};
    if (!pixels || !c.rgb) {
        free(pixels);
        free(c.rgb);
        return NULL;
    }
    for (uint32_t leaf = 0; leaf < leaves; leaf++) {
        /* Leaf k's front is book page 2k + 1, its back 2k + 2 (mesh/flip.h). */
        draw_front(&c, (int)(2 * leaf + 1), (int)leaf);
        canvas_encode(&c, pixels + layer * 4 * (2 * leaf));
        draw_back(&c, (int)(2 * leaf + 2));
        canvas_encode(&c, pixels + layer * 4 * (2 * leaf + 1));
    }
    free(c.rgb);
    return pixels;
}

bool app_content_page(int page, uint32_t width, uint32_t height, uint8_t *rgba)
{
    Canvas c = {malloc((size_t)width * height * 3 * sizeof(float)), (int)width, (int)height};
    if (!c.rgb)
        return false;
    /* Book page 2k + 1 (0-based 2k) is leaf k's front, the next its back. */
    if (page % 2 == 0)
        draw_front(&c, page + 1, page / 2);
    else
        draw_back(&c, page + 1);
    canvas_encode(&c, rgba);
    free(c.rgb);
    return true;
}

bool app_content_renderer_layers(const GpuContext *ctx, const GpuRendererDesc *base, uint32_t width,
                                 uint32_t height, uint32_t layers, const uint8_t *pixels,
                                 GpuRenderer *out, GpuError *err)
{
    GpuRendererDesc desc = *base;
    desc.content = (GpuTextureDesc){.width = width,
                                    .height = height,
                                    .layers = layers,
                                    .pixels = pixels,
                                    .label = "page content"};
    /* texels square on the paper, as the rasteriser's widths and dots assume */
    desc.ink_width = MESH_INK_RASTER_SIZE;
    desc.ink_height = (uint32_t)lrintf(MESH_INK_RASTER_SIZE * (float)height / (float)width);
    return gpu_renderer_create(ctx, &desc, out, err);
}

bool app_content_renderer_create(const GpuContext *ctx, const GpuRendererDesc *base,
                                 uint32_t leaves, float aspect, GpuRenderer *out, GpuError *err)
{
    uint32_t w = APP_CONTENT_WIDTH, h = (uint32_t)lrintf(APP_CONTENT_WIDTH * aspect);
    uint8_t *pixels = app_content_pixels(leaves, w, h);
    if (!pixels)
        return gpu_error_set(err, "out of memory for %u pages of %ux%u texels", 2 * leaves, w, h);
    bool ok = app_content_renderer_layers(ctx, base, w, h, 2 * leaves, pixels, out, err);
    free(pixels);
    return ok;
}
