/* A whole input file read into memory, for the parsers that take text from memory (traces,
 * notebooks: one parser serves files and the fuzzers alike). Owns nothing after it returns: the
 * caller frees the text. */
#ifndef PAGECURL_APP_FILE_H
#define PAGECURL_APP_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef enum AppFileRead {
    APP_FILE_OK = 0,
    APP_FILE_TOO_LARGE, /* more than `max` bytes */
    APP_FILE_NO_MEMORY, /* no memory for what it holds */
    APP_FILE_ERROR,     /* a read error (a directory, say); errno tells */
} AppFileRead;

/* Reads `f` to its end in growing chunks (no size asked of the file, so pipes work too). On
 * APP_FILE_OK *text (malloc'd, not terminated) holds *len bytes; otherwise *text is NULL. */
AppFileRead app_file_read(FILE *f, size_t max, char **text, size_t *len);

#endif
