/* SPDX-License-Identifier: MIT */
/* The command line's options, one table: each flag, the value it takes, how the value is read
 * into AppOptions, where the option applies and its --help text. app/cli.c parses with it, prints
 * --help from it and refuses with it what does not apply. */
#ifndef PAGECURL_APP_CLI_OPTIONS_H
#define PAGECURL_APP_CLI_OPTIONS_H

#include "options.h"

#include <stddef.h>

/* What a run is: each option says in which of these it applies. */
enum {
    MODE_WINDOW = 1,   /* the default where there is a display */
    MODE_HEADLESS = 2, /* --headless (or no display) */
    MODE_BENCH = 4,    /* --bench */
    MODE_ALL = MODE_WINDOW | MODE_HEADLESS | MODE_BENCH,
    MODE_SHOWN = MODE_WINDOW | MODE_HEADLESS, /* the runs that draw the book */
};

/* The --help listing's sections, in order (app/cli.c names them). */
typedef enum CliGroup {
    GROUP_SHOW,
    GROUP_WINDOW,
    GROUP_HEADLESS,
    GROUP_COMPUTE,
    GROUP_BENCH,
    GROUP_DIAGNOSTICS,
    GROUP_COUNT
} CliGroup;

typedef enum CliValue {
    VALUE_NONE,     /* a switch */
    VALUE_REQUIRED, /* --flag VALUE or --flag=VALUE */
    VALUE_OPTIONAL, /* a switch that also takes --flag=VALUE */
} CliValue;

/* Sets the option's field from `value` (NULL for a switch); false when the value is malformed. */
typedef bool (*CliParse)(const char *value, AppOptions *o, void *field);

typedef struct CliOption {
    const char *flag, *alias;
    const char *metavar; /* the value's name in --help (a switch: NULL; VALUE_OPTIONAL: "=VALUE") */
    CliValue value;
    CliParse parse;
    size_t field; /* offsetof(AppOptions, ...) */
    CliGroup group;
    unsigned modes;      /* where it applies; elsewhere it is refused */
    const char *purpose; /* why it is refused elsewhere: "--x <purpose>; it does not apply ..." */
    const char *expect;  /* after "--x 'value': expected " */
    const char *help;    /* --help's description; '\n' continues it on another line */
} CliOption;

/* Every option; --help lists them in this order within each group. */
#define APP_CLI_MAX_OPTIONS 64
extern const CliOption APP_CLI_OPTIONS[];
extern const size_t APP_CLI_OPTION_COUNT;

#endif
