/* SPDX-License-Identifier: MIT */
#ifndef PAGECURL_MESH_LEAST_H
#define PAGECURL_MESH_LEAST_H

/* The running least and most of a sequence of values, as fmin and fmax give them (a NaN value is
 * passed over), inlined: C's fmin and fmax are calls (compilers inline them only where NaNs and
 * signed zeros may be ignored), and a camera fit or a reach share makes thousands a frame. */
static inline double mesh_least(double acc, double v)
{
    return v < acc ? v : acc;
}

static inline double mesh_most(double acc, double v)
{
    return v > acc ? v : acc;
}

static inline float mesh_leastf(float acc, float v)
{
    return v < acc ? v : acc;
}

static inline float mesh_mostf(float acc, float v)
{
    return v > acc ? v : acc;
}

#endif
