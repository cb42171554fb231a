/* SPDX-License-Identifier: MIT */
#include "photo.h"

#include <math.h>
#include <stdbool.h>

typedef struct Col {
    float r, g, b;
} Col;

/* A well-mixed 32-bit hash: the scene's choices and the grain from one seed. */
static unsigned hash(unsigned x)
{
    x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
    return x;
}

/* A number in [0, 1) for choice `k` of scene `seed`. */
static float pick(unsigned seed, unsigned k)
{
    return (float)(hash(seed * 7919u + k) >> 8) / 16777216.0f;
}

static Col mix(Col a, Col b, float t)
{
    return (Col){a.r + t * (b.r - a.r), a.g + t * (b.g - a.g), a.b + t * (b.b - a.b)};
}

static float clamp01(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* How much of a pixel at signed distance `d` (pixels, inside negative) an edge covers. */
static float cover(float d)
{
    return clamp01(0.5f - d);
}

/* The height of ridge `k` above the horizon at x in [0, 1], in parts of the picture's height. */
static float ridge(unsigned seed, int k, float x)
{
    float y = 0.0f, amp = 0.06f + 0.05f * pick(seed, 10u + k);
    for (int o = 1; o <= 4; o++)
        y += amp / (float)o *
             sinf(6.2831853f * (x * (float)o * (1.0f + pick(seed, 20u + 4 * k + o)) +
                                pick(seed, 40u + 4 * k + o)));
    return y + amp * (1.2f - 0.35f * (float)k);
}

void photo_draw(unsigned seed, int w, int h, unsigned char *rgb, int stride)
{
    static const Col zeniths[] = {
        {0.16f, 0.33f, 0.62f}, {0.24f, 0.18f, 0.42f}, {0.10f, 0.42f, 0.70f}};
    static const Col horizons[] = {
        {0.78f, 0.86f, 0.92f}, {0.98f, 0.62f, 0.38f}, {0.95f, 0.90f, 0.72f}};
    int mood = (int)(pick(seed, 1) * 3.0f);
    Col zenith = zeniths[mood], glow = horizons[mood];
    float horizon = 0.55f + 0.15f * pick(seed, 2);
    float sun_x = 0.2f + 0.6f * pick(seed, 3), sun_y = horizon - 0.12f - 0.2f * pick(seed, 4);
    float sun_r = 0.035f * (float)h;
    bool water = pick(seed, 5) < 0.5f;
    Col land = water ? (Col){0.10f, 0.20f, 0.30f} : (Col){0.22f, 0.38f, 0.16f};
    Col pine = {0.05f, 0.09f, 0.07f};
    for (int j = 0; j < h; j++) {
        float v = ((float)j + 0.5f) / (float)h;
        for (int i = 0; i < w; i++) {
            float u = ((float)i + 0.5f) / (float)w;
            /* the sky, and the sun with its glow */
            Col c = mix(zenith, glow, clamp01(v / horizon) * clamp01(v / horizon));
            float dx = (u - sun_x) * (float)w, dy = (v - sun_y) * (float)h;
            float d = sqrtf(dx * dx + dy * dy);
            c = mix(c, (Col){1.0f, 0.95f, 0.80f}, 0.5f * expf(-d / (6.0f * sun_r)));
            c = mix(c, (Col){1.0f, 0.97f, 0.88f}, cover(d - sun_r));
            /* ridges, the far ones paler in the haze */
            for (int k = 0; k < 3; k++) {
                float top = horizon - ridge(seed, k, u);
                Col hill = mix(land, glow, 0.6f - 0.25f * (float)k);
                c = mix(c, hill, cover((top - v) * (float)h));
            }
            /* below the horizon: water mirroring the sky darkened, or a meadow */
            if (v > horizon) {
                float t = (v - horizon) / (1.0f - horizon);
                Col below = water ? mix(mix(glow, zenith, t), land, 0.45f)
                                  : mix(land, (Col){0.12f, 0.22f, 0.08f}, t);
                c = mix(c, below, cover((horizon - v) * (float)h));
            }
            /* pines on the left and right of the foreground */
            for (int k = 0; k < 5; k++) {
                float px = (k < 3 ? 0.04f + 0.09f * (float)k : 0.78f + 0.1f * (float)(k - 3)) +
                           0.03f * pick(seed, 60u + k);
                float base = horizon + 0.08f + 0.1f * pick(seed, 70u + k);
                float tall = 0.22f + 0.12f * pick(seed, 80u + k);
                float up = (base - v) / tall; /* 0 at the foot, 1 at the tip */
                float half = 0.05f * (1.0f - up) * (float)h;
                float inside = fabsf(u - px) * (float)w - half;
                if (up > -0.02f && up < 1.0f)
                    c = mix(c, pine, cover(inside) * cover((v - base) * (float)h));
            }
            /* film grain */
            float grain =
                ((float)(hash(seed ^ (unsigned)(j * w + i) * 2654435761u) & 255) - 127.5f) / 127.5f;
            unsigned char *p = &rgb[(long)j * stride + 3 * i];
            p[0] = (unsigned char)(clamp01(c.r + 0.012f * grain) * 255.0f + 0.5f);
            p[1] = (unsigned char)(clamp01(c.g + 0.012f * grain) * 255.0f + 0.5f);
            p[2] = (unsigned char)(clamp01(c.b + 0.012f * grain) * 255.0f + 0.5f);
        }
    }
}
