/* SPDX-License-Identifier: MIT */
/* A window's frames shown through the X server's shared memory (MIT-SHM), on a thread of their
 * own: the window's presentation where the device is a CPU rasteriser on an X display.
 *
 * Why: lavapipe's own presentation (Mesa's software WSI) waits in vkQueuePresentKHR for the
 * frame's rasterisation, then writes its pixels down the X connection (3.7 MB a frame at
 * 1280x720) and waits for the server to read them, all on the thread that presents: the window's,
 * which meanwhile records and submits nothing. A drag's frame, 4-5 ms of rasterising, took 9 ms
 * in the window, 8.9 of them in the present call. Here the frame's commands end with a copy of
 * the image into a mapped buffer (app/swapchain.h, own images); this thread waits for the frame's
 * fence, copies the pixels into a segment the server shares and has it put them on the window,
 * while the window's thread records and submits the next frame.
 *
 * Owns its XCB connection (its own, so that no Xlib handler of the window's connection runs on
 * this thread: its errors come back as replies), the shared segment and the thread. Built where
 * xcb-shm is found (PAGECURL_HAVE_XCB_SHM); elsewhere app_shm_present_open says it cannot. */
#ifndef PAGECURL_APP_SHM_PRESENT_H
#define PAGECURL_APP_SHM_PRESENT_H

#include "vulkan.h"

#include <SDL.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct AppShmPresent AppShmPresent;

/* The presenter for `win` (an SDL window on the x11 driver) on `dev`, frames of `slots` slots.
 * NULL where it cannot present there (another video driver, a server without MIT-SHM or on another
 * machine, a visual other than 24-bit BGRX): `why` says why, and the window presents through its
 * swapchain instead. */
AppShmPresent *app_shm_present_open(SDL_Window *win, VkDevice dev, uint32_t slots, char *why,
                                    size_t size);
/* Waits for every frame queued, then lets everything go. NULL is nothing. */
void app_shm_present_close(AppShmPresent *p);
/* Slot `slot`'s frame, `extent` of 32-bit BGRX pixels at `pixels` (rows tight) once `done`
 * signals, put on the window after the frames queued before it. The pixels and the fence are read
 * until app_shm_present_wait(slot) returns. False (the reason in message) where the presenter has
 * failed: the server refused a frame or the connection broke. */
bool app_shm_present_queue(AppShmPresent *p, uint32_t slot, VkFence done, VkExtent2D extent,
                           const void *pixels, char *message, size_t size);
/* Waits until slot `slot`'s frame is on the window (or given up): its fence and pixels are the
 * caller's again. UINT32_MAX waits for every slot. False (the reason in message) as for queue. */
bool app_shm_present_wait(AppShmPresent *p, uint32_t slot, char *message, size_t size);
/* The SDL time (SDL_GetTicks64) at which slot `slot`'s last frame was on the window, once waited
 * for; 0 for none. */
uint64_t app_shm_present_shown_at(AppShmPresent *p, uint32_t slot);

#endif
