/* SPDX-License-Identifier: MIT */
/* realpath, fstatat; d_type (DT_REG, DT_DIR) */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include "book_source.h"
#include "../mesh/grid.h"
#include "../mesh/ink.h"

#include "content.h"
#include "file.h"
#include "page_helper.h"
#include "page_labels.h"
#include "provider_call.h"
#include "safe_write.h"
#include "typeface.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef enum SourceKind { SOURCE_BUILTIN, SOURCE_IMAGES, SOURCE_PDF, SOURCE_PROVIDER } SourceKind;

/* What the OPEN request's kind says (docs/page-helper.md): a document file (the helper tells
 * which by its content) or a folder of images. */
enum { OPEN_PDF = 1, OPEN_FOLDER = 2 };

struct PagesBookSource {
    SourceKind kind;
    int pages;
    float aspect;
    char *name;              /* absolute path; "" for the built-in book */
    char **files;            /* SOURCE_IMAGES: pages paths, in order */
    size_t prefix;           /* the bytes of "folder/" before each page's name in `files` */
    PagesTypeface *face;     /* SOURCE_BUILTIN: its text's face; NULL: stb_easy_font */
    char notice[512];        /* pages_book_source_notice */
    PageProvider provider;   /* SOURCE_PROVIDER */
    PagesProviderCall *left; /* its call left running (a page given up), until it returns */
    /* SOURCE_PROVIDER with a size: each page's height / width as the host said (0: not asked
     * yet; below 0: none, the leaf's), written on the host's thread and read by the drawing one
     * (__atomic: a page forgotten while it is drawn) */
    float *shapes;
    PagesProviderCall *text_left, *links_left; /* its text's and its links' likewise */
    PageLabels labels;                         /* a PDF's own, read at open; none for other books */
    bool right_to_left;     /* a PDF's /ViewerPreferences /Direction /R2L; a comic's Manga */
    bool reflowable;        /* an EPUB's or FB2's text, laid out by the helper */
    PagesTextLayout layout; /* a file's: the layout asked for, as the helper takes it */
    bool repaired; /* a PDF whose cross-reference MuPDF rebuilt (pages_book_source_repaired) */
    bool named_otherwise;       /* a folder's page is a link, or of a type its folder did not say */
    PagesOutlineEntry *outline; /* a PDF's table of contents, in reading order; NULL: none */
    int outline_count;
    char id[PAGES_BOOK_ID_MAX]; /* what the book is by content (pages_book_source_id); "" none */
    /* a file's book is read by the page helper (pages/page_helper.h), which `stop` kills: the
     * PDF or the folder, open here and given to every helper started, and the OPEN it is sent */
    int book;
    PagesWireOut request;
    PageHelper *helper;
    uint32_t confined; /* what the helper gave up (pages_book_source_confined) */
    float drawn[2];    /* pages_book_source_drawn_print */
    /* a test's fault (pages_book_source_draw_fault): a file's or a folder's page drawn takes this
     * many ms longer for each million texels drawn (0: no delay) */
    uint32_t draw_fault_ms;
    volatile int stop;
    /* a second helper for searches (pages_book_source_find), so that a search never waits on a
     * page being drawn nor a page on a search; started at the first search */
    PageHelper *finder;
    volatile int find_stop;
    /* a third for links (pages_book_source_links), asked on the host's thread; started at the
     * first page's links */
    PageHelper *linker;
    volatile int link_stop;      /* never set: a page's links are waited for, PAGES_LINKS_SECONDS */
    pthread_mutex_t finder_lock; /* one call at a time with it: a search's and a page's text */
    /* one call at a time with the drawing helper: a page's drawing (the stream's worker) and a
     * place in the text (the host's thread, pages_book_source_text_place) */
    pthread_mutex_t helper_lock;
};

static int fail(char *message, size_t size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *message, size_t size, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, size, fmt, ap);
    va_end(ap);
    return status;
}

static int compare_names(const void *a, const void *b)
{
    int c = pages_book_name_compare(*(char *const *)a, *(char *const *)b);
    return c ? c : strcmp(*(char *const *)a, *(char *const *)b);
}

static int open_folder(PagesBookSource *src, const char *path, char *message, size_t size)
{
    DIR *dir = opendir(path);
    if (!dir)
        return fail(message, size, 1, "%s: %s", path, strerror(errno));
    /* the folder as it was listed: the helper reads its pages in it, whatever its name leads to
     * later */
    src->book = fcntl(dirfd(dir), F_DUPFD_CLOEXEC, 0);
    if (src->book < 0) {
        int e = errno;
        closedir(dir);
        return fail(message, size, 1, "%s: %s", path, strerror(e));
    }
    src->prefix = strlen(path) + 1;
    size_t cap = 0;
    struct dirent *e;
    int status = 0;
    char pdf[sizeof e->d_name] = ""; /* the first PDF the folder holds: where no image is, named */
    while (!status && (e = readdir(dir))) {
        if (!pdf[0] && e->d_name[0] != '.' && e->d_type != DT_DIR &&
            pages_book_has_suffix(e->d_name, ".pdf"))
            snprintf(pdf, sizeof pdf, "%s", e->d_name);
        if (!pages_book_image_name(e->d_name))
            continue;
        /* A folder with a page's name is no page: skipped, as the other names are. Anything
         * else that is no regular file (a FIFO, a device, a socket) would block or never end
         * when read: the book is refused, naming it. Links are followed; one that leads nowhere
         * (dangling, looping, unreadable) is a page that fails at open, as a file that is no
         * image is: crossed out when drawn, with its cause (pages_file_open says it). */
        struct stat st = {.st_mode = e->d_type == DT_REG ? S_IFREG : S_IFDIR};
        /* the entry's own type where the file system gives it (a link's is its target's, and an
         * unknown type is asked): a stat of each of 100,000 pages is a noticeable wait */
        if (e->d_type != DT_REG && e->d_type != DT_DIR &&
            fstatat(dirfd(dir), e->d_name, &st, 0) != 0) {
            if (errno == ENOMEM) {
                status = fail(message, size, 1, "%s/%s: %s", path, e->d_name, strerror(errno));
                break;
            }
            st.st_mode = S_IFREG;
        }
        if (S_ISDIR(st.st_mode))
            continue;
        src->named_otherwise |= e->d_type != DT_REG;
        if (!S_ISREG(st.st_mode)) {
            status = fail(message, size, 1, "%s/%s: %s, not a regular file", path, e->d_name,
                          pages_file_kind(st.st_mode));
            break;
        }
        if ((size_t)src->pages == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(src->files, cap * sizeof *grown);
            if (!grown) {
                status = fail(message, size, 1, "%s: out of memory", path);
                break;
            }
            src->files = grown;
        }
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *file = malloc(n);
        if (!file) {
            status = fail(message, size, 1, "%s: out of memory", path);
            break;
        }
        snprintf(file, n, "%s/%s", path, e->d_name);
        src->files[src->pages++] = file;
    }
    closedir(dir);
    if (status)
        return status;
#ifdef PAGECURL_HAVE_PDF
    if (!src->pages && pdf[0])
        return fail(message, size, 2,
                    "%s: a folder with no images (PNG, JPEG, BMP, GIF, PNM, TIFF); the PDF in it "
                    "opens as a book itself: %s/%s",
                    path, path, pdf);
#endif
    if (!src->pages)
        return fail(message, size, 2,
                    "%s: a folder with no images (PNG, JPEG, BMP, GIF, PNM, TIFF)", path);
    if (src->pages > MESH_INK_MAX_PAGES)
        return fail(message, size, 2, "%s: %d pages, more than the %d a book may have", path,
                    src->pages, MESH_INK_MAX_PAGES);
    qsort(src->files, (size_t)src->pages, sizeof *src->files, compare_names);
    pages_wire_u32(&src->request, OPEN_FOLDER);
    pages_wire_str(&src->request, path, strlen(path));
    pages_wire_str(&src->request, src->name, strlen(src->name));
    pages_wire_u32(&src->request, (uint32_t)src->pages);
    for (int p = 0; p < src->pages; p++)
        pages_wire_str(&src->request, src->files[p] + src->prefix,
                       strlen(src->files[p] + src->prefix));
    return src->request.failed ? fail(message, size, 1, "%s: out of memory", path) : 0;
}

