/* SPDX-License-Identifier: MIT */
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

static const char *digits(const char *p, int *count)
{
    *count = 0;
    while (isdigit((unsigned char)*p))
        p++, (*count)++;
    return p;
}

bool app_number_decimal(const char *s, double *out)
{
    if (!s)
        return false;
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    int whole, fraction = 0, power;
    p = digits(p, &whole);
    if (*p == '.')
        p = digits(p + 1, &fraction);
    if (whole + fraction == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        p = digits(p, &power);
        if (!power)
            return false;
    }
    if (*p)
        return false;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}
