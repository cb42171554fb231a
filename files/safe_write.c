/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* mkostemp, O_TMPFILE, renameat2 */
#include "safe_write.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

char *files_safe_write_target(const char *path)
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

char *files_safe_write_canonical(const char *path)
{
    char *target = files_safe_write_target(path);
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
           : S_ISFIFO(mode)                 ? "is a pipe or FIFO, not a regular file"
           : S_ISSOCK(mode)                 ? "is a socket, not a regular file"
                                            : "is not a regular file";
}

/* Whether the folder holding `target` can take a new file and a rename; NULL or why not. */
static const char *folder_problem(const char *target)
{
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
        why = errno == EROFS ? strerror(errno) : "its folder may not be written";
    free(dir);
    return why;
}

/* Checks the resolved target; on success *exists and *st say what is there. */
static bool check_target(const char *path, const char *target, bool *exists, struct stat *st,
                         char *message, size_t size)
{
    *exists = stat(target, st) == 0;
    if (*exists) {
        if (!S_ISREG(st->st_mode)) {
            snprintf(message, size, "cannot write %s: %s", path, kind_of(st->st_mode));
            errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
            return false;
        }
        if (faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0) {
            int e = errno;
            snprintf(message, size, "cannot write %s: %s", path, strerror(e));
            errno = e;
            return false;
        }
        if (!(st->st_mode & 0222)) { /* root may, but whoever made it read-only meant it */
            snprintf(message, size, "cannot write %s: it is read-only (mode %04o)", path,
                     (unsigned)(st->st_mode & 07777));
            errno = EACCES;
            return false;
        }
    } else if (errno != ENOENT) { /* ENOTDIR: the path goes through a file; EACCES, ELOOP */
        int e = errno;
        snprintf(message, size, "cannot write %s: %s", path, strerror(e));
        errno = e;
        return false;
    }
    const char *why = folder_problem(target);
    if (why) {
        snprintf(message, size, "cannot write %s: %s", path, why);
        errno = EACCES;
    }
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
    /* a name the kernel resolves where readlink cannot follow: /dev/stdout on a pipe leads, by
     * /proc/self/fd/1, to "pipe:[N]", which names nothing (the chain below took it for a new file
     * in /proc/self/fd, "No such file or directory") */
    struct stat seen;
    if (stat(path, &seen) == 0 && !S_ISREG(seen.st_mode) && !S_ISDIR(seen.st_mode)) {
        snprintf(message, size, "cannot write %s: %s", path, kind_of(seen.st_mode));
        errno = EINVAL;
        return NULL;
    }
    errno = 0;
    char *target = files_safe_write_target(path);
    if (!target)
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno ? errno : ELOOP));
    else if (!check_target(path, target, exists, st, message, size))
        free(target), target = NULL;
    return target;
}

bool files_safe_write_check(const char *path, char *message, size_t size)
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

/* A fresh name for a temporary file of `base` in `dir`: .BASE.tmp-PID-XXXXXX, the X's from the
 * clock and `salt` (linkat, unlike mkstemp, takes a name: EEXIST just asks for another). */
static void temp_name(char *out, size_t size, const char *dir, const char *base, unsigned salt)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint32_t x = (uint32_t)now.tv_nsec * 2654435761u ^ salt * 40503u ^ (uint32_t)now.tv_sec;
    snprintf(out, size, "%s/.%s.tmp-%ld-%06x", dir, base, (long)getpid(), (unsigned)(x & 0xffffff));
}

/* An unnamed file in `dir` (O_TMPFILE), where the file system allows one and /proc can name it
 * for linkat; -1 otherwise. */
static int unnamed_file(const char *dir, char *proc, size_t size)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    snprintf(proc, size, "/proc/self/fd/%d", fd);
    if (access(proc, F_OK) == 0)
        return fd;
    close(fd);
#else
    (void)dir, (void)proc, (void)size;
#endif
    return -1;
}

/* Gives the whole unnamed file `proc` the target's name: linked at a fresh temporary name and
 * renamed over the target, or (exclusive) linked at the target itself, which fails if it exists.
 * *linked gets the temporary name while one exists. */
static bool name_unnamed(const char *proc, const char *dir, const char *base, const char *target,
                         bool exclusive, char *linked, size_t size)
{
    if (exclusive)
        return linkat(AT_FDCWD, proc, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0;
    for (unsigned k = 0; k < 100; k++) {
        temp_name(linked, size, dir, base, k);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, linked, AT_SYMLINK_FOLLOW) == 0)
            return rename(linked, target) == 0;
        if (errno != EEXIST)
            break;
    }
    linked[0] = '\0';
    return false;
}

bool files_safe_write(const char *path, bool durable, FilesWriteFn fill, const void *user,
                      char *message, size_t size)
{
    return files_safe_write_with(path, (FilesSafeWrite){.durable = durable}, fill, user, message,
                                 size);
}

