/* What the open book shows in a frame: the flat pages of the spread (left: the back of the leaf
 * before, turned over; right: the front of the next leaf) and the turning leaf, whose mesh the
 * compute chain curls. Turns that into the renderer's draws with each page's placement. Owns
 * nothing; reads the flip state, never changes it. */
#ifndef PAGECURL_APP_BOOK_H
#define PAGECURL_APP_BOOK_H

#include "../gpu/renderer.h"
#include "../mesh/flip.h"
#include "page.h"

typedef struct AppSpread {
    bool left, right; /* a flat page lies there */
    bool turning;     /* the curled leaf is drawn */
    bool backward;    /* the curl is in a backward turn's mirrored leaf frame */
} AppSpread;

/* A headless pose: leaf 0 turning forward over the front of leaf 1, nothing on the left. */
#define APP_SPREAD_FIRST_TURN ((AppSpread){.right = true, .turning = true})

/* The spread the flip state shows. */
AppSpread app_book_spread(const MeshFlipView *view);

#define APP_BOOK_MAX_DRAWS 3

typedef struct AppBookDraws {
    GpuDraw draws[APP_BOOK_MAX_DRAWS];
    uint32_t count;
} AppBookDraws;

/* The draws for a width x height target. */
void app_book_draws(const AppSpread *spread, const AppPage *page, const GpuRenderer *renderer,
                    uint32_t width, uint32_t height, AppBookDraws *out);

#endif
