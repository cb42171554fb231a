/* SPDX-License-Identifier: MIT */
#include "shm_present.h"

#include <stdio.h>
#include <string.h>

#ifndef PAGECURL_HAVE_XCB_SHM

AppShmPresent *app_shm_present_open(SDL_Window *win, VkDevice dev, uint32_t slots, char *why,
                                    size_t size)
{
    (void)win, (void)dev, (void)slots;
    snprintf(why, size, "built without xcb-shm");
    return NULL;
}
void app_shm_present_close(AppShmPresent *p)
{
    (void)p;
}
bool app_shm_present_queue(AppShmPresent *p, uint32_t slot, VkFence done, VkExtent2D extent,
                           const void *pixels, char *message, size_t size)
{
    (void)p, (void)slot, (void)done, (void)extent, (void)pixels;
    snprintf(message, size, "built without xcb-shm");
    return false;
}
bool app_shm_present_wait(AppShmPresent *p, uint32_t slot, char *message, size_t size)
{
    (void)p, (void)slot, (void)message, (void)size;
    return true;
}
uint64_t app_shm_present_shown_at(AppShmPresent *p, uint32_t slot)
{
    (void)p, (void)slot;
    return 0;
}

#else

#include <SDL_syswm.h>
#include <X11/Xlib.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#define SHM_MAX_SLOTS 8

typedef struct ShmJob {
    VkFence done;
    VkExtent2D extent;
    const void *pixels;
} ShmJob;

struct AppShmPresent {
    VkDevice dev;
    xcb_connection_t *conn;
    xcb_window_t window;
    xcb_gcontext_t gc;
    uint8_t depth;
    /* the shared segment, as large as the largest frame yet */
    xcb_shm_seg_t seg;
    int shmid;
    void *addr;
    size_t bytes;

    SDL_Thread *thread;
    SDL_mutex *lock;
    SDL_cond *changed;
    uint32_t slots;
    /* Under `lock`: the frames queued in order (ring of slot numbers), which slots the thread
     * still reads, the first failure, whether to stop. */
    ShmJob jobs[SHM_MAX_SLOTS];
    uint32_t order[SHM_MAX_SLOTS], head, queued;
    bool busy[SHM_MAX_SLOTS];
    uint64_t shown_ms[SHM_MAX_SLOTS];
    bool stop;
    char failure[160];
};

static void segment_release(AppShmPresent *p)
{
    if (p->addr) {
        xcb_shm_detach(p->conn, p->seg);
        xcb_flush(p->conn);
        shmdt(p->addr);
    }
    p->addr = NULL;
    p->bytes = 0;
}

/* A segment of at least `bytes`, attached by the server. On Linux a segment marked for removal
 * can still be attached by its id until its last user detaches: marked at once, so that no crash
 * leaves it behind. */
static bool segment_make(AppShmPresent *p, size_t bytes, char *why, size_t size)
{
    segment_release(p);
    p->shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    if (p->shmid < 0) {
        snprintf(why, size, "no shared memory segment of %zu bytes", bytes);
        return false;
    }
    void *addr = shmat(p->shmid, NULL, 0);
    if (addr == (void *)-1) {
        shmctl(p->shmid, IPC_RMID, NULL);
        snprintf(why, size, "the shared memory segment could not be attached");
        return false;
    }
    p->seg = xcb_generate_id(p->conn);
    xcb_generic_error_t *e =
        xcb_request_check(p->conn, xcb_shm_attach_checked(p->conn, p->seg, (uint32_t)p->shmid, 0));
    shmctl(p->shmid, IPC_RMID, NULL);
    if (e) {
        free(e);
        shmdt(addr);
        snprintf(why, size,
                 "the X server cannot share memory with this process (another machine?)");
        return false;
    }
    p->addr = addr;
    p->bytes = bytes;
    return true;
}

/* One frame onto the window: its pixels into the segment, put by the server, waited for (the
 * request checked: the server has read the segment when its reply comes). */
