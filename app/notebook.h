/* Notebooks: a book's ink (mesh/ink.h) as a JSON file, read with cJSON and written through
 * app/output.c's temporary file + rename, so a failed save never damages the notebook on disk.
 * Loading checks everything (format, page numbers, coordinates, widths) and names the first
 * problem in one line; a file that does not exist yet is an empty notebook. Format:
 *     {"format": "pagecurl-notebook", "version": 1,
 *      "pages": [{"page": 1, "strokes": [[[u, v, width], [u, v, width], ...], ...]}, ...]}
 * page: 1-based book page (leaf k's front is 2k + 1, its back 2k + 2); u, v in 0..1 (mesh/ink.h:
 * the side seen face up, v up from its bottom edge); width in page widths, within
 * MESH_INK_MIN_WIDTH .. MESH_INK_MAX_WIDTH. Pages may come in any order, each at most once. */
#ifndef PAGECURL_APP_NOTEBOOK_H
#define PAGECURL_APP_NOTEBOOK_H

#include "../mesh/ink.h"

#include <stdbool.h>
#include <stddef.h>

#define APP_NOTEBOOK_FORMAT  "pagecurl-notebook"
#define APP_NOTEBOOK_VERSION 1

/* `len` bytes of JSON into `ink`, which the caller has initialised with the book's page count
 * (strokes are added to it; on failure it is left empty). False with "NAME: reason" in message.
 * Any bytes are safe (the fuzzer's door). */
bool app_notebook_parse(const char *text, size_t len, const char *name, MeshInk *ink, char *message,
                        size_t size);
/* The file into `ink` (initialised by the caller); a missing file leaves it empty and succeeds.
 * False with "--notebook FILE: reason" in message. */
bool app_notebook_load(const char *path, MeshInk *ink, char *message, size_t size);
/* Written under a temporary name and renamed into place. */
bool app_notebook_save(const char *path, const MeshInk *ink, char *message, size_t size);

#endif
