/* SPDX-License-Identifier: MIT */
/* realpath, fstatat; d_type (DT_REG, DT_DIR) */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE

#include "decoder.h"
#include "../mesh/ink.h"

#include "../files/input.h"
#include "image_screen.h"
#include "../pages/page_common.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PAGECURL_HAVE_MUPDF
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#else
#include <stb_image.h>
#endif

#ifdef PAGECURL_HAVE_MUPDF
/* What MuPDF may hold at once: its allocations are counted and refused past the limit, so a
 * hostile page (an image inside a PDF that claims a billion pixels, a page that nests without
 * end) fails as out of memory instead of taking the machine's. */
typedef struct BudgetBlock BudgetBlock;
typedef struct Budget {
    size_t used, limit;
    BudgetBlock *blocks; /* every block MuPDF holds: those it never frees (its error paths leak,
                            MuPDF 1.21's FB2 reader's among them) are freed with the book */
} Budget;
#endif

typedef enum SourceKind { SOURCE_IMAGES, SOURCE_PDF } SourceKind;

struct PagesDecoder {
    SourceKind kind;
    int pages;
    float aspect;
    char *name;    /* the book's path as the user named it (messages); "(memory)" */
    int dir;       /* SOURCE_IMAGES: the folder its pages are opened in; -1: none */
    char **files;  /* SOURCE_IMAGES: "folder/name" of each page, in order; NULL: one in `memory` */
    size_t prefix; /* the bytes of "folder/" before each page's name in `files` */
    uint8_t *memory;    /* a book read from memory (the fuzzers'): its bytes */
    size_t memory_size; /* of `memory` */
    PageLabels labels;  /* a PDF's own, read at open; none for other books */
    bool right_to_left; /* a PDF's /ViewerPreferences /Direction /R2L, a comic's ComicInfo.xml */
    bool repaired;      /* a PDF whose cross-reference MuPDF rebuilt (pages_decoder_repaired) */
    bool reflowable;    /* an EPUB's or FB2's text, laid out to the page asked for */
    PagesOutlineEntry *outline; /* a PDF's table of contents, in reading order; NULL: none */
    int outline_count;
    char id[PAGES_BOOK_ID_MAX]; /* what the book is by content (pages_decoder_id); "" none */
    float drawn[2];             /* pages_decoder_drawn_print */
#ifdef PAGECURL_HAVE_MUPDF
    Budget budget;
    fz_md5 hash; /* a folder's: its pages' first bytes, as check_pages reads them */
    fz_context *fz;
    fz_document *doc;
    FILE *pdf;           /* the PDF given; MuPDF reads it through a stream */
    fz_cookie cookie;    /* MuPDF's progress through a page */
    fz_archive *archive; /* a comic book's zip (SOURCE_IMAGES): its pages are entries of it */
    bool pixels_missing; /* MuPDF warned, decoding the image, that its pixel data ran short */
#endif
};

/* The most of a page file read at open to find its size: every format's header but TIFF's (whose
 * directory may lie anywhere) is within it; a file whose header is not is read whole. */
#define HEADER_BYTES (64u * 1024u)
/* The most pages of a PDF measured for the shape most of its pages have: loading a page costs
 * its page tree's walk, and a long book's pages are sampled evenly, its first always. */
#define SHAPE_SAMPLES 64
/* The most pages of a folder whose headers are read at open: all of a book of this length (about
 * 30 ms), an even sample of a longer one, so that 100,000 pages open as fast. */
#define CHECKED_PAGES 2048
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

typedef enum ImageType {
    IMAGE_NONE,
    IMAGE_PNG,
    IMAGE_JPEG,
    IMAGE_BMP,
    IMAGE_GIF,
    IMAGE_PNM,
    IMAGE_TIFF
} ImageType;

/* The format from the first bytes, whatever the name says: only these reach a decoder. */
static ImageType image_type(const uint8_t *b, size_t n)
{
    if (n >= 8 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8))
        return IMAGE_PNG;
    if (n >= 3 && b[0] == 0xff && b[1] == 0xd8 && b[2] == 0xff)
        return IMAGE_JPEG;
    if (n >= 2 && b[0] == 'B' && b[1] == 'M')
        return IMAGE_BMP;
    if (n >= 4 && !memcmp(b, "GIF8", 4))
        return IMAGE_GIF;
    /* not P7 (PAM): MuPDF 1.21's PAM reader crashes on a few fuzzed bytes (tests/fuzz_page.c) */
    if (n >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6')
        return IMAGE_PNM;
    if (n >= 4 && (!memcmp(b, "II*\0", 4) || !memcmp(b, "MM\0*", 4)))
        return IMAGE_TIFF;
    return IMAGE_NONE;
}

static bool too_large(int w, int h)
{
    return w <= 0 || h <= 0 || w > PAGES_BOOK_MAX_IMAGE_SIDE || h > PAGES_BOOK_MAX_IMAGE_SIDE ||
           (uint64_t)w * (uint64_t)h > PAGES_BOOK_MAX_IMAGE_PIXELS;
}

#ifdef PAGECURL_HAVE_MUPDF
/* The first `max` bytes of a comic's entry `name` (a page, ComicInfo.xml), read through MuPDF's
 * stream of it, so that the size its zip claims allocates nothing: an entry that unpacks to more
 * than a page's file may have (a zip bomb's) is refused once it has. NULL with the cause. */
static uint8_t *entry_bytes(fz_context *fz, fz_archive *archive, const char *name, size_t max,
                            size_t *n, bool *whole, char *why, size_t size)
{
    size_t limit = max < PAGES_BOOK_MAX_FILE_BYTES ? max : (size_t)PAGES_BOOK_MAX_FILE_BYTES + 1;
    fz_stream *stm = NULL;
    uint8_t *bytes = NULL;
    size_t got = 0, cap = 0;
    bool ended = false;
    fz_var(max);
    fz_var(stm);
    fz_var(bytes);
    fz_var(got);
    fz_var(cap);
    fz_var(ended);
    fz_try(fz)
    {
        stm = fz_open_archive_entry(fz, archive, name);
        while (got < limit) {
            if (got == cap) {
                size_t grown = cap ? 2 * cap : 65536;
                grown = grown < limit ? grown : limit;
                uint8_t *more = realloc(bytes, grown);
                if (!more)
                    fz_throw(fz, FZ_ERROR_MEMORY, "out of memory for its %zu bytes", grown);
                bytes = more, cap = grown;
            }
            size_t k = fz_read(fz, stm, bytes + got, cap - got);
            if (!k) {
                ended = true;
                break;
            }
            got += k;
        }
        if (!ended)
            ended = fz_available(fz, stm, 1) == 0;
    }
    fz_always(fz) fz_drop_stream(fz, stm);
    fz_catch(fz)
    {
        free(bytes);
        snprintf(why, size, "%s", fz_caught_message(fz));
        return NULL;
    }
    if (got > PAGES_BOOK_MAX_FILE_BYTES) {
        free(bytes);
        snprintf(why, size, "it unpacks to more than the %u MiB a page's file may have",
                 PAGES_BOOK_MAX_FILE_BYTES >> 20);
        return NULL;
    }
    if (!bytes && !(bytes = malloc(1)))
        snprintf(why, size, "out of memory");
    *n = got, *whole = ended;
    return bytes;
}
#endif

/* A page's bytes: the file's first `max` (all of it with SIZE_MAX, up to
 * PAGES_BOOK_MAX_FILE_BYTES), read through files_openat in the folder (no FIFO, device or
 * folder is opened for reading), or the book's own bytes when it was read from memory. *whole says
 * they are all of it. NULL with the cause in `why`. */
static uint8_t *page_bytes(const PagesDecoder *src, int page, size_t max, size_t *n, bool *whole,
                           char *why, size_t size)
{
#ifdef PAGECURL_HAVE_MUPDF
    if (src->archive)
        return entry_bytes(src->fz, src->archive, src->files[page] + src->prefix, max, n, whole,
                           why, size);
#endif
    if (!src->files) {
        size_t k = src->memory_size < max ? src->memory_size : max;
        uint8_t *copy = malloc(k ? k : 1);
        if (!copy)
            snprintf(why, size, "out of memory");
        else
            memcpy(copy, src->memory, k);
        *n = k, *whole = k == src->memory_size;
        return copy;
    }
    FILE *f = files_openat(src->dir, src->files[page] + src->prefix, why, size);
    if (!f)
        return NULL;
    struct stat st;
    uint8_t *bytes = NULL;
    if (fstat(fileno(f), &st) != 0)
        snprintf(why, size, "%s", strerror(errno));
    else if ((uint64_t)st.st_size > PAGES_BOOK_MAX_FILE_BYTES)
        snprintf(why, size, "%lld bytes, more than the %u MiB a page's file may have",
                 (long long)st.st_size, PAGES_BOOK_MAX_FILE_BYTES >> 20);
    else {
        size_t k = (uint64_t)st.st_size < max ? (size_t)st.st_size : max;
        bytes = malloc(k ? k : 1);
        if (!bytes)
            snprintf(why, size, "out of memory for its %zu bytes", k);
        else {
            *n = fread(bytes, 1, k, f);
            *whole = *n == (size_t)st.st_size;
            if (ferror(f)) {
                snprintf(why, size, "%s", strerror(errno));
                free(bytes);
                bytes = NULL;
            }
        }
    }
    fclose(f);
    return bytes;
}

#ifdef PAGECURL_HAVE_MUPDF
/* Each block's header: its size and its place in the book's list of them. */
struct BudgetBlock {
    BudgetBlock *prev, *next;
    size_t n;
};
#define BUDGET_HEADER                                                                              \
    ((sizeof(BudgetBlock) + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t))

static void budget_link(Budget *b, BudgetBlock *k)
{
    k->prev = NULL, k->next = b->blocks;
    if (b->blocks)
        b->blocks->prev = k;
    b->blocks = k;
}

static void budget_unlink(Budget *b, BudgetBlock *k)
{
    if (k->prev)
        k->prev->next = k->next;
    else
        b->blocks = k->next;
    if (k->next)
        k->next->prev = k->prev;
}

static void *budget_malloc(void *user, size_t n)
{
    Budget *b = user;
    if (n > b->limit - b->used)
        return NULL;
    BudgetBlock *k = malloc(BUDGET_HEADER + n);
    if (!k)
        return NULL;
    k->n = n;
    budget_link(b, k);
    b->used += n;
    return (char *)k + BUDGET_HEADER;
}

static void budget_free(void *user, void *ptr)
{
    Budget *b = user;
    if (!ptr)
        return;
    BudgetBlock *k = (BudgetBlock *)(void *)((char *)ptr - BUDGET_HEADER);
    b->used -= k->n;
    budget_unlink(b, k);
    free(k);
}

static void *budget_realloc(void *user, void *ptr, size_t n)
{
    Budget *b = user;
    if (!ptr)
        return budget_malloc(user, n);
    if (!n) {
        budget_free(user, ptr);
        return NULL;
    }
    BudgetBlock *k = (BudgetBlock *)(void *)((char *)ptr - BUDGET_HEADER);
    size_t was = k->n;
    if (n > was && n - was > b->limit - b->used)
        return NULL;
    budget_unlink(b, k);
    BudgetBlock *q = realloc(k, BUDGET_HEADER + n);
    if (!q) {
        budget_link(b, k); /* the old block stands */
        return NULL;
    }
    q->n = n;
    budget_link(b, q);
    b->used = b->used - was + n;
    return (char *)q + BUDGET_HEADER;
}

/* What MuPDF still holds once its context is dropped: blocks it lost on an error path. */
static void budget_release(Budget *b)
{
    while (b->blocks) {
        BudgetBlock *k = b->blocks;
        b->blocks = k->next;
        free(k);
    }
    b->used = 0;
}

/* MuPDF's own warnings and errors would be lines of their own: the caller says what failed. */
static void quiet(void *user, const char *message)
{
    (void)user, (void)message;
}

/* The same for warnings, but one: a PNG short of pixel data (cut after its header or in its
 * pixels) decodes without an error, its missing rows filled white; MuPDF 1.21 only warns ("missing
 * pixel data in png image; possibly truncated"). decode() fails such a page instead: a blank page
 * with no word would hide that the file is damaged. */
static void quiet_but_missing(void *user, const char *message)
{
    PagesDecoder *src = user;
    if (!strncmp(message, "missing pixel data", 18))
        src->pixels_missing = true;
}

/* MuPDF's LZW decoder is pagecurl's (helper/lzw_decode.c): referred to here, so that the linker
 * takes it from pagecurl_pages before it reaches libmupdf.a's. */
__attribute__((used)) static fz_stream *(*const lzw_decoder)(fz_context *, fz_stream *, int, int,
                                                             int, int) = fz_open_lzwd;

/* MuPDF's reason for the failure just caught, in the user's terms: zlib's own said as what it
 * means (a stream that ends too soon has no message of zlib's, and MuPDF said "zlib error:
 * (null)"), a page tree too deep (or looping) to follow so named; else MuPDF's. */
