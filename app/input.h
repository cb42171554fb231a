/* SPDX-License-Identifier: MIT */
/* Stage input for headless runs: the scripted turn, as a turn progress t and a grab height g
 * (mesh_curl_pose's arguments). The pointer's turns are mesh/flip.c's, fed by window.c. */
#ifndef PAGECURL_APP_INPUT_H
#define PAGECURL_APP_INPUT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct AppTurn {
    float t, g;
} AppTurn;

/* The headless script: an eased turn from flat to fully turned over `frames` frames. */
AppTurn app_input_scripted(uint32_t frame, uint32_t frames, float grab);

#endif
