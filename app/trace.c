/* SPDX-License-Identifier: MIT */
#include "trace.h"

#include "../files/input.h"
#include "number.h"

#include "../files/safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest line we read; an event needs ~40 characters. */
#define TRACE_LINE 256
/* Largest trace file read: hours of input at 1000 events a second. */
#define TRACE_MAX_BYTES (64u << 20)
/* A trace longer than a day of input is not a trace. */
#define TRACE_MAX_TIME 86400.0

static const char *const DEVICES[] = {"mouse", "finger", "key", "ink", "zoom"};
static const char *const ACTIONS[] = {"down",   "move", "up",    "next",   "prev", "undo",
                                      "clear",  "home", "end",   "by",     "pan",  "fit",
                                      "toggle", "goto", "width", "scroll", "font"};
#define DEVICE_COUNT (int)(sizeof DEVICES / sizeof DEVICES[0])
/* A zoom event's factor, and a pan's step in fractions of the view. */
#define TRACE_ZOOM_FACTOR 8.0
#define TRACE_PAN_MAX     2.0
#define ACTION_COUNT      (int)(sizeof ACTIONS / sizeof ACTIONS[0])
/* The largest page a goto names: a book's most (mesh/ink.h); a page past a book's end opens its
 * last spread. */
#define TRACE_MAX_PAGE 1000000

bool app_trace_inks(const AppTrace *trace)
{
    for (size_t i = 0; i < trace->count; i++)
        if (trace->events[i].device == PAGECURL_INPUT_INK ||
            (trace->events[i].device == PAGECURL_INPUT_KEY &&
             trace->events[i].action == PAGECURL_INPUT_UNDO))
            return true;
    return false;
}

bool app_trace_add(AppTrace *trace, const pagecurl_input_event *event)
{
    if (trace->count == trace->capacity) {
        size_t cap = trace->capacity ? 2 * trace->capacity : 64;
        pagecurl_input_event *grown = realloc(trace->events, cap * sizeof *grown);
        if (!grown)
            return false;
        trace->events = grown;
        trace->capacity = cap;
    }
    trace->events[trace->count++] = *event;
    return true;
}

void app_trace_free(AppTrace *trace)
{
    free(trace->events);
    *trace = (AppTrace){0};
}

static int lookup(const char *word, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(word, names[i]))
            return i;
    return -1;
}