static const char *mupdf_reason(fz_context *fz, char *out, size_t size)
{
    static const char zlib[] = "zlib error: ";
    const char *m = fz_caught_message(fz);
    /* MuPDF says one or the other of a tree 10,000 deep, as its stack allows */
    if (strstr(m, "too much recursion in tree") || strstr(m, "cycle in page tree"))
        snprintf(out, size, "its page tree is nested too deeply, or loops");
    else if (strncmp(m, zlib, sizeof zlib - 1) != 0)
        return m;
    else if (!m[sizeof zlib - 1] || !strcmp(m + sizeof zlib - 1, "(null)"))
        snprintf(out, size, "its compressed data is damaged or cut short");
    else
        snprintf(out, size, "its compressed data is damaged: %s", m + sizeof zlib - 1);
    return out;
}

static bool new_context(PagesDecoder *src)
{
    src->budget.limit = PAGES_BOOK_DECODE_MEMORY;
    const fz_alloc_context alloc = {&src->budget, budget_malloc, budget_realloc, budget_free};
    /* a bounded cache: a long book's pages are not all kept */
    src->fz = fz_new_context(&alloc, NULL, 64u << 20);
    if (!src->fz)
        return false;
    fz_set_warning_callback(src->fz, quiet_but_missing, src);
    fz_set_error_callback(src->fz, quiet, NULL);
    return true;
}

/* The image's size from its header: 0, or 1 with the cause in `why` (2: the header may lie past
 * the `n` bytes given). */
static int image_size(PagesDecoder *src, const uint8_t *b, size_t n, int *w, int *h, char *why,
                      size_t size)
{
    ImageType type = image_type(b, n);
    if (type == IMAGE_NONE)
        return fail(why, size, 1, "not an image pagecurl reads (PNG, JPEG, BMP, GIF, PNM, TIFF)");
    int png = type == IMAGE_PNG ? pages_png_size(b, n, w, h) : -1;
    if (png >= 0)
        return png ? fail(why, size, 1, "a PNG whose header gives it no size a PNG may have") : 0;
    if (type == IMAGE_BMP) /* its header alone: the file is screened whole when it is decoded */
        return pages_bmp_screen(b, n, false, w, h, why, size) ? 0 : 1;
    /* the lists a TIFF's first directory holds are read before anything else */
    if (type == IMAGE_TIFF && !pages_tiff_screen(b, n, false, why, size))
        return 1;
    fz_context *fz = src->fz;
    fz_buffer *buf = NULL;
    fz_image *img = NULL;
    int status = 0;
    fz_var(buf);
    fz_var(img);
    fz_var(status);
    fz_try(fz)
    {
        buf = fz_new_buffer_from_shared_data(fz, b, n);
        img = fz_new_image_from_buffer(fz, buf);
        *w = img->w, *h = img->h;
    }
    fz_always(fz)
    {
        fz_drop_image(fz, img);
        fz_drop_buffer(fz, buf);
    }
    fz_catch(fz)
    {
        char reason[256];
        status = fail(why, size, 2, "not an image pagecurl can read (%s)",
                      mupdf_reason(fz, reason, sizeof reason));
    }
    return status;
}

/* image_decode's MuPDF part, for bytes screened. */
static uint8_t *decode(PagesDecoder *src, const uint8_t *bytes, size_t n, uint32_t want_w,
                       uint32_t want_h, int *w, int *h, char *why, size_t size)
{
    fz_context *fz = src->fz;
    fz_buffer *buf = NULL;
    fz_image *img = NULL;
    fz_pixmap *pix = NULL, *rgb = NULL;
    uint8_t *out = NULL;
    fz_var(buf);
    fz_var(img);
    fz_var(pix);
    fz_var(rgb);
    fz_var(out);
    fz_try(fz)
    {
        buf = fz_new_buffer_from_shared_data(fz, bytes, n);
        img = fz_new_image_from_buffer(fz, buf);
        if (too_large(img->w, img->h))
            fz_throw(fz, FZ_ERROR_GENERIC, "%dx%d pixels, %s", img->w, img->h,
                     img->w > 0 && img->h > 0 ? "larger than a page may be" : "no size at all");
        fz_matrix ctm = fz_scale((float)want_w, (float)want_h);
        /* a warning repeated is only counted: the last one forgotten, this image's is seen */
        fz_flush_warnings(fz);
        src->pixels_missing = false;
        pix = fz_get_pixmap_from_image(fz, img, NULL, &ctm, NULL, NULL);
        if (src->pixels_missing)
            fz_throw(fz, FZ_ERROR_GENERIC,
                     "its pixel data is cut short: the file is damaged or truncated");
        if (!fz_colorspace_is_rgb(fz, fz_pixmap_colorspace(fz, pix)) ||
            fz_pixmap_components(fz, pix) - fz_pixmap_alpha(fz, pix) != 3) {
            rgb = fz_convert_pixmap(fz, pix, fz_device_rgb(fz), NULL, NULL, fz_default_color_params,
                                    1);
            fz_drop_pixmap(fz, pix);
            pix = rgb;
            rgb = NULL;
        }
        int pw = fz_pixmap_width(fz, pix), ph = fz_pixmap_height(fz, pix);
        int comps = fz_pixmap_components(fz, pix), alpha = fz_pixmap_alpha(fz, pix);
        if (pw < 1 || ph < 1 || comps - alpha != 3)
            fz_throw(fz, FZ_ERROR_GENERIC, "the image has no pixels");
        out = malloc((size_t)pw * (size_t)ph * 4);
        if (!out)
            fz_throw(fz, FZ_ERROR_MEMORY, "out of memory for %dx%d pixels", pw, ph);
        const uint8_t *s = fz_pixmap_samples(fz, pix);
        ptrdiff_t stride = fz_pixmap_stride(fz, pix);
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                const uint8_t *p = &s[y * stride + (ptrdiff_t)x * comps];
                uint8_t *d = &out[4 * ((size_t)y * pw + x)];
                unsigned a = alpha ? p[3] : 255u;
                /* MuPDF's alpha is premultiplied */
                for (int c = 0; c < 3; c++)
                    d[c] =
                        (uint8_t)(a ? (p[c] * 255u + a / 2) / a > 255u ? 255u
                                                                       : (p[c] * 255u + a / 2) / a
                                    : 0u);
                d[3] = (uint8_t)a;
            }
        *w = pw, *h = ph;
    }
    fz_always(fz)
    {
        fz_drop_pixmap(fz, rgb);
        fz_drop_pixmap(fz, pix);
        fz_drop_image(fz, img);
        fz_drop_buffer(fz, buf);
    }
    fz_catch(fz)
    {
        free(out);
        out = NULL;
        char reason[256];
        fail(why, size, 1, "%s", mupdf_reason(fz, reason, sizeof reason));
    }
    return out;
}

/* The image decoded into a malloc'd w x h RGBA8 (straight alpha), at the least resolution that
 * still covers `want_w` x `want_h` (MuPDF decodes a JPEG at 1/2, 1/4, 1/8 and subsamples the rest:
 * a large scan drawn small is never decoded whole). NULL with the cause in `why`. */
static uint8_t *image_decode(PagesDecoder *src, const uint8_t *b, size_t n, uint32_t want_w,
                             uint32_t want_h, int *w, int *h, char *why, size_t size)
{
    ImageType type = image_type(b, n);
    if (type == IMAGE_NONE) {
        fail(why, size, 1, "not an image pagecurl reads (PNG, JPEG, BMP, GIF, PNM, TIFF)");
        return NULL;
    }
    int bw, bh;
    if (type == IMAGE_BMP && !pages_bmp_screen(b, n, true, &bw, &bh, why, size))
        return NULL;
    if ((type == IMAGE_GIF && !pages_gif_screen(b, n, why, size)) ||
        (type == IMAGE_TIFF && !pages_tiff_screen(b, n, true, why, size)) ||
        (type == IMAGE_PNM && !pages_pnm_screen(b, n, why, size)) ||
        (type == IMAGE_PNG && pages_png_size(b, n, &bw, &bh) > 0 &&
         fail(why, size, 1, "a PNG whose header gives it no size a PNG may have")))
        return NULL;
    uint8_t *masked = NULL; /* a BMP with its masks made those it means */
    if (type == IMAGE_BMP && !pages_bmp_masks(b, n, &masked)) {
        fail(why, size, 1, "out of memory");
        return NULL;
    }
    uint8_t *out = decode(src, masked ? masked : b, n, want_w, want_h, w, h, why, size);
    free(masked); /* MuPDF holds no part of it past decode */
    return out;
}

static void image_free(uint8_t *img)
{
    free(img);
}
#else
/* Without MuPDF, stb_image, screened: every 16-bit image is refused (each known stb_image
 * memory error in Debian 12's version lies on its 16-bit paths: a 16-bit PPM overflows its heap),
 * and so is every format but these five. */
static int screen_stb(const uint8_t *b, size_t n, char *why, size_t size)
{
    ImageType type = image_type(b, n);
    if (type == IMAGE_NONE || type == IMAGE_TIFF)
        return fail(why, size, 1,
                    "not an image this build reads (PNG, JPEG, BMP, GIF, PNM; built without "
                    "MuPDF)");
    if (n > INT_MAX)
        return fail(why, size, 1, "too large a file");
    if (stbi_is_16_bit_from_memory(b, (int)n))
        return fail(why, size, 1,
                    "16 bits a channel, which this build does not read (built without MuPDF)");
    return 0;
}

static int image_size(PagesDecoder *src, const uint8_t *b, size_t n, int *w, int *h, char *why,
                      size_t size)
{
    (void)src;
    int channels, bad = screen_stb(b, n, why, size);
    if (bad)
        return bad;
    int png = image_type(b, n) == IMAGE_PNG ? pages_png_size(b, n, w, h) : -1;
    if (png >= 0)
        return png ? fail(why, size, 1, "a PNG whose header gives it no size a PNG may have") : 0;
    if (!stbi_info_from_memory(b, (int)n, w, h, &channels))
        return fail(why, size, 2, "not an image pagecurl can read (%s)",
                    stbi_failure_reason() ? stbi_failure_reason() : "unknown format");
    return 0;
}

static uint8_t *image_decode(PagesDecoder *src, const uint8_t *b, size_t n, uint32_t want_w,
                             uint32_t want_h, int *w, int *h, char *why, size_t size)
{
    (void)src, (void)want_w, (void)want_h;
    int channels;
    if (screen_stb(b, n, why, size))
        return NULL;
    if (!stbi_info_from_memory(b, (int)n, w, h, &channels)) {
        fail(why, size, 1, "%s", stbi_failure_reason() ? stbi_failure_reason() : "unknown");
        return NULL;
    }
    if (too_large(*w, *h)) {
        fail(why, size, 1, "%dx%d pixels, larger than a page may be", *w, *h);
        return NULL;
    }
    uint8_t *img = stbi_load_from_memory(b, (int)n, w, h, &channels, 4);
    if (!img)
        fail(why, size, 1, "%s", stbi_failure_reason() ? stbi_failure_reason() : "unknown");
    return img;
}

static void image_free(uint8_t *img)
{
    stbi_image_free(img);
}
#endif
#ifdef PAGECURL_HAVE_MUPDF
/* The book's id: `kind`, the page count and the digest, "kind-N-hex". */
static void set_id(PagesDecoder *src, const char *kind, fz_md5 *hash)
{
    unsigned char digest[16];
    fz_md5_final(hash, digest);
    /* a reflowable book's page count is its layout's: its ink, kept by page, is kept for that
     * layout, and a notebook refuses the book laid out otherwise (it "has changed") */
    int k = snprintf(src->id, sizeof src->id, "%s-%d-", kind, src->pages);
    for (int i = 0; i < 16 && k > 0 && (size_t)k + 2 < sizeof src->id; i++, k += 2)
        snprintf(src->id + k, 3, "%02x", digest[i]);
}
#endif

/* Page `page`'s size from its header (its first bytes; all of it where those do not say): 0, or
 * the exit status with the line. */
static int page_header(PagesDecoder *src, int page, int *w, int *h, char *message, size_t size)
{
    const char *file = src->files ? src->files[page] : src->name;
    char why[256];
    size_t n;
    bool whole;
    uint8_t *b = page_bytes(src, page, HEADER_BYTES, &n, &whole, why, sizeof why);
    if (!b)
        return fail(message, size, 1, "%s: %s", file, why);
#ifdef PAGECURL_HAVE_MUPDF
    uint64_t count = n;
    fz_md5_update(&src->hash, (const unsigned char *)&count, sizeof count);
    fz_md5_update(&src->hash, b, n);
#endif
    int bad = image_size(src, b, n, w, h, why, sizeof why);
    free(b);
    if (bad == 2 && !whole) {
        b = page_bytes(src, page, SIZE_MAX, &n, &whole, why, sizeof why);
        if (!b)
            return fail(message, size, 1, "%s: %s", file, why);
        bad = image_size(src, b, n, w, h, why, sizeof why);
        free(b);
    }
    if (bad)
        return fail(message, size, 1, "%s: %s", file, why);
    if (*w <= 0 || *h <= 0)
        return fail(message, size, 1, "%s: an image of %dx%d pixels", file, *w, *h);
    if (too_large(*w, *h))
        return fail(message, size, 1,
                    "%s: %dx%d pixels, larger than a page may be (%d a side, %u "
                    "megapixels)",
                    file, *w, *h, PAGES_BOOK_MAX_IMAGE_SIDE, PAGES_BOOK_MAX_IMAGE_PIXELS >> 20);
    return 0;
}

