/* SPDX-License-Identifier: MIT */
/* The command line: one table of options drives parsing, the --help text and the refusal of flags
 * that do not apply to the chosen mode. Bad usage is reported as one line naming the flag and
 * exit status 2; nothing here touches Vulkan, SDL or files. */
#ifndef PAGECURL_APP_CLI_H
#define PAGECURL_APP_CLI_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum AppCliResult {
    APP_CLI_RUN = 0, /* options are valid: go on */
    APP_CLI_EXIT_OK, /* --help or --version was printed */
    APP_CLI_USAGE,   /* message holds the one line; exit 2 */
} AppCliResult;

AppCliResult app_cli_parse(int argc, char **argv, AppOptions *out, char *message, size_t size);
/* Whether a run that opens a window must refuse a headless run's flag it was given (the first,
 * AppOptions.headless_only): the one line, for exit status 2, in `message`. Without a display the
 * same run is headless, and the flag applies. */
bool app_cli_window_refusal(const AppOptions *o, char *message, size_t size);
/* The --help text: usage lines, the options by group, the window's controls. */
void app_cli_usage(FILE *f);

#endif
