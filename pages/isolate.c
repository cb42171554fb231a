/* SPDX-License-Identifier: MIT */
/* fork() without exec from a threaded process: the drawing process runs only the drawing
 * thread's code on its copy of memory. glibc's malloc is usable there (fork takes and resets its
 * arenas' locks); the decoder's state is the forking thread's own; it leaves by _exit: the
 * parent's Vulkan driver is never entered. It keeps the descriptors it inherits (the decoder's
 * file among them), so another drawing process may hold a copy of this one's socket: its death is
 * seen by waitpid, not by the socket's end. */
#define _GNU_SOURCE

#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the two processes share, ahead of the pixels. */
typedef struct Shared {
    char request[APP_ISOLATE_REQUEST];
    size_t request_size, bytes;
    char message[512];
} Shared;

struct AppIsolate {
    AppIsolatedStart start;
    AppIsolatedDraw draw;
    void *user;
    pid_t pid; /* the drawing process; 0: none */
    /* the parent's end of a socket pair, a byte each way a page (a socket, not a pipe: a send to
     * a process gone fails, raising no SIGPIPE) */
    int socket;
    Shared *shared;  /* mapped before the fork */
    size_t capacity; /* bytes of pixels after it */
};

/* The drawing process: signals as a fresh process has them (the parent's handlers would speak
 * for the program), silent, and gone with the thread that forked it. */
static void child_start(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT, SIGTERM,
                                  SIGINT,  SIGHUP, SIGQUIT, SIGPIPE, SIGTRAP};
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        sigaction(signals[i], &dfl, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
}

static void child_serve(AppIsolate *iso, int socket)
{
    uint8_t *pixels = (uint8_t *)(iso->shared + 1);
    char go;
    while (recv(socket, &go, 1, 0) == 1) {
        Shared *s = iso->shared;
        s->message[0] = '\0';
        bool ok = iso->draw(iso->user, s->request, pixels, s->bytes, s->message, sizeof s->message);
        char done = ok ? 1 : 2;
        if (send(socket, &done, 1, MSG_NOSIGNAL) != 1)
            break;
    }
    _exit(0);
}

/* The drawing process killed (where `kill_it`) and reaped; its status. */
static int stop_child(AppIsolate *iso, bool kill_it)
{
    int status = 0;
    if (!iso->pid)
        return status;
    if (kill_it)
        kill(iso->pid, SIGKILL);
    close(iso->socket);
    while (waitpid(iso->pid, &status, 0) < 0 && errno == EINTR)
        ;
    iso->pid = 0;
    return status;
}

/* A drawing process with room for `bytes` of pixels. */
static bool start_child(AppIsolate *iso, size_t bytes)
{
    if (iso->shared && bytes > iso->capacity) {
        stop_child(iso, true);
        munmap(iso->shared, sizeof(Shared) + iso->capacity);
        iso->shared = NULL;
    }
    if (!iso->shared) {
        size_t capacity = bytes > iso->capacity ? bytes : iso->capacity;
        void *map = mmap(NULL, sizeof(Shared) + capacity, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED)
            return false;
        iso->shared = map, iso->capacity = capacity;
    }
    if (iso->pid)
        return true;
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        close(ends[0]);
        child_start();
        if (iso->start && !iso->start(iso->user))
            _exit(1);
        child_serve(iso, ends[1]);
    }
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        return false;
    }
    iso->pid = pid, iso->socket = ends[0];
    return true;
}

AppIsolate *app_isolate_create(AppIsolatedStart start, AppIsolatedDraw draw, void *user)
{
    AppIsolate *iso = calloc(1, sizeof *iso);
    if (iso)
        iso->start = start, iso->draw = draw, iso->user = user;
    return iso;
}

void app_isolate_destroy(AppIsolate *iso)
{
    if (!iso)
        return;
    stop_child(iso, true);
    if (iso->shared)
        munmap(iso->shared, sizeof(Shared) + iso->capacity);
    free(iso);
}

static AppIsolated died(int status, char *message, size_t size)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
        snprintf(message, size, "the decoder crashed on it: %s", strsignal(WTERMSIG(status)));
    else
        snprintf(message, size, "the decoder's process ended");
    return APP_ISOLATED_CRASHED;
}

AppIsolated app_isolate_draw(AppIsolate *iso, const void *request, size_t request_size,
                             uint8_t *out, size_t bytes, char *message, size_t size,
                             const volatile int *stop)
{
    if (request_size > APP_ISOLATE_REQUEST)
        return APP_ISOLATED_NO_CHILD;
    /* a process that died while it waited (killed with the thread that forked it) is made again */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!start_child(iso, bytes))
            return APP_ISOLATED_NO_CHILD;
        Shared *s = iso->shared;
        memcpy(s->request, request, request_size);
        s->request_size = request_size, s->bytes = bytes;
        uint8_t *pixels = (uint8_t *)(s + 1);
        memcpy(pixels, out, bytes); /* the drawing goes onto what `out` holds (paper, a margin) */
        char go = 1, done = 0;
        int status;
        if (waitpid(iso->pid, &status, WNOHANG) == iso->pid) {
            close(iso->socket);
            iso->pid = 0;
            continue;
        }
        if (send(iso->socket, &go, 1, MSG_NOSIGNAL) != 1) {
            stop_child(iso, true);
            continue;
        }
        for (;;) {
            struct pollfd p = {.fd = iso->socket, .events = POLLIN};
            int r = poll(&p, 1, 5);
            if (r > 0) {
                if (recv(iso->socket, &done, 1, 0) != 1)
                    done = 0; /* its end closed: it died */
                break;
            }
            if (r < 0 && errno != EINTR)
                break;
            /* died (another drawing process may hold a copy of its end) */
            if (waitpid(iso->pid, &status, WNOHANG) == iso->pid) {
                close(iso->socket);
                iso->pid = 0;
                return died(status, message, size);
            }
            if (stop && *stop) {
                stop_child(iso, true);
                return APP_ISOLATED_STOPPED;
            }
        }
        if (done == 1) {
            memcpy(out, pixels, bytes);
            return APP_ISOLATED_DRAWN;
        }
        if (done == 2) {
            snprintf(message, size, "%s", s->message);
            return APP_ISOLATED_FAILED;
        }
        return died(stop_child(iso, true), message, size); /* the next page forks another */
    }
    return APP_ISOLATED_NO_CHILD;
}
