/* SPDX-License-Identifier: MIT */
/* What a frame needs besides the leaf, and the one function that makes a frame: from a pose and
 * the ink's changes to recorded, submitted commands (book_view_frame: the library's own frames, the
 * benchmark, the tests) or commands a host's command buffer executes (book_view_record: a host's
 * frames, the program's window among them); the benchmark reads the stage times. Owns the
 * renderer, the CPU side of its ink texture, the frames in flight (a BookFrameSlot each), and the
 * target: an offscreen image. */
#ifndef PAGECURL_BOOK_VIEW_H
#define PAGECURL_BOOK_VIEW_H

#include "../gpu/frame.h"
#include "../gpu/offscreen.h"
#include "../gpu/timer.h"
#include "../mesh/split.h"
#include "book.h"
#include "book_stream.h"
#include "ink_texture.h"
#include "leaf.h"

typedef enum BookViewKind {
    BOOK_VIEW_COMPUTE,   /* the chain alone: no renderer, no target (the tests' compute checks) */
    BOOK_VIEW_OFFSCREEN, /* an offscreen image of width x height */
    BOOK_VIEW_HOSTED,    /* an offscreen image drawn in a host's command buffers (libpagecurl):
                           its frames secondary command buffers the host's execute
                           (book_view_record), no fences of its own */
} BookViewKind;

typedef struct BookViewDesc {
    BookViewKind kind;
    uint32_t width, height;   /* offscreen */
    GpuRendererDesc renderer; /* offscreen: its colour format is the offscreen image's */
    bool timed;               /* timestamps on the device (the benchmark, the HUD) */
    /* what records the chain's stages and what it reads (GpuChainFrame.record): NULL,
     * gpu_chain_record; the benchmark's own, bench/chain_record.h */
    GpuChainRecord record;
    const void *record_user;
    /* the pages, streamed into the renderer's content and ink layers; NULL: the built-in book's
     * first `leaves` leaves (0: all of them), resident */
    BookStream *book;
    int leaves;
} BookViewDesc;

/* The stage times of one finished frame, by stage. */
typedef struct BookViewTimes {
    uint64_t frame; /* its number: the view's frame count when it was made */
    double ms[GPU_STAGE_COUNT];
    bool ran[GPU_STAGE_COUNT];
} BookViewTimes;

/* What a frame's commands depend on besides the values in its buffers (the pose's curl table,
 * the draw table): a frame whose recipe equals the one its slot recorded last submits those
 * commands again (byte for byte: the leaf and when its grid was made, the renderer's, the reads
 * back). */
typedef struct BookViewRecipe {
    bool valid;
    const BookLeaf *leaf;
    uint64_t made;
    bool readback_vertices, readback_pixels;
    uint64_t target_generation;
    GpuRenderRecipe render;
} BookViewRecipe;

/* One frame in flight's objects, made and destroyed together by the view (book_view_create,
 * book_view_destroy): frame number n of an offscreen view uses slots[n % GPU_FRAMES_IN_FLIGHT], a
 * host's frame the slot the host names. Nothing in a slot is touched while its frame may run. */
typedef struct BookFrameSlot {
    GpuFrame frame;         /* its command buffer and fence (a host's: a secondary, no fence) */
    GpuTimer timer;         /* a timed view's */
    bool stamped;           /* the timer holds a frame's stamps */
    uint64_t stamped_frame; /* which */
    /* the recipe of the commands it recorded last: an equal one submits them again */
    BookViewRecipe kept;
    /* the low tier's turning leaf, its triangles reordered by the frame's pose and view
     * (mesh/split.h): an index buffer of the view's split_indices, made when first needed */
    GpuBuffer split;
} BookFrameSlot;

typedef struct BookView {
    BookViewKind kind;
    BookLeaf *leaf;   /* the caller's; replace or regrid it only after book_view_wait */
    BookStream *book; /* the caller's, or NULL */
    GpuRenderer renderer;
    BookInkTexture ink; /* the CPU side of the renderer's ink texture; starts empty */
    GpuOffscreen offscreen;
    uint32_t width, height; /* offscreen */
    /* a hosted view that draws straight into a host's images of this extent (book_view_host_
     * target): its offscreen holds only the depth, at that extent */
    bool direct;
    VkExtent2D direct_extent;
    /* a hosted view that draws into the host's own rendering (book_view_draw): no image and no
     * depth of its own; the frame book_view_record readied for it (its draws, its slot, where) */
    bool in_pass;
    bool pass_ready;
    uint32_t pass_slot;
    GpuRenderTarget pass_target;
    BookDraws pass_draws;
    BookFrameSlot slots[GPU_FRAMES_IN_FLIGHT];
    bool timed;
    GpuChainRecord record;
    const void *record_user;
    uint64_t frame_number; /* frames submitted so far */
    /* the flat sides the last frame drew and its target's size: what the stream's detail is for */
    BookSide sides[2];
    uint32_t side_count;
    VkExtent2D sides_extent;
    /* called with each timed frame's stage times once its fence has signalled */
    void (*on_times)(void *user, const BookViewTimes *times);
    void *times_user;
    /* a view records a frame's commands once and submits them again while they stay the same
     * (BookFrameSlot.kept): the frames of each kind so far (the tests count them) */
    uint64_t recorded, resubmitted;
    /* the indices in each slot's split buffer (a grid's triangles x 3), and what the split works
     * in (made when first needed) */
    size_t split_indices;
    MeshSplitScratch split_scratch;
    bool split_by_pose;  /* tests: the roll's cells all drawn with the outline's, as by the pose */
    bool split_unmerged; /* tests: every flat cell drawn by its own two triangles */
    uint64_t rolled_plain; /* the roll's cells drawn plain so far (the tests count them) */
} BookView;

