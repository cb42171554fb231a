/* SPDX-License-Identifier: MIT */
/* Input files, opened so that no path can block or mislead the program: a FIFO would block
 * open() until a writer comes, a device (/dev/zero) never ends, a folder is no file. And a whole
 * input file read into memory, for the parsers that take text from memory (traces, notebooks:
 * one parser serves files and the fuzzers alike). Owns nothing after it returns: the caller
 * frees the text. */
#ifndef PAGECURL_FILES_INPUT_H
#define PAGECURL_FILES_INPUT_H

#include <stddef.h>
#include <stdio.h>

typedef enum FilesRead {
    FILES_READ_OK = 0,
    FILES_READ_TOO_LARGE, /* more than `max` bytes */
    FILES_READ_NO_MEMORY, /* no memory for what it holds */
    FILES_READ_ERROR,     /* a read error (a directory, say); errno tells */
} FilesRead;

/* Opens `path` for reading without blocking (O_NONBLOCK, so a FIFO's open returns at once),
 * then refuses anything but a regular file (fstat on the descriptor opened: no race with the
 * name). NULL with errno set (ENOENT, EACCES, ...; EISDIR for a folder, EINVAL for a FIFO, a
 * device or a socket) and `why` holding the cause in words ("No such file or directory", "a
 * FIFO, not a regular file", "a symbolic link to a file that is not there"). The FILE reads in
 * blocking mode. */
FILE *files_open(const char *path, char *why, size_t size);
/* The same for `path` relative to the folder open as `dir` (AT_FDCWD: the working folder): how
 * the page helper reads a folder's pages through the folder the library gave it. */
FILE *files_openat(int dir, const char *path, char *why, size_t size);

/* What a file that is not a regular one is, in words ("a folder", "a FIFO", "a character
 * device"...), from its st_mode. */
const char *files_kind(unsigned mode);

/* Reads `f` to its end in growing chunks (no size asked of the file, so pipes work too). On
 * FILES_READ_OK *text (malloc'd, not terminated) holds *len bytes; otherwise *text is NULL. */
FilesRead files_read(FILE *f, size_t max, char **text, size_t *len);

#endif