/* Whether the file at `path` is a document the helper reads (a PDF, EPUB, FB2, XPS or comic
 * book): by its name, or by its first bytes whatever its name (a PDF's header, a zip's, an FB2
 * book's <FictionBook>). The helper then tells which by its content; this process parses none of
 * it. */
static bool document_file(const char *path)
{
    static const char *const names[] = {".pdf", ".epub", ".fb2", ".xps", ".oxps", ".cbz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (pages_book_has_suffix(path, names[i]))
            return true;
    char why[256];
    FILE *f = pages_file_open(path, why, sizeof why);
    if (!f)
        return false;
    unsigned char head[1024];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n >= 4 && !memcmp(head, "PK\3\4", 4))
        return true;
    /* MuPDF finds a PDF's header within its first 1 KiB; an FB2 book's element comes after its
     * XML declaration */
    bool pdf = false, fb2 = false;
    for (size_t i = 0; i < n && !pdf && !fb2; i++) {
        pdf = i + 5 <= n && !memcmp(head + i, "%PDF-", 5);
        fb2 = i + 12 <= n && !memcmp(head + i, "<FictionBook", 12);
    }
    return pdf || fb2;
}

/* `layout` as the helper lays a book out to it: a page's shape and a text size outside a book's
 * (NaN among them) are the defaults. */
static PagesTextLayout text_layout(const PagesTextLayout *layout)
{
    PagesTextLayout l = {PAGES_BOOK_PAGE_ASPECT, PAGES_BOOK_FONT_SIZE};
    if (layout && layout->aspect >= PAGES_BOOK_ASPECT_MIN &&
        layout->aspect <= PAGES_BOOK_ASPECT_MAX)
        l.aspect = layout->aspect;
    if (layout && layout->font_size >= PAGES_BOOK_FONT_MIN &&
        layout->font_size <= PAGES_BOOK_FONT_MAX)
        l.font_size = layout->font_size;
    return l;
}

#ifdef PAGECURL_HAVE_PDF
/* The document at `path`, opened here (pages_file_open: never a FIFO or a device) and given to the
 * helper as its descriptor: MuPDF opening the path itself would block on a FIFO. */
static int open_pdf(PagesBookSource *src, const char *path, const PagesTextLayout *layout,
                    char *message, size_t size)
{
    char why[256];
    FILE *f = pages_file_open(path, why, sizeof why);
    if (!f)
        return fail(message, size, errno == ENOENT ? 2 : 1, "%s: %s", path, why);
    struct stat st;
    bool empty = fstat(fileno(f), &st) == 0 && st.st_size == 0;
    src->book = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
    int e = errno;
    fclose(f);
    if (src->book < 0)
        return fail(message, size, 1, "%s: %s", path, strerror(e));
    if (empty) /* MuPDF: "cannot tell in file" */
        return fail(message, size, 1, "%s: an empty file, not a book", path);
    pages_wire_u32(&src->request, OPEN_PDF);
    pages_wire_str(&src->request, path, strlen(path));
    pages_wire_str(&src->request, src->name, strlen(src->name));
    pages_wire_u32(&src->request, 0);
    src->layout = text_layout(layout);
    pages_wire_f32(&src->request, src->layout.aspect);
    pages_wire_f32(&src->request, src->layout.font_size);
    return src->request.failed ? fail(message, size, 1, "%s: out of memory", path) : 0;
}
#endif

/* The page labels and outline of the helper's OPENED: false where they are malformed. */
static bool read_contents(PagesBookSource *src, PagesWireIn *in)
{
    page_labels_free(&src->labels);
    for (int i = 0; i < src->outline_count; i++)
        free(src->outline[i].title);
    free(src->outline);
    src->outline = NULL, src->outline_count = 0;
    uint32_t ranges = pages_wire_get_u32(in);
    if (ranges > PAGE_LABELS_MAX_RANGES)
        return false;
    for (uint32_t i = 0; i < ranges && !in->bad; i++) {
        char prefix[4 * PAGE_LABELS_MAX_PREFIX + 1];
        int32_t start = pages_wire_get_i32(in);
        uint32_t style = pages_wire_get_u32(in);
        int32_t first = pages_wire_get_i32(in);
        pages_wire_get_str(in, prefix, sizeof prefix - 1, true);
        if (style > PAGES_LABEL_LETTERS_LOWER)
            return false;
        page_labels_add(&src->labels, start, (PagesLabelStyle)style, first, prefix);
    }
    page_labels_finish(&src->labels, src->pages);
    uint32_t entries = pages_wire_get_u32(in);
    if (in->bad || entries > PAGES_OUTLINE_MAX)
        return false;
    if (entries && !(src->outline = calloc(entries, sizeof *src->outline)))
        return false;
    for (uint32_t i = 0; i < entries && !in->bad; i++) {
        char title[PAGES_OUTLINE_TITLE_MAX];
        int32_t page = pages_wire_get_i32(in), depth = pages_wire_get_i32(in);
        size_t n = pages_wire_get_str(in, title, sizeof title - 1, true);
        PagesOutlineEntry *e = &src->outline[src->outline_count];
        *e = (PagesOutlineEntry){.title = malloc(n + 1),
                                 .page = page >= 0 && page < src->pages ? page : -1,
                                 .depth = depth < 0                      ? 0
                                          : depth >= PAGES_OUTLINE_DEPTH ? PAGES_OUTLINE_DEPTH - 1
                                                                         : depth};
        if (!e->title)
            return false;
        memcpy(e->title, title, n + 1);
        src->outline_count++;
    }
    return !in->bad;
}

/* A helper started with the book, and its OPENED read: what the book is, where `first` (the
 * open), else only checked against it (a helper started again for the next page). 0, or the exit
 * status with the line. */
