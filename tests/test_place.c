/* SPDX-License-Identifier: MIT */
/* The reader's place kept between the window's runs (app/place.c), in a state folder of the
 * test's own (XDG_STATE_HOME, never the user's): where the folder is, a place written and read
 * back, another book's identity not given it, a page the book lacks, every malformed or hostile
 * file (no crash, no hang, no place), a link not followed, a state folder that cannot be made,
 * and the count bounded with the least recently written removed. Files only, no device. */
#define _GNU_SOURCE /* utimensat, mkfifo */
#include "../app/ascii.h"
#include "../app/hud.h"
#include "../app/place.h"
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct Ctx {
    char root[512];   /* the test's own folder */
    char places[600]; /* root/state/pagecurl/places */
} Ctx;

static bool write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, n, f) == n;
    return f && fclose(f) == 0 && ok;
}

/* What `path` holds (at most size - 1 bytes), "" where it cannot be read. */
static void read_text(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(out, 1, size - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
}

static int count_files(const char *folder)
{
    DIR *dir = opendir(folder);
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));)
        n += e->d_name[0] != '.';
    if (dir)
        closedir(dir);
    return n;
}

static void check_folder(CheckState *s, const Ctx *c)
{
    char out[4096], state[700];
    snprintf(state, sizeof state, "%s/state", c->root);
    setenv("XDG_STATE_HOME", state, 1);
    CHECK(s, app_place_folder(out, sizeof out) && !strcmp(out, c->places), "XDG_STATE_HOME: '%s'",
          out);
    /* a relative XDG_STATE_HOME is ignored, as the specification says: the home's default */
    setenv("XDG_STATE_HOME", "relative/state", 1);
    setenv("HOME", "/home/reader", 1);
    CHECK(s,
          app_place_folder(out, sizeof out) &&
              !strcmp(out, "/home/reader/.local/state/pagecurl/places"),
          "a relative XDG_STATE_HOME: '%s'", out);
    unsetenv("XDG_STATE_HOME");
    unsetenv("HOME");
    CHECK(s, !app_place_folder(out, sizeof out), "no XDG_STATE_HOME, no HOME: '%s'", out);
    AppPlace p;
    app_place_open(&p, "pdf-9-0123", 9);
    p.at = 3;
    char message[512] = "";
    CHECK(s, p.path[0] == '\0' && p.read == 0 && app_place_keep(&p, true, message, sizeof message),
          "no state folder: path '%s', %s", p.path, message);
    setenv("XDG_STATE_HOME", state, 1);
}

/* Written, read back; written again only where it changed or at the end; another identity (a
 * different file at the same path) not given it; a page the book lacks is none. */
