/* SPDX-License-Identifier: MIT */
/* Breaking a passage into lines between words, for whatever sets the text: the caller measures
 * a candidate line in its own face and size. */
#ifndef PAGECURL_PAGES_LINE_BREAK_H
#define PAGECURL_PAGES_LINE_BREAK_H

#include <stddef.h>

/* The width of `line` (NUL-terminated) as the caller sets it. */
typedef float PagesLineMeasure(void *user, const char *line);

/* The next line of `*text` into `line` (`size` bytes, >= 2): the most whole words that measure
 * at most `width` (at least one word, cut where it is longer than `line` holds); *text moves past
 * it and the spaces after it. Returns the line's length, 0 when the text is used up. */
size_t pages_line_break(const char **text, float width, PagesLineMeasure *measure, void *user,
                        char *line, size_t size);

#endif
