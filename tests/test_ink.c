/* SPDX-License-Identifier: MIT */
/* Ink: the stroke model (begin, extend, drop jitter, off-page points, widths, undo across pages in
 * the order drawn, clear), notebooks (save -> load gives identical strokes bit for bit; malformed
 * notebooks refused with a line naming the problem and the ink left empty; a failed save keeps
 * the old file) and picking (a point of a curled page projected to the screen and picked back
 * lands within 1/1024 of the page, on flat and curled poses; the book's pick names the page side
 * and its face-up coordinates) and the blocks of leaves the book draws under its flat pages. */
#include "book/book.h"
#include "book/camera.h"
#include "book/ink_texture.h"
#include "app/notebook.h"
#include "check.h"
#include "mesh/curl.h"
#include "mesh/grid.h"
#include "mesh/ink.h"
#include "mesh/ink_raster.h"
#include "mesh/pick.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PI 3.14159265358979323846

static const char *out_dir;

/* xorshift: the same "random" points on every run and machine */
static double rnd(uint64_t *state)
{
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static void test_strokes(CheckState *s)
{
    MeshInk ink;
    CHECK(s, !mesh_ink_init(&ink, 0) && !mesh_ink_init(&ink, MESH_INK_MAX_SIDES + 1),
          "a book without pages or with too many was accepted");
    CHECK(s, mesh_ink_init(&ink, 4), "init");
    CHECK(s, !mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.5f, 0.5f, 0.01f}),
          "extended a stroke that was never begun");
    CHECK(s,
          !mesh_ink_stroke_begin(&ink, 4, (MeshInkPoint){0.5f, 0.5f, 0.01f}) &&
              !mesh_ink_stroke_begin(&ink, -1, (MeshInkPoint){0.5f, 0.5f, 0.01f}),
          "began a stroke on a page outside the book");
    CHECK(s,
          !mesh_ink_stroke_begin(&ink, 0, (MeshInkPoint){1.5f, 0.5f, 0.01f}) &&
              !mesh_ink_stroke_begin(&ink, 0, (MeshInkPoint){NAN, 0.5f, 0.01f}) &&
              !mesh_ink_stroke_begin(&ink, 0, (MeshInkPoint){0.5f, 0.5f, INFINITY}),
          "began a stroke off the page or with a non-finite width");
    CHECK(s, mesh_ink_stroke_count(&ink) == 0, "refused strokes were kept");

    /* page 1: a stroke of 3 points, one jitter point dropped, widths clamped */
    CHECK(s, mesh_ink_stroke_begin(&ink, 1, (MeshInkPoint){0.1f, 0.1f, 1.0f}), "begin");
    CHECK(s, mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.1f + 1e-5f, 0.1f, 0.01f}), "jitter");
    CHECK(s, mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.2f, 0.1f, 0.0f}), "extend");
    CHECK(s, !mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.2f, -0.1f, 0.01f}), "off the page");
    CHECK(s, mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.3f, 0.2f, 0.01f}), "extend");
    mesh_ink_stroke_end(&ink);
    CHECK(s, !mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.4f, 0.2f, 0.01f}),
          "extended an ended stroke");
    const MeshInkStroke *st = &ink.sides[1].strokes[0];
    CHECK(s, ink.sides[1].count == 1 && st->count == 3, "page 1: %zu strokes, %zu points",
          ink.sides[1].count, st->count);
    CHECK(s, st->points[0].width == MESH_INK_MAX_WIDTH && st->points[1].width == MESH_INK_MIN_WIDTH,
          "widths not clamped: %g %g", (double)st->points[0].width, (double)st->points[1].width);
    CHECK(s,
          mesh_ink_width(1.0f) == MESH_INK_WIDTH && mesh_ink_width(0.5f) < MESH_INK_WIDTH &&
              mesh_ink_width(0.0f) == MESH_INK_MIN_WIDTH && mesh_ink_width(NAN) == MESH_INK_WIDTH,
          "pressure to width");

    /* strokes on pages 0, 3, 1 (a dot), 0: undo takes them back newest first, across pages */
    mesh_ink_stroke_begin(&ink, 0, (MeshInkPoint){0.5f, 0.5f, 0.01f});
    mesh_ink_stroke_begin(&ink, 3, (MeshInkPoint){0.5f, 0.5f, 0.01f}); /* ends the one before */
    mesh_ink_stroke_begin(&ink, 1, (MeshInkPoint){0.5f, 0.5f, 0.01f});
    MeshInkPoint two[2] = {{0.1f, 0.9f, 0.01f}, {0.2f, 0.8f, 0.01f}};
    CHECK(s, mesh_ink_stroke_add(&ink, 0, two, 2), "add");
    CHECK(s, !mesh_ink_stroke_add(&ink, 0, two, 0) && !mesh_ink_stroke_add(&ink, 9, two, 2),
          "added an empty stroke or one outside the book");
    CHECK(s, mesh_ink_stroke_count(&ink) == 5, "%zu strokes, want 5", mesh_ink_stroke_count(&ink));
    int order[6];
    for (int i = 0; i < 6; i++)
        order[i] = mesh_ink_undo(&ink);
    CHECK(s,
          order[0] == 0 && order[1] == 1 && order[2] == 3 && order[3] == 0 && order[4] == 1 &&
              order[5] == -1,
          "undo order %d %d %d %d %d %d, want 0 1 3 0 1 -1", order[0], order[1], order[2], order[3],
          order[4], order[5]);

    for (int i = 0; i < 3; i++)
        mesh_ink_stroke_begin(&ink, 2, (MeshInkPoint){0.1f * i, 0.5f, 0.01f});
    mesh_ink_stroke_begin(&ink, 3, (MeshInkPoint){0.5f, 0.5f, 0.01f});
    uint64_t before = ink.revision;
    CHECK(s, mesh_ink_clear(&ink, 2) == 3 && ink.sides[2].count == 0 && ink.sides[3].count == 1,
          "clear took the wrong strokes");
    CHECK(s, ink.revision != before, "clearing did not count as a change");
    /* undo takes back the clear first (its strokes back as they were), then the strokes */
    CHECK(s, mesh_ink_undo(&ink) == 2 && ink.sides[2].count == 3 && ink.sides[3].count == 1,
          "undo did not take back the clear first: page 2 has %zu strokes", ink.sides[2].count);
    CHECK(s, ink.sides[2].strokes[1].points[0].u == 0.1f, "the cleared strokes came back changed");
    int after[5];
    for (int i = 0; i < 5; i++)
        after[i] = mesh_ink_undo(&ink);
    CHECK(s,
          after[0] == 3 && after[1] == 2 && after[2] == 2 && after[3] == 2 && after[4] == -1 &&
              ink.points == 0,
          "undo after the clear: %d %d %d %d %d, want 3 2 2 2 -1", after[0], after[1], after[2],
          after[3], after[4]);
    mesh_ink_free(&ink);
    CHECK(s, ink.sides == NULL && ink.side_count == 0, "free left the book");
}

