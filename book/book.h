/* SPDX-License-Identifier: MIT */
/* What the open book shows in a frame: the flat pages of the spread (left: the back of the leaf
 * before, turned over; right: the front of the next leaf) and the turning leaf, whose mesh the
 * compute chain curls. Turns that into the renderer's draws with each page's placement. Owns
 * nothing; reads the flip state, never changes it. */
#ifndef PAGECURL_BOOK_BOOK_H
#define PAGECURL_BOOK_BOOK_H

#include "../gpu/renderer.h"
#include "../mesh/flip.h"
#include "../mesh/ink.h"
#include "../pages/content.h"
#include "camera.h"
#include "leaf.h"
#include "layout.h"
#include "event.h"
#include "zoom.h"

/* Leaves in an interactive book (window, replayed traces): enough to turn a few both ways. */
#define BOOK_LEAVES PAGES_CONTENT_LEAVES
/* Its pages, each side with its own ink: leaf k's front is page 2k + 1, its back page 2k + 2. */
#define BOOK_PAGES (2 * BOOK_LEAVES)
/* Flat pages lie this far (in page widths) below the turning leaf's flat part: one leaf's
 * thickness (the blocks below are made of such leaves), enough for a 32-bit depth buffer to keep
 * them apart, too little to see. */
#define BOOK_STACK_STEP ((float)PC_PAPER_THICKNESS)
/* The blocks of leaves under the flat pages, every leaf BOOK_STACK_STEP thick (0.3 mm on an
 * A5 page 148 mm wide: heavy sketchbook paper). The book is a sketchbook whose first
 * BOOK_LEAVES leaves are the ones that turn, followed by BOOK_BLOCK_LEAVES blank ones:
 * the left block holds the leaves turned so far, the right one the rest, blank ones included,
 * so each turn moves one leaf's depth from right to left. The blank leaves make the right block
 * 0.14 page widths (21 mm) deep, a few pixels at 640x480, as a book of that size shows: the
 * camera looks down at the book's tail face only ~14 degrees from edge-on, so the 8 leaves alone
 * would be under a pixel. Hence no jump when the first leaf
 * lands on the empty left side (the inside of the cover): the left block starts one leaf deep.
 * The right block does go when the last leaf that turns lifts, as the book shows no blank page
 * to lie on it. */
#define BOOK_BLOCK_LEAVES 64
/* The book of an interactive session: `pages` pages on (pages + 1) / 2 leaves, open on spread
 * `spread` (mesh/flip.h); with `reduced_motion` its turns cross-fade (MeshFlipDesc). */
void book_init_flip(MeshFlip *flip, const BookLeaf *leaf, int pages, int spread,
                    bool reduced_motion);
/* The same book as a reader holds it: a press on the page a settling leaf has uncovered thumbs on
 * (mesh_flip_thumb_press) instead of catching the leaf. The program's window and replays;
 * libpagecurl keeps book_init_flip's book, whose every turn starts and ends on its own. */
void book_init_reader(MeshFlip *flip, const BookLeaf *leaf, int pages, int spread,
                      bool reduced_motion);

/* A pointer, ink, key or zoom event (positions as fractions of a width x height view) into the
 * flip state, the view's zoom (NULL: none, the fitted view) or the ink (NULL: ink events do
 * nothing): every host's input (book/open_book.c's calls) goes through this one door. Keys ask for
 * turns as a reader does (mesh_flip_turn: queued while a leaf settles). An ink stroke stays on the
 * page side it began on; its points off that side are dropped. A held page is posed so that its
 * grabbed point lies on the pointer's line of sight (mesh/drag_ray.h): a move costs a few dozen
 * drag solves, so callers with many moves a frame pass on only the newest.
 *
 * Zoomed in, a press within BOOK_GRAB_ZONE pixels of a page's outer edge (or past it, as far)
 * takes the leaf, at the zoom it has, which stays while the page is held; any other press pans
 * the view (with a flick's inertia). At 1x every press takes the page, as without zoom. A turn
 * that starts zoomed in (a key, a scroll, a leaf let go on its way over) eases the view back to
 * fit over BOOK_ZOOM_EASE seconds, as the view pulls back for the leaf: neither jumps; once at
 * rest book_settle_zoom brings the zoom back. A scroll past a page's foot (head) turns as a
 * key does. Zoom events while a page is held are dropped: the point held would leave the
 * pointer. False for a key turn that does nothing (mesh_flip_turn refused it) and a scroll that
 * does nothing; true otherwise. */
