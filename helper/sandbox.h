/* SPDX-License-Identifier: MIT */
/* What the page helper gives up before it reads a byte of the book, where the kernel allows
 * (best-effort: a kernel without Landlock leaves it as it is). No new privileges (a set-user-ID
 * program it could run would not be one). Landlock: no file opened from then on, but the folder's
 * pages (read-only, beneath the folder given, and the files its links lead to); none at all for a
 * PDF, already open; no file written, made or removed anywhere. On a kernel with Landlock ABI 4
 * (Linux 6.7) no TCP bound or connected; with ABI 6 (Linux 6.12) no signal sent and no abstract
 * socket reached outside itself. Linux only; elsewhere nothing. */
#ifndef PAGECURL_HELPER_SANDBOX_H
#define PAGECURL_HELPER_SANDBOX_H

#include <stdbool.h>
#include <stdint.h>

/* What was given up, as flags (docs/page-helper.md). */
enum {
    PAGES_CONFINED_NO_NEW_PRIVS = 1u << 0,
    PAGES_CONFINED_FILES = 1u << 1,   /* Landlock: files as above */
    PAGES_CONFINED_NETWORK = 1u << 2, /* Landlock: TCP */
    PAGES_CONFINED_SCOPED = 1u << 3   /* Landlock: signals and abstract sockets */
};

/* A confinement being made: what it will allow, then entered. */
typedef struct PagesSandbox {
    int ruleset; /* -1: none (no Landlock) */
    long abi;    /* Landlock's, 0 for none */
    bool ruled;  /* every rule added */
} PagesSandbox;

/* Begins one in which `folder` (-1: none) is the one folder whose files may still be read. */
void pages_sandbox_begin(PagesSandbox *s, int folder);
/* The file open as `file` (O_PATH will do) may still be read: a folder's page that is a symbolic
 * link to a file outside it. */
void pages_sandbox_allow(PagesSandbox *s, int file);
/* Confines this process as begun; the flags of what it could do. */
uint32_t pages_sandbox_enter(PagesSandbox *s);

#endif