/* For `leaf`; the renderer's pages are shaped like it (its content's aspect). */
bool book_view_create(const GpuContext *ctx, const BookViewDesc *desc, BookLeaf *leaf,
                      BookView *out, GpuError *err);
void book_view_destroy(const GpuContext *ctx, BookView *view);

/* One frame: what it shows and what it reads back. */
typedef struct BookViewFrame {
    CurlParams pose; /* the turning leaf's */
    BookSpread spread;
    BookLayout layout;      /* how the book lies open (book/layout.h; zero: the default) */
    const MeshInk *ink;     /* the strokes drawn (what changed is uploaded); NULL: none */
    bool readback_pixels;   /* offscreen: into offscreen.pixels, valid after book_view_wait */
    bool readback_vertices; /* into the leaf's readback buffer (the leaf needs .readback) */
    /* a host's target drawn straight into: its generation (pagecurl_target.generation); 0, not
     * known, keeps none of the commands that name it */
    uint64_t target_generation;
    /* the colour around the pages where `background_set` (GpuRenderTarget.background) */
    bool background_set;
    VkClearColorValue background;
} BookViewFrame;

/* The host's side of a frame, in milliseconds. */
typedef struct BookViewHost {
    double deform; /* the CPU deform (0 on the GPU) */
    double pack;   /* the staging pack's interleave (0 otherwise) */
    double cpu;    /* this thread's CPU time for the frame: the pages' streaming, its draws
                      worked out before the slot's wait (an offscreen view's), then from the
                      wait to the submission */
    double wall;   /* the wall-clock time of the same but the streaming (which may wait for
                      pages) */
    bool recorded; /* its commands were recorded (else its slot's were submitted again) */
} BookViewHost;

/* The pages `frame` would show on a target of `extent`, told to the stream as wanted in detail
 * (as recording the frame tells it), without recording: a host that waits for the detail before
 * the frame (book_stream_detail_now) shows it in that frame. */
void book_view_want_detail(BookView *view, const BookViewFrame *frame, VkExtent2D extent);

/* Waits for the frame in flight it reuses, then records and submits the frame into the view's
 * offscreen image. `host` is optional. */
bool book_view_frame(const GpuContext *ctx, BookView *view, const BookViewFrame *frame,
                     BookViewHost *host, GpuError *err);
/* Blocks until every frame is done (and hands on their stage times): before reading back, or
 * destroying or replacing the leaf. */
bool book_view_wait(const GpuContext *ctx, BookView *view, GpuError *err);

/* A hosted view's frame, in two steps. First, outside any command buffer: the pool in step with
 * `spread` and the pages drawn since uploaded (with `wait`, after the spread's own pages are
 * drawn, and ink layers given to other pages get all of `ink`'s strokes at once, through the ink's
 * upload ring: no queue idle). Then into the host's begun `cmd` for its frame slot `slot`: the
 * ink's changes staged, the pose's host side, and the slot's secondary command buffer executed,
 * which holds the chain and the render into the view's offscreen image (left in
 * COLOR_ATTACHMENT_OPTIMAL for the copy out, gpu_offscreen_record_blit), recorded again only when
 * its recipe changes. Nothing in book_view_record waits, allocates or submits; the host records a
 * slot again only after the device has finished its last use. */
bool book_view_stream(const GpuContext *ctx, BookView *view, const MeshInk *ink, BookSpread *spread,
                      bool wait, GpuError *err);
/* All of `ink` drawn and uploaded at once (a notebook loaded), the ink made full first where it
 * has a stroke (gpu_renderer_ink_full: until then a texel a layer). */
bool book_view_ink_upload(const GpuContext *ctx, BookView *view, const MeshInk *ink, GpuError *err);
/* `direct` (NULL: the view's offscreen image, copied out by the host) is a host's image drawn
 * straight into, as book_view_host_target readied the view for; its depth is the view's. A
 * target `in_pass` records what comes before the host's rendering; book_view_draw then draws. */
bool book_view_record(const GpuContext *ctx, BookView *view, VkCommandBuffer cmd, uint32_t slot,
                      const BookViewFrame *frame, const GpuRenderTarget *direct, GpuError *err);
/* A hosted view's frames of width x height from now on: its offscreen made anew as its target
 * needs (book_view_host_target's), once nothing in flight uses the old one. */
bool book_view_resize(const GpuContext *ctx, BookView *view, uint32_t width, uint32_t height,
                      GpuError *err);

/* The frame book_view_record readied for an `in_pass` target, drawn into the host's rendering
 * begun in `cmd` (gpu_renderer_record_pass); false where none was readied for `slot`. */
bool book_view_draw(const GpuContext *ctx, BookView *view, VkCommandBuffer cmd, uint32_t slot,
                    GpuError *err);

/* How a hosted view's frames reach the host: copied out of its offscreen image, drawn straight
 * into a host's image (with a depth of its own of `extent`: the viewport's far corner), or
 * drawn into the host's own rendering (no image, no depth). */
typedef enum BookViewTarget {
    BOOK_VIEW_TARGET_COPY,
    BOOK_VIEW_TARGET_DIRECT,
    BOOK_VIEW_TARGET_PASS
} BookViewTarget;

/* The view readied for frames of `how`: the offscreen made anew where that or `extent` changes,
 * once the queue is idle. */
bool book_view_host_target(const GpuContext *ctx, BookView *view, BookViewTarget how,
                           VkExtent2D extent, GpuError *err);

/* Draws by another tier from the next frame on (gpu_renderer_set_quality), once the frames in
 * flight are done (a hosted view's: the queue idle); the pages, the ink and the frames stay. The
 * view's image is made anew for the tier's samples. */
bool book_view_set_quality(const GpuContext *ctx, BookView *view, GpuQuality quality,
                           GpuError *err);

#endif
