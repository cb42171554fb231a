/* SPDX-License-Identifier: MIT */
/* Where a book's pages come from: the built-in procedural book (pages/content.h), a host's
 * provider, a folder of images (natural name order: page2 before page10) or a book file (a PDF,
 * an EPUB or FB2 book laid out into pages, an XPS document, a comic book's zip of images). A
 * folder's or a file's bytes are read by the page helper alone (pagecurl-pages,
 * pages/page_helper.h): this process lists a folder's names and opens the file or the folder, and
 * tells a book file by its name or its first bytes (files_open: no FIFO or
 * device is read), and the helper checks and draws them (MuPDF, or stb_image in a build without
 * it). Opening checks what can be checked cheaply (the path, every image's header, a PDF's
 * password and real page count, page 1's size) and names the first problem in one line; a page
 * that fails only when it is drawn becomes a marked placeholder, and so does one on which the
 * helper crashes or hangs (the helper is started again for the next). Page 1 (index 0) is the
 * first right-hand page; the leaf takes the shape most pages have, and other pages are fitted
 * inside with a margin on paper. Owns the file list, the book's descriptor and the helper.
 * Drawing is not thread-safe: one thread at a time (the streamer's worker, book/book_stream.h).
 * The types these calls take are pages/book_source_types.h's; each source's own way is behind
 * one table (pages/source.h). */
#ifndef PAGECURL_PAGES_BOOK_SOURCE_H
#define PAGECURL_PAGES_BOOK_SOURCE_H

#include "page_common.h"
#include "page_wire.h"
#include "provider_call.h"
#include "book_source_types.h"
#include "text_find.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest image a folder's page may be: each side, and in all (256 MiB decoded). Larger
 * ones are refused from their header, before anything is allocated for their pixels. */
#define PAGES_BOOK_MAX_IMAGE_SIDE   16384
#define PAGES_BOOK_MAX_IMAGE_PIXELS (64u * 1024u * 1024u)
/* The largest file a folder's page may be. */
#define PAGES_BOOK_MAX_FILE_BYTES (256u * 1024u * 1024u)
/* The most MuPDF may allocate at once (decoded images, a page's pixels, its cache). */
#define PAGES_BOOK_DECODE_MEMORY ((size_t)1 << 30)

/* The text sizes a reader steps through (Ctrl + = and -), in points. */
#define PAGES_BOOK_FONT_SIZES 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 28, 32, 36, 42, 48
/* The listed size `steps` steps from `size` (> 0: larger), held to the list's ends; a size
 * between two listed ones steps to the next that way. */
float pages_book_source_font_step(float size, int steps);

/* Opens `path` (NULL: the built-in book). 0, or the exit status with the one line in message:
 * 2 for a path that is not a book (missing, neither a folder nor a book file, a folder with no
 * images, a zip with no book or image in it),
 * 1 for one that cannot be read (a corrupt or too large image, a damaged or encrypted PDF, any PDF
 * in a build without MuPDF: the build's lack, not the user's; the page helper missing or failing to
 * start). */
int pages_book_source_open(const char *path, PagesBookSource **out, char *message, size_t size);
/* The same, a reflowable book laid out to `layout` (NULL: the defaults). A file is a book the
 * helper reads (a PDF, EPUB, FB2, XPS or comic book, CBZ) by its name or its first bytes. */
int pages_book_source_open_with(const char *path, const PagesTextLayout *layout,
                                PagesBookSource **out, char *message, size_t size);
/* A reflowable book `src` laid out again to `layout` (its page's shape and text size, as at open)
 * as a new source *out, which the caller swaps in for `src` (the stream's, book/book_stream.h):
 * a helper of its own opens the book as `src` had it and lays it out again, and moved[i] is the
 * side (-1: none) of the new layout that holds the text side sides[i] of the old one began
 * with, for `count` sides (the reader's, a notebook's). 0, or the status with the line: 2
 * for a book whose pages are its own (a PDF, an XPS, a comic, a folder, the built-in book, a
 * host's), 1 where the book cannot be laid out again (the helper failed, or its layout took
 * more than PAGES_OPEN_CPU_SECONDS of the processor). The caller's thread; `src` is only
 * read. */
int pages_book_source_relayout(const PagesBookSource *src, const PagesTextLayout *layout,
                               const int *sides, int *moved, int count, PagesBookSource **out,
                               char *message, size_t size);
/* How a reflowable book is laid out now (its page's shape and text size); zeros for others. */
PagesTextLayout pages_book_source_layout(const PagesBookSource *src);

int pages_book_source_open_provider(const PageProvider *provider, PagesBookSource **out,
                                    char *message, size_t size);
/* A provider's side `side`: its shape asked of the host (PageProvider.size) where it
 * is not known yet, before the page is drawn. The host's thread (the stream's update queues the
 * page after it); nothing for other books. */
void pages_book_source_shape(PagesBookSource *src, int side);
/* A provider's side `side` (-1: every page) may have changed shape: asked again before it
 * is drawn next (the host invalidated it). The host's thread. */
