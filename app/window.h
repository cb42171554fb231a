/* SPDX-License-Identifier: MIT */
/* Window mode (SDL2), a client of libpagecurl's public header alone: the window, its Vulkan
 * surface (on the library's own device, which presents to it) and its swapchain, into which the
 * book records each frame (pagecurl_book_update and pagecurl_book_record) and the HUD draws over
 * it; its input is window_input.c's (SDL lives in these two files only). Left-button drags turn
 * the page under the pointer; arrows and Page Up/Down flip; Escape or closing the window quits.
 * Ink: the right button draws, and so does every pointer in ink mode (I toggles); Ctrl+Z takes
 * back the last stroke or clear, Delete clears the page side under the pointer. SDL 2 has no pen
 * events (SDL 3 does): a pen comes as a mouse or a finger, with its pressure on touch. F12 or P
 * saves the window as shown to a new numbered PNG; --screenshot / --export-obj write the last
 * frame shown, and the turning leaf's mesh in it, on the way out. */
#ifndef PAGECURL_APP_WINDOW_H
#define PAGECURL_APP_WINDOW_H

#include "options.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SDL_Window SDL_Window;

#define APP_WINDOW_MAX_EXTENSIONS 8

typedef struct AppWindow {
    SDL_Window *window;
    bool sdl_started;
    const char *extensions[APP_WINDOW_MAX_EXTENSIONS];
    unsigned extension_count;
    /* PAGECURL_FAULT=acquire:N or submit:N (app/fault.h, from the options), switches for tests
     * only (allocate:N is the library's context's): the Nth swapchain image acquire, and every one
     * after it until the swapchain is rebuilt, reports VK_ERROR_OUT_OF_DATE_KHR, as a compositor
     * does at a resize; the window's frame submissions after the first N fail with
     * VK_ERROR_DEVICE_LOST. 0: none. */
    uint32_t fault_acquire, fault_submit;
} AppWindow;

/* False, with the reason in message, when no window can be had (no display, no SDL video). The
 * window is made hidden: it shows once the run's inputs are good. */
bool app_window_open(const AppOptions *opts, AppWindow *out, char *message, size_t size);
void app_window_close(AppWindow *win);

/* The whole window run: the library's context on a device that presents to the window, the book
 * the options name (checked as headless mode checks it: --page, the outputs, the notebook bound
 * to it, which reopens where the reader was), then the frames until quit, a stop signal
 * (app/signals.h) or --frames frames, from the user's input or a replayed trace (a replay skips
 * the idle stretches of its trace), ink saved to the notebook as each stroke ends; writes the
 * --record trace however it ends (pointer positions clamped to the window, so it replays), and
 * --screenshot/--export-obj of the last frame shown unless it failed or was stopped. Returns the
 * exit status. */
int app_window_run(AppWindow *win, AppOptions *opts, const AppTrace *replay);

#endif
