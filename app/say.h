/* SPDX-License-Identifier: MIT */
/* Every line the program prints for its user: "pagecurl: " and the formatted text, its control
 * bytes escaped. Names come from the user's files and folders, and a name may hold a newline
 * (which would split the one line a failure gets) or an escape sequence (which the terminal would
 * obey): both are shown as C escapes (\n, \x1b) instead. */
#ifndef PAGECURL_APP_SAY_H
#define PAGECURL_APP_SAY_H

#include <stddef.h>
#include <stdio.h>

/* "pagecurl: TEXT\n" to `to`, TEXT escaped as app_say_escape does. */
void app_say(FILE *to, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* `text` into `out` (always terminated, cut to `size`) with C0 controls, DEL and the C1
 * controls' UTF-8 forms (U+0080..U+009F) written as \n, \r, \t or \xHH; all else as it is. */
void app_say_escape(const char *text, char *out, size_t size);

/* The exit status `status` once stdout is flushed: where anything written to it was lost (a full
 * disk, /dev/full, a closed terminal), one line on stderr says so and a success becomes 1 (a
 * table, a list or --help that never arrived is no success). */
int app_say_finish(int status);

#endif
