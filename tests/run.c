/* SPDX-License-Identifier: MIT */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 32

void run_slurp(const char *path, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    fclose(f);
}

pid_t run_spawn(const char *exe, const char *dir, const char *env, const char *const *args)
{
    const char *argv[MAX_ARGS] = {exe};
    int argc = 1;
    for (; args[argc - 1] && argc < MAX_ARGS - 1; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;
    char out_path[512], err_path[512];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
    pid_t pid = fork();
    if (pid == 0) {
        int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1);
        dup2(e, 2);
        if (env) {
            char name[128];
            snprintf(name, sizeof name, "%s", env);
            char *eq = strchr(name, '=');
            if (eq) {
                *eq = '\0';
                setenv(name, eq + 1, 1);
            } else {
                unsetenv(name);
            }
        }
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

Run run_wait(pid_t pid, const char *dir, double timeout)
{
    Run r = {.status = -1};
    int ws = 0;
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (double waited = 0.0; waitpid(pid, &ws, timeout > 0.0 ? WNOHANG : 0) == 0; waited += 0.01) {
        if (waited >= timeout) { /* a hang: killed, and said so by its status */
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
            break;
        }
        nanosleep(&tick, NULL);
    }
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    char out_path[512], err_path[512];
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", dir);
    run_slurp(out_path, r.out, sizeof r.out);
    run_slurp(err_path, r.err, sizeof r.err);
    return r;
}

Run run_va(const char *exe, const char *dir, const char *env, const char *first, va_list ap)
{
    const char *args[RUN_MAX_ARGS];
    int n = 0;
    for (const char *a = first; a && n < RUN_MAX_ARGS - 1; a = va_arg(ap, const char *))
        args[n++] = a;
    args[n] = NULL;
    return run_program(exe, dir, env, args);
}

Run run_program(const char *exe, const char *dir, const char *env, const char *const *args)
{
    return run_wait(run_spawn(exe, dir, env, args), dir, 0.0);
}

bool run_test_args(int argc, char **argv, const char *name, RunArgs *out)
{
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--verbose") != 0)) {
        fprintf(stderr, "usage: %s PAGECURL OUT_DIR [--verbose]\n", name);
        return false;
    }
    *out = (RunArgs){argv[1], argv[2], argc == 4};
    if (mkdir(out->out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot make %s: %s\n", name, out->out, strerror(errno));
        return false;
    }
    return true;
}

bool run_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    for (int x, y; same;) {
        x = fgetc(fa), y = fgetc(fb);
        same = x == y;
        if (x == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}
