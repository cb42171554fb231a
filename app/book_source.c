/* realpath */
#define _XOPEN_SOURCE 700

#include "book_source.h"

#include "book.h"
#include "content.h"
#include "safe_write.h"
#include "typeface.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <stb_image.h>

#ifdef PAGECURL_HAVE_MUPDF
#include <mupdf/fitz.h>
#endif

typedef enum SourceKind { SOURCE_BUILTIN, SOURCE_IMAGES, SOURCE_PDF } SourceKind;

struct AppBookSource {
    SourceKind kind;
    int pages;
    float aspect;
    char *name;        /* absolute path; "" for the built-in book */
    char **files;      /* SOURCE_IMAGES: pages paths, in order */
    AppTypeface *face; /* SOURCE_BUILTIN: its text's face; NULL: stb_easy_font */
#ifdef PAGECURL_HAVE_MUPDF
    fz_context *fz;
    fz_document *doc;
#endif
};

/* sRGB bytes of the paper a fitted page lies on, and of a bad page's cross. */
static const uint8_t PAPER[3] = {244, 240, 230};
static const uint8_t MARK[3] = {200, 40, 40};

int app_book_name_compare(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (isdigit((unsigned char)a[na]))
                na++;
            while (isdigit((unsigned char)b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na, b += nb;
            continue;
        }
        int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
        if (ca != cb)
            return ca < cb ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static int compare_names(const void *a, const void *b)
{
    int c = app_book_name_compare(*(char *const *)a, *(char *const *)b);
    return c ? c : strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), s = strlen(suffix);
    return n > s && !strcasecmp(name + n - s, suffix);
}

/* The image formats stb_image reads, by their usual names. */
static bool image_name(const char *name)
{
    static const char *const exts[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga",
                                       ".psd", ".pnm", ".ppm",  ".pgm", ".hdr", ".pic"};
    if (name[0] == '.')
        return false;
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++)
        if (has_suffix(name, exts[k]))
            return true;
    return false;
}

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

/* A PNG's size from its IHDR: stb_image's header reader refuses one over 1 GiB decoded without
 * saying its size. */
static bool png_size(const char *file, int *w, int *h)
{
    unsigned char b[24];
    FILE *f = fopen(file, "rb");
    if (!f)
        return false;
    bool ok = fread(b, 1, sizeof b, f) == sizeof b && !memcmp(b, "\x89PNG\r\n\x1a\n", 8) &&
              !memcmp(b + 12, "IHDR", 4);
    fclose(f);
    uint32_t bw = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 | (uint32_t)b[18] << 8 | b[19];
    uint32_t bh = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
    if (!ok || bw > INT_MAX || bh > INT_MAX)
        return false;
    *w = (int)bw, *h = (int)bh;
    return true;
}

/* Size from the header only: nothing is decoded. 0, or the exit status with the line. */
static int image_header(const char *file, int *w, int *h, char *message, size_t size)
{
    int channels;
    if (!stbi_info(file, w, h, &channels) && !png_size(file, w, h))
        return fail(message, size, 1, "--book: %s: not an image pagecurl can read (%s)", file,
                    stbi_failure_reason() ? stbi_failure_reason() : "unknown format");
    if (*w > APP_BOOK_MAX_IMAGE_SIDE || *h > APP_BOOK_MAX_IMAGE_SIDE ||
        (uint64_t)*w * (uint64_t)*h > APP_BOOK_MAX_IMAGE_PIXELS)
        return fail(message, size, 1,
                    "--book: %s: %dx%d pixels, larger than a page may be (%d a side, %u "
                    "megapixels)",
                    file, *w, *h, APP_BOOK_MAX_IMAGE_SIDE, APP_BOOK_MAX_IMAGE_PIXELS >> 20);
    return 0;
}

