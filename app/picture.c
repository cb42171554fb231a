/* SPDX-License-Identifier: MIT */
#include "picture.h"

#include "output.h"

#include <fcntl.h>
#include <stb_image_resize.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

bool app_picture_write(const char *path, uint32_t width, uint32_t height, const uint8_t *rgba,
                       char *message, size_t size)
{
    switch (app_picture_format(path)) {
    case APP_PICTURE_PNG:
        return app_output_png(path, width, height, rgba, message, size);
    case APP_PICTURE_JPEG:
        return app_output_jpeg(path, width, height, rgba, message, size);
    case APP_PICTURE_NONE:
        break;
    }
    snprintf(message, size, "cannot write %s: the name must end in .png, .jpg or .jpeg", path);
    return false;
}

bool app_picture_shrink(const uint8_t *rgba, uint32_t width, uint32_t height, uint8_t *out,
                        uint32_t out_width, uint32_t out_height)
{
    return stbir_resize_uint8_srgb(rgba, (int)width, (int)height, 0, out, (int)out_width,
                                   (int)out_height, 0, 4, 3, 0) != 0;
}

bool app_picture_claim(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    return fd >= 0 && close(fd) == 0;
}
