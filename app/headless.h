/* Headless mode: the whole frame rendered into an offscreen image (SDL's offscreen driver has no
 * Vulkan and lavapipe has no headless surface), then the last frame read back to PNG and OBJ. */
#ifndef PAGECURL_APP_HEADLESS_H
#define PAGECURL_APP_HEADLESS_H

#include "../gpu/offscreen.h"
#include "../mesh/ink.h"
#include "book.h"
#include "book_stream.h"
#include "cli.h"
#include "notebook.h"
#include "ink_texture.h"
#include "input.h"
#include "page.h"
#include "trace.h"

/* What an offscreen run owns besides the page: the renderer, the CPU side of its ink texture, its
 * colour target and the ring of frames in flight. Public so that a driver can play frames of its
 * own between page changes (the soak test, tests/test_soak.c). */
typedef struct AppHeadless {
    GpuRenderer renderer;
    AppInkTexture ink; /* starts empty: app_ink_texture_upload, or each frame's strokes */
    GpuOffscreen target;
    GpuFrame frames[GPU_FRAMES_IN_FLIGHT];
    uint32_t width, height;
    AppBookStream *book; /* the pages streamed in; NULL: the whole built-in book, resident */
} AppHeadless;

/* A width x height target for pages shaped like `page` (its content's aspect), `msaa` samples at
 * most (0: 4 where the device can), showing `book` (NULL: the built-in book, all resident). */
bool app_headless_create(const GpuContext *ctx, uint32_t width, uint32_t height, uint32_t msaa,
                         const AppPage *page, AppBookStream *book, AppHeadless *out, GpuError *err);
void app_headless_destroy(const GpuContext *ctx, AppHeadless *hl);

/* One frame: what it shows and what it reads back. */
typedef struct AppHeadlessFrame {
    uint32_t index; /* frame number: picks the frame in flight */
    CurlParams pose;
    AppSpread spread;
    const MeshInk *ink;     /* the strokes drawn (what changed is uploaded first); NULL: none */
    bool readback_pixels;   /* into target.pixels, valid after app_headless_wait */
    bool readback_vertices; /* into the page's readback buffer (the page needs .readback) */
} AppHeadlessFrame;

/* Records and submits a frame of `page`; waits first for the frame in flight it reuses. */
bool app_headless_frame(const GpuContext *ctx, AppHeadless *hl, AppPage *page,
                        const AppHeadlessFrame *frame, GpuError *err);
/* Blocks until every frame is done: before reading back, or destroying or replacing the page. */
bool app_headless_wait(const GpuContext *ctx, AppHeadless *hl, GpuError *err);

/* Plays the frames (a fixed pose, a replayed trace, or the scripted turn) and writes the
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
