/* SPDX-License-Identifier: MIT */
#include "zoom.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* A flick slower than this (fractions of the view a second) has stopped. */
#define FLICK_STOP 0.002
/* The flick's velocity is the pointer's over the drag's last tenth of a second, if it still moved
 * in the last twentieth before it was let go. */
#define FLICK_WINDOW 0.1
#define FLICK_STILL  0.05
/* Samples closer in time than this say little of a speed (a burst of events at once); a flick
 * faster than FLICK_MAX views a second is taken at that. */
#define FLICK_SPAN 0.008
#define FLICK_MAX  8.0

static float scale_of(const AppZoomView *v)
{
    return v->scale > 0.0f ? v->scale : 1.0f;
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The pan along one axis for fitted pages a..b at `scale`: the pages cover 0..1 where they are
 * larger than the view, else they are centred. */
static float limit(float pan, float a, float b, float scale)
{
    if (!(b > a))
        return 0.0f;
    if (scale * (b - a) < 1.0f)
        return -scale * (0.5f * (a + b) - 0.5f);
    float lo = 0.5f - scale * (b - 0.5f), hi = -0.5f - scale * (a - 0.5f);
    return clampf(pan, lo, hi);
}

static AppZoomView kept(AppZoomView v, const AppZoomRect *fit)
{
    v.scale = clampf(scale_of(&v), APP_ZOOM_MIN, APP_ZOOM_MAX);
    if (fit) {
        v.x = limit(v.x, fit->x0, fit->x1, v.scale);
        v.y = limit(v.y, fit->y0, fit->y1, v.scale);
    }
    if (v.scale == 1.0f && fabsf(v.x) < 1e-6f && fabsf(v.y) < 1e-6f)
        v.x = v.y = 0.0f; /* the fitted view exactly: the same pixels as without zoom */
    return v;
}

void app_zoom_init(AppZoom *zoom)
{
    *zoom = (AppZoom){.set = {1.0f, 0.0f, 0.0f}};
}

static double smooth01(double x)
{
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return x * x * (3.0 - 2.0 * x);
}

AppZoomView app_zoom_at(const AppZoom *zoom, double time, const AppZoomRect *fit)
{
    if (zoom->hosted) {
        AppZoomView hosted = {.hosted = true};
        memcpy(hosted.host, zoom->host, sizeof hosted.host);
        return hosted;
    }
    AppZoomView v = zoom->set;
    double dt = time > zoom->since ? time - zoom->since : 0.0;
    if (zoom->easing) {
        /* the scale eases geometrically (each step looks alike), the pan with it */
        double s = smooth01(dt / APP_ZOOM_EASE);
        v.scale = (float)pow(scale_of(&zoom->set), 1.0 - s);
        v.x = (float)(zoom->set.x * (1.0 - s)), v.y = (float)(zoom->set.y * (1.0 - s));
        return kept(v, NULL); /* on its way to the centre: within the limits at both ends */
    }
    if (zoom->vx != 0.0f || zoom->vy != 0.0f) {
        /* once it has stopped (app_zoom_moving), the whole of its way: where it comes to rest
         * is then the same whenever the frame that shows it is drawn (a window's last frame, a
         * replay's), not short of it by what the slowest speed would still have moved */
        double coast = app_zoom_moving(zoom, time)
                           ? APP_ZOOM_FLICK_TAU * (1.0 - exp(-dt / APP_ZOOM_FLICK_TAU))
                           : APP_ZOOM_FLICK_TAU;
        v.x += (float)(zoom->vx * coast), v.y += (float)(zoom->vy * coast);
    }
    return kept(v, fit);
}

bool app_zoom_moving(const AppZoom *zoom, double time)
{
    double dt = time - zoom->since;
    if (zoom->easing)
        return dt < APP_ZOOM_EASE;
    double v = fmax(fabs(zoom->vx), fabs(zoom->vy));
    return v > FLICK_STOP && dt < APP_ZOOM_FLICK_TAU * log(v / FLICK_STOP);
}

bool app_zoom_enlarged(const AppZoomView *view)
{
    return scale_of(view) > 1.0f + 1e-4f;
}

/* The picture at `time` becomes the state, still: every change starts from what is shown. */
static void bake(AppZoom *zoom, double time, const AppZoomRect *fit)
{
    zoom->set = kept(app_zoom_at(zoom, time, fit), fit);
    zoom->since = time;
    zoom->vx = zoom->vy = 0.0f;
    zoom->easing = false;
}

void app_zoom_set(AppZoom *zoom, float scale, float x, float y, double time, const AppZoomRect *fit)
{
    bake(zoom, time, fit);
    AppZoomView v = zoom->set;
    float to = clampf(isfinite(scale) ? scale : 1.0f, APP_ZOOM_MIN, APP_ZOOM_MAX);
    float k = to / v.scale;
    /* (x, y) shows the fitted point u = 0.5 + (x - 0.5 - pan) / scale before and after */
    v.x = x - 0.5f - k * (x - 0.5f - v.x);
    v.y = y - 0.5f - k * (y - 0.5f - v.y);
    v.scale = to;
    zoom->set = kept(v, fit);
}

void app_zoom_by(AppZoom *zoom, float factor, float x, float y, double time, const AppZoomRect *fit)
{
    if (!(factor > 0.0f) || !isfinite(factor))
        return;
    AppZoomView now = app_zoom_at(zoom, time, fit);
    app_zoom_set(zoom, now.scale * factor, x, y, time, fit);
}

void app_zoom_pan(AppZoom *zoom, float dx, float dy, double time, const AppZoomRect *fit)
{
    bake(zoom, time, fit);
    if (isfinite(dx) && isfinite(dy))
        zoom->set.x += dx, zoom->set.y += dy;
    zoom->set = kept(zoom->set, fit);
}

void app_zoom_fit(AppZoom *zoom, double time)
{
    app_zoom_init(zoom);
    zoom->since = time;
}

void app_zoom_toggle(AppZoom *zoom, float x, float y, double time, const AppZoomRect *fit)
{
    AppZoomView now = app_zoom_at(zoom, time, fit);
    if (app_zoom_enlarged(&now))
        app_zoom_fit(zoom, time);
    else
        app_zoom_set(zoom, APP_ZOOM_TOGGLE, x, y, time, fit);
}

void app_zoom_ease_fit(AppZoom *zoom, double time, const AppZoomRect *fit)
{
    bake(zoom, time, fit);
    zoom->panning = false;
    zoom->easing = app_zoom_enlarged(&zoom->set) || zoom->set.x != 0.0f || zoom->set.y != 0.0f;
}

static void sample(AppZoom *zoom, float x, float y, double time)
{
    int k = zoom->sample_next;
    zoom->sample_t[k] = time, zoom->sample_x[k] = x, zoom->sample_y[k] = y;
    zoom->sample_next = (k + 1) % APP_ZOOM_SAMPLES;
    if (zoom->sample_count < APP_ZOOM_SAMPLES)
        zoom->sample_count++;
}

void app_zoom_drag_begin(AppZoom *zoom, float x, float y, double time, const AppZoomRect *fit)
{
    bake(zoom, time, fit); /* a press stops a coasting flick */
    zoom->panning = true;
    zoom->px = x, zoom->py = y;
    zoom->sample_count = zoom->sample_next = 0;
    sample(zoom, x, y, time);
}

void app_zoom_drag_move(AppZoom *zoom, float x, float y, double time, const AppZoomRect *fit)
{
    if (!zoom->panning)
        return;
    float dx = x - zoom->px, dy = y - zoom->py;
    app_zoom_pan(zoom, dx, dy, time, fit);
    zoom->px = x, zoom->py = y;
    sample(zoom, x, y, time);
}

void app_zoom_drag_end(AppZoom *zoom, double time, const AppZoomRect *fit)
{
    if (!zoom->panning)
        return;
    bake(zoom, time, fit);
    zoom->panning = false;
    if (zoom->sample_count < 2)
        return;
    int last = (zoom->sample_next + APP_ZOOM_SAMPLES - 1) % APP_ZOOM_SAMPLES, first = last;
    for (int i = 1; i < zoom->sample_count; i++) {
        int k = (last + APP_ZOOM_SAMPLES - i) % APP_ZOOM_SAMPLES;
        if (zoom->sample_t[last] - zoom->sample_t[k] > FLICK_WINDOW)
            break;
        first = k;
    }
    double span = zoom->sample_t[last] - zoom->sample_t[first];
    if (first == last || span < FLICK_SPAN || time - zoom->sample_t[last] > FLICK_STILL)
        return; /* held still before letting go, or too brief a motion to measure: no flick */
    double vx = (zoom->sample_x[last] - zoom->sample_x[first]) / span,
           vy = (zoom->sample_y[last] - zoom->sample_y[first]) / span, v = hypot(vx, vy);
    double k = v > FLICK_MAX ? FLICK_MAX / v : 1.0;
    zoom->vx = (float)(vx * k), zoom->vy = (float)(vy * k);
}

void app_zoom_apply(const AppZoomView *view, float u, float v, float *x, float *y)
{
    float s = scale_of(view);
    *x = 0.5f + s * (u - 0.5f) + view->x;
    *y = 0.5f + s * (v - 0.5f) + view->y;
}

void app_zoom_unapply(const AppZoomView *view, float x, float y, float *u, float *v)
{
    float s = scale_of(view);
    *u = 0.5f + (x - 0.5f - view->x) / s;
    *v = 0.5f + (y - 0.5f - view->y) / s;
}
