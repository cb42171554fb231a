/* SPDX-License-Identifier: MIT */
#include "cli_options.h"

#include "../mesh/grid.h"
#include "number.h"
#include "picture.h"
#include "../pages/page_labels.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The largest image we accept at the command line; the device may allow less (runtime error). */
#define CLI_MAX_IMAGE_SIDE 16384u
#define CLI_MAX_FRAMES     100000000u
#define CLI_MAX_DEVICE     1023u

/* Whole-string unsigned decimal in [lo, hi]; rejects signs, blanks, trailing text. */
static bool parse_u32(const char *s, const char **end, uint32_t lo, uint32_t hi, uint32_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    if (errno || v < lo || v > hi)
        return false;
    if (end)
        *end = e;
    else if (*e)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "AxB", or "N" for NxN where `square` allows it. */
static bool parse_pair(const char *s, uint32_t lo, uint32_t hi, bool square, uint32_t *a,
                       uint32_t *b)
{
    const char *e;
    if (!parse_u32(s, &e, lo, hi, a))
        return false;
    if (*e == '\0' && square) {
        *b = *a;
        return true;
    }
    return (*e == 'x' || *e == 'X') && parse_u32(e + 1, NULL, lo, hi, b);
}

static bool parse_real(const char *s, double lo, double hi, float *out)
{
    double v;
    if (!app_number_decimal(s, &v) || v < lo || v > hi)
        return false;
    *out = (float)v;
    return true;
}

/* The index of `value` in the NULL-terminated `names`. */
static bool pick(const char *value, const char *const *names, int *out)
{
    for (int k = 0; names[k]; k++) {
        if (!strcmp(value, names[k])) {
            *out = k;
            return true;
        }
    }
    return false;
}

static bool set_true(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(bool *)field = true;
    return value == NULL;
}

static bool set_validation(const char *value, AppOptions *o, void *field)
{
    o->gpu_assisted = value != NULL;
    *(bool *)field = true;
    return !value || !strcmp(value, "gpu-assisted");
}

static bool set_bench(const char *value, AppOptions *o, void *field)
{
    o->headless = true; /* the benchmark renders offscreen */
    return set_true(value, o, field);
}

static bool set_file(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(const char **)field = value;
    return *value != '\0';
}

static bool set_picture(const char *value, AppOptions *o, void *field)
{
    return set_file(value, o, field) && app_picture_format(value) != APP_PICTURE_NONE;
}

static bool set_grid(const char *value, AppOptions *o, void *field)
{
    (void)field;
    return parse_pair(value, 2, MESH_GRID_MAX_SIDE, true, &o->nx, &o->ny);
}

static bool set_size(const char *value, AppOptions *o, void *field)
{
    (void)field;
    return parse_pair(value, 1, CLI_MAX_IMAGE_SIDE, false, &o->width, &o->height);
}

/* "64,256,48x90": squares or NXxNY pairs; no empty items. */
static bool set_grids(const char *s, AppOptions *o, void *field)
{
    (void)field;
    o->grid_count = 0;
    while (*s) {
        if (o->grid_count == APP_MAX_GRIDS)
            return false;
        const char *e;
        uint32_t *g = o->grids[o->grid_count];
        if (!parse_u32(s, &e, 2, MESH_GRID_MAX_SIDE, &g[0]))
            return false;
        g[1] = g[0];
        if ((*e == 'x' || *e == 'X') && !parse_u32(e + 1, &e, 2, MESH_GRID_MAX_SIDE, &g[1]))
            return false;
        o->grid_count++;
        if (*e == ',' && e[1])
            s = e + 1;
        else if (*e == '\0')
            s = e;
        else
            return false;
    }
    return o->grid_count > 0;
}

static bool set_unit(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, 0.0, 1.0, field);
}

static bool set_curl(const char *value, AppOptions *o, void *field)
{
    o->has_curl = true;
    return set_unit(value, o, field);
}

static bool set_radius(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, APP_RADIUS_MIN, APP_RADIUS_MAX, field);
}

static bool set_font_size(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, 6.0, 48.0, field); /* PAGES_BOOK_FONT_MIN .. _MAX */
}

static bool set_zoom(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_real(value, 1.0, 8.0, field); /* BOOK_ZOOM_MIN .. BOOK_ZOOM_MAX */
}

