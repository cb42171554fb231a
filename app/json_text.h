/* SPDX-License-Identifier: MIT */
/* JSON text looked at before cJSON parses it: how deep it nests (cJSON recurses per level, so
 * deep text is refused first), whether it is one valid value (when cJSON fails on text that is,
 * its allocation failed: out of memory, not bad input) and where a byte is (line, column); and a
 * string written as JSON, valid UTF-8 whatever bytes it holds. No allocation anywhere. */
#ifndef PAGECURL_APP_JSON_TEXT_H
#define PAGECURL_APP_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Deepest nesting accepted: a notebook nests four deep (CJSON_NESTING_LIMIT, 1000, would allow a
 * deep stack). */
#define APP_JSON_MAX_DEPTH 16

/* The nesting depth of JSON text, outside strings; stops counting past `limit`. */
int app_json_nesting(const char *text, size_t len, int limit);
/* Whether the text is one JSON value nested at most APP_JSON_MAX_DEPTH deep. */
bool app_json_valid(const char *t, size_t len);
/* Line and column (1-based) of byte `at`. */
void app_json_position(const char *text, size_t at, long *line, long *column);

/* The length (1..4) of the well-formed UTF-8 character the `n` bytes at `s` start with, or 0
 * where they start none (a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, cut short). */
size_t app_json_utf8_length(const char *s, size_t n);
/* `text` as a JSON string: quotes, backslashes and controls escaped, and every byte that is not
 * part of a UTF-8 character (a file name in Latin-1, say) written as U+FFFD, so that the file
 * stays JSON for any reader. True when no byte had to be so replaced. */
bool app_json_write_string(FILE *f, const char *text);

#endif
