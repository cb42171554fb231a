/* SPDX-License-Identifier: MIT */
/* MSG_CMSG_CLOEXEC */
#define _GNU_SOURCE

#include "page_wire.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* How often a wait looks at its stop flag. */
#define WAIT_MS 5

void pages_wire_put(PagesWireOut *o, const void *bytes, size_t n)
{
    if (o->failed)
        return;
    if (n > PAGES_WIRE_MAX_PAYLOAD - o->size) {
        o->failed = true;
        return;
    }
    if (o->size + n > o->capacity) {
        size_t cap = o->capacity ? o->capacity : 256;
        while (cap < o->size + n)
            cap *= 2;
        uint8_t *grown = realloc(o->data, cap);
        if (!grown) {
            o->failed = true;
            return;
        }
        o->data = grown, o->capacity = cap;
    }
    if (n)
        memcpy(o->data + o->size, bytes, n);
    o->size += n;
}

void pages_wire_u32(PagesWireOut *o, uint32_t v)
{
    pages_wire_put(o, &v, sizeof v);
}

void pages_wire_i32(PagesWireOut *o, int32_t v)
{
    pages_wire_put(o, &v, sizeof v);
}

void pages_wire_f32(PagesWireOut *o, float v)
{
    pages_wire_put(o, &v, sizeof v);
}

void pages_wire_str(PagesWireOut *o, const char *s, size_t n)
{
    pages_wire_u32(o, s ? (uint32_t)n : 0u);
    if (s)
        pages_wire_put(o, s, n);
}

void pages_wire_out_free(PagesWireOut *o)
{
    free(o->data);
    *o = (PagesWireOut){0};
}

static bool take(PagesWireIn *in, void *out, size_t n)
{
    if (in->bad || in->left < n) {
        in->bad = true;
        memset(out, 0, n);
        return false;
    }
    memcpy(out, in->at, n);
    in->at += n, in->left -= n;
    return true;
}

uint32_t pages_wire_get_u32(PagesWireIn *in)
{
    uint32_t v;
    take(in, &v, sizeof v);
    return v;
}

int32_t pages_wire_get_i32(PagesWireIn *in)
{
    int32_t v;
    take(in, &v, sizeof v);
    return v;
}

float pages_wire_get_f32(PagesWireIn *in)
{
    float v;
    take(in, &v, sizeof v);
    return v;
}

size_t pages_wire_get_str(PagesWireIn *in, char *out, size_t max, bool printable)
{
    uint32_t n = pages_wire_get_u32(in);
    out[0] = '\0';
    if (in->bad || n > max || n > in->left) {
        in->bad = true;
        return 0;
    }
    memcpy(out, in->at, n);
    out[n] = '\0';
    in->at += n, in->left -= n;
    if (printable)
        for (uint32_t i = 0; i < n; i++)
            if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
                out[i] = ' ';
    return n;
}

bool pages_wire_get_linked(const uint8_t *payload, size_t size, int pages, PagesLinked *out)
{
    PagesWireIn in = {payload, size, false};
    out->ok = pages_wire_get_i32(&in);
    pages_wire_get_str(&in, out->message, sizeof out->message - 1, true);
    float at[4];
    for (int i = 0; i < 4; i++)
        at[i] = pages_wire_get_f32(&in);
    bool on_leaf = at[0] >= 0.0f && at[1] >= 0.0f && at[2] > 0.0f && at[3] > 0.0f &&
                   at[0] + at[2] <= 1.001f && at[1] + at[3] <= 1.001f;
    float whole[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    memcpy(out->place, on_leaf ? at : whole, sizeof at);
    uint32_t count = pages_wire_get_u32(&in);
    out->count = 0;
    if (in.bad || (out->ok != 0 && out->ok != 1) || count > PAGES_LINKS_MAX)
        return false;
    for (uint32_t i = 0; i < count && !in.bad; i++) {
        PagesLink *l = &out->links[out->count];
        float x0 = pages_wire_get_f32(&in), y0 = pages_wire_get_f32(&in);
        float x1 = pages_wire_get_f32(&in), y1 = pages_wire_get_f32(&in);
        int32_t target = pages_wire_get_i32(&in);
        pages_wire_get_str(&in, l->uri, PAGES_LINK_URI_MAX, true);
        if (!(isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)))
            return false;
        l->x0 = fminf(x0, x1), l->x1 = fmaxf(x0, x1);
        l->y0 = fminf(y0, y1), l->y1 = fmaxf(y0, y1);
        l->target = target >= 0 && target < pages ? target : -1;
        if (l->target >= 0)
            l->uri[0] = '\0';
        out->count++;
    }
    return !in.bad;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Until `socket` is ready for `events`, `*stop` is set or the deadline (0: none) passes. */
static PagesWireStatus wait_for(int socket, short events, const volatile int *stop, double deadline)
{
    for (;;) {
        struct pollfd p = {.fd = socket, .events = events};
        int r = poll(&p, 1, stop || deadline > 0.0 ? WAIT_MS : -1);
        if (r > 0)
            return PAGES_WIRE_OK; /* ready, or closed: the read or write says which */
        if (r < 0 && errno != EINTR)
            return PAGES_WIRE_BAD;
        if (stop && *stop)
            return PAGES_WIRE_STOPPED;
        if (deadline > 0.0 && now() > deadline)
            return PAGES_WIRE_LATE;
    }
}

static PagesWireStatus send_all(int socket, const uint8_t *bytes, size_t n, int fd,
                                const volatile int *stop)
{
    while (n) {
        struct iovec v = {.iov_base = (void *)bytes, .iov_len = n};
        union {
            char bytes[CMSG_SPACE(sizeof(int))];
            struct cmsghdr align;
        } control;
        struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1};
        if (fd >= 0) {
            memset(&control, 0, sizeof control);
            m.msg_control = control.bytes, m.msg_controllen = sizeof control.bytes;
            struct cmsghdr *c = CMSG_FIRSTHDR(&m);
            c->cmsg_level = SOL_SOCKET, c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(c), &fd, sizeof fd);
        }
        ssize_t k = sendmsg(socket, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) {
            bytes += k, n -= (size_t)k, fd = -1; /* the descriptor went with the first byte */
            continue;
        }
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            PagesWireStatus w = wait_for(socket, POLLOUT, stop, 0.0);
            if (w != PAGES_WIRE_OK)
                return w;
            continue;
        }
        return errno == EPIPE || errno == ECONNRESET ? PAGES_WIRE_CLOSED : PAGES_WIRE_BAD;
    }
    return PAGES_WIRE_OK;
}

