/* SPDX-License-Identifier: MIT */
/* The window's links (libpagecurl's pagecurl_book_link_at): the pointer a hand over one; a click
 * on one (app/trace_apply.h's, the trace's: the same in a replay) on a link to a page follows it
 * there; on an address it shows the address, and a Ctrl+click opens it with the desktop's opener
 * (xdg-open, spawned without a shell; http, https and mailto addresses only: a hostile PDF's
 * file: or other address is never run). SDL lives here and in window.c. */
#ifndef PAGECURL_APP_LINK_CLICK_H
#define PAGECURL_APP_LINK_CLICK_H

#include "trace_apply.h"

#include <SDL.h>
#include <pagecurl/pagecurl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct AppLinkClick {
    SDL_Cursor *hand; /* made at the first link under the pointer */
    bool hand_shown;
    pid_t opener; /* xdg-open, started and not yet reaped; 0: none */
    char opening[PAGECURL_LINK_URI_MAX + 1];
} AppLinkClick;

/* `e` (any event: a motion with no button held is looked at) for `book` drawn at `width` x
 * `height` in the window: the hand shown over a link (none in ink mode). */
void app_link_click_hover(AppLinkClick *c, pagecurl_book *book, const SDL_Event *e,
                          SDL_Window *window, uint32_t width, uint32_t height, bool ink_mode);
/* A click on an address (`click`'s, taken: its `address` cleared): its line for the toast (the
 * address, its opening with `mods` holding Ctrl, or why it was not opened) into `toast` and
 * true; false where none was clicked. `mods`: the keyboard's modifiers as of the release
 * (app_session_track_mods). */
bool app_link_click_address(AppLinkClick *c, AppTraceClick *click, SDL_Keymod mods, char *toast,
                            size_t size);
/* The opener started for an address, once it has ended: a failure's line into `toast` (true). */
bool app_link_click_poll(AppLinkClick *c, char *toast, size_t size);
/* The hand's cursor freed (the opener left to run: it ends on its own). */
void app_link_click_free(AppLinkClick *c);

#endif
