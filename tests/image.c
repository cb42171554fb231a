/* SPDX-License-Identifier: MIT */
#include "image.h"

#include <stb_image.h>
#include <string.h>

Image image_load(const char *path)
{
    Image img = {0};
    int channels;
    img.rgba = stbi_load(path, &img.w, &img.h, &channels, 4);
    return img;
}

void image_free(Image *img)
{
    stbi_image_free(img->rgba);
    *img = (Image){0};
}

bool image_same(const Image *a, const Image *b)
{
    return a->rgba && b->rgba && a->w == b->w && a->h == b->h &&
           memcmp(a->rgba, b->rgba, (size_t)a->w * a->h * 4) == 0;
}
