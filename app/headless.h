/* Headless mode: the whole frame rendered into an offscreen image (SDL's offscreen driver has no
 * Vulkan and lavapipe has no headless surface), then the last frame read back to PNG and OBJ. */
#ifndef PAGECURL_APP_HEADLESS_H
#define PAGECURL_APP_HEADLESS_H

#include "../mesh/ink.h"
#include "../book/book.h"
#include "../book/book_stream.h"
#include "options.h"
#include "notebook.h"
#include "../book/ink_texture.h"
#include "input.h"
#include "../book/page.h"
#include "../book/view.h"
#include "trace.h"

/* Plays the frames (a fixed pose, a replayed trace, or the scripted turn) of `book` (NULL: the
 * built-in book, all resident) and writes the
 * requested files. A replayed trace's ink events draw into `ink`, saved to `notebook` as each
 * stroke ends; idle stretches of a trace (nothing moving, no event due) are skipped, not
 * rendered. A stop signal (app/signals.h) ends it early without writing the files. Returns the
 * exit status. */
int app_headless_run(const GpuContext *ctx, AppPage *page, AppBookStream *book,
                     const AppOptions *opts, const AppTrace *replay, MeshInk *ink,
                     AppNotebook *notebook);

/* The files that end a run, the window's too: --screenshot from `rgba` (width x height) and
 * --export-obj from the page's read-back vertices (after the frame's fence). Returns the exit
 * status. */
int app_headless_write(const GpuContext *ctx, const AppPage *page, const AppOptions *opts,
                       uint32_t width, uint32_t height, const uint8_t *rgba);

#endif
