/* SPDX-License-Identifier: MIT */
/* posix_spawn, not fork: the host's memory is not copied, its pthread_atfork handlers do not run,
 * and the helper is a program of its own (its own libraries: MuPDF is in it, not in the
 * library). Its end of the socket pair is its descriptor 3; every other descriptor of the host's
 * is close-on-exec or the host's own business (a host that leaks descriptors leaks them to every
 * program it starts). It gets a process group of its own (a terminal's Ctrl-C is the host's to
 * handle: the helper leaves when its socket closes) and signals as a fresh program has them. */
#define _GNU_SOURCE

#include "page_helper.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The helper's path from the directory of the library's own file (a relocatable prefix: set by
 * the build from CMAKE_INSTALL_LIBDIR, _BINDIR and _LIBEXECDIR), and in the build tree. */
#ifndef PAGECURL_HELPER_FROM_LIB
#define PAGECURL_HELPER_FROM_LIB "../libexec/pagecurl/pagecurl-pages"
#endif
#ifndef PAGECURL_HELPER_FROM_BIN
#define PAGECURL_HELPER_FROM_BIN "../libexec/pagecurl/pagecurl-pages"
#endif
#define HELPER_FROM_BUILD "../libexec/pagecurl/pagecurl-pages"

/* The most a started helper may take to say hello: only a helper that is no helper (another
 * program named by PAGECURL_PAGES_HELPER) comes near it. */
#define HELLO_SECONDS 30.0

struct PageHelper {
    char path[PATH_MAX]; /* "" until found */
    pid_t pid;           /* 0: none */
    int socket;          /* the library's end */
    int memfd;           /* the pixels' memory, -1: none yet */
    uint8_t *pixels;
    size_t capacity;
    bool given; /* the running helper has `memfd` */
};

/* Where the object holding this code was loaded from (the library, or the program it is
 * compiled into): the loaded segment that holds `address`. */
typedef struct Found {
    uintptr_t address;
    char path[PATH_MAX];
} Found;

static int holds_address(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size;
    Found *f = user;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_LOAD || f->address < lo || f->address >= lo + ph->p_memsz)
            continue;
        if (info->dlpi_name && info->dlpi_name[0]) {
            snprintf(f->path, sizeof f->path, "%s", info->dlpi_name);
        } else { /* the program itself */
            ssize_t n = readlink("/proc/self/exe", f->path, sizeof f->path - 1);
            f->path[n > 0 ? n : 0] = '\0';
        }
        return 1;
    }
    return 0;
}

/* The helper's path into h->path: 0, or 1 with the line. */
static int find_helper(PageHelper *h, char *why, size_t size)
{
    const char *named = getenv(PAGES_HELPER_ENV);
    if (named && named[0]) {
        snprintf(h->path, sizeof h->path, "%s", named);
        return 0;
    }
    Found f = {.address = (uintptr_t)(void *)find_helper};
    dl_iterate_phdr(holds_address, &f);
    char *real = f.path[0] ? realpath(f.path, NULL) : NULL;
    char *slash = real ? strrchr(real, '/') : NULL;
    if (!slash) {
        free(real);
        snprintf(why, size,
                 "the page helper pagecurl-pages cannot be looked for: the library does not "
                 "know its own place (set %s to the helper's path)",
                 PAGES_HELPER_ENV);
        return 1;
    }
    *slash = '\0';
    const char *const tails[] = {PAGECURL_HELPER_FROM_LIB, PAGECURL_HELPER_FROM_BIN,
                                 HELPER_FROM_BUILD};
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof path, "%s/%s", real, tails[i]);
        if (n > 0 && (size_t)n < sizeof path && access(path, X_OK) == 0) {
            snprintf(h->path, sizeof h->path, "%s", path);
            free(real);
            return 0;
        }
    }
    snprintf(why, size,
             "the page helper pagecurl-pages is not installed (looked for %s/%s; set %s to its "
             "path)",
             real, PAGECURL_HELPER_FROM_LIB, PAGES_HELPER_ENV);
    free(real);
    return 1;
}

PageHelper *page_helper_create(void)
{
    PageHelper *h = calloc(1, sizeof *h);
    if (h)
        h->socket = -1, h->memfd = -1;
    return h;
}

/* The process reaped; its status (0 where it cannot be had: a host that reaps every child). */
static int reap(PageHelper *h, bool kill_it)
{
    int status = 0;
    if (!h->pid)
        return 0;
    if (kill_it)
        kill(h->pid, SIGKILL);
    close(h->socket);
    h->socket = -1;
    while (waitpid(h->pid, &status, 0) < 0 && errno == EINTR)
        ;
    h->pid = 0, h->given = false;
    return status;
}

void page_helper_stop(PageHelper *h)
{
    reap(h, true);
}

void page_helper_destroy(PageHelper *h)
{
    if (!h)
        return;
    reap(h, true);
    if (h->pixels)
        munmap(h->pixels, h->capacity);
    if (h->memfd >= 0)
        close(h->memfd);
    free(h);
}

bool page_helper_running(PageHelper *h)
{
    if (!h->pid)
        return false;
    /* idle, it has nothing to say: a socket readable or closed means it died (or misbehaved) */
    struct pollfd p = {.fd = h->socket, .events = POLLIN};
    if (poll(&p, 1, 0) != 0) {
        reap(h, true);
        return false;
    }
    return true;
}

/* Why the process ended, from its status. */
static void ended(int status, char *why, size_t size)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
        snprintf(why, size,
                 "the decoder spent more than %d s of the processor on it, and was stopped",
                 PAGES_OPEN_CPU_SECONDS);
    else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
        snprintf(why, size, "the decoder crashed on it: %s", strsignal(WTERMSIG(status)));
    else
        snprintf(why, size, "the decoder's process ended");
}

