/* SPDX-License-Identifier: MIT */
#include "typeface.h"

#include "../files/input.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

/* DejaVu Serif is 350 KB; a font file larger than this is not the one we look for. */
#define TYPEFACE_MAX_BYTES (32u << 20)

/* The glyphs the pages can ask for: printable ASCII (anything else is set as '?'). */
#define FIRST_CHAR 32
#define GLYPHS     95

/* How far, in ems, a glyph's outline may reach from its origin, and its advance or a kerning
 * move: DejaVu's reach 1.3 em at most. A hostile face's glyph 30,000 ems tall would take the
 * rasteriser minutes and overflow its span's 16-bit column. */
#define REACH 4

/* The largest size drawn, pixels to the em: a glyph REACH ems across stays within the 16 bits a
 * FreeType span's column has. */
#define MAX_SIZE 4096.0f

typedef struct Glyph {
    /* in font units, y up; the arrays are ours (the face is closed once the glyphs are read) */
    FT_Outline outline;
    long advance;
} Glyph;

typedef struct Face {
    Glyph glyphs[GLYPHS];
    short kern[GLYPHS][GLYPHS]; /* font units, by [left][right] glyph */
    float em;                   /* font units to pixels at a size of 1 pixel to the em */
} Face;

struct PagesTypeface {
    /* Only outlines are drawn after load, each into the caller's plot: FreeType asks a lock only
     * around making and closing faces (done here, in one thread), so threads may share it. */
    FT_Library lib;
    Face faces[2]; /* by PagesTypefaceStyle */
};

static bool say(char *why, size_t size, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vsnprintf(why, size, format, ap);
    va_end(ap);
    return false;
}

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

/* FreeType reads any file safely but does not check the tables' checksums: a file damaged on
 * disk or on its way (a byte changed in a glyph) would still draw, with a letter wrong here or
 * there. So a TrueType outline font whose every table lies inside the file and matches the
 * checksum its directory gives is asked for first, and anything else falls back as a whole. */
static bool sound(const unsigned char *data, size_t len, char *why, size_t size)
{
    uint32_t version = len >= 12 ? be32(data) : 0;
    if (version != 0x00010000u && version != 0x74727565u /* 'true' */)
        return say(why, size, "not a TrueType font");
    size_t tables = (size_t)data[4] << 8 | data[5];
    if (tables == 0 || 12 + 16 * tables > len)
        return say(why, size, "not a TrueType font (its table directory is cut short)");
    for (size_t i = 0; i < tables; i++) {
        const unsigned char *entry = data + 12 + 16 * i;
        char tag[5];
        for (int k = 0; k < 4; k++)
            tag[k] = entry[k] >= 32 && entry[k] < 127 ? (char)entry[k] : '?';
        tag[4] = '\0';
        uint64_t at = be32(entry + 8), bytes = be32(entry + 12);
        if (at + bytes > len)
            return say(why, size, "damaged: its '%s' table lies outside the file", tag);
        bool head = !memcmp(entry, "head", 4);
        if (table_sum(data, (size_t)at, (size_t)bytes, head) != be32(entry + 4))
            return say(why, size, "damaged: its '%s' table does not match its checksum", tag);
    }
    return true;
}

static void glyph_free(Glyph *g)
{
    free(g->outline.points);
    free(g->outline.tags);
    free(g->outline.contours);
    memset(g, 0, sizeof *g);
}

/* The slot's outline into `g`, in arrays of its own. */
static bool glyph_copy(Glyph *g, const FT_Outline *from)
{
    size_t points = from->n_points > 0 ? (size_t)from->n_points : 0;
    size_t contours = from->n_contours > 0 ? (size_t)from->n_contours : 0;
    g->outline = *from;
    g->outline.points = NULL, g->outline.tags = NULL, g->outline.contours = NULL;
    if (!points)
        return true;
    g->outline.points = malloc(points * sizeof *from->points);
    g->outline.tags = malloc(points * sizeof *from->tags);
    g->outline.contours = malloc(contours * sizeof *from->contours);
    if (!g->outline.points || !g->outline.tags || !g->outline.contours)
        return false;
    memcpy(g->outline.points, from->points, points * sizeof *from->points);
    memcpy(g->outline.tags, from->tags, points * sizeof *from->tags);
    memcpy(g->outline.contours, from->contours, contours * sizeof *from->contours);
    return true;
}

/* The glyphs, advances and kerning of an open face into `f`: every printable ASCII character
 * must have its glyph, an outline (the space aside) within REACH ems. */
