/* SPDX-License-Identifier: MIT */
#include "x11.h"
#include "say.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef PAGECURL_HAVE_X11
#include <SDL_syswm.h>
#include <X11/Xlib.h>

/* Xlib's handlers are handed no pointer of the caller's, and are the process's (not a display's):
 * what they call is file-static, as app/signals.c's flags are (the one kind of mutable global the
 * project allows). Set by the run's thread, read by the handlers on that same thread. */
static AppX11Lost on_lost;
static void *on_lost_user;
static int ended = -1; /* the run's status once it has ended and said so */
static int losing;     /* a handler is under way: a second error is not said again */

/* Does not return: Xlib's IO error handler may not, and a protocol error on a window that is
 * gone would come again with every request. */
static void lost(const char *why)
{
    if (ended < 0 && !losing++) {
        if (on_lost)
            on_lost(on_lost_user, why);
        else
            app_say(stderr, "the window is gone (%s)", why);
    }
    fflush(NULL); /* what the run said, on its way: exit() is not called */
    _exit(ended >= 0 ? ended : 1);
}

static int io_error(Display *display)
{
    char why[160];
    const char *name = DisplayString(display);
    snprintf(why, sizeof why, "its connection to the X display %s was lost",
             name && *name ? name : "");
    lost(why);
    return 0;
}

static int protocol_error(Display *display, XErrorEvent *e)
{
    char text[96] = "";
    /* the error's name from Xlib's own tables: no request to the server */
    XGetErrorText(display, e->error_code, text, sizeof text);
    char why[160];
    snprintf(why, sizeof why, "the X server refused a request for it: %s",
             text[0] ? text : "an X error");
    lost(why);
    return 0;
}

void app_x11_watch(const char *driver)
{
    if (!driver || strcmp(driver, "x11") != 0)
        return;
    /* SDL loads the same libX11 (libX11.so.6) at run time: these are its handlers. SDL's own
     * handler (which only restores a changed display mode, and then calls Xlib's) is replaced;
     * where SDL expects an error it sets a handler of its own for the call and puts this one
     * back. */
    XSetIOErrorHandler(io_error);
    XSetErrorHandler(protocol_error);
}

void app_x11_input_times(const char *driver)
{
    if (driver && strcmp(driver, "x11") == 0)
        SDL_EventState(SDL_SYSWMEVENT, SDL_ENABLE);
}

/* Past this many milliseconds an X time is not taken for this machine's clock's. */
#define X11_AGE_MOST 60000

bool app_x11_input_time(const SDL_Event *e, uint32_t *ms, int64_t *age)
{
    *age = -1;
    if (e->type != SDL_SYSWMEVENT || !e->syswm.msg || e->syswm.msg->subsystem != SDL_SYSWM_X11)
        return false;
    const XEvent *x = &e->syswm.msg->msg.x11.event;
    switch (x->type) {
    case MotionNotify:
        *ms = (uint32_t)x->xmotion.time;
        break;
    case ButtonPress:
    case ButtonRelease:
        *ms = (uint32_t)x->xbutton.time;
        break;
    case KeyPress:
    case KeyRelease:
        *ms = (uint32_t)x->xkey.time;
        break;
    default:
        return false;
    }
    /* CurrentTime: an event another client sent (XSendEvent, as xdotool's --window does) without
     * a time of its own; taken for X's clock it would stamp every such event alike */
    if (*ms == 0)
        return false;
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) == 0) {
        /* X's time is 32 bits of milliseconds: the difference modulo 2^32 */
        uint32_t mono = (uint32_t)((uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u);
        uint32_t ago = mono - *ms;
        if (ago <= X11_AGE_MOST)
            *age = ago;
    }
    return true;
}

/* An 8-bit channel `value` where `mask` (one run of bits) puts it in a pixel. */
static unsigned long channel(uint8_t value, unsigned long mask)
{
    if (!mask)
        return 0;
    int shift = __builtin_ctzl(mask);
    unsigned long most = mask >> shift;
    return ((value * most + 127) / 255) << shift;
}

void app_x11_background(SDL_Window *window, uint8_t r, uint8_t g, uint8_t b)
{
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!window || !SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11)
        return;
    Display *display = info.info.x11.display;
    Window xw = info.info.x11.window;
    XWindowAttributes at;
    if (!XGetWindowAttributes(display, xw, &at))
        return;
    /* The colour's pixel value: from the visual's masks where its pixels hold the channels
     * (TrueColor; DirectColor, which SDL picks where the server offers it, through the identity
     * ramps SDL stores in the window's colormap, which has no cell to allocate), else a cell of
     * the window's colormap. */
    const Visual *v = at.visual;
    unsigned long pixel;
    if (v->class == TrueColor || v->class == DirectColor) {
        pixel = channel(r, v->red_mask) | channel(g, v->green_mask) | channel(b, v->blue_mask);
    } else {
        XColor c = {.red = (unsigned short)(r * 257),
                    .green = (unsigned short)(g * 257),
                    .blue = (unsigned short)(b * 257),
                    .flags = DoRed | DoGreen | DoBlue};
        if (!XAllocColor(display, at.colormap, &c))
            return;
        pixel = c.pixel;
    }
    XSetWindowBackground(display, xw, pixel);
    XClearWindow(display, xw);
    XFlush(display);
}

void app_x11_check(SDL_Window *window)
{
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!window || !SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11)
        return;
    XWindowAttributes at; /* a lost connection, or BadWindow, goes to the handlers */
    XGetWindowAttributes(info.info.x11.display, info.info.x11.window, &at);
}

void app_x11_on_lost(AppX11Lost lost_fn, void *user)
{
    on_lost = lost_fn;
    on_lost_user = user;
}

void app_x11_ended(int status)
{
    ended = status;
}
#else
void app_x11_watch(const char *driver)
{
    (void)driver;
}

void app_x11_input_times(const char *driver)
{
    (void)driver;
}

bool app_x11_input_time(const SDL_Event *e, uint32_t *ms, int64_t *age)
{
    (void)e, (void)ms;
    *age = -1;
    return false;
}

void app_x11_background(SDL_Window *window, uint8_t r, uint8_t g, uint8_t b)
{
    (void)window, (void)r, (void)g, (void)b;
}

void app_x11_check(SDL_Window *window)
{
    (void)window;
}
void app_x11_on_lost(AppX11Lost lost_fn, void *user)
{
    (void)lost_fn, (void)user;
}

void app_x11_ended(int status)
{
    (void)status;
}
#endif
