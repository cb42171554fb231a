/* Stage input: what the pointer or the script asks of the page, as a turn progress t and a grab
 * height g (mesh_curl_pose's arguments). Pure logic on plain numbers: SDL events are translated
 * into these calls by window.c, so the behaviour is testable without a window. */
#ifndef PAGECURL_APP_INPUT_H
#define PAGECURL_APP_INPUT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct AppTurn {
    float t, g;
} AppTurn;

/* The headless script: an eased turn from flat to fully turned over `frames` frames. */
AppTurn app_input_scripted(uint32_t frame, uint32_t frames, float grab);

/* Dragging with the pointer, in window-normalised coordinates (0..1, y down). */
typedef struct AppDrag {
    AppTurn turn;
    bool dragging;
    float press_x, press_t;
    float target; /* where a released page settles: 0 or 1 */
} AppDrag;

/* Full-width drags turn the page by this much progress per window width. */
#define APP_DRAG_GAIN 2.0f
/* Progress per second while a released page settles. */
#define APP_SETTLE_SPEED 2.5f

void app_drag_press(AppDrag *d, float x, float y);
void app_drag_move(AppDrag *d, float x);
void app_drag_release(AppDrag *d);
/* Advances the settling animation; returns true while the page still moves. */
bool app_drag_step(AppDrag *d, float seconds);

#endif