bool files_safe_write_with(const char *path, FilesSafeWrite how, FilesWriteFn fill,
                           const void *user, char *message, size_t size)
{
    bool exists;
    struct stat st;
    char *target = checked_target(path, &exists, &st, message, size);
    if (!target)
        return false;
    if (exists && how.exclusive) {
        snprintf(message, size, "cannot write %s: %s", path, strerror(EEXIST));
        free(target);
        errno = EEXIST;
        return false;
    }
    char *dir = folder_of(target);
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    size_t tmp_size = (dir ? strlen(dir) : 0) + strlen(base) + 48;
    char *tmp = dir ? malloc(tmp_size) : NULL;
    if (!tmp) {
        snprintf(message, size, "cannot write %s: out of memory", path);
        free(dir);
        free(target);
        errno = ENOMEM;
        return false;
    }
    tmp[0] = '\0'; /* the temporary file's name while it has one */
    char proc[64];
    int fd = unnamed_file(dir, proc, sizeof proc);
    bool unnamed = fd >= 0;
    if (!unnamed) {
        /* ".NAME.tmp-PID-XXXXXX" beside the target: hidden, and on its file system so rename is
         * atomic; the PID and the lock tell a sweep whether its writer still lives */
        snprintf(tmp, tmp_size, "%s/.%s.tmp-%ld-XXXXXX", dir, base, (long)getpid());
        fd = mkostemp(tmp, O_CLOEXEC); /* O_CREAT | O_EXCL, mode 0600 */
        if (fd < 0)
            tmp[0] = '\0';
    }
    int saved = errno;
    FILE *f = NULL;
    if (fd >= 0) {
        mode_t mode = exists ? st.st_mode & 07777 : 0666 & ~current_umask();
        if (exists && geteuid() == 0) /* root writing another user's file: theirs it stays */
            (void)!fchown(fd, st.st_uid, st.st_gid);
        int copy = -1;
        /* Locked before anyone can see it (a new file: no one else holds it). A file system
         * without flock fails only a write that hands its lock on: the others lock for
         * files_safe_write_sweep's sake alone. */
        bool locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        if ((!locked && how.lock) || fchmod(fd, mode) != 0 ||
            (copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0 || !(f = fdopen(copy, "wb"))) {
            saved = errno;
            if (copy >= 0)
                close(copy);
        }
    }
    bool ok = f != NULL, placed = false;
    if (ok) {
        errno = 0;
        ok = fill(f, user);
        saved = errno;
        ok = !ferror(f) && ok;
        if (ok && fflush(f) != 0)
            ok = false, saved = errno;
        if (ok && how.durable && fsync(fd) != 0)
            ok = false, saved = errno;
        if (fclose(f) != 0 && ok) /* fd still holds the file and its lock */
            ok = false, saved = errno;
        if (ok && unnamed && !name_unnamed(proc, dir, base, target, how.exclusive, tmp, tmp_size))
            ok = false, saved = errno;
        else if (ok && !unnamed && how.exclusive &&
                 renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_NOREPLACE) != 0)
            ok = false, saved = errno;
        else if (ok && !unnamed && !how.exclusive && rename(tmp, target) != 0)
            ok = false, saved = errno;
        placed = ok;
        if (ok)
            tmp[0] = '\0'; /* renamed: nothing of it to remove */
        if (ok && how.durable && !sync_folder(target))
            ok = false, saved = errno;
    }
    if (tmp[0] && !ok)
        unlink(tmp);
    if (!ok)
        snprintf(message, size, "cannot write %s: %s", path,
                 saved ? strerror(saved) : "write failed");
    if (placed && how.lock) { /* the file at the target's name is this one, synced or not */
        if (*how.lock >= 0)
            close(*how.lock);
        *how.lock = fd;
    } else if (fd >= 0) {
        close(fd);
    }
    free(tmp);
    free(dir);
    free(target);
    errno = ok ? 0 : saved ? saved : EIO;
    return ok;
}

/* Whether process `pid` exists (EPERM: it does, someone else's). */
static bool alive(long pid)
{
    return pid > 0 && pid <= INT32_MAX && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Whether the temporary file `rest` (what follows ".NAME.tmp-") is a killed run's; `fd` is it,
 * opened. */
static bool stale(const char *rest, int fd, const struct stat *st)
{
    char *end;
    long pid = strtol(rest, &end, 10);
    bool with_pid = end != rest && *end == '-' && strlen(end + 1) == 6;
    bool legacy = strlen(rest) == 6 && !strchr(rest, '-');
    if (!with_pid && !legacy)
        return false; /* not a name a write gives */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0)
        return false; /* a writer holds it */
    if (with_pid)
        return !alive(pid);
    return time(NULL) - st->st_mtime > 60; /* no write takes a minute */
}

int files_safe_write_sweep(const char *path)
{
    char *target = files_safe_write_target(path);
    char *dir = target ? folder_of(target) : NULL;
    DIR *d = dir ? opendir(dir) : NULL;
    int removed = 0;
    if (d) {
        const char *slash = strrchr(target, '/');
        const char *base = slash ? slash + 1 : target;
        size_t n = strlen(base);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            const char *name = e->d_name;
            if (name[0] != '.' || strncmp(name + 1, base, n) != 0 ||
                strncmp(name + 1 + n, ".tmp-", 5) != 0)
                continue;
            int fd = openat(dirfd(d), name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            struct stat st, there;
            if (fd < 0)
                continue;
            /* unlinked while it is held locked, and only if the name is still that file */
            if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && stale(name + n + 6, fd, &st) &&
                fstatat(dirfd(d), name, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
                there.st_dev == st.st_dev && there.st_ino == st.st_ino &&
                unlinkat(dirfd(d), name, 0) == 0)
                removed++;
            close(fd);
        }
        closedir(d);
    }
    free(dir);
    free(target);
    return removed;
}
