/* SPDX-License-Identifier: MIT */
#include "say.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void app_say_escape(const char *text, char *out, size_t size)
{
    if (!size)
        return;
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; s[i]; i++) {
        char piece[16];
        unsigned c = s[i];
        /* C1 controls are two bytes in UTF-8, 0xC2 0x80..0x9F; some terminals obey them too */
        bool c1 = c == 0xC2 && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F;
        if (c1)
            snprintf(piece, sizeof piece, "\\u%04x", (unsigned)s[++i]);
        else if (c == '\n')
            strcpy(piece, "\\n");
        else if (c == '\r')
            strcpy(piece, "\\r");
        else if (c == '\t')
            strcpy(piece, "\\t");
        else if (c < 0x20 || c == 0x7F)
            snprintf(piece, sizeof piece, "\\x%02x", c);
        else
            piece[0] = (char)c, piece[1] = '\0';
        size_t n = strlen(piece);
        if (o + n >= size)
            break;
        memcpy(out + o, piece, n);
        o += n;
    }
    out[o] = '\0';
}

void app_say(FILE *to, const char *fmt, ...)
{
    /* a line is short; a longer one is cut, not split */
    char text[1024], shown[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    app_say_escape(text, shown, sizeof shown);
    fprintf(to, "pagecurl: %s\n", shown);
}

int app_say_finish(int status)
{
    errno = 0;
    bool flushed = fflush(stdout) == 0;
    int e = errno;
    if (flushed && !ferror(stdout))
        return status;
    app_say(stderr, "cannot write to standard output: %s",
            !flushed && e ? strerror(e) : "an earlier write to it failed");
    return status ? status : 1;
}