static int open_folder(AppBookSource *src, const char *path, char *message, size_t size)
{
    DIR *dir = opendir(path);
    if (!dir)
        return fail(message, size, 1, "--book %s: %s", path, strerror(errno));
    size_t cap = 0;
    struct dirent *e;
    int status = 0;
    while ((e = readdir(dir)) && !status) {
        if (!image_name(e->d_name))
            continue;
        if ((size_t)src->pages == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(src->files, cap * sizeof *grown);
            if (!grown) {
                status = fail(message, size, 1, "--book %s: out of memory", path);
                break;
            }
            src->files = grown;
        }
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *file = malloc(n);
        if (!file) {
            status = fail(message, size, 1, "--book %s: out of memory", path);
            break;
        }
        snprintf(file, n, "%s/%s", path, e->d_name);
        src->files[src->pages++] = file;
    }
    closedir(dir);
    if (status)
        return status;
    if (!src->pages)
        return fail(message, size, 2,
                    "--book %s: a folder with no images (PNG, JPEG, BMP, GIF, TGA, PSD, PNM, HDR)",
                    path);
    if (src->pages > MESH_INK_MAX_PAGES)
        return fail(message, size, 2, "--book %s: %d pages, more than the %d a book may have", path,
                    src->pages, MESH_INK_MAX_PAGES);
    qsort(src->files, (size_t)src->pages, sizeof *src->files, compare_names);
    /* Every header now, a few hundred bytes each: a file that is no image, or one too large to
     * decode, is named before anything starts. */
    for (int p = 0; p < src->pages; p++) {
        int w, h;
        int bad = image_header(src->files[p], &w, &h, message, size);
        if (bad)
            return bad;
        if (p == 0)
            src->aspect = (float)h / (float)w;
    }
    return 0;
}

#ifdef PAGECURL_HAVE_MUPDF
/* MuPDF's own warnings and errors would be lines of their own: the caller says what failed. */
static void quiet(void *user, const char *message)
{
    (void)user, (void)message;
}

static int open_pdf(AppBookSource *src, const char *path, char *message, size_t size)
{
    /* a bounded cache: a long book's pages are not all kept */
    src->fz = fz_new_context(NULL, NULL, 64u << 20);
    if (!src->fz)
        return fail(message, size, 1, "--book %s: out of memory", path);
    fz_set_warning_callback(src->fz, quiet, NULL);
    fz_set_error_callback(src->fz, quiet, NULL);
    int status = 0;
    fz_var(status);
    fz_try(src->fz)
    {
        fz_register_document_handlers(src->fz);
        src->doc = fz_open_document(src->fz, path);
        if (fz_needs_password(src->fz, src->doc))
            status = fail(message, size, 1,
                          "--book %s: the PDF is encrypted (password-protected); pagecurl "
                          "opens no passwords",
                          path);
        else {
            src->pages = fz_count_pages(src->fz, src->doc);
            if (src->pages < 1)
                status = fail(message, size, 1, "--book %s: a PDF with no pages", path);
            else if (src->pages > MESH_INK_MAX_PAGES)
                status =
                    fail(message, size, 2, "--book %s: %d pages, more than the %d a book may have",
                         path, src->pages, MESH_INK_MAX_PAGES);
            else {
                fz_page *page = fz_load_page(src->fz, src->doc, 0);
                fz_rect box = fz_bound_page(src->fz, page);
                fz_drop_page(src->fz, page);
                float w = box.x1 - box.x0, h = box.y1 - box.y0;
                if (!(w > 0.0f && h > 0.0f))
                    status = fail(message, size, 1, "--book %s: page 1 has no size", path);
                else
                    src->aspect = h / w;
            }
        }
    }
    fz_catch(src->fz)
    {
        status = fail(message, size, 1, "--book %s: not a PDF pagecurl can read (%s)", path,
                      fz_caught_message(src->fz));
    }
    return status;
}
#endif

int app_book_source_open(const char *path, AppBookSource **out, char *message, size_t size)
{
    *out = NULL;
    AppBookSource *src = calloc(1, sizeof *src);
    if (!src)
        return fail(message, size, 1, "out of memory");
    int status = 0;
    if (!path) {
        src->kind = SOURCE_BUILTIN;
        src->pages = APP_BOOK_PAGES;
        src->aspect = MESH_PAGE_HEIGHT / MESH_PAGE_WIDTH;
        src->name = strdup("");
        src->face = app_typeface_load();
        if (!src->name)
            status = fail(message, size, 1, "out of memory");
    } else {
        struct stat st;
        char *abs = realpath(path, NULL);
        if (stat(path, &st) != 0 || !abs)
            status = fail(message, size, 2, "--book %s: %s", path, strerror(errno));
        else if (S_ISDIR(st.st_mode)) {
            src->kind = SOURCE_IMAGES;
            status = open_folder(src, path, message, size);
        } else if (has_suffix(path, ".pdf")) {
            src->kind = SOURCE_PDF;
#ifdef PAGECURL_HAVE_MUPDF
            status = open_pdf(src, path, message, size);
#else
            status = fail(message, size, 1,
                          "--book %s: this build reads no PDFs (built without MuPDF); give a "
                          "folder of images",
                          path);
#endif
        } else
            status = fail(message, size, 2,
                          "--book %s: neither a folder of images nor a PDF (.pdf)", path);
        src->name = abs;
    }
    if (status) {
        app_book_source_close(src);
        return status;
    }
    *out = src;
    return 0;
}

