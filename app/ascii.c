/* SPDX-License-Identifier: MIT */
#include "ascii.h"

#include <stdint.h>
#include <string.h>

/* U+00C0 .. U+00FF: the Latin-1 letters without their marks ('?' for the signs among them) */
static const char LATIN1[] = "AAAAAAACEEEEIIII"  /* C0 .. CF (C6 Æ as A) */
                             "DNOOOOOxOUUUUYTs"  /* D0 .. DF (D7 ×, DE Þ, DF ß) */
                             "aaaaaaaceeeeiiii"  /* E0 .. EF */
                             "dnooooo/ouuuuyty"; /* F0 .. FF (F7 ÷) */

/* The ASCII for code point `c`: "" to leave it out, else at most three characters. */
static const char *nearest(uint32_t c)
{
    if (c == 0xAD || c == 0x200B || c == 0xFEFF)
        return ""; /* soft hyphen, zero-width space, byte-order mark */
    if (c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000)
        return " ";
    if ((c >= 0x2010 && c <= 0x2015) || c == 0x2212)
        return "-";
    if (c == 0x2018 || c == 0x2019 || c == 0x201A || c == 0x2032)
        return "'";
    if (c == 0x201C || c == 0x201D || c == 0x201E || c == 0x2033)
        return "\"";
    if (c == 0x2026)
        return "...";
    if (c == 0x2022 || c == 0xB7)
        return "*";
    return NULL;
}

void app_ascii(const char *in, char *out, size_t size)
{
    if (!size)
        return;
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)in;
    while (*p && at + 1 < size) {
        uint32_t c = *p;
        int more = c < 0x80             ? 0
                   : (c & 0xE0) == 0xC0 ? 1
                   : (c & 0xF0) == 0xE0 ? 2
                   : (c & 0xF8) == 0xF0 ? 3
                                        : -1;
        if (more > 0) {
            c &= 0x3Fu >> more;
            for (int k = 1; k <= more; k++) {
                if ((p[k] & 0xC0) != 0x80) {
                    more = -1; /* cut short: the lead byte alone is the malformed one */
                    break;
                }
                c = (c << 6) | (p[k] & 0x3Fu);
            }
        }
        if (more < 0) {
            out[at++] = '?';
            p++;
            continue;
        }
        p += 1 + more;
        char letter[2] = {0, 0};
        const char *s = c < 0x80 ? (letter[0] = (char)c, letter) : nearest(c);
        if (!s && c >= 0xC0 && c <= 0xFF)
            s = (letter[0] = LATIN1[c - 0xC0], letter);
        if (!s)
            s = "?";
        for (; *s && at + 1 < size; s++)
            out[at++] = *s;
    }
    out[at] = '\0';
}
