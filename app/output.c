#include "output.h"

#include "../shaders/shared.h"

#include <errno.h>
#include <stb_image_write.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool app_output_atomic(const char *path, AppWriteFn write, const void *user, char *message,
                       size_t size)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 32);
    if (!tmp) {
        snprintf(message, size, "cannot write %s: out of memory", path);
        return false;
    }
    snprintf(tmp, len + 32, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    bool ok = write(f, user);
    int saved = errno;
    ok = !ferror(f) && ok;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        snprintf(message, size, "cannot write %s: %s", path,
                 saved ? strerror(saved) : "write failed");
        unlink(tmp);
    }
    free(tmp);
    return ok;
}

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
    return app_output_atomic(path, write_png, &job, message, size);
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
    return app_output_atomic(path, write_jpeg, &job, message, size);
}

typedef struct ObjJob {
    const PageGrid *grid;
    const float *vertices;
} ObjJob;

static bool write_obj(FILE *f, const void *user)
{
    const ObjJob *job = user;
    const PageGrid *g = job->grid;
    size_t n = g->vertex_count;
    fprintf(f, "# pagecurl grid %u %u page %.9g %.9g\n", g->nx, g->ny, g->width, g->height);
    for (size_t k = 0; k < n; k++) {
        const float *v = &job->vertices[k * PC_VERTEX_FLOATS];
        fprintf(f, "v %.9g %.9g %.9g\n", v[0], v[1], v[2]);
    }
    for (size_t k = 0; k < n; k++) {
        const float *v = &job->vertices[k * PC_VERTEX_FLOATS];
        fprintf(f, "vt %.9g %.9g\n", v[6], v[7]);
    }
    for (size_t k = 0; k < n; k++) {
        const float *v = &job->vertices[k * PC_VERTEX_FLOATS];
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

bool app_output_obj(const char *path, const PageGrid *grid, const float *vertices, char *message,
                    size_t size)
{
    ObjJob job = {grid, vertices};
    return app_output_atomic(path, write_obj, &job, message, size);
}
