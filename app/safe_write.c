#define _GNU_SOURCE /* mkostemp */
#include "safe_write.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed before a chain is taken for a loop (the kernel's own limit). */
#define MAX_LINKS 40

/* The folder part of `path` ("." when it has none), malloc'd. */
static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *dir = malloc(n + 1);
    if (dir) {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

char *app_safe_write_target(const char *path)
{
    char *at = strdup(path);
    for (int hops = 0; at && hops <= MAX_LINKS; hops++) {
        struct stat st;
        if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
            return at;
        char link[PATH_MAX];
        ssize_t n = readlink(at, link, sizeof link - 1);
        if (n < 0)
            return at;
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = strdup(link);
        } else {
            char *dir = folder_of(at);
            size_t size = (dir ? strlen(dir) : 0) + (size_t)n + 2;
            next = dir ? malloc(size) : NULL;
            if (next)
                snprintf(next, size, "%s/%s", dir, link);
            free(dir);
        }
        free(at);
        at = next;
    }
    free(at);
    return NULL;
}

char *app_safe_write_canonical(const char *path)
{
    char *target = app_safe_write_target(path);
    if (!target)
        return NULL;
    char *real = realpath(target, NULL);
    if (!real) { /* not there yet: its folder's real path and its name */
        char *dir = folder_of(target), *dir_real = dir ? realpath(dir, NULL) : NULL;
        const char *slash = strrchr(target, '/');
        const char *base = slash ? slash + 1 : target;
        size_t n = (dir_real ? strlen(dir_real) : 0) + strlen(base) + 2;
        real = dir_real ? malloc(n) : NULL;
        if (real)
            snprintf(real, n, "%s/%s", dir_real, base);
        free(dir_real);
        free(dir);
    }
    if (!real)
        return target; /* a folder that does not exist: the path as given is all there is */
    free(target);
    return real;
}

/* What a non-regular file is, for the message. */
static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)                    ? "is a folder"
           : S_ISCHR(mode) || S_ISBLK(mode) ? "is a device, not a regular file"
           : S_ISFIFO(mode)                 ? "is a FIFO, not a regular file"
           : S_ISSOCK(mode)                 ? "is a socket, not a regular file"
                                            : "is not a regular file";
}

/* Checks the resolved target; on success *exists and *st say what is there. */
static bool check_target(const char *path, const char *target, bool *exists, struct stat *st,
                         char *message, size_t size)
{
    *exists = stat(target, st) == 0;
    if (*exists) {
        if (!S_ISREG(st->st_mode)) {
            snprintf(message, size, "cannot write %s: %s", path, kind_of(st->st_mode));
            return false;
        }
        if (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
            snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    if (errno != ENOENT) { /* ENOTDIR: the path goes through a file; EACCES, ELOOP */
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    char *dir = folder_of(target);
    struct stat ds;
    const char *why = NULL;
    if (!dir)
        why = "out of memory";
    else if (stat(dir, &ds) != 0)
        why = errno == ENOENT ? "no such folder" : strerror(errno);
    else if (!S_ISDIR(ds.st_mode))
        why = "its folder is not a folder";
    else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
        why = strerror(errno);
    free(dir);
    if (why)
        snprintf(message, size, "cannot write %s: %s", path, why);
    return why == NULL;
}

/* The target of `path`, checked (check_target); NULL with the message. */
static char *checked_target(const char *path, bool *exists, struct stat *st, char *message,
                            size_t size)
{
    if (!*path) {
        snprintf(message, size, "cannot write an empty path");
        return NULL;
    }
    errno = 0;
    char *target = app_safe_write_target(path);
    if (!target)
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno ? errno : ELOOP));
    else if (!check_target(path, target, exists, st, message, size))
        free(target), target = NULL;
    return target;
}

bool app_safe_write_check(const char *path, char *message, size_t size)
{
    bool exists;
    struct stat st;
    char *target = checked_target(path, &exists, &st, message, size);
    free(target);
    return target != NULL;
}

/* The process's umask (read by setting it and back: nothing else here creates files meanwhile). */
static mode_t current_umask(void)
{
    mode_t mask = umask(077);
    umask(mask);
    return mask;
}

/* Flushes the folder's entry of a rename to disk. */
static bool sync_folder(const char *target)
{
    char *dir = folder_of(target);
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(dir);
    if (fd < 0)
        return false;
    bool ok = fsync(fd) == 0 || errno == EINVAL; /* some file systems cannot sync a folder */
    close(fd);
    return ok;
}

bool app_safe_write(const char *path, bool durable, AppWriteFn fill, const void *user,
                    char *message, size_t size)
{
    bool exists;
    struct stat st;
    char *target = checked_target(path, &exists, &st, message, size);
    if (!target)
        return false;
    /* ".NAME.tmp-XXXXXX" beside the target: hidden, and on its file system so rename is atomic */
    char *dir = folder_of(target);
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t tmp_size = (dir ? strlen(dir) : 0) + strlen(base) + 16;
    char *tmp = dir ? malloc(tmp_size) : NULL;
    if (!tmp) {
        snprintf(message, size, "cannot write %s: out of memory", path);
        free(dir);
        free(target);
        return false;
    }
    snprintf(tmp, tmp_size, "%s/.%s.tmp-XXXXXX", dir, base);
    free(dir);
    int fd = mkostemp(tmp, O_CLOEXEC); /* O_CREAT | O_EXCL, mode 0600 */
    int saved = errno;
    FILE *f = NULL;
    if (fd >= 0) {
        mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~current_umask();
        if (exists && geteuid() == 0) /* root writing another user's file: theirs it stays */
            (void)!fchown(fd, st.st_uid, st.st_gid);
        if (fchmod(fd, mode) != 0 || !(f = fdopen(fd, "wb"))) {
            saved = errno;
            close(fd);
        }
    }
    bool ok = f != NULL;
    if (ok) {
        errno = 0;
        ok = fill(f, user);
        saved = errno;
        ok = !ferror(f) && ok;
        if (ok && fflush(f) != 0)
            ok = false, saved = errno;
        if (ok && durable && fsync(fileno(f)) != 0)
            ok = false, saved = errno;
        if (fclose(f) != 0 && ok)
            ok = false, saved = errno;
        if (ok && rename(tmp, target) != 0)
            ok = false, saved = errno;
        if (!ok)
            unlink(tmp);
        else if (durable && !sync_folder(target))
            ok = false, saved = errno;
    }
    if (!ok)
        snprintf(message, size, "cannot write %s: %s", path,
                 saved ? strerror(saved) : "write failed");
    free(tmp);
    free(target);
    return ok;
}