/* A zoomed view scrolled `dy` view heights down (up, below 0) at `time`, within the still spread's
 * fitted pages (nothing while a leaf turns or is held): moved down the page, or past its foot
 * (head), where the reader's next page (the one before) is the caller's to go to, and
 * book_zoom_scroll_turned's to tell. */
BookZoomScroll book_scroll(BookZoom *zoom, const MeshFlip *flip, float dy, double time,
                           uint32_t width, uint32_t height, const BookLeaf *leaf,
                           const BookLayout *layout);
bool book_apply_input(MeshFlip *flip, BookZoom *zoom, MeshInk *ink, const BookInput *e,
                      uint32_t width, uint32_t height, const BookLeaf *leaf,
                      const BookLayout *layout);

/* Zoomed in, a press this close to a page's outer edge (in the view's pixels) turns it. */
#define BOOK_GRAB_ZONE 48.0f
/* A press this many pixels off a page's outer edge, top or bottom still takes the page there (a
 * corner missed by a little): the leaf's point held is the nearest on its edge. */
#define BOOK_CORNER_ZONE 16.0f

/* Whether a width x height view shows one page (--layout single, or auto in a portrait view or
 * once its view has gone to a page alone, BookLayout.alone): the side of the spread the
 * layout's left_page rests on, not both. */
bool book_one_page(const BookLayout *layout, uint32_t width, uint32_t height);

/* A page of another shape than its leaf's is shown alone (BOOK_LAYOUT_AUTO, in a view wider than
 * tall) where alone it would be shown this many times as large as beside its neighbour: a
 * landscape page in a portrait book (about 2x in a 16:9 view), never a page of the book's own
 * shape, which a spread shows as large as one page alone in any landscape view up to 2:1. */
#define BOOK_ALONE_GAIN 1.5f
/* Whether the auto layout shows the spread of `layout`'s print (the pages lying flat, book/
 * layout.h) one page at a time in a width x height view, its leaves `aspect` (height / width):
 * a page's print would be shown BOOK_ALONE_GAIN times as large alone as in the spread. */
bool book_alone(const BookLayout *layout, float aspect, uint32_t width, uint32_t height);

/* A point of a page side as seen by the pointer. */
typedef struct BookHit {
    int side;   /* 0 .. BOOK_PAGES - 1: the side of page side + 1 */
    float u, v; /* the side's ink coordinates (mesh/ink.h) */
} BookHit;

/* The page side under pixel (px, py) of a width x height view zoomed by `zoom` (NULL: fitted),
 * the turning leaf (its exact curl, mesh/pick.c) or the flat page it hides; false when the
 * pointer is on no page. */
bool book_pick(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
               const BookLayout *layout, uint32_t width, uint32_t height, float px, float py,
               BookHit *out);

/* The turning leaf's pose: its grabbed point under the pointer (mesh/curl_drag.c), or for a hard
 * cover the board turned as far as the pointer has carried its free edge. */
CurlParams book_pose(const MeshFlipView *view, const BookLeaf *leaf, const BookLayout *layout);

/* A detail slot's drawing of a side: its content layer + 1 (0: it details no side shown), the
 * side's width in texels drawn full-sized at the density of the detail, and that drawing's texel
 * at the detail's texel (0, 0). */
typedef struct BookSpreadDetail {
    int layer;
    float full_width, x, y;
} BookSpreadDetail;

