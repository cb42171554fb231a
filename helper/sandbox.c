/* SPDX-License-Identifier: MIT */
/* Landlock through its system calls (glibc has no wrappers), with the constants of later ABIs
 * than Debian 12's headers know written out: a kernel that does not know them is asked only for
 * what it knows (the ruleset's size and flags follow the ABI it reports). */
#define _GNU_SOURCE

#include "sandbox.h"

#ifdef __linux__
#include <linux/landlock.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(SYS_landlock_create_ruleset)
/* Every file system access of ABI 1 (execute .. make a symbolic link), then REFER (2), TRUNCATE
 * (3), IOCTL_DEV (5). */
#define FS_ABI1             ((1ull << 13) - 1)
#define FS_REFER            (1ull << 13)
#define FS_TRUNCATE         (1ull << 14)
#define FS_IOCTL_DEV        (1ull << 15)
#define NET_BIND_TCP        (1ull << 0)
#define NET_CONNECT_TCP     (1ull << 1)
#define SCOPE_ABSTRACT_UNIX (1ull << 0)
#define SCOPE_SIGNAL        (1ull << 1)

/* struct landlock_ruleset_attr as ABI 6 has it; older kernels read its first fields. */
typedef struct Ruleset {
    uint64_t fs, net, scoped;
} Ruleset;

static void add(PagesSandbox *s, int fd, uint64_t access)
{
    struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
    if (s->ruleset >= 0 &&
        syscall(SYS_landlock_add_rule, s->ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
        s->ruled = false;
}

void pages_sandbox_begin(PagesSandbox *s, int folder)
{
    *s = (PagesSandbox){.ruleset = -1, .ruled = true};
    s->abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (s->abi < 1) {
        s->abi = 0;
        return;
    }
    Ruleset r = {.fs = FS_ABI1};
    size_t size = offsetof(Ruleset, net);
    if (s->abi >= 2)
        r.fs |= FS_REFER;
    if (s->abi >= 3)
        r.fs |= FS_TRUNCATE;
    if (s->abi >= 5)
        r.fs |= FS_IOCTL_DEV;
    if (s->abi >= 4)
        r.net = NET_BIND_TCP | NET_CONNECT_TCP, size = offsetof(Ruleset, scoped);
    if (s->abi >= 6)
        r.scoped = SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL, size = sizeof r;
    s->ruleset = (int)syscall(SYS_landlock_create_ruleset, &r, size, 0);
    if (folder >= 0)
        add(s, folder, LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR);
}

void pages_sandbox_allow(PagesSandbox *s, int file)
{
    add(s, file, LANDLOCK_ACCESS_FS_READ_FILE);
}

uint32_t pages_sandbox_enter(PagesSandbox *s)
{
    uint32_t done = 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        done |= PAGES_CONFINED_NO_NEW_PRIVS;
    /* a ruleset short of a rule would forbid a page it should allow: none then */
    if (s->ruleset >= 0 && s->ruled && (done & PAGES_CONFINED_NO_NEW_PRIVS) &&
        syscall(SYS_landlock_restrict_self, s->ruleset, 0) == 0)
        done |= PAGES_CONFINED_FILES | (s->abi >= 4 ? PAGES_CONFINED_NETWORK : 0u) |
                (s->abi >= 6 ? PAGES_CONFINED_SCOPED : 0u);
    if (s->ruleset >= 0)
        close(s->ruleset);
    s->ruleset = -1;
    return done;
}
#else
void pages_sandbox_begin(PagesSandbox *s, int folder)
{
    (void)folder;
    *s = (PagesSandbox){.ruleset = -1};
}

void pages_sandbox_allow(PagesSandbox *s, int file)
{
    (void)s, (void)file;
}

uint32_t pages_sandbox_enter(PagesSandbox *s)
{
    uint32_t done = 0;
#ifdef __linux__
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
        done |= PAGES_CONFINED_NO_NEW_PRIVS;
#endif
    (void)s;
    return done;
}
#endif