static int helper_answer(PagesBookSource *src, PageHelper *helper, uint32_t type, uint8_t *answer,
                         size_t n, bool first, const char *shown, int *moved, int count,
                         char *message, size_t size);

/* `type` with `payload` to the helper (started with the book where none runs), its OPENED read
 * as helper_answer reads it. */
static int helper_ask(PagesBookSource *src, PageHelper **helper, uint32_t type,
                      const PagesWireOut *payload, const volatile int *stop, bool first,
                      const char *shown, int *moved, int count, char *message, size_t size)
{
    if (!*helper && !(*helper = page_helper_create()))
        return fail(message, size, 1, "%s: out of memory", shown);
    uint32_t answered = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char why[512];
    switch (page_helper_call(*helper, type, payload, type == PAGES_WIRE_OPEN ? src->book : -1,
                             &answered, &answer, &n, first ? NULL : stop, why, sizeof why)) {
    case PAGES_HELPER_ANSWERED:
        break;
    case PAGES_HELPER_NONE:
        return fail(message, size, 1, "%s: %s", shown, why);
    case PAGES_HELPER_DIED:
        return fail(message, size, 1, "%s: cannot be read (%s)", shown, why);
    case PAGES_HELPER_STOPPED:
        return fail(message, size, 1, "%s: stopped", shown);
    }
    return helper_answer(src, *helper, answered, answer, n, first, shown, moved, count, message,
                         size);
}

static int helper_open_with(PagesBookSource *src, PageHelper **helper, const volatile int *stop,
                            bool first, const char *shown, char *message, size_t size)
{
    return helper_ask(src, helper, PAGES_WIRE_OPEN, &src->request, stop, first, shown, NULL, 0,
                      message, size);
}

/* The helper's OPENED (`answer`, taken): what the book is, where `first` (an open, a re-layout),
 * else only checked against it (a helper started again for the next page); and where `moved`,
 * the `count` pages a RELAYOUT says hold the text asked for. 0, or the exit status with the
 * line. */
static int helper_answer(PagesBookSource *src, PageHelper *helper, uint32_t type, uint8_t *answer,
                         size_t n, bool first, const char *shown, int *moved, int count,
                         char *message, size_t size)
{
    PagesWireIn in = {answer, n, false};
    int32_t status = type == PAGES_WIRE_OPENED ? pages_wire_get_i32(&in) : -1;
    char line[1024];
    pages_wire_get_str(&in, line, sizeof line - 1, true);
    uint32_t confined = pages_wire_get_u32(&in);
    uint32_t pages = pages_wire_get_u32(&in);
    float aspect = pages_wire_get_f32(&in);
    uint32_t flags = pages_wire_get_u32(&in);
    char id[PAGES_BOOK_ID_MAX];
    pages_wire_get_str(&in, id, sizeof id - 1, true);
    bool good =
        !in.bad && status >= 0 && status <= 2 &&
        (status || (pages >= 1 && pages <= MESH_INK_MAX_PAGES && isfinite(aspect) &&
                    aspect > 0.0f && (src->kind != SOURCE_IMAGES || (int)pages == src->pages)));
    int result = 0;
    if (good && !status && first) {
        src->pages = (int)pages, src->aspect = aspect, src->confined = confined;
        src->repaired = flags & 1u, src->right_to_left = flags & 2u, src->reflowable = flags & 4u;
        snprintf(src->id, sizeof src->id, "%s", id);
        good = read_contents(src, &in);
        if (good && moved) {
            good = pages_wire_get_u32(&in) == (uint32_t)count;
            for (int i = 0; good && i < count; i++) {
                int32_t p = pages_wire_get_i32(&in);
                moved[i] = p >= 0 && p < src->pages ? p : -1;
            }
            good = good && !in.bad;
        }
    }
    if (!good) {
        page_helper_stop(helper);
        result = fail(message, size, 1,
                      "%s: cannot be read (the page helper's answer is malformed)", shown);
    } else if (status) {
        result = fail(message, size, status, "%s", line);
    } else if (!first && (int)pages != src->pages) {
        page_helper_stop(helper);
        result = fail(message, size, 1, "%s: the book has changed since it was opened", shown);
    }
    free(answer);
    return result;
}

static int helper_open(PagesBookSource *src, bool first, const char *shown, char *message,
                       size_t size)
{
    return helper_open_with(src, &src->helper, &src->stop, first, shown, message, size);
}

int pages_book_source_open_provider(const PageProvider *provider, PagesBookSource **out,
                                    char *message, size_t size)
{
    *out = NULL;
    /* height : width, 1:100 .. 100:1 both included (NaN fails too) */
    if (provider->pages < 1 || !provider->draw || !(provider->aspect >= 0.01f) ||
        !(provider->aspect <= 100.0f))
        return fail(message, size, 2,
                    "a page provider needs at least one page, a draw function and a page shape "
                    "between 1:100 and 100:1");
    if (provider->pages > MESH_INK_MAX_PAGES)
        return fail(message, size, 2,
                    "a page provider's %d pages: more than the %d a book may have", provider->pages,
                    MESH_INK_MAX_PAGES);
    PagesBookSource *src = calloc(1, sizeof *src);
    if (src)
        src->book = -1, src->finder_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER,
        src->helper_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    if (!src || !(src->name = strdup(""))) {
        free(src);
        return fail(message, size, 1, "out of memory");
    }
    src->kind = SOURCE_PROVIDER;
    src->provider = *provider;
    src->pages = provider->pages;
    src->aspect = provider->aspect;
    if (provider->size && !(src->shapes = calloc((size_t)provider->pages, sizeof *src->shapes))) {
        pages_book_source_close(src);
        return fail(message, size, 1, "out of memory");
    }
    *out = src;
    return 0;
}

void pages_book_source_shape(PagesBookSource *src, int page)
{
    if (!src->shapes || page < 0 || page >= src->pages)
        return;
    float known;
    __atomic_load(&src->shapes[page], &known, __ATOMIC_RELAXED);
    if (known != 0.0f)
        return;
    float w = 0.0f, h = 0.0f;
    src->provider.size(src->provider.user, page + 1, &w, &h);
    /* a shape the book would refuse (none, beyond 1:100 .. 100:1) is drawn as the leaf's */
    float aspect = w > 0.0f && h > 0.0f ? h / w : -1.0f;
    if (!(aspect >= 0.01f && aspect <= 100.0f))
        aspect = -1.0f;
    __atomic_store(&src->shapes[page], &aspect, __ATOMIC_RELAXED);
}

void pages_book_source_forget_shape(PagesBookSource *src, int page)
{
    if (!src->shapes || page >= src->pages)
        return;
    float unknown = 0.0f;
    for (int p = page < 0 ? 0 : page; p < (page < 0 ? src->pages : page + 1); p++)
        __atomic_store(&src->shapes[p], &unknown, __ATOMIC_RELAXED);
}