/* A book of random strokes. */
static void random_ink(MeshInk *ink, uint64_t *seed)
{
    for (int k = 0; k < 40; k++) {
        int side = (int)(rnd(seed) * ink->side_count);
        int n = 1 + (int)(rnd(seed) * 50);
        mesh_ink_stroke_begin(
            ink, side,
            (MeshInkPoint){(float)rnd(seed), (float)rnd(seed), mesh_ink_width((float)rnd(seed))});
        for (int i = 1; i < n; i++)
            mesh_ink_stroke_extend(ink, (MeshInkPoint){(float)rnd(seed), (float)rnd(seed),
                                                       mesh_ink_width((float)rnd(seed))});
        mesh_ink_stroke_end(ink);
    }
}

static bool same_ink(const MeshInk *a, const MeshInk *b)
{
    if (a->side_count != b->side_count)
        return false;
    for (int p = 0; p < a->side_count; p++) {
        if (a->sides[p].count != b->sides[p].count)
            return false;
        for (size_t k = 0; k < a->sides[p].count; k++) {
            const MeshInkStroke *x = &a->sides[p].strokes[k], *y = &b->sides[p].strokes[k];
            if (x->count != y->count ||
                memcmp(x->points, y->points, x->count * sizeof *x->points) != 0)
                return false;
        }
    }
    return true;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 20);
    if (text)
        text[fread(text, 1, (1 << 20) - 1, f)] = '\0';
    fclose(f);
    return text;
}

static void test_notebook(CheckState *s)
{
    char path[512], message[512];
    snprintf(path, sizeof path, "%s/round-trip.json", out_dir);
    remove(path);
    MeshInk a, b;
    mesh_ink_init(&a, 16);
    mesh_ink_init(&b, 16);
    CHECK(s, app_notebook_load(path, &b, message, sizeof message) && mesh_ink_stroke_count(&b) == 0,
          "a missing notebook is not an empty one: %s", message);
    uint64_t seed = 0x9e3779b97f4a7c15u;
    random_ink(&a, &seed);
    CHECK(s, mesh_ink_stroke_count(&a) == 40, "random ink: %zu strokes", mesh_ink_stroke_count(&a));
    CHECK(s, app_notebook_save(path, &a, message, sizeof message), "save: %s", message);
    CHECK(s, app_notebook_load(path, &b, message, sizeof message), "load: %s", message);
    CHECK(s, same_ink(&a, &b), "save -> load changed the strokes");
    /* undo order survives the trip: the file's order is the drawing order within each page */
    CHECK(s, mesh_ink_undo(&b) >= 0, "nothing to undo after loading");

    /* the round trip can fail: one bit of one width changed is seen */
    a.sides[a.sides[0].count ? 0 : 1].strokes[0].points[0].width *= 1.0000001f;
    CHECK(s, !same_ink(&a, &b), "the comparison cannot fail");

    /* a failed save keeps the old file */
    char *old = read_all(path), bad_path[600];
    snprintf(bad_path, sizeof bad_path, "%s/no-such-dir/x.json", out_dir);
    CHECK(s,
          !app_notebook_save(bad_path, &a, message, sizeof message) &&
              strstr(message, "no-such-dir") != NULL,
          "saving into a missing directory: %s", message);
    char *now = read_all(path);
    CHECK(s, old && now && !strcmp(old, now), "the notebook on disk changed");
    free(old);
    free(now);
    mesh_ink_free(&a);
    mesh_ink_free(&b);

    static const struct {
        const char *text, *names;
    } bad[] = {
        {"", "not valid JSON"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [\n{\"page\": 1,",
         "line 2"},
        {"[1, 2]", "top level"},
        {"{\"format\": \"other\", \"version\": 1, \"pages\": []}", "format"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 2, \"pages\": []}", "version"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1}", "pages"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 17, "
         "\"strokes\": []}]}",
         "1..16"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1.5, "
         "\"strokes\": []}]}",
         "page number"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 2, "
         "\"strokes\": []}, {\"page\": 2, \"strokes\": []}]}",
         "page 2 appears twice"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 3}]}",
         "page 3: \"strokes\""},
        /* a key given twice: cJSON would find the first and drop the second unseen */
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5, 0.01]]]}], \"pages\": []}",
         "\"pages\" is given twice"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"page\": 2, \"strokes\": []}]}",
         "pages[1] gives \"page\" twice"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5, 0.01]]], \"strokes\": []}]}",
         "pages[1] gives \"strokes\" twice"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"version\": 1, \"pages\": []}",
         "\"version\" is given twice"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5, 0.01]], []]}]}",
         "stroke 2: has no points"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5, 0.01], [0.5, 1.5, 0.01]]]}]}",
         "point 2 lies off the page"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5, 0.9]]]}]}",
         "width"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, 0.5]]]}]}",
         "not [u, v, width]"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": [{\"page\": 1, "
         "\"strokes\": [[[0.5, \"x\", 0.01]]]}]}",
         "not [u, v, width]"},
        {"{\"format\": \"pagecurl-notebook\", \"version\": 1, \"pages\": []} {}", "after"},
        {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
         "nested"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MeshInk ink;
        mesh_ink_init(&ink, 16);
        message[0] = '\0';
        bool ok = app_notebook_parse(bad[i].text, strlen(bad[i].text), "nb", &ink, message,
                                     sizeof message);
        CHECK(s,
              !ok && strstr(message, bad[i].names) && !strchr(message, '\n') &&
                  !strncmp(message, "nb: ", 4),
              "malformed notebook %zu: %s (want it to name \"%s\")", i, ok ? "accepted" : message,
              bad[i].names);
        CHECK(s, mesh_ink_stroke_count(&ink) == 0, "malformed notebook %zu left strokes", i);
        mesh_ink_free(&ink);
    }
    /* a good one, with strokes on two pages in any order, is read */
    const char *good = "{\"pages\": [{\"strokes\": [[[0.25, 0.5, 0.012], [0.3, 0.5, 0.012]]], "
                       "\"page\": 4}, {\"page\": 1, \"strokes\": []}], \"version\": 1, "
                       "\"format\": \"pagecurl-notebook\"}";
    MeshInk ink;
    mesh_ink_init(&ink, 16);
    CHECK(s,
          app_notebook_parse(good, strlen(good), "nb", &ink, message, sizeof message) &&
              ink.sides[3].count == 1 && ink.sides[3].strokes[0].count == 2 &&
              ink.sides[3].strokes[0].points[1].u == 0.3f,
          "a good notebook was not read: %s", message);
    mesh_ink_free(&ink);
}

/* Undo across kinds: Delete over one page, then Ctrl+Z, gives that page's ink back, not a
 * stroke of another; the history holds what clears took only up to MESH_INK_MAX_POINTS points,
 * forgetting the oldest actions beyond it. */
