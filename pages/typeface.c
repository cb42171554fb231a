#include "typeface.h"

#include "file.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The implementation is libstb's (Debian's libstb.so): the header only declares. */
#include <stb_truetype.h>

/* DejaVu Serif is 350 KB; a font file larger than this is not the one we look for. */
#define TYPEFACE_MAX_BYTES (32u << 20)

typedef struct Face {
    char *data; /* the whole file: stb_truetype reads it in place */
    size_t len;
    stbtt_fontinfo info;
    float em; /* stb's scale for a size of 1 pixel to the em */
} Face;

struct AppTypeface {
    Face faces[2]; /* by AppTypefaceStyle */
};

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The TrueType checksum of [at, at + len): big-endian words summed, the last padded with zeros;
 * in `head` the checkSumAdjustment word (offset 8) counts as zero. */
static uint32_t table_sum(const unsigned char *data, size_t at, size_t len, bool head)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < len; i += 4) {
        unsigned char w[4] = {0, 0, 0, 0};
        memcpy(w, data + at + i, len - i < 4 ? len - i : 4);
        if (!(head && i == 8))
            sum += be32(w);
    }
    return sum;
}

/* stb_truetype trusts the file it reads (offsets are not checked against its size), so a damaged
 * one is refused here first: a TrueType outline font whose every table lies inside the file and
 * matches the checksum its directory gives. */
static bool sound(const unsigned char *data, size_t len)
{
    if (len < 12)
        return false;
    uint32_t version = be32(data);
    size_t tables = (size_t)data[4] << 8 | data[5];
    if ((version != 0x00010000u && version != 0x74727565u /* 'true' */) || tables == 0 ||
        12 + 16 * tables > len)
        return false;
    for (size_t i = 0; i < tables; i++) {
        const unsigned char *entry = data + 12 + 16 * i;
        uint64_t at = be32(entry + 8), size = be32(entry + 12);
        if (at + size > len)
            return false;
        bool head = !memcmp(entry, "head", 4);
        if (table_sum(data, (size_t)at, (size_t)size, head) != be32(entry + 4))
            return false;
    }
    return true;
}

static bool face_load(Face *f, const char *dir, const char *name)
{
    char path[1024];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return false;
    char why[128]; /* the face is a matter of looks: any failure falls back, silently */
    FILE *in = app_file_open(path, why, sizeof why);
    if (!in)
        return false;
    AppFileRead r = app_file_read(in, TYPEFACE_MAX_BYTES, &f->data, &f->len);
    fclose(in);
    if (r != APP_FILE_OK)
        return false;
    const unsigned char *data = (const unsigned char *)f->data;
    if (!sound(data, f->len) || !stbtt_InitFont(&f->info, data, 0))
        return false;
    f->em = stbtt_ScaleForMappingEmToPixels(&f->info, 1.0f);
    /* every glyph the pages can ask for must be there */
    for (int c = 32; c < 127; c++)
        if (!stbtt_FindGlyphIndex(&f->info, c))
            return false;
    return f->em > 0.0f;
}

AppTypeface *app_typeface_load(void)
{
    const char *dir = getenv(APP_TYPEFACE_DIR_ENV);
    AppTypeface *face = calloc(1, sizeof *face);
    if (!face)
        return NULL;
    dir = dir && *dir ? dir : APP_TYPEFACE_DIR;
    if (!face_load(&face->faces[APP_TYPEFACE_REGULAR_STYLE], dir, APP_TYPEFACE_REGULAR) ||
        !face_load(&face->faces[APP_TYPEFACE_BOLD_STYLE], dir, APP_TYPEFACE_BOLD)) {
        app_typeface_free(face);
        return NULL;
    }
    return face;
}

void app_typeface_free(AppTypeface *face)
{
    if (!face)
        return;
    free(face->faces[0].data);
    free(face->faces[1].data);
    free(face);
}

static int glyph_of(const Face *f, char c)
{
    return stbtt_FindGlyphIndex(&f->info, c >= 32 && c < 127 ? c : '?');
}

/* The advance from glyph `g` to the next, `next` (0: none), in font units. */
static int advance(const Face *f, int g, int next)
{
    int adv, bearing;
    stbtt_GetGlyphHMetrics(&f->info, g, &adv, &bearing);
    return adv + (next ? stbtt_GetGlyphKernAdvance(&f->info, g, next) : 0);
}

float app_typeface_width(const AppTypeface *face, AppTypefaceStyle style, const char *text,
                         float size)
{
    const Face *f = &face->faces[style];
    long units = 0;
    for (const char *p = text; *p; p++)
        units += advance(f, glyph_of(f, p[0]), p[1] ? glyph_of(f, p[1]) : 0);
    return (float)units * f->em * size;
}

bool app_typeface_draw(const AppTypeface *face, AppTypefaceStyle style, const char *text,
                       float size, float x, float y, AppTypefacePlot *plot, void *user)
{
    const Face *f = &face->faces[style];
    float scale = f->em * size, pen = x;
    float base = floorf(y), shift_y = y - base;
    for (const char *p = text; *p; p++) {
        int g = glyph_of(f, p[0]), next = p[1] ? glyph_of(f, p[1]) : 0;
        float left = floorf(pen), shift_x = pen - left;
        int x0, y0, x1, y1;
        stbtt_GetGlyphBitmapBoxSubpixel(&f->info, g, scale, scale, shift_x, shift_y, &x0, &y0, &x1,
                                        &y1);
        int w = x1 - x0, h = y1 - y0;
        if (w > 0 && h > 0) {
            unsigned char *bits = malloc((size_t)w * h);
            if (!bits)
                return false;
            stbtt_MakeGlyphBitmapSubpixel(&f->info, bits, w, h, w, scale, scale, shift_x, shift_y,
                                          g);
            for (int j = 0; j < h; j++)
                for (int i = 0; i < w; i++)
                    if (bits[j * w + i])
                        plot(user, (int)left + x0 + i, (int)base + y0 + j,
                             bits[j * w + i] / 255.0f);
            free(bits);
        }
        pen += (float)advance(f, g, next) * scale;
    }
    return true;
}
