/* SPDX-License-Identifier: MIT */
#include "line_break.h"

#include <string.h>

size_t pages_line_break(const char **text, float width, PagesLineMeasure *measure, void *user,
                        char *line, size_t size)
{
    const char *p = *text;
    while (*p == ' ')
        p++;
    size_t fits = 0; /* the longest run of whole words that fits */
    while (p[fits]) {
        size_t stop = fits + (fits > 0); /* past the space between words */
        stop += strcspn(p + stop, " ");
        if (stop >= size)
            break;
        memcpy(line, p, stop);
        line[stop] = '\0';
        if (fits && measure(user, line) > width)
            break;
        fits = stop;
    }
    if (!fits && *p) /* a word longer than the line can hold: cut */
        fits = size - 1;
    memcpy(line, p, fits);
    line[fits] = '\0';
    for (p += fits; *p == ' ';)
        p++;
    *text = p;
    return fits;
}