void app_book_source_close(AppBookSource *src)
{
    if (!src)
        return;
    if (src->files)
        for (int p = 0; p < src->pages; p++)
            free(src->files[p]);
    free(src->files);
    app_typeface_free(src->face);
#ifdef PAGECURL_HAVE_MUPDF
    if (src->fz) {
        fz_drop_document(src->fz, src->doc);
        fz_drop_context(src->fz);
    }
#endif
    free(src->name);
    free(src);
}

int app_book_source_pages(const AppBookSource *src)
{
    return src->pages;
}

float app_book_source_aspect(const AppBookSource *src)
{
    return src->aspect;
}

const char *app_book_source_name(const AppBookSource *src)
{
    return src->name;
}

bool app_book_source_builtin(const AppBookSource *src)
{
    return src->kind == SOURCE_BUILTIN;
}

void app_book_placeholder(uint32_t width, uint32_t height, bool marked, uint8_t *rgba)
{
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) {
            uint8_t *p = &rgba[4 * ((size_t)y * width + x)];
            /* a bad page: a cross from corner to corner, a few texels wide */
            float u = (float)x / (float)width, v = (float)y / (float)height;
            bool cross = marked && (fabsf(u - v) < 0.01f || fabsf(u + v - 1.0f) < 0.01f);
            memcpy(p, cross ? MARK : PAPER, 3);
            p[3] = 255;
        }
}

/* Where a page of aspect `aspect` lies in a width x height layer: the whole of it when it has the
 * leaf's aspect (within 1%), else fitted inside a margin, centred. */
static void fit(float aspect, uint32_t width, uint32_t height, uint32_t *x, uint32_t *y,
                uint32_t *w, uint32_t *h)
{
    float leaf = (float)height / (float)width;
    if (fabsf(aspect / leaf - 1.0f) < 0.01f) {
        *x = *y = 0, *w = width, *h = height;
        return;
    }
    float margin = 0.04f * (float)width;
    float bw = (float)width - 2.0f * margin, bh = (float)height - 2.0f * margin;
    float fw = bw, fh = bw * aspect;
    if (fh > bh)
        fh = bh, fw = bh / aspect;
    *w = fw < 1.0f ? 1u : (uint32_t)lrintf(fw);
    *h = fh < 1.0f ? 1u : (uint32_t)lrintf(fh);
    *x = (width - *w) / 2, *y = (height - *h) / 2;
}

/* An image of iw x ih RGBA into the box (x, y, w, h) of the layer: each texel the mean of the
 * image's pixels under it (a box filter: any downscale without aliasing), or the nearest one
 * when enlarging. */
static void place_image(const uint8_t *img, int iw, int ih, uint8_t *rgba, uint32_t width,
                        uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    for (uint32_t j = 0; j < h; j++) {
        int y0 = (int)((uint64_t)j * (uint64_t)ih / h), y1 = (int)((uint64_t)(j + 1) * ih / h);
        y1 = y1 > y0 ? y1 : y0 + 1;
        for (uint32_t i = 0; i < w; i++) {
            int x0 = (int)((uint64_t)i * (uint64_t)iw / w), x1 = (int)((uint64_t)(i + 1) * iw / w);
            x1 = x1 > x0 ? x1 : x0 + 1;
            uint32_t sum[3] = {0, 0, 0}, n = 0;
            for (int sy = y0; sy < y1; sy++)
                for (int sx = x0; sx < x1; sx++) {
                    const uint8_t *s = &img[4 * ((size_t)sy * iw + sx)];
                    /* transparent parts show the paper */
                    for (int c = 0; c < 3; c++)
                        sum[c] += (s[c] * s[3] + PAPER[c] * (255u - s[3])) / 255u;
                    n++;
                }
            uint8_t *d = &rgba[4 * ((size_t)(y + j) * width + x + i)];
            for (int c = 0; c < 3; c++)
                d[c] = (uint8_t)((sum[c] + n / 2) / n);
            d[3] = 255;
        }
    }
}

static bool draw_image(AppBookSource *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                       char *message, size_t size)
{
    const char *file = src->files[page];
    int iw, ih, channels;
    /* checked at open, but the file may have changed since */
    if (image_header(file, &iw, &ih, message, size))
        return false;
    uint8_t *img = stbi_load(file, &iw, &ih, &channels, 4);
    if (!img) {
        fail(message, size, 1, "--book: page %d, %s: cannot be decoded (%s)", page + 1, file,
             stbi_failure_reason() ? stbi_failure_reason() : "unknown");
        return false;
    }
    uint32_t x, y, w, h;
    fit((float)ih / (float)iw, width, height, &x, &y, &w, &h);
    place_image(img, iw, ih, rgba, width, x, y, w, h);
    stbi_image_free(img);
    return true;
}

