/* SPDX-License-Identifier: MIT */
/* posix_spawnp, waitpid */
#define _GNU_SOURCE

#include "link_click.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

extern char **environ;

/* The target pixel (x, y) of window point (px, py): as the trace's fractions of the window, on
 * the book's viewport. */
static void target_of(SDL_Window *window, int px, int py, uint32_t width, uint32_t height,
                      double *x, double *y)
{
    int ww = 1, wh = 1;
    SDL_GetWindowSize(window, &ww, &wh);
    ww = ww > 0 ? ww : 1, wh = wh > 0 ? wh : 1;
    *x = (double)px / ww * width, *y = (double)py / wh * height;
}

/* An address the desktop's opener may be given: a web page or a mail. Anything else (file:, a
 * scheme that runs a program, a bare word xdg-open reads as a path or an option) is only shown. */
static bool openable(const char *uri)
{
    return !strncasecmp(uri, "http://", 7) || !strncasecmp(uri, "https://", 8) ||
           !strncasecmp(uri, "mailto:", 7);
}

static void open_address(AppLinkClick *c, const char *uri, char *toast, size_t size)
{
    if (c->opener) {
        snprintf(toast, size, "%s: the last address is still being opened", uri);
        return;
    }
    if (!openable(uri)) {
        snprintf(toast, size, "%s: not opened (only http, https and mailto addresses are)", uri);
        return;
    }
    char *argv[] = {"xdg-open", (char *)uri, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "xdg-open", NULL, NULL, argv, environ);
    if (e) {
        snprintf(toast, size, "%s: cannot be opened (xdg-open: %s)", uri, strerror(e));
        return;
    }
    c->opener = pid;
    snprintf(c->opening, sizeof c->opening, "%s", uri);
    snprintf(toast, size, "opening %s", uri);
}

static void show_hand(AppLinkClick *c, bool hand)
{
    if (hand == c->hand_shown)
        return;
    if (hand && !c->hand && !(c->hand = SDL_CreateSystemCursor(SDL_SYSTEM_CURSOR_HAND)))
        return; /* no cursor to show: the arrow stays */
    SDL_SetCursor(hand ? c->hand : SDL_GetDefaultCursor());
    c->hand_shown = hand;
}

void app_link_click_hover(AppLinkClick *c, pagecurl_book *book, const SDL_Event *e,
                          SDL_Window *window, uint32_t width, uint32_t height, bool ink_mode)
{
    if (!width || !height || e->type != SDL_MOUSEMOTION || e->motion.which == SDL_TOUCH_MOUSEID ||
        e->motion.state)
        return;
    double x, y;
    target_of(window, e->motion.x, e->motion.y, width, height, &x, &y);
    pagecurl_link l = {.size = sizeof l};
    show_hand(c, !ink_mode && pagecurl_book_link_at(book, x, y, &l));
}

bool app_link_click_address(AppLinkClick *c, AppTraceClick *click, SDL_Keymod mods, char *toast,
                            size_t size)
{
    if (!click->address)
        return false;
    click->address = false;
    if (mods & KMOD_CTRL)
        open_address(c, click->link.uri, toast, size);
    else
        snprintf(toast, size, "%s (Ctrl+click opens it)", click->link.uri);
    return true;
}

bool app_link_click_poll(AppLinkClick *c, char *toast, size_t size)
{
    int status;
    if (!c->opener || waitpid(c->opener, &status, WNOHANG) != c->opener)
        return false;
    c->opener = 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return false;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(toast, size, "%s: cannot be opened (no xdg-open)", c->opening);
    else if (WIFEXITED(status))
        snprintf(toast, size, "%s: xdg-open could not open it (exit status %d)", c->opening,
                 WEXITSTATUS(status));
    else
        snprintf(toast, size, "%s: xdg-open ended by signal %d", c->opening,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return true;
}

void app_link_click_free(AppLinkClick *c)
{
    if (c->hand)
        SDL_FreeCursor(c->hand);
    c->hand = NULL;
}