/* Every page's header, a few hundred bytes each (of a book longer than CHECKED_PAGES, that many
 * spread evenly through it, the first always): a file that is no image, or one too large to
 * decode, is named before anything starts; in a longer book a page not checked that fails shows
 * crossed out when it is drawn, as any page that fails only then. */
static int check_pages(PagesDecoder *src, char *message, size_t size)
{
    int checked = src->pages < CHECKED_PAGES ? src->pages : CHECKED_PAGES;
    float *aspects = malloc((size_t)checked * sizeof *aspects);
    if (!aspects)
        return fail(message, size, 1, "%s: out of memory", src->name ? src->name : "the book");
    int first_bad = 0, good = 0;
#ifdef PAGECURL_HAVE_MUPDF
    fz_md5_init(&src->hash);
#endif
    /* a page that fails is shown crossed out when drawn, with its cause: one bad file among a
     * folder's images does not keep the book shut; a folder of which no page can be read does */
    for (int i = 0; i < checked; i++) {
        int w, h;
        char line[512];
        int bad =
            page_header(src, (int)((int64_t)i * src->pages / checked), &w, &h, line, sizeof line);
        if (bad && !first_bad) {
            first_bad = bad;
            snprintf(message, size, "%s", line);
        }
        if (!bad)
            aspects[good++] = (float)h / (float)w;
    }
    if (good)
        src->aspect = pages_book_common_aspect(aspects, good);
    free(aspects);
    if (!good)
        return first_bad;
    if (size)
        message[0] = '\0';
#ifdef PAGECURL_HAVE_MUPDF
    set_id(src, "pages", &src->hash);
#endif
    return 0;
}

int pages_decoder_open_folder(int dir, const char *shown, char **names, int pages,
                              PagesDecoder **out, char *message, size_t size)
{
    *out = NULL;
    PagesDecoder *src = calloc(1, sizeof *src);
    if (!src) {
        close(dir);
        return fail(message, size, 1, "%s: out of memory", shown);
    }
    src->kind = SOURCE_IMAGES;
    src->dir = dir;
    src->name = strdup(shown);
    src->prefix = strlen(shown) + 1;
    src->files = calloc(pages > 0 ? (size_t)pages : 1, sizeof *src->files);
    int status = !src->name || !src->files ? fail(message, size, 1, "%s: out of memory", shown) : 0;
    for (int p = 0; !status && p < pages; p++) {
        size_t n = src->prefix + strlen(names[p]) + 1;
        if (!(src->files[p] = malloc(n)))
            status = fail(message, size, 1, "%s: out of memory", shown);
        else
            snprintf(src->files[p], n, "%s/%s", shown, names[p]), src->pages = p + 1;
    }
    if (!status && pages < 1)
        status = fail(message, size, 2, "%s: a folder with no images", shown);
#ifdef PAGECURL_HAVE_MUPDF
    if (!status && !new_context(src))
        status = fail(message, size, 1, "%s: out of memory", shown);
#endif
    if (!status)
        status = check_pages(src, message, size);
    if (status) {
        pages_decoder_close(src);
        return status;
    }
    *out = src;
    return 0;
}

#ifdef PAGECURL_HAVE_MUPDF
/* Whether page `page` loads; where it does not, why (mupdf_reason) into `why`. */
static bool page_loads(fz_context *fz, fz_document *doc, int page, char *why, size_t size)
{
    fz_page *pg = NULL;
    bool ok = true;
    fz_var(pg);
    fz_var(ok);
    fz_try(fz) pg = fz_load_page(fz, doc, page);
    fz_catch(fz)
    {
        ok = false;
        char reason[256];
        snprintf(why, size, "%s", mupdf_reason(fz, reason, sizeof reason));
    }
    fz_drop_page(fz, pg);
    return ok;
}

/* The pages the document has: its page tree's count (/Count) when its last page loads (one
 * look-up down the tree: a long book opens as fast as a short one), else the most that load, by
 * bisection (a count that lies, /Count 100000 over one page). Why the first page that does not
 * load fails into `why` (where none loads: the reason the book cannot be read). */
static int real_pages(fz_context *fz, fz_document *doc, char *why, size_t size)
{
    int n = fz_count_pages(fz, doc);
    if (n < 1 || page_loads(fz, doc, n - 1, why, size))
        return n;
    int lo = -1, hi = n - 1; /* page lo loads (or is none), page hi does not */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (page_loads(fz, doc, mid, why, size))
            lo = mid;
        else
            hi = mid;
    }
    return lo + 1;
}

/* The most nodes of a /PageLabels number tree visited, and how deep: a real tree has a handful;
 * a hostile one (a million kids, a chain a million deep) is read no further. */
#define LABEL_TREE_NODES 10000
#define LABEL_TREE_DEPTH 32

/* One node of the /PageLabels number tree: its /Nums pairs (page index, label dictionary), then
 * its /Kids, never one already on the way down (a cycle). */
static void label_node(PagesDecoder *src, pdf_obj *node, pdf_cycle_list *up, int depth, int *visits)
{
    fz_context *fz = src->fz;
    pdf_cycle_list here;
    if (!pdf_is_dict(fz, node) || depth > LABEL_TREE_DEPTH || ++*visits > LABEL_TREE_NODES ||
        pdf_cycle(fz, &here, up, node))
        return;
    pdf_obj *nums = pdf_dict_gets(fz, node, "Nums");
    int n = pdf_array_len(fz, nums);
    for (int i = 0; i + 1 < n; i += 2) {
        pdf_obj *key = pdf_array_get(fz, nums, i), *label = pdf_array_get(fz, nums, i + 1);
        if (!pdf_is_number(fz, key) || !pdf_is_dict(fz, label))
            continue;
        pdf_obj *first = pdf_dict_gets(fz, label, "St");
        if (!page_labels_add(&src->labels, pdf_to_int(fz, key),
                             page_label_style(pdf_to_name(fz, pdf_dict_gets(fz, label, "S"))),
                             pdf_is_number(fz, first) ? pdf_to_int(fz, first) : 1,
                             pdf_to_text_string(fz, pdf_dict_gets(fz, label, "P"))))
            return;
    }
    pdf_obj *kids = pdf_dict_gets(fz, node, "Kids");
    n = pdf_array_len(fz, kids);
    for (int i = 0; i < n && *visits <= LABEL_TREE_NODES; i++)
        label_node(src, pdf_array_get(fz, kids, i), &here, depth + 1, visits);
}

/* The PDF's page labels (its catalogue's /PageLabels), read once here, on the thread that opens
 * it: labels are then made from the table on any thread, while the worker draws. A tree that
 * cannot be read gives no labels, never an error: the pages are what matters. */
static void read_labels(PagesDecoder *src)
{
    fz_context *fz = src->fz;
    pdf_document *pdf = pdf_specifics(fz, src->doc);
    if (!pdf)
        return;
    int visits = 0;
    fz_try(fz)
    {
        pdf_obj *root = pdf_dict_gets(fz, pdf_trailer(fz, pdf), "Root");
        label_node(src, pdf_dict_gets(fz, root, "PageLabels"), NULL, 0, &visits);
    }
    fz_catch(fz)
    {
        page_labels_free(&src->labels);
    }
    page_labels_finish(&src->labels, src->pages);
}

/* The shape most of the PDF's pages have, from up to SHAPE_SAMPLES of them spread evenly (page 1
 * always); pages that do not load or have no size are not counted (page 1 does). */
/* Page `p`'s height over its width; 0 where it cannot be loaded or has no area. The fz_try is
 * a function of its own: the caller's loop counters are never live across its setjmp. */
static float page_aspect(fz_context *fz, fz_document *doc, int p)
{
    fz_page *pg = NULL;
    float aspect = 0.0f;
    fz_var(pg);
    fz_var(aspect);
    fz_try(fz)
    {
        pg = fz_load_page(fz, doc, p);
        fz_rect box = fz_bound_page(fz, pg);
        float w = box.x1 - box.x0, h = box.y1 - box.y0;
        if (w > 0.0f && h > 0.0f && isfinite(h / w))
            aspect = h / w;
    }
    fz_always(fz) fz_drop_page(fz, pg);
    fz_catch(fz) {}
    return aspect;
}

static float pdf_shape(PagesDecoder *src)
{
    float aspects[SHAPE_SAMPLES];
    int n = 0, samples = src->pages < SHAPE_SAMPLES ? src->pages : SHAPE_SAMPLES;
    for (int i = 0; i < samples; i++) {
        float aspect = page_aspect(src->fz, src->doc, (int)((int64_t)i * src->pages / samples));
        if (aspect > 0.0f)
            aspects[n++] = aspect;
    }
    return pages_book_common_aspect(aspects, n);
}

/* An outline entry of `title` (NULL: none; control characters made spaces, cut at
 * PAGES_OUTLINE_TITLE_MAX bytes) leading to `page` (-1, or one past the book: nowhere). */
static bool title_entry(const PagesDecoder *src, const char *title, int page, int depth,
                        PagesOutlineEntry *out)
{
    title = title ? title : "";
    size_t n = strnlen(title, PAGES_OUTLINE_TITLE_MAX - 1);
    while (n && title[n] && ((unsigned char)title[n] & 0xc0) == 0x80)
        n--; /* cut before a character, not inside one */
    *out = (PagesOutlineEntry){
        .title = malloc(n + 1), .side = page < src->pages ? page : -1, .depth = depth};
    if (!out->title)
        return false;
    memcpy(out->title, title, n);
    out->title[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)out->title[i] < 0x20 || out->title[i] == 0x7f)
            out->title[i] = ' ';
    return true;
}

/* The outline entry `node` names: its title (control characters made spaces, cut at
 * PAGES_OUTLINE_TITLE_MAX bytes) and the page its destination or action leads to (-1: none). */
static bool outline_entry(PagesDecoder *src, pdf_document *pdf, pdf_obj *node, int depth,
                          PagesOutlineEntry *out)
{
    fz_context *fz = src->fz;
    char *uri = NULL;
    int page = -1;
    const char *title = "";
    fz_var(uri);
    fz_var(page);
    fz_var(title);
    fz_try(fz)
    {
        title = pdf_to_text_string(fz, pdf_dict_gets(fz, node, "Title"));
        pdf_obj *dest = pdf_dict_gets(fz, node, "Dest"), *action = pdf_dict_gets(fz, node, "A");
        uri = dest     ? pdf_parse_link_dest(fz, pdf, dest)
              : action ? pdf_parse_link_action(fz, pdf, action, -1)
                       : NULL;
        float x, y;
        if (uri)
            page = pdf_resolve_link(fz, pdf, uri, &x, &y);
    }
    fz_always(fz) fz_free(fz, uri);
    fz_catch(fz) page = -1;
    return title_entry(src, title, page, depth, out);
}

/* How deep a page tree may be, and how many nodes a page of it, for its maps to be made: MuPDF
 * makes them by recursion, with no bound of its own (a chain of nodes 100,000 deep would
 * overflow the helper's stack); a real tree is a few levels deep. */
#define PAGE_TREE_DEPTH        64
#define PAGE_TREE_NODES_A_PAGE 3

/* Whether the tree under `node` is within PAGE_TREE_DEPTH and `*left` more nodes (a cycle runs
 * out of them): by recursion bounded by the depth. */
static bool tree_bounded(fz_context *fz, pdf_obj *node, int depth, int *left)
{
    if (depth > PAGE_TREE_DEPTH || --*left < 0)
        return false;
    if (!pdf_name_eq(fz, pdf_dict_get(fz, node, PDF_NAME(Type)), PDF_NAME(Pages)))
        return true;
    pdf_obj *kids = pdf_dict_get(fz, node, PDF_NAME(Kids));
    int n = pdf_array_len(fz, kids);
    for (int i = 0; i < n; i++)
        if (!tree_bounded(fz, pdf_array_get(fz, kids, i), depth + 1, left))
            return false;
    return true;
}

/* The page tree's maps made (true), so that each outline entry's page is a look-up: without them
 * MuPDF walks the tree for every entry's page (the 1,191-page Valgrind manual thrice over: its
 * outline took 131 ms of a 173 ms open; the open takes 44-86 ms with them). A tree too deep or
 * large to map, or that cannot be, is walked, as before. */
