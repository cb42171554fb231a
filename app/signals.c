/* SPDX-License-Identifier: MIT */
/* sigaltstack, SA_ONSTACK */
#define _DEFAULT_SOURCE

#include "signals.h"

#include "../gpu/headroom.h"

#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SIGNALS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIGNALS_SANITIZED 1
#endif
#endif

/* Set by the handler, read by the loops: a handler can only store to a volatile sig_atomic_t,
 * and it cannot be handed a pointer, so these are file-static (the one kind of mutable global
 * the project allows). */
static volatile sig_atomic_t caught;
static volatile sig_atomic_t deferred;

static void on_signal(int sig)
{
    if (deferred && !caught) {
        caught = sig;
        return;
    }
    /* Only async-signal-safe calls from here: write, sigaction, raise. */
    const char *line = sig == SIGINT    ? "pagecurl: stopped by SIGINT\n"
                       : sig == SIGTERM ? "pagecurl: stopped by SIGTERM\n"
                                        : "pagecurl: stopped by SIGHUP\n";
    ssize_t ignored = write(STDERR_FILENO, line, strlen(line));
    (void)ignored;
    /* Ended by the signal itself (the default action), so the parent sees which one: the signal
     * is blocked while this handler runs and is delivered as it returns. */
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

#ifndef SIGNALS_SANITIZED
/* A crash where no memory is left is the driver's (lavapipe dereferences a failed malloc, LLVM
 * aborts on std::bad_alloc) and its cause is out of memory: said so, exit 1. Any other crash
 * takes its default action (a core dump) as it returns. */
static void on_crash(int sig)
{
    if (gpu_headroom_short()) {
        static const char line[] = "pagecurl: out of memory: the Vulkan driver failed for want of "
                                   "address space (the limit ulimit -v sets)\n";
        ssize_t ignored = write(STDERR_FILENO, line, sizeof line - 1);
        (void)ignored;
        _exit(1);
    }
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (sig == SIGABRT)
        raise(sig);
}

/* On a stack of its own: the crash may be a stack that ran out. */
static void install_crash_handler(void)
{
    static const size_t size = 64u << 10;
    stack_t stack = {.ss_sp = malloc(size), .ss_size = size};
    if (!stack.ss_sp || sigaltstack(&stack, NULL) != 0) {
        free(stack.ss_sp);
        return;
    }
    /* the stack stays the process's until it ends */
    struct sigaction action = {.sa_handler = on_crash, .sa_flags = SA_ONSTACK};
    sigemptyset(&action.sa_mask);
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGABRT};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &action, NULL);
}
#else
/* Sanitized builds keep their own handlers, whose reports say more. */
static void install_crash_handler(void) {}
#endif

void app_signals_install(void)
{
    install_crash_handler();
    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    /* SA_RESTART: a write in progress finishes instead of failing with EINTR */
    action.sa_flags = SA_RESTART;
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
        sigaddset(&action.sa_mask, stops[i]);
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
        sigaction(stops[i], &action, NULL);
}

void app_signals_defer(void)
{
    deferred = 1;
}

int app_signals_caught(void)
{
    return caught;
}

const char *app_signals_name(int sig)
{
    return sig == SIGINT    ? "SIGINT"
           : sig == SIGTERM ? "SIGTERM"
           : sig == SIGHUP  ? "SIGHUP"
                            : "a signal";
}