void pages_book_source_hand_over(PagesBookSource *to, PagesBookSource *from)
{
    if (to->kind == SOURCE_PROVIDER && from->kind == SOURCE_PROVIDER && !to->left &&
        to->provider.draw == from->provider.draw) {
        to->left = from->left;
        from->left = NULL;
    }
}

void pages_book_source_draw_fault(PagesBookSource *src, uint32_t ms)
{
    src->draw_fault_ms = ms;
}

/* The fault's delay for a page of width x height texels just drawn. */
static void draw_fault_wait(const PagesBookSource *src, uint32_t width, uint32_t height)
{
    if (!src->draw_fault_ms)
        return;
    double ms = src->draw_fault_ms * ((double)width * height / 1e6);
    ms = ms < 10000.0 ? ms : 10000.0;
    struct timespec t = {(time_t)(ms / 1000.0), (long)(fmod(ms, 1000.0) * 1e6)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

int pages_book_source_open(const char *path, PagesBookSource **out, char *message, size_t size)
{
    return pages_book_source_open_with(path, NULL, out, message, size);
}

int pages_book_source_open_with(const char *path, const PagesTextLayout *layout,
                                PagesBookSource **out, char *message, size_t size)
{
    *out = NULL;
    PagesBookSource *src = calloc(1, sizeof *src);
    if (src)
        src->book = -1, src->finder_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER,
        src->helper_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    if (!src)
        return fail(message, size, 1, "out of memory");
    int status = 0;
    if (!path) {
        src->kind = SOURCE_BUILTIN;
        src->pages = 2 * PAGES_CONTENT_LEAVES;
        src->aspect = MESH_PAGE_HEIGHT / MESH_PAGE_WIDTH;
        src->name = strdup("");
        char why[400];
        src->face = pages_typeface_load(why, sizeof why);
        if (why[0])
            snprintf(src->notice, sizeof src->notice,
                     "%s; the built-in book is set in a plainer face instead", why);
        if (!src->name)
            status = fail(message, size, 1, "out of memory");
    } else {
        struct stat st;
        char *abs = realpath(path, NULL);
        src->name = abs;
        if (stat(path, &st) != 0 || !abs)
            status = fail(message, size, 2, "%s: %s", path, strerror(errno));
        else if (S_ISDIR(st.st_mode)) {
            src->kind = SOURCE_IMAGES;
            status = open_folder(src, path, message, size);
        } else if (!S_ISREG(st.st_mode))
            status = fail(message, size, 1, "%s: %s, not a regular file", path,
                          pages_file_kind(st.st_mode));
        else if (document_file(path)) {
            src->kind = SOURCE_PDF;
#ifdef PAGECURL_HAVE_PDF
            status = open_pdf(src, path, layout, message, size);
#else
            status = fail(message, size, 1,
                          "%s: this build reads no PDF, EPUB, FB2, XPS or CBZ books (built "
                          "without MuPDF); give a folder of images",
                          path);
#endif
        } else
            status = fail(message, size, 2,
                          "%s: neither a folder of images nor a book pagecurl opens (PDF, EPUB, "
                          "FB2, XPS, CBZ)",
                          path);
        if (!status)
            status = helper_open(src, true, path, message, size);
    }
    if (status) {
        pages_book_source_close(src);
        return status;
    }
    *out = src;
    return 0;
}

int pages_book_source_relayout(const PagesBookSource *src, const PagesTextLayout *layout,
                               const int *pages, int *moved, int count, PagesBookSource **out,
                               char *message, size_t size)
{
    *out = NULL;
    if (src->kind != SOURCE_PDF || !src->reflowable)
        return fail(message, size, 2,
                    "%s%sits pages are its own (a PDF, XPS, comic, folder of images or a host's): "
                    "its text cannot be laid out again",
                    src->name, src->name[0] ? ": " : "");
    PagesBookSource *to = calloc(1, sizeof *to);
    if (to)
        to->book = -1, to->finder_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER,
        to->helper_lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    if (!to)
        return fail(message, size, 1, "out of memory");
    to->kind = SOURCE_PDF;
    to->draw_fault_ms = src->draw_fault_ms;
    to->name = strdup(src->name);
    to->book = fcntl(src->book, F_DUPFD_CLOEXEC, 0);
    pages_wire_put(&to->request, src->request.data, src->request.size);
    int status = !to->name || to->book < 0 || to->request.failed || to->request.size < 8
                     ? fail(message, size, 1, "%s: %s", src->name,
                            to->book < 0 ? strerror(errno) : "out of memory")
                     : 0;
    /* a helper of its own opens the book as it was laid out, takes note of where each page's
     * text begins, and lays it out again: the helper that draws the new pages */
    if (!status)
        status = helper_open(to, true, src->name, message, size);
    PagesWireOut o = {0};
    to->layout = text_layout(layout);
    pages_wire_f32(&o, to->layout.aspect);
    pages_wire_f32(&o, to->layout.font_size);
    pages_wire_u32(&o, (uint32_t)count);
    for (int i = 0; i < count; i++)
        pages_wire_i32(&o, pages[i]);
    if (!status && o.failed)
        status = fail(message, size, 1, "%s: out of memory", src->name);
    if (!status)
        status = helper_ask(to, &to->helper, PAGES_WIRE_RELAYOUT, &o, NULL, true, src->name, moved,
                            count, message, size);
    pages_wire_out_free(&o);
    if (!status) { /* a helper started again, or the search's, opens it as laid out now */
        memcpy(to->request.data + to->request.size - 8, &to->layout.aspect, 4);
        memcpy(to->request.data + to->request.size - 4, &to->layout.font_size, 4);
    }
    if (status) {
        pages_book_source_close(to);
        return status;
    }
    *out = to;
    return 0;
}

PagesTextLayout pages_book_source_layout(const PagesBookSource *src)
{
    return src->reflowable ? src->layout : (PagesTextLayout){0};
}

float pages_book_source_font_step(float size, int steps)
{
    static const float sizes[] = {PAGES_BOOK_FONT_SIZES};
    const int n = (int)(sizeof sizes / sizeof sizes[0]);
    int at = 0; /* the listed size nearest `size` */
    for (int i = 1; i < n; i++)
        if (fabsf(sizes[i] - size) < fabsf(sizes[at] - size))
            at = i;
    /* a size between two listed steps to the next listed one that way */
    if (steps > 0 && sizes[at] > size)
        steps--;
    else if (steps < 0 && sizes[at] < size)
        steps++;
    at += steps;
    return sizes[at < 0 ? 0 : at >= n ? n - 1 : at];
}

void pages_book_source_abort(PagesBookSource *src)
{
    src->stop = 1; /* the helper drawing the page is killed */
}

void pages_book_source_resume(PagesBookSource *src)
{
    src->stop = 0;
}

void pages_book_source_close(PagesBookSource *src)
{
    if (!src)
        return;
    page_helper_destroy(src->helper);
    page_helper_destroy(src->finder);
    page_helper_destroy(src->linker);
    pthread_mutex_destroy(&src->finder_lock);
    pthread_mutex_destroy(&src->helper_lock);
    pages_wire_out_free(&src->request);
    if (src->book >= 0)
        close(src->book);
    pages_provider_call_forget(&src->left); /* a call left running frees itself as it returns */
    free(src->shapes);
    pages_provider_call_forget(&src->text_left);
    pages_provider_call_forget(&src->links_left);
    if (src->files)
        for (int p = 0; p < src->pages; p++)
            free(src->files[p]);
    free(src->files);
    pages_typeface_free(src->face);
    page_labels_free(&src->labels);
    for (int i = 0; i < src->outline_count; i++)
        free(src->outline[i].title);
    free(src->outline);
    free(src->name);
    free(src);
}

int pages_book_source_pages(const PagesBookSource *src)
{
    return src->pages;
}

float pages_book_source_aspect(const PagesBookSource *src)
{
    return src->aspect;
}

int pages_book_source_outline_count(const PagesBookSource *src)
{
    return src->outline_count;
}

const PagesOutlineEntry *pages_book_source_outline(const PagesBookSource *src, int i)
{
    return i >= 0 && i < src->outline_count ? &src->outline[i] : NULL;
}

/* Whether `text` holds `needle`, ASCII letters in either case. */
static bool holds_folded(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (; *text; text++)
        if (!strncasecmp(text, needle, n))
            return true;
    return n == 0;
}

int pages_book_source_outline_find(const PagesBookSource *src, const char *text, int from)
{
    for (int i = from < 0 ? 0 : from; i < src->outline_count && text && *text; i++)
        if (src->outline[i].page >= 0 && holds_folded(src->outline[i].title, text))
            return i;
    return -1;
}

uint32_t pages_book_source_confined(const PagesBookSource *src)
{
    return src->confined;
}

const char *pages_book_source_id(const PagesBookSource *src)
{
    return src->id;
}

bool pages_book_source_repaired(const PagesBookSource *src)
{
    return src->repaired;
}

bool pages_book_source_right_to_left(const PagesBookSource *src)
{
    return src->right_to_left;
}

bool pages_book_source_reflowable(const PagesBookSource *src)
{
    return src->reflowable;
}

const char *pages_book_source_name(const PagesBookSource *src)
{
    return src->name;
}

bool pages_book_source_builtin(const PagesBookSource *src)
{
    return src->kind == SOURCE_BUILTIN;
}

void pages_book_source_page_label(const PagesBookSource *src, int page, char *out, size_t size)
{
    if (page >= 0 && page < src->pages)
        page_labels_text(&src->labels, page, out, size);
    else if (size)
        out[0] = '\0';
}

int pages_book_source_find_page(const PagesBookSource *src, const char *text)
{
    if (!text || !*text)
        return 0;
    int folded = 0;
    if (src->labels.count)
        for (int p = 0; p < src->pages; p++) {
            char label[PAGE_LABEL_MAX];
            page_labels_text(&src->labels, p, label, sizeof label);
            if (!strcmp(label, text))
                return p + 1;
            if (!folded && label[0] && !strcasecmp(label, text))
                folded = p + 1;
        }
    if (folded)
        return folded;
    char *end = NULL;
    errno = 0;
    long n = isdigit((unsigned char)text[0]) ? strtol(text, &end, 10) : 0;
    return n >= 1 && n <= src->pages && !errno && !*end ? (int)n : 0;
}

/* A file's page, or `region` of it (NULL: the whole page, width x height), drawn by the helper
 * (started again with the book where none runs): a decoder that crashes or hangs on it takes
 * only the page with it. */
static bool helper_draw_locked(PagesBookSource *src, int page, uint32_t width, uint32_t height,
                               const PageRegion *region, uint8_t *rgba, char *message, size_t size)
{
    char why[512] = "";
    if (!page_helper_running(src->helper) && helper_open(src, false, src->name, message, size) != 0)
        return false;
    size_t bytes = (size_t)width * height * 4;
    int fd;
    uint8_t *pixels = page_helper_pixels(src->helper, bytes, &fd);
    if (!pixels)
        return fail(message, size, 1, "page %d: no memory to share with the page helper",
                    page + 1) == 0;
    PagesWireOut o = {0};
    pages_wire_i32(&o, page);
    pages_wire_u32(&o, width);
    pages_wire_u32(&o, height);
    pages_wire_u32(&o, region ? 1u : 0u);
    pages_wire_f32(&o, region ? region->full_width : 0.0f);
    pages_wire_f32(&o, region ? region->full_height : 0.0f);
    pages_wire_f32(&o, region ? region->x : 0.0f);
    pages_wire_f32(&o, region ? region->y : 0.0f);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    PagesHelperCall call = page_helper_call(src->helper, PAGES_WIRE_DRAW, &o, fd, &type, &answer,
                                            &n, &src->stop, why, sizeof why);
    pages_wire_out_free(&o);
    if (call == PAGES_HELPER_ANSWERED) {
        PagesWireIn in = {answer, n, false};
        int32_t ok = type == PAGES_WIRE_DRAWN ? pages_wire_get_i32(&in) : -1;
        char line[1024];
        pages_wire_get_str(&in, line, sizeof line - 1, true);
        float print[2];
        print[0] = pages_wire_get_f32(&in); /* (two statements: in order) */
        print[1] = pages_wire_get_f32(&in);
        free(answer);
        if (!in.bad && ok == 1) {
            memcpy(rgba, pixels, bytes);
            /* a hostile helper's share is no more than the leaf, nor less than a texel's */
            for (int k = 0; k < 2 && !region; k++)
                src->drawn[k] = print[k] >= 1.0f / 65536.0f && print[k] <= 1.0f ? print[k] : 1.0f;
            return true;
        }
        if (!in.bad && ok == 0)
            return fail(message, size, 1, "%s", line) == 0;
        page_helper_stop(src->helper);
        snprintf(why, sizeof why, "the page helper's answer is malformed");
    } else if (call == PAGES_HELPER_STOPPED) {
        snprintf(why, sizeof why, "stopped");
    }
    if (src->kind == SOURCE_IMAGES)
        fail(message, size, 1, "%s (page %d): cannot be decoded (%s)", src->files[page], page + 1,
             why);
    else
        fail(message, size, 1, "%s, page %d: cannot be drawn (%s)", src->name, page + 1, why);
    return false;
}

static bool helper_draw(PagesBookSource *src, int page, uint32_t width, uint32_t height,
                        const PageRegion *region, uint8_t *rgba, char *message, size_t size)
{
    pthread_mutex_lock(&src->helper_lock);
    bool ok = helper_draw_locked(src, page, width, height, region, rgba, message, size);
    pthread_mutex_unlock(&src->helper_lock);
    return ok;
}

void pages_book_source_drawn_print(const PagesBookSource *src, float print[2])
{
    print[0] = src->drawn[0], print[1] = src->drawn[1];
}

bool pages_book_source_draw(PagesBookSource *src, int page, uint32_t width, uint32_t height,
                            uint8_t *rgba, char *message, size_t size)
{
    src->drawn[0] = src->drawn[1] = 1.0f; /* the leaf's shape, unless the helper says */
    if (src->kind == SOURCE_BUILTIN) {
        if (pages_content_page(src->face, page, width, height, rgba))
            return true;
        pages_book_placeholder(width, height, true, rgba);
        fail(message, size, 1, "page %d: out of memory", page + 1);
        return false;
    }
    bool ok = false;
    if (src->kind == SOURCE_PROVIDER) {
        pages_book_placeholder(width, height, false, rgba); /* what the provider draws on */
        /* a page of another shape is drawn at its own, fitted within the layer on its paper */
        float aspect = 0.0f;
        if (src->shapes && page >= 0 && page < src->pages)
            __atomic_load(&src->shapes[page], &aspect, __ATOMIC_RELAXED);
        uint32_t x = 0, y = 0, w = width, h = height;
        if (aspect > 0.0f)
            pages_book_fit(aspect, width, height, &x, &y, &w, &h);
        bool whole = w == width && h == height;
        uint8_t *print = whole ? rgba : malloc((size_t)w * h * 4);
        if (!print) {
            pages_book_placeholder(width, height, true, rgba);
            fail(message, size, 1, "page %d: out of memory", page + 1);
            return false;
        }
        if (!whole)
            pages_book_placeholder(w, h, false, print);
        int stuck = 0;
        switch (pages_provider_call_draw(&src->left, src->provider.draw, src->provider.user,
                                         page + 1, w, h, print, &src->stop, &stuck)) {
        case PAGES_PROVIDER_DRAWN:
            ok = true;
            for (uint32_t row = 0; row < h && !whole; row++)
                memcpy(rgba + 4 * ((size_t)(y + row) * width + x), print + 4 * (size_t)row * w,
                       4 * (size_t)w);
            src->drawn[0] = (float)w / (float)width, src->drawn[1] = (float)h / (float)height;
            break;
        case PAGES_PROVIDER_FAILED:
            fail(message, size, 1, "page %d: the page provider could not draw it", page + 1);
            break;
        case PAGES_PROVIDER_LEFT:
            fail(message, size, 1, "page %d: the page provider has not returned from drawing it",
                 page + 1);
            break;
        case PAGES_PROVIDER_STUCK:
            fail(message, size, 1,
                 "page %d: not drawn: the page provider has not returned from page %d, given up "
                 "before it",
                 page + 1, stuck);
            break;
        }
        if (!whole)
            free(print);
    } else { /* the helper draws the page's paper too: every pixel is its */
        ok = page >= 0 && page < src->pages
                 ? helper_draw(src, page, width, height, NULL, rgba, message, size)
                 : fail(message, size, 1, "page %d: not in the book", page + 1) == 0;
        draw_fault_wait(src, width, height);
    }
    if (!ok)
        pages_book_placeholder(width, height, true, rgba);
    return ok;
}

const char *pages_book_source_notice(const PagesBookSource *src)
{
    return src->notice;
}

bool pages_book_source_draws_regions(const PagesBookSource *src)
{
    return src->kind == SOURCE_IMAGES || src->kind == SOURCE_PDF;
}

bool pages_book_source_draw_region(PagesBookSource *src, int page, const PageRegion *region,
                                   uint8_t *rgba, char *message, size_t size)
{
    bool ok = false;
    if (region->full_width >= 1.0f && region->full_height >= 1.0f &&
        region->full_width <= 65536.0f && region->full_height <= 65536.0f) {
        if (pages_book_source_draws_regions(src)) {
            ok = page >= 0 && page < src->pages
                     ? helper_draw(src, page, region->width, region->height, region, rgba, message,
                                   size)
                     : fail(message, size, 1, "page %d: not in the book", page + 1) == 0;
        } else {
            fail(message, size, 1, "page %d: this book's pages are drawn whole", page + 1);
        }
    }
    if (!ok) /* paper where it was not drawn (the helper draws the region's paper too) */
        pages_book_placeholder(region->width, region->height, false, rgba);
    return ok;
}

static bool same_inode(const char *a, const struct stat *sb)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

bool pages_book_source_holds(const PagesBookSource *src, const char *path)
{
    if (src->kind == SOURCE_BUILTIN || src->kind == SOURCE_PROVIDER)
        return false;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (src->kind == SOURCE_PDF && exists && same_inode(src->name, &st))
        return true;
    /* a file of one name that no page links to is a page only by that name (below): 100,000
     * pages are not each asked */
    if (src->kind == SOURCE_IMAGES && exists && !S_ISDIR(st.st_mode) &&
        (st.st_nlink > 1 || src->named_otherwise) && src->files)
        for (int p = 0; p < src->pages; p++)
            if (same_inode(src->files[p], &st))
                return true;
    /* by its name, for a file not there yet: where the write would land */
    char *target = pages_safe_write_canonical(path);
    if (!target)
        return false;
    bool holds = false;
    if (src->kind == SOURCE_PDF)
        holds = !strcmp(target, src->name);
    else {
        char *slash = strrchr(target, '/');
        size_t folder = slash ? (size_t)(slash - target) : 0;
        holds = slash && strlen(src->name) == (folder ? folder : 1) &&
                !strncmp(target, src->name, folder ? folder : 1) &&
                pages_book_image_name(slash + 1);
    }
    free(target);
    return holds;
}

bool pages_book_source_has_text(const PagesBookSource *src)
{
    return src->kind == SOURCE_PDF || (src->kind == SOURCE_PROVIDER && src->provider.text);
}

/* Page `page`'s (0-based) text (`links` false: `capacity` PagesTextChar) or links (PagesLink) asked
 * of the host into `out` (`bytes`), waited for while `*stop` is not set, within the provider's
 * time: their count, or -1 with the line in message (the host could not give them, gave what is
 * refused, or has not returned). Text under finder_lock; links on the host's thread. */
static int provided(PagesBookSource *src, bool links, int page, void *out, size_t bytes,
                    int capacity, const volatile int *stop, char *message, size_t size)
{
    const PageProvider *p = &src->provider;
    const char *what = links ? "links" : "text";
    double seconds = p->seconds;
    if (links && (seconds <= 0.0 || seconds > PAGES_LINKS_SECONDS))
        seconds = PAGES_LINKS_SECONDS;
    PagesProviderArgs args = {.page = page + 1, .capacity = capacity, .pages = src->pages};
    int64_t got = 0;
    int stuck = 0;
    switch (pages_provider_call(links ? &src->links_left : &src->text_left,
                                links ? p->links : p->text, links ? p->links_fn : p->text_fn,
                                p->user, &args, out, bytes, stop, seconds, &got, &stuck)) {
    case PAGES_PROVIDER_DRAWN:
        break;
    case PAGES_PROVIDER_FAILED: /* not called */
        return -fail(message, size, 1,
                     "page %d: its %s cannot be asked of the page provider (out of memory)",
                     page + 1, what);
    case PAGES_PROVIDER_LEFT:
        return -fail(message, size, 1, "page %d: the page provider has not returned its %s",
                     page + 1, what);
    case PAGES_PROVIDER_STUCK:
        return -fail(message, size, 1,
                     "page %d: no %s: the page provider has not returned page %d's, given up "
                     "before it",
                     page + 1, what, stuck);
    }
    if (got >= 0 && got <= capacity)
        return (int)got;
    if (got == PAGES_PROVIDER_CANNOT)
        return -fail(message, size, 1, "page %d: the page provider could not give its %s", page + 1,
                     what);
    if (got == PAGES_PROVIDER_NOT_FINITE)
        return -fail(message, size, 1,
                     "page %d: the page provider's %s refused: a box that is not a finite number",
                     page + 1, what);
    return -fail(message, size, 1,
                 "page %d: the page provider's %s refused: a count of %lld, not 0 to %d", page + 1,
                 what, (long long)(got - PAGES_PROVIDER_JUNK), capacity);
}

/* The host's text of page `page` searched for `query` (pages/text_find.h). Under finder_lock. */
static int find_provided(PagesBookSource *src, int page, const char *query, PagesFindRect *rects,
                         bool *first, int max, char *message, size_t size)
{
    PagesTextChar *chars = malloc(PAGES_TEXT_MAX_CHARS * sizeof *chars);
    if (!chars)
        return -fail(message, size, 1, "page %d: out of memory for its text", page + 1);
    int n = provided(src, false, page, chars, PAGES_TEXT_MAX_CHARS * sizeof *chars,
                     PAGES_TEXT_MAX_CHARS, &src->find_stop, message, size);
    int found = n > 0 ? pages_text_find(chars, n, query, rects, first, max) : n;
    free(chars);
    return found;
}

void pages_book_source_find_abort(PagesBookSource *src)
{
    src->find_stop = 1;
}

void pages_book_source_find_resume(PagesBookSource *src)
{
    src->find_stop = 0;
}

/* A request to the search's helper (started where it is not running), its answer into *answer
 * (free it); false with the line in message. Called under finder_lock. */
static bool finder_call(PagesBookSource *src, uint32_t request, const PagesWireOut *o, int page,
                        uint32_t *type, uint8_t **answer, size_t *n, char *message, size_t size)
{
    if ((!src->finder || !page_helper_running(src->finder)) &&
        helper_open_with(src, &src->finder, &src->find_stop, false, src->name, message, size) != 0)
        return false;
    char why[512] = "stopped";
    PagesHelperCall call = page_helper_call(src->finder, request, o, -1, type, answer, n,
                                            &src->find_stop, why, sizeof why);
    if (call != PAGES_HELPER_ANSWERED)
        return fail(message, size, 1, "%s, page %d: its text cannot be read (%s)", src->name,
                    page + 1, why) == 0;
    return true;
}

/* FOUND's and TEXT_READ's head: ok, the line, the page's place on its leaf (kept where it is
 * one). */
static int32_t answer_head(PagesWireIn *in, char *line, size_t line_size, float place[4])
{
    int32_t ok = pages_wire_get_i32(in);
    pages_wire_get_str(in, line, line_size - 1, true);
    float at[4];
    for (int i = 0; i < 4; i++)
        at[i] = pages_wire_get_f32(in);
    if (at[0] >= 0.0f && at[1] >= 0.0f && at[2] > 0.0f && at[3] > 0.0f && at[0] + at[2] <= 1.001f &&
        at[1] + at[3] <= 1.001f)
        memcpy(place, at, sizeof at);
    return ok;
}

/* One of a FOUND's or TEXT_READ's items: a number (whether a match begins there; a character)
 * and its box on the page. */
typedef void (*FinderItem)(void *user, uint32_t head, PagesFindRect box);

/* `request` (FIND, TEXT) about page `page`, with `query` where not NULL, asked of the search's
 * helper, and its answer of type `answered` read: the page's place into `place`, then at most
 * `most` items, each given to `item`. 0 (also from an older helper, which knows no such request),
 * or -1 with the line in message (the helper stopped where its answer is malformed). Called under
 * finder_lock. */
static int finder_items(PagesBookSource *src, uint32_t request, uint32_t answered, int page,
                        const char *query, uint32_t most, float place[4], FinderItem item,
                        void *user, char *message, size_t size)
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, page);
    if (query)
        pages_wire_str(&o, query, strlen(query));
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    bool called = finder_call(src, request, &o, page, &type, &answer, &n, message, size);
    pages_wire_out_free(&o);
    if (!called)
        return -1;
    PagesWireIn in = {answer, n, false};
    char line[1024];
    int32_t ok = type == answered ? answer_head(&in, line, sizeof line, place) : -1;
    uint32_t count = pages_wire_get_u32(&in);
    for (uint32_t i = 0; ok == 1 && !in.bad && i < count && i < most; i++) {
        uint32_t head = pages_wire_get_u32(&in);
        PagesFindRect r;
        r.x0 = pages_wire_get_f32(&in), r.y0 = pages_wire_get_f32(&in);
        r.x1 = pages_wire_get_f32(&in), r.y1 = pages_wire_get_f32(&in);
        if (!(isfinite(r.x0) && isfinite(r.y0) && isfinite(r.x1) && isfinite(r.y1)))
            in.bad = true;
        else
            item(user, head, r);
    }
    free(answer);
    if (type == PAGES_WIRE_UNKNOWN)
        return 0;
    if (in.bad || ok < 0 || ok > 1 || count > most) {
        page_helper_stop(src->finder);
        return -fail(message, size, 1, "%s, page %d: the page helper's answer is malformed",
                     src->name, page + 1);
    }
    if (!ok)
        return -fail(message, size, 1, "%s", line);
    return 0;
}