/* "X,Y": an output pixel (whether it lies in the image is checked with --size, app/cli.c). */
static bool set_zoom_at(const char *value, AppOptions *o, void *field)
{
    (void)field;
    const char *e;
    o->has_zoom_at = true;
    return parse_u32(value, &e, 0, CLI_MAX_IMAGE_SIDE - 1, &o->zoom_at[0]) && *e == ',' &&
           parse_u32(e + 1, NULL, 0, CLI_MAX_IMAGE_SIDE - 1, &o->zoom_at[1]);
}

static bool set_page(const char *value, AppOptions *o, void *field)
{
    (void)field; /* a number or a label: read once the book is open (its labels, its length) */
    if (!value || !*value || strlen(value) >= PAGE_LABEL_MAX)
        return false;
    o->page_text = value;
    o->page = 1;
    return true;
}

static bool set_find(const char *value, AppOptions *o, void *field)
{
    (void)field; /* the library's longest query */
    if (!value || !*value || strlen(value) > 256)
        return false;
    o->find = value;
    return true;
}

static bool set_list_links(const char *value, AppOptions *o, void *field)
{
    (void)field; /* a number or a label, read once the book is open, as --page's */
    if (!value || !*value || strlen(value) >= PAGE_LABEL_MAX)
        return false;
    o->list_links = value;
    o->headless = true; /* a listing: no window */
    return true;
}

static bool set_text(const char *value, AppOptions *o, void *field)
{
    (void)field; /* a number or a label, as --page's: read once the book is open */
    if (!value || !*value || strlen(value) >= PAGE_LABEL_MAX)
        return false;
    o->text_page = value;
    return true;
}

static bool set_frames(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_u32(value, NULL, 1, CLI_MAX_FRAMES, field);
}

static bool set_warmup(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_u32(value, NULL, 0, CLI_MAX_FRAMES, field);
}

static bool set_repeat(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return parse_u32(value, NULL, 1, APP_BENCH_MAX_REPEAT, field);
}

static bool set_device(const char *value, AppOptions *o, void *field)
{
    (void)o;
    uint32_t d;
    if (!parse_u32(value, NULL, 0, CLI_MAX_DEVICE, &d))
        return false;
    *(int *)field = (int)d;
    return true;
}

static bool set_deform(const char *value, AppOptions *o, void *field)
{
    (void)o;
    *(bool *)field = !strcmp(value, "cpu");
    return *(bool *)field || !strcmp(value, "gpu");
}

static bool set_normals(const char *value, AppOptions *o, void *field)
{
    (void)o;
    int k; /* GpuNormalsPath: 0 is "the fastest", then these */
    if (!pick(value, (const char *const[]){"two-pass", "fused", "fused-deform", NULL}, &k))
        return false;
    *(GpuNormalsPath *)field = (GpuNormalsPath)(k + 1);
    return true;
}

static bool set_pack(const char *value, AppOptions *o, void *field)
{
    int k; /* GpuPackPath's order */
    (void)o;
    if (!pick(value, (const char *const[]){"gpu", "staging", NULL}, &k))
        return false;
    *(GpuPackPath *)field = (GpuPackPath)k;
    return true;
}

static bool set_staging(const char *value, AppOptions *o, void *field)
{
    int k; /* GpuStaging's order */
    (void)o;
    if (!pick(value, (const char *const[]){"auto", "always", "never", NULL}, &k))
        return false;
    *(GpuStaging *)field = (GpuStaging)k;
    return true;
}

static bool set_msaa(const char *value, AppOptions *o, void *field)
{
    (void)o;
    uint32_t *samples = field;
    return parse_u32(value, NULL, 1, 4, samples) && (*samples == 1 || *samples == 4);
}

static bool set_quality(const char *value, AppOptions *o, void *field)
{
    (void)o;
    int k; /* GpuQuality's order */
    if (!pick(value, (const char *const[]){"auto", "low", "high", "reference", NULL}, &k))
        return false;
    *(GpuQuality *)field = (GpuQuality)k;
    return true;
}

static bool set_present_mode(const char *value, AppOptions *o, void *field)
{
    int k; /* AppPresentMode's order */
    (void)o;
    if (!pick(value, (const char *const[]){"auto", "fifo", "mailbox", "immediate", "shm", NULL},
              &k))
        return false;
    *(AppPresentMode *)field = (AppPresentMode)k;
    return true;
}

static bool set_cover(const char *value, AppOptions *o, void *field)
{
    int k;
    (void)o;
    if (!pick(value, (const char *const[]){"paper", "hard", NULL}, &k))
        return false;
    *(bool *)field = k == 1;
    return true;
}

