/* SPDX-License-Identifier: MIT */
/* open_bench: how long a viewer takes to show a page's text, seen on the X screen (BENCHMARKS.md,
 * issue 50). Runs COMMAND on the display and reads the root window back (MIT-SHM, every 10 ms,
 * a few ms each; the root made plain black first) until the picture has not changed for 1.5 s;
 * the print is shown at the first reading that holds half the print pixels (dark, luma below 96,
 * with paper 3 px to one side) the last one holds, and sharp at the first that holds 90 % of
 * them, which is where any viewer's text stands drawn, whatever its own way of telling. Prints,
 * in ms from the exec: those two moments, the viewer's CPU time until it is sharp (the process
 * and its children, from /proc: a page helper is one), and its CPU time until it rests. The
 * same measure for any viewer, so mupdf and pagecurl are timed alike (tools/open-bench.sh runs
 * them in turn).
 *
 * open_bench COMMAND [ARG...] */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 4096
#define QUIET_MS    1500.0
#define LIMIT_MS    30000.0
#define DARK_LUMA   96
#define PAPER_LUMA  200
#define EDGE_PX     3

typedef struct Sample {
    double ms;
    long dark;
    double cpu_ms;
} Sample;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* utime + stime of one process, in clock ticks (0 once it is gone) */
static long long ticks_of(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* the name may hold spaces */
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return 0;
    return (long long)(ut + st);
}

/* The viewer's CPU so far: it and its children (each thread's children listed by /proc). */
static double cpu_ms(pid_t pid)
{
    long long t = ticks_of(pid);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char kids[320];
        snprintf(kids, sizeof kids, "/proc/%d/task/%s/children", (int)pid, e->d_name);
        FILE *f = fopen(kids, "r");
        int child;
        while (f && fscanf(f, "%d", &child) == 1)
            t += ticks_of(child);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return 1e3 * (double)t / (double)sysconf(_SC_CLK_TCK);
}

static int luma(const uint8_t *p)
{
    return (p[0] * 29 + p[1] * 150 + p[2] * 77) >> 8; /* 24-bit depth: B, G, R, X */
}

/* Print: dark pixels with paper beside them (bright EDGE_PX to the left or right). A window's
 * plain backdrop, dark or light, has none but along its edges. */
static long print_pixels(const XImage *img)
{
    long n = 0;
    for (int y = 0; y < img->height; y += 2) {
        const uint8_t *row = (const uint8_t *)img->data + (size_t)y * img->bytes_per_line;
        for (int x = EDGE_PX; x < img->width - EDGE_PX; x += 2)
            n += luma(row + 4 * x) < DARK_LUMA && (luma(row + 4 * (x - EDGE_PX)) > PAPER_LUMA ||
                                                   luma(row + 4 * (x + EDGE_PX)) > PAPER_LUMA);
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: open_bench COMMAND [ARG...]\n");
        return 2;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "open_bench: no X display (DISPLAY: %s)\n",
                getenv("DISPLAY") ? getenv("DISPLAY") : "unset");
        return 1;
    }
    int screen = DefaultScreen(dpy);
    Window root = RootWindow(dpy, screen);
    int w = DisplayWidth(dpy, screen), h = DisplayHeight(dpy, screen);
    if (!XShmQueryExtension(dpy) || DefaultDepth(dpy, screen) != 24) {
        fprintf(stderr, "open_bench: the display has no MIT-SHM or is not 24 bits deep\n");
        return 1;
    }
    XShmSegmentInfo shm = {0};
    XImage *img = XShmCreateImage(dpy, DefaultVisual(dpy, screen), 24, ZPixmap, NULL, &shm,
                                  (unsigned)w, (unsigned)h);
    shm.shmid = img ? shmget(IPC_PRIVATE, (size_t)img->bytes_per_line * h, IPC_CREAT | 0600) : -1;
    if (shm.shmid < 0) {
        fprintf(stderr, "open_bench: no shared memory for a %dx%d reading\n", w, h);
        return 1;
    }
    shm.shmaddr = img->data = shmat(shm.shmid, NULL, 0);
    shm.readOnly = False;
    XShmAttach(dpy, &shm);
    /* the root plain black: Xvfb's own is a stipple, print everywhere by this measure */
    XSetWindowBackground(dpy, root, BlackPixel(dpy, screen));
    XClearWindow(dpy, root);
    XSync(dpy, False);
    shmctl(shm.shmid, IPC_RMID, NULL); /* gone once both sides detach */

    double t0 = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    static Sample s[MAX_SAMPLES];
    int n = 0;
    double changed = t0;
    long last = -1;
    while (n < MAX_SAMPLES) {
        usleep(10000);
        if (!XShmGetImage(dpy, root, img, 0, 0, AllPlanes))
            break;
        double t = now_ms();
        s[n++] = (Sample){t - t0, print_pixels(img), cpu_ms(pid)};
        if (s[n - 1].dark != last)
            changed = t, last = s[n - 1].dark;
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            fprintf(stderr, "open_bench: %s ended before it rested\n", argv[1]);
            return 1;
        }
        if ((last > 0 && t - changed > QUIET_MS &&
             s[n - 1].cpu_ms == s[n > 10 ? n - 10 : 0].cpu_ms) ||
            t - t0 > LIMIT_MS)
            break;
    }
    double rest_cpu = n ? s[n - 1].cpu_ms : 0.0;
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    XShmDetach(dpy, &shm);
    shmdt(shm.shmaddr);
    XCloseDisplay(dpy);
    if (!n || s[n - 1].dark <= 0) {
        fprintf(stderr, "open_bench: %s showed no text\n", argv[1]);
        return 1;
    }
    long final = s[n - 1].dark;
    for (int i = 0; getenv("OPEN_BENCH_TRACE") && i < n; i++)
        if (!i || s[i].dark != s[i - 1].dark)
            fprintf(stderr, "%.0f ms: %ld print pixels, cpu %.0f ms\n", s[i].ms, s[i].dark * 4,
                    s[i].cpu_ms);
    int half = 0, k = 0;
    while (half < n && s[half].dark * 2 < final)
        half++;
    while (k < n && s[k].dark * 10 < final * 9)
        k++;
    printf(
        "print %.0f ms, sharp %.0f ms, cpu %.0f ms until sharp, %.0f ms until at rest (%ld print "
        "pixels)\n",
        s[half].ms, s[k].ms, s[k].cpu_ms, rest_cpu, final * 4);
    return 0;
}
