/* SPDX-License-Identifier: MIT */
/* The window's text selection (pagecurl_book_select): Shift and the left button dragged over a
 * page at rest select its text from the press to the pointer, in reading order (highlighted on
 * the page); Shift and a double-click select the word there (a plain double-click toggles the
 * zoom, as before: the zoom wins); Ctrl+C copies the selection to the clipboard (SDL's). While a
 * leaf is in the air nothing is selected: a Shift+press then does nothing. The selection stays
 * across turns (highlighted on its page) until Escape or another selection. */
#ifndef PAGECURL_APP_TEXT_SELECT_H
#define PAGECURL_APP_TEXT_SELECT_H

#include <SDL.h>
#include <pagecurl/pagecurl.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct AppTextSelect {
    bool dragging;
    pagecurl_hit anchor; /* where the drag was pressed */
} AppTextSelect;

/* The event's share: a Shift+left press, the drag's moves and its release, Ctrl+C. Positions are
 * the window's points, `scale` times them the book's input pixels. Whether it took the event;
 * a line for the reader (what was copied, or why nothing was) into `toast` where there is one.
 * `mods`: the keyboard's modifiers as of `e` (app_session_track_mods). */
bool app_text_select_event(AppTextSelect *t, pagecurl_book *book, const SDL_Event *e,
                           SDL_Keymod mods, float scale_x, float scale_y, char *toast, size_t size);
/* Escape's share: the selection cleared; whether there was one. */
bool app_text_select_clear(AppTextSelect *t, pagecurl_book *book);

#endif