static bool face_take(Face *f, FT_Face ft, char *why, size_t size)
{
    if (!FT_IS_SCALABLE(ft))
        return say(why, size, "a face without outlines");
    if (FT_Select_Charmap(ft, FT_ENCODING_UNICODE))
        return say(why, size, "damaged: no Unicode character map that can be read");
    long upem = ft->units_per_EM, reach = REACH * upem;
    if (upem <= 0)
        return say(why, size, "damaged: no units per em");
    f->em = 1.0f / (float)upem;
    FT_UInt glyph_index[GLYPHS];
    for (int i = 0; i < GLYPHS; i++) {
        char c = (char)(FIRST_CHAR + i);
        glyph_index[i] = FT_Get_Char_Index(ft, (FT_ULong)c);
        if (!glyph_index[i])
            return say(why, size, "it has no glyph for '%c'", c);
        /* unscaled (so unhinted): the outline in font units, drawn at any size later */
        FT_Error e = FT_Load_Glyph(ft, glyph_index[i], FT_LOAD_NO_SCALE);
        if (e == FT_Err_Out_Of_Memory)
            return say(why, size, "out of memory");
        const FT_GlyphSlot slot = ft->glyph;
        if (e || slot->format != FT_GLYPH_FORMAT_OUTLINE || FT_Outline_Check(&slot->outline))
            return say(why, size, "damaged: its glyph for '%c' cannot be read", c);
        const FT_Outline *o = &slot->outline;
        /* a glyph the file's index points past its data is read as empty */
        if (c != ' ' && (o->n_points <= 0 || o->n_contours <= 0))
            return say(why, size, "damaged: its glyph for '%c' is empty", c);
        FT_BBox box;
        FT_Outline_Get_CBox(o, &box);
        long advance = slot->metrics.horiAdvance;
        if ((o->n_points > 0 &&
             (box.xMin < -reach || box.xMax > reach || box.yMin < -reach || box.yMax > reach)) ||
            advance < 0 || advance > reach)
            return say(why, size, "damaged: its glyph for '%c' lies far outside its em", c);
        if (!glyph_copy(&f->glyphs[i], o))
            return say(why, size, "out of memory");
        f->glyphs[i].advance = advance;
    }
    for (int a = 0; a < GLYPHS && FT_HAS_KERNING(ft); a++)
        for (int b = 0; b < GLYPHS; b++) {
            FT_Vector k = {0, 0};
            if (FT_Get_Kerning(ft, glyph_index[a], glyph_index[b], FT_KERNING_UNSCALED, &k))
                k.x = 0;
            if (k.x < -upem || k.x > upem)
                return say(why, size, "damaged: its kerning of '%c' and '%c' is more than an em",
                           FIRST_CHAR + a, FIRST_CHAR + b);
            f->kern[a][b] = (short)k.x; /* an em is at most 16384 units (FreeType checks) */
        }
    return true;
}

/* Face `f` from the font file's bytes, which FreeType reads in place until the face is closed
 * here: none of them is kept. */
static bool face_from(Face *f, FT_Library lib, const void *data, size_t len, char *why, size_t size)
{
    if (len > TYPEFACE_MAX_BYTES)
        return say(why, size, "larger than %u MiB: not a face", TYPEFACE_MAX_BYTES >> 20);
    if (!sound(data, len, why, size))
        return false;
    FT_Face ft;
    FT_Error e = FT_New_Memory_Face(lib, data, (FT_Long)len, 0, &ft);
    if (e)
        return say(why, size, "%s",
                   e == FT_Err_Out_Of_Memory ? "out of memory"
                                             : "damaged: FreeType cannot read it");
    bool ok = face_take(f, ft, why, size);
    FT_Done_Face(ft);
    return ok;
}

/* Face `f` from `dir`/`name`. A file that is not there is no fault (`why` left empty). */
static bool face_load(Face *f, FT_Library lib, const char *dir, const char *name, char *why,
                      size_t size)
{
    char path[1024], cause[256];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return say(why, size, "%s: the folder's path is too long", dir);
    FILE *in = files_open(path, cause, sizeof cause);
    if (!in)
        return errno == ENOENT ? say(why, size, "%s", "") : say(why, size, "%s: %s", path, cause);
    char *data;
    size_t len;
    FilesRead r = files_read(in, TYPEFACE_MAX_BYTES, &data, &len);
    int error = errno;
    fclose(in);
    if (r == FILES_READ_TOO_LARGE)
        return say(why, size, "%s: larger than %u MiB: not a face", path, TYPEFACE_MAX_BYTES >> 20);
    if (r == FILES_READ_NO_MEMORY)
        return say(why, size, "%s: out of memory", path);
    if (r != FILES_READ_OK)
        return say(why, size, "%s: %s", path, strerror(error));
    bool ok = face_from(f, lib, data, len, cause, sizeof cause);
    free(data);
    return ok || say(why, size, "%s: %s", path, cause);
}

static PagesTypeface *typeface_new(char *why, size_t size)
{
    PagesTypeface *face = calloc(1, sizeof *face);
    if (face && !FT_Init_FreeType(&face->lib))
        return face;
    free(face);
    say(why, size, "out of memory for FreeType");
    return NULL;
}

