/* The window's heads-up display: frame time and each GPU stage's time of the frame, as text
 * (stb_easy_font's quads) for the overlay to draw. Owns only numbers and the text it makes. */
#ifndef PAGECURL_APP_HUD_H
#define PAGECURL_APP_HUD_H

#include "../gpu/timer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct AppHud {
    bool shown;
    double frame_ms; /* smoothed */
    uint32_t stage_count;
    double stage_ms[GPU_TIMER_MAX];
    const char *stage_names[GPU_TIMER_MAX];
} AppHud;

/* One more frame took `ms` of wall time. */
void app_hud_frame(AppHud *hud, double ms);
/* The GPU stage times of a finished frame (gpu_timer_read's output). */
void app_hud_stages(AppHud *hud, const double *ms, const char *const *names, uint32_t count);
/* The HUD's text as overlay quads (PC_OVERLAY_VERTEX_BYTES a vertex); returns how many. */
uint32_t app_hud_quads(const AppHud *hud, void *vertices, size_t bytes);

#endif