static bool set_binding(BookBinding binding, const char *value, void *field)
{
    *(BookBinding *)field = binding;
    return value == NULL;
}

static bool set_ltr(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return set_binding(BOOK_BINDING_LEFT, value, field);
}

static bool set_rtl(const char *value, AppOptions *o, void *field)
{
    (void)o;
    return set_binding(BOOK_BINDING_RIGHT, value, field);
}

static bool set_layout(const char *value, AppOptions *o, void *field)
{
    int k; /* BookLayoutKind's order */
    (void)o;
    if (!pick(value, (const char *const[]){"auto", "spread", "single", NULL}, &k))
        return false;
    *(BookLayoutKind *)field = (BookLayoutKind)k;
    return true;
}

static bool set_fit(const char *value, AppOptions *o, void *field)
{
    int k;
    (void)o;
    if (!pick(value, (const char *const[]){"page", "width", NULL}, &k))
        return false;
    *(bool *)field = k == 1;
    return true;
}

#define F(name) offsetof(AppOptions, name)

const CliOption APP_CLI_OPTIONS[] = {
    /* what to show */
    {"--size", NULL, "WxH", VALUE_REQUIRED, set_size, 0, GROUP_SHOW, MODE_ALL, NULL,
     "WxH with each side in 1..16384", "window or image size in pixels (default 1280x720)"},
    {"--grid", NULL, "NXxNY", VALUE_REQUIRED, set_grid, 0, GROUP_SHOW, MODE_ALL, NULL,
     "NXxNY or N (for NxN) with each side in 2..16384",
     "the turning leaf's mesh: NX vertices across, NY along the spine; N alone is\nNxN (default "
     "64x90)"},
    {"--msaa", NULL, "1|4", VALUE_REQUIRED, set_msaa, F(msaa), GROUP_SHOW, MODE_ALL, NULL,
     "1 or 4 (samples per pixel)",
     "samples per pixel (default: 4 where the device can in the high tier, 1 in\nthe low)"},
    {"--quality", NULL, "TIER", VALUE_REQUIRED, set_quality, F(quality), GROUP_SHOW, MODE_ALL, NULL,
     "low, high, reference or auto",
     "auto (default: low on a CPU device, high on a GPU), low (no MSAA, edges\nanti-aliased "
     "in the shader, a 512^2 shadow map, one read of a filtered shadow map),\nhigh (4x MSAA, a "
     "1024^2 shadow map, four reads), or reference (headless only,\nslow: drawn twice as large "
     "and scaled down, 8x MSAA where the device has it,\na 4096^2 shadow map, the penumbra from "
     "256 jittered reads)"},
    {"--show-through", NULL, "F", VALUE_REQUIRED, set_unit, F(show_through), GROUP_SHOW, MODE_ALL,
     NULL, "a number in [0, 1]",
     "how much of each page's back shows through it: 0 none .. 1 thin paper\n(default 0.5: 80 "
     "g/m2 office paper)"},
    {"--notebook", NULL, "FILE", VALUE_REQUIRED, set_file, F(notebook), GROUP_SHOW, MODE_SHOWN,
     "keeps the ink drawn on the pages", "a file name",
     "the ink: loaded at start (a new file is fine), saved as each stroke ends"},
    {"--book", NULL, "PATH", VALUE_REQUIRED, set_file, F(book), GROUP_SHOW, MODE_SHOWN,
     "shows a book of your own", "a folder of images, a PDF, EPUB, FB2, XPS or CBZ",
     "your pages: a folder of images (PNG, JPEG, ...; in natural name order), a\nPDF, an EPUB "
     "or FB2 (laid out to the page), an XPS or a comic book (CBZ);\npage 1 is the first "
     "right-hand page (default: the built-in book);\nalso given bare: pagecurl book.pdf"},
    {"--page", NULL, "N", VALUE_REQUIRED, set_page, F(page), GROUP_SHOW, MODE_SHOWN,
     "opens the book at a page", "a page number or a page label of the book",
     "open at the spread holding page N: a PDF's own page label (iv, 120: the\npage printed so) "
     "or else the page's number (1 ..); headless its right-hand\nleaf turns, with --backward "
     "its left-hand one"},
    {"--find", NULL, "TEXT", VALUE_REQUIRED, set_find, F(find), GROUP_SHOW, MODE_SHOWN,
     "opens the book at a text's first match", "a text of 1 to 256 bytes",
     "open at the spread of TEXT's first match in the book's text (a PDF's;\ncase-insensitive), "
     "its matches highlighted; exit 1 where it has none"},
    {"--list-links", NULL, "PAGE", VALUE_REQUIRED, set_list_links, F(list_links), GROUP_SHOW,
     MODE_HEADLESS, "lists a page's links", "a page number or a page label of the book",
     "print page PAGE's links (a PDF's), one a line: its rectangle (x0 y0 x1 y1,\nfractions of "
     "the page from its top left corner) and 'page N' or 'uri ADDRESS';\nthen exit (no "
     "picture)"},
    {"--rtl", NULL, NULL, VALUE_NONE, set_rtl, F(binding), GROUP_SHOW, MODE_SHOWN,
     "binds the book on the right", NULL,
     "the book binds on the right (manga, Arabic, Hebrew): page 2 lies left of\npage 1, a leaf "
     "turns from left to right, Left turns forward (default: a PDF that\nsays it reads right to "
     "left binds on the right, other books on the left)"},
    {"--ltr", NULL, NULL, VALUE_NONE, set_ltr, F(binding), GROUP_SHOW, MODE_SHOWN,
     "binds the book on the left", NULL,
     "the book binds on the left, whatever a PDF says of its direction"},
    {"--font-size", NULL, "PT", VALUE_REQUIRED, set_font_size, F(font_size), GROUP_SHOW, MODE_SHOWN,
     "sets a reflowable book's text size", "a number of points in [6, 48]",
     "an EPUB's or FB2's text size in points (6..48, default 11), laid out\ninto pages of the "
     "view's shape; refused for a book whose pages are\nits own (PDF, XPS, CBZ, images)"},
    {"--cover", NULL, "hard|paper", VALUE_REQUIRED, set_cover, F(hard_cover), GROUP_SHOW,
     MODE_SHOWN, "picks the book's covers", "hard or paper",
     "hard: the first and last leaves turn as rigid boards hinged at the spine;\npaper (default): "
     "they curl like the rest"},
    {"--layout", NULL, "MODE", VALUE_REQUIRED, set_layout, F(layout), GROUP_SHOW, MODE_SHOWN,
     "picks one page or the spread", "spread, single or auto",
     "spread (both pages), single (the page you are on; the arrows step one page)\nor auto "
     "(default: single where the view is taller than wide)"},
    {"--fit", NULL, "MODE", VALUE_REQUIRED, set_fit, F(fit_width), GROUP_SHOW, MODE_SHOWN,
     "fits the page or its width", "page or width",
     "page (default: the pages whole) or width (the page's width fills the view,\nits head at "
     "the top; in a spread the right-hand page), as W and Z do"},
    {"--reduced-motion", NULL, NULL, VALUE_NONE, set_true, F(reduced_motion), GROUP_SHOW,
     MODE_SHOWN, "turns pages by a cross-fade", NULL,
     "pages turn by a short cross-fade (0.25 s), not the curl, and the view\nstays still; "
     "headless, --curl T (and the scripted turn) is the fade at T"},
    {"--replay", NULL, "FILE", VALUE_REQUIRED, set_file, F(replay), GROUP_SHOW, MODE_SHOWN,
     "plays recorded input on the book", "a file name",
     "play an input trace back (60 steps a second), in a window or headless"},
    {"--frames", NULL, "N", VALUE_REQUIRED, set_frames, F(frames), GROUP_SHOW, MODE_ALL, NULL,
     "an integer in 1..100000000",
     "frames to play, then stop (headless default: a turn of 120 frames)"},
    {"--screenshot", NULL, "FILE", VALUE_REQUIRED, set_picture, F(screenshot), GROUP_SHOW,
     MODE_SHOWN, "writes a picture of the book", "a file name ending in .png, .jpg or .jpeg",
     "on exit, the last frame as FILE: .png, or .jpg/.jpeg (JPEG quality 90);\nin a window, "
     "what the window showed last"},
    {"--export-obj", NULL, "FILE", VALUE_REQUIRED, set_file, F(export_obj), GROUP_SHOW, MODE_SHOWN,
     "writes the turning leaf's mesh", "a file name",
     "on exit, the turning leaf's mesh of the last frame, read back from the\nGPU, as OBJ"},
    /* window */
    {"--record", NULL, "FILE", VALUE_REQUIRED, set_file, F(record), GROUP_WINDOW, MODE_WINDOW,
     "writes the window's input", "a file name",
     "write the window's input (turns, keys, ink) as a trace, each event as it\ncomes"},
    {"--no-remember", NULL, NULL, VALUE_NONE, set_true, F(no_remember), GROUP_WINDOW, MODE_WINDOW,
     "turns off the window's keeping of the reader's place", NULL,
     "neither reopen the book where it was left nor keep its place (the window\nkeeps each "
     "book's in $XDG_STATE_HOME/pagecurl/; --page overrides it)"},
    {"--present-mode", NULL, "MODE", VALUE_REQUIRED, set_present_mode, F(present_mode),
     GROUP_WINDOW, MODE_WINDOW, "picks how the window presents",
     "auto, fifo, mailbox, immediate or shm",
     "auto (default: shm for a CPU rasteriser on X, else fifo), fifo (vsync),\nmailbox, "
     "immediate, or shm (X's shared memory); one the screen lacks: fifo"},
    /* headless output */
    {"--headless", NULL, NULL, VALUE_NONE, set_true, F(headless), GROUP_HEADLESS, MODE_HEADLESS,
     NULL, NULL, "render offscreen, no window (chosen, with a note, without a display)"},
    {"--curl", NULL, "T", VALUE_REQUIRED, set_curl, F(curl), GROUP_HEADLESS, MODE_HEADLESS,
     "fixes the pose of a headless render", "a number in [0, 1]",
     "fix the pose at progress T of the turn: 0 flat .. 1 turned (one frame)"},
    {"--grab", NULL, "G", VALUE_REQUIRED, set_unit, F(grab), GROUP_HEADLESS, MODE_HEADLESS,
     "places the headless turn's grab", "a number in [0, 1]",
     "where the free edge is held: 0 bottom corner .. 1 top (default 0.25)"},
    {"--backward", NULL, NULL, VALUE_NONE, set_true, F(backward), GROUP_HEADLESS, MODE_HEADLESS,
     "turns the headless turn back", NULL,
     "the headless turn goes back: a left page turns over to the right"},
    {"--radius", NULL, "R", VALUE_REQUIRED, set_radius, F(radius), GROUP_HEADLESS, MODE_HEADLESS,
     "shapes the headless turn's roll", "a number in [0.005, 0.5]",
     "roll radius in page widths (0.005..0.5) instead of the pose's own"},
    {"--zoom", NULL, "Z", VALUE_REQUIRED, set_zoom, F(zoom), GROUP_HEADLESS, MODE_HEADLESS,
     "zooms a headless render", "a number in [1, 8]",
     "the picture enlarged Z times (1..8) about --zoom-at, its pages still\ncovering the image "
     "(or centred where smaller), as the window zooms"},
    {"--zoom-at", NULL, "X,Y", VALUE_REQUIRED, set_zoom_at, 0, GROUP_HEADLESS, MODE_HEADLESS,
     "places a headless render's zoom", "X,Y: a pixel of the image (0-based)",
     "the output pixel that stays put as --zoom enlarges (default: the\nimage's centre)"},
    {"--text", NULL, "PAGE", VALUE_REQUIRED, set_text, F(text_page), GROUP_HEADLESS, MODE_HEADLESS,
     "prints a page's text", "a page number or a page label of the book",
     "print the text of page PAGE (a number or a PDF's page label) as MuPDF reads\nit, in "
     "reading order, and exit (nothing drawn); exit 1 where it has none"},
    {"--frames-out", NULL, "DIR", VALUE_REQUIRED, set_file, F(frames_out), GROUP_HEADLESS,
     MODE_HEADLESS, "writes every headless frame", "an existing folder",
     "every frame as DIR/frame-0000.png, frame-0001.png, ... (DIR must exist)"},
    /* compute paths */
    {"--deform", NULL, "gpu|cpu", VALUE_REQUIRED, set_deform, F(cpu_deform), GROUP_COMPUTE,
     MODE_BENCH, "picks where the benchmark curls the page", "gpu or cpu",
     "where the page is curled: a compute shader (default) or the CPU, whose\npositions are "
     "uploaded every frame (see --staging)"},
    {"--normals", NULL, "PATH", VALUE_REQUIRED, set_normals, F(normals), GROUP_COMPUTE, MODE_BENCH,
     "picks the benchmark's normals kernels", "two-pass, fused or fused-deform",
     "two-pass (face normals, then vertex normals), fused (one tiled kernel) or\nfused-deform "
     "(that kernel also curls the page; needs --deform gpu);\ndefault: the fastest measured"},
    {"--pack", NULL, "gpu|staging", VALUE_REQUIRED, set_pack, F(pack), GROUP_COMPUTE, MODE_BENCH,
     "picks who packs the benchmark's vertices", "gpu or staging",
     "who interleaves the two-pass vertices: the GPU (default), or the CPU from\npositions and "
     "normals read back, then uploaded (sets --normals two-pass)"},
    {"--staging", NULL, "MODE", VALUE_REQUIRED, set_staging, F(staging), GROUP_COMPUTE, MODE_BENCH,
     "picks where the benchmark's CPU-written data goes", "auto, always or never",
     "CPU-written data: auto (in place where memory is both device-local and\nhost-visible, "
     "default), always (a staging buffer and a copy) or never"},
    /* benchmark */
    {"--bench", NULL, NULL, VALUE_NONE, set_bench, F(bench), GROUP_BENCH, MODE_BENCH, NULL, NULL,
     "per-stage GPU times of a scripted turn (renders offscreen, no window)"},
    {"--grids", NULL, "LIST", VALUE_REQUIRED, set_grids, 0, GROUP_BENCH, MODE_BENCH,
     "sweeps the benchmark's sizes",
     "up to 16 comma-separated sizes N or NXxNY, each side in 2..16384",
     "sizes to sweep, comma-separated: N (for NxN) or NXxNY"},
    {"--bench-stages", NULL, NULL, VALUE_NONE, set_true, F(bench_stages), GROUP_BENCH, MODE_BENCH,
     "times the benchmark's stages one by one", NULL,
     "a timestamp after each stage of the compute chain; by default\nits kernels are timed as one "
     "span"},
    {"--warmup", NULL, "N", VALUE_REQUIRED, set_warmup, F(warmup), GROUP_BENCH, MODE_BENCH,
     "sets the benchmark's untimed frames", "an integer in 0..100000000",
     "frames before timing starts (default 20)"},
    {"--repeat", NULL, "R", VALUE_REQUIRED, set_repeat, F(repeat), GROUP_BENCH, MODE_BENCH,
     "sets how often each kernel runs in a benchmark frame", "an integer in 1..1000",
     "each kernel of the compute chain R times back to back in a frame\n(with the barriers "
     "between them a frame has); the stages' times are\ndivided by R (default 1)"},
    {"--json", NULL, "FILE", VALUE_REQUIRED, set_file, F(json), GROUP_BENCH, MODE_BENCH,
     "writes the benchmark's results", "a file name", "the results as JSON"},
    {"--csv", NULL, "FILE", VALUE_REQUIRED, set_file, F(csv), GROUP_BENCH, MODE_BENCH,
     "writes the benchmark's frame times", "a file name",
     "one row per frame with each stage's milliseconds"},
    /* diagnostics */
    {"--device", NULL, "INDEX", VALUE_REQUIRED, set_device, F(device), GROUP_DIAGNOSTICS, MODE_ALL,
     NULL, "a device index (see --list-devices)",
     "use this device (see --list-devices; default: discrete, integrated, CPU)"},
    {"--list-devices", NULL, NULL, VALUE_NONE, set_true, F(list_devices), GROUP_DIAGNOSTICS, 0,
     NULL, NULL, "list the Vulkan devices and exit"},
    {"--validation", NULL, "=gpu-assisted", VALUE_OPTIONAL, set_validation, F(validation),
     GROUP_DIAGNOSTICS, MODE_ALL, NULL, "no value but =gpu-assisted",
     "the Khronos validation layer; any message fails the run\n(--validation=gpu-assisted: "
     "GPU-assisted validation instead)"},
    {"--help", "-h", NULL, VALUE_NONE, NULL, 0, GROUP_DIAGNOSTICS, 0, NULL, NULL,
     "this text, and exit"},
    {"--version", NULL, NULL, VALUE_NONE, NULL, 0, GROUP_DIAGNOSTICS, 0, NULL, NULL,
     "the version, and exit"},
};
const size_t APP_CLI_OPTION_COUNT = sizeof APP_CLI_OPTIONS / sizeof APP_CLI_OPTIONS[0];
_Static_assert(sizeof APP_CLI_OPTIONS / sizeof APP_CLI_OPTIONS[0] <= APP_CLI_MAX_OPTIONS,
               "the parser marks each option seen in an array of APP_CLI_MAX_OPTIONS");