PagesTypeface *pages_typeface_load(char *why, size_t size)
{
    const char *dir = getenv(PAGES_TYPEFACE_DIR_ENV);
    PagesTypeface *face = typeface_new(why, size);
    if (!face)
        return NULL;
    dir = dir && *dir ? dir : PAGES_TYPEFACE_DIR;
    if (!face_load(&face->faces[PAGES_TYPEFACE_REGULAR_STYLE], face->lib, dir,
                   PAGES_TYPEFACE_REGULAR, why, size) ||
        !face_load(&face->faces[PAGES_TYPEFACE_BOLD_STYLE], face->lib, dir, PAGES_TYPEFACE_BOLD,
                   why, size)) {
        pages_typeface_free(face);
        return NULL;
    }
    why[0] = '\0';
    return face;
}

PagesTypeface *pages_typeface_from_memory(const void *regular, size_t regular_len, const void *bold,
                                          size_t bold_len, char *why, size_t size)
{
    PagesTypeface *face = typeface_new(why, size);
    if (!face)
        return NULL;
    char cause[256];
    const char *which = "regular";
    bool ok = face_from(&face->faces[PAGES_TYPEFACE_REGULAR_STYLE], face->lib, regular, regular_len,
                        cause, sizeof cause);
    if (ok) {
        which = "bold";
        ok = face_from(&face->faces[PAGES_TYPEFACE_BOLD_STYLE], face->lib, bold, bold_len, cause,
                       sizeof cause);
    }
    if (!ok) {
        say(why, size, "%s: %s", which, cause);
        pages_typeface_free(face);
        return NULL;
    }
    why[0] = '\0';
    return face;
}

void pages_typeface_free(PagesTypeface *face)
{
    if (!face)
        return;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < GLYPHS; i++)
            glyph_free(&face->faces[s].glyphs[i]);
    FT_Done_FreeType(face->lib);
    free(face);
}

static int glyph_of(char c)
{
    return (c >= FIRST_CHAR && c < FIRST_CHAR + GLYPHS ? c : '?') - FIRST_CHAR;
}

/* The advance from glyph `g` to the next, `next` (-1: none), in font units. */
static long advance(const Face *f, int g, int next)
{
    return f->glyphs[g].advance + (next >= 0 ? f->kern[g][next] : 0);
}

float pages_typeface_width(const PagesTypeface *face, PagesTypefaceStyle style, const char *text,
                           float size)
{
    const Face *f = &face->faces[style];
    long units = 0;
    for (const char *p = text; *p; p++)
        units += advance(f, glyph_of(p[0]), p[1] ? glyph_of(p[1]) : -1);
    return (float)units * f->em * size;
}

/* Where FreeType's rows of coverage go: its scanline y counts up from the glyph's origin, whose
 * pixel is (left, base - 1) on the page (y down). */
typedef struct Spans {
    PagesTypefacePlot *plot;
    void *user;
    int left, base;
} Spans;

static void plot_spans(int y, int count, const FT_Span *spans, void *user)
{
    const Spans *to = user;
    for (int i = 0; i < count; i++)
        if (spans[i].coverage)
            for (int x = spans[i].x; x < spans[i].x + spans[i].len; x++)
                to->plot(to->user, to->left + x, to->base - 1 - y, spans[i].coverage / 255.0f);
}

bool pages_typeface_draw(const PagesTypeface *face, PagesTypefaceStyle style, const char *text,
                         float size, float x, float y, PagesTypefacePlot *plot, void *user)
{
    const Face *f = &face->faces[style];
    if (!(size > 0.0f && size <= MAX_SIZE))
        return true; /* nothing to see, or glyphs larger than the rasteriser's spans reach */
    float scale = f->em * size, pen = x;
    float base = floorf(y), shift_y = y - base;
    bool drawn = true;
    for (const char *p = text; *p; p++) {
        int g = glyph_of(p[0]), next = p[1] ? glyph_of(p[1]) : -1;
        const FT_Outline *from = &f->glyphs[g].outline;
        float left = floorf(pen), shift_x = pen - left;
        if (from->n_points > 0) {
            /* the outline scaled and moved to its place within the pixel, in 26.6 fixed point */
            FT_Outline o = *from;
            o.points = malloc((size_t)from->n_points * sizeof *o.points);
            if (!o.points)
                return false;
            for (int i = 0; i < from->n_points; i++) {
                o.points[i].x = lrintf(((float)from->points[i].x * scale + shift_x) * 64.0f);
                o.points[i].y = lrintf(((float)from->points[i].y * scale - shift_y) * 64.0f);
            }
            Spans to = {plot, user, (int)left, (int)base};
            FT_Raster_Params params = {.source = &o,
                                       .flags = FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT,
                                       .gray_spans = plot_spans,
                                       .user = &to};
            drawn = !FT_Outline_Render(face->lib, &o, &params) && drawn;
            free(o.points);
        }
        pen += (float)advance(f, g, next) * scale;
    }
    return drawn;
}
