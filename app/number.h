/* SPDX-License-Identifier: MIT */
/* Numbers as the user writes them in flags and traces: decimal only. strtod alone also reads
 * hexadecimal ("0x10" as 16), "inf", "nan" and leading blanks, none of which a person means by a
 * time or a fraction of a page. */
#ifndef PAGECURL_APP_NUMBER_H
#define PAGECURL_APP_NUMBER_H

#include <stdbool.h>

/* The whole of `s` as a decimal real: an optional sign, digits with at most one point (at least
 * one digit), an optional exponent (e or E, an optional sign, digits). False for anything else,
 * and for a value that is not finite. */
bool app_number_decimal(const char *s, double *out);

#endif