static void test_undo_clear(CheckState *s)
{
    MeshInk ink;
    CHECK(s, mesh_ink_init(&ink, 4), "out of memory");
    MeshInkPoint two[2] = {{0.1f, 0.1f, 0.01f}, {0.2f, 0.2f, 0.01f}};
    mesh_ink_stroke_add(&ink, 0, two, 2); /* a stroke on side 0 */
    mesh_ink_stroke_begin(&ink, 1, two[0]);
    mesh_ink_stroke_extend(&ink, two[1]);
    mesh_ink_stroke_end(&ink); /* and one on side 1 */
    CHECK(s, mesh_ink_clear(&ink, 1) == 1 && mesh_ink_clear(&ink, 1) == 0, "clear");
    CHECK(s,
          mesh_ink_undo(&ink) == 1 && ink.sides[0].count == 1 && ink.sides[1].count == 1 &&
              ink.sides[1].strokes[0].count == 2 && ink.points == 4,
          "Delete then Ctrl+Z: pages hold %zu and %zu strokes, want 1 and 1", ink.sides[0].count,
          ink.sides[1].count);
    /* clear, draw, undo, undo: the clear's strokes back, the new one gone */
    mesh_ink_clear(&ink, 0);
    mesh_ink_stroke_begin(&ink, 0, two[1]);
    CHECK(s, mesh_ink_undo(&ink) == 0 && ink.sides[0].count == 0 && ink.drawing == -1,
          "the stroke drawn after a clear was not taken back first");
    CHECK(s,
          mesh_ink_undo(&ink) == 0 && ink.sides[0].count == 1 &&
              ink.sides[0].strokes[0].points[1].u == 0.2f,
          "the clear was not taken back");
    CHECK(s, mesh_ink_undo(&ink) == 1 && mesh_ink_undo(&ink) == 0 && mesh_ink_undo(&ink) == -1,
          "the strokes before the clear");

    /* the held points stay bounded: clears of 100,000-point strokes, 8 of them */
    mesh_ink_reset(&ink);
    MeshInkPoint *many = malloc(MESH_INK_MAX_STROKE_POINTS * sizeof *many);
    CHECK(s, many != NULL, "out of memory");
    for (int i = 0; many && i < MESH_INK_MAX_STROKE_POINTS; i++)
        many[i] = (MeshInkPoint){(float)i / MESH_INK_MAX_STROKE_POINTS, 0.5f, 0.01f};
    for (int k = 0; many && k < 8; k++) {
        CHECK(s, mesh_ink_stroke_add(&ink, k % 4, many, MESH_INK_MAX_STROKE_POINTS), "add %d", k);
        CHECK(s, mesh_ink_clear(&ink, k % 4) == 1, "clear %d", k);
        CHECK(s, ink.held <= MESH_INK_MAX_POINTS, "clear %d: %zu points held", k, ink.held);
    }
    int undone = 0;
    while (mesh_ink_undo(&ink) >= 0)
        undone++;
    /* the five newest clears (500,000 points held) and their strokes are undone; the three
     * oldest clears were forgotten, and with them the strokes before them */
    CHECK(s, undone == 10 && ink.points == 0 && ink.held == 0,
          "%d actions undone, %zu points left, want 10 and 0 (the oldest forgotten)", undone,
          ink.points);
    free(many);

    /* a copy holds the same strokes and none of the history */
    MeshInk copy;
    mesh_ink_reset(&ink);
    uint64_t seed = 5;
    random_ink(&ink, &seed);
    mesh_ink_clear(&ink, 2);
    CHECK(s,
          mesh_ink_copy(&copy, &ink) && same_ink(&copy, &ink) && copy.actions == 0 &&
              copy.points == ink.points && copy.revision == ink.revision,
          "the copy differs");
    mesh_ink_free(&copy);
    mesh_ink_free(&ink);
}

/* Seconds on the monotonic clock. */
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A path in out_dir. */
static const char *out_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", out_dir, name);
    return buf;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Waits up to 10 s for the notebook at `path` to hold `strokes` strokes. */
