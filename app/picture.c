#include "picture.h"

#include "output.h"

#include <fcntl.h>
#include <stb_image_write.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Quality 90: no visible blocks on the page's print, a third of the PNG's size. */
#define PICTURE_JPEG_QUALITY 90

AppPictureFormat app_picture_format(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot || dot[1] == '\0')
        return APP_PICTURE_NONE;
    if (!strcasecmp(dot, ".png"))
        return APP_PICTURE_PNG;
    if (!strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg"))
        return APP_PICTURE_JPEG;
    return APP_PICTURE_NONE;
}

typedef struct JpegJob {
    uint32_t width, height;
    const uint8_t *rgba;
} JpegJob;

static void jpeg_sink(void *context, void *data, int size)
{
    fwrite(data, 1, (size_t)size, context);
}

static bool write_jpeg(FILE *f, const void *user)
{
    const JpegJob *job = user;
    return stbi_write_jpg_to_func(jpeg_sink, f, (int)job->width, (int)job->height, 4, job->rgba,
                                  PICTURE_JPEG_QUALITY) != 0;
}

bool app_picture_write(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                       char *message, size_t size)
{
    switch (app_picture_format(path)) {
    case APP_PICTURE_PNG:
        return app_output_png(path, width, height, rgba, message, size);
    case APP_PICTURE_JPEG:
        return app_output_atomic(path, write_jpeg, &(JpegJob){width, height, rgba}, message, size);
    case APP_PICTURE_NONE:
        break;
    }
    snprintf(message, size, "cannot write %s: the name must end in .png, .jpg or .jpeg", path);
    return false;
}

bool app_picture_claim(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    return fd >= 0 && close(fd) == 0;
}