/* A helper started and its hello heard: 0, or 1 with the line. */
static int start(PageHelper *h, char *why, size_t size)
{
    if (!h->path[0] && find_helper(h, why, size))
        return 1;
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        snprintf(why, size, "no socket for the page helper: %s", strerror(errno));
        return 1;
    }
    /* its end as descriptor 3 by a dup2 that clears close-on-exec: not from 3 to 3 */
    if (ends[1] == PAGES_SOCKET_FD) {
        int moved = fcntl(ends[1], F_DUPFD_CLOEXEC, PAGES_SOCKET_FD + 1);
        close(ends[1]);
        ends[1] = moved;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&actions, ends[1], PAGES_SOCKET_FD);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETPGROUP);
    char *argv[] = {"pagecurl-pages", "--serve", NULL};
    pid_t pid = 0;
    int e = ends[1] < 0 ? errno : posix_spawn(&pid, h->path, &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (ends[1] >= 0)
        close(ends[1]);
    if (e) {
        close(ends[0]);
        snprintf(why, size, "the page helper %s cannot be started: %s", h->path, strerror(e));
        return 1;
    }
    h->pid = pid, h->socket = ends[0], h->given = false;
    uint32_t type = 0;
    uint8_t *hello = NULL;
    size_t n = 0;
    PagesWireStatus s = pages_wire_recv(h->socket, &type, &hello, &n, NULL, NULL, HELLO_SECONDS);
    PagesWireIn in = {hello, n, false};
    uint32_t protocol =
        s == PAGES_WIRE_OK && type == PAGES_WIRE_HELLO ? pages_wire_get_u32(&in) : 0;
    free(hello);
    if (s == PAGES_WIRE_OK && type == PAGES_WIRE_HELLO && !in.bad && protocol == PAGES_PROTOCOL)
        return 0;
    int status = reap(h, true);
    if (s == PAGES_WIRE_OK && type == PAGES_WIRE_HELLO && !in.bad)
        snprintf(why, size,
                 "the page helper %s speaks protocol %u, this library %d: they are of different "
                 "builds",
                 h->path, protocol, PAGES_PROTOCOL);
    else if (s == PAGES_WIRE_CLOSED && WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, size, "the page helper %s cannot be started", h->path);
    else if (s == PAGES_WIRE_CLOSED || s == PAGES_WIRE_OK)
        snprintf(why, size, "%s is not a page helper: it did not say hello", h->path);
    else
        snprintf(why, size, "the page helper %s did not answer within %g s", h->path,
                 HELLO_SECONDS);
    return 1;
}

PagesHelperCall page_helper_call(PageHelper *h, uint32_t type, const PagesWireOut *payload, int fd,
                                 uint32_t *answer_type, uint8_t **answer, size_t *answer_size,
                                 const volatile int *stop, char *why, size_t size)
{
    return page_helper_call_within(h, type, payload, fd, answer_type, answer, answer_size, stop,
                                   0.0, why, size);
}

PagesHelperCall page_helper_call_within(PageHelper *h, uint32_t type, const PagesWireOut *payload,
                                        int fd, uint32_t *answer_type, uint8_t **answer,
                                        size_t *answer_size, const volatile int *stop,
                                        double ceiling, char *why, size_t size)
{
    *answer = NULL, *answer_size = 0;
    bool running = page_helper_running(h);
    if (!running && type != PAGES_WIRE_OPEN) { /* a helper begins with its book */
        snprintf(why, size, "the decoder's process ended");
        return PAGES_HELPER_DIED;
    }
    if (!running && start(h, why, size))
        return PAGES_HELPER_NONE;
    PagesWireStatus s = pages_wire_send(h->socket, type, payload, fd, stop);
    if (s == PAGES_WIRE_OK)
        s = pages_wire_recv(h->socket, answer_type, answer, answer_size, NULL, stop, ceiling);
    if (s == PAGES_WIRE_OK)
        return PAGES_HELPER_ANSWERED;
    if (s == PAGES_WIRE_STOPPED || s == PAGES_WIRE_LATE) {
        reap(h, true);
        if (s == PAGES_WIRE_LATE)
            snprintf(why, size, "no answer within %g s", ceiling);
        return PAGES_HELPER_STOPPED;
    }
    int status = reap(h, true); /* dead already, or broke the protocol: it goes */
    if (s == PAGES_WIRE_CLOSED)
        ended(status, why, size);
    else
        snprintf(why, size, "the page helper broke off talking");
    return PAGES_HELPER_DIED;
}

uint8_t *page_helper_pixels(PageHelper *h, size_t bytes, int *fd)
{
    *fd = -1;
    if (bytes > h->capacity) {
        if (h->pixels)
            munmap(h->pixels, h->capacity);
        if (h->memfd >= 0)
            close(h->memfd);
        h->pixels = NULL, h->capacity = 0, h->given = false;
        /* sealed at its size: a helper cannot shrink it under the library's reads (SIGBUS) */
        h->memfd = memfd_create("pagecurl-pixels", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (h->memfd < 0)
            return NULL;
        void *map = MAP_FAILED;
        if (ftruncate(h->memfd, (off_t)bytes) == 0 &&
            fcntl(h->memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
            map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, h->memfd, 0);
        if (map == MAP_FAILED) {
            close(h->memfd);
            h->memfd = -1;
            return NULL;
        }
        h->pixels = map, h->capacity = bytes;
    }
    if (!h->given)
        *fd = h->memfd, h->given = true;
    return h->pixels;
}