static bool saved_within(const char *path, size_t strokes, int pages)
{
    for (int k = 0; k < 1000; k++) {
        MeshInk back;
        char message[512];
        mesh_ink_init(&back, pages);
        bool ok = app_notebook_load(path, &back, message, sizeof message) &&
                  mesh_ink_stroke_count(&back) == strokes;
        mesh_ink_free(&back);
        if (ok)
            return true;
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    return false;
}

/* A notebook held for writing: its lock is on the file itself (a second taker by any name,
 * a hard link included, is refused, and no NAME.lock lies beside it), follows the file from save
 * to save, and goes with the process; a new notebook is made empty at once and removed when no
 * ink was saved; a killed run's temporary files go when a later run takes the notebook. */
static void test_notebook_lock(CheckState *s)
{
    char path[512], other[512], link_path[600], message[768];
    out_path(path, sizeof path, "held.json");
    out_path(other, sizeof other, "held-link.json");
    remove(path), remove(other);
    MeshInk ink, ink2;
    mesh_ink_init(&ink, 16);
    mesh_ink_init(&ink2, 16);
    AppNotebook nb, nb2;
    CHECK(s,
          app_notebook_open(&nb, path, APP_NOTEBOOK_BUILTIN, &ink, NULL, message, sizeof message) ==
              0,
          "open: %s", message);
    CHECK(s, exists(path), "a new notebook was not made at once");
    snprintf(link_path, sizeof link_path, "%s.lock", path);
    CHECK(s, !exists(link_path), "a lock file lies beside the notebook");
    CHECK(s,
          app_notebook_open(&nb2, path, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message,
                            sizeof message) == 1 &&
              strstr(message, "in use by another pagecurl"),
          "a second taker of a new notebook: %s", message);
    app_notebook_close(&nb);
    CHECK(s, !exists(path), "a new notebook no ink was saved to was left behind");

    /* saved twice (two new files renamed into place): the lock is on the file at the name */
    CHECK(s,
          app_notebook_open(&nb, path, APP_NOTEBOOK_BUILTIN, &ink, NULL, message, sizeof message) ==
              0,
          "open: %s", message);
    for (int k = 0; k < 2; k++) {
        mesh_ink_stroke_begin(&ink, k, (MeshInkPoint){0.5f, 0.5f, 0.01f});
        mesh_ink_stroke_end(&ink);
        app_notebook_keep(&nb, &ink, false);
        CHECK(s, saved_within(path, (size_t)k + 1, 16), "stroke %d did not reach the disk", k);
    }
    CHECK(s,
          app_notebook_open(&nb2, path, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message,
                            sizeof message) == 1 &&
              strstr(message, "in use by another pagecurl") && strstr(message, "process "),
          "a second taker after two saves: %s", message);
    CHECK(s, symlink("held.json", other) == 0, "symlink");
    CHECK(s,
          app_notebook_open(&nb2, other, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message,
                            sizeof message) == 1 &&
              strstr(message, "in use"),
          "a second taker through a symlink: %s", message);
    remove(other);
    CHECK(s, link(path, other) == 0, "link");
    CHECK(s,
          app_notebook_open(&nb2, other, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message,
                            sizeof message) == 1,
          "a second taker through a hard link got it");
    CHECK(s, app_notebook_keep(&nb, &ink, true), "the final save failed");
    app_notebook_close(&nb);
    /* a notebook with two names is refused: a save would leave the other name on the old file */
    int status =
        app_notebook_open(&nb2, other, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message, sizeof message);
    CHECK(s, status == 1 && strstr(message, "hard links"), "two names: status %d: %s", status,
          message);
    remove(other);

    /* a killed run's temporary files: its process gone, nothing holds them */
    long dead = 4000000;
    while (dead > 2 && (kill((pid_t)dead, 0) == 0 || errno != ESRCH))
        dead--;
    char stale[600], live[600], legacy[600];
    snprintf(stale, sizeof stale, "%s/.held.json.tmp-%ld-a1b2c3", out_dir, dead);
    snprintf(live, sizeof live, "%s/.held.json.tmp-%ld-d4e5f6", out_dir, (long)getpid());
    snprintf(legacy, sizeof legacy, "%s/.held.json.tmp-Ab3dE9", out_dir);
    FILE *f;
    for (int k = 0; k < 3; k++)
        if ((f = fopen(k == 0 ? stale : k == 1 ? live : legacy, "w")))
            fputs("half a notebook", f), fclose(f);
    CHECK(s,
          app_notebook_open(&nb, path, APP_NOTEBOOK_BUILTIN, &ink2, NULL, message,
                            sizeof message) == 0,
          "open: %s", message);
    app_notebook_close(&nb);
    CHECK(s, !exists(stale), "a killed run's temporary file %s was left", stale);
    CHECK(s, exists(live), "a live process's temporary file was removed");
    CHECK(s, exists(legacy), "a fresh temporary file of the older name was removed");
    remove(live), remove(legacy);
    mesh_ink_free(&ink);
    mesh_ink_free(&ink2);
}

/* A stroke's end with a large notebook hands the save to the writer: app_notebook_keep returns
 * in a fraction of what the save itself takes, the stroke is on disk soon after, the final keep
 * waits for it; a save that fails is said and fails the run. */
static void test_notebook_writer(CheckState *s)
{
    char path[512], message[768];
    out_path(path, sizeof path, "large.json");
    remove(path);
    MeshInk ink;
    mesh_ink_init(&ink, 16);
    /* 240,000 points: ~10 MB as a notebook */
    MeshInkPoint *pts = malloc(20000 * sizeof *pts);
    uint64_t seed = 3;
    for (int k = 0; pts && k < 12; k++) {
        for (int i = 0; i < 20000; i++)
            pts[i] = (MeshInkPoint){(float)rnd(&seed), (float)rnd(&seed), 0.0123456f};
        mesh_ink_stroke_add(&ink, k % 16, pts, 20000);
    }
    free(pts);
    double t0 = seconds();
    CHECK(s, app_notebook_save(path, &ink, message, sizeof message), "save: %s", message);
    double save = seconds() - t0;
    mesh_ink_free(&ink);
    mesh_ink_init(&ink, 16);
    AppNotebook nb;
    CHECK(s,
          app_notebook_open(&nb, path, APP_NOTEBOOK_BUILTIN, &ink, NULL, message, sizeof message) ==
              0,
          "open: %s", message);
    double kept[3];
    for (int k = 0; k < 3; k++) {
        mesh_ink_stroke_begin(&ink, 3, (MeshInkPoint){0.5f, 0.1f * (float)k, 0.01f});
        mesh_ink_stroke_extend(&ink, (MeshInkPoint){0.6f, 0.1f * (float)k, 0.01f});
        mesh_ink_stroke_end(&ink);
        t0 = seconds();
        app_notebook_keep(&nb, &ink, false);
        kept[k] = seconds() - t0;
    }
    /* The middle of three: a keep that waited for a save (its own, or the one before it, still
     * running) makes at least two of them as long as a save; a busy machine that takes the core
     * from the test during one keep makes only that one long. */
    double lo = fmin(kept[0], fmin(kept[1], kept[2])), hi = fmax(kept[0], fmax(kept[1], kept[2]));
    double middle = kept[0] + kept[1] + kept[2] - lo - hi;
    printf("notebook: a %.1f MB save takes %.0f ms; a stroke's end kept it in %.1f ms (the middle "
           "of three; %.1f at worst)\n",
           (double)ink.points * 40e-6, 1e3 * save, 1e3 * middle, 1e3 * hi);
    CHECK(s, middle < 0.25 * save, "a stroke's end waited %.0f ms for a %.0f ms save", 1e3 * middle,
          1e3 * save);
    CHECK(s, saved_within(path, 15, 16), "the last stroke did not reach the disk within 10 s");
    CHECK(s, app_notebook_keep(&nb, &ink, true) && nb.saved == ink.revision, "the final keep");
    app_notebook_close(&nb);
    mesh_ink_free(&ink);

    /* a save that fails (the notebook's folder gone): said, and the run fails */
    char dir[400], moved[400];
    out_path(dir, sizeof dir, "gone");
    out_path(moved, sizeof moved, "gone-moved");
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/n.json", dir);
    remove(path);
    mesh_ink_init(&ink, 16);
    CHECK(s,
          app_notebook_open(&nb, path, APP_NOTEBOOK_BUILTIN, &ink, NULL, message, sizeof message) ==
              0,
          "open: %s", message);
    CHECK(s, rename(dir, moved) == 0, "rename");
    mesh_ink_stroke_begin(&ink, 3, (MeshInkPoint){0.5f, 0.5f, 0.01f});
    mesh_ink_stroke_end(&ink);
    /* what it says, on stderr: one line, that the ink was not saved, and where */
    char said_path[512], said[2048];
    out_path(said_path, sizeof said_path, "failed-save.txt");
    fflush(stderr);
    int kept_stderr = dup(STDERR_FILENO), to = open(said_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(s, kept_stderr >= 0 && to >= 0 && dup2(to, STDERR_FILENO) >= 0, "stderr to a file");
    app_notebook_keep(&nb, &ink, false);
    bool failed = !app_notebook_keep(&nb, &ink, true);
    fflush(stderr);
    dup2(kept_stderr, STDERR_FILENO);
    close(kept_stderr);
    close(to);
    CHECK(s, failed && nb.failed && nb.said, "a failed save did not fail the run");
    FILE *f = fopen(said_path, "r");
    size_t got = f ? fread(said, 1, sizeof said - 1, f) : 0;
    said[got] = '\0';
    if (f)
        fclose(f);
    int lines = 0;
    for (size_t i = 0; i < got; i++)
        lines += said[i] == '\n';
    printf("notebook: a failed save says: %s", said);
    CHECK(s, lines == 1 && strstr(said, "ink was not saved") && strstr(said, path),
          "a failed save said %d line(s), not that the ink was not saved to %s: %s", lines, path,
          said);
    app_notebook_close(&nb);
    mesh_ink_free(&ink);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, moved);
    CHECK(s, system(cmd) == 0, "%s", cmd);
}

#define VIEW_W 1280
#define VIEW_H 720

/* Pixel (sub-pixel) position of world point p, as book_camera_ray reads pixels. */
static bool project(const float *vp, const double p[3], float *px, float *py)
{
    double c[4];
    for (int r = 0; r < 4; r++)
        c[r] = vp[0 * 4 + r] * p[0] + vp[1 * 4 + r] * p[1] + vp[2 * 4 + r] * p[2] + vp[3 * 4 + r];
    if (!(c[3] > 0.0))
        return false;
    *px = (float)((c[0] / c[3] + 1.0) * 0.5 * VIEW_W - 0.5);
    *py = (float)((c[1] / c[3] + 1.0) * 0.5 * VIEW_H - 0.5);
    return *px >= 0.0f && *px < VIEW_W && *py >= 0.0f && *py < VIEW_H;
}

/* Random rest points of flat and curled poses, projected and picked back: within a texel of
 * 1024^2 content or, where another layer of the page hides them, a hit nearer the eye. */
static void test_pick_curl(CheckState *s)
{
    const float w = MESH_PAGE_WIDTH, h = MESH_PAGE_HEIGHT, texel = 1.0f / 1024.0f;
    BookCameraBook camera = book_camera_book(w, h, 0);
    camera.lift = 1.0f; /* a leaf in flight: the camera pulled back and tilted */
    PcDrawPush push = book_camera_draw_push(VIEW_W, VIEW_H, &camera);
    const float poses[][2] = {{0.0f, 0.25f}, {0.15f, 0.0f}, {0.3f, 0.25f}, {0.45f, 0.5f},
                              {0.5f, 0.0f},  {0.6f, 0.8f},  {0.75f, 1.0f}, {0.9f, 0.3f}};
    uint64_t seed = 12345;
    int hits = 0, hidden = 0, misses = 0, grazing = 0;
    double worst = 0.0;
    for (size_t k = 0; k < sizeof poses / sizeof poses[0]; k++) {
        CurlParams pose = mesh_curl_pose(poses[k][0], poses[k][1], w, h);
        for (int i = 0; i < 200; i++) {
            double x = rnd(&seed) * w, y = rnd(&seed) * h, p[3], n[3];
            mesh_curl_point(&pose, x, y, p, n);
            float px, py;
            if (!project(push.view_proj.m, p, &px, &py))
                continue;
            MeshRay ray;
            MeshPick pick;
            CHECK(s, book_camera_ray(VIEW_W, VIEW_H, &camera, px, py, ray.origin, ray.dir), "ray");
            /* Within 3 degrees of the silhouette a pixel spans tens of texels and the point is
             * not defined to a texel by any pointer: those are not held to it. */
            double cosine =
                (n[0] * ray.dir[0] + n[1] * ray.dir[1] + n[2] * ray.dir[2]) /
                sqrt(ray.dir[0] * ray.dir[0] + ray.dir[1] * ray.dir[1] + ray.dir[2] * ray.dir[2]);
            if (fabs(cosine) < 0.05) {
                grazing++;
                continue;
            }
            if (!mesh_pick_curl(&pose, w, h, &ray, &pick)) {
                misses++;
                CHECK(s, false, "pose %zu: (%.4f, %.4f) projected to (%.2f, %.2f) was missed", k, x,
                      y, (double)px, (double)py);
                continue;
            }
            double err = hypot(pick.x - x, pick.y - y) / w;
            double dd = 0.0, t = 0.0;
            for (int c = 0; c < 3; c++) {
                dd += ray.dir[c] * ray.dir[c];
                t += (p[c] - ray.origin[c]) * ray.dir[c];
            }
            t /= dd;
            if (err <= texel) {
                hits++;
                worst = fmax(worst, err);
                bool plus_z = (n[0] * ray.dir[0] + n[1] * ray.dir[1] + n[2] * ray.dir[2]) < 0.0;
                CHECK(s, pick.plus_z == plus_z, "pose %zu: wrong side at (%.4f, %.4f)", k, x, y);
            } else if (pick.t < t * (1.0 - 1e-4)) {
                hidden++; /* another layer of the curl lies in front: picking that is right */
            } else {
                CHECK(s, false,
                      "pose %zu: (%.4f, %.4f) picked back at (%.4f, %.4f): %.2f texels off", k, x,
                      y, pick.x, pick.y, err / texel);
            }
        }
    }
    printf("pick: %d within a texel (worst %.3g texels), %d hidden by the curl, %d missed, %d "
           "grazing (not checked)\n",
           hits, worst / texel, hidden, misses, grazing);
    CHECK(s, hits > 1100 && hidden < hits / 2 && grazing < hits / 50,
          "too few points checked: %d hits, %d hidden", hits, hidden);
    /* a ray beside the page misses it */
    CurlParams flat = mesh_curl_pose(0.0f, 0.25f, w, h);
    MeshRay beside = {{2.0 * w, 0.5 * h, 3.0}, {0.0, 0.0, -1.0}};
    MeshPick pick;
    CHECK(s, !mesh_pick_curl(&flat, w, h, &beside, &pick), "a ray beside the page hit it");
    MeshRay away = {{0.5 * w, 0.5 * h, 3.0}, {0.0, 0.0, 1.0}};
    CHECK(s, !mesh_pick_curl(&flat, w, h, &away, &pick), "a ray pointing away hit the page");
}

/* The book's pick on a page being turned: the leaf's front while it is still face up, the back
 * where the curl shows it, the flat page beside, each in face-up coordinates. */
static void test_pick_book(CheckState *s)
{
    BookLeaf leaf = {.grid = {.width = MESH_PAGE_WIDTH, .height = MESH_PAGE_HEIGHT}};
    BookLayout layout = {0};
    float w = leaf.grid.width, h = leaf.grid.height;
    MeshFlip flip;
    book_init_flip(&flip, &leaf, BOOK_PAGES, 0, false);
    mesh_flip_goto(&flip, 1); /* leaf 0's back on the left, leaf 1's front on the right */
    MeshFlipView view = mesh_flip_view(&flip);
    BookSpread spread = book_spread(&view);
    BookCameraBook camera =
        book_camera(&spread, NULL, &leaf, &layout, VIEW_W, VIEW_H); /* as book_pick's */
    PcDrawPush push = book_camera_draw_push(VIEW_W, VIEW_H, &camera);
    BookHit hit;
    float px, py;
    /* the right page: leaf 1's front, side 2 (page 3), u from the spine */
    double right[3] = {0.3 * w, 0.6 * h, -BOOK_STACK_STEP * w};
    CHECK(s,
          project(push.view_proj.m, right, &px, &py) &&
              book_pick(&view, NULL, &leaf, &layout, VIEW_W, VIEW_H, px, py, &hit),
          "the right page was not hit");
    CHECK(s, hit.side == 2 && fabsf(hit.u - 0.3f) < 1e-3f && fabsf(hit.v - 0.6f) < 1e-3f,
          "right page: page %d at (%.4f, %.4f), want 2 at (0.3, 0.6)", hit.side, (double)hit.u,
          (double)hit.v);
    /* the left page: leaf 0's back, page 1, read face up: its left edge is the far one */
    double left[3] = {-0.3 * w, 0.6 * h, -BOOK_STACK_STEP * w};
    CHECK(s,
          project(push.view_proj.m, left, &px, &py) &&
              book_pick(&view, NULL, &leaf, &layout, VIEW_W, VIEW_H, px, py, &hit),
          "the left page was not hit");
    CHECK(s, hit.side == 1 && fabsf(hit.u - 0.7f) < 1e-3f && fabsf(hit.v - 0.6f) < 1e-3f,
          "left page: page %d at (%.4f, %.4f), want 1 at (0.7, 0.6)", hit.side, (double)hit.u,
          (double)hit.v);
    CHECK(s, !book_pick(&view, NULL, &leaf, &layout, VIEW_W, VIEW_H, 2.0f, 2.0f, &hit),
          "the corner of the view hit a page");

    /* grab the right page's bottom corner and hold it halfway over */
    mesh_flip_press(&flip, 0.95f * w, 0.05f * h, 0.0);
    mesh_flip_move(&flip, 0.4f * w, 0.2f * h, 0.1);
    view = mesh_flip_view(&flip);
    CHECK(s, view.turning && view.face_up.leaf == 1, "the drag did not lift leaf 1");
    CurlParams pose = book_pose(&view, &leaf, &layout);
    spread = book_spread(&view);
    /* pulled back for the leaf */
    camera = book_camera(&spread, &pose, &leaf, &layout, VIEW_W, VIEW_H);
    push = book_camera_draw_push(VIEW_W, VIEW_H, &camera);
    int front = 0, back = 0;
    uint64_t seed = 777;
    for (int i = 0; i < 300; i++) {
        double x = rnd(&seed) * w, y = rnd(&seed) * h, p[3], n[3];
        mesh_curl_point(&pose, x, y, p, n);
        if (!project(push.view_proj.m, p, &px, &py) ||
            !book_pick(&view, NULL, &leaf, &layout, VIEW_W, VIEW_H, px, py, &hit))
            continue;
        bool shows_back = hit.side == 3;
        double u = shows_back ? 1.0 - x / w : x / w, v = y / h;
        if (hypot(hit.u - u, hit.v - v) > 1.0 / 1024.0)
            continue; /* hidden by another layer: test_pick_curl checks those */
        CHECK(s, hit.side == 2 || hit.side == 3, "the turning leaf picked as page %d", hit.side);
        front += hit.side == 2, back += shows_back;
    }
    CHECK(s, front > 50 && back > 10, "turning leaf: %d front and %d back picks", front, back);
}

/* The blocks of leaves under the flat pages (the stack edge), on every spread of the book and in
 * the headless poses: one under each flat page and nowhere else, drawn as an edge, its top that
 * page (one leaf under the turning leaf's plane, so the block never reaches the leaf), as deep as
 * the leaves on its side (on the right, with the BOOK_BLOCK_LEAVES blank ones after those
 * that turn), so that each turn moves one leaf's depth from the right block to the left; and deep
 * enough to see: the first spread's tail face at least 5 pixels tall in a 1280x720 view while a
 * leaf is in flight. */
static void test_book_blocks(CheckState *s)
{
    BookLeaf leaf = {.grid = {.width = MESH_PAGE_WIDTH, .height = MESH_PAGE_HEIGHT}};
    BookLayout layout = {0};
    GpuRenderer renderer = {0}; /* the draws only carry its buffers' handles */
    float w = leaf.grid.width, thickness = BOOK_STACK_STEP * w;
    MeshFlip flip;
    book_init_flip(&flip, &leaf, BOOK_PAGES, 0, false);
    for (int k = 0; k <= BOOK_LEAVES; k++) {
        CHECK(s, mesh_flip_goto(&flip, k), "the book did not open at spread %d", k);
        MeshFlipView view = mesh_flip_view(&flip);
        BookSpread spread = book_spread(&view);
        BookSpread headless[2] = {BOOK_SPREAD_FIRST_TURN, BOOK_SPREAD_BACKWARD_TURN};
        /* spread k has leaves 0 .. k-1 on the left; the headless poses' spreads after it */
        for (int h = 0; h < (k == 0 ? 3 : 1); h++) {
            const BookSpread *sp = h == 0 ? &spread : &headless[h - 1];
            int on_left = h == 0 ? k : sp->left ? sp->left_leaf + 1 : 0;
            int on_right = sp->right ? BOOK_LEAVES - sp->right_leaf + BOOK_BLOCK_LEAVES : 0;
            BookDraws draws;
            CurlParams pose = mesh_curl_pose(0.5f, 0.25f, w, leaf.grid.height);
            book_draws(sp, &pose, &leaf, &layout, &renderer, VIEW_W, VIEW_H, &draws);
            int flats[2] = {0, 0}, blocks[2] = {0, 0}; /* left, right */
            float flat_top[2] = {0, 0}, block_top[2] = {0, 0}, depth[2] = {0, 0};
            for (uint32_t i = 0; i < draws.count; i++) {
                const GpuDraw *d = &draws.draws[i];
                int side = d->push.model.v[0] > 0.0f;
                if (d->edge) {
                    CHECK(s, d->push.page.v[3] == (float)PC_DRAW_EDGE && !d->casts_shadow,
                          "spread %d/%d: a block not drawn as an edge", k, h);
                    blocks[side]++;
                    block_top[side] = d->push.model.v[3];
                    depth[side] = d->push.model.v[2];
                } else if (d->push.page.v[3] == (float)PC_DRAW_FLAT) {
                    flats[side]++;
                    flat_top[side] = d->push.model.v[3];
                }
            }
            int leaves[2] = {on_left, on_right};
            for (int side = 0; side < 2; side++) {
                CHECK(s, blocks[side] == flats[side] && flats[side] <= 1,
                      "spread %d/%d, %s: %d blocks under %d flat pages", k, h,
                      side ? "right" : "left", blocks[side], flats[side]);
                if (!blocks[side])
                    continue;
                float want = (float)leaves[side] * thickness;
                CHECK(s,
                      block_top[side] == flat_top[side] && block_top[side] <= -0.999f * thickness,
                      "spread %d/%d, %s: the block's top at %g, its page at %g", k, h,
                      side ? "right" : "left", (double)block_top[side], (double)flat_top[side]);
                CHECK(s, fabsf(depth[side] - want) < 1e-6f,
                      "spread %d/%d, %s: block %g deep, want %g (%d leaves on that side)", k, h,
                      side ? "right" : "left", (double)depth[side], (double)want, leaves[side]);
            }
            if (k == 0 && h == 0) {
                /* the right block's tail face, seen from the camera while a leaf is in flight (at
                 * rest the camera looks straight down: no face but the page's shows) */
                BookSpread flying = *sp;
                flying.lift = 1.0f;
                BookCameraBook camera = book_camera(&flying, NULL, &leaf, &layout, VIEW_W, VIEW_H);
                PcDrawPush push = book_camera_draw_push(VIEW_W, VIEW_H, &camera);
                double top[3] = {0.5 * w, 0.0, block_top[1]};
                double bottom[3] = {0.5 * w, 0.0, block_top[1] - depth[1]};
                float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
                bool seen = project(push.view_proj.m, top, &x0, &y0) &&
                            project(push.view_proj.m, bottom, &x1, &y1);
                CHECK(s, seen && y1 - y0 >= 5.0f,
                      "the first spread's stack edge is %.2f pixels tall in %dx%d, want 5",
                      (double)(y1 - y0), VIEW_W, VIEW_H);
            }
        }
    }
}

/* Coverage of a stroke: full inside, none outside, a one-texel ramp between, the area of the
 * capsule, the dirty rectangle around everything drawn, a page drawn whole the same as segment by
 * segment. */
static void test_raster(CheckState *s)
{
    enum { N = MESH_INK_RASTER_SIZE };
    static uint8_t image[N * N], again[N * N];
    memset(image, 0, sizeof image);
    MeshInkRect dirty = {0};
    const float width = 0.012f;
    double r = 0.5 * width * N; /* radius in texels */
    MeshInkPoint a = {0.25f, 0.5f, width}, b = {0.75f, 0.5f, width};
    mesh_ink_raster_segment(a, b, N, N, image, &dirty);
    double area = 0.0;
    int inside_bad = 0, outside_bad = 0, ramp = 0, outside_rect = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            uint8_t v = image[y * N + x];
            area += v / 255.0;
            double px = x + 0.5, py = y + 0.5, cx = fmin(fmax(px, 0.25 * N), 0.75 * N);
            double d = hypot(px - cx, py - 0.5 * N); /* distance to the segment's axis */
            inside_bad += d < r - 0.5 && v != 255;
            outside_bad += d > r + 0.5 && v != 0;
            ramp += v > 0 && v < 255;
            outside_rect += v && (x < (int)dirty.x0 || x >= (int)dirty.x1 || y < (int)dirty.y0 ||
                                  y >= (int)dirty.y1);
        }
    double want = 0.5 * N * 2.0 * r + PI * r * r;
    CHECK(s, inside_bad == 0 && outside_bad == 0, "%d texels inside not full, %d outside inked",
          inside_bad, outside_bad);
    CHECK(s, ramp > 1000, "no anti-aliasing ramp: %d partial texels", ramp);
    CHECK(s, fabs(area - want) < 0.01 * want, "stroke area %.1f texels, want %.1f", area, want);
    CHECK(s, outside_rect == 0 && dirty.x1 - dirty.x0 < N / 2 + 2 * r + 4,
          "dirty rectangle (%u %u)-(%u %u) misses %d inked texels or is too large", dirty.x0,
          dirty.y0, dirty.x1, dirty.y1, outside_rect);
    /* the stroke is where its points say: v = 0.5 is the image's middle row pair, u = 0.25 its
     * quarter column; the top edge is v = 1 */
    CHECK(s,
          image[(N / 2) * N + N / 4 + 8] == 255 && image[(N / 2 - 1) * N + N / 4 + 8] == 255 &&
              image[(N / 2) * N + N / 8] == 0,
          "the stroke is not where its points are");
    memset(image, 0, sizeof image);
    MeshInkPoint top = {0.5f, 0.99f, width};
    mesh_ink_raster_segment(top, top, N, N, image, NULL);
    double dot = 0.0;
    for (int i = 0; i < N * N; i++)
        dot += image[i] / 255.0;
    CHECK(s,
          fabs(dot - PI * r * r) < 0.03 * PI * r * r && image[10 * N + N / 2] == 255 &&
              image[(N - 11) * N + N / 2] == 0,
          "a dot near the top: area %.1f, want %.1f", dot, PI * r * r);

    /* On a layer as tall as an A4 page (its texels square on the paper) a dot is still round:
     * its area is that of its circle, it reaches as far down as across, and it sits at v's
     * fraction of the layer's height. */
    enum { TALL = N * 1448 / 1024 };
    static uint8_t tall[N * TALL];
    memset(tall, 0, sizeof tall);
    MeshInkPoint centre = {0.5f, 0.25f, 0.04f};
    mesh_ink_raster_segment(centre, centre, N, TALL, tall, NULL);
    double round = 0.0, rr = 0.5 * 0.04 * N;
    int across = 0, down = 0, cy = (int)(0.75 * TALL);
    for (int i = 0; i < N * TALL; i++)
        round += tall[i] / 255.0;
    for (int x = 0; x < N; x++)
        across += tall[cy * N + x] > 127;
    for (int y = 0; y < TALL; y++)
        down += tall[y * N + N / 2] > 127;
    CHECK(s,
          fabs(round - PI * rr * rr) < 0.02 * PI * rr * rr && abs(across - down) <= 1 &&
              abs(across - (int)lrint(2.0 * rr)) <= 1,
          "a dot on a tall layer: area %.1f (want %.1f), %d texels across, %d down", round,
          PI * rr * rr, across, down);

    /* any segment (steep, shallow, vertical, horizontal, tapering, off the edge) gives what every
     * texel's own distance gives, to the last level's rounding: the rasteriser visits only its
     * rows' runs but misses none */
    uint64_t rs = 4242;
    int wrong = 0, rounding = 0;
    for (int k = 0; k < 16; k++) {
        MeshInkPoint p = {(float)rnd(&rs), (float)rnd(&rs), 0.002f + 0.04f * (float)rnd(&rs)};
        MeshInkPoint q = {(float)(p.u + 0.2 * (rnd(&rs) - 0.5)),
                          (float)(p.v + 0.2 * (rnd(&rs) - 0.5)), 0.002f + 0.04f * (float)rnd(&rs)};
        if (k % 8 == 0)
            q.u = p.u; /* vertical */
        if (k % 8 == 1)
            q.v = p.v; /* horizontal */
        memset(image, 0, sizeof image);
        mesh_ink_raster_segment(p, q, N, N, image, NULL);
        double ax = p.u * N, ay = (1.0 - p.v) * N, bx = q.u * N, by = (1.0 - q.v) * N;
        double ra = 0.5 * p.width * N, rb = 0.5 * q.width * N;
        double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                double px = x + 0.5, py = y + 0.5;
                double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
                t = fmin(fmax(t, 0.0), 1.0);
                double edge = ra + t * (rb - ra) - hypot(px - ax - t * dx, py - ay - t * dy);
                uint8_t exact = (uint8_t)lrint(fmin(fmax(edge + 0.5, 0.0), 1.0) * 255.0);
                int diff = abs((int)image[y * N + x] - (int)exact);
                wrong += diff > 1 || (exact && !image[y * N + x]);
                rounding += diff == 1;
            }
    }
    CHECK(s, wrong == 0, "%d texels differ from their own distance's coverage (%d by one level)",
          wrong, rounding);

    /* a page of random strokes drawn whole is the same as drawn segment by segment */
    MeshInk ink;
    mesh_ink_init(&ink, 1);
    uint64_t seed = 99;
    random_ink(&ink, &seed);
    mesh_ink_raster_side(&ink.sides[0], N, N, image);
    memset(again, 0, sizeof again);
    size_t inked = 0;
    for (size_t k = 0; k < ink.sides[0].count; k++) {
        const MeshInkStroke *st = &ink.sides[0].strokes[k];
        for (size_t i = 0; i < st->count; i++)
            mesh_ink_raster_segment(st->points[i ? i - 1 : 0], st->points[i], N, N, again, NULL);
    }
    for (int i = 0; i < N * N; i++)
        inked += image[i] != 0;
    CHECK(s, !memcmp(image, again, sizeof image) && inked > 10000,
          "a page drawn whole differs from its segments (%zu texels inked)", inked);
    mesh_ink_free(&ink);
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* the raster's helper threads too */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A hang's catcher for the heaviest pages below (each well under a second of CPU; the first took
 * 75 s before); the sanitizers slow every instruction several times. */
