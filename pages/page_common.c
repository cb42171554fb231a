/* SPDX-License-Identifier: MIT */
#include "page_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const uint8_t PAGES_PAPER[3] = {244, 240, 230};
const uint8_t PAGES_MARK[3] = {200, 40, 40};

/* Pages whose shapes (height / width) are within this ratio are of one shape: a scan's few pixels
 * of difference, a PDF's rounding. */
#define SAME_SHAPE 1.01f

void pages_book_placeholder(uint32_t width, uint32_t height, bool marked, uint8_t *rgba)
{
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) {
            uint8_t *p = &rgba[4 * ((size_t)y * width + x)];
            /* a bad page: a cross from corner to corner, a few texels wide */
            float u = (float)x / (float)width, v = (float)y / (float)height;
            bool cross = marked && (fabsf(u - v) < 0.01f || fabsf(u + v - 1.0f) < 0.01f);
            memcpy(p, cross ? PAGES_MARK : PAGES_PAPER, 3);
            p[3] = 255;
        }
}

void pages_book_fit(float aspect, uint32_t width, uint32_t height, uint32_t *x, uint32_t *y,
                    uint32_t *w, uint32_t *h)
{
    float leaf = (float)height / (float)width;
    if (fabsf(aspect / leaf - 1.0f) < 0.01f) {
        *x = *y = 0, *w = width, *h = height;
        return;
    }
    float margin = 0.04f * (float)width;
    float bw = (float)width - 2.0f * margin, bh = (float)height - 2.0f * margin;
    float fw = bw, fh = bw * aspect;
    if (fh > bh)
        fh = bh, fw = bh / aspect;
    *w = fw < 1.0f ? 1u : (uint32_t)lrintf(fw);
    *h = fh < 1.0f ? 1u : (uint32_t)lrintf(fh);
    *x = (width - *w) / 2, *y = (height - *h) / 2;
}

int pages_book_name_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (isdigit((unsigned char)a[na]))
                na++;
            while (isdigit((unsigned char)b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na, b += nb;
            continue;
        }
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb)
            return ca < cb ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int compare_floats(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

float pages_book_common_aspect(float *aspects, int n)
{
    /* Sorted, the most pages within 1 % of one another are the longest run a window of that
     * width covers; its middle page's shape is theirs. Ties go to the wider shape. */
    qsort(aspects, (size_t)n, sizeof *aspects, compare_floats);
    int best = 0, best_count = 0;
    for (int i = 0, j = 0; i < n; i++) {
        while (j < n && aspects[j] <= aspects[i] * SAME_SHAPE)
            j++;
        if (j - i > best_count)
            best = i, best_count = j - i;
    }
    return aspects[best + (best_count - 1) / 2];
}

bool pages_book_has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && !strcasecmp(name + n - s, suffix);
}

bool pages_book_image_name(const char *name)
{
    static const char *const exts[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".pnm",
                                       ".ppm", ".pgm", ".pbm",  ".tif", ".tiff"};
    if (name[0] == '.')
        return false;
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++)
        if (pages_book_has_suffix(name, exts[k]))
            return true;
    return false;
}
