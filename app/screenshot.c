/* SPDX-License-Identifier: MIT */
#include "screenshot.h"
#include "say.h"

#include "picture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool app_screenshot_record(const AppVk *vk, VkCommandBuffer cmd, AppScreenshot *shot,
                           const AppSwapchain *sc, uint32_t index, char *message, size_t size)
{
    shot->taken = false;
    if (!sc->readable)
        return true;
    VkDeviceSize bytes = (VkDeviceSize)sc->extent.width * sc->extent.height * 4;
    if (!shot->pixels.buffer || shot->pixels.size != bytes) {
        app_vk_buffer_destroy(vk, &shot->pixels);
        if (!app_vk_buffer_create(vk, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, "window screenshot",
                                  &shot->pixels, message, size))
            return false;
    }
    app_vk_copy_to_host(cmd, sc->images[index], sc->extent, shot->pixels.buffer);
    shot->taken = true;
    shot->extent = sc->extent;
    shot->format = sc->format;
    return true;
}

void app_screenshot_destroy(const AppVk *vk, AppScreenshot *shot)
{
    app_vk_buffer_destroy(vk, &shot->pixels);
    shot->taken = false;
}

uint8_t *app_screenshot_rgba(const AppScreenshot *shot, char *message, size_t size)
{
    VkFormat format = shot->format;
    bool bgra = format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_B8G8R8A8_UNORM;
    if (!shot->taken) {
        snprintf(message, size, "the window's images cannot be read back");
        return NULL;
    }
    if (!bgra && format != VK_FORMAT_R8G8B8A8_SRGB && format != VK_FORMAT_R8G8B8A8_UNORM) {
        snprintf(message, size, "the window's pixel format is not 8-bit RGBA");
        return NULL;
    }
    size_t count = (size_t)shot->extent.width * shot->extent.height;
    uint8_t *rgba = malloc(count * 4);
    if (!rgba) {
        snprintf(message, size, "out of memory");
        return NULL;
    }
    memcpy(rgba, shot->pixels.mapped, count * 4); /* coherent memory: nothing to invalidate */
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = &rgba[4 * i];
        if (bgra) {
            uint8_t b = p[0];
            p[0] = p[2], p[2] = b;
        }
        p[3] = 255; /* the window is opaque, whatever the alpha the frame left */
    }
    return rgba;
}

/* Numbered names taken in one folder at most. */
#define SCREENSHOT_NUMBERS 9999

/* Claims the first free pagecurl-NNNN.png in `dir` (with its '/'; "" for the current folder): true
 * with its name in path; false where the book would hold it (*in_book set: the check the command
 * line's outputs get, pagecurl_book_holds) or no name can be claimed (errno at the cause, EEXIST
 * when all are taken). */
static bool claim_in(const char *dir, const pagecurl_book *book, char *path, size_t size,
                     bool *in_book)
{
    *in_book = false;
    for (unsigned n = 1; n <= SCREENSHOT_NUMBERS; n++) {
        snprintf(path, size, "%spagecurl-%04u.png", dir, n);
        if (pagecurl_book_holds(book, path)) {
            *in_book = true;
            return false;
        }
        if (app_picture_claim(path))
            return true;
        if (errno != EEXIST)
            return false;
    }
    errno = EEXIST;
    return false;
}

/* The user's pictures folder, with its '/', where it is a folder: $XDG_PICTURES_DIR, else the one
 * ${XDG_CONFIG_HOME:-~/.config}/user-dirs.dirs names (a desktop's own, ~/Bilder in German), else
 * ~/Pictures. False where there is none. */