static bool page_tree_mapped(PagesDecoder *src, pdf_document *pdf)
{
    fz_context *fz = src->fz;
    bool mapped = false;
    int left = PAGE_TREE_NODES_A_PAGE * src->pages + PAGE_TREE_DEPTH;
    fz_var(mapped);
    fz_try(fz)
    {
        pdf_obj *root = pdf_dict_getp(fz, pdf_trailer(fz, pdf), "Root/Pages");
        if (tree_bounded(fz, root, 0, &left)) {
            pdf_load_page_tree(fz, pdf);
            mapped = true;
        }
    }
    fz_catch(fz) {}
    return mapped;
}

/* The PDF's outline (/Root /Outlines), read once at open, on the opening thread: depth first
 * with a stack of our own (no recursion a hostile chain could overflow), each entry visited
 * once (marked: a cycle ends), at most PAGES_OUTLINE_MAX entries PAGES_OUTLINE_DEPTH deep. An
 * outline that cannot be read is none: the pages are what matters. */
static void read_outline(PagesDecoder *src)
{
    fz_context *fz = src->fz;
    pdf_document *pdf = pdf_specifics(fz, src->doc);
    if (!pdf)
        return;
    struct {
        pdf_obj *node;
        int depth;
    } stack[2 * PAGES_OUTLINE_DEPTH + 2];
    pdf_obj **marked = calloc(PAGES_OUTLINE_MAX, sizeof *marked);
    src->outline = calloc(PAGES_OUTLINE_MAX, sizeof *src->outline);
    int top = 0, nmarked = 0;
    bool mapped = false;
    fz_var(top);
    fz_var(nmarked);
    fz_var(mapped);
    if (!marked || !src->outline) {
        free(marked);
        free(src->outline);
        src->outline = NULL;
        return;
    }
    fz_try(fz)
    {
        pdf_obj *root = pdf_dict_gets(fz, pdf_trailer(fz, pdf), "Root");
        pdf_obj *first = pdf_dict_gets(fz, pdf_dict_gets(fz, root, "Outlines"), "First");
        if (pdf_is_dict(fz, first)) {
            stack[top++].node = first, stack[top - 1].depth = 0;
            mapped = page_tree_mapped(src, pdf);
        }
        while (top > 0 && nmarked < PAGES_OUTLINE_MAX) {
            pdf_obj *node = stack[--top].node;
            int depth = stack[top].depth;
            if (!pdf_is_dict(fz, node) || pdf_mark_obj(fz, node))
                continue; /* no entry, or one seen already: a cycle */
            marked[nmarked++] = node;
            if (!outline_entry(src, pdf, node, depth, &src->outline[src->outline_count]))
                break;
            src->outline_count++;
            /* the next sibling waits under the first child, which comes first */
            pdf_obj *next = pdf_dict_gets(fz, node, "Next");
            pdf_obj *child = pdf_dict_gets(fz, node, "First");
            if (pdf_is_dict(fz, next))
                stack[top].node = next, stack[top++].depth = depth;
            if (pdf_is_dict(fz, child) && depth + 1 < PAGES_OUTLINE_DEPTH)
                stack[top].node = child, stack[top++].depth = depth + 1;
        }
    }
    fz_always(fz)
    {
        for (int i = 0; i < nmarked; i++)
            pdf_unmark_obj(fz, marked[i]);
        if (mapped)
            pdf_drop_page_tree(fz, pdf);
    }
    fz_catch(fz) {}
    free(marked);
}

/* What the book is (`kind`: its format): a PDF's trailer's /ID, whose first string the PDF's maker
 * gave it for good (a copy or a moved file keeps it; saving changes only the second), else a digest
 * of its bytes. */
static void pdf_id(PagesDecoder *src, const char *kind)
{
    fz_context *fz = src->fz;
    fz_md5 hash;
    fz_md5_init(&hash);
    pdf_document *pdf = pdf_specifics(fz, src->doc);
    size_t n = 0;
    const char *id = NULL;
    fz_try(fz)
    {
        if (pdf) {
            pdf_obj *ids = pdf_dict_gets(fz, pdf_trailer(fz, pdf), "ID");
            id = pdf_to_string(fz, pdf_array_get(fz, ids, 0), &n);
        }
    }
    fz_catch(fz) id = NULL, n = 0;
    if (id && n >= 8) {
        fz_md5_update(&hash, (const unsigned char *)id, n);
        set_id(src, "pdf-id", &hash);
        return;
    }
    if (src->memory)
        fz_md5_update(&hash, src->memory, src->memory_size);
    else if (src->pdf) { /* pread: MuPDF's stream keeps its own place in the file */
        unsigned char chunk[1 << 16];
        ssize_t got;
        for (off_t at = 0; (got = pread(fileno(src->pdf), chunk, sizeof chunk, at)) > 0; at += got)
            fz_md5_update(&hash, chunk, (size_t)got);
    }
    set_id(src, kind, &hash);
}

/* Whether the PDF says it reads right to left (its catalogue's /ViewerPreferences /Direction
 * /R2L: manga, Arabic, Hebrew). Anything unreadable says no. */
static bool reads_right_to_left(PagesDecoder *src)
{
    fz_context *fz = src->fz;
    pdf_document *pdf = pdf_specifics(fz, src->doc);
    bool r2l = false;
    if (!pdf)
        return false;
    fz_try(fz)
    {
        pdf_obj *root = pdf_dict_gets(fz, pdf_trailer(fz, pdf), "Root");
        pdf_obj *prefs = pdf_dict_gets(fz, root, "ViewerPreferences");
        r2l = !strcmp(pdf_to_name(fz, pdf_dict_gets(fz, prefs, "Direction")), "R2L");
    }
    fz_catch(fz) r2l = false;
    return r2l;
}

/* What a document's bytes are, by its content (MuPDF is told: its handlers would otherwise guess
 * from a name it is not given). */
typedef enum Format { FORMAT_PDF, FORMAT_EPUB, FORMAT_XPS, FORMAT_FB2, FORMAT_CBZ } Format;
static const char *const FORMAT_NAME[] = {"PDF", "EPUB", "XPS document", "FB2 book", "comic book"};
static const char *const FORMAT_MAGIC[] = {"application/pdf", "application/epub+zip",
                                           "application/oxps", "application/x-fictionbook", ""};
static const char *const FORMAT_ID[] = {"pdf", "epub", "xps", "fb2", "cbz"};
static const char *const FORMAT_A[] = {"a", "an", "an", "an", "a"}; /* the name's article */

/* The most an EPUB's or XPS's parts may unpack to, each and all together: a real book's chapter
 * is a few hundred KB and its pictures a few MB; a zip bomb's part (a chapter that never ends) is
 * refused before MuPDF parses or lays out a byte of it. */
#define PART_BYTES  (64u << 20)
#define PARTS_BYTES (256u << 20)
/* The most bytes of an FB2 book (one XML file, its pictures inside it in base64). */
#define FB2_BYTES (64u << 20)

/* Whether `b` (n bytes) begins, past a byte order mark and white space, an XML file whose first
 * element is <FictionBook>. */
static bool fiction_book(const uint8_t *b, size_t n)
{
    size_t i = n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3) ? 3 : 0;
    while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    if (i + 5 > n || b[i] != '<')
        return false;
    static const char tag[] = "<FictionBook";
    for (size_t j = i; j + sizeof tag - 1 <= n; j++)
        if (!memcmp(b + j, tag, sizeof tag - 1))
            return true;
    return false;
}

/* How deeply a markup part's elements nest, read as its bytes stream past (no parser: tags
 * counted, void HTML elements and <x/> left out). MuPDF's HTML and XML readers recurse once a
 * level and take time that grows with its square: 3,000 levels take seconds, 8,000 crash it after
 * many. A real book nests a few dozen; deeper is refused before MuPDF reads it. */
#define NESTING_MAX 256
typedef struct Nesting {
    int depth, most;
    int state; /* 0 text, 1 after '<', 2 a tag's name, 3 the rest of a tag, 4 <!...> or <?...> */
    bool closing;
    char name[8];
    int n;
    unsigned char prev;
} Nesting;