#ifdef PAGECURL_SANITIZED
#define HEAVIEST_PAGE_CPU_S 60.0
#else
#define HEAVIEST_PAGE_CPU_S 10.0
#endif

/* The heaviest page sides a notebook's limits allow are drawn in a bounded time (CPU time printed):
 * one segment of the widest ink from corner to corner and back 250,000 times (5 strokes of
 * 100,000 points: a 5.5 MB notebook that took 75 s to draw) draws exactly what it draws once
 * there and back; 500,000 segments each of its own across the left half of the side are drawn at
 * a coarser scale, their ink in the left half and none beyond its reach in the right. */
static void test_raster_bounded(CheckState *s)
{
    enum { W = MESH_INK_RASTER_SIZE, H = 1448, N = 100000 };
    uint8_t *image = malloc((size_t)W * H), *once = malloc((size_t)W * H);
    MeshInkPoint *pts = malloc(N * sizeof *pts);
    MeshInk ink, there_and_back;
    CHECK(s, image && once && pts && mesh_ink_init(&ink, 1) && mesh_ink_init(&there_and_back, 1),
          "out of memory");
    if (!image || !once || !pts)
        return;
    for (int i = 0; i < N; i++)
        pts[i] = (MeshInkPoint){(float)(i % 2), (float)(i % 2), MESH_INK_MAX_WIDTH};
    for (int k = 0; k < 5; k++)
        mesh_ink_stroke_add(&ink, 0, pts, N);
    mesh_ink_stroke_add(&there_and_back, 0, pts, 3);
    double t0 = cpu_seconds();
    uint32_t scale = mesh_ink_raster_side(&ink.sides[0], W, H, image);
    double repeated = cpu_seconds() - t0;
    mesh_ink_raster_side(&there_and_back.sides[0], W, H, once);
    mesh_ink_free(&there_and_back);
    printf("raster: one segment 500,000 times over drawn in %.3f s of CPU at scale %u\n", repeated,
           scale);
    size_t inked = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        inked += once[i] != 0;
    CHECK(s, scale == 1 && inked > 10000 && !memcmp(image, once, (size_t)W * H),
          "one segment repeated: scale %u, or not what it draws once (%zu texels)", scale, inked);
    CHECK(s, repeated < HEAVIEST_PAGE_CPU_S, "one segment repeated: %.1f s of CPU", repeated);

    mesh_ink_reset(&ink);
    uint64_t seed = 5;
    for (int k = 0; k < 5; k++) {
        for (int i = 0; i < N; i++)
            pts[i] = (MeshInkPoint){(float)(0.45 * rnd(&seed)), (float)rnd(&seed),
                                    i % 2 ? MESH_INK_MIN_WIDTH : MESH_INK_MAX_WIDTH};
        mesh_ink_stroke_add(&ink, 0, pts, N);
    }
    t0 = cpu_seconds();
    scale = mesh_ink_raster_side(&ink.sides[0], W, H, image);
    double spread = cpu_seconds() - t0;
    /* the ink reaches 0.45 + half the widest width (and the scale's blur) across */
    size_t left = 0, right = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            left += x < W * 2 / 5 && image[(size_t)y * W + x] > 128;
            right += x >= W * 3 / 5 && image[(size_t)y * W + x] != 0;
        }
    printf("raster: 500,000 segments of their own drawn in %.3f s of CPU at scale %u\n", spread,
           scale);
    CHECK(s, scale > 1 && spread < HEAVIEST_PAGE_CPU_S, "500,000 segments: scale %u, %.1f s of CPU",
          scale, spread);
    CHECK(s, left > (size_t)W * H * 2 / 5 * 9 / 10 && right == 0,
          "500,000 segments in the left half: %zu of its texels inked, %zu in the right", left,
          right);
    mesh_ink_free(&ink);
    free(pts);
    free(image);
    free(once);
}

