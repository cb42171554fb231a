/* SPDX-License-Identifier: MIT */
#include "output.h"

#include "../files/safe_write.h"

#include <errno.h>
#include <sys/stat.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct PngJob {
    uint32_t width, height;
    const uint8_t *rgba;
} PngJob;

static void png_sink(void *context, void *data, int size)
{
    fwrite(data, 1, (size_t)size, context);
}

static bool write_png(FILE *f, const void *user)
{
    const PngJob *job = user;
    errno = 0;
    return stbi_write_png_to_func(png_sink, f, (int)job->width, (int)job->height, 4, job->rgba,
                                  (int)job->width * 4) != 0;
}

bool app_output_png(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                    char *message, size_t size)
{
    PngJob job = {width, height, rgba};
    return files_safe_write(path, false, write_png, &job, message, size);
}

/* Quality 90: no visible blocks on the page's print, a third of the PNG's size. */
#define OUTPUT_JPEG_QUALITY 90

static bool write_jpeg(FILE *f, const void *user)
{
    const PngJob *job = user;
    return stbi_write_jpg_to_func(png_sink, f, (int)job->width, (int)job->height, 4, job->rgba,
                                  OUTPUT_JPEG_QUALITY) != 0;
}

bool app_output_jpeg(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                     char *message, size_t size)
{
    PngJob job = {width, height, rgba};
    return files_safe_write(path, false, write_jpeg, &job, message, size);
}

static bool write_obj(FILE *f, const void *user)
{
    const pagecurl_leaf *g = user;
    size_t n = g->vertex_count;
    fprintf(f, "# pagecurl grid %u %u page %.9g %.9g\n", g->columns, g->rows, g->width, g->height);
    for (size_t k = 0; k < n; k++) {
        const float *v = &g->vertices[k * 8];
        fprintf(f, "v %.9g %.9g %.9g\n", v[0], v[1], v[2]);
    }
    for (size_t k = 0; k < n; k++) {
        const float *v = &g->vertices[k * 8];
        fprintf(f, "vt %.9g %.9g\n", v[6], v[7]);
    }
    for (size_t k = 0; k < n; k++) {
        const float *v = &g->vertices[k * 8];
        fprintf(f, "vn %.9g %.9g %.9g\n", v[3], v[4], v[5]);
    }
    for (size_t t = 0; t < g->triangle_count; t++) {
        /* OBJ counts from 1 */
        unsigned long a = g->indices[3 * t] + 1ul, b = g->indices[3 * t + 1] + 1ul,
                      c = g->indices[3 * t + 2] + 1ul;
        if (fprintf(f, "f %lu/%lu/%lu %lu/%lu/%lu %lu/%lu/%lu\n", a, a, a, b, b, b, c, c, c) < 0)
            return false;
    }
    return true;
}

bool app_output_obj(const char *path, const pagecurl_leaf *leaf, char *message, size_t size)
{
    return files_safe_write(path, false, write_obj, leaf, message, size);
}

/* Whether two paths name one file: the same real path, or the same inode where both exist. */
static bool same_file(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return true;
    char *ca = files_safe_write_canonical(a), *cb = files_safe_write_canonical(b);
    bool same = ca && cb && !strcmp(ca, cb);
    struct stat sa, sb;
    if (!same && ca && cb && stat(ca, &sa) == 0 && stat(cb, &sb) == 0)
        same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    free(ca);
    free(cb);
    return same;
}

/* Whether `path` names a file --frames-out writes: a frame's name (as app_output_frame_path
 * gives it; below opts->frames where that is given, any number otherwise, as a replay's length is
 * not known yet) in the folder --frames-out names. */
static bool is_frame(const AppOptions *opts, const char *path)
{
    char *real = files_safe_write_canonical(path),
         *dir = files_safe_write_canonical(opts->frames_out);
    const char *slash = real ? strrchr(real, '/') : NULL;
    bool frame = false;
    if (slash && dir && strlen(dir) == (size_t)(slash - real) &&
        !strncmp(real, dir, (size_t)(slash - real))) {
        unsigned long f = 0;
        char name[64];
        int used = 0;
        if (sscanf(slash + 1, "frame-%lu.png%n", &f, &used) == 1 && !slash[1 + used] &&
            f <= UINT32_MAX && (!opts->frames || f < opts->frames)) {
            app_output_frame_path("", (uint32_t)f, name, sizeof name);
            frame = !strcmp(slash, name); /* frame-0001.png, not frame-1.png */
        }
    }
    free(real);
    free(dir);
    return frame;
}

void app_output_frame_path(const char *dir, uint32_t f, char *path, size_t size)
{
    snprintf(path, size, "%s/frame-%04u.png", dir, f);
}

int app_output_check(const AppOptions *opts, char *message, size_t size)
{
    /* outputs first; the trace read is last, and may not be any of them */
    const struct {
        const char *flag, *path;
    } files[] = {
        {"--screenshot", opts->screenshot},
        {"--export-obj", opts->export_obj},
        {"--json", opts->json},
        {"--csv", opts->csv},
        {"--record", opts->record},
        {"--notebook", opts->notebook},
        {"--replay", opts->replay},
    };
    size_t n = sizeof files / sizeof files[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n && files[i].path; j++)
            if (files[j].path && same_file(files[i].path, files[j].path)) {
                snprintf(message, size, "%s and %s name one file (%s): %s", files[i].flag,
                         files[j].flag, files[j].path,
                         j + 1 == n ? "it would be overwritten while it is read"
                                    : "one would overwrite the other");
                return 2;
            }
    for (size_t i = 0; i < n && opts->frames_out; i++)
        if (files[i].path && is_frame(opts, files[i].path)) {
            snprintf(message, size, "--frames-out %s and %s name one file (%s): %s",
                     opts->frames_out, files[i].flag, files[i].path,
                     i + 1 == n ? "it would be overwritten while it is read"
                                : "one would overwrite the other");
            return 2;
        }
    for (size_t i = 0; i + 2 < n; i++) /* not the notebook, not the trace */
        if (files[i].path && !files_safe_write_check(files[i].path, message, size))
            return 1;
    return 0;
}

int app_output_check_book(const AppOptions *opts, bool (*holds)(const void *book, const char *path),
                          const void *book, const char *name, char *message, size_t size)
{
    char frame[4096] = "";
    if (opts->frames_out)
        app_output_frame_path(opts->frames_out, 1, frame, sizeof frame);
    const struct {
        const char *flag, *path, *shown;
    } files[] = {
        {"--screenshot", opts->screenshot, opts->screenshot},
        {"--export-obj", opts->export_obj, opts->export_obj},
        {"--json", opts->json, opts->json},
        {"--csv", opts->csv, opts->csv},
        {"--record", opts->record, opts->record},
        {"--notebook", opts->notebook, opts->notebook},
        {"--frames-out", opts->frames_out ? frame : NULL, opts->frames_out},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i].path && holds(book, files[i].path)) {
            snprintf(message, size,
                     "%s %s: that would write into the book being read (%s); write elsewhere",
                     files[i].flag, files[i].shown, name);
            return 2;
        }
    return 0;
}