static bool put(AppShmPresent *p, const ShmJob *job, char *why, size_t size)
{
    size_t bytes = (size_t)job->extent.width * job->extent.height * 4;
    if (bytes > p->bytes && !segment_make(p, bytes, why, size))
        return false;
    memcpy(p->addr, job->pixels, bytes);
    uint16_t w = (uint16_t)job->extent.width, h = (uint16_t)job->extent.height;
    xcb_void_cookie_t c =
        xcb_shm_put_image_checked(p->conn, p->window, p->gc, w, h, 0, 0, w, h, 0, 0, p->depth,
                                  XCB_IMAGE_FORMAT_Z_PIXMAP, 0, p->seg, 0);
    xcb_generic_error_t *e = xcb_request_check(p->conn, c);
    if (e) {
        snprintf(why, size, "the X server refused a frame (X error %u)", e->error_code);
        free(e);
        return false;
    }
    if (xcb_connection_has_error(p->conn)) {
        snprintf(why, size, "the connection to the X display was lost");
        return false;
    }
    return true;
}

static int run(void *arg)
{
    AppShmPresent *p = arg;
    SDL_LockMutex(p->lock);
    for (;;) {
        while (!p->queued && !p->stop)
            SDL_CondWait(p->changed, p->lock);
        if (!p->queued)
            break; /* stopped with nothing left */
        uint32_t slot = p->order[p->head];
        ShmJob job = p->jobs[slot];
        bool failed = p->failure[0] != 0;
        SDL_UnlockMutex(p->lock);
        char why[sizeof p->failure] = "";
        bool ok = true; /* after a failure the frames left are let go unshown */
        if (!failed) {
            /* vkWaitForFences needs no external synchronisation: the window's thread may wait for
             * the same fence, and resets it only after app_shm_present_wait */
            VkResult r = vkWaitForFences(p->dev, 1, &job.done, VK_TRUE, UINT64_MAX);
            if (r != VK_SUCCESS)
                snprintf(why, sizeof why, "waiting for a frame failed (VkResult %d)", (int)r);
            ok = r == VK_SUCCESS && put(p, &job, why, sizeof why);
        }
        SDL_LockMutex(p->lock);
        if (!ok && !p->failure[0])
            snprintf(p->failure, sizeof p->failure, "%s", why);
        p->shown_ms[slot] = ok && !failed ? SDL_GetTicks64() : 0;
        p->head = (p->head + 1) % p->slots;
        p->queued--;
        p->busy[slot] = false;
        SDL_CondBroadcast(p->changed);
    }
    SDL_UnlockMutex(p->lock);
    return 0;
}

/* The window's visual, if the copy's bytes are its pixels: 24 or 32 bits deep, true or direct
 * colour (SDL asks for direct colour where there is one, for its gamma ramps; a swapchain's
 * images are put in the same bytes) with red, green and blue in the bytes 2, 1, 0 of a 32-bit
 * pixel, least significant byte first (as VK_FORMAT_B8G8R8A8 lies in memory). */
static bool visual_fits(xcb_connection_t *conn, xcb_window_t window, uint8_t *depth)
{
    const xcb_setup_t *setup = xcb_get_setup(conn);
    if (setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST)
        return false;
    xcb_get_geometry_reply_t *g =
        xcb_get_geometry_reply(conn, xcb_get_geometry(conn, window), NULL);
    xcb_get_window_attributes_reply_t *a =
        xcb_get_window_attributes_reply(conn, xcb_get_window_attributes(conn, window), NULL);
    bool fits = false;
    if (g && a && (g->depth == 24 || g->depth == 32)) {
        *depth = g->depth;
        bool bpp32 = false;
        for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem;
             xcb_format_next(&f))
            bpp32 |= f.data->depth == g->depth && f.data->bits_per_pixel == 32;
        for (xcb_screen_iterator_t s = xcb_setup_roots_iterator(setup); bpp32 && s.rem;
             xcb_screen_next(&s))
            for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(s.data); d.rem;
                 xcb_depth_next(&d))
                for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem;
                     xcb_visualtype_next(&v))
                    if (v.data->visual_id == a->visual)
                        fits = (v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR ||
                                v.data->_class == XCB_VISUAL_CLASS_DIRECT_COLOR) &&
                               v.data->red_mask == 0xff0000 && v.data->green_mask == 0xff00 &&
                               v.data->blue_mask == 0xff;
    }
    free(g);
    free(a);
    return fits;
}