static bool void_element(const char *name)
{
    static const char *const names[] = {"br",   "hr",   "img", "meta",  "link",  "input",  "col",
                                        "area", "base", "wbr", "embed", "param", "source", "track"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

static void nesting_feed(Nesting *t, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        if (t->state == 0 && c == '<') {
            t->state = 1;
        } else if (t->state == 1) {
            t->state = c == '!' || c == '?' ? 4 : 2;
            t->closing = c == '/';
            t->n = 0;
            if (!t->closing && t->state == 2)
                t->name[t->n++] = (char)tolower(c);
        } else if (t->state == 2 && (isalnum(c) || c == ':' || c == '-')) {
            if (t->n < (int)sizeof t->name - 1)
                t->name[t->n++] = (char)tolower(c);
        } else if (t->state == 2 || t->state == 3) {
            t->state = 3;
            if (c == '>') {
                t->name[t->n] = '\0';
                if (t->closing)
                    t->depth -= t->depth > 0;
                else if (t->prev != '/' && !void_element(t->name) && ++t->depth > t->most)
                    t->most = t->depth;
                t->state = 0;
            }
        } else if (t->state == 4 && c == '>') {
            t->state = 0;
        }
        t->prev = c;
    }
}

/* Whether a zip's part is markup MuPDF parses as a tree (XHTML, XML, an XPS page). */
static bool markup_part(const char *name)
{
    static const char *const exts[] = {".xhtml", ".html", ".htm",   ".xml",  ".ncx", ".opf",
                                       ".fpage", ".fdoc", ".fdseq", ".rels", ".svg"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (pages_book_has_suffix(name, exts[i]))
            return true;
    return false;
}

/* Every part of the zip read once through its stream, counted: NULL, or the part that unpacks to
 * more than PART_BYTES (or past PARTS_BYTES in all), named into `why`. */
static bool parts_bounded(fz_context *fz, fz_archive *arch, char *why, size_t size)
{
    unsigned char chunk[1 << 16];
    int count = fz_count_archive_entries(fz, arch);
    uint64_t all = 0;
    for (int i = 0; i < count; i++) {
        const char *name = fz_list_archive_entry(fz, arch, i);
        if (!name)
            continue;
        uint64_t part = 0;
        Nesting nest = {0};
        bool markup = markup_part(name);
        fz_var(part);
        fz_var(nest);
        fz_stream *stm = fz_open_archive_entry(fz, arch, name);
        fz_try(fz)
        {
            size_t k;
            while (part <= PART_BYTES && all + part <= PARTS_BYTES && nest.most <= NESTING_MAX &&
                   (k = fz_read(fz, stm, chunk, sizeof chunk)) > 0) {
                part += k;
                if (markup)
                    nesting_feed(&nest, chunk, k);
            }
        }
        fz_always(fz) fz_drop_stream(fz, stm);
        fz_catch(fz) fz_rethrow(fz);
        all += part;
        if (nest.most > NESTING_MAX) {
            snprintf(why, size, "its part %.120s nests its elements more than %d deep", name,
                     NESTING_MAX);
            return false;
        }
        if (part > PART_BYTES || all > PARTS_BYTES) {
            snprintf(why, size, "its part %.120s unpacks to more than %u MiB%s", name,
                     (part > PART_BYTES ? PART_BYTES : PARTS_BYTES) >> 20,
                     part > PART_BYTES ? "" : " with the parts before it");
            return false;
        }
    }
    return true;
}

/* Whether a comic's ComicInfo.xml says it reads right to left (<Manga>YesAndRightToLeft</Manga>,
 * or the attribute Manga="YesAndRightToLeft" some tools write). */
static bool comic_right_to_left(PagesDecoder *src)
{
    int count = fz_count_archive_entries(src->fz, src->archive);
    for (int i = 0; i < count; i++) {
        const char *name = fz_list_archive_entry(src->fz, src->archive, i);
        if (!name || strcasecmp(name, "ComicInfo.xml") != 0)
            continue;
        char why[256];
        size_t n;
        bool whole;
        uint8_t *b =
            entry_bytes(src->fz, src->archive, name, 1u << 20, &n, &whole, why, sizeof why);
        bool r2l = false;
        for (size_t j = 0; b && !r2l && j + 5 <= n; j++) {
            if (memcmp(b + j, "Manga", 5) != 0)
                continue;
            size_t k = j + 5;
            while (k < n && (b[k] == '>' || b[k] == '=' || b[k] == '"' || b[k] == '\'' ||
                             b[k] == ' ' || b[k] == '\n' || b[k] == '\r' || b[k] == '\t'))
                k++;
            r2l = k + 17 <= n && !memcmp(b + k, "YesAndRightToLeft", 17);
        }
        free(b);
        return r2l;
    }
    return false;
}

static int compare_entries(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = pages_book_name_compare(x, y);
    return c ? c : strcmp(x, y);
}

/* A comic book: the zip's images are its pages, in natural name order (page2 before page10,
 * folders within it as their paths sort), each read and checked as a folder's page is. */
static int open_comic(PagesDecoder *src, const char *path, char *message, size_t size)
{
    fz_context *fz = src->fz;
    int count = fz_count_archive_entries(fz, src->archive), pages = 0;
    /* the entries' names (the archive's own) that are pages, sorted */
    const char **names = calloc(count > 0 ? (size_t)count : 1, sizeof *names);
    src->files = calloc(count > 0 ? (size_t)count : 1, sizeof *src->files);
    if (!names || !src->files) {
        free(names);
        return fail(message, size, 1, "%s: out of memory", path);
    }
    for (int i = 0; i < count; i++) {
        const char *name = fz_list_archive_entry(fz, src->archive, i);
        const char *base = name ? strrchr(name, '/') : NULL;
        base = base ? base + 1 : name;
        /* a Mac's resource forks (__MACOSX/._page1.jpg) are no pages */
        if (name && pages_book_image_name(base) && strncmp(name, "__MACOSX/", 9) != 0)
            names[pages++] = name;
    }
    qsort(names, (size_t)pages, sizeof *names, compare_entries);
    src->prefix = strlen(path) + 1;
    int status = 0;
    for (int p = 0; p < pages && !status; p++) {
        size_t n = src->prefix + strlen(names[p]) + 1;
        if (!(src->files[p] = malloc(n)))
            status = fail(message, size, 1, "%s: out of memory", path);
        else
            snprintf(src->files[p], n, "%s/%s", path, names[p]), src->pages = p + 1;
    }
    free(names);
    if (status)
        return status;
    if (!pages)
        return fail(message, size, 2,
                    "%s: a zip that holds no images (PNG, JPEG, BMP, GIF, PNM, TIFF) and no EPUB "
                    "or XPS book",
                    path);
    if (pages > MESH_INK_MAX_SIDES)
        return fail(message, size, 2, "%s: %d pages, more than the %d a book may have", path, pages,
                    MESH_INK_MAX_SIDES);
    src->right_to_left = comic_right_to_left(src);
    return check_pages(src, message, size);
}

/* The book's table of contents through MuPDF's own outline (an EPUB's navigation or NCX, an
 * FB2's sections, an XPS's): depth first with a stack of our own, as read_outline. */
static void read_doc_outline(PagesDecoder *src)
{
    fz_context *fz = src->fz;
    fz_outline *root = NULL;
    struct {
        fz_outline *node;
        int depth;
    } stack[2 * PAGES_OUTLINE_DEPTH + 2];
    int top = 0;
    fz_var(root);
    fz_var(top);
    if (!(src->outline = calloc(PAGES_OUTLINE_MAX, sizeof *src->outline)))
        return;
    fz_try(fz)
    {
        root = fz_load_outline(fz, src->doc);
        if (root)
            stack[top].node = root, stack[top++].depth = 0;
        while (top > 0 && src->outline_count < PAGES_OUTLINE_MAX) {
            fz_outline *node = stack[--top].node;
            int depth = stack[top].depth;
            fz_location at = node->page;
            float x, y;
            /* an entry MuPDF has not resolved yet: its link followed */
            if ((at.chapter < 0 || at.page < 0) && node->uri && !fz_is_external_link(fz, node->uri))
                at = fz_resolve_link(fz, src->doc, node->uri, &x, &y);
            int page = at.chapter >= 0 && at.page >= 0
                           ? fz_page_number_from_location(fz, src->doc, at)
                           : -1;
            if (!title_entry(src, node->title, page, depth, &src->outline[src->outline_count]))
                break;
            src->outline_count++;
            if (node->next)
                stack[top].node = node->next, stack[top++].depth = depth;
            if (node->down && depth + 1 < PAGES_OUTLINE_DEPTH)
                stack[top].node = node->down, stack[top++].depth = depth + 1;
        }
    }
    fz_always(fz) fz_drop_outline(fz, root);
    fz_catch(fz) {}
}

/* What the document in `stm` is, by its content, into *format (a comic's zip kept as
 * src->archive): 0, or the status with the line where it is refused before MuPDF parses it (an
 * EPUB or XPS whose parts unpack to too much, an FB2 book too long). Throws as MuPDF does. */
static int sniff(PagesDecoder *src, fz_stream *stm, const char *path, Format *format, char *message,
                 size_t size)
{
    fz_context *fz = src->fz;
    unsigned char head[4096];
    /* from the file's start: a helper started again shares the descriptor's offset with the
     * helper before it, wherever that left it */
    fz_seek(fz, stm, 0, SEEK_SET);
    size_t n = fz_read(fz, stm, head, sizeof head);
    fz_seek(fz, stm, 0, SEEK_SET);
    char why[256] = "";
    int status = 0;
    *format = FORMAT_PDF; /* anything else: MuPDF's PDF reader finds a header, or repairs */
    if (n >= 4 && !memcmp(head, "PK\3\4", 4)) {
        fz_archive *arch = fz_open_zip_archive_with_stream(fz, stm);
        fz_var(status);
        fz_try(fz)
        {
            if (fz_has_archive_entry(fz, arch, "META-INF/container.xml"))
                *format = FORMAT_EPUB;
            else if (fz_has_archive_entry(fz, arch, "FixedDocSeq.fdseq") ||
                     fz_has_archive_entry(fz, arch, "FixedDocumentSequence.fdseq") ||
                     fz_has_archive_entry(fz, arch, "_rels/.rels"))
                *format = FORMAT_XPS;
            else
                *format = FORMAT_CBZ;
            if (*format != FORMAT_CBZ && !parts_bounded(fz, arch, why, sizeof why))
                status = fail(message, size, 1, "%s: refused: %s", path, why);
        }
        fz_catch(fz)
        {
            fz_drop_archive(fz, arch);
            fz_rethrow(fz);
        }
        if (*format == FORMAT_CBZ)
            src->archive = arch;
        else
            fz_drop_archive(fz, arch);
    } else if (fiction_book(head, n)) {
        *format = FORMAT_FB2;
        fz_seek(fz, stm, 0, SEEK_END);
        int64_t bytes = fz_tell(fz, stm);
        fz_seek(fz, stm, 0, SEEK_SET);
        if (bytes > FB2_BYTES)
            status = fail(message, size, 1, "%s: refused: an FB2 book of more than %u MiB", path,
                          FB2_BYTES >> 20);
        Nesting nest = {0};
        unsigned char chunk[1 << 16];
        size_t k;
        while (!status && nest.most <= NESTING_MAX &&
               (k = fz_read(fz, stm, chunk, sizeof chunk)) > 0)
            nesting_feed(&nest, chunk, k);
        fz_seek(fz, stm, 0, SEEK_SET);
        if (!status && nest.most > NESTING_MAX)
            status = fail(message, size, 1, "%s: refused: its elements nest more than %d deep",
                          path, NESTING_MAX);
    }
    return status;
}

/* A reflowable document laid out as the library asks, where what it asks is a book's (NaN is
 * not), else to the defaults. */
static void lay_out(PagesDecoder *src, const PagesTextLayout *layout)
{
    src->reflowable = fz_is_document_reflowable(src->fz, src->doc);
    if (!src->reflowable)
        return;
    float aspect =
        layout && layout->aspect >= PAGES_BOOK_ASPECT_MIN && layout->aspect <= PAGES_BOOK_ASPECT_MAX
            ? layout->aspect
            : PAGES_BOOK_PAGE_ASPECT;
    float em = layout && layout->font_size >= PAGES_BOOK_FONT_MIN &&
                       layout->font_size <= PAGES_BOOK_FONT_MAX
                   ? layout->font_size
                   : PAGES_BOOK_FONT_SIZE;
    fz_layout_document(src->fz, src->doc, PAGES_BOOK_PAGE_WIDTH, PAGES_BOOK_PAGE_WIDTH * aspect,
                       em);
}

/* What the library shows of the open document (`what` its format's name): its real page count,
 * page 1's size, its shape, labels, outline, direction and id. 0, or the status with the line.
 * Throws as MuPDF does. */
static int read_document(PagesDecoder *src, Format format, const char *path, char *message,
                         size_t size)
{
    fz_context *fz = src->fz;
    const char *what = FORMAT_NAME[format], *a = FORMAT_A[format];
    if (fz_needs_password(fz, src->doc))
        return fail(message, size, 1,
                    "%s: the %s is encrypted (password-protected); pagecurl opens no passwords",
                    path, what);
    char why[256] = "";
    src->pages = real_pages(fz, src->doc, why, sizeof why);
    pdf_document *pdf = pdf_specifics(fz, src->doc);
    /* MuPDF rebuilds a damaged file's cross-reference from its objects: a truncated download is
     * the common case, and "no pages" alone would not say it */
    src->repaired = pdf && pdf_was_repaired(fz, pdf);
    if (src->pages < 1 && src->repaired)
        return fail(message, size, 1, "%s: a damaged or truncated PDF: no page of it could be read",
                    path);
    if (src->pages < 1 && why[0]) /* its tree has pages, none of which loads */
        return fail(message, size, 1, "%s: %s %s whose pages cannot be read: %s", path, a, what,
                    why);
    if (src->pages < 1)
        return fail(message, size, 1, "%s: %s %s with no pages", path, a, what);
    if (src->pages > MESH_INK_MAX_SIDES)
        return fail(message, size, 2, "%s: %d pages, more than the %d a book may have", path,
                    src->pages, MESH_INK_MAX_SIDES);
    if (!(page_aspect(fz, src->doc, 0) > 0.0f))
        return fail(message, size, 1, "%s: page 1 has no size", path);
    src->aspect = pdf_shape(src);
    if (pdf) {
        read_labels(src);
        read_outline(src);
        src->right_to_left = reads_right_to_left(src);
    } else {
        read_doc_outline(src);
    }
    pdf_id(src, FORMAT_ID[format]);
    return 0;
}

/* The document read from `stm` (taken): what it is by its content; a reflowable one (EPUB, FB2)
 * laid out to `layout`'s page and type. */
static int open_pdf_stream(PagesDecoder *src, fz_stream *stm, const char *path,
                           const PagesTextLayout *layout, char *message, size_t size)
{
    fz_context *fz = src->fz;
    int status = 0;
    Format format = FORMAT_PDF;
    fz_var(status);
    fz_var(stm);
    fz_var(format);
    fz_try(fz)
    {
        fz_register_document_handlers(fz);
        status = sniff(src, stm, path, &format, message, size);
        if (!status && format == FORMAT_CBZ) {
            src->kind = SOURCE_IMAGES;
            status = open_comic(src, path, message, size);
        } else if (!status) {
            src->doc = fz_open_document_with_stream(fz, FORMAT_MAGIC[format], stm);
            lay_out(src, layout);
            status = read_document(src, format, path, message, size);
        }
    }
    fz_always(fz) fz_drop_stream(fz, stm);
    fz_catch(fz)
    {
        char reason[256];
        status =
            fail(message, size, 1, "%s: not %s %s pagecurl can read (%s)", path, FORMAT_A[format],
                 FORMAT_NAME[format], mupdf_reason(fz, reason, sizeof reason));
    }
    return status;
}

/* The id's page count (set_id's "kind-N-digest") made `pages`: a re-laid book is the same file. */
static void id_pages(PagesDecoder *src, int pages)
{
    char *digest = strrchr(src->id, '-'), *count = digest;
    while (count && count > src->id && count[-1] != '-')
        count--;
    if (!digest || !count || count == src->id)
        return;
    char tail[PAGES_BOOK_ID_MAX];
    snprintf(tail, sizeof tail, "%s", digest);
    snprintf(count, sizeof src->id - (size_t)(count - src->id), "%d%s", pages, tail);
}

/* The characters page `page` shows, spaces left out (a line's end drops or keeps one). */
static long page_glyphs(fz_context *fz, fz_document *doc, int page)
{
    fz_stext_page *text = fz_new_stext_page_from_page_number(fz, doc, page, NULL);
    long n = 0;
    for (fz_stext_block *b = text->first_block; b; b = b->next)
        for (fz_stext_line *l = b->type == FZ_STEXT_BLOCK_TEXT ? b->u.t.first_line : NULL; l;
             l = l->next)
            for (fz_stext_char *c = l->first_char; c; c = c->next)
                n += c->c > 32 && c->c != 0xa0;
    fz_drop_stext_page(fz, text);
    return n;
}

/* Page `p` of chapter `chapter`'s, as the book numbers it. */
static int chapter_page(fz_context *fz, fz_document *doc, int chapter, int p)
{
    return fz_page_number_from_location(fz, doc, fz_make_location(chapter, p));
}

/* Where page `page` begins in the text: its chapter, and the characters of that chapter before
 * it (page_glyphs'). MuPDF 1.21's bookmarks would do, but find no place inside a paragraph that
 * began on an earlier page, where a novel's pages mostly begin. */
static void text_place(fz_context *fz, fz_document *doc, int page, int *chapter, int *index,
                       long *before)
{
    fz_location at = fz_location_from_page_number(fz, doc, page);
    *chapter = at.chapter, *index = at.page, *before = 0;
    for (int p = 0; p < at.page; p++)
        *before += page_glyphs(fz, doc, chapter_page(fz, doc, at.chapter, p));
}

/* The page that holds that place now: -1 for none (no such chapter). A place with no text before
 * it in its chapter (a title page's, an empty page's) is the chapter's page of the same index
 * where no text lies before that either. */
static int text_page(fz_context *fz, fz_document *doc, int chapter, int index, long before)
{
    if (chapter < 0 || chapter >= fz_count_chapters(fz, doc))
        return -1;
    int pages = fz_count_chapter_pages(fz, doc, chapter);
    long seen = 0;
    for (int p = 0; p < pages; p++) {
        seen += page_glyphs(fz, doc, chapter_page(fz, doc, chapter, p));
        if (seen > before || (!before && p >= index) || p == pages - 1)
            return chapter_page(fz, doc, chapter, p);
    }
    return -1;
}

/* The place in the text at the top of each page of `pages` (text_place: its first character),
 * found again once the book is laid out to `layout`; where none is found, the page's share of
 * the book. */
static int relayout(PagesDecoder *src, const PagesTextLayout *layout, const int *pages, int *moved,
                    int count, char *message, size_t size)
{
    fz_context *fz = src->fz;
    int *chapters = calloc(count ? (size_t)count : 1u, 2 * sizeof *chapters);
    long *before = calloc(count ? (size_t)count : 1u, sizeof *before);
    if (!chapters || !before) {
        free(chapters);
        free(before);
        return fail(message, size, 1, "%s: out of memory", src->name);
    }
    int status = 0, had = src->pages;
    fz_var(status);
    fz_try(fz)
    {
        for (int i = 0; i < count; i++) {
            chapters[2 * i] = -1;
            if (pages[i] >= 0 && pages[i] < had)
                text_place(fz, src->doc, pages[i], &chapters[2 * i], &chapters[2 * i + 1],
                           &before[i]);
        }
        lay_out(src, layout);
        char why[256] = "";
        src->pages = real_pages(fz, src->doc, why, sizeof why);
        if (src->pages < 1)
            status = fail(message, size, 1, "%s: no page of it could be laid out%s%s", src->name,
                          why[0] ? ": " : "", why);
        else if (src->pages > MESH_INK_MAX_SIDES)
            status = fail(message, size, 2, "%s: %d pages, more than the %d a book may have",
                          src->name, src->pages, MESH_INK_MAX_SIDES);
        for (int i = 0; i < count && !status; i++) {
            int p = text_page(fz, src->doc, chapters[2 * i], chapters[2 * i + 1], before[i]);
            if (p < 0 || p >= src->pages) /* its share of the book */
                p = pages[i] < 0 ? -1 : (int)((int64_t)pages[i] * src->pages / had);
            moved[i] = p < src->pages ? p : src->pages - 1;
        }
        if (!status) {
            src->aspect = pdf_shape(src);
            for (int i = 0; i < src->outline_count; i++)
                free(src->outline[i].title);
            free(src->outline);
            src->outline = NULL, src->outline_count = 0;
            read_doc_outline(src);
            id_pages(src, src->pages);
        }
    }
    fz_catch(fz)
    {
        char reason[256];
        status = fail(message, size, 1, "%s: cannot be laid out again (%s)", src->name,
                      mupdf_reason(fz, reason, sizeof reason));
    }
    free(chapters);
    free(before);
    return status;
}

/* A stream of the file `fd` that keeps its own place and reads with pread: the book's drawing,
 * finding and links helpers are each handed the one descriptor the library opened (SCM_RIGHTS
 * passes the open file, and its offset, not a copy), and MuPDF's own file stream (fseeko, then
 * fread) in one helper moved the offset under another's reads: a search under load found page 5
 * of a six-page PDF "not found", and its matches there never. */
typedef struct PreadStream {
    int fd;
    unsigned char buffer[1 << 14];
} PreadStream;

static int pread_next(fz_context *fz, fz_stream *stm, size_t max)
{
    (void)max;
    PreadStream *s = stm->state;
    ssize_t n;
    do
        n = pread(s->fd, s->buffer, sizeof s->buffer, (off_t)stm->pos);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        fz_throw(fz, FZ_ERROR_GENERIC, "read error: %s", strerror(errno));
    stm->rp = s->buffer, stm->wp = s->buffer + n;
    stm->pos += n;
    return n ? *stm->rp++ : EOF;
}

static void pread_seek(fz_context *fz, fz_stream *stm, int64_t offset, int whence)
{
    PreadStream *s = stm->state;
    int64_t base = 0;
    struct stat st;
    if (whence == SEEK_CUR)
        base = stm->pos - (stm->wp - stm->rp); /* the place read to, not buffered to */
    else if (whence == SEEK_END)
        base = fstat(s->fd, &st) == 0 ? (int64_t)st.st_size : -1;
    if (base < 0 || base + offset < 0)
        fz_throw(fz, FZ_ERROR_GENERIC, "cannot seek");
    stm->pos = base + offset;
    stm->rp = stm->wp = s->buffer;
}

static void pread_drop(fz_context *fz, void *state)
{
    fz_free(fz, state);
}

static fz_stream *open_pread(fz_context *fz, int fd)
{
    PreadStream *s = fz_malloc_struct(fz, PreadStream);
    s->fd = fd;
    fz_stream *stm = fz_new_stream(fz, s, pread_next, pread_drop);
    stm->seek = pread_seek;
    return stm;
}

/* The document open as `fd` (taken), read by MuPDF through it: the library opened it (never a
 * FIFO or a device) and checked it is no empty file. */
static int open_pdf(PagesDecoder *src, int fd, const char *path, const PagesTextLayout *layout,
                    char *message, size_t size)
{
    src->pdf = fdopen(fd, "rb");
    if (!src->pdf) {
        close(fd);
        return fail(message, size, 1, "%s: %s", path, strerror(errno));
    }
    if (!new_context(src))
        return fail(message, size, 1, "%s: out of memory", path);
    fz_stream *stm = NULL;
    fz_var(stm);
    fz_try(src->fz) stm = open_pread(src->fz, fileno(src->pdf));
    fz_catch(src->fz) return fail(message, size, 1, "%s: out of memory", path);
    return open_pdf_stream(src, stm, path, layout, message, size);
}
#endif

int pages_decoder_open_pdf(int fd, const char *shown, const char *name,
                           const PagesTextLayout *layout, PagesDecoder **out, char *message,
                           size_t size)
{
    *out = NULL;
    PagesDecoder *src = calloc(1, sizeof *src);
    if (!src) {
        close(fd);
        return fail(message, size, 1, "%s: out of memory", shown);
    }
    src->kind = SOURCE_PDF;
    src->dir = -1;
    int status = 0;
    if (!(src->name = strdup(name))) {
        close(fd);
        status = fail(message, size, 1, "%s: out of memory", shown);
    } else {
#ifdef PAGECURL_HAVE_MUPDF
        status = open_pdf(src, fd, shown, layout, message, size);
#else
        close(fd);
        status = fail(message, size, 1,
                      "%s: this build reads no PDFs (built without MuPDF); give a folder of images",
                      shown);
#endif
    }
    if (status) {
        pages_decoder_close(src);
        return status;
    }
    *out = src;
    return 0;
}

int pages_decoder_relayout(PagesDecoder *src, const PagesTextLayout *layout, const int *pages,
                           int *moved, int count, char *message, size_t size)
{
#ifdef PAGECURL_HAVE_MUPDF
    if (src->reflowable && src->doc)
        return relayout(src, layout, pages, moved, count, message, size);
#else
    (void)layout, (void)pages, (void)moved, (void)count;
#endif
    return fail(message, size, 2,
                "%s: its pages are its own (a PDF, XPS, comic or folder of images): its text "
                "cannot be laid out again",
                src->name);
}

int pages_decoder_text_place(PagesDecoder *src, int page, int32_t place[3], char *message,
                             size_t size)
{
#ifdef PAGECURL_HAVE_MUPDF
    if (src->reflowable && src->doc && page >= 0 && page < src->pages) {
        fz_context *fz = src->fz;
        int status = 0, chapter = -1, index = 0;
        long before = 0;
        fz_var(status);
        fz_try(fz) text_place(fz, src->doc, page, &chapter, &index, &before);
        fz_catch(fz)
        {
            char reason[256];
            status = fail(message, size, 1, "%s: page %d: %s", src->name, page + 1,
                          mupdf_reason(fz, reason, sizeof reason));
        }
        place[0] = chapter, place[1] = index;
        place[2] = before < INT32_MAX ? (int32_t)before : INT32_MAX;
        return status;
    }
#else
    (void)place;
#endif
    return fail(message, size, 2, "%s: page %d: no place in a text laid out%s", src->name, page + 1,
                page >= 0 && page < src->pages ? " (its pages are its own)" : "");
}

int pages_decoder_text_place_page(PagesDecoder *src, const int32_t place[3])
{
#ifdef PAGECURL_HAVE_MUPDF
    if (!src->reflowable || !src->doc || place[1] < 0 || place[2] < 0)
        return -1;
    fz_context *fz = src->fz;
    int page = -1;
    fz_var(page);
    fz_try(fz) page = text_page(fz, src->doc, place[0], place[1], place[2]);
    fz_catch(fz) page = -1;
    return page >= 0 && page < src->pages ? page : -1;
#else
    (void)src, (void)place;
    return -1;
#endif
}

int pages_decoder_open_memory(const uint8_t *bytes, size_t n, bool pdf, PagesDecoder **out,
                              char *message, size_t size)
{
    *out = NULL;
    PagesDecoder *src = calloc(1, sizeof *src);
    if (!src)
        return fail(message, size, 1, "out of memory");
    src->dir = -1;
    src->name = strdup("(memory)");
    src->memory = malloc(n ? n : 1);
    int status = 0;
    if (!src->name || !src->memory)
        status = fail(message, size, 1, "out of memory");
    else {
        memcpy(src->memory, bytes, n);
        src->memory_size = n;
    }
#ifdef PAGECURL_HAVE_MUPDF
    if (!status && !new_context(src))
        status = fail(message, size, 1, "out of memory");
#endif
    if (!status && pdf) {
        src->kind = SOURCE_PDF;
#ifdef PAGECURL_HAVE_MUPDF
        fz_stream *stm = NULL;
        fz_var(stm);
        fz_try(src->fz) stm = fz_open_memory(src->fz, src->memory, src->memory_size);
        fz_catch(src->fz) stm = NULL;
        status = stm ? open_pdf_stream(src, stm, src->name, NULL, message, size)
                     : fail(message, size, 1, "out of memory");
#else
        status = fail(message, size, 1, "this build reads no PDFs (built without MuPDF)");
#endif
    } else if (!status) {
        src->kind = SOURCE_IMAGES;
        src->pages = 1;
        status = check_pages(src, message, size);
    }
    if (status) {
        pages_decoder_close(src);
        return status;
    }
    *out = src;
    return 0;
}

void pages_decoder_close(PagesDecoder *src)
{
    if (!src)
        return;
    if (src->files)
        for (int p = 0; p < src->pages; p++)
            free(src->files[p]);
    free(src->files);
    if (src->dir >= 0)
        close(src->dir);
    page_labels_free(&src->labels);
    for (int i = 0; i < src->outline_count; i++)
        free(src->outline[i].title);
    free(src->outline);
#ifdef PAGECURL_HAVE_MUPDF
    if (src->fz) {
        fz_drop_archive(src->fz, src->archive);
        fz_drop_document(src->fz, src->doc);
        fz_drop_context(src->fz);
    }
    budget_release(&src->budget);
    if (src->pdf)
        fclose(src->pdf);
#endif
    free(src->memory);
    free(src->name);
    free(src);
}

int pages_decoder_pages(const PagesDecoder *src)
{
    return src->pages;
}

float pages_decoder_aspect(const PagesDecoder *src)
{
    return src->aspect;
}

int pages_decoder_outline_count(const PagesDecoder *src)
{
    return src->outline_count;
}

const PagesOutlineEntry *pages_decoder_outline(const PagesDecoder *src, int i)
{
    return i >= 0 && i < src->outline_count ? &src->outline[i] : NULL;
}

const PageLabels *pages_decoder_labels(const PagesDecoder *src)
{
    return &src->labels;
}

const char *pages_decoder_id(const PagesDecoder *src)
{
    return src->id;
}

bool pages_decoder_repaired(const PagesDecoder *src)
{
    return src->repaired;
}

bool pages_decoder_right_to_left(const PagesDecoder *src)
{
    return src->right_to_left;
}

bool pages_decoder_reflowable(const PagesDecoder *src)
{
    return src->reflowable;
}

/* Where a page of aspect `aspect` lies in a width x height layer (pages/page_common.h: a
 * provider's pages in the library are fitted alike). */
static void fit(float aspect, uint32_t width, uint32_t height, uint32_t *x, uint32_t *y,
                uint32_t *w, uint32_t *h)
{
    pages_book_fit(aspect, width, height, x, y, w, h);
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
                        sum[c] += (s[c] * s[3] + PAGES_PAPER[c] * (255u - s[3])) / 255u;
                    n++;
                }
            uint8_t *d = &rgba[4 * ((size_t)(y + j) * width + x + i)];
            for (int c = 0; c < 3; c++)
                d[c] = (uint8_t)((sum[c] + n / 2) / n);
            d[3] = 255;
        }
    }
}

