/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as a command line (NUL-separated arguments, at most 32). The parser
 * must accept or refuse them with one line, never crash or read out of bounds. */
#include "../app/cli.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 1] = {"pagecurl"};
    int argc = 1;
    for (size_t at = 0; at < size && argc < MAX_ARGS; at += strlen(copy + at) + 1)
        argv[argc++] = copy + at;
    argv[argc] = NULL;
    AppOptions opts;
    char message[256];
    app_cli_parse(argc, argv, &opts, message, sizeof message);
    free(copy);
    return 0;
}