typedef struct BookSpread {
    bool left, right; /* a flat page lies there */
    bool turning;     /* the curled leaf is drawn */
    bool backward;    /* the curl is in a backward turn's mirrored leaf frame */
    /* Which leaf each is (0 .. BOOK_LEAVES - 1): it picks the printed pages. The left page
     * shows its leaf's back, the right its front. */
    int left_leaf, right_leaf, turning_leaf;
    /* The content and ink layers of each leaf's front (its back is the next) where `placed`
     * (book/book_stream.h), else leaf k's are 2k: the whole built-in book in one texture. */
    bool placed;
    int left_layer, right_layer, turning_layer;
    /* the book's first page is its cover's print (a PDF, a folder, a host's pages): a hard
     * cover's boards show it outside; else (the built-in book) they are covered in cloth */
    bool cover_print;
    int leaves;     /* in the book, for the blocks under the pages; 0 means BOOK_LEAVES */
    float progress; /* of the turn, 0 .. 1 (mesh/flip.h): the camera widens to an opening book */
    /* how far the view is held back from rest, 0 .. 1 (mesh/flip.h's lift, at rest too while it
     * eases back): the camera pulls back at least this far */
    float lift;
    BookZoomView zoom; /* the picture zoomed and panned (zero: fitted) */
    /* What the renderer's detail slots (gpu/renderer.h) hold for the flat pages drawn, set by
     * the stream (book/book_stream.h): zero, none. */
    BookSpreadDetail detail[GPU_DETAIL_SLOTS];
    /* Reduced motion's cross-fade (MESH_FLIP_FADING) instead of the curl: the leaves are the
     * turn's (turning_leaf is the leaf that turns, kept loaded), but no leaf is posed. The spread
     * the turn leads to is drawn, and the one it leaves over it, flat, by 1 - fade; a page that
     * only one of them has fades in or out over the backdrop. */
    bool fading;
    float fade; /* 0 .. 1: how much of the spread the turn leads to shows */
} BookSpread;

/* A headless pose: leaf 0 turning forward over the front of leaf 1, nothing on the left. */
#define BOOK_SPREAD_FIRST_TURN                                                                     \
    ((BookSpread){.right = true, .turning = true, .right_leaf = 1, .turning_leaf = 0})
/* A headless backward turn: leaf 1 turning back from the left, over the back of leaf 0, onto the
 * front of leaf 2. */
#define BOOK_SPREAD_BACKWARD_TURN                                                                  \
    ((BookSpread){.left = true,                                                                    \
                  .right = true,                                                                   \
                  .turning = true,                                                                 \
                  .backward = true,                                                                \
                  .left_leaf = 0,                                                                  \
                  .right_leaf = 2,                                                                 \
                  .turning_leaf = 1})

/* book_pick through a pose drawn as it is (a held pose, pagecurl_book_hold:
 * book_spread_at's spread, its zoom, and book_turn_pose's leaf), not one a flip view gives:
 * its leaf where the spread is turning (not fading), its flat pages where they lie. */
bool book_pick_posed(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                     const BookLayout *layout, uint32_t width, uint32_t height, float px, float py,
                     BookHit *out);

/* The spread a headless run poses at spread `s` (mesh/flip.h) of a `leaves`-leaf book: that
 * spread's right-hand leaf turning forward, or with `backward` its left-hand leaf turning back. */
/* Side `side`'s outline as the pick of the same arguments sees the book, in target
 * pixels: up to `max` points (xy: x, y pairs) around its edge in order, 4 for a side lying flat,
 * BOOK_OUTLINE_POINTS for the turning leaf's side, whole where something lies over it; 0 where
 * the side is not shown (not in the spread, or the page the one-page view leaves out). */
#define BOOK_OUTLINE_POINTS 64
int book_outline(const MeshFlipView *view, const BookZoomView *zoom, const BookLeaf *leaf,
                 const BookLayout *layout, uint32_t width, uint32_t height, int side, float *xy,
                 int max);
int book_outline_posed(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                       const BookLayout *layout, uint32_t width, uint32_t height, int side,
                       float *xy, int max);
BookSpread book_spread_at(int s, int leaves, bool backward);

/* The spread holding page `page` (1-based; 0: none asked, where a headless turn starts: spread 0,
 * or 2 for a backward turn). */
int book_first_spread(uint32_t page, bool backward);

/* A headless turn's pose at progress t (0 flat .. 1 over) grabbed at height g of the free edge,
 * for the turning leaf of `spread`: mesh_curl_pose, or a hard cover's board. */
CurlParams book_turn_pose(const BookSpread *spread, float t, float g, const BookLeaf *leaf,
                          const BookLayout *layout);
