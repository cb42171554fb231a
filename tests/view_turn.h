/* SPDX-License-Identifier: MIT */
/* For the tests that draw the built-in book's turns offscreen and compare frames byte for
 * byte (test_still, test_step_down): a small view, one frame of the turn read back, and the
 * main that runs a check on lavapipe under the validation layer (any message fails). */
#ifndef PAGECURL_TESTS_VIEW_TURN_H
#define PAGECURL_TESTS_VIEW_TURN_H

#include "../book/book.h"
#include "../book/leaf.h"
#include "../book/view.h"
#include "check.h"

#define VIEW_TURN_WIDTH  320
#define VIEW_TURN_HEIGHT 240
#define VIEW_TURN_BYTES  ((size_t)VIEW_TURN_WIDTH * VIEW_TURN_HEIGHT * 4)

/* An offscreen view of the first two leaves at the given tier. */
bool view_turn_create(const GpuContext *ctx, BookLeaf *leaf, GpuQuality quality, BookView *view,
                      GpuError *err);

/* One frame of a turn of `spread` at `t`, held at `grab` along the free edge (mesh_curl_pose),
 * its pixels (VIEW_TURN_BYTES) read back when `pixels` is given. */
bool view_turn_frame(const GpuContext *ctx, BookView *view, BookSpread spread, float t, float grab,
                     const MeshInk *ink, uint8_t *pixels, GpuError *err);

/* How many bytes of two frames differ. */
size_t view_turn_differ(const uint8_t *a, const uint8_t *b);
/* Checks that two frames are the same byte for byte; says how many bytes differ, after `what`. */
void view_turn_same(CheckState *s, const uint8_t *a, const uint8_t *b, const char *what);

/* A test's main: `check` on a device with validation (unless argv[1] is --no-validation) and a
 * 64x90 page, then the layer's message count checked. Returns the exit status. */
int view_turn_main(int argc, char **argv, const char *name,
                   void (*check)(CheckState *s, const GpuContext *ctx, BookLeaf *leaf));

#endif
