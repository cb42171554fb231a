/* SPDX-License-Identifier: MIT */
#include "input.h"

#include <math.h>

AppTurn app_input_scripted(uint32_t frame, uint32_t frames, float grab)
{
    float s = frames > 1 ? (float)frame / (float)(frames - 1) : 1.0f;
    /* ease in and out, as a hand turns a page */
    return (AppTurn){0.5f - 0.5f * cosf(3.14159265f * s), grab};
}
