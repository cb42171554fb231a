/* SPDX-License-Identifier: MIT */
/* SIGINT, SIGTERM and SIGHUP (Ctrl+C, kill, a closed terminal or dropped ssh link) end every
 * stage of a run. Until the run holds something of the user's that is not yet on disk (start-up:
 * reading the trace and the book, making the device and its pipelines), a signal ends the program
 * at once, whatever call it is in. From app_signals_defer on (the notebook's open: a notebook the
 * run makes is removed again at its end), it is a request to stop: a notebook being read gives up
 * its reading, the loops ask between frames and end cleanly, so the notebook and the trace are
 * saved and no file is left half written; a second signal then ends the program at once (the ink
 * is on disk as it is made, so at most the stroke being drawn is lost, and only because the user
 * insisted). */
#ifndef PAGECURL_APP_SIGNALS_H
#define PAGECURL_APP_SIGNALS_H

/* Installs the handlers, in the end-at-once mode; call before SDL starts (SDL then leaves them
 * alone). */
void app_signals_install(void);
/* From now on a (first) signal is a request the loops read through app_signals_caught. */
void app_signals_defer(void);
/* The signal that asked the program to stop, 0 when none has. */
int app_signals_caught(void);
/* Its name ("SIGTERM"), for messages. */
const char *app_signals_name(int sig);

#endif
