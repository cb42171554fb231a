/* SPDX-License-Identifier: MIT */
#include "text_select.h"

#include <stdio.h>
#include <stdlib.h>

/* What lies under window point (x, y), on a book at rest. */
static bool hit_at(pagecurl_book *book, float x, float y, pagecurl_hit *out)
{
    pagecurl_state s = {.size = sizeof s};
    pagecurl_book_state(book, &s);
    *out = (pagecurl_hit){.size = sizeof *out};
    return !s.turning && !s.held && pagecurl_book_hit(book, x, y, out);
}

/* Ctrl+C: the selection to the clipboard. */
static void copy(pagecurl_book *book, char *toast, size_t size)
{
    size_t n = pagecurl_book_selection_text(book, NULL, 0);
    char *text = n ? malloc(n + 1) : NULL;
    if (!n)
        snprintf(toast, size, "nothing selected to copy (Shift+drag over text selects it)");
    else if (!text)
        snprintf(toast, size, "out of memory for the selection's %zu bytes", n);
    else if (pagecurl_book_selection_text(book, text, n + 1) != n ||
             SDL_SetClipboardText(text) != 0)
        snprintf(toast, size, "the clipboard did not take the selection: %.80s", SDL_GetError());
    else
        snprintf(toast, size, "copied %zu bytes of text", n);
    free(text);
}

bool app_text_select_event(AppTextSelect *t, pagecurl_book *book, const SDL_Event *e,
                           SDL_Keymod mods, float scale_x, float scale_y, char *toast, size_t size)
{
    if (e->type == SDL_KEYDOWN && e->key.keysym.sym == SDLK_c && (e->key.keysym.mod & KMOD_CTRL)) {
        copy(book, toast, size);
        return true;
    }
    pagecurl_hit at;
    if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT &&
        e->button.which != SDL_TOUCH_MOUSEID && (mods & KMOD_SHIFT)) {
        t->dragging = hit_at(book, e->button.x * scale_x, e->button.y * scale_y, &at);
        if (t->dragging) {
            t->anchor = at;
            bool word = e->button.clicks >= 2;
            if (!pagecurl_book_select(book, &at, NULL, word, NULL) && word)
                snprintf(toast, size, "no text there to select");
        }
        return true; /* a Shift+press never takes the page */
    }
    if (!t->dragging)
        return false;
    if (e->type == SDL_MOUSEMOTION &&
        hit_at(book, e->motion.x * scale_x, e->motion.y * scale_y, &at))
        pagecurl_book_select(book, &t->anchor, &at, false, NULL); /* on another page: kept */
    if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_LEFT)
        t->dragging = false;
    return e->type == SDL_MOUSEMOTION || e->type == SDL_MOUSEBUTTONUP;
}

bool app_text_select_clear(AppTextSelect *t, pagecurl_book *book)
{
    t->dragging = false;
    pagecurl_selection s = {.size = sizeof s};
    bool had = pagecurl_book_selection(book, &s);
    pagecurl_book_select(book, NULL, NULL, false, NULL);
    return had;
}