/* The ink texture's CPU side kept in step stroke by stroke (new segments only, undo and clear
 * drawing the side again, the mips under what changed) is the same, every level of every layer
 * byte for byte, as one drawn from scratch; and every texel a step changes lies inside the
 * rectangle it marks for upload. On a layer of odd sizes (the mips round down). */
static bool ink_texture_same(CheckState *s, const BookInkTexture *a, const MeshInk *ink,
                             const char *step)
{
    BookInkTexture fresh;
    CHECK(s, book_ink_texture_init(&fresh, a->layers, a->width, a->height), "out of memory");
    book_ink_texture_sync(&fresh, ink);
    bool same = !memcmp(fresh.coverage, a->coverage, a->chain * a->layers);
    CHECK(s, same, "ink texture after %s differs from one drawn from scratch", step);
    book_ink_texture_free(&fresh);
    return same;
}

static void test_ink_texture(CheckState *s)
{
    enum { W = 200, H = 283, LAYERS = 3 };
    BookInkTexture tex;
    MeshInk ink;
    CHECK(s, book_ink_texture_init(&tex, LAYERS, W, H) && mesh_ink_init(&ink, LAYERS),
          "out of memory");
    uint8_t *before = malloc(tex.chain * LAYERS);
    int outside = 0, steps = 0;
    uint64_t seed = 7;
    for (int step = 0; step < 60; step++) {
        int page = step % 7 == 6 ? 2 : step / 20;
        if (step % 10 == 0)
            mesh_ink_stroke_begin(&ink, page,
                                  (MeshInkPoint){(float)rnd(&seed), (float)rnd(&seed), 0.02f});
        else if (step == 25 || step == 47)
            mesh_ink_undo(&ink);
        else if (step == 38)
            mesh_ink_clear(&ink, 1);
        else if (step % 10 == 9)
            mesh_ink_stroke_end(&ink);
        else if (step % 7 == 6)
            mesh_ink_stroke_add(&ink, 2,
                                (MeshInkPoint[]){{(float)rnd(&seed), (float)rnd(&seed), 0.01f}}, 1);
        else
            mesh_ink_stroke_extend(&ink, (MeshInkPoint){(float)rnd(&seed), (float)rnd(&seed),
                                                        0.002f + 0.03f * (float)rnd(&seed)});
        memcpy(before, tex.coverage, tex.chain * LAYERS);
        book_ink_texture_sync(&tex, &ink);
        for (uint32_t l = 0; l < LAYERS; l++) {
            const uint8_t *now = book_ink_texture_level(&tex, l, 0);
            const uint8_t *was = before + (now - tex.coverage);
            MeshInkRect d = tex.dirty[l];
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++)
                    outside += now[y * W + x] != was[y * W + x] &&
                               (x < d.x0 || x >= d.x1 || y < d.y0 || y >= d.y1);
            tex.dirty[l] = (MeshInkRect){0}; /* as if uploaded */
        }
        char name[32];
        snprintf(name, sizeof name, "step %d", step);
        steps += ink_texture_same(s, &tex, &ink, name);
    }
    CHECK(s, outside == 0, "%d changed texels outside the rectangles marked for upload", outside);
    CHECK(s, steps == 60 && mesh_ink_stroke_count(&ink) > 3, "%d of 60 steps matched, %zu strokes",
          steps, mesh_ink_stroke_count(&ink));
    free(before);
    mesh_ink_free(&ink);
    book_ink_texture_free(&tex);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_ink OUTDIR\n");
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0755) != 0 && errno != EEXIST) {
        perror(out_dir);
        return 1;
    }
    CheckState s = {0};
    test_strokes(&s);
    test_notebook(&s);
    test_undo_clear(&s);
    test_notebook_lock(&s);
    test_notebook_writer(&s);
    test_raster(&s);
    test_raster_bounded(&s);
    test_ink_texture(&s);
    test_pick_curl(&s);
    test_pick_book(&s);
    test_book_blocks(&s);
    return check_finish(&s, "test_ink");
}