static bool parse_number(const char *word, double lo, double hi, double *out)
{
    double v;
    if (!app_number_decimal(word, &v) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A zoom event's fields: by F [X Y], pan DX DY, fit, toggle X Y, width [X Y], scroll DY. */
static bool parse_zoom(char **words, int n, double t, int action, pagecurl_input_event *e,
                       const char **why)
{
    *e = (pagecurl_input_event){
        .time = t, .device = PAGECURL_INPUT_ZOOM, .action = action, .amount = 1.0f};
    double a = 0.0, b = 0.0, f = 1.0;
    switch (action) {
    case PAGECURL_INPUT_FIT:
        return n == 3 ? true : ((*why = "zoom fit has no position"), false);
    case PAGECURL_INPUT_BY:
        if (n != 6 && n != 4)
            return (*why = "zoom by needs FACTOR [X Y]"), false;
        if (!parse_number(words[3], 1.0 / TRACE_ZOOM_FACTOR, TRACE_ZOOM_FACTOR, &f))
            return (*why = "bad zoom factor: 0.125..8"), false;
        e->amount = (float)f;
        if (n == 4) /* about the page's centre */
            return (e->x = e->y = NAN), true;
        words++, n--;
        break;
    case PAGECURL_INPUT_WIDTH:
        if (n == 3) /* the right-hand page */
            return (e->x = e->y = NAN), true;
        if (n != 5)
            return (*why = "zoom width takes X Y or nothing"), false;
        break;
    case PAGECURL_INPUT_SCROLL:
        if (n != 4)
            return (*why = "zoom scroll needs DY"), false;
        if (!parse_number(words[3], -TRACE_PAN_MAX, TRACE_PAN_MAX, &b))
            return (*why = "bad scroll: DY is in view heights, -2..2"), false;
        e->amount = (float)b;
        return true;
    case PAGECURL_INPUT_PAN:
        if (n != 5)
            return (*why = "zoom pan needs DX DY"), false;
        if (!parse_number(words[3], -TRACE_PAN_MAX, TRACE_PAN_MAX, &a) ||
            !parse_number(words[4], -TRACE_PAN_MAX, TRACE_PAN_MAX, &b))
            return (*why = "bad pan: DX and DY are fractions of the window, -2..2"), false;
        e->x = a, e->y = b;
        return true;
    case PAGECURL_INPUT_TOGGLE:
        if (n != 5)
            return (*why = "zoom toggle needs X Y"), false;
        break;
    default:
        return (*why = "zoom goes by, pan, fit, toggle, width or scroll"), false;
    }
    if (!parse_number(words[3], 0.0, 1.0, &a) || !parse_number(words[4], 0.0, 1.0, &b))
        return (*why = "bad position: X and Y are fractions of the window, 0..1"), false;
    e->x = a, e->y = b, e->amount = (float)f;
    return true;
}

/* "0 notebook start DIGEST" into the trace, before any event and once. */
static bool parse_notebook(char **words, int n, double t, AppTrace *trace, const char **why)
{
    if (n != 4 || strcmp(words[2], "start"))
        return (*why = "a notebook line is 0 notebook start DIGEST"), false;
    if (t != 0.0 || trace->count || trace->notebook_known)
        return (*why = "the notebook's start comes once, at 0, before every event"), false;
    size_t len = strlen(words[3]);
    if (len != 16 || strspn(words[3], "0123456789abcdef") != len)
        return (*why = "a notebook's digest is 16 hexadecimal digits (0-9, a-f)"), false;
    trace->notebook_digest = strtoull(words[3], NULL, 16);
    trace->notebook_known = true;
    return true;
}

/* One line into an event; false with the reason. Blank and comment lines, and the notebook's
 * (into `trace`), give `*skip`. */
static bool parse_line(char *line, double last_time, AppTrace *trace, pagecurl_input_event *e,
                       bool *skip, const char **why)
{
    *skip = false;
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *words[6];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save))
        if (n < 6)
            words[n++] = w;
        else
            return (*why = "too many fields"), false;
    if (n == 0)
        return (*skip = true), true;
    if (n < 3)
        return (*why = "truncated event: expected TIME DEVICE ACTION [X Y]"), false;
    double t;
    if (!parse_number(words[0], 0.0, TRACE_MAX_TIME, &t))
        return (*why = "bad time"), false;
    if (t < last_time)
        return (*why = "time runs backwards"), false;
    if (!strcmp(words[1], "notebook"))
        return (*skip = true), parse_notebook(words, n, t, trace, why);
    int device = lookup(words[1], DEVICES, DEVICE_COUNT),
        action = lookup(words[2], ACTIONS, ACTION_COUNT);
    if (device < 0)
        return (*why = "unknown device (mouse, finger, key, ink, zoom)"), false;
    if (action < 0)
        return (*why = "unknown event (down, move, up, next, prev, home, end, goto, font, undo, "
                       "clear, by, pan, fit, toggle, width, scroll)"),
               false;
    if (device == PAGECURL_INPUT_ZOOM)
        return parse_zoom(words, n, t, action, e, why);
    if ((action >= PAGECURL_INPUT_BY && action <= PAGECURL_INPUT_TOGGLE) ||
        action == PAGECURL_INPUT_WIDTH || action == PAGECURL_INPUT_SCROLL)
        return (*why = "only zoom goes by, pan, fit, toggle, width or scroll"), false;
    bool key = device == PAGECURL_INPUT_KEY;
    bool key_action = action == PAGECURL_INPUT_NEXT || action == PAGECURL_INPUT_PREV ||
                      action == PAGECURL_INPUT_UNDO || action == PAGECURL_INPUT_HOME ||
                      action == PAGECURL_INPUT_END || action == PAGECURL_INPUT_GOTO ||
                      action == PAGECURL_INPUT_FONT;
    if (key != key_action)
        return (*why = key ? "keys do next, prev, home, end, goto, font or undo"
                           : "pointers go down, move or up"),
               false;
    if (action == PAGECURL_INPUT_GOTO) {
        double page;
        *e =
            (pagecurl_input_event){.time = t, .device = device, .action = action, .pressure = 1.0f};
        if (n != 4 || !parse_number(words[3], 1.0, (double)TRACE_MAX_PAGE, &page) ||
            page != (int)page)
            return (*why = "key goto needs a page number, 1..1000000"), false;
        e->page = (int)page;
        return true;
    }
    if (action == PAGECURL_INPUT_FONT) {
        double points;
        *e =
            (pagecurl_input_event){.time = t, .device = device, .action = action, .pressure = 1.0f};
        if (n != 4 || !parse_number(words[3], 6.0, 48.0, &points))
            return (*why = "key font needs a text size, 6..48 points"), false;
        e->amount = (float)points;
        return true;
    }
    if (action == PAGECURL_INPUT_CLEAR && device != PAGECURL_INPUT_INK)
        return (*why = "only ink clears a page"), false;
    *e = (pagecurl_input_event){.time = t, .device = device, .action = action, .pressure = 1.0f};
    if (key)
        return n == 3 ? true : ((*why = "a key event has no position"), false);
    bool pressed = device == PAGECURL_INPUT_INK &&
                   (action == PAGECURL_INPUT_DOWN || action == PAGECURL_INPUT_MOVE);
    if (n < 5)
        return (*why = "truncated event: a pointer event needs X Y"), false;
    if (n > (pressed ? 6 : 5))
        return (*why = "too many fields"), false;
    double x, y, p = 1.0;
    if (!parse_number(words[3], 0.0, 1.0, &x) || !parse_number(words[4], 0.0, 1.0, &y))
        return (*why = "bad position: X and Y are fractions of the window, 0..1"), false;
    if (n == 6 && !parse_number(words[5], 0.0, 1.0, &p))
        return (*why = "bad pressure: 0..1"), false;
    e->x = x, e->y = y, e->pressure = (float)p;
    return true;
}

