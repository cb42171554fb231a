/* SPDX-License-Identifier: MIT */
/* The TrueType faces the built-in book's pages are set in: DejaVu Serif, regular and bold, from
 * Debian's fonts-dejavu-core, looked up at run time at its fixed paths (no fontconfig: a face
 * picked by the machine's configuration would make the goldens depend on which fonts happen to
 * be installed). FreeType reads the files (it checks every offset against the file: a hostile
 * font is refused, never read out of bounds); the printable ASCII glyphs' outlines, advances and
 * kerning are taken from it once, at load, and drawn anti-aliased at any size, unhinted, as
 * coverage handed to the caller pixel by pixel. A missing face or a damaged font file (a table
 * outside the file or not matching its checksum, a table FreeType refuses, a glyph missing or
 * empty or far outside its em) gives no face, and the caller falls back to stb_easy_font.
 * Read only once loaded: one face may be shared by threads. */
#ifndef PAGECURL_PAGES_TYPEFACE_H
#define PAGECURL_PAGES_TYPEFACE_H

#include <stdbool.h>
#include <stddef.h>

/* Where the faces are looked for: this folder (named by the environment variable, for tests and
 * for machines that keep DejaVu elsewhere) instead of Debian's. */
#define PAGES_TYPEFACE_DIR_ENV "PAGECURL_FONT_DIR"
#define PAGES_TYPEFACE_DIR     "/usr/share/fonts/truetype/dejavu"
#define PAGES_TYPEFACE_REGULAR "DejaVuSerif.ttf"
#define PAGES_TYPEFACE_BOLD    "DejaVuSerif-Bold.ttf"

typedef enum PagesTypefaceStyle {
    PAGES_TYPEFACE_REGULAR_STYLE,
    PAGES_TYPEFACE_BOLD_STYLE
} PagesTypefaceStyle;

typedef struct PagesTypeface PagesTypeface;

/* Both faces from the folder, or NULL when either is missing, unreadable or damaged (or out of
 * memory). A face that is simply not there (the package not installed) leaves `why` empty; one
 * that is there and cannot be used is said in `why`, its path first ("/x/DejaVuSerif.ttf: its
 * glyph for 'A' is damaged"). */
PagesTypeface *pages_typeface_load(char *why, size_t size);

/* Both faces from font files in memory (none of their bytes is kept: they may go once it
 * returns), or NULL with `why` saying what is wrong, "regular: " or "bold: " first. */
PagesTypeface *pages_typeface_from_memory(const void *regular, size_t regular_len, const void *bold,
                                          size_t bold_len, char *why, size_t size);

void pages_typeface_free(PagesTypeface *face);

/* The advance of `text` (ASCII) set at `size` pixels to the em. */
float pages_typeface_width(const PagesTypeface *face, PagesTypefaceStyle style, const char *text,
                           float size);

/* Receives a glyph pixel's coverage in (0, 1]: pixel column x, row y (y down). */
typedef void PagesTypefacePlot(void *user, int x, int y, float coverage);

/* Sets `text` (ASCII; other bytes show as '?') at `size` pixels to the em with its baseline's
 * left end at (x, y), pixels y down, positioned to the subpixel and kerned; false when out of
 * memory for a glyph (or FreeType could not draw one: the line goes without it). */
bool pages_typeface_draw(const PagesTypeface *face, PagesTypefaceStyle style, const char *text,
                         float size, float x, float y, PagesTypefacePlot *plot, void *user);

#endif