void pages_book_source_forget_shape(PagesBookSource *src, int side);
/* A test's fault (gpu/context.h's GpuFaultSpec.draw_ms): each page of a file or a folder drawn from
 * now on takes `ms` longer for each million texels, as a heavy page would (0: none). */
void pages_book_source_draw_fault(PagesBookSource *src, uint32_t ms);
/* `to` takes over `from`'s provider call left running (a page given up), where both call the
 * same function: it is not called again until that call returns, as the host was promised. */
void pages_book_source_hand_over(PagesBookSource *to, PagesBookSource *from);
void pages_book_source_close(PagesBookSource *src);
/* From another thread: the page being drawn stops soon (a PDF page's drawing is abandoned, its
 * page shown crossed out) and so does every later one, until pages_book_source_resume. For a stream
 * that ends, or a page past its time. */
void pages_book_source_abort(PagesBookSource *src);
/* The pages drawn from now on are drawn again (an abort ended the last). Called by the thread that
 * draws, before a page, ordered after any abort meant for an earlier page. */
void pages_book_source_resume(PagesBookSource *src);
/* What the page helper that opened a file's book gave up (helper/sandbox.h's PAGES_CONFINED_*
 * flags; docs/page-helper.md); 0 for other books or where the kernel allowed nothing. */
uint32_t pages_book_source_confined(const PagesBookSource *src);

/* Pages in the book (>= 1). */
int pages_book_source_pages(const PagesBookSource *src);
/* The leaf's height / width: the shape most pages have (a folder's every page; a PDF's, sampled
 * from up to 64 pages through it), each page fitted within it. */
float pages_book_source_aspect(const PagesBookSource *src);
/* Whether the book says it reads right to left (a PDF's /ViewerPreferences /Direction /R2L): it
 * then binds on the right unless the reader says otherwise. */
bool pages_book_source_right_to_left(const PagesBookSource *src);
/* Whether the book's pages are its text laid out (an EPUB, an FB2 book: PagesTextLayout applies).
 */
bool pages_book_source_reflowable(const PagesBookSource *src);
/* What a notebook names the book by: "" for the built-in book, else the book's absolute path. */
const char *pages_book_source_name(const PagesBookSource *src);
/* What the book is by its content, so that a copied or moved book is known again: for a PDF its
 * /ID's first string (what its maker gave it for good), else a digest of its bytes; for a folder
 * a digest of its pages' first 64 KiB each, in order; either with the page count. "" where it
 * has none (the built-in book, a host's pages, a build without MuPDF). */
const char *pages_book_source_id(const PagesBookSource *src);
/* Whether the book's file was damaged and is read as far as it goes (a PDF cut short or broken,
 * whose cross-reference MuPDF rebuilt): pages may be missing or blank. */
bool pages_book_source_repaired(const PagesBookSource *src);
/* What went wrong at open that the book goes on without, in one line ("" for nothing): the
 * built-in book's face is there but damaged, and its pages are set in stb_easy_font's letters. */
const char *pages_book_source_notice(const PagesBookSource *src);
/* The built-in book: its pages are drawn at their own fixed resolution (pages/content.h). */
bool pages_book_source_builtin(const PagesBookSource *src);
/* Side `side`'s label, as the PDF's /PageLabels names it ("xii", "A-3"), into out
 * (PAGE_LABEL_MAX bytes, pages/page_labels.h, are enough); "" where it names none: a page
 * outside its ranges, a book that is no PDF or whose PDF has no labels. Any thread. */
void pages_book_source_side_label(const PagesBookSource *src, int side, char *out, size_t size);
int pages_book_source_outline_count(const PagesBookSource *src);
/* Entry i (0 .. count - 1), NULL outside. Any thread. */
const PagesOutlineEntry *pages_book_source_outline(const PagesBookSource *src, int i);
/* The first entry from `from` on whose title holds `text` (ASCII letters in either case) and
 * that leads to a page; -1 for none. A search field's next match is from + 1. */
int pages_book_source_outline_find(const PagesBookSource *src, const char *text, int from);

/* The page (1-based) a reader means by `text`: the page labelled so ("iv", "120": exactly, else
 * the first whose label matches ignoring case), else the page of that number (1 .. pages);
 * 0 for none. Labels win: in a book whose body starts at printed page 1 after twelve pages of
 * front matter, "120" is the page printed 120. */
int pages_book_source_find_page(const PagesBookSource *src, const char *text);

/* Draws side `side` into `rgba` (width x height RGBA8, sRGB, top row first). False with
 * "FILE: reason" (and the page) in message when it cannot be read: `rgba` then holds a marked
 * placeholder. */
bool pages_book_source_draw(PagesBookSource *src, int side, uint32_t width, uint32_t height,
                            uint8_t *rgba, char *message, size_t size);
/* The share of its layer's width and height that the print of the page pages_book_source_draw drew
 * last covers, centred in it: 1 x 1 for a page of the leaf's shape (the built-in book's, a host's,
 * a placeholder), less where a page of another shape is fitted inside the leaf. The one-page view
 * frames that print at rest (book/layout.h's print), not the leaf. The drawing thread's. */
