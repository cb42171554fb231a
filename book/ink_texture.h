/* SPDX-License-Identifier: MIT */
/* Where the strokes meet the ink texture: a CPU copy of every side's coverage with its mip
 * chain, kept in step with the book's ink. A stroke being drawn adds only its new segments (and
 * the texels they touch, down the mips, are what is uploaded); an undo or clear draws the side
 * again from its strokes. Owns the CPU coverage; the texture belongs to the renderer. */
#ifndef PAGECURL_BOOK_INK_TEXTURE_H
#define PAGECURL_BOOK_INK_TEXTURE_H

#include "../gpu/ink.h"
#include "../mesh/ink_raster.h"

/* What a side's coverage was last drawn from: its stroke count, and the newest stroke's
 * serial and point count (strokes are only appended, extended or taken from the end). */
typedef struct BookInkSynced {
    size_t strokes, points;
    uint64_t serial;
} BookInkSynced;

typedef struct BookInkTexture {
    uint32_t width, height, levels, layers;
    size_t chain;          /* texels of one layer's chain, level after level */
    uint8_t *coverage;     /* layers x chain */
    BookInkSynced *synced; /* per layer */
    MeshInkRect *dirty;    /* per layer: level-0 texels changed and not yet staged */
    int *side;             /* per layer: the ink side it shows (-1 none); at first its own index */
} BookInkTexture;

/* Coverage for `layers` sides of width x height texels, all empty, as a new GpuInk is. False
 * when out of memory. */
bool book_ink_texture_init(BookInkTexture *tex, uint32_t layers, uint32_t width, uint32_t height);
void book_ink_texture_free(BookInkTexture *tex);

/* Layer `layer` shows ink side `side` (-1: none) from now on: its old strokes are cleared (and
 * that staged), the next sync draws the new side's. */
void book_ink_texture_assign(BookInkTexture *tex, uint32_t layer, int side);

/* Draws what changed in `ink` (NULL: nothing) since the last sync into level 0 and the mips over
 * it, and adds it to what is still to be uploaded. No GPU involved. */
void book_ink_texture_sync(BookInkTexture *tex, const MeshInk *ink);
/* Stages what is still to be uploaded into `slot` of `gpu` (a frame slot whose fence has
 * signalled, or gpu->once); false when some did not fit and waits for the next upload. */
bool book_ink_texture_stage(BookInkTexture *tex, GpuInk *gpu, GpuInkSlot *slot);
/* Both: draws what changed in `ink` (NULL: nothing) since the last call and stages it for frame
 * slot `slot` of `gpu` (whose fence has signalled); what does not fit this frame is staged next
 * time. False when some was left for next time. */
bool book_ink_texture_update(BookInkTexture *tex, const MeshInk *ink, GpuInk *gpu, uint32_t slot);
/* Syncs (book_ink_texture_sync) and says whether anything is left to upload: a layer given to
 * another side whose strokes must go, or the new side's strokes. */
bool book_ink_texture_pending(BookInkTexture *tex, const MeshInk *ink);
/* Draws and uploads all of `ink` at once (a loaded notebook can have more sides inked than one
 * frame's staging holds; layers given to other sides), through the ink's upload ring: submitted
 * on the queue, not waited for, so frames may be in flight. */
bool book_ink_texture_upload(BookInkTexture *tex, const MeshInk *ink, const GpuContext *ctx,
                             GpuInk *gpu, GpuError *err);

/* Level `level` of layer `layer`: max(1, width >> level) x max(1, height >> level) texels, row 0
 * at the top. */
const uint8_t *book_ink_texture_level(const BookInkTexture *tex, uint32_t layer, uint32_t level);

#endif