static void check_round_trip(CheckState *s, const Ctx *c)
{
    char message[4608] = "", file[700], text[256];
    AppPlace p;
    app_place_open(&p, "pdf-9-0123abcd", 9);
    snprintf(file, sizeof file, "%s/pdf-9-0123abcd", c->places);
    CHECK(s, !strcmp(p.path, file) && p.read == 0, "a new book: path '%s', page %d", p.path,
          p.read);
    p.at = 6;
    CHECK(s, app_place_keep(&p, false, message, sizeof message), "keep: %s", message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 6\n"), "the file holds '%s'", text);
    struct stat st;
    CHECK(s, stat(c->places, &st) == 0 && (st.st_mode & 0777) == 0700, "the folder's mode %o",
          (unsigned)(st.st_mode & 0777));
    app_place_open(&p, "pdf-9-0123abcd", 9);
    CHECK(s, p.read == 6, "read back: page %d", p.read);
    /* the same page again: no write until the end */
    unlink(file);
    p.at = 6;
    app_place_keep(&p, false, message, sizeof message);
    CHECK(s, access(file, F_OK) != 0, "the same page written again before the end");
    app_place_keep(&p, true, message, sizeof message);
    CHECK(s, access(file, F_OK) == 0, "the end does not write the place");
    p.at = 8;
    app_place_keep(&p, false, message, sizeof message);
    app_place_open(&p, "pdf-9-0123abcd", 9);
    CHECK(s, p.read == 8, "a new page: read back %d", p.read);
    /* the view kept with the page: fitted to a page's width and how far down, or a zoom */
    p.at = 6, p.view = (AppPlaceView){.fit = APP_PLACE_WIDTH, .page = 7, .down = 0.25f};
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "keep a view: %s", message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 6\nview width 7 0.2500\n"),
          "the file holds '%s'", text);
    app_place_open(&p, "pdf-9-0123abcd", 9);
    CHECK(s, !p.read_text[0], "a place without one read back a place in the text: '%s'",
          p.read_text);
    CHECK(s,
          p.read == 6 && p.read_view.fit == APP_PLACE_WIDTH && p.read_view.page == 7 &&
              p.read_view.down == 0.25f,
          "read back: page %d, view %d page %d down %g", p.read, (int)p.read_view.fit,
          p.read_view.page, (double)p.read_view.down);
    p.at = 8,
    p.view = (AppPlaceView){.fit = APP_PLACE_ZOOM, .zoom = 2.5f, .x = 0.125f, .y = -0.25f};
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "keep a zoom: %s", message);
    app_place_open(&p, "pdf-9-0123abcd", 9);
    CHECK(s,
          p.read == 8 && p.read_view.fit == APP_PLACE_ZOOM && p.read_view.zoom == 2.5f &&
              p.read_view.x == 0.125f && p.read_view.y == -0.25f,
          "read back: page %d, view %d zoom %g (%g, %g)", p.read, (int)p.read_view.fit,
          (double)p.read_view.zoom, (double)p.read_view.x, (double)p.read_view.y);
    p.at = 8, p.view = (AppPlaceView){0}; /* the fitted view again: no view line */
    app_place_keep(&p, true, message, sizeof message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 8\n"), "the fitted view: '%s'", text);
    /* another book (what another file at the book's path is: another identity) has no place */
    app_place_open(&p, "pdf-9-0123abce", 9);
    CHECK(s, p.read == 0, "another identity given page %d", p.read);
    /* a page past the book's end is no place */
    app_place_open(&p, "pdf-9-0123abcd", 7);
    CHECK(s, p.read == 0, "page 8 of a 7-page book: %d", p.read);
    /* a page outside the book is never written */
    app_place_open(&p, "pdf-9-0123abcd", 9);
    p.at = 10;
    app_place_keep(&p, true, message, sizeof message);
    p.at = 0;
    app_place_keep(&p, true, message, sizeof message);
    app_place_open(&p, "pdf-9-0123abcd", 9);
    CHECK(s, p.read == 8, "a page outside the book was written: %d", p.read);
    /* identities that cannot name a file keep no place */
    static const char *const bad[] = {"", ".hidden", "..", "a/b", "../x", "tab\tbed", NULL};
    for (int i = 0; bad[i]; i++) {
        app_place_open(&p, bad[i], 9);
        CHECK(s, !p.path[0], "identity '%s' keeps a place at %s", bad[i], p.path);
    }
    app_place_open(&p, NULL, 9);
    CHECK(s, !p.path[0], "no identity keeps a place at %s", p.path);
    char longest[200];
    memset(longest, 'a', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    app_place_open(&p, longest, 9);
    CHECK(s, !p.path[0], "a 199-byte identity keeps a place");
}

/* Malformed files are no place, and the next write replaces them. */
/* A reflowable book's place: its place in the text written last and read back; read by a
 * layout with fewer pages, the page (and the view) past its end is none, the text's place kept;
 * a new page without one asked writes none. */
static void check_text_place(CheckState *s, const Ctx *c)
{
    char message[4608] = "", file[700], text[256];
    AppPlace p;
    app_place_open(&p, "epub-0123abcd", 40);
    snprintf(file, sizeof file, "%s/epub-0123abcd", c->places);
    p.at = 30, p.view = (AppPlaceView){.fit = APP_PLACE_WIDTH, .page = 31, .down = 0.5f};
    snprintf(p.text, sizeof p.text, "t1 3 12 4567");
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "keep: %s", message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 30\nview width 31 0.5000\ntext t1 3 12 4567\n"),
          "the file holds '%s'", text);
    app_place_open(&p, "epub-0123abcd", 40);
    CHECK(s, p.read == 30 && p.read_view.page == 31 && !strcmp(p.read_text, "t1 3 12 4567"),
          "read back: page %d, view's page %d, text '%s'", p.read, p.read_view.page, p.read_text);
    app_place_open(&p, "epub-0123abcd", 20); /* laid out to fewer, longer pages */
    CHECK(s,
          p.read == 0 && p.read_view.fit == APP_PLACE_FITTED &&
              !strcmp(p.read_text, "t1 3 12 4567"),
          "read by a 20-page layout: page %d, view %d, text '%s'", p.read, (int)p.read_view.fit,
          p.read_text);
    p.at = 12;
    CHECK(s, app_place_keep(&p, false, message, sizeof message), "keep: %s", message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 12\n"), "the file holds '%s'", text);
    /* a place in the text that would not read back is not written */
    p.at = 13;
    snprintf(p.text, sizeof p.text, "t1\t3");
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "keep: %s", message);
    read_text(file, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 13\n"), "the file holds '%s'", text);
    unlink(file);
}

/* The HUD's enlargement: 2 where it fits above the book's head, else 1, but 1.5 on a large
 * screen (its letters legible: a 1600 x 900 window's head row leaves room for scale 1 alone). */
static void check_hud_scale(CheckState *s)
{
    AppHud hud = {.shown = true};
    snprintf(hud.toast, sizeof hud.toast, "the ink drawn is kept in a notebook");
    float w, h;
    app_hud_size(&hud, &w, &h);
    uint32_t roomy = (uint32_t)(8.0f + 2.0f * h + 8.0f) + 1, tight = (uint32_t)(h + 20.0f);
    float big = app_hud_scale(&hud, roomy, 1600, 900, 8.0f),
          large = app_hud_scale(&hud, tight, 1600, 900, 8.0f),
          small = app_hud_scale(&hud, tight, 800, 500, 8.0f),
          narrow = app_hud_scale(&hud, tight, (uint32_t)(1.2f * w), 900, 8.0f);
    CHECK(s, big == 2.0f && large == 1.5f && small == 1.0f && narrow == 1.0f,
          "HUD scale: room above the head %g (want 2), 1600x900 with none %g (1.5), 800x500 %g "
          "(1), a window too narrow for 1.5 %g (1)",
          (double)big, (double)large, (double)small, (double)narrow);
}

static void check_malformed(CheckState *s, const Ctx *c)
{
#define TEXT(t)                                                                                    \
    {                                                                                              \
        t, sizeof t - 1                                                                            \
    }
    static const struct {
        const char *text;
        size_t n;
    } bad[] = {
        TEXT(""),
        TEXT("pagecurl-place 1\npage \n"),
        TEXT("page 6\n"),
        TEXT("pagecurl-place 1\npage 6"),
        TEXT("pagecurl-place 1\npage 6\nx"),
        TEXT("pagecurl-place 1\npage 6\n\n"),
        TEXT("pagecurl-place 2\npage 6\n"),
        TEXT("pagecurl-place 1\npage 0\n"),
        TEXT("pagecurl-place 1\npage -3\n"),
        TEXT("pagecurl-place 1\npage +3\n"),
        TEXT("pagecurl-place 1\npage 3 \n"),
        TEXT("pagecurl-place 1\npage 99999999999999999999999\n"),
        TEXT("pagecurl-place 1\npage 6\0\n"),
        /* views that are not one */
        TEXT("pagecurl-place 1\npage 6\nview width 10 0.5\n"),
        TEXT("pagecurl-place 1\npage 6\nview width 6 1.5\n"),
        TEXT("pagecurl-place 1\npage 6\nview width 6 -0.1\n"),
        TEXT("pagecurl-place 1\npage 6\nview width 6\n"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 0.5 0 0\n"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 9 0 0\n"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 2 nan 0\n"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 2 0 inf\n"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 2 0 0"),
        TEXT("pagecurl-place 1\npage 6\nview zoom 2 0 0 7\n"),
        TEXT("pagecurl-place 1\npage 6\nview fit 2\n"),
        TEXT("pagecurl-place 1\npage 6\nview width 6 0.5\nmore\n"),
        /* places in the text that are not one: the page with them is not read either */
        TEXT("pagecurl-place 1\npage 6\ntext \n"),
        TEXT("pagecurl-place 1\npage 6\ntext t1 1\t2 3\n"),
        TEXT("pagecurl-place 1\npage 6\ntext t1 1 2 3"),
        TEXT("pagecurl-place 1\npage 6\ntext t1 1 2 3\nview width 6 0.5\n"),
        TEXT("pagecurl-place 1\npage 6\ntext t1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 "
             "20\n"),
        TEXT("pagecurl-place 1\npage 99\n"),
        TEXT("pagecurl-place 1\npage 1000001\ntext t1 1 2 3\n"),
        /* longer than a place: what it starts with is not read */
        TEXT("pagecurl-place 1\npage 6\n                                                     "
             "                                                                                "
             "                                                                                "),
    };
#undef TEXT
    char file[700], message[4608] = "", text[128];
    snprintf(file, sizeof file, "%s/pdf-4-bad", c->places);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(s, write_text(file, bad[i].text, bad[i].n), "cannot write %s", file);
        AppPlace p;
        app_place_open(&p, "pdf-4-bad", 9);
        CHECK(s, p.read == 0 && !p.read_text[0], "malformed place %zu read as page %d, text '%s'",
              i, p.read, p.read_text);
        p.at = 4;
        CHECK(s, app_place_keep(&p, false, message, sizeof message), "over malformed %zu: %s", i,
              message);
        read_text(file, text, sizeof text);
        CHECK(s, !strcmp(text, "pagecurl-place 1\npage 4\n"), "over malformed %zu: '%s'", i, text);
    }
}

/* A folder, a FIFO and a link at a place's name: none is read (the FIFO without waiting for a
 * writer); a link is not written through, a folder is said and not replaced. */
static void check_hostile(CheckState *s, const Ctx *c)
{
    char file[700], target[700], message[4608] = "", text[128];
    AppPlace p;
    snprintf(file, sizeof file, "%s/pdf-5-fifo", c->places);
    CHECK(s, mkfifo(file, 0600) == 0, "cannot make the FIFO %s", file);
    app_place_open(&p, "pdf-5-fifo", 9);
    CHECK(s, p.read == 0, "a FIFO read as page %d", p.read);
    unlink(file);

    snprintf(file, sizeof file, "%s/pdf-5-link", c->places);
    snprintf(target, sizeof target, "%s/elsewhere.txt", c->root);
    CHECK(s, write_text(target, "pagecurl-place 1\npage 3\n", 24), "cannot write %s", target);
    CHECK(s, symlink(target, file) == 0, "cannot link %s", file);
    app_place_open(&p, "pdf-5-link", 9);
    CHECK(s, p.read == 0, "a link followed: page %d", p.read);
    p.at = 5;
    CHECK(s, app_place_keep(&p, false, message, sizeof message), "over a link: %s", message);
    read_text(target, text, sizeof text);
    CHECK(s, !strcmp(text, "pagecurl-place 1\npage 3\n"), "written through the link: '%s'", text);
    struct stat st;
    CHECK(s, lstat(file, &st) == 0 && S_ISREG(st.st_mode), "the link is still one");

    snprintf(file, sizeof file, "%s/pdf-5-dir", c->places);
    CHECK(s, mkdir(file, 0700) == 0, "cannot make %s", file);
    app_place_open(&p, "pdf-5-dir", 9);
    CHECK(s, p.read == 0, "a folder read as page %d", p.read);
    p.at = 2;
    bool kept = app_place_keep(&p, false, message, sizeof message);
    CHECK(s, !kept && strstr(message, file), "over a folder: kept %d, '%s'", kept, message);
    message[0] = '\0';
    p.at = 3;
    kept = app_place_keep(&p, true, message, sizeof message);
    CHECK(s, kept && !message[0], "a failed place said again, or written: '%s'", message);
    CHECK(s, stat(file, &st) == 0 && S_ISDIR(st.st_mode), "the folder was replaced");
    rmdir(file);

    /* a state folder that cannot be made: said, once */
    char blocked[700];
    snprintf(blocked, sizeof blocked, "%s/blocked", c->root);
    CHECK(s, write_text(blocked, "x", 1), "cannot write %s", blocked);
    setenv("XDG_STATE_HOME", blocked, 1);
    app_place_open(&p, "pdf-5-blocked", 9);
    p.at = 2;
    kept = app_place_keep(&p, false, message, sizeof message);
    CHECK(s, !kept && strstr(message, blocked), "under a file: kept %d, '%s'", kept, message);
    snprintf(blocked, sizeof blocked, "%s/state", c->root);
    setenv("XDG_STATE_HOME", blocked, 1);
}

/* At most APP_PLACE_BOOKS places: a new one removes the least recently written, never itself. */
static void check_bounded(CheckState *s, const Ctx *c)
{
    /* an empty folder of places of its own, filled with APP_PLACE_BOOKS written a second apart */
    char state[700], places[800], file[900], message[4608] = "";
    snprintf(state, sizeof state, "%s/bounded", c->root);
    snprintf(places, sizeof places, "%s/pagecurl/places", state);
    setenv("XDG_STATE_HOME", state, 1);
    AppPlace p;
    app_place_open(&p, "first", 9);
    p.at = 1;
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "the first place: %s", message);
    unlink(p.path);
    for (int i = 0; i < APP_PLACE_BOOKS; i++) {
        snprintf(file, sizeof file, "%s/book-%04d", places, i);
        if (!write_text(file, "pagecurl-place 1\npage 2\n", 24))
            break;
        /* the oldest is book-0000, whatever the order the folder lists them in */
        struct timespec times[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
        utimensat(AT_FDCWD, file, times, 0);
    }
    snprintf(file, sizeof file, "%s/.hidden", places);
    write_text(file, "x", 1); /* not a place: neither counted nor removed */
    CHECK(s, count_files(places) == APP_PLACE_BOOKS, "%d places", count_files(places));
    /* a place rewritten is no new one: nothing goes */
    app_place_open(&p, "book-0000", 9);
    p.at = 3;
    app_place_keep(&p, true, message, sizeof message);
    CHECK(s, count_files(places) == APP_PLACE_BOOKS, "a place rewritten: %d places",
          count_files(places));
    /* a new one: the least recently written (now book-0001) goes */
    app_place_open(&p, "book-new", 9);
    p.at = 4;
    CHECK(s, app_place_keep(&p, true, message, sizeof message), "the new place: %s", message);
    snprintf(file, sizeof file, "%s/book-0001", places);
    bool oldest = access(file, F_OK) != 0;
    snprintf(file, sizeof file, "%s/book-0000", places);
    bool rewritten = access(file, F_OK) == 0;
    snprintf(file, sizeof file, "%s/.hidden", places);
    bool hidden = access(file, F_OK) == 0;
    CHECK(s, count_files(places) == APP_PLACE_BOOKS && oldest && rewritten && hidden,
          "a new place: %d places, the oldest removed %d, the one rewritten kept %d, a hidden "
          "file kept %d",
          count_files(places), oldest, rewritten, hidden);
    app_place_open(&p, "book-new", 9);
    CHECK(s, p.read == 4, "the new place read back: %d", p.read);
    snprintf(state, sizeof state, "%s/state", c->root);
    setenv("XDG_STATE_HOME", state, 1);
}

/* A book's titles and labels as the HUD's ASCII letters draw them (app/ascii.h): the nearest
 * ASCII for spaces, dashes, quotes, an ellipsis and Latin letters with marks, '?' for the rest
 * (one a character, a malformed byte one too), cut where the output is full. */
static void check_ascii(CheckState *s)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"8.5.\xc2\xa0"
         "Feedback",
         "8.5. Feedback"},                                      /* a no-break space */
        {"Part\xe2\x80\x94Two \xe2\x80\x93 x", "Part-Two - x"}, /* em and en dashes */
        {"\xe2\x80\x9cquoted\xe2\x80\x9d it\xe2\x80\x99s", "\"quoted\" it's"},
        {"and so on\xe2\x80\xa6", "and so on..."},
        {"Caf\xc3\xa9 \xc3\x9c"
         "ber na\xc3\xaf"
         "ve",
         "Cafe Uber naive"},
        {"co\xc2\xadop", "coop"},             /* a soft hyphen goes */
        {"\xe6\x97\xa5\xe6\x9c\xac", "??"},   /* other characters: one '?' each */
        {"bad \xc3 end \xff", "bad ? end ?"}, /* malformed bytes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[64];
        app_ascii(cases[i].in, out, sizeof out);
        CHECK(s, !strcmp(out, cases[i].want), "ascii case %zu: '%s', want '%s'", i, out,
              cases[i].want);
    }
    char small[6];
    app_ascii("and so on\xe2\x80\xa6", small, sizeof small);
    CHECK(s, !strcmp(small, "and s"), "cut at 6 bytes: '%s'", small);
}

int main(int argc, char **argv)
{
    CheckState s = {0};
    Ctx c;
    snprintf(c.root, sizeof c.root, "%s", argc > 1 ? argv[1] : "place-out");
    /* the test's folder afresh: no place of an earlier run */
    char command[1200];
    snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", c.root, c.root);
    if (system(command) != 0) {
        fprintf(stderr, "test_place: cannot make %s\n", c.root);
        return 1;
    }
    if (c.root[0] != '/') { /* XDG_STATE_HOME must be absolute */
        char cwd[256];
        if (!getcwd(cwd, sizeof cwd))
            return 1;
        char rel[512];
        snprintf(rel, sizeof rel, "%s", c.root);
        snprintf(c.root, sizeof c.root, "%s/%.250s", cwd, rel);
    }
    snprintf(c.places, sizeof c.places, "%s/state/pagecurl/places", c.root);
    check_folder(&s, &c);
    check_round_trip(&s, &c);
    check_malformed(&s, &c);
    check_text_place(&s, &c);
    check_hud_scale(&s);
    check_hostile(&s, &c);
    check_bounded(&s, &c);
    check_ascii(&s);
    return check_finish(&s, "place");
}
