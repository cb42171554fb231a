/* SPDX-License-Identifier: MIT */
/* PAGECURL_FAULT, the tests' switch that injects faults to prove the error paths: read by the
 * program only (libpagecurl reads no environment for it; tests/include_cycles.sh checks), parsed
 * here, handed to the library's context (book/pagecurl_program.h) and to the window.
 * PAGECURL_FAULT=KIND:N, KIND one of submit, allocate, acquire or draw and N a whole number from 1
 * to UINT32_MAX; anything else is refused (a usage error: a test that mistypes its fault must not
 * pass without one). */
#ifndef PAGECURL_APP_FAULT_H
#define PAGECURL_APP_FAULT_H

#include "../book/pagecurl_program.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define APP_FAULT_ENV "PAGECURL_FAULT"

typedef struct AppFaults {
    /* submit and allocate are the library's and the window's submissions; draw the book's pages */
    pagecurl_faults library;
    /* the window's: the Nth image acquire, and those after it until the swapchain is rebuilt,
     * report the swapchain out of date (0: none) */
    uint32_t acquire;
} AppFaults;

/* `spec` (PAGECURL_FAULT's value; NULL or empty: none) into *out. False, with the line in
 * message, for a value that is not KIND:N. */
bool app_fault_parse(const char *spec, AppFaults *out, char *message, size_t size);

/* The same for the environment's PAGECURL_FAULT. */
bool app_fault_read(AppFaults *out, char *message, size_t size);

#endif