bool app_trace_parse(const char *text, size_t len, const char *name, AppTrace *out, char *message,
                     size_t size)
{
    *out = (AppTrace){0};
    double last = 0.0;
    size_t at = 0;
    bool inking = false; /* an ink stroke is down: its moves and its up follow */
    for (long number = 1; at < len; number++) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        char line[TRACE_LINE];
        const char *why = NULL;
        if (end - at >= sizeof line)
            why = "line too long";
        else if (memchr(text + at, '\0', end - at))
            why = "a NUL byte in the line";
        if (why) {
            snprintf(message, size, "%s:%ld: %s", name, number, why);
            app_trace_free(out);
            return false;
        }
        memcpy(line, text + at, end - at);
        line[end - at] = '\0';
        at = end + 1;
        pagecurl_input_event e;
        bool skip;
        if (!parse_line(line, last, out, &e, &skip, &why)) {
            snprintf(message, size, "%s:%ld: %s", name, number, why);
            app_trace_free(out);
            return false;
        }
        if (skip)
            continue;
        if (e.device == PAGECURL_INPUT_INK && !inking &&
            (e.action == PAGECURL_INPUT_MOVE || e.action == PAGECURL_INPUT_UP)) {
            snprintf(message, size,
                     "%s:%ld: ink %s with no ink down before it (a stroke begins "
                     "with down)",
                     name, number, e.action == PAGECURL_INPUT_MOVE ? "move" : "up");
            app_trace_free(out);
            return false;
        }
        if (e.device == PAGECURL_INPUT_INK && e.action != PAGECURL_INPUT_CLEAR)
            inking = e.action != PAGECURL_INPUT_UP;
        last = e.time;
        if (!app_trace_add(out, &e)) {
            snprintf(message, size, "%s: out of memory", name);
            app_trace_free(out);
            return false;
        }
    }
    return true;
}

bool app_trace_load(const char *path, AppTrace *out, char *message, size_t size)
{
    *out = (AppTrace){0};
    char why[128];
    FILE *f = files_open(path, why, sizeof why);
    if (!f) {
        snprintf(message, size, "--replay %s: %s", path, why);
        return false;
    }
    char *text;
    size_t len;
    FilesRead r = files_read(f, TRACE_MAX_BYTES, &text, &len);
    bool ok = r == FILES_READ_OK;
    if (r == FILES_READ_TOO_LARGE)
        snprintf(message, size, "--replay %s: larger than %u MiB", path, TRACE_MAX_BYTES >> 20);
    else if (r == FILES_READ_NO_MEMORY)
        snprintf(message, size, "--replay %s: out of memory while reading it", path);
    else if (r == FILES_READ_ERROR)
        snprintf(message, size, "--replay %s: cannot read it (%s)", path,
                 errno ? strerror(errno) : "read error");
    fclose(f);
    ok = ok && app_trace_parse(text, len, path, out, message, size);
    free(text);
    return ok;
}

