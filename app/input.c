#include "input.h"

#include <math.h>

static float clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

AppTurn app_input_scripted(uint32_t frame, uint32_t frames, float grab)
{
    float s = frames > 1 ? (float)frame / (float)(frames - 1) : 1.0f;
    /* ease in and out, as a hand turns a page */
    return (AppTurn){0.5f - 0.5f * cosf(3.14159265f * s), grab};
}

void app_drag_press(AppDrag *d, float x, float y)
{
    d->dragging = true;
    d->press_x = x;
    d->press_t = d->turn.t;
    d->turn.g = clamp01(1.0f - y); /* window y grows downwards, page height upwards */
}

void app_drag_move(AppDrag *d, float x)
{
    if (d->dragging)
        d->turn.t = clamp01(d->press_t + (d->press_x - x) * APP_DRAG_GAIN);
}

void app_drag_release(AppDrag *d)
{
    if (!d->dragging)
        return;
    d->dragging = false;
    d->target = d->turn.t >= 0.5f ? 1.0f : 0.0f;
}

bool app_drag_step(AppDrag *d, float seconds)
{
    if (d->dragging || d->turn.t == d->target)
        return false;
    float step = APP_SETTLE_SPEED * seconds;
    if (fabsf(d->target - d->turn.t) <= step)
        d->turn.t = d->target;
    else
        d->turn.t += d->target > d->turn.t ? step : -step;
    return true;
}