typedef struct Matches {
    PagesFindRect *rects;
    bool *first;
    int max, got;
} Matches;

static void take_match(void *user, uint32_t begins, PagesFindRect box)
{
    Matches *m = user;
    if (m->got < m->max) {
        m->rects[m->got] = box, m->first[m->got] = begins || !m->got;
        m->got++;
    }
}

static int find_locked(PagesBookSource *src, int page, const char *query, PagesFindRect *rects,
                       bool *first, int max, float place[4], char *message, size_t size)
{
    place[0] = place[1] = 0.0f, place[2] = place[3] = 1.0f;
    if (!pages_book_source_has_text(src) || page < 0 || page >= src->pages)
        return 0;
    size_t length = strlen(query);
    if (!length || max <= 0)
        return 0;
    if (length > PAGES_FIND_MAX_QUERY)
        return -fail(message, size, 2, "the search is longer than %d bytes", PAGES_FIND_MAX_QUERY);
    if (src->kind == SOURCE_PROVIDER) /* its page fills its leaf */
        return find_provided(src, page, query, rects, first, max, message, size);
    Matches m = {rects, first, max, 0};
    return finder_items(src, PAGES_WIRE_FIND, PAGES_WIRE_FOUND, page, query, PAGES_FIND_MAX_RECTS,
                        place, take_match, &m, message, size) < 0
               ? -1
               : m.got;
}

