/* SPDX-License-Identifier: MIT */
/* The view of the open book, and the light. At rest the camera looks straight down on the pages
 * shown, which fill the window; while a leaf is in flight it moves to a little in front of
 * straight above and back, so that everything the turning leaf can sweep stays in the window.
 * Produces the draw push constants for a target's aspect ratio. A pure function of what it
 * frames: drawing and pointer mapping give it the same BookCameraBook and so see the same view. */
#ifndef PAGECURL_BOOK_CAMERA_H
#define PAGECURL_BOOK_CAMERA_H

#include "../shaders/shared.h"
#include "zoom.h"

#include <stdbool.h>
#include <stdint.h>

/* What the camera frames, in the spread's frame (spine on x = 0, pages 0 <= y <= height, the
 * book's top page at z = 0): the span lo .. hi of x (in page widths, -1 the left page's outer
 * edge, +1 the right's) of pages depth deep, and above them the part of that span inside the
 * half-cylinder of radius width about the spine that a leaf turning about it sweeps. */
typedef struct BookCameraBook {
    float width, height; /* a page's */
    float depth;         /* the blocks under the pages reach z = -depth */
    float lo, hi;        /* -1 .. 1 the spread, 0 .. 1 the right page, -1 .. 0 the left */
    /* the share of the height left out of the frame at the head and again at the foot: the
     * one-page view frames a page's print of another shape than its leaf's (book/layout.h's
     * print). 0: the pages' whole height */
    float trim;
    /* 0: at rest, seen face-on, the span's pages filling BOOK_CAMERA_FILL of the window's limiting
     * dimension; 1: a leaf in flight, the view tilted and pulled back to take in all it can
     * sweep; between, both move smoothly */
    float lift;
    /* the picture enlarged and moved on the screen (book/zoom.h), after the projection: the view
     * of a longer lens aimed off centre. Zero: the fitted picture, exactly as without it */
    BookZoomView zoom;
} BookCameraBook;

/* At rest the pages fill this share of the window's limiting dimension: a margin of 2.5 % each
 * side, where the light's falloff and a lifting corner show. */
#define BOOK_CAMERA_FILL 0.95f

/* The still book of width x height pages, no depth: `single` 0 frames the spread, +1 only the
 * right-hand page, -1 only the left-hand one (the one-page layout). */
BookCameraBook book_camera_book(float width, float height, int single);

PcDrawPush book_camera_draw_push(uint32_t width, uint32_t height, const BookCameraBook *book);

/* Whether a host's view-projection (column-major) can frame the book: every value and its
 * inverse's finite, so that pointer positions can be read through it. */
bool book_camera_invertible(const float view_proj[16]);

/* The point of the book's plane (z = 0) under pixel (px, py) of a width x height target, in the
 * spread's frame (spine on x = 0). False when the ray misses the plane. */
bool book_camera_unproject(uint32_t width, uint32_t height, const BookCameraBook *book, float px,
                           float py, float *x, float *y);

/* Where point `p` of the spread's frame shows on a width x height target, in pixels (a pixel's
 * centre at +0.5, as pointers are); false for a point behind the camera. */
bool book_camera_project(uint32_t width, uint32_t height, const BookCameraBook *book,
                         const double p[3], float *px, float *py);
/* The line of sight through pixel (px, py) (pixel centres at +0.5), in the spread's frame: from
 * the near plane's point towards the far plane's. False for a degenerate view. */
bool book_camera_ray(uint32_t width, uint32_t height, const BookCameraBook *book, float px,
                     float py, double origin[3], double dir[3]);

#endif
