#include "signals.h"

#include <signal.h>
#include <stddef.h>

/* Set by the handler, read by the loops: a handler can only store to a volatile sig_atomic_t,
 * and it cannot be handed a pointer, so this is file-static (the one kind of mutable global the
 * project allows). */
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    caught = sig;
}

void app_signals_install(void)
{
    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    /* SA_RESTART: a write in progress finishes instead of failing with EINTR */
    action.sa_flags = SA_RESTART;
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
        sigaction(stops[i], &action, NULL);
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
