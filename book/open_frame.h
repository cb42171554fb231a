/* SPDX-License-Identifier: MIT */
/* A book held open (book/open_book.h), framed: its frames readied at the host's time, recorded
 * into the host's target or drawn into its own image, and what it shows. The view and the stream
 * are made here, at the first frame, for its size; the book's input and pages are open_book.c's.
 * Errors as GpuError; a target's checks against the book's settings are the caller's. */
#ifndef PAGECURL_BOOK_OPEN_FRAME_H
#define PAGECURL_BOOK_OPEN_FRAME_H

#include "open_book.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the host's frame goes (pagecurl_target's fields a record reads), its viewport resolved. */
typedef struct BookTarget {
    VkImage image;
    VkImageView view; /* drawn straight into; VK_NULL_HANDLE: copied in */
    VkFormat format;
    VkExtent2D size;   /* the viewport's */
    VkOffset2D offset; /* its top left in the image */
    VkImageLayout layout, final_layout;
    VkPipelineStageFlags2 src_stage;
    VkAccessFlags2 src_access;
    bool keep, in_pass;
    uint64_t generation;
    bool background_set;
    float background[4];
} BookTarget;

/* What the book shows and does (pagecurl_state's fields). */
typedef struct BookOpenState {
    bool single, streaming, pages_ready;
    GpuQuality quality;
    bool turning, held, moving, bound_right, hold;
    float progress, hold_progress;
    int drawing, page; /* 1-based; 0: none */
    int left, right, heading_left, heading_right;
} BookOpenState;

/* What the book shows and does at the last update's time. */
void book_open_state(const BookOpen *b, BookOpenState *out);
/* The first row of the viewport below the book's head, halfway across (pagecurl_book_head_row). */
uint32_t book_open_head_row(const BookOpen *b);

/* --- frames ----------------------------------------------------------------------------------- */

/* The book at `time`, its frame readied for a host's target of `how` at `size` (its depth, drawn
 * straight in, to `depth`), the pages it shows streamed in. The size's checks are the caller's. */
bool book_open_update(BookOpen *b, double time, BookViewTarget how, VkExtent2D size,
                      VkExtent2D depth, GpuError *err);
/* The frame readied recorded into `cmd` for `slot` and target `t`, of the size and kind the
 * update was given (the caller checks). */
bool book_open_record(BookOpen *b, VkCommandBuffer cmd, uint32_t slot, const BookTarget *t,
                      GpuError *err);
/* A second target of the frame recorded for `slot`: that frame's picture scaled into t's
 * viewport (the caller checks that one was recorded and neither is drawn straight in). */
void book_open_record_copy(BookOpen *b, VkCommandBuffer cmd, const BookTarget *t);
/* The frame recorded for the host's pass drawn in it. */
bool book_open_draw(BookOpen *b, VkCommandBuffer cmd, uint32_t slot, GpuError *err);
/* A frame of the book's own at `time` and `size`: its pixels into rgba (NULL: none), the leaf
 * read back where `read_leaf`. */
bool book_open_render(BookOpen *b, double time, VkExtent2D size, uint8_t *rgba, bool read_leaf,
                      GpuError *err);
/* The turning leaf's vertices the last frame read back, host-visible; NULL where none did. */
const float *book_open_leaf_vertices(const BookOpen *b);

#endif
