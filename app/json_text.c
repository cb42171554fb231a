/* SPDX-License-Identifier: MIT */
#include "json_text.h"

#include <ctype.h>
#include <string.h>

int app_json_nesting(const char *text, size_t len, int limit)
{
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < len && deepest <= limit; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = ++depth > deepest ? depth : deepest;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return deepest;
}

static size_t skip_space(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* A JSON string from the quote at t[*i]; past it in *i. */
static bool scan_string(const char *t, size_t len, size_t *i)
{
    for (size_t k = *i + 1; k < len; k++) {
        unsigned char c = (unsigned char)t[k];
        if (c == '"') {
            *i = k + 1;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c == '\\') {
            if (++k >= len)
                return false;
            if (t[k] == 'u') {
                for (int h = 0; h < 4; h++)
                    if (++k >= len || !isxdigit((unsigned char)t[k]))
                        return false;
            } else if (!strchr("\"\\/bfnrt", t[k]) || !t[k]) {
                return false;
            }
        }
    }
    return false;
}

/* A number, true, false or null at t[*i]; past it in *i. */
static bool scan_scalar(const char *t, size_t len, size_t *i)
{
    static const char *const words[] = {"true", "false", "null"};
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]);
        if (len - *i >= n && !memcmp(t + *i, words[w], n)) {
            *i += n;
            return true;
        }
    }
    size_t k = *i;
    k += k < len && t[k] == '-';
    if (k < len && t[k] == '0')
        k++;
    else if (k < len && t[k] >= '1' && t[k] <= '9')
        while (k < len && isdigit((unsigned char)t[k]))
            k++;
    else
        return false;
    if (k < len && t[k] == '.') {
        if (++k >= len || !isdigit((unsigned char)t[k]))
            return false;
        while (k < len && isdigit((unsigned char)t[k]))
            k++;
    }
    if (k < len && (t[k] == 'e' || t[k] == 'E')) {
        k++;
        k += k < len && (t[k] == '+' || t[k] == '-');
        if (k >= len || !isdigit((unsigned char)t[k]))
            return false;
        while (k < len && isdigit((unsigned char)t[k]))
            k++;
    }
    *i = k;
    return true;
}

/* An object's key and its colon at t[*i]; past them in *i. */
static bool scan_key(const char *t, size_t len, size_t *i)
{
    if (*i >= len || t[*i] != '"' || !scan_string(t, len, i))
        return false;
    *i = skip_space(t, len, *i);
    if (*i >= len || t[*i] != ':')
        return false;
    *i = skip_space(t, len, *i + 1);
    return true;
}

/* Whether the text is one JSON value (nested at most APP_JSON_MAX_DEPTH deep), allocating
 * nothing: when cJSON fails on text that is, it ran out of memory. */
bool app_json_valid(const char *t, size_t len)
{
    char open[APP_JSON_MAX_DEPTH];
    int depth = 0;
    size_t i = skip_space(t, len, 0);
    for (;;) {
        /* a value: a container opened (and its first member next), or a scalar */
        if (i < len && (t[i] == '{' || t[i] == '[')) {
            if (depth == APP_JSON_MAX_DEPTH)
                return false;
            char c = open[depth++] = t[i];
            i = skip_space(t, len, i + 1);
            bool empty = i < len && t[i] == (c == '{' ? '}' : ']');
            if (!empty && c == '{' && !scan_key(t, len, &i))
                return false;
            if (!empty)
                continue;
            depth--, i++;
        } else if (!(i < len && t[i] == '"' ? scan_string(t, len, &i)
                                            : i < len && scan_scalar(t, len, &i))) {
            return false;
        }
        /* after a value: closers, then a comma and the next member, or the end */
        for (;;) {
            i = skip_space(t, len, i);
            if (depth == 0)
                return i == len;
            char c = open[depth - 1];
            if (i < len && t[i] == (c == '{' ? '}' : ']')) {
                depth--, i++;
                continue;
            }
            if (i >= len || t[i] != ',')
                return false;
            i = skip_space(t, len, i + 1);
            if (c == '{' && !scan_key(t, len, &i))
                return false;
            break;
        }
    }
}

void app_json_position(const char *text, size_t at, long *line, long *column)
{
    *line = 1, *column = 1;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n')
            ++*line, *column = 1;
        else
            ++*column;
}

size_t app_json_utf8_length(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!n)
        return 0;
    if (u[0] < 0x80)
        return 1;
    /* the lead byte's length and the smallest code point a sequence that long may hold */
    size_t len = u[0] >= 0xC2 && u[0] <= 0xDF   ? 2
                 : u[0] >= 0xE0 && u[0] <= 0xEF ? 3
                 : u[0] >= 0xF0 && u[0] <= 0xF4 ? 4
                                                : 0;
    if (!len || len > n)
        return 0;
    unsigned long cp = u[0] & (0x7Fu >> len);
    for (size_t k = 1; k < len; k++) {
        if ((u[k] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (u[k] & 0x3Fu);
    }
    static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return 0;
    return len;
}

bool app_json_write_string(FILE *f, const char *text)
{
    bool utf8 = true;
    size_t n = strlen(text);
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)text[i];
        size_t len = app_json_utf8_length(text + i, n - i);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (len)
            fwrite(text + i, 1, len, f);
        else
            fputs("\\ufffd", f), utf8 = false;
        i += len ? len : 1;
    }
    fputc('"', f);
    return utf8;
}
