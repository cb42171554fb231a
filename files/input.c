/* SPDX-License-Identifier: MIT */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *files_kind(unsigned mode)
{
    return S_ISDIR(mode)    ? "a folder"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISLNK(mode)  ? "a symbolic link"
                            : "not a regular file";
}

FILE *files_open(const char *path, char *why, size_t size)
{
    return files_openat(AT_FDCWD, path, why, size);
}

FILE *files_openat(int dir, const char *path, char *why, size_t size)
{
    int fd = openat(dir, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        struct stat link;
        /* "No such file or directory" for a name the user sees listed: a link to nothing */
        bool linked = (e == ENOENT || e == ELOOP) &&
                      fstatat(dir, path, &link, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(link.st_mode);
        snprintf(why, size, "%s",
                 !linked      ? strerror(e)
                 : e == ELOOP ? "a symbolic link that loops"
                              : "a symbolic link to a file that is not there");
        errno = e;
        return NULL;
    }
    struct stat st;
    int e = 0;
    if (fstat(fd, &st) != 0)
        e = errno, snprintf(why, size, "%s", strerror(e));
    else if (!S_ISREG(st.st_mode)) {
        e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        snprintf(why, size, "%s, not a regular file", files_kind(st.st_mode));
    } else {
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
            e = errno, snprintf(why, size, "%s", strerror(e));
    }
    FILE *f = e ? NULL : fdopen(fd, "rb");
    if (!f) {
        if (!e)
            e = errno, snprintf(why, size, "%s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

FilesRead files_read(FILE *f, size_t max, char **text, size_t *len)
{
    char *buf = NULL;
    size_t used = 0, cap = 0;
    FilesRead result = FILES_READ_OK;
    for (;;) {
        if (used == cap) {
            cap = cap ? 2 * cap : 4096;
            char *grown = cap <= max ? realloc(buf, cap) : NULL;
            if (!grown) {
                result = cap <= max ? FILES_READ_NO_MEMORY : FILES_READ_TOO_LARGE;
                break;
            }
            buf = grown;
        }
        errno = 0;
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
    }
    if (result == FILES_READ_OK && ferror(f))
        result = FILES_READ_ERROR;
    if (result != FILES_READ_OK) {
        free(buf);
        buf = NULL, used = 0;
    }
    *text = buf;
    *len = used;
    return result;
}
