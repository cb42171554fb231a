/* SPDX-License-Identifier: MIT */
/* Writing a file the user named without ever damaging what is there: the data goes to a temporary
 * file in the target's own folder, then is renamed over the target in one step. The temporary
 * file is unnamed (O_TMPFILE) where the file system allows, given a name only when it is whole,
 * for the rename; elsewhere it is created exclusively (mkstemp: a planted symlink or file at its
 * name is never followed or reused) as .NAME.tmp-PID-XXXXXX, locked (flock) while it is
 * written, so that files_safe_write_sweep can tell one a killed run left. A symlinked target is
 * written through to the file it points at (the link stays a link); an existing target keeps
 * its mode, a new one follows the umask; a target that is not a regular file (a folder, a
 * device, a FIFO), that may not be written or has no write permission bit at all (a read-only
 * file, root or not), or whose folder may not be written (the rename needs it), is refused,
 * never replaced. Durable writes (the user's own data: notebooks, traces) reach the disk (fsync)
 * before the rename. On any failure the temporary file is removed. Errors come back as one line
 * naming the path, with errno left at the cause. */
#ifndef PAGECURL_FILES_SAFE_WRITE_H
#define PAGECURL_FILES_SAFE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef bool (*FilesWriteFn)(FILE *f, const void *user);

/* The file a write to `path` lands in: `path` with its chain of symlinks followed (a dangling
 * link gives the path it points at). Malloc'd; NULL when out of memory or the chain loops. */
char *files_safe_write_target(const char *path);

/* The target's absolute path with every folder and link resolved, for telling whether two paths
 * name one file (hard links aside: compare st_dev and st_ino where both exist). Malloc'd; NULL
 * when out of memory or a link chain loops. */
char *files_safe_write_canonical(const char *path);

/* Whether `path` can be written: the target is a writable regular file, or does not exist in a
 * folder that does. False with "cannot write PATH: reason" in message. */
bool files_safe_write_check(const char *path, char *message, size_t size);

/* Runs `fill` on a temporary file beside the target of `path` and renames it into place; with
 * `durable`, the data and the rename are on disk when it returns. */
bool files_safe_write(const char *path, bool durable, FilesWriteFn fill, const void *user,
                      char *message, size_t size);

/* How files_safe_write_with writes. */
typedef struct FilesSafeWrite {
    bool durable;   /* as files_safe_write's */
    bool exclusive; /* the target must not exist: it is created, never replaced (errno EEXIST) */
    /* Not NULL: the new file is locked (flock LOCK_EX) before it takes the target's name and,
     * on success, *lock becomes its descriptor, still locked (the one *lock held is closed), so
     * that a lock on the file follows it from one save to the next; on failure *lock is kept. */
    int *lock;
} FilesSafeWrite;
bool files_safe_write_with(const char *path, FilesSafeWrite how, FilesWriteFn fill,
                           const void *user, char *message, size_t size);

/* Removes the temporary files of writes to `path`'s target that a killed run left behind: those
 * named .NAME.tmp-PID-XXXXXX whose process no longer exists and which no one holds locked (and
 * .NAME.tmp-XXXXXX, as older versions named them, when unlocked and a minute old). Returns how
 * many it removed. */
int files_safe_write_sweep(const char *path);

#endif
