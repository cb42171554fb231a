/* The TrueType faces the built-in book's pages are set in: DejaVu Serif, regular and bold, from
 * Debian's fonts-dejavu-core, looked up at run time at its fixed paths (no fontconfig: a face
 * picked by the machine's configuration would make the goldens depend on which fonts happen to
 * be installed). Glyphs are drawn anti-aliased by stb_truetype, at any size, as coverage handed to
 * the caller pixel by pixel. A missing face or a damaged font file (a table outside the file, a
 * table checksum that does not match) gives no face, and the caller falls back to stb_easy_font.
 * Read only once loaded: one face may be shared by threads. */
#ifndef PAGECURL_APP_TYPEFACE_H
#define PAGECURL_APP_TYPEFACE_H

#include <stdbool.h>

/* Where the faces are looked for: this folder (named by the environment variable, for tests and
 * for machines that keep DejaVu elsewhere) instead of Debian's. */
#define APP_TYPEFACE_DIR_ENV "PAGECURL_FONT_DIR"
#define APP_TYPEFACE_DIR     "/usr/share/fonts/truetype/dejavu"
#define APP_TYPEFACE_REGULAR "DejaVuSerif.ttf"
#define APP_TYPEFACE_BOLD    "DejaVuSerif-Bold.ttf"

typedef enum AppTypefaceStyle {
    APP_TYPEFACE_REGULAR_STYLE,
    APP_TYPEFACE_BOLD_STYLE
} AppTypefaceStyle;

typedef struct AppTypeface AppTypeface;

/* Both faces, or NULL when either is missing, unreadable or damaged (or out of memory). */
AppTypeface *app_typeface_load(void);
void app_typeface_free(AppTypeface *face);

/* The advance of `text` (ASCII) set at `size` pixels to the em. */
float app_typeface_width(const AppTypeface *face, AppTypefaceStyle style, const char *text,
                         float size);

/* Receives a glyph pixel's coverage in (0, 1]: pixel column x, row y (y down). */
typedef void AppTypefacePlot(void *user, int x, int y, float coverage);

/* Sets `text` (ASCII; other bytes show as '?') at `size` pixels to the em with its baseline's
 * left end at (x, y), pixels y down, positioned to the subpixel and kerned; false when out of
 * memory for a glyph. */
bool app_typeface_draw(const AppTypeface *face, AppTypefaceStyle style, const char *text,
                       float size, float x, float y, AppTypefacePlot *plot, void *user);

#endif
