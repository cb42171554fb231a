/* SPDX-License-Identifier: MIT */
/* The types and limits that pages/book_source.h's calls take (a reflowable book's layout, a
 * host's provider, a book's contents, a region of a page), apart from the calls so that the
 * sources' own table (pages/source.h) names them without naming the calls it implements. */
#ifndef PAGECURL_PAGES_BOOK_SOURCE_TYPES_H
#define PAGECURL_PAGES_BOOK_SOURCE_TYPES_H

#include "provider_call.h"

#include <stdint.h>

typedef struct PagesBookSource PagesBookSource;

/* How a reflowable book (EPUB, FB2: text that MuPDF lays out into pages) is laid out: its page's
 * height / width and its text's size in points (0: the defaults below). A fixed-layout book's
 * pages (a PDF's, an XPS's, a comic's) have their own shape and type. The page is
 * PAGES_BOOK_PAGE_WIDTH points wide, a paperback's: about 65 characters a line at 11 pt. */
typedef struct PagesTextLayout {
    float aspect, font_size;
} PagesTextLayout;
#define PAGES_BOOK_PAGE_WIDTH  360.0f
#define PAGES_BOOK_PAGE_ASPECT 1.5f
#define PAGES_BOOK_FONT_SIZE   11.0f
/* The text sizes a reader may choose (--font-size), in points. */
#define PAGES_BOOK_FONT_MIN 6.0f
#define PAGES_BOOK_FONT_MAX 48.0f
/* The page shapes a reflowable book may be laid out to (height / width): a window's half is
 * clamped to a book's, never a stretched screen's. */
#define PAGES_BOOK_ASPECT_MIN 1.2f
#define PAGES_BOOK_ASPECT_MAX 1.8f

/* A host's pages (libpagecurl's page provider): `draw` is called for page 1 .. pages (the host's
 * count) into width x height RGBA8 sRGB pixels, false marking the page, on a thread of its own
 * that the stream's worker waits for until an abort (pages/provider_call.h: a call that never
 * returns is left running, and the provider is not called again until it has returned). Its
 * text and links, where it gives them, are asked the same way, each of the two one call at a
 * time (apart from each other and from the drawing), and waited for within `seconds`. */
typedef struct PageProvider {
    void *user;
    int pages;
    float aspect; /* the leaf's height / width */
    PagesProviderDraw draw;
    /* Page `page`'s (1-based) own shape in any unit (NULL: every page the leaf's): a page of
     * another shape is drawn at that shape, fitted within its layer (pages_book_fit), never
     * stretched. Asked on the host's thread only (pages_book_source_shape). */
    void (*size)(void *user, int page, float *width, float *height);
    /* The host's text (NULL `text`: none): text(text_fn, user, ...) fills its buffer with the
     * page's characters (PagesTextChar, up to PAGES_TEXT_MAX_CHARS) and returns their count or
     * pages/provider_call.h's PAGES_PROVIDER_CANNOT, _JUNK, _NOT_FINITE (book/provided.h's). */
    PagesProviderRun text;
    void (*text_fn)(void);
    /* Its links likewise (NULL: none): PagesLink, up to PAGES_LINKS_MAX, targets 0-based. */
    PagesProviderRun links;
    void (*links_fn)(void);
    /* The longest a call for a page's text is waited for (0 or less: no limit); a page's links
     * no longer than PAGES_LINKS_SECONDS in any case. */
    double seconds;
} PageProvider;

/* The longest a book's identity may be (pages_book_source_id), with its end. */
#define PAGES_BOOK_ID_MAX 64

/* A PDF's table of contents (its /Outlines), flattened in reading order: at most PAGES_OUTLINE_MAX
 * entries, PAGES_OUTLINE_DEPTH deep, titles UTF-8 cut below PAGES_OUTLINE_TITLE_MAX bytes. */
#define PAGES_OUTLINE_MAX       4096
#define PAGES_OUTLINE_DEPTH     16
#define PAGES_OUTLINE_TITLE_MAX 256
typedef struct PagesOutlineEntry {
    char *title;
    int side;  /* -1 where the entry leads nowhere in the book */
    int depth; /* 0 for a chapter, 1 for its sections, ... */
} PagesOutlineEntry;

/* Part of a page drawn at a density its layer does not hold (book/book_stream.h's detail for a
 * zoomed view): `width` x `height` texels of the page as it lies in a layer of full_width x
 * full_height texels (fitted as pages_book_source_draw fits it, unrounded), the region's texel
 * (0, 0) at the layer's point (x, y). Sizes and offsets may hold fractions, so that the region's
 * texels fall on a view's pixels; texels beyond the layer are paper. Only the region's texels
 * are drawn, however large the layer would be (up to 65536 texels a side). */
typedef struct PageRegion {
    float full_width, full_height;
    float x, y;
    uint32_t width, height;
} PageRegion;

#endif
