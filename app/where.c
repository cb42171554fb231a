/* SPDX-License-Identifier: MIT */
#include "where.h"

#include "ascii.h"

#include <stdio.h>
#include <string.h>

/* Page `page`'s name (1-based): its label in ASCII (app/ascii.h), or its
 * number where it has none (or a blank one). Whether that differs from the number. */
static bool page_name(const pagecurl_book *book, int page, char *out, size_t size)
{
    char number[16], label[64];
    snprintf(number, sizeof number, "%d", page);
    pagecurl_book_page_label(book, page, label, sizeof label);
    app_ascii(label, out, size);
    if (strspn(out, " ") == strlen(out)) /* none, or blank */
        snprintf(out, size, "%s", number);
    return strcmp(out, number) != 0;
}

void app_where_line(const pagecurl_book *book, int spread, int page, char *out, size_t size)
{
    int pages = pagecurl_book_page_count(book);
    int left = 2 * spread, right = 2 * spread + 1; /* 1-based; shown where they are pages */
    if (page > 0)
        left = right = page;
    bool has_left = left >= 1 && left <= pages, has_right = right >= 1 && right <= pages;
    if (!has_left && !has_right) {
        snprintf(out, size, "end / %d", pages);
        return;
    }
    int first = has_left ? left : right, last = has_right ? right : left;
    char a[64], b[64], numbers[64];
    bool labelled = page_name(book, first, a, sizeof a);
    labelled |= page_name(book, last, b, sizeof b);
    if (first == last)
        snprintf(numbers, sizeof numbers, "%d / %d", first, pages);
    else
        snprintf(numbers, sizeof numbers, "%d-%d / %d", first, last, pages);
    if (!labelled)
        snprintf(out, size, "%s", numbers);
    else if (first == last)
        snprintf(out, size, "%s (%s)", a, numbers);
    else /* labels that hold hyphens themselves ("A-3"): a range by "to" reads unambiguously */
        snprintf(out, size, "%s%s%s (%s)", a, strchr(a, '-') || strchr(b, '-') ? " to " : "-", b,
                 numbers);
}
