/* SPDX-License-Identifier: MIT */
/* The GPU tests' context: lavapipe (or the first device) with the Khronos validation layer
 * unless the test's first argument is --no-validation, and the check that it said nothing. */
#ifndef PAGECURL_TESTS_GPU_CHECK_H
#define PAGECURL_TESTS_GPU_CHECK_H

#include "../gpu/context.h"
#include "check.h"

#include <string.h>

/* False (with the reason on stderr) when no context can be made. */
static inline bool gpu_check_context(int argc, char **argv, const char *name, GpuMessages *messages,
                                     GpuContext *ctx)
{
    bool validation = !(argc > 1 && !strcmp(argv[1], "--no-validation"));
    GpuError err = {0};
    GpuContextDesc desc = {.validation = validation, .device_index = -1, .messages = messages};
    if (gpu_context_create(&desc, ctx, &err))
        return true;
    fprintf(stderr, "%s: %s\n", name, err.message);
    return false;
}

/* Destroys the context, then checks that the validation layer had nothing to say. */
static inline void gpu_check_finish(CheckState *s, GpuContext *ctx, const GpuMessages *messages)
{
    gpu_context_destroy(ctx);
    CHECK(s, messages->errors + messages->warnings == 0, "%u validation errors, %u warnings",
          messages->errors, messages->warnings);
}

#endif
