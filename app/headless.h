/* Headless mode: the whole frame rendered into an offscreen image (SDL's offscreen driver has no
 * Vulkan and lavapipe has no headless surface), then the last frame read back to PNG and OBJ. */
#ifndef PAGECURL_APP_HEADLESS_H
#define PAGECURL_APP_HEADLESS_H

#include "../mesh/ink.h"
#include "cli.h"
#include "input.h"
#include "page.h"
#include "trace.h"

/* Plays the frames (a fixed pose, a replayed trace, or the scripted turn) and writes the
 * requested files. A replayed trace's ink events draw into `ink`. Returns the exit status. */
int app_headless_run(const GpuContext *ctx, AppPage *page, const AppOptions *opts,
                     const AppTrace *replay, MeshInk *ink);

/* Renders one frame of `turn` offscreen and writes --screenshot / --export-obj. Used by headless
 * runs and by the window when it closes. Returns the exit status. */
int app_headless_capture(const GpuContext *ctx, AppPage *page, const AppOptions *opts,
                         AppTurn turn);

#endif