#ifdef PAGECURL_HAVE_MUPDF
static bool draw_pdf(AppBookSource *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                     char *message, size_t size)
{
    fz_context *fz = src->fz;
    fz_page *pg = NULL;
    fz_pixmap *pix = NULL;
    fz_device *dev = NULL;
    bool ok = true;
    fz_var(pg);
    fz_var(pix);
    fz_var(dev);
    fz_var(ok);
    fz_try(fz)
    {
        pg = fz_load_page(fz, src->doc, page);
        fz_rect box = fz_bound_page(fz, pg);
        float bw = box.x1 - box.x0, bh = box.y1 - box.y0;
        if (!(bw > 0.0f && bh > 0.0f))
            fz_throw(fz, FZ_ERROR_GENERIC, "the page has no size");
        uint32_t x, y, w, h;
        fit(bh / bw, width, height, &x, &y, &w, &h);
        pix = fz_new_pixmap(fz, fz_device_rgb(fz), (int)w, (int)h, NULL, 0);
        fz_clear_pixmap_with_value(fz, pix, 255);
        fz_matrix m = fz_concat(fz_translate(-box.x0, -box.y0), fz_scale(w / bw, h / bh));
        dev = fz_new_draw_device(fz, fz_identity, pix);
        fz_run_page(fz, pg, dev, m, NULL);
        fz_close_device(fz, dev);
        const uint8_t *s = fz_pixmap_samples(fz, pix);
        ptrdiff_t stride = fz_pixmap_stride(fz, pix);
        for (uint32_t j = 0; j < h; j++)
            for (uint32_t i = 0; i < w; i++) {
                uint8_t *d = &rgba[4 * ((size_t)(y + j) * width + x + i)];
                memcpy(d, &s[j * stride + 3 * i], 3);
                d[3] = 255;
            }
    }
    fz_always(fz)
    {
        fz_drop_device(fz, dev);
        fz_drop_pixmap(fz, pix);
        fz_drop_page(fz, pg);
    }
    fz_catch(fz)
    {
        fail(message, size, 1, "--book: %s, page %d: cannot be drawn (%s)", src->name, page + 1,
             fz_caught_message(fz));
        ok = false;
    }
    return ok;
}
#endif

bool app_book_source_draw(AppBookSource *src, int page, uint32_t width, uint32_t height,
                          uint8_t *rgba, char *message, size_t size)
{
    if (src->kind == SOURCE_BUILTIN) {
        if (app_content_page(src->face, page, width, height, rgba))
            return true;
        app_book_placeholder(width, height, true, rgba);
        fail(message, size, 1, "page %d: out of memory", page + 1);
        return false;
    }
    app_book_placeholder(width, height, false, rgba);
    bool ok = false;
    if (src->kind == SOURCE_IMAGES)
        ok = draw_image(src, page, width, height, rgba, message, size);
#ifdef PAGECURL_HAVE_MUPDF
    else
        ok = draw_pdf(src, page, width, height, rgba, message, size);
#endif
    if (!ok)
        app_book_placeholder(width, height, true, rgba);
    return ok;
}

static bool same_inode(const char *a, const struct stat *sb)
{
    struct stat sa;
    return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev && sa.st_ino == sb->st_ino;
}

bool app_book_source_holds(const AppBookSource *src, const char *path)
{
    if (src->kind == SOURCE_BUILTIN)
        return false;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (src->kind == SOURCE_PDF && exists && same_inode(src->name, &st))
        return true;
    if (src->kind == SOURCE_IMAGES && exists && !S_ISDIR(st.st_mode))
        for (int p = 0; p < src->pages; p++)
            if (same_inode(src->files[p], &st))
                return true;
    /* by its name, for a file not there yet: where the write would land */
    char *target = app_safe_write_canonical(path);
    if (!target)
        return false;
    bool holds = false;
    if (src->kind == SOURCE_PDF)
        holds = !strcmp(target, src->name);
    else {
        char *slash = strrchr(target, '/');
        size_t folder = slash ? (size_t)(slash - target) : 0;
        holds = slash && strlen(src->name) == (folder ? folder : 1) &&
                !strncmp(target, src->name, folder ? folder : 1) && image_name(slash + 1);
    }
    free(target);
    return holds;
}