/* The image page's bytes, read afresh (the file may have changed since its header was checked
 * at open), and its header's size; NULL with `why` when it cannot be read or is no image. */
static uint8_t *image_page(PagesDecoder *src, int page, size_t *n, int *hw, int *hh, char *why,
                           size_t size)
{
    bool whole;
    uint8_t *bytes = page_bytes(src, page, SIZE_MAX, n, &whole, why, size);
    if (bytes && image_size(src, bytes, *n, hw, hh, why, size) != 0) {
        free(bytes);
        return NULL;
    }
    if (bytes && too_large(*hw, *hh)) { /* (a page past the open's checks) */
        snprintf(why, size, "%dx%d pixels, larger than a page may be", *hw, *hh);
        free(bytes);
        return NULL;
    }
    return bytes;
}

static bool undecoded(const PagesDecoder *src, int page, const char *why, char *message,
                      size_t size)
{
    const char *file = src->files ? src->files[page] : src->name;
    fail(message, size, 1, "%s (page %d): cannot be decoded (%s)", file, page + 1, why);
    return false;
}

static bool draw_image(PagesDecoder *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                       char *message, size_t size)
{
    char why[256];
    size_t n;
    int hw, hh, iw = 0, ih = 0;
    uint8_t *bytes = image_page(src, page, &n, &hw, &hh, why, sizeof why);
    /* the layer's size is the most the page needs: where the image is larger it decodes at a
     * fraction of its size */
    uint8_t *img =
        bytes ? image_decode(src, bytes, n, width, height, &iw, &ih, why, sizeof why) : NULL;
    free(bytes);
    if (!img)
        return undecoded(src, page, why, message, size);
    uint32_t x, y, w, h;
    fit((float)ih / (float)iw, width, height, &x, &y, &w, &h);
    src->drawn[0] = (float)w / (float)width, src->drawn[1] = (float)h / (float)height;
    place_image(img, iw, ih, rgba, width, x, y, w, h);
    image_free(img);
    return true;
}

