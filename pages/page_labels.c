/* SPDX-License-Identifier: MIT */
#include "page_labels.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PagesLabelStyle page_label_style(const char *name)
{
    static const struct {
        const char *name;
        PagesLabelStyle style;
    } styles[] = {{"D", PAGES_LABEL_DECIMAL},
                  {"R", PAGES_LABEL_ROMAN_UPPER},
                  {"r", PAGES_LABEL_ROMAN_LOWER},
                  {"A", PAGES_LABEL_LETTERS_UPPER},
                  {"a", PAGES_LABEL_LETTERS_LOWER}};
    for (size_t k = 0; name && k < sizeof styles / sizeof styles[0]; k++)
        if (!strcmp(name, styles[k].name))
            return styles[k].style;
    return PAGES_LABEL_NONE;
}

/* The prefix as kept: at most PAGE_LABELS_MAX_PREFIX bytes, cut at a character's boundary, its
 * control characters (a title bar's line breaks) made spaces. */
static char *prefix_copy(const char *prefix)
{
    size_t n = strlen(prefix);
    if (n > PAGE_LABELS_MAX_PREFIX) {
        n = PAGE_LABELS_MAX_PREFIX;
        while (n > 0 && ((unsigned char)prefix[n] & 0xc0) == 0x80)
            n--; /* not inside a UTF-8 sequence */
    }
    char *copy = malloc(n + 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n; i++)
        copy[i] = (unsigned char)prefix[i] < 0x20 || prefix[i] == 0x7f ? ' ' : prefix[i];
    copy[n] = '\0';
    return copy;
}

bool page_labels_add(PageLabels *labels, int start, PagesLabelStyle style, int first,
                     const char *prefix)
{
    if (labels->count >= PAGE_LABELS_MAX_RANGES)
        return false;
    if (labels->count == labels->capacity) {
        int capacity = labels->capacity ? 2 * labels->capacity : 8;
        PagesLabelRange *grown = realloc(labels->ranges, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        labels->ranges = grown, labels->capacity = capacity;
    }
    char *copy = NULL;
    if (prefix && *prefix && !(copy = prefix_copy(prefix)))
        return false;
    labels->ranges[labels->count++] = (PagesLabelRange){
        .start = start, .style = style, .first = first < 1 ? 1 : first, .prefix = copy};
    return true;
}

/* By start (one range a start by then). */
static int by_start(const void *a, const void *b)
{
    const PagesLabelRange *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

void page_labels_finish(PageLabels *labels, int pages)
{
    int kept = 0;
    for (int i = 0; i < labels->count; i++) {
        PagesLabelRange *r = &labels->ranges[i];
        bool in_book = r->start >= 0 && r->start < pages;
        bool again = false; /* a start given before: the first one stands */
        for (int k = 0; k < kept && in_book && !again; k++)
            again = labels->ranges[k].start == r->start;
        if (in_book && !again)
            labels->ranges[kept++] = *r;
        else
            free(r->prefix);
    }
    labels->count = kept;
    if (kept > 1)
        qsort(labels->ranges, (size_t)kept, sizeof *labels->ranges, by_start);
}

/* A label being written: size bytes in all, one kept for the end. */
typedef struct Out {
    char *s;
    size_t size, at;
    bool cut; /* a byte did not fit */
} Out;

static bool put(Out *o, char c)
{
    if (o->at + 1 >= o->size) {
        o->cut = true;
        return false;
    }
    o->s[o->at++] = c;
    return true;
}

/* n in roman numerals: a thousand more each M (no bar notation), as far as the room goes. */
static void roman(Out *o, int64_t n, bool upper)
{
    static const struct {
        int value;
        const char *digits;
    } steps[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"},
                 {90, "xc"},  {50, "l"},   {40, "xl"}, {10, "x"},   {9, "ix"},
                 {5, "v"},    {4, "iv"},   {1, "i"}};
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        for (; n >= steps[k].value; n -= steps[k].value)
            for (const char *d = steps[k].digits; *d; d++)
                if (!put(o, upper ? (char)(*d - 'a' + 'A') : *d))
                    return;
}

/* A label cut short ends at a character's boundary: an unfinished UTF-8 sequence goes. */
static void end_whole(Out *o)
{
    size_t k = o->at;
    while (k > 0 && ((unsigned char)o->s[k - 1] & 0xc0) == 0x80)
        k--;
    if (o->cut && k > 0) {
        unsigned char lead = (unsigned char)o->s[k - 1];
        size_t len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (o->at - (k - 1) < len)
            o->at = k - 1;
    }
    o->s[o->at] = '\0';
}

void page_labels_text(const PageLabels *labels, int side, char *out, size_t size)
{
    if (!size)
        return;
    out[0] = '\0';
    int lo = 0, hi = labels->count; /* the last range starting at or before the page */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (labels->ranges[mid].start <= side)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return;
    const PagesLabelRange *r = &labels->ranges[lo - 1];
    int64_t n = (int64_t)r->first + (side - r->start);
    Out o = {out, size, 0, false};
    for (const char *p = r->prefix ? r->prefix : ""; *p && put(&o, *p); p++)
        ;
    switch (r->style) {
    case PAGES_LABEL_NONE:
        break;
    case PAGES_LABEL_DECIMAL: {
        char digits[24];
        snprintf(digits, sizeof digits, "%lld", (long long)n);
        for (const char *d = digits; *d && put(&o, *d); d++)
            ;
        break;
    }
    case PAGES_LABEL_ROMAN_UPPER:
    case PAGES_LABEL_ROMAN_LOWER:
        roman(&o, n, r->style == PAGES_LABEL_ROMAN_UPPER);
        break;
    case PAGES_LABEL_LETTERS_UPPER:
    case PAGES_LABEL_LETTERS_LOWER: { /* 1 .. 26 a letter, 27 .. 52 it twice, ... */
        char letter = (char)((r->style == PAGES_LABEL_LETTERS_UPPER ? 'A' : 'a') + (n - 1) % 26);
        for (int64_t times = (n - 1) / 26 + 1; times > 0 && put(&o, letter); times--)
            ;
        break;
    }
    }
    end_whole(&o);
}

void page_labels_free(PageLabels *labels)
{
    for (int i = 0; i < labels->count; i++)
        free(labels->ranges[i].prefix);
    free(labels->ranges);
    *labels = (PageLabels){0};
}