PagesWireStatus pages_wire_send(int socket, uint32_t type, const PagesWireOut *payload, int fd,
                                const volatile int *stop)
{
    if (payload && payload->failed)
        return PAGES_WIRE_BAD;
    uint32_t header[2] = {type, payload ? (uint32_t)payload->size : 0u};
    PagesWireStatus s = send_all(socket, (const uint8_t *)header, sizeof header, fd, stop);
    if (s == PAGES_WIRE_OK && payload && payload->size)
        s = send_all(socket, payload->data, payload->size, -1, stop);
    return s;
}

/* `n` bytes into `out`; the first descriptor that comes with them into *fd (others closed). */
static PagesWireStatus recv_all(int socket, uint8_t *out, size_t n, int *fd,
                                const volatile int *stop, double deadline)
{
    while (n) {
        struct iovec v = {.iov_base = out, .iov_len = n};
        union {
            char bytes[CMSG_SPACE(4 * sizeof(int))];
            struct cmsghdr align;
        } control;
        struct msghdr m = {.msg_iov = &v, .msg_iovlen = 1};
        m.msg_control = control.bytes, m.msg_controllen = sizeof control.bytes;
        ssize_t k = recvmsg(socket, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (k > 0) {
            for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
                    for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
                        int got;
                        memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
                        if (fd && *fd < 0)
                            *fd = got;
                        else
                            close(got);
                    }
            out += k, n -= (size_t)k;
            continue;
        }
        if (k == 0)
            return PAGES_WIRE_CLOSED;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            PagesWireStatus w = wait_for(socket, POLLIN, stop, deadline);
            if (w != PAGES_WIRE_OK)
                return w;
            continue;
        }
        return errno == ECONNRESET ? PAGES_WIRE_CLOSED : PAGES_WIRE_BAD;
    }
    return PAGES_WIRE_OK;
}

PagesWireStatus pages_wire_recv(int socket, uint32_t *type, uint8_t **payload, size_t *payload_size,
                                int *fd, const volatile int *stop, double ceiling)
{
    *payload = NULL, *payload_size = 0;
    if (fd)
        *fd = -1;
    double deadline = ceiling > 0.0 ? now() + ceiling : 0.0;
    uint32_t header[2];
    PagesWireStatus s = recv_all(socket, (uint8_t *)header, sizeof header, fd, stop, deadline);
    if (s == PAGES_WIRE_OK && header[1] > PAGES_WIRE_MAX_PAYLOAD)
        s = PAGES_WIRE_BAD;
    uint8_t *bytes = NULL;
    if (s == PAGES_WIRE_OK && !(bytes = malloc(header[1] ? header[1] : 1)))
        s = PAGES_WIRE_BAD;
    if (s == PAGES_WIRE_OK)
        s = recv_all(socket, bytes, header[1], NULL, stop, deadline);
    if (s != PAGES_WIRE_OK) {
        free(bytes);
        if (fd && *fd >= 0)
            close(*fd), *fd = -1;
        return s;
    }
    *type = header[0], *payload = bytes, *payload_size = header[1];
    return PAGES_WIRE_OK;
}