/* An event's line, '\n' ended, into `line`: its length (0 where it does not fit). */
static size_t event_line(const pagecurl_input_event *e, char *line, size_t size)
{
    int n;
    if (e->device == PAGECURL_INPUT_KEY && e->action == PAGECURL_INPUT_GOTO)
        n = snprintf(line, size, "%.4f key goto %d\n", e->time, e->page);
    else if (e->device == PAGECURL_INPUT_KEY && e->action == PAGECURL_INPUT_FONT)
        n = snprintf(line, size, "%.4f key font %g\n", e->time, e->amount);
    else if (e->device == PAGECURL_INPUT_KEY ||
             (e->device == PAGECURL_INPUT_ZOOM && e->action == PAGECURL_INPUT_FIT))
        n = snprintf(line, size, "%.4f %s %s\n", e->time, DEVICES[e->device], ACTIONS[e->action]);
    else if (e->device == PAGECURL_INPUT_ZOOM && e->action == PAGECURL_INPUT_BY && isnan(e->x))
        n = snprintf(line, size, "%.4f zoom by %.6f\n", e->time, e->amount);
    else if (e->device == PAGECURL_INPUT_ZOOM && e->action == PAGECURL_INPUT_BY)
        n = snprintf(line, size, "%.4f zoom by %.6f %.6f %.6f\n", e->time, e->amount, e->x, e->y);
    else if (e->device == PAGECURL_INPUT_ZOOM && e->action == PAGECURL_INPUT_WIDTH && isnan(e->x))
        n = snprintf(line, size, "%.4f zoom width\n", e->time);
    else if (e->device == PAGECURL_INPUT_ZOOM && e->action == PAGECURL_INPUT_SCROLL)
        n = snprintf(line, size, "%.4f zoom scroll %.6f\n", e->time, e->amount);
    else if (e->device == PAGECURL_INPUT_INK &&
             (e->action == PAGECURL_INPUT_DOWN || e->action == PAGECURL_INPUT_MOVE))
        n = snprintf(line, size, "%.4f ink %s %.6f %.6f %.4f\n", e->time, ACTIONS[e->action], e->x,
                     e->y, e->pressure);
    else
        n = snprintf(line, size, "%.4f %s %s %.6f %.6f\n", e->time, DEVICES[e->device],
                     ACTIONS[e->action], e->x, e->y);
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

static bool write_head(FILE *f, const void *user)
{
    const AppTrace *head = user;
    fputs("# pagecurl input trace: TIME DEVICE ACTION [X Y [PRESSURE]] (docs/formats.md)\n", f);
    if (head->notebook_known)
        fprintf(f, "0 notebook start %016llx\n", (unsigned long long)head->notebook_digest);
    return true;
}

bool app_trace_record_start(AppTraceRecorder *r, const char *path, const AppTrace *head,
                            char *message, size_t size)
{
    *r = (AppTraceRecorder){.fd = -1, .path = path};
    /* the head written and synced under a temporary name, renamed into place: the file at the
     * name is a trace from here on; the descriptor handed back is that file's (its lock, which
     * only marks it as no killed run's leftover, goes with it) */
    FilesSafeWrite how = {.durable = true, .lock = &r->fd};
    if (!files_safe_write_with(path, how, write_head, head, message, size)) {
        r->fd = -1;
        return false;
    }
    struct stat st;
    if (fstat(r->fd, &st) != 0) {
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
        close(r->fd);
        r->fd = -1;
        return false;
    }
    r->bytes = st.st_size;
    return true;
}

void app_trace_record(AppTraceRecorder *r, const pagecurl_input_event *event)
{
    if (r->fd < 0 || r->failed)
        return;
    char line[TRACE_LINE];
    size_t n = event_line(event, line, sizeof line);
    /* what a replay would refuse is not written: the file stays a trace --replay reads */
    const char *over = !n                                         ? "an event too long for a line"
                       : event->time > TRACE_MAX_TIME             ? "a trace is at most a day long"
                       : (uint64_t)r->bytes + n > TRACE_MAX_BYTES ? "a trace is at most 64 MiB"
                                                                  : NULL;
    if (over) {
        r->failed = true;
        snprintf(r->message, sizeof r->message,
                 "%s: %s; the input after its first %zu events was not recorded", r->path, over,
                 r->count);
        return;
    }
    size_t done = 0;
    int why = 0;
    while (done < n) {
        ssize_t w = pwrite(r->fd, line + done, n - done, r->bytes + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            why = w < 0 ? errno : ENOSPC;
            break;
        }
        done += (size_t)w;
    }
    if (done == n) {
        r->bytes += (off_t)n;
        r->count++;
        return;
    }
    /* a line written in part is cut off again: the file ends with the last whole event */
    if (done && ftruncate(r->fd, r->bytes) != 0)
        why = why ? why : errno;
    r->failed = true;
    snprintf(r->message, sizeof r->message,
             "cannot write %s: %s; the input after its first %zu events was not recorded", r->path,
             strerror(why ? why : EIO), r->count);
}

bool app_trace_record_end(AppTraceRecorder *r, char *message, size_t size)
{
    if (r->fd < 0)
        return true;
    bool ok = !r->failed;
    if (!ok)
        snprintf(message, size, "%s", r->message);
    else if (fsync(r->fd) != 0) {
        ok = false;
        snprintf(message, size, "cannot write %s: %s", r->path, strerror(errno));
    }
    close(r->fd);
    r->fd = -1;
    return ok;
}
