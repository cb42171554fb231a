/* SPDX-License-Identifier: MIT */
/* Headless mode, a client of libpagecurl's public header alone: the book draws its own frames
 * (pagecurl_book_render: an offscreen image, since SDL's offscreen driver has no Vulkan and
 * lavapipe has no headless surface), the last one (or every one, for --frames-out) read back to
 * PNG and the leaf's mesh to OBJ. */
#ifndef PAGECURL_APP_HEADLESS_H
#define PAGECURL_APP_HEADLESS_H

#include "options.h"
#include "trace.h"

#include <pagecurl/pagecurl.h>

#include <stdint.h>

/* The whole headless run: the library's context and the book, checked as a run's inputs are (the
 * page --page names, the outputs that would write into the book, the notebook bound to it, no
 * flag that only a window has a use for, a leaf for the pose to turn), then the frames (a fixed
 * pose, `replay`, or the scripted turn) and the files the options ask for. A replayed trace's ink
 * is saved to --notebook as each stroke ends; idle stretches of a trace (nothing moving, no event
 * due) are skipped, not drawn. A stop signal (app/signals.h) ends it early without writing the
 * files, the ink kept. `why` (may be "") says why there is no window. Returns the exit status. */
int app_headless_main(const AppOptions *opts, const AppTrace *replay, const char *why);

/* The files that end a run, the window's too: --screenshot from `rgba` (width x height) and
 * --export-obj from `leaf` (NULL: none was read). Returns the exit status. */
int app_headless_write(const AppOptions *opts, uint32_t width, uint32_t height, const uint8_t *rgba,
                       const pagecurl_leaf *leaf);

#endif