/* A pose's roll at another radius, in page widths (BOOK_RADIUS_MIN .. BOOK_RADIUS_MAX),
 * on the same fold line: still paper that does not stretch (any radius is), only the grabbed
 * point no longer lands on the pose's path. A pose with no roll is left as it is. */
#define BOOK_RADIUS_MIN 0.005f
#define BOOK_RADIUS_MAX 0.5f
void book_pose_radius(CurlParams *pose, float radius, const BookLeaf *leaf);

/* The spread the flip state shows. */
BookSpread book_spread(const MeshFlipView *view);
/* The sides (-1 none) lying flat on each side of `spread`, as book/layout.h's print
 * counts them: [0] the right-hand page, [1] the left-hand one (left-bound). A turning leaf lies on
 * the side it is nearer (its progress), where its page is the one that side shows at either end
 * of the turn (a posed --curl 0 or 1). */
void book_spread_sides(const BookSpread *spread, int sides[2]);
/* A turn's spread (book_spread_at) as reduced motion's cross-fade at `fade` (0 .. 1): no leaf
 * posed (draw it with a flat pose), framed as the open book of the two spreads. */
void book_spread_fading(BookSpread *spread, float fade);

/* What the camera frames for `spread` in a width x height view: the spread (or the one-page
 * layout's page), seen face-on at rest, and while a leaf turns (in `pose`, which may be NULL for
 * none) as much of its reach as that pose needs (mesh/reach.h), or as the spread's lift holds if
 * that is more. A closed book (no page on one side) frames its one page, widened to the spread
 * smoothly as the turn's progress opens it. Both move only as the pose and the lift do, so the
 * framing never jumps between frames. Drawing and the pointer take the camera from here. */
BookCameraBook book_camera(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                           const BookLayout *layout, uint32_t width, uint32_t height);

/* The still pages of `spread` as the fitted view frames them at rest, in fractions of a width x
 * height view: the rectangle a zoomed view's pan keeps covering it. */
BookZoomRect book_fit_rect(const BookSpread *spread, const BookLeaf *leaf, const BookLayout *layout,
                           uint32_t width, uint32_t height);
/* The zoom `zoom` shows at `time` over the book in `view` (NULL zoom: the fitted view). */
BookZoomView book_zoom_view(const BookZoom *zoom, const MeshFlipView *view, const BookLeaf *leaf,
                            const BookLayout *layout, uint32_t width, uint32_t height, double time);

/* After a turn from a zoomed view (book/zoom.h's book_zoom_ease_fit), once the book in `view` is
 * at rest: the zoom eases back in (book_zoom_settle). Every frame's update calls it before
 * book_zoom_view. */
void book_settle_zoom(BookZoom *zoom, const MeshFlipView *view, const BookLeaf *leaf,
                      const BookLayout *layout, uint32_t width, uint32_t height, double time);

/* A hard cover's board is this thick, in page widths (2.2 mm on an A5 page: greyboard). */
#define BOOK_BOARD ((float)PC_BOARD_THICKNESS)

/* the turning leaf (a board's twice: its two faces), its edges, two flat pages, two blocks */
#define BOOK_MAX_DRAWS 7

/* A flat page side the draws show (not a board's): which side and content layer, and
 * where it lies on the target, in pixels (x0 < x1, y0 < y1; its print upright, the top row at y0
 * and the spine side where the page lies), for the detail a zoomed view wants. */
typedef struct BookSide {
    int side, layer;
    float x0, y0, x1, y1;
} BookSide;

typedef struct BookDraws {
    GpuDraw draws[BOOK_MAX_DRAWS];
    uint32_t count;
    BookSide sides[2];
    uint32_t side_count; /* at rest; none while a leaf turns or the spread cross-fades */
} BookDraws;

/* The draws for a width x height target; `pose` is the turning leaf's (a hard cover's board is
 * drawn turned by its angle). */
void book_draws(const BookSpread *spread, const CurlParams *pose, const BookLeaf *leaf,
                const BookLayout *layout, const GpuRenderer *renderer, uint32_t width,
                uint32_t height, BookDraws *out);

#endif