#ifdef PAGECURL_HAVE_MUPDF
static bool region_pdf(PagesDecoder *src, int page, const PageRegion *r, bool whole, uint8_t *rgba,
                       char *message, size_t size);

/* The whole page: its region as large as the layer, fitted on whole texels. */
static bool draw_pdf(PagesDecoder *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                     char *message, size_t size)
{
    PageRegion all = {(float)width, (float)height, 0.0f, 0.0f, width, height};
    return region_pdf(src, page, &all, true, rgba, message, size);
}
#endif

static bool region_image(PagesDecoder *src, int page, const PageRegion *r, uint8_t *rgba,
                         char *message, size_t size);

bool pages_decoder_draw(PagesDecoder *src, int page, uint32_t width, uint32_t height, uint8_t *rgba,
                        char *message, size_t size)
{
    pages_book_placeholder(width, height, false, rgba);
    src->drawn[0] = src->drawn[1] = 1.0f; /* a placeholder is the leaf's shape */
    if (page < 0 || page >= src->pages)
        return fail(message, size, 1, "page %d: not in the book", page + 1) == 0;
    bool ok;
    if (src->kind == SOURCE_IMAGES)
        ok = draw_image(src, page, width, height, rgba, message, size);
    else
#ifdef PAGECURL_HAVE_MUPDF
        ok = draw_pdf(src, page, width, height, rgba, message, size);
#else
        ok = fail(message, size, 1, "page %d: this build reads no PDFs", page + 1) == 0;
#endif
    if (!ok) /* shown as a placeholder */
        src->drawn[0] = src->drawn[1] = 1.0f;
    return ok;
}

void pages_decoder_drawn_print(const PagesDecoder *src, float print[2])
{
    print[0] = src->drawn[0], print[1] = src->drawn[1];
}

/* fit()'s box unrounded, for a layer of any size (a region's, which may lie at a fraction of a
 * texel). */
static void fit_exact(float aspect, float width, float height, float box[4])
{
    float leaf = height / width;
    if (fabsf(aspect / leaf - 1.0f) < 0.01f) {
        box[0] = box[1] = 0.0f, box[2] = width, box[3] = height;
        return;
    }
    float margin = 0.04f * width;
    float bw = width - 2.0f * margin, bh = height - 2.0f * margin;
    float fw = bw, fh = bw * aspect;
    if (fh > bh)
        fh = bh, fw = bh / aspect;
    box[0] = 0.5f * (width - fw), box[1] = 0.5f * (height - fh), box[2] = fw, box[3] = fh;
}

/* Page `page` loaded into *pg (the caller's, dropped in its fz_always), its box returned, and
 * where that box lies on its leaf, as fractions of the leaf's width and height (x0, y0, x1, y1),
 * against which FIND, LINKS and TEXT give their rectangles. Throws for a page with no size. */
static fz_rect load_placed(fz_context *fz, const PagesDecoder *src, int page, fz_page **pg,
                           float place[4])
{
    *pg = fz_load_page(fz, src->doc, page);
    fz_rect box = fz_bound_page(fz, *pg);
    float w = box.x1 - box.x0, h = box.y1 - box.y0;
    if (!(w > 0.0f && h > 0.0f))
        fz_throw(fz, FZ_ERROR_GENERIC, "the page has no size");
    fit_exact(h / w, 1.0f, src->aspect, place);
    place[1] /= src->aspect, place[3] /= src->aspect;
    return box;
}

/* The region's texels that the box (x, y, w, h in the layer's texels) touches: [i0, i1) x
 * [j0, j1); false for none. */
typedef struct Touched {
    int i0, j0, i1, j1;
} Touched;
static bool touched(const PageRegion *r, const float box[4], Touched *out)
{
    float i0 = floorf(box[0] - r->x), j0 = floorf(box[1] - r->y);
    float i1 = ceilf(box[0] + box[2] - r->x), j1 = ceilf(box[1] + box[3] - r->y);
    out->i0 = i0 < 0.0f ? 0 : (int)i0, out->j0 = j0 < 0.0f ? 0 : (int)j0;
    out->i1 = i1 > (float)r->width ? (int)r->width : (int)i1;
    out->j1 = j1 > (float)r->height ? (int)r->height : (int)j1;
    return out->i1 > out->i0 && out->j1 > out->j0;
}

/* The image (iw x ih RGBA, over paper where transparent) at image point (sx, sy), a texel
 * spanning `foot` image pixels: their mean where it spans more than one (a box filter), else
 * bilinear between the nearest four, as the GPU magnifies a layer. */
