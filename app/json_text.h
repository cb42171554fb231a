/* JSON text looked at before cJSON parses it: how deep it nests (cJSON recurses per level, so
 * deep text is refused first), whether it is one valid value (when cJSON fails on text that is,
 * its allocation failed: out of memory, not bad input) and where a byte is (line, column). No
 * allocation anywhere. */
#ifndef PAGECURL_APP_JSON_TEXT_H
#define PAGECURL_APP_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Deepest nesting accepted: a notebook nests four deep (CJSON_NESTING_LIMIT, 1000, would allow a
 * deep stack). */
#define APP_JSON_MAX_DEPTH 16

/* The nesting depth of JSON text, outside strings; stops counting past `limit`. */
int app_json_nesting(const char *text, size_t len, int limit);
/* Whether the text is one JSON value nested at most APP_JSON_MAX_DEPTH deep. */
bool app_json_valid(const char *t, size_t len);
/* Line and column (1-based) of byte `at`. */
void app_json_position(const char *text, size_t at, long *line, long *column);

#endif