int pages_book_source_links(PagesBookSource *src, int page, PagesLinked *out, char *message,
                            size_t size)
{
    out->ok = 1, out->count = 0, out->message[0] = '\0';
    out->place[0] = out->place[1] = 0.0f, out->place[2] = out->place[3] = 1.0f;
    if (src->kind == SOURCE_PROVIDER && src->provider.links && page >= 0 && page < src->pages) {
        int n = provided(src, true, page, out->links, sizeof out->links, PAGES_LINKS_MAX,
                         &src->link_stop, message, size);
        out->count = n > 0 ? n : 0;
        return n;
    }
    if (src->kind != SOURCE_PDF || page < 0 || page >= src->pages)
        return 0;
    if ((!src->linker || !page_helper_running(src->linker)) &&
        helper_open_with(src, &src->linker, &src->link_stop, false, src->name, message, size) != 0)
        return -1;
    PagesWireOut o = {0};
    pages_wire_i32(&o, page);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char why[512] = "stopped";
    PagesHelperCall call =
        page_helper_call_within(src->linker, PAGES_WIRE_LINKS, &o, -1, &type, &answer, &n,
                                &src->link_stop, PAGES_LINKS_SECONDS, why, sizeof why);
    pages_wire_out_free(&o);
    if (call != PAGES_HELPER_ANSWERED)
        return -fail(message, size, 1, "%s, page %d: its links cannot be read (%s)", src->name,
                     page + 1, why);
    if (type == PAGES_WIRE_UNKNOWN) { /* an older helper: it knows of no links */
        free(answer);
        return 0;
    }
    bool good = type == PAGES_WIRE_LINKED && pages_wire_get_linked(answer, n, src->pages, out);
    free(answer);
    if (!good) {
        page_helper_stop(src->linker);
        out->count = 0;
        return -fail(message, size, 1, "%s, page %d: the page helper's answer is malformed",
                     src->name, page + 1);
    }
    if (!out->ok)
        return -fail(message, size, 1, "%s", out->message);
    return out->count;
}

