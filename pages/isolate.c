/* fork() without exec from a threaded process: the child runs only the drawing thread's code on
 * its copy of memory. glibc's malloc is usable there (fork takes and resets its arenas' locks);
 * the decoder's state is the forking thread's own; nothing else is touched, and the child leaves
 * by _exit (no atexit handlers: the parent's Vulkan driver is never entered). */
#define _DEFAULT_SOURCE

#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child leaves for the parent, ahead of the pixels. */
typedef struct Shared {
    int done; /* 1 drawn, 2 failed: written last */
    char message[512];
} Shared;

/* The child's signals as a fresh process has them: the parent's handlers (the program's crash
 * and stop handlers) would speak for the program. */
static void child_defaults(void)
{
    static const int signals[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT, SIGTERM,
                                  SIGINT,  SIGHUP, SIGQUIT, SIGPIPE, SIGTRAP};
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        sigaction(signals[i], &dfl, NULL);
    /* the decoder's own warnings, a sanitizer's report of its crash: not the program's lines */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
}

AppIsolated app_isolate_draw(AppIsolatedDraw draw, void *user, uint8_t *out, size_t bytes,
                             char *message, size_t size, const volatile int *stop)
{
    size_t length = sizeof(Shared) + bytes;
    void *map = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return APP_ISOLATED_NO_CHILD;
    Shared *shared = map;
    uint8_t *pixels = (uint8_t *)map + sizeof(Shared);
    memcpy(pixels, out, bytes); /* the drawing goes onto what `out` holds (paper, a margin) */
    /* the child holds the pipe's end open while it lives: its end, a crash's too, wakes poll */
    int ends[2];
    if (pipe(ends) != 0) {
        munmap(map, length);
        return APP_ISOLATED_NO_CHILD;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(ends[0]);
        child_defaults();
        bool ok = draw(user, pixels, shared->message, sizeof shared->message);
        __atomic_store_n(&shared->done, ok ? 1 : 2, __ATOMIC_RELEASE);
        _exit(0);
    }
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        munmap(map, length);
        return APP_ISOLATED_NO_CHILD;
    }
    bool stopped = false;
    for (;;) {
        struct pollfd p = {.fd = ends[0], .events = POLLIN};
        int r = poll(&p, 1, 5);
        if (r > 0 || (r < 0 && errno != EINTR))
            break;
        if (stop && *stop) {
            kill(pid, SIGKILL);
            stopped = true;
            break;
        }
    }
    close(ends[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    int done = __atomic_load_n(&shared->done, __ATOMIC_ACQUIRE);
    AppIsolated result;
    if (stopped && !done) {
        result = APP_ISOLATED_STOPPED;
    } else if (done == 1) {
        memcpy(out, pixels, bytes);
        result = APP_ISOLATED_DRAWN;
    } else if (done == 2) {
        snprintf(message, size, "%s", shared->message);
        result = APP_ISOLATED_FAILED;
    } else {
        if (WIFSIGNALED(status))
            snprintf(message, size, "the decoder crashed on it: %s", strsignal(WTERMSIG(status)));
        else
            snprintf(message, size, "the decoder ended with status %d", WEXITSTATUS(status));
        result = APP_ISOLATED_CRASHED;
    }
    munmap(map, length);
    return result;
}
