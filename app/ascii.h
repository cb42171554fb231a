/* SPDX-License-Identifier: MIT */
/* Text as the HUD's letters can draw it: stb_easy_font has ASCII alone, so a book's labels and
 * titles (UTF-8) are written with the nearest ASCII: a no-break or other space as a space, a
 * dash as '-', curly quotes as straight ones, an ellipsis as "...", a Latin letter with a mark as
 * the letter without it; a soft hyphen goes, and any other character is one '?'. */
#ifndef PAGECURL_APP_ASCII_H
#define PAGECURL_APP_ASCII_H

#include <stddef.h>

/* `in` (UTF-8; a malformed byte is one '?') as ASCII into `out` of `size` bytes, cut where it is
 * full, always terminated where size > 0. */
void app_ascii(const char *in, char *out, size_t size);

#endif
