/* SPDX-License-Identifier: MIT */
/* A window's X display lost. SDL's X11 driver runs on Xlib, whose own handlers end the process
 * (exit(1), after a message of several lines) when the connection to the X server breaks (an ssh
 * -X link that drops, `xdotool windowkill`, the server killed) or the server refuses a request
 * (the window destroyed from outside: BadWindow). These handlers end the run instead: what it
 * holds of the user's is put on disk by the run's own callback (Xlib is never called again), one
 * line says what happened, and the exit status is 1. Xlib calls them on the thread that made the
 * call, not in a signal's context, and a handler may not return into Xlib. Built without Xlib
 * (no libX11), they do nothing. */
#ifndef PAGECURL_APP_X11_H
#define PAGECURL_APP_X11_H

#include <SDL.h>

#include <stdbool.h>
#include <stdint.h>

/* What the run does when its display is lost: `why` says what happened in the user's terms ("its
 * connection to the X display :0 was lost"). It must not touch SDL or Xlib; it says the one line
 * (with what happened to the user's work) and may return: the process then ends with status 1. */
typedef void (*AppX11Lost)(void *user, const char *why);

/* Takes Xlib's handlers over where `driver` (SDL_GetCurrentVideoDriver) is "x11". */
void app_x11_watch(const char *driver);
/* Where `driver` is "x11": SDL hands on X's own events too (SDL_SYSWMEVENT, each just before the
 * SDL events made of it), for the times X gave the input. SDL stamps its events when it reads
 * them, which is once a frame: at 4 frames/s a flick's moves would all read as one instant. */
void app_x11_input_times(const char *driver);
/* X's time of the pointer or key input `e` (an SDL_SYSWMEVENT) carries, in the X server's
 * milliseconds; false for any other event, and for one sent by another client without a time
 * (CurrentTime: SDL's stamp times it). `age`: how many milliseconds ago that was, where the
 * X server's clock is this machine's monotonic one (Xorg, Xvfb and Xwayland count
 * CLOCK_MONOTONIC's milliseconds: a server on this machine), else -1 (a server elsewhere). */
bool app_x11_input_time(const SDL_Event *e, uint32_t *ms, int64_t *age);
/* Where `window` is an X window: what X shows of it before anything is presented to it (mapped
 * while the device and the book are made, and where a resize uncovers it) is this colour, not
 * the X server's black. Nothing elsewhere. */
void app_x11_background(SDL_Window *window, uint8_t r, uint8_t g, uint8_t b);
/* Where `window` is an X window: a round trip to its server about it, so that a display lost or
 * a window gone is found on the run's thread and ends the run as the handlers above end it (for
 * another connection's failure to the same server: app/shm_present.h). Nothing elsewhere, or where
 * both are as they were. */
void app_x11_check(SDL_Window *window);
/* The run's callback (NULL: none, the line alone: "the window is gone (WHY)"). */
void app_x11_on_lost(AppX11Lost lost, void *user);
/* The run has ended and said so: a display lost from here (closing the window) ends the process
 * with `status` and says nothing more. */
void app_x11_ended(int status);

#endif
