/* SIGINT, SIGTERM and SIGHUP (Ctrl+C, kill, a closed terminal or dropped ssh link) as a request
 * to stop: the loops ask between frames and end cleanly, so the notebook and the trace are saved
 * and no file is left half written. */
#ifndef PAGECURL_APP_SIGNALS_H
#define PAGECURL_APP_SIGNALS_H

/* Installs the handlers; call before SDL starts (SDL then leaves them alone). */
void app_signals_install(void);
/* The signal that asked the program to stop, 0 when none has. */
int app_signals_caught(void);
/* Its name ("SIGTERM"), for messages. */
const char *app_signals_name(int sig);

#endif
