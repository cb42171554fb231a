/* SPDX-License-Identifier: MIT */
/* The built-in book (pages/content.h): printed pages drawn here at their layer's size, in the
 * face pages/typeface.h finds (stb_easy_font's letters where it is missing or damaged, said in
 * the book's notice). No text to search, no links, no file it could be overwritten through. */
#include "book_source.h"
#include "source.h"
#include "../mesh/grid.h"

#include "content.h"

#include <stdio.h>
#include <string.h>

static bool draw(PagesBookSource *src, int side, uint32_t width, uint32_t height, uint8_t *rgba,
                 char *message, size_t size)
{
    if (pages_content_side(src->face, side, width, height, rgba))
        return true;
    pages_source_fail(message, size, 1, "page %d: out of memory", side + 1);
    return false;
}

static void close_builtin(PagesBookSource *src)
{
    pages_typeface_free(src->face);
}

const PagesSourceOps pages_source_builtin_ops = {.draw = draw, .close = close_builtin};

int pages_source_builtin_open(PagesBookSource **out, char *message, size_t size)
{
    *out = NULL;
    PagesBookSource *src = pages_source_new(&pages_source_builtin_ops);
    if (!src)
        return pages_source_fail(message, size, 1, "out of memory");
    src->pages = 2 * PAGES_CONTENT_LEAVES;
    src->aspect = MESH_PAGE_HEIGHT / MESH_PAGE_WIDTH;
    src->name = strdup("");
    char why[400];
    src->face = pages_typeface_load(why, sizeof why);
    if (why[0])
        snprintf(src->notice, sizeof src->notice,
                 "%s; the built-in book is set in a plainer face instead", why);
    if (!src->name) {
        pages_book_source_close(src);
        return pages_source_fail(message, size, 1, "out of memory");
    }
    *out = src;
    return 0;
}