static bool pictures_folder(char *dir, size_t size)
{
    const char *home = getenv("HOME"), *env = getenv("XDG_PICTURES_DIR");
    char found[4096] = "";
    if (env && env[0] == '/')
        snprintf(found, sizeof found, "%s", env);
    if (!found[0] && home && home[0] == '/') {
        char config[4096], line[4096];
        const char *xdg = getenv("XDG_CONFIG_HOME");
        if (xdg && xdg[0] == '/')
            snprintf(config, sizeof config, "%s/user-dirs.dirs", xdg);
        else
            snprintf(config, sizeof config, "%s/.config/user-dirs.dirs", home);
        FILE *f = fopen(config, "r");
        /* lines of the form XDG_PICTURES_DIR="$HOME/Pictures" or ="/absolute/path" */
        while (f && !found[0] && fgets(line, sizeof line, f)) {
            static const char key[] = "XDG_PICTURES_DIR=\"";
            char *value = !strncmp(line, key, sizeof key - 1) ? line + sizeof key - 1 : NULL;
            char *end = value ? strchr(value, '"') : NULL;
            if (!end)
                continue;
            *end = '\0';
            if (!strncmp(value, "$HOME/", 6))
                snprintf(found, sizeof found, "%s/%s", home, value + 6);
            else if (value[0] == '/')
                snprintf(found, sizeof found, "%s", value);
        }
        if (f)
            fclose(f);
        if (!found[0])
            snprintf(found, sizeof found, "%s/Pictures", home);
    }
    struct stat st;
    if (!found[0] || stat(found, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    size_t n = strlen(found);
    return (size_t)snprintf(dir, size, "%s%s", found, found[n - 1] == '/' ? "" : "/") < size;
}

/* `path` for the window, short: under the home folder as ~/..., else as it is. */
static void shown_path(const char *path, char *out, size_t size)
{
    const char *home = getenv("HOME");
    size_t n = home ? strlen(home) : 0;
    if (n > 1 && !strncmp(path, home, n) && path[n] == '/')
        snprintf(out, size, "~%s", path + n);
    else
        snprintf(out, size, "%s", path);
}

void app_screenshot_save(const AppScreenshot *shot, const pagecurl_book *book, const char *next_to,
                         char *said, size_t said_size)
{
    char path[4096], message[4200];
    snprintf(said, said_size, "no screenshot (see the terminal)");
    uint8_t *rgba = app_screenshot_rgba(shot, message, sizeof message);
    if (!rgba) {
        app_say(stderr, "no screenshot: %s", message);
        return;
    }
    char dir[4096] = "", where[4200];
    const char *slash = next_to ? strrchr(next_to, '/') : NULL;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - next_to) + 1, next_to);
    snprintf(where, sizeof where, "%s%s", dir[0] ? "the folder " : "the current folder", dir);
    bool in_book, claimed = claim_in(dir, book, path, sizeof path, &in_book);
    /* the book's own folder (F12 in a shell cd'd into it) takes no screenshot: it would become a
     * page of the book; the user's pictures folder does instead */
    bool moved = false;
    if (!claimed && in_book) {
        char pictures[4096];
        moved = pictures_folder(pictures, sizeof pictures);
        if (!moved) {
            app_say(stderr,
                    "no screenshot: %s is the book being read and there is no pictures folder "
                    "(XDG_PICTURES_DIR or ~/Pictures) to save it in instead",
                    where);
            snprintf(said, said_size, "no screenshot: this folder is the book; no ~/Pictures");
            free(rgba);
            return;
        }
        claimed = claim_in(pictures, book, path, sizeof path, &in_book);
        if (!claimed && in_book) {
            app_say(stderr, "no screenshot: both %s and %s are the book being read", where,
                    pictures);
            snprintf(said, said_size, "no screenshot: this folder and ~/Pictures are the book");
            free(rgba);
            return;
        }
    }
    if (!claimed) {
        app_say(stderr, "no screenshot: cannot write %s: %s", path, strerror(errno));
    } else if (!app_picture_write(path, shot->extent.width, shot->extent.height, rgba, message,
                                  sizeof message)) {
        remove(path);
        app_say(stderr, "%s", message);
    } else if (moved) {
        app_say(stdout, "screenshot written to %s (%s is the book being read)", path, where);
        fflush(stdout); /* a test waits for the line */
        char shown[4096];
        shown_path(path, shown, sizeof shown);
        snprintf(said, said_size, "screenshot written to %s (this folder is the book)", shown);
    } else {
        app_say(stdout, "screenshot written to %s", path);
        fflush(stdout); /* a test waits for the line */
        const char *name = strrchr(path, '/');
        snprintf(said, said_size, "screenshot written to %s", name ? name + 1 : path);
    }
    free(rgba);
}