int pages_book_source_find(PagesBookSource *src, int page, const char *query, PagesFindRect *rects,
                           bool *first, int max, float place[4], char *message, size_t size)
{
    pthread_mutex_lock(&src->finder_lock);
    int n = find_locked(src, page, query, rects, first, max, place, message, size);
    pthread_mutex_unlock(&src->finder_lock);
    return n;
}

typedef struct Chars {
    PagesTextChar *out;
    int max, got;
} Chars;

static void take_char(void *user, uint32_t c, PagesFindRect box)
{
    Chars *t = user;
    /* what the library passes on is text: no control character, no surrogate, no code point past
     * Unicode's */
    if ((c < 0x20 && c != '\n') || c == 0x7f || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff)
        c = ' ';
    if (t->got < t->max)
        t->out[t->got++] = (PagesTextChar){c, box};
}

static int text_locked(PagesBookSource *src, int page, PagesTextChar *out, int max, float place[4],
                       char *message, size_t size)
{
    Chars t = {out, max, 0};
    return finder_items(src, PAGES_WIRE_TEXT, PAGES_WIRE_TEXT_READ, page, NULL,
                        PAGES_TEXT_MAX_CHARS, place, take_char, &t, message, size) < 0
               ? -1
               : t.got;
}

int pages_book_source_text(PagesBookSource *src, int page, PagesTextChar *out, int max,
                           float place[4], char *message, size_t size)
{
    place[0] = place[1] = 0.0f, place[2] = place[3] = 1.0f;
    if (!pages_book_source_has_text(src) || page < 0 || page >= src->pages || max <= 0)
        return 0;
    pthread_mutex_lock(&src->finder_lock);
    int n = src->kind == SOURCE_PROVIDER
                ? provided(src, false, page, out, (size_t)max * sizeof *out,
                           max < PAGES_TEXT_MAX_CHARS ? max : PAGES_TEXT_MAX_CHARS, &src->find_stop,
                           message, size)
                : text_locked(src, page, out, max, place, message, size);
    pthread_mutex_unlock(&src->finder_lock);
    return n;
}