static void sample_image(const uint8_t *img, int iw, int ih, float sx, float sy, float foot,
                         uint8_t out[4])
{
    float sum[3] = {0.0f, 0.0f, 0.0f}, n = 0.0f;
    if (foot > 1.0f) {
        int x0 = (int)floorf(sx - 0.5f * foot), x1 = (int)ceilf(sx + 0.5f * foot);
        int y0 = (int)floorf(sy - 0.5f * foot), y1 = (int)ceilf(sy + 0.5f * foot);
        x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > iw ? iw : x1, y1 = y1 > ih ? ih : y1;
        for (int y = y0; y < y1; y++)
            for (int x = x0; x < x1; x++) {
                const uint8_t *p = &img[4 * ((size_t)y * iw + x)];
                for (int c = 0; c < 3; c++)
                    sum[c] += (float)((p[c] * p[3] + PAGES_PAPER[c] * (255u - p[3])) / 255u);
                n += 1.0f;
            }
    }
    if (n == 0.0f) {
        float fx = fminf(fmaxf(sx - 0.5f, 0.0f), (float)(iw - 1));
        float fy = fminf(fmaxf(sy - 0.5f, 0.0f), (float)(ih - 1));
        int x0 = (int)fx, y0 = (int)fy;
        int x1 = x0 + 1 < iw ? x0 + 1 : x0, y1 = y0 + 1 < ih ? y0 + 1 : y0;
        float tx = fx - (float)x0, ty = fy - (float)y0;
        const int at[4][2] = {{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
        const float wt[4] = {(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty};
        for (int k = 0; k < 4; k++) {
            const uint8_t *p = &img[4 * ((size_t)at[k][1] * iw + at[k][0])];
            for (int c = 0; c < 3; c++)
                sum[c] += wt[k] * (float)((p[c] * p[3] + PAGES_PAPER[c] * (255u - p[3])) / 255u);
        }
        n = 1.0f;
    }
    for (int c = 0; c < 3; c++)
        out[c] = (uint8_t)lrintf(sum[c] / n);
    out[3] = 255;
}

static bool region_image(PagesDecoder *src, int page, const PageRegion *r, uint8_t *rgba,
                         char *message, size_t size)
{
    char why[256];
    size_t n;
    int hw = 0, hh = 0, iw = 0, ih = 0;
    uint8_t *bytes = image_page(src, page, &n, &hw, &hh, why, sizeof why);
    bool sized = bytes != NULL;
    float box[4];
    Touched t;
    if (sized) {
        fit_exact((float)hh / (float)hw, r->full_width, r->full_height, box);
        if (!touched(r, box, &t)) { /* only the margin's paper */
            free(bytes);
            return true;
        }
    }
    /* decoded at most at the box's size, as a whole page is */
    uint8_t *img = sized ? image_decode(src, bytes, n, (uint32_t)ceilf(box[2]),
                                        (uint32_t)ceilf(box[3]), &iw, &ih, why, sizeof why)
                         : NULL;
    free(bytes);
    if (!img)
        return undecoded(src, page, why, message, size);
    /* the image's own shape may differ from its header's by a pixel once reduced */
    fit_exact((float)ih / (float)iw, r->full_width, r->full_height, box);
    float per = (float)iw / box[2]; /* image pixels a texel */
    if (touched(r, box, &t))
        for (int j = t.j0; j < t.j1; j++)
            for (int i = t.i0; i < t.i1; i++) {
                float sx = (r->x + (float)i + 0.5f - box[0]) * per;
                float sy = (r->y + (float)j + 0.5f - box[1]) * ((float)ih / box[3]);
                if (sx >= 0.0f && sy >= 0.0f && sx < (float)iw && sy < (float)ih)
                    sample_image(img, iw, ih, sx, sy, per,
                                 &rgba[4 * ((size_t)j * r->width + (size_t)i)]);
            }
    image_free(img);
    return true;
}

#ifdef PAGECURL_HAVE_MUPDF
/* Region `r` of the page; `whole`: the page's box in the layer on whole texels, as fit() puts
 * it (the layer of a whole page), else unrounded. */
static bool region_pdf(PagesDecoder *src, int page, const PageRegion *r, bool whole, uint8_t *rgba,
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
        fz_rect bound = fz_bound_page(fz, pg);
        float bw = bound.x1 - bound.x0, bh = bound.y1 - bound.y0;
        if (!(bw > 0.0f && bh > 0.0f))
            fz_throw(fz, FZ_ERROR_GENERIC, "the page has no size");
        float box[4];
        fit_exact(bh / bw, r->full_width, r->full_height, box);
        if (whole) {
            uint32_t x, y, w, h;
            fit(bh / bw, (uint32_t)r->full_width, (uint32_t)r->full_height, &x, &y, &w, &h);
            box[0] = (float)x, box[1] = (float)y, box[2] = (float)w, box[3] = (float)h;
            src->drawn[0] = box[2] / r->full_width, src->drawn[1] = box[3] / r->full_height;
        }
        Touched t;
        if (touched(r, box, &t)) {
            /* the region's texels only, of the page drawn into the box: MuPDF clips to them */
            fz_irect clip = {t.i0, t.j0, t.i1, t.j1};
            pix = fz_new_pixmap_with_bbox(fz, fz_device_rgb(fz), clip, NULL, 0);
            fz_clear_pixmap_with_value(fz, pix, 255);
            fz_matrix m = fz_concat(
                fz_concat(fz_translate(-bound.x0, -bound.y0), fz_scale(box[2] / bw, box[3] / bh)),
                fz_translate(box[0] - r->x, box[1] - r->y));
            dev = fz_new_draw_device(fz, fz_identity, pix);
            fz_run_page(fz, pg, dev, m, &src->cookie);
            fz_close_device(fz, dev);
            if (src->cookie.abort)
                fz_throw(fz, FZ_ERROR_GENERIC, "stopped");
            const uint8_t *s = fz_pixmap_samples(fz, pix);
            ptrdiff_t stride = fz_pixmap_stride(fz, pix);
            for (int j = 0; j < t.j1 - t.j0; j++)
                for (int i = 0; i < t.i1 - t.i0; i++) {
                    uint8_t *d = &rgba[4 * ((size_t)(t.j0 + j) * r->width + (size_t)(t.i0 + i))];
                    memcpy(d, &s[j * stride + 3 * i], 3);
                    d[3] = 255;
                }
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
        char reason[256];
        fail(message, size, 1, "%s, page %d: cannot be drawn (%s)", src->name, page + 1,
             mupdf_reason(fz, reason, sizeof reason));
        ok = false;
    }
    return ok;
}
#endif

bool pages_decoder_draw_region(PagesDecoder *src, int page, const PageRegion *region, uint8_t *rgba,
                               char *message, size_t size)
{
    pages_book_placeholder(region->width, region->height, false, rgba);
    if (!(region->full_width >= 1.0f && region->full_height >= 1.0f &&
          region->full_width <= 65536.0f && region->full_height <= 65536.0f) ||
        !isfinite(region->x) || !isfinite(region->y))
        return fail(message, size, 1, "page %d: no region of a page", page + 1) == 0;
    if (page < 0 || page >= src->pages)
        return fail(message, size, 1, "page %d: not in the book", page + 1) == 0;
    if (src->kind == SOURCE_IMAGES)
        return region_image(src, page, region, rgba, message, size);
#ifdef PAGECURL_HAVE_MUPDF
    return region_pdf(src, page, region, false, rgba, message, size);
#else
    return fail(message, size, 1, "page %d: this build reads no PDFs", page + 1) == 0;
#endif
}

#ifdef PAGECURL_HAVE_MUPDF
/* A page's text as the search reads it: each character case-folded, with its box and its line;
 * a run of white space (a line's end too) one space with no box, and a hyphen that ends a line
 * dropped, so that the word it breaks reads whole. */
typedef struct FoldedChar {
    int c;
    fz_rect box;
    int line; /* -1: a space put between words */
} FoldedChar;

static bool is_space(int c)
{
    return c == ' ' || c == '\t' || c == 0xa0 || c == '\n' || c == '\r' ||
           (c >= 0x2000 && c <= 0x200b);
}

static bool is_hyphen(int c)
{
    return c == '-' || c == 0xad || c == 0x2010 || c == 0x2011;
}

/* Appends c (a space unless `box`) to `out` (grown in fz's memory). */
static void fold_push(fz_context *fz, FoldedChar **out, int *n, int *cap, int c, const fz_rect *box,
                      int line)
{
    bool space = !box || is_space(c);
    if (space && (*n == 0 || (*out)[*n - 1].line < 0))
        return; /* spaces: one, and none first */
    if (*n == *cap) {
        int grown = *cap ? 2 * *cap : 256;
        *out = fz_realloc_array(fz, *out, grown, FoldedChar);
        *cap = grown;
    }
    (*out)[(*n)++] =
        space ? (FoldedChar){' ', fz_empty_rect, -1} : (FoldedChar){fz_tolower(c), *box, line};
}

static FoldedChar *fold_page(fz_context *fz, fz_stext_page *text, int *count)
{
    FoldedChar *out = NULL;
    int n = 0, cap = 0, line = 0;
    fz_var(out);
    fz_var(line);
    fz_try(fz)
    {
        /* MuPDF sets lines far apart as blocks of their own: a hyphen ends a line wherever
         * another line of text follows, in its block or the next */
        for (fz_stext_block *b = text->first_block; b; b = b->next) {
            if (b->type != FZ_STEXT_BLOCK_TEXT)
                continue;
            for (fz_stext_line *l = b->u.t.first_line; l; l = l->next, line++) {
                bool more = l->next != NULL;
                for (fz_stext_block *after = b->next; !more && after; after = after->next)
                    more = after->type == FZ_STEXT_BLOCK_TEXT && after->u.t.first_line;
                bool joined = more && l->last_char && is_hyphen(l->last_char->c);
                for (fz_stext_char *ch = l->first_char; ch; ch = ch->next) {
                    if (joined && !ch->next)
                        break;
                    fz_rect box = fz_rect_from_quad(ch->quad);
                    fold_push(fz, &out, &n, &cap, ch->c, &box, line);
                }
                if (!joined)
                    fold_push(fz, &out, &n, &cap, ' ', NULL, -1);
            }
        }
    }
    fz_catch(fz)
    {
        fz_free(fz, out);
        fz_rethrow(fz);
    }
    *count = n;
    return out;
}

/* The query folded as the page is: letters in lower case, white space runs one space, none at
 * either end. Its characters' count (at most max). */
static int fold_query(const char *query, int *out, int max)
{
    int n = 0;
    while (*query && n < max) {
        int c;
        query += fz_chartorune(&c, query);
        if (is_space(c)) {
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
        } else {
            out[n++] = fz_tolower(c);
        }
    }
    while (n && out[n - 1] == ' ')
        n--;
    return n;
}
#endif

/* The start of a question about page `page`'s contents (its matches, links or text): `place`
 * is the whole leaf until the page is loaded. -1 with the line in message where the page is not
 * in the book, 0 where there is nothing to answer (a book of images has no contents to read;
 * nothing `asked`), 1 to go on. */
static int ask_page(const PagesDecoder *src, int page, bool asked, float place[4], char *message,
                    size_t size)
{
    place[0] = place[1] = 0.0f, place[2] = place[3] = 1.0f;
    if (page < 0 || page >= src->pages)
        return -fail(message, size, 1, "page %d: not in the book", page + 1);
    return src->kind != SOURCE_IMAGES && asked;
}

#ifdef PAGECURL_HAVE_MUPDF
/* `r` (page space) in the unit square of `box`, the page's placed box. */
static PagesFindRect in_box(fz_rect r, fz_rect box)
{
    float w = box.x1 - box.x0, h = box.y1 - box.y0;
    return (PagesFindRect){(r.x0 - box.x0) / w, (r.y0 - box.y0) / h, (r.x1 - box.x0) / w,
                           (r.y1 - box.y0) / h};
}
#endif

int pages_decoder_find(PagesDecoder *src, int page, const char *query, PagesFindRect *rects,
                       bool *first, int max, float place[4], char *message, size_t size)
{
    int go = ask_page(src, page, query[0] && max > 0, place, message, size);
    if (go <= 0)
        return go;
#ifdef PAGECURL_HAVE_MUPDF
    fz_context *fz = src->fz;
    fz_page *pg = NULL;
    fz_stext_page *text = NULL;
    FoldedChar *chars = NULL;
    int found = -1;
    fz_var(pg);
    fz_var(text);
    fz_var(chars);
    fz_var(found);
    fz_try(fz)
    {
        fz_rect box = load_placed(fz, src, page, &pg, place);
        fz_stext_options opts = {0};
        text = fz_new_stext_page_from_page(fz, pg, &opts);
        int needle[PAGES_FIND_MAX_QUERY], length = fold_query(query, needle, PAGES_FIND_MAX_QUERY);
        int count = 0, n = 0;
        chars = fold_page(fz, text, &count);
        for (int at = 0; length && at + length <= count && n < max; at++) {
            int k = 0;
            while (k < length && chars[at + k].c == needle[k])
                k++;
            if (k < length)
                continue;
            /* one rectangle a line the match crosses */
            int line = -1;
            for (k = 0; k < length; k++) {
                const FoldedChar *c = &chars[at + k];
                if (c->line < 0)
                    continue;
                if (c->line != line) {
                    if (n == max)
                        break;
                    first[n] = line < 0;
                    line = c->line;
                    rects[n++] = (PagesFindRect){c->box.x0, c->box.y0, c->box.x1, c->box.y1};
                } else {
                    PagesFindRect *r = &rects[n - 1];
                    r->x0 = fminf(r->x0, c->box.x0), r->y0 = fminf(r->y0, c->box.y0);
                    r->x1 = fmaxf(r->x1, c->box.x1), r->y1 = fmaxf(r->y1, c->box.y1);
                }
            }
            at += length - 1; /* matches do not overlap */
        }
        for (int i = 0; i < n; i++) {
            PagesFindRect *r = &rects[i];
            rects[i] = in_box((fz_rect){r->x0, r->y0, r->x1, r->y1}, box);
        }
        found = n;
    }
    fz_always(fz)
    {
        fz_drop_stext_page(fz, text);
        fz_drop_page(fz, pg);
        fz_free(fz, chars);
    }
    fz_catch(fz)
    {
        char why[256];
        found = -fail(message, size, 1, "%s, page %d: its text cannot be read (%s)", src->name,
                      page + 1, mupdf_reason(fz, why, sizeof why));
    }
    return found;
#else
    (void)rects, (void)first;
    return -fail(message, size, 1, "page %d: this build reads no PDFs", page + 1);
#endif
}

#ifdef PAGECURL_HAVE_MUPDF
/* The page (0-based) an internal link's `uri` leads to; -1 where it leads nowhere in the book (a
 * destination the document cannot resolve leads nowhere, not the page away). A function of its
 * own: its fz_try's setjmp would clobber the caller's loop over the links (-Wclobbered). */
static int link_target(PagesDecoder *src, const char *uri)
{
    int target = -1;
    fz_var(target);
    fz_try(src->fz)
    {
        fz_location at = fz_resolve_link(src->fz, src->doc, uri, NULL, NULL);
        target = fz_page_number_from_location(src->fz, src->doc, at);
    }
    fz_catch(src->fz)
    {
        target = -1;
    }
    return target >= 0 && target < src->pages ? target : -1;
}
#endif

int pages_decoder_links(PagesDecoder *src, int page, PagesLink *links, int max, float place[4],
                        char *message, size_t size)
{
    int go = ask_page(src, page, max > 0, place, message, size);
    if (go <= 0)
        return go;
#ifdef PAGECURL_HAVE_MUPDF
    fz_context *fz = src->fz;
    fz_page *pg = NULL;
    fz_link *first = NULL;
    int n = 0, found = -1;
    fz_var(pg);
    fz_var(first);
    fz_var(n);
    fz_var(found);
    fz_try(fz)
    {
        fz_rect box = load_placed(fz, src, page, &pg, place);
        first = fz_load_links(fz, pg);
        for (fz_link *l = first; l && n < max; l = l->next) {
            const char *uri = l->uri ? l->uri : "";
            fz_rect r = l->rect;
            if (fz_is_empty_rect(r) || !isfinite(r.x0) || !isfinite(r.y0) || !isfinite(r.x1) ||
                !isfinite(r.y1))
                continue; /* nothing to click */
            PagesLink *out = &links[n];
            PagesFindRect at = in_box(r, box);
            *out = (PagesLink){at.x0, at.y0, at.x1, at.y1, -1, ""};
            if (fz_is_external_link(fz, uri)) {
                if (strlen(uri) > PAGES_LINK_URI_MAX)
                    continue; /* an address cut short would lead elsewhere */
                snprintf(out->uri, sizeof out->uri, "%s", uri);
            } else if (uri[0]) {
                out->target = link_target(src, uri);
            }
            n++;
        }
        found = n;
    }
    fz_always(fz)
    {
        fz_drop_link(fz, first);
        fz_drop_page(fz, pg);
    }
    fz_catch(fz)
    {
        char why[256];
        found = -fail(message, size, 1, "%s, page %d: its links cannot be read (%s)", src->name,
                      page + 1, mupdf_reason(fz, why, sizeof why));
    }
    return found;
#else
    (void)links;
    return -fail(message, size, 1, "page %d: this build reads no PDFs", page + 1);
#endif
}

int pages_decoder_text(PagesDecoder *src, int page, PagesTextChar *out, int max, float place[4],
                       char *message, size_t size)
{
    int go = ask_page(src, page, max > 0, place, message, size);
    if (go <= 0)
        return go;
#ifdef PAGECURL_HAVE_MUPDF
    fz_context *fz = src->fz;
    fz_page *pg = NULL;
    fz_stext_page *text = NULL;
    int n = -1;
    fz_var(pg);
    fz_var(text);
    fz_var(n);
    fz_try(fz)
    {
        fz_rect box = load_placed(fz, src, page, &pg, place);
        fz_stext_options opts = {0};
        text = fz_new_stext_page_from_page(fz, pg, &opts);
        n = 0;
        for (fz_stext_block *b = text->first_block; b && n < max; b = b->next) {
            if (b->type != FZ_STEXT_BLOCK_TEXT)
                continue;
            for (fz_stext_line *l = b->u.t.first_line; l && n < max; l = l->next) {
                if (n && out[n - 1].c != '\n') { /* the line before ends */
                    PagesFindRect e = out[n - 1].box;
                    out[n++] = (PagesTextChar){'\n', {e.x1, e.y0, e.x1, e.y1}};
                }
                for (fz_stext_char *ch = l->first_char; ch && n < max; ch = ch->next) {
                    fz_rect r = fz_rect_from_quad(ch->quad);
                    out[n++] = (PagesTextChar){(uint32_t)ch->c, in_box(r, box)};
                }
            }
        }
    }
    fz_always(fz)
    {
        fz_drop_stext_page(fz, text);
        fz_drop_page(fz, pg);
    }
    fz_catch(fz)
    {
        char why[256];
        n = -fail(message, size, 1, "%s, page %d: its text cannot be read (%s)", src->name,
                  page + 1, mupdf_reason(fz, why, sizeof why));
    }
    return n;
#else
    (void)out;
    return -fail(message, size, 1, "page %d: this build reads no PDFs", page + 1);
#endif
}