AppShmPresent *app_shm_present_open(SDL_Window *win, VkDevice dev, uint32_t slots, char *why,
                                    size_t size)
{
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(win, &info) || info.subsystem != SDL_SYSWM_X11) {
        snprintf(why, size, "the window is not on an X display");
        return NULL;
    }
    if (slots == 0 || slots > SHM_MAX_SLOTS) {
        snprintf(why, size, "%u frames in flight", slots);
        return NULL;
    }
    AppShmPresent *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    p->dev = dev;
    p->slots = slots;
    p->window = (xcb_window_t)info.info.x11.window;
    p->conn = xcb_connect(DisplayString(info.info.x11.display), NULL);
    bool ok = !xcb_connection_has_error(p->conn);
    if (!ok)
        snprintf(why, size, "a second connection to the X display was refused");
    xcb_shm_query_version_reply_t *v =
        ok ? xcb_shm_query_version_reply(p->conn, xcb_shm_query_version(p->conn), NULL) : NULL;
    if (ok && !v)
        snprintf(why, size, "the X server has no MIT-SHM"), ok = false;
    free(v);
    if (ok && !visual_fits(p->conn, p->window, &p->depth))
        snprintf(why, size, "the window's visual is not 24-bit BGRX"), ok = false;
    if (ok) {
        p->gc = xcb_generate_id(p->conn);
        xcb_generic_error_t *e =
            xcb_request_check(p->conn, xcb_create_gc_checked(p->conn, p->gc, p->window, 0, NULL));
        if (e)
            snprintf(why, size, "no graphics context on the window (X error %u)", e->error_code),
                ok = false;
        free(e);
    }
    /* a first segment, so that a server that cannot share memory is found now */
    ok = ok && segment_make(p, 4096, why, size);
    ok = ok && (p->lock = SDL_CreateMutex()) && (p->changed = SDL_CreateCond());
    ok = ok && (p->thread = SDL_CreateThread(run, "pagecurl-shm", p));
    if (!ok) {
        if (!why[0])
            snprintf(why, size, "%s", SDL_GetError());
        app_shm_present_close(p);
        return NULL;
    }
    return p;
}

void app_shm_present_close(AppShmPresent *p)
{
    if (!p)
        return;
    if (p->thread) {
        SDL_LockMutex(p->lock);
        p->stop = true;
        SDL_CondBroadcast(p->changed);
        SDL_UnlockMutex(p->lock);
        SDL_WaitThread(p->thread, NULL);
    }
    if (p->changed)
        SDL_DestroyCond(p->changed);
    if (p->lock)
        SDL_DestroyMutex(p->lock);
    if (p->conn) {
        segment_release(p);
        if (p->gc)
            xcb_free_gc(p->conn, p->gc);
        xcb_disconnect(p->conn);
    }
    free(p);
}

/* Under the lock: false with the failure in message. */
static bool failed(const AppShmPresent *p, char *message, size_t size)
{
    if (!p->failure[0])
        return false;
    snprintf(message, size, "showing a frame: %s", p->failure);
    return true;
}

bool app_shm_present_queue(AppShmPresent *p, uint32_t slot, VkFence done, VkExtent2D extent,
                           const void *pixels, char *message, size_t size)
{
    SDL_LockMutex(p->lock);
    /* the caller waited for the slot before drawing into it: it is free, and so is a place */
    bool ok = false;
    if (failed(p, message, size))
        ;
    else if (slot >= p->slots || p->busy[slot] || p->queued >= p->slots)
        snprintf(message, size, "showing a frame: slot %u queued while it is shown", slot);
    else {
        p->jobs[slot] = (ShmJob){done, extent, pixels};
        p->order[(p->head + p->queued) % p->slots] = slot;
        p->queued++;
        p->busy[slot] = true;
        SDL_CondBroadcast(p->changed);
        ok = true;
    }
    SDL_UnlockMutex(p->lock);
    return ok;
}

bool app_shm_present_wait(AppShmPresent *p, uint32_t slot, char *message, size_t size)
{
    SDL_LockMutex(p->lock);
    if (slot == UINT32_MAX)
        while (p->queued)
            SDL_CondWait(p->changed, p->lock);
    else
        while (slot < p->slots && p->busy[slot])
            SDL_CondWait(p->changed, p->lock);
    bool ok = !failed(p, message, size);
    SDL_UnlockMutex(p->lock);
    return ok;
}

uint64_t app_shm_present_shown_at(AppShmPresent *p, uint32_t slot)
{
    SDL_LockMutex(p->lock);
    uint64_t ms = slot < p->slots ? p->shown_ms[slot] : 0;
    SDL_UnlockMutex(p->lock);
    return ms;
}

#endif
