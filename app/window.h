/* Window mode (SDL2): the window, its Vulkan surface and the swapchain loop; its input is
 * window_input.c's (SDL lives in these two files only). Left-button drags turn the page under the
 * pointer (mesh/flip.c decides, the drag mapping of mesh/curl_drag.c poses it); arrows and Page
 * Up/Down flip; Escape or closing the window quits. Ink: the right button draws, and so does every
 * pointer in ink mode (I toggles); Ctrl+Z takes back the last stroke or clear, Delete clears the
 * page side under the pointer. SDL 2 has no pen events (SDL 3 does): a pen comes as a mouse or a
 * finger, with its pressure on touch. F12 or P saves the window as shown to a new numbered PNG;
 * --screenshot / --export-obj write the last frame shown, and the turning leaf's mesh in it, on the
 * way out. */
#ifndef PAGECURL_APP_WINDOW_H
#define PAGECURL_APP_WINDOW_H

#include "../mesh/ink.h"
#include "../book/book_stream.h"
#include "options.h"
#include "notebook.h"
#include "../book/page.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct SDL_Window SDL_Window;

#define APP_WINDOW_MAX_EXTENSIONS 8

typedef struct AppWindow {
    SDL_Window *window;
    bool sdl_started;
    const char *extensions[APP_WINDOW_MAX_EXTENSIONS];
    unsigned extension_count;
    /* PAGECURL_FAULT=acquire:N, a switch for tests only (submit:N and allocate:N are the GPU
     * context's): the Nth swapchain image acquire, and every one after it until the swapchain is
     * rebuilt, reports VK_ERROR_OUT_OF_DATE_KHR, as a compositor does at a resize. 0: none. */
    uint32_t fault_acquire;
    char fault_refused[160]; /* a malformed value: app_window_run refuses it (exit 2) */
} AppWindow;

/* False, with the reason in message, when no window can be had (no display, no SDL video).
 * Reads PAGECURL_FAULT. */
bool app_window_open(const AppOptions *opts, AppWindow *out, char *message, size_t size);
void app_window_close(AppWindow *win);

/* The window's size in pixels (not points: HiDPI-correct); 0 x 0 while minimised. */
VkExtent2D app_window_drawable_size(const AppWindow *win);

/* For GpuContextDesc.create_surface, with the AppWindow as user pointer. */
bool app_window_create_surface(void *user, VkInstance instance, VkSurfaceKHR *out);

/* Runs until quit, a stop signal (app/signals.h) or --frames frames, from the user's input or a
 * replayed trace, drawing ink into `ink`, saved to `notebook` as each stroke ends; writes the
 * --record trace however it ends (pointer positions clamped to the window, so it replays), and
 * --screenshot/--export-obj of the last frame shown unless it failed or was stopped. A replay
 * skips the idle stretches of its trace. Returns the exit status (2 for a malformed
 * PAGECURL_FAULT=acquire value, before anything is drawn). */
int app_window_run(AppWindow *win, const GpuContext *ctx, AppPage *page, AppBookStream *book,
                   const AppOptions *opts, const AppTrace *replay, MeshInk *ink,
                   AppNotebook *notebook);

#endif
