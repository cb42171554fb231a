/* SPDX-License-Identifier: MIT */
/* The run's settings, as the command line gives them (app/cli.c parses them into this). */
#ifndef PAGECURL_APP_OPTIONS_H
#define PAGECURL_APP_OPTIONS_H

#include "../book/layout.h"
#include "../gpu/paths.h"
#include "../gpu/quality.h"
#include "fault.h"

#include <stdbool.h>
#include <stdint.h>

/* Most sizes one --grids sweep takes. */
#define APP_MAX_GRIDS 16

/* --present-mode's values, in its order. */
typedef enum AppPresentMode {
    APP_PRESENT_AUTO = 0, /* shm for a CPU rasteriser on X, else fifo */
    APP_PRESENT_FIFO,     /* vsync */
    APP_PRESENT_MAILBOX,
    APP_PRESENT_IMMEDIATE,
    APP_PRESENT_SHM, /* through X's shared memory, off the window's thread (app/shm_present.h) */
} AppPresentMode;

typedef struct AppOptions {
    bool headless, list_devices, validation;
    bool gpu_assisted;      /* --validation=gpu-assisted */
    bool bench;             /* --bench: the benchmark (implies --headless) */
    bool bench_stages;      /* --bench-stages: a timestamp after each stage of the chain */
    bool cpu_deform;        /* --deform cpu: the CPU curls the page, uploaded; default gpu */
    GpuNormalsPath normals; /* --normals, default: the fastest measured */
    GpuPackPath pack;       /* --pack, default gpu */
    GpuStaging staging;     /* --staging, default auto */
    uint32_t msaa;          /* --msaa 1|4: samples at most, 0 = the tier's (high 4, low 1) */
    GpuQuality quality;     /* --quality low|high|auto, default auto (by the device) */
    uint32_t nx, ny;        /* --grid, default 64x90 */
    uint32_t width, height; /* --size, default 1280x720 */
    bool has_curl;          /* --curl given: a fixed pose, not the scripted turn */
    float curl, grab;       /* --curl T, --grab G, both in [0, 1] */
    bool backward;          /* --backward: the headless turn goes back, right to left */
    bool reduced_motion;    /* --reduced-motion: turns cross-fade, nothing moves (mesh/flip.h) */
    BookBinding binding;    /* --ltr, --rtl; default the book's own direction */
    float font_size;        /* --font-size PT: a reflowable book's text; 0 = the default */
    bool hard_cover;        /* --cover hard: the first and last leaves are boards (else paper) */
    BookLayoutKind layout;  /* --layout, default auto */
    bool fit_width;         /* --fit width: the page's width fills the view, its head at the top */
    float radius;           /* --radius R: the roll radius in page widths; 0 = the pose's own */
    float show_through;     /* --show-through F: 0 .. 1 (GPU_SHOW_THROUGH_PAPER by default) */
    float zoom;             /* --zoom Z: 1 .. 8; 0 = not given (the fitted view) */
    bool has_zoom_at;       /* --zoom-at X,Y given: the output pixel that stays put */
    uint32_t zoom_at[2];
    uint32_t frames;        /* --frames N; 0 = the mode's default */
    const char *screenshot; /* --screenshot FILE.png|.jpg: the last frame shown or rendered */
    const char *export_obj; /* --export-obj FILE.obj */
    const char *frames_out; /* --frames-out DIR: every headless frame as DIR/frame-NNNN.png */
    int device;             /* --device INDEX, -1 = automatic */
    uint32_t grids[APP_MAX_GRIDS][2]; /* --grids: the sweep; --grid alone gives one entry */
    uint32_t grid_count;
    uint32_t warmup;        /* --warmup N (benchmark), default 20 */
    uint32_t repeat;        /* --repeat R (benchmark): each kernel R times a frame, default 1 */
    const char *json, *csv; /* --json FILE, --csv FILE (benchmark) */
    const char *record;     /* --record FILE: the window's input, as a trace */
    const char *replay;     /* --replay FILE: a trace played back, window or headless */
    const char *notebook;   /* --notebook FILE: the ink, loaded at start, saved as it is made */
    bool no_remember;       /* --no-remember: the window neither reads nor keeps the place */
    const char *book;       /* --book PATH: a folder of images or a PDF; NULL: the built-in book */
    uint32_t page;          /* --page: open at the spread holding page N; 0: the first */
    const char *page_text;  /* --page as given (a label or a number), read once the book opens */
    const char *find;       /* --find TEXT: open at its first match, highlighted */
    const char *list_links; /* --list-links PAGE: its links printed (a label or a number), then
                               exit */
    const char *text_page;  /* --text PAGE: print the page's text (a number or a label), no more */
    AppPresentMode present_mode; /* --present-mode, default auto */
    const char *window_only;     /* the first flag given that only a window has a use for, or NULL:
                                    refused when no window can open */
    const char *headless_only;   /* the first flag given that only a headless run has a use for,
                                    in a run not asked to be headless, or NULL: refused where a
                                    window opens (app_cli_window_refusal) */
    AppFaults faults; /* not the command line's: the environment's PAGECURL_FAULT (app/main.c) */
    int argc;         /* the command line, for the benchmark's record of itself */
    char **argv;
} AppOptions;

/* --radius's range, in page widths: from a crease to a loose roll (pagecurl_book_set_hold_radius
 * takes the same). */
#define APP_RADIUS_MIN 0.005f
#define APP_RADIUS_MAX 0.5f

/* The most --repeat a benchmark frame may ask for. */
#define APP_BENCH_MAX_REPEAT 1000

/* Frames a headless run plays when --frames is not given. */
#define APP_SCRIPTED_FRAMES 120
/* The benchmark's defaults. */
#define APP_BENCH_FRAMES 300
#define APP_BENCH_WARMUP 20

#endif
