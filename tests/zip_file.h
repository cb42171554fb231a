/* SPDX-License-Identifier: MIT */
/* Zip files the tests write by hand (EPUB, XPS and comic books): entries stored as they are, or a
 * run of zeros deflated (a zip bomb's part: a few hundred KB that unpack to many MB), then the
 * central directory. No zip64: small books only. */
#ifndef PAGECURL_TESTS_ZIP_FILE_H
#define PAGECURL_TESTS_ZIP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZIP_FILE_ENTRIES 64

typedef struct ZipFile {
    FILE *f;
    struct {
        char name[128];
        uint32_t crc, packed, size, at;
        uint16_t method;
    } entry[ZIP_FILE_ENTRIES];
    int count;
    bool failed;
} ZipFile;

bool zip_file_open(ZipFile *zip, const char *path);
/* An entry of `n` bytes, stored. */
void zip_file_add(ZipFile *zip, const char *name, const void *bytes, size_t n);
/* An entry of the text `text`, stored. */
void zip_file_text(ZipFile *zip, const char *name, const char *text);
/* An entry whose bytes are the file at `path`'s, stored. */
void zip_file_copy(ZipFile *zip, const char *name, const char *path);
/* An entry of `n` zero bytes, deflated (its CRC left 0: MuPDF checks none). */
void zip_file_zeros(ZipFile *zip, const char *name, size_t n);
/* The central directory written and the file closed; false where any of it failed. */
bool zip_file_close(ZipFile *zip);

#endif
