#include "hud.h"

#include <stdio.h>

/* stb_easy_font is a header of static functions; this file uses one of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

/* Exponential smoothing of the frame time: steady enough to read, quick to follow a change. */
#define HUD_SMOOTHING 0.1

void app_hud_frame(AppHud *hud, double ms)
{
    hud->frame_ms = hud->frame_ms > 0.0 ? hud->frame_ms + HUD_SMOOTHING * (ms - hud->frame_ms) : ms;
}

void app_hud_stages(AppHud *hud, const double *ms, const char *const *names, uint32_t count)
{
    hud->stage_count = count < GPU_TIMER_MAX ? count : GPU_TIMER_MAX;
    for (uint32_t i = 0; i < hud->stage_count; i++) {
        hud->stage_ms[i] = ms[i];
        hud->stage_names[i] = names[i];
    }
}

uint32_t app_hud_quads(const AppHud *hud, void *vertices, size_t bytes)
{
    char text[1024];
    size_t at = (size_t)snprintf(text, sizeof text, "frame %.2f ms (%.0f fps)\n", hud->frame_ms,
                                 hud->frame_ms > 0.0 ? 1000.0 / hud->frame_ms : 0.0);
    for (uint32_t i = 0; i < hud->stage_count && at < sizeof text; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "%-15s %8.4f ms\n",
                               hud->stage_names[i], hud->stage_ms[i]);
    unsigned char colour[4] = {255, 236, 140, 255};
    int size = bytes > (size_t)INT32_MAX ? INT32_MAX : (int)bytes;
    return (uint32_t)stb_easy_font_print(0.0f, 0.0f, text, colour, vertices, size);
}