/* PLACE asked of the drawing helper where it runs (a search's helper, where none runs yet, or
 * the drawing one started again, would lay the whole book out first), between two of its pages,
 * and waited for PAGES_PLACE_SECONDS at most (a hostile book's text cannot hold the host's thread):
 * `page` >= 0 its place into `place`, else the page holding `place`. The page, or -1 (none, or
 * the helper failed). Called under helper_lock. */
static int place_locked(PagesBookSource *src, int page, int32_t place[3])
{
    PagesWireOut o = {0};
    pages_wire_i32(&o, page);
    for (int i = 0; i < 3; i++)
        pages_wire_i32(&o, place[i]);
    uint32_t type = 0;
    uint8_t *answer = NULL;
    size_t n = 0;
    char message[1024];
    bool called = !o.failed && page_helper_running(src->helper) &&
                  page_helper_call_within(src->helper, PAGES_WIRE_PLACE, &o, -1, &type, &answer, &n,
                                          &src->stop, PAGES_PLACE_SECONDS, message,
                                          sizeof message) == PAGES_HELPER_ANSWERED;
    pages_wire_out_free(&o);
    if (!called) {
        free(answer);
        return -1;
    }
    PagesWireIn in = {answer, n, false};
    int32_t ok = type == PAGES_WIRE_PLACED ? pages_wire_get_i32(&in) : 0;
    pages_wire_get_str(&in, message, sizeof message - 1, true);
    int32_t found = pages_wire_get_i32(&in), at[3];
    for (int i = 0; i < 3; i++)
        at[i] = pages_wire_get_i32(&in);
    free(answer);
    if (in.bad || ok != 1 || found < -1 || found >= src->pages)
        return -1;
    if (page >= 0)
        memcpy(place, at, sizeof at);
    return found;
}

bool pages_book_source_text_place(PagesBookSource *src, int page, int32_t place[3])
{
    if (src->kind != SOURCE_PDF || !src->reflowable || page < 0 || page >= src->pages)
        return false;
    pthread_mutex_lock(&src->helper_lock);
    bool ok =
        place_locked(src, page, place) == page && place[0] >= 0 && place[1] >= 0 && place[2] >= 0;
    pthread_mutex_unlock(&src->helper_lock);
    return ok;
}

int pages_book_source_text_place_page(PagesBookSource *src, const int32_t place[3])
{
    if (src->kind != SOURCE_PDF || !src->reflowable || place[0] < 0 || place[1] < 0 || place[2] < 0)
        return -1;
    int32_t asked[3] = {place[0], place[1], place[2]};
    pthread_mutex_lock(&src->helper_lock);
    int page = place_locked(src, -1, asked);
    pthread_mutex_unlock(&src->helper_lock);
    return page;
}
