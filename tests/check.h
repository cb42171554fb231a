/* SPDX-License-Identifier: MIT */
/* The tests' only framework: a failed CHECK prints file:line and the condition, and the test
 * exits non-zero at the end. Keeps going after a failure so one run shows all of them. */
#ifndef PAGECURL_TESTS_CHECK_H
#define PAGECURL_TESTS_CHECK_H

#include <stdio.h>

typedef struct CheckState {
    int checks, failures;
} CheckState;

#define CHECK(state, cond, ...)                                                                    \
    do {                                                                                           \
        (state)->checks++;                                                                         \
        if (!(cond)) {                                                                             \
            (state)->failures++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* The exit status of a test binary: 0 only if something was checked and nothing failed. */
static inline int check_finish(const CheckState *state, const char *name)
{
    printf("%s: %d checks, %d failed\n", name, state->checks, state->failures);
    return state->failures == 0 && state->checks > 0 ? 0 : 1;
}

#endif