void pages_book_source_drawn_print(const PagesBookSource *src, float print[2]);

/* Whether the book's pages can be drawn in regions: a folder's images (at most at their own
 * resolution: box-filtered down, magnified bilinearly beyond it) and a PDF's pages (MuPDF at that
 * scale); the built-in book and a host's pages are drawn whole at their layer's size only. */
bool pages_book_source_draws_regions(const PagesBookSource *src);
/* Draws `region` of side `side` into `rgba` (region->width x height RGBA8, sRGB, top
 * row first). False with the reason in message where it cannot (the region then holds paper). */
bool pages_book_source_draw_region(PagesBookSource *src, int side, const PageRegion *region,
                                   uint8_t *rgba, char *message, size_t size);

/* Whether writing a file at `path` would change the book: it is the PDF, or one of the folder's
 * pages, by name, through symbolic links or as a hard link (the same device and inode); or it
 * lies in the book's folder under a name the folder would take as a page. Never for the
 * built-in book. */
bool pages_book_source_holds(const PagesBookSource *src, const char *path);

/* Search. Whether the book has text to search (a PDF, a host's pages with their text; a folder
 * of images, the built-in book and a host's pages without have none). */
bool pages_book_source_has_text(const PagesBookSource *src);
/* The most rectangles of one page's matches (the longest query: pages/text_find.h's
 * PAGES_FIND_MAX_QUERY, its rectangle PagesFindRect). */
#define PAGES_FIND_MAX_RECTS 1024
/* The matches of `query` (UTF-8; case folded; a word hyphen-broken across a line end found) on
 * side `side`, read by a page helper of its own (never the one drawing pages; a host's
 * pages: searched here, pages/text_find.h, in the text the host gives): up to
 * `max` rectangles, first[i] true where rectangle i begins a match (one a line of it). Their
 * count; 0 for a book without text; -1 with the line in message where the page's text cannot be
 * read (a stop, a crash: the next call starts the helper again). `place` (left, top, width,
 * height): where the page lies on its leaf, as fractions of it (pages_book_source_draw's fit), for
 * a highlight drawn into the page's pixels. One thread at a time. */
int pages_book_source_find(PagesBookSource *src, int side, const char *query, PagesFindRect *rects,
                           bool *first, int max, float place[4], char *message, size_t size);
/* A page's text, as MuPDF's structured text reads it (pages/text_find.h's PagesTextChar, its
 * characters in reading order). At most PAGES_TEXT_MAX_CHARS a page (the rest cut). */
#define PAGES_TEXT_MAX_CHARS 65536
/* Side `side`'s text into `out` (up to `max` characters), read by the search's helper
 * (pages_book_source_find's; one call at a time with it: a call waits for a page being searched),
 * or asked of the host for its pages (the same way: one call at a time).
 * Its count; 0 for a book without text; -1 with the line in message where it cannot be read.
 * `place` as pages_book_source_find's. Any thread. */
int pages_book_source_text(PagesBookSource *src, int side, PagesTextChar *out, int max,
                           float place[4], char *message, size_t size);
/* From another thread: the search's page being read stops (its helper killed) and so does every
 * later one until pages_book_source_find_resume (called by the searching thread). */
void pages_book_source_find_abort(PagesBookSource *src);
void pages_book_source_find_resume(PagesBookSource *src);

/* A reflowable book's (an EPUB's, an FB2 book's) place in its text that outlasts its layout:
 * where side `side` begins (its chapter, its index in it, the characters of the chapter
 * before it), into `place`, asked of the helper that draws its pages, between two of them.
 * False for a book whose pages are its own, a page it lacks, or a helper that failed. Any
 * thread. */
bool pages_book_source_text_place(PagesBookSource *src, int side, int32_t place[3]);
/* The side that holds such a place as the book is laid out now; -1 where none does
 * (another book's place, a chapter it lacks) or it cannot be asked. */
int pages_book_source_text_place_side(PagesBookSource *src, const int32_t place[3]);
/* The longest either waits for the helper's answer (then it is stopped, and started again for
 * the next page). */
#define PAGES_PLACE_SECONDS 5.0

/* Links. Side `side`'s links into `out` (pages_wire_get_linked's), read by a page helper
 * of their own (never the one drawing pages, nor the search's) and waited for: a page's links are
 * milliseconds, the helper's start the first time tens of them; or asked of the host for its
 * pages, waited for as long at most. 0 (none: a book without links, a
 * page out of the book, an older helper), or -1 with the line in message where they cannot be
 * read (the next call starts the helper again). One thread at a time. */
int pages_book_source_links(PagesBookSource *src, int side, PagesLinked *out, char *message,
                            size_t size);
/* The longest a page's links are waited for: a helper still reading them then is killed (a
 * hostile page cannot hold the host's thread). */
#define PAGES_LINKS_SECONDS 5.0

#endif
