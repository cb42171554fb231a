/* SPDX-License-Identifier: MIT */
/* Running the program under test as a user would: a real process, its exit status, and what it
 * printed on stdout and stderr (through files in a folder of the test's). */
#ifndef PAGECURL_TESTS_RUN_H
#define PAGECURL_TESTS_RUN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct Run {
    int status; /* exit status, or 128 + signal */
    char err[4096], out[16384];
} Run;

/* `args` is NULL-terminated and excludes argv[0]; `env` (may be NULL) is "NAME=value" to set, or
 * "NAME" to unset, in the child only. */
Run run_program(const char *exe, const char *dir, const char *env, const char *const *args);

/* run_program with the arguments from `first` to a NULL among `ap` (at most RUN_MAX_ARGS). */
#define RUN_MAX_ARGS 32
Run run_va(const char *exe, const char *dir, const char *env, const char *first, va_list ap);

/* The same, started in the background: its pid, for run_wait. */
pid_t run_spawn(const char *exe, const char *dir, const char *env, const char *const *args);
/* Waits for a run_spawn'd program; past `timeout` seconds (0: no limit) it is killed (status
 * 137). */
Run run_wait(pid_t pid, const char *dir, double timeout);

/* A test's command line, "NAME PAGECURL OUT_DIR [--verbose]": the program under test, the folder
 * for its outputs (made when missing) and whether --verbose was given. False, with the usage or
 * the failure printed: the test then exits 2. */
typedef struct RunArgs {
    const char *exe, *out;
    bool verbose;
} RunArgs;
bool run_test_args(int argc, char **argv, const char *name, RunArgs *out);

/* A file's first size-1 bytes as a string ("" when it cannot be read). */
void run_slurp(const char *path, char *buf, size_t size);
/* Whether two files hold the same bytes (false when either cannot be read): an input the run
 * must have left as it was. */
bool run_same_file(const char *a, const char *b);

#endif
