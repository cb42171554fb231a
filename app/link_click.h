/* SPDX-License-Identifier: MIT */
/* The window's links (libpagecurl's pagecurl_book_link_at): the pointer a hand over one; a click
 * (the left button pressed and let go within a few points, not in ink mode) on a link to a page
 * follows it (pagecurl_book_follow: the way back kept by the library); on an address it shows the
 * address, and a Ctrl+click opens it with the desktop's opener (xdg-open, spawned without a
 * shell; http, https and mailto addresses only: a hostile PDF's file: or other address is never
 * run). SDL lives here and in window.c. */
#ifndef PAGECURL_APP_LINK_CLICK_H
#define PAGECURL_APP_LINK_CLICK_H

#include <SDL.h>
#include <pagecurl/pagecurl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How far (window points, either way) a press may move and still be a click. */
#define APP_LINK_CLICK_TRAVEL 4

typedef struct AppLinkClick {
    SDL_Cursor *hand; /* made at the first link under the pointer */
    bool hand_shown;
    bool armed; /* a press on a link that has not moved past APP_LINK_CLICK_TRAVEL */
    int x, y;   /* where it was pressed (window points) */
    pagecurl_link link;
    pid_t opener; /* xdg-open, started and not yet reaped; 0: none */
    char opening[PAGECURL_LINK_URI_MAX + 1];
} AppLinkClick;

/* `e` (any event: the pointer's are looked at) for `book` drawn at `width` x `height` in the
 * window: the hand shown over a link, a click followed. A line for the toast (the address
 * clicked, its opening, or why it was not opened) into `toast` and true, else false. The event
 * goes on to the book as before: a drag from a link still turns the page. `mods`: the keyboard's
 * modifiers as of `e` (app_session_track_mods). */
bool app_link_click_event(AppLinkClick *c, pagecurl_book *book, const SDL_Event *e,
                          SDL_Window *window, uint32_t width, uint32_t height, bool ink_mode,
                          SDL_Keymod mods, double now, char *toast, size_t size);
/* The opener started for an address, once it has ended: a failure's line into `toast` (true). */
bool app_link_click_poll(AppLinkClick *c, char *toast, size_t size);
/* The hand's cursor freed (the opener left to run: it ends on its own). */
void app_link_click_free(AppLinkClick *c);

#endif
