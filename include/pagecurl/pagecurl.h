/* SPDX-License-Identifier: MIT */
/* libpagecurl: a book whose pages turn as curled paper, for a program that draws with Vulkan.
 *
 * The host owns the device, the loop and the window; the library owns the book. A frame:
 *
 *     pagecurl_book_pointer(book, &event);            as input arrives (or pagecurl_book_action)
 *     pagecurl_book_update(book, now, &target, &err); once a frame, outside any command buffer
 *     pagecurl_book_record(book, cmd, slot, &target, &err); into the host's command buffer
 *     pagecurl_book_draw(book, cmd, slot, &target, &err);   in the host's pass (target.in_pass)
 *     while (pagecurl_book_poll_event(book, &ev)) ... what happened: turns, pages, errors
 *
 * pagecurl_book_update advances the book to the host's clock, takes in the pages drawn since the
 * last frame and readies what the target's size needs; it may create images and submit uploads
 * on the context's queue and wait for them. pagecurl_book_record only records: it never waits,
 * allocates or submits.
 *
 * C99, compiles as C++. Every description struct starts with its size (set it to sizeof the
 * struct: a later version of the library reads only what the host's version had) and zero means
 * the default in every other field. Functions that can fail return false (or NULL) and, where they
 * take one, fill a pagecurl_error with one line saying why; nothing is printed but the validation
 * layer's messages, where the host asked for it (pagecurl_context_desc.validation). Handles are
 * opaque. A NULL handle, or a NULL where a function writes its answer, does nothing: the function
 * returns false, 0, -1 (a page or entry not found) or NULL, with an error where it takes one.
 * Times are the host's clock in seconds, finite (a NaN or an infinity is refused). Any number of
 * contexts live in a process, each with its own Vulkan functions (the library has no state of the
 * process's), each used from a thread of its own at the same time as the others; a context and
 * the books made on it belong to one thread at a time. Contexts given one VkQueue share it as
 * Vulkan says: the calls that submit to it (pagecurl_book_create, _update, _render, _destroy) are
 * made for them one at a time, under the lock the host takes around its own submissions.
 *
 * Page numbers are 1-based, as a reader counts them. A leaf is one sheet: its front is an odd page,
 * its back the next even one. A spread is what lies open: spread s shows page 2s on the left and
 * page 2s + 1 on the right (spread 0: the first page alone, on the right). */
#ifndef PAGECURL_PAGECURL_H
#define PAGECURL_PAGECURL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#if defined(PAGECURL_BUILD) && defined(__GNUC__)
#define PAGECURL_API __attribute__((visibility("default")))
#else
#define PAGECURL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The interface's version: PAGECURL_VERSION_MAJOR changes when a program built against an older
 * header would break. */
#define PAGECURL_VERSION_MAJOR 0
#define PAGECURL_VERSION_MINOR 1
#define PAGECURL_VERSION_PATCH 0

/* The library's version as "MAJOR.MINOR.PATCH" (the one the program was linked with). */
PAGECURL_API const char *pagecurl_version(void);

typedef enum pagecurl_status {
    PAGECURL_OK = 0,
    /* a bad argument, a description out of range, a path that names no book
     * (missing, neither a folder nor a PDF, a folder without images) */
    PAGECURL_ERROR_USAGE,
    /* the environment failed: a book that cannot be read (a damaged or encrypted PDF, a page that
     * is no image, a FIFO), a driver error */
    PAGECURL_ERROR_RUNTIME,
    PAGECURL_ERROR_OUT_OF_MEMORY, /* host or device memory */
    PAGECURL_ERROR_DEVICE_LOST,   /* the context can only be destroyed */
} pagecurl_status;

typedef struct pagecurl_error {
    pagecurl_status status;
    char message[512]; /* one line, no newline; "" with PAGECURL_OK */
} pagecurl_error;

/* ---------------------------------------------------------------------------------------------
 * Context: the device the books draw with. */

typedef struct pagecurl_context pagecurl_context;

typedef struct pagecurl_context_desc {
    uint32_t size; /* sizeof(pagecurl_context_desc) */
    /* The host's device. All of instance, physical_device, device and queue given: the library
     * draws with them and never destroys them. The device must be Vulkan 1.3 with
     * dynamicRendering, synchronization2 and maintenance4 enabled (enabled_features, below, lets
     * the library check), `queue` (of `queue_family`) must
     * do graphics and compute, and get_instance_proc_addr must be the loader's (or the host's own
     * loader's) vkGetInstanceProcAddr, so that a host on volk or on its own loader works. All left
     * zero: the library makes its own instance and device (pagecurl_context_vulkan hands them out).
     */
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
    /* Optional, with the host's device: used for every object the library makes. */
    const VkAllocationCallbacks *allocator;
    VkPipelineCache pipeline_cache;
    /* With the host's device: its instance has VK_EXT_debug_utils enabled, so the library names
     * its objects (command buffers' regions are labelled with the frame's stages). */
    bool debug_names;
    /* The library's own device only: the Khronos validation layer with synchronization
     * validation, its messages counted (pagecurl_context_messages); and which device, by its
     * index among the loader's (-1 or 0 with prefer_index false: discrete, integrated, then a
     * CPU device). */
    bool validation;
    bool prefer_index;
    int device_index;
    /* The library's own device with validation: GPU-assisted validation too (out-of-bounds
     * accesses in the shaders; slow). Added after device_index: a .size that ends before it
     * means false. */
    bool gpu_assisted;
    /* Added after gpu_assisted (a .size that ends before them means none): the library's own
     * device for a host that presents to a window. `instance_extensions` are enabled on the
     * instance besides the library's (what the window system needs:
     * SDL_Vulkan_GetInstanceExtensions gives them); `create_surface`, called once the instance
     * exists, makes the window's surface (false: the context is not made), which the context then
     * owns (pagecurl_context_surface) and destroys with the instance. The device chosen has a queue
     * that presents to it, and VK_KHR_swapchain enabled. Ignored with the host's device. */
    const char *const *instance_extensions;
    uint32_t instance_extension_count;
    bool (*create_surface)(void *user, VkInstance instance, VkSurfaceKHR *out);
    void *surface_user;
    /* Added after surface_user (a .size that ends before it means false), with the host's device:
     * the device was created with the geometryShader feature enabled (where it offers it). The low
     * quality then anti-aliases the outline of the turning leaf's shadow map, as the library's own
     * device does (it enables the feature where offered); without it the leaf's contact shadow
     * can step in blocks along a fold. */
    bool geometry_shader;
    /* Added after geometry_shader (a .size that ends before it means false): with the host's
     * device, the host enabled VkPhysicalDeviceFeatures.samplerAnisotropy on it, so the high
     * tier reads the pages' print through an anisotropic sampler (a page seen at a grazing angle
     * stays sharp); false: trilinear reads alone, the feature never used. Ignored with the
     * library's own device, which enables it wherever the device offers it. */
    bool sampler_anisotropy;
    /* Added after sampler_anisotropy (a .size that ends before it means NULL), with the host's
     * device: the features it created the device with, the VkPhysicalDeviceFeatures2 chain it
     * gave vkCreateDevice (its pNext; a host that gave pEnabledFeatures wraps them in one). The
     * context is refused (PAGECURL_ERROR_USAGE, one line naming what is missing) where the chain
     * lacks dynamicRendering, synchronization2 or maintenance4 (in VkPhysicalDeviceVulkan13Features
     * or their own structs), and geometryShader and samplerAnisotropy are read from it (the two
     * flags above then unread). Read during pagecurl_context_create only. NULL: the library trusts
     * the host to have enabled them, checking only that the device offers them (a device made
     * without them then fails later, in the validation layer's words or the driver's). */
    const VkPhysicalDeviceFeatures2 *enabled_features;
} pagecurl_context_desc;

/* NULL with err filled where the device does not qualify or cannot be made. */
PAGECURL_API pagecurl_context *pagecurl_context_create(const pagecurl_context_desc *desc,
                                                       pagecurl_error *err);
/* Waits for the library's own work on the queue. Books made on it must be destroyed first. */
PAGECURL_API void pagecurl_context_destroy(pagecurl_context *ctx);

typedef enum pagecurl_quality {
    PAGECURL_QUALITY_AUTO = 0, /* low on a CPU device, high on a GPU */
    PAGECURL_QUALITY_LOW,      /* for a CPU rasteriser: no MSAA, a cheaper shadow, cached pages */
    PAGECURL_QUALITY_HIGH,     /* 4x MSAA, a 1024^2 shadow map, percentage-closer soft shadows */
    /* What the other two are measured against, slow: the most MSAA the device has (8x, else
     * 4x), a 4096^2 shadow map, the penumbra as the light's disc averaged over many jittered
     * taps. For stills: the program draws it at twice the size asked and scales it down. */
    PAGECURL_QUALITY_REFERENCE,
} pagecurl_quality;

/* What the device allows. */
typedef struct pagecurl_limits {
    uint32_t size;              /* sizeof(pagecurl_limits): set by the caller */
    pagecurl_quality auto_tier; /* what PAGECURL_QUALITY_AUTO picks here */
    uint32_t max_samples;       /* MSAA samples the high tier may use (1 or 4) */
    uint32_t max_grid_vertices; /* the largest leaf mesh, in vertices */
    uint32_t max_target_side;   /* the largest target, in pixels on a side */
    bool cpu_device;            /* a software rasteriser (lavapipe) */
    char device_name[256];
} pagecurl_limits;
PAGECURL_API void pagecurl_context_limits(const pagecurl_context *ctx, pagecurl_limits *out);

/* The Vulkan objects a context draws with: the host's, or those the library made (a simple host
 * records its own command buffers on this device and queue). */
typedef struct pagecurl_vulkan {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr;
} pagecurl_vulkan;
PAGECURL_API void pagecurl_context_vulkan(const pagecurl_context *ctx, pagecurl_vulkan *out);

/* The surface pagecurl_context_desc.create_surface made (the context's queue presents to it);
 * VK_NULL_HANDLE for none. The host makes its swapchain on it and destroys that first. */
PAGECURL_API VkSurfaceKHR pagecurl_context_surface(const pagecurl_context *ctx);

/* Validation messages counted so far (the library's own device with validation; else 0). */
PAGECURL_API uint32_t pagecurl_context_messages(const pagecurl_context *ctx);

/* ---------------------------------------------------------------------------------------------
 * Book: pages from a folder of images, a PDF, the built-in book or the host's own provider. */

typedef struct pagecurl_book pagecurl_book;

/* The host's pages, drawn when the library needs them, on threads of the library's (not the
 * host's), one page at a time: draw_page is not called again until its last call has returned.
 * A call still running page_seconds after it began (pagecurl_book_desc), or when the book is
 * destroyed, is not waited for: it is left running on its thread and its page is given up (shown
 * crossed out, with a PAGECURL_EVENT_ERROR), as is each page asked before it returns (at once,
 * with an ERROR each); pages asked after it has returned are drawn again. A call left running
 * may go on using `user` and the pixels it was given (those are the call's own, freed by the
 * library when it returns; nothing else of the book's is touched by it), so `user` must stay
 * valid until every draw_page call has returned, after pagecurl_book_destroy too (a host that
 * cannot tell keeps it for the life of the process), and the library must not be unloaded while
 * one runs. page_size is called on the host's thread only: by pagecurl_book_create (for the
 * book's shape), then by pagecurl_book_update or _render for each page before it is first drawn,
 * and again after pagecurl_book_invalidate names it. */
typedef struct pagecurl_page_provider {
    void *user;
    int page_count; /* at least 1 */
    /* The page's shape in any unit (only width : height matters); the book's page takes the shape
     * most pages have (of up to 64 asked, spread through the book), and a page of another shape
     * is fitted within it. NULL: A5 (148 x 210). A book whose shape is beyond 1:100 .. 100:1 is
     * refused (PAGECURL_ERROR_USAGE). */
    void (*page_size)(void *user, int page, float *width, float *height);
    /* Draws page `page` (1-based) into width x height RGBA8 pixels (sRGB, rows top to bottom,
     * 4 * width bytes a row); false leaves the page marked as one that could not be drawn. The
     * size is the rectangle the page fills on the book's page, of the page's own shape
     * (page_size): the book's page where the shapes agree (within 1 %), else fitted within it,
     * centred, inside a margin of paper 4 % of its width (as a PDF's page of another shape), so a
     * page is never stretched; the book frames that rectangle where it shows the page alone. */
    bool (*draw_page)(void *user, int page, uint32_t width, uint32_t height, uint8_t *rgba);
} pagecurl_page_provider;

/* A provider's pages' text and links (pagecurl_book_desc.page_text and page_links), so that search,
 * text selection and links work on its pages as on a PDF's. Each is called with the provider's
 * `user` and a page (1-based), on threads of the library's (a page's text by the search's thread
 * and by the calls that need it; its links within the pagecurl_book_link calls, kept for the last
 * 8 pages asked), one call of each at a time, but maybe while the other, or draw_page, runs. Each
 * fills a list the library gives it (`capacity` items, zeroed; its own, not the book's) and
 * returns how many it filled: 0 for none; -1 where the page's cannot be given (the page then has
 * none, with a PAGECURL_EVENT_ERROR, and its text counts as failed in pagecurl_search_state). A
 * count outside -1 .. capacity, or a box that is not a finite number, refuses that page's list
 * alike (nothing past `capacity` is read). A call still running page_seconds after it began (its
 * links: 5 s at most) is given up as a page's drawing is, left running on its thread with its
 * list, and that function is not called again until it returns (pages asked meanwhile have none,
 * each with an error), so `user` must stay valid as for draw_page. Boxes are x0, y0, x1, y1 as
 * fractions of the page as draw_page draws it (0..1, x right and y down from its top left
 * corner), as pagecurl_link's: held to the page, corners in either order. */

/* One character of a page's text. Its layout is fixed: a later version adds a new struct. */
typedef struct pagecurl_text_char {
    uint32_t code; /* a Unicode code point; '\n' ends a line (control characters read as spaces) */
    float rect[4]; /* its box; a '\n' left all 0: where the character before it ends */
} pagecurl_text_char;
/* The capacity page_text is given: the most characters a page's text has. */
#define PAGECURL_PAGE_TEXT_MAX 65536
/* Page `page`'s characters in reading order (a word broken by a hyphen at a line's end is found
 * whole by a search, as in a PDF). */
typedef int (*pagecurl_page_text_fn)(void *user, int page, pagecurl_text_char *chars, int capacity);

/* The capacity page_links is given: the most links a page has. */
#define PAGECURL_PAGE_LINKS_MAX 256
struct pagecurl_link;
/* Page `page`'s links, each a pagecurl_link (below) whose `size` and `page` the library has set:
 * `rect`, and `target` (a page of the book, 1-based; one outside it leads nowhere) or, with
 * `target` 0, `uri` (terminated; control characters read as spaces). The last of those that
 * overlap is the one on top. */
typedef int (*pagecurl_page_links_fn)(void *user, int page, struct pagecurl_link *links,
                                      int capacity);

typedef enum pagecurl_binding {
    /* the book's own: on the right for a PDF that says it reads right to left
     * (/ViewerPreferences /Direction /R2L), else on the left */
    PAGECURL_BINDING_BOOK = 0,
    PAGECURL_BINDING_LEFT,  /* bound on the left: pages turn right to left (most books) */
    PAGECURL_BINDING_RIGHT, /* bound on the right: pages turn left to right */
} pagecurl_binding;

typedef enum pagecurl_layout {
    PAGECURL_LAYOUT_AUTO = 0, /* the spread, or one page where the view is taller than wide */
    PAGECURL_LAYOUT_SPREAD,
    PAGECURL_LAYOUT_SINGLE, /* one page: the one the reader is on (pagecurl_state.page) */
} pagecurl_layout;

typedef enum pagecurl_cover {
    PAGECURL_COVER_SOFT = 0, /* the first and last leaves are paper like the rest */
    PAGECURL_COVER_HARD,     /* they turn as boards */
} pagecurl_cover;

typedef struct pagecurl_book_desc {
    uint32_t size; /* sizeof(pagecurl_book_desc) */
    /* Where the pages come from: `path` (a folder of PNG/JPEG/... images in natural name order,
     * or a PDF), or `provider` (page_count > 0), or neither: the built-in book (both, or a
     * provider with a page count below 1, are refused as USAGE). Every file read may be
     * hostile: a file that is not a regular file, too large or undecodable is refused (at open)
     * or its page shown crossed out (with a PAGECURL_EVENT_ERROR). */
    const char *path;
    pagecurl_page_provider provider;
    int page; /* open at the spread holding this page; 0: the first */
    pagecurl_binding binding;
    pagecurl_layout layout;
    pagecurl_cover cover;
    pagecurl_quality quality;
    uint32_t max_samples; /* MSAA samples at most, 1 or 4; 0: the tier's */
    /* How much of each side's back shows through it, up to 1 (thin paper); 0: 0.5, 80 g/m2
     * office paper; below 0: none. */
    float show_through;
    /* Frames the host records ahead, each with its own slot (pagecurl_book_record): 1 or 2;
     * 0 means 2. */
    uint32_t frames_in_flight;
    uint32_t grid_columns, grid_rows; /* the turning leaf's mesh; 0: 64 x 90 */
    /* Each update waits until the pages shown are drawn or given up (page_seconds: offscreen
     * renders, screenshots, tests); else a book file's or a folder's page is shown first as a
     * draft (drawn at a quarter of its width, scaled up), an update that would show one with
     * nothing drawn waiting for its draft at most a second, then sharp; a host's page (a
     * provider's), or one whose draft is late, shows as plain paper until it is drawn
     * (PAGECURL_EVENT_PAGE_READY: for the draft and the sharp page each). */
    bool wait_for_pages;
    /* Reduced motion: a turn (a key, an action, a drag let go past a swipe or flicked, go to page)
     * is a short cross-fade (0.25 s) from the spread to the next, not the curl; a held page
     * stays flat and the view never pulls back. A host reads the desktop's setting itself (SDL2
     * reports none). Added after wait_for_pages: a .size that ends before it means false. */
    bool reduced_motion;
    /* Added after reduced_motion (a .size that ends before one of them means zero for it and
     * for every field after it): */
    /* The pages are drawn for a viewport this many times as wide as the first one the book is
     * given, up to 8: a host that draws a still zoomed in gives its zoom, one that draws a
     * picture larger to scale it down (supersampling) less than 1; 0 or less: 1. */
    float page_detail;
    /* Thumbing through: a press behind a leaf that is still settling lifts the next leaf to turn
     * it too, as a reader thumbs through a book (the program's window does); false: such a press
     * catches the settling leaf. */
    bool thumb_through;
    /* The turning leaf's mesh is kept readable in host memory (pagecurl_book_leaf after a
     * pagecurl_book_render that reads it). */
    bool leaf_readback;
    /* Asked from time to time while an update or render waits for its pages (wait_for_pages):
     * true cuts the wait short, the pages not yet drawn shown as plain paper (a host's signal
     * handler that asks the program to stop). NULL: the wait runs until the pages are drawn. */
    bool (*stop)(void *user);
    void *stop_user;
    /* Added after stop_user (a .size that ends before it means false): each frame's stages are
     * timed on the device (timestamp queries), for pagecurl_book_frame_times (a host's HUD, a
     * host that steps down when frames miss their interval). */
    bool timed;
    /* Added after timed (a .size that ends before it means 0): the format of the images the host
     * has the book draw into (pagecurl_book_record's targets: a swapchain's, say). The book then
     * draws its frames in that format and copies them into a target of it, where a blit between
     * two formats converts every pixel (on a CPU device such as lavapipe, a draw over the whole
     * viewport a frame). It must be a colour format the device draws and blends in (else
     * pagecurl_book_update fails). 0: R8G8B8A8_SRGB, and every target blitted. */
    VkFormat target_format;
    /* Added after target_format (a .size that ends before it means 0): the samples a pixel of
     * the targets the book draws straight into (pagecurl_target.view): 1, 2, 4 or 8, one the
     * device draws colour and depth with. The book then draws at that many at every tier (one:
     * its edges anti-aliased by the shaders; more: by the samples, which the host resolves), as
     * Dear ImGui's backend draws at its host's MSAASamples. 0: the tier's own (4 at high, 1 at
     * low), and the book's frames only copied in. */
    uint32_t target_samples;
    /* Added after target_samples (a .size that ends before it means 0): a page of a PDF (or a
     * zoomed view's detail of one) still being drawn this many seconds after it was begun is given
     * up: shown crossed out with a PAGECURL_EVENT_ERROR, and the pages after it drawn, so that a
     * hostile page cannot hold the book (or a wait_for_pages update) for minutes. A page provider's
     * call is not stopped but left running (pagecurl_page_provider says what it may still use).
     * 0: 20 s; below 0: no limit. */
    float page_seconds;
    /* Added after page_seconds (a .size that ends before it means 0 for both): a reflowable
     * book's (an EPUB's, an FB2's, whose text the page helper lays out into pages) text size in
     * points, 6 to 48; 0: 11. A book whose pages are its own (a PDF, an XPS, a comic book, a
     * folder of images) refuses any other (PAGECURL_ERROR_USAGE). */
    float font_size;
    /* The shape (height / width) a reflowable book's pages are laid out to: a host gives its
     * view's (a spread's half of it), held to a book's, 1.2 to 1.8; 0: 1.5. Fixed pages keep
     * their own. */
    float page_aspect;
    /* Added after page_aspect (a .size that ends before it means NULL for both): the provider's
     * pages' text and links (pagecurl_page_text_fn, pagecurl_page_links_fn say how they are
     * called); NULL: none. Given with a book that is not a provider's: refused
     * (PAGECURL_ERROR_USAGE). */
    pagecurl_page_text_fn page_text;
    pagecurl_page_links_fn page_links;
    /* Added after page_links (a .size that ends before it means 0): the depth attachment's format
     * of the host's own dynamic rendering the book draws into (pagecurl_target.in_pass,
     * pagecurl_book_draw), declared up front so that its pipelines match it: D16_UNORM,
     * X8_D24_UNORM_PACK32 or D32_SFLOAT (a format with stencil is refused), with target_format
     * the colour attachment's and target_samples its samples. 0: the book draws in no host's
     * pass; a target drawn straight into (`view`) gets a depth of the book's in this format. */
    VkFormat target_depth_format;
} pagecurl_book_desc;

PAGECURL_API pagecurl_book *
pagecurl_book_create(pagecurl_context *ctx, const pagecurl_book_desc *desc, pagecurl_error *err);
/* Waits until the device no longer uses the book's resources, then frees them. A page being
 * drawn is abandoned, not waited for (a page provider's call in progress is left running:
 * pagecurl_page_provider). */
PAGECURL_API void pagecurl_book_destroy(pagecurl_book *book);

PAGECURL_API int pagecurl_book_page_count(const pagecurl_book *book);

/* Page `page`'s (1-based) own label, as a PDF's /PageLabels name it ("xii", "A-3"), into `out`
 * (64 bytes are always enough; a longer label is cut at a character's boundary); "" where the
 * book gives it none. */
PAGECURL_API void pagecurl_book_page_label(const pagecurl_book *book, int page, char *out,
                                           size_t size);

/* The page (1-based) a reader means by `text`: the page labelled so (exactly, else ignoring
 * case), else the page of that number; 0 for none. For a "go to page" field. */
PAGECURL_API int pagecurl_book_find_page(const pagecurl_book *book, const char *text);

/* A place in a reflowable book's text (an EPUB's, an FB2 book's) that outlasts its layout: where
 * page `page` (1-based) begins, as a short line of printable ASCII (at most
 * PAGECURL_TEXT_PLACE_MAX bytes with its NUL) into `out`, for a host to keep (a reader's place
 * reopened in another window shape or type size: pagecurl_book_text_place_page finds it again).
 * Asked of the page helper and waited for (about the time a search takes for the pages of the
 * page's chapter before it); false, with `out` "", for a book whose pages are its own (a PDF,
 * XPS, comic, folder or a host's), a page it lacks, or a helper that failed. */
#define PAGECURL_TEXT_PLACE_MAX 48
PAGECURL_API bool pagecurl_book_text_place(pagecurl_book *book, int page, char *out, size_t size);
/* The page (1-based) that holds `place` (pagecurl_book_text_place's, from this book under any
 * layout) as the book is laid out now; 0 where none does (another book's place, a malformed
 * one, a book whose pages are its own). Waited for as pagecurl_book_text_place is. */
PAGECURL_API int pagecurl_book_text_place_page(pagecurl_book *book, const char *place);

/* The book's table of contents (a PDF's outline), flattened in reading order: how many entries
 * (at most 4096; 0 for a book without one). */
PAGECURL_API int pagecurl_book_outline_count(const pagecurl_book *book);
/* Entry `entry` (0-based): its title (UTF-8, cut at a character's boundary to fit `size`; 256
 * bytes are always enough) into `title` (may be NULL), its depth (0 a chapter, 1 its sections,
 * ...) into `depth` (may be NULL); returns the page (1-based) it leads to, 0 where it leads
 * nowhere in the book, -1 for no such entry. */
PAGECURL_API int pagecurl_book_outline_entry(const pagecurl_book *book, int entry, char *title,
                                             size_t size, int *depth);
/* The first entry from `from` on whose title holds `text` (ASCII letters in either case) and that
 * leads to a page; -1 for none. A search field's next match is from the one found + 1. */
PAGECURL_API int pagecurl_book_outline_find(const pagecurl_book *book, const char *text, int from);

/* Search. A book's text (a PDF's, or a host's pages' as its page_text gives it; a folder of
 * images, the built-in book and a host's pages without page_text have none) is searched in the
 * background: pagecurl_book_search starts counting `query` (UTF-8, at most 256 bytes;
 * case-insensitive; a word hyphen-broken across a line end is found whole) from the spread open
 * onwards, round the book, on a thread of its own that reads the pages' text in the page helper
 * (never the one drawing pages). It returns at once: no call here waits for the count, and a new
 * query (NULL or "": none) drops the old one's matches and count. False for a query too long. */
PAGECURL_API bool pagecurl_book_search(pagecurl_book *book, const char *query);
typedef struct pagecurl_search_state {
    uint32_t size;       /* sizeof(pagecurl_search_state): set by the caller */
    uint32_t generation; /* which query this is (each pagecurl_book_search a new one; 0: none) */
    bool has_text;       /* the book has text to search: false, and no match ever, for images */
    bool done;           /* every page counted (at once without text or query) */
    int pages_read;      /* of `pages` */
    int pages;
    int matches; /* found so far; the whole count once done */
    bool failed; /* a page's text could not be read (a damaged page: counted as none) */
} pagecurl_search_state;
PAGECURL_API void pagecurl_book_search_state(const pagecurl_book *book, pagecurl_search_state *out);
/* One match: its page and where it lies on it, as fractions of the page's own box (0..1, x right
 * and y down from its top left corner), one rectangle a line (a match across lines has several). */
typedef struct pagecurl_search_match {
    uint32_t size; /* sizeof(pagecurl_search_match): set by the caller */
    int page;      /* 1-based */
    int rect_count;
    float rects[8][4]; /* x0, y0, x1, y1 each; at most 8 kept */
} pagecurl_search_match;
/* Match `k` (0-based) of those found so far, in page order (their order, not the pages counted
 * first; an index settles once the count is done); false for none. */
PAGECURL_API bool pagecurl_book_search_match(const pagecurl_book *book, int k,
                                             pagecurl_search_match *out);
/* The match a reader's "next" (`forward`) or "previous" means from the spread open (or heading
 * for, during a turn): the first on a page after it, else the last on a page before it, round
 * the book; -1 where none is found (yet). */
PAGECURL_API int pagecurl_book_search_next(const pagecurl_book *book, bool forward);
/* Turns to match `k`'s spread (as pagecurl_book_go_to); false for no such match. */
PAGECURL_API bool pagecurl_book_show_match(pagecurl_book *book, int k);

/* Links. A page's links (a PDF's link annotations, or a host's pages' as its page_links gives
 * them; a folder of images, the built-in book and a host's pages without page_links have none),
 * read in the page helper (or asked of the host) at the first call about the page and waited for
 * there (milliseconds; the helper's start, the first time, tens of them; a page whose links are
 * not read within 5 s has none), then kept for the last 8 pages asked: calls on the pages shown
 * cost nothing after the first. A page whose links cannot be read has none, and says why once (a
 * PAGECURL_EVENT_ERROR). */
#define PAGECURL_LINK_URI_MAX 1024
typedef struct pagecurl_link {
    uint32_t size; /* sizeof(pagecurl_link): set by the caller */
    int page;      /* the page (1-based) it lies on */
    /* where: x0, y0, x1, y1 as fractions of the page's own box (0..1, x right and y down from
     * its top left corner), as a search match's rectangles */
    float rect[4];
    int target; /* the page (1-based) it leads to; 0: none of the book's (an address, or nowhere) */
    /* an external link's address (UTF-8, control characters as spaces), "" for one to a page;
     * the library never opens it: a host shows it and opens it only when the reader asks */
    char uri[PAGECURL_LINK_URI_MAX + 1];
} pagecurl_link;
/* How many links page `page` (1-based) has: 0 for none, and for a page the book lacks. */
PAGECURL_API int pagecurl_book_link_count(pagecurl_book *book, int page);
/* Link `k` (0-based) of page `page`; false for no such link. */
PAGECURL_API bool pagecurl_book_link(pagecurl_book *book, int page, int k, pagecurl_link *out);
/* The link under target pixel (x, y) as the last update showed the book (pagecurl_book_hit's
 * page and place: through the host's camera or the library's framing, and through the turning
 * leaf's curl), the one on top where links overlap; false where no link lies there. */
PAGECURL_API bool pagecurl_book_link_at(pagecurl_book *book, double x, double y,
                                        pagecurl_link *out);
/* Goes to page `page` as a reader following a link does, the spread left kept on the way back:
 * a spread next to the one the book heads for (in the one-page view, the next or the previous
 * page) by an animated turn, any other by a cut (as pagecurl_book_go_to); the way forward is
 * forgotten. False (nothing kept) for a page the book lacks, or where it cannot go now (a page
 * held). `time`: the host's clock. */
PAGECURL_API bool pagecurl_book_follow(pagecurl_book *book, int page, double time);
/* Back along the links followed, to the page each was followed from (the most recent first; up to
 * 64 kept), as pagecurl_book_follow goes; pagecurl_book_forward undoes a step back. False where
 * there is no step to take (or it cannot be taken now). */
PAGECURL_API bool pagecurl_book_back(pagecurl_book *book, double time);
PAGECURL_API bool pagecurl_book_forward(pagecurl_book *book, double time);

/* ---------------------------------------------------------------------------------------------
 * Input. Positions are in the target's pixels (the viewport's own: 0,0 its top left corner). The
 * library decides whether a pointer turns a page or draws ink: a pen always draws, a mouse or a
 * finger draws in ink mode and turns pages otherwise. */

typedef enum pagecurl_pointer_kind {
    PAGECURL_POINTER_MOUSE = 0,
    PAGECURL_POINTER_FINGER,
    PAGECURL_POINTER_PEN,
} pagecurl_pointer_kind;

typedef enum pagecurl_pointer_phase {
    PAGECURL_POINTER_DOWN = 0,
    PAGECURL_POINTER_MOVE,
    PAGECURL_POINTER_UP,
    PAGECURL_POINTER_CANCEL, /* the system took the pointer: a held page falls back, a stroke ends
                              */
} pagecurl_pointer_phase;

typedef struct pagecurl_pointer_event {
    uint32_t size; /* sizeof(pagecurl_pointer_event) */
    pagecurl_pointer_phase phase;
    pagecurl_pointer_kind kind;
    uint64_t id;    /* which pointer: one at a time turns pages and one draws (a pen writes while
                       a finger holds the page); others are ignored until it is up */
    double x, y;    /* target pixels (doubles: a fraction of the viewport times its size, as a
                       replayed session gives one, comes back as that fraction exactly) */
    float pressure; /* 0..1; 0 means 1 (a mouse) */
    double time;    /* seconds, the host's clock (the one pagecurl_book_update is given) */
} pagecurl_pointer_event;

PAGECURL_API void pagecurl_book_pointer(pagecurl_book *book, const pagecurl_pointer_event *event);

typedef enum pagecurl_action {
    /* turn to the next spread, animated; where one page is shown, the next page (by a slide of
     * the view or a turn: pagecurl_state.page) */
    PAGECURL_ACTION_NEXT = 0,
    PAGECURL_ACTION_PREVIOUS,
    PAGECURL_ACTION_FIRST,    /* open at the first spread, at once (a turn settling ends there) */
    PAGECURL_ACTION_LAST,     /* open at the spread holding the last page, at once (likewise) */
    PAGECURL_ACTION_UNDO,     /* take back the last stroke or clear */
    PAGECURL_ACTION_ZOOM_FIT, /* back to the fitted view at once (zoom 1, no pan, no fit to
                                 width, no zoom to come back after a turn) */
} pagecurl_action;

/* False where the action does nothing now (no page to turn to, a page already turning, nothing to
 * undo; ZOOM_FIT before the first frame or while a page is held). With thumb_through a turn asked
 * while a leaf settles is the reader's: towards where it heads, it waits behind it (a few at most,
 * each hurrying the leaf in the air), the other way it turns the leaf round. `time`: the host's
 * clock. */
PAGECURL_API bool pagecurl_book_action(pagecurl_book *book, pagecurl_action action, double time);

/* Opens the book at the spread holding `page` (1-based) at once, cutting short a turn that is
 * settling; false for a page the book lacks or while a page is dragged. */
PAGECURL_API bool pagecurl_book_go_to(pagecurl_book *book, int page);

/* Goes to page `page` (1-based) animated, as a reader leafing there would: a spread up to 4 away
 * from the one the book heads for by thumbing through, a turn a leaf (each lifting as the one
 * before lands, hurried as keys pressed in a row are); any farther by one turn: a cut to the
 * spread beside the target, then that leaf turned onto it. (Thumbing through a hundred leaves
 * would take seconds and draw every page between; one turn shows the way the book went, and draws
 * only the target's pages.) In the one-page view the reader lands on `page` itself. The turns are
 * told as any (TURN_STARTED / TURN_ENDED each). False for a page the book lacks or while a page
 * is dragged. `time`: the host's clock. pagecurl_book_go_to is the same without animation. */
PAGECURL_API bool pagecurl_book_turn_to(pagecurl_book *book, int page, double time);

/* Holds the next leaf of the open spread (with `backward`, the previous one) still, turned to
 * `progress` (0 flat .. 1 over) and grabbed at `grab` (0 .. 1 along the free edge): a posed
 * frame, as the program's `--curl` and `--grab` pose one (with reduced_motion: the cross-fade at
 * `progress`, as `--reduced-motion --curl`). Any pointer event or action lets go of it. False where
 * there is no such leaf or a page is moving. */
PAGECURL_API bool pagecurl_book_hold(pagecurl_book *book, float progress, float grab,
                                     bool backward);

/* The roll's radius of a held pose (pagecurl_book_hold), in page widths (0.005 .. 0.5): another
 * roll on the same fold line (any radius gives paper that does not stretch; the grabbed point no
 * longer lies under the pose's own path), as the program's `--radius`; 0: the pose's own. False
 * (nothing changes) for a radius out of that range. */
PAGECURL_API bool pagecurl_book_set_hold_radius(pagecurl_book *book, float radius);

/* The quality tier from the next frame on (a host that steps down when its frames miss their
 * interval, as the program's window does): that frame's update (or render) remakes what the tier
 * draws with, waiting for the queue to be idle first. False for a tier out of range. */
PAGECURL_API bool pagecurl_book_set_quality(pagecurl_book *book, pagecurl_quality quality);

/* Ink mode: mice and fingers draw too (a pen always does). */
PAGECURL_API void pagecurl_book_set_ink_mode(pagecurl_book *book, bool ink);

/* What lies under target pixel (x, y) (the viewport's, as a pointer's) as the last update showed
 * the book: seen through the host's camera or the library's framing, zoom and pan, and through
 * the turning leaf's curl where it covers the page beneath (its side seen there), a leaf held by
 * the hand or posed by pagecurl_book_hold alike. */
typedef struct pagecurl_hit {
    uint32_t size; /* sizeof(pagecurl_hit): set by the caller */
    int page;      /* 1-based */
    float u, v;    /* in the page's own coordinates, as pagecurl_ink_point's: 0 .. 1 from its left
                      edge, 0 .. 1 from its foot */
} pagecurl_hit;
/* False where no page lies there (the backdrop), before the first update, or for a point that is
 * not finite. */
PAGECURL_API bool pagecurl_book_hit(const pagecurl_book *book, double x, double y,
                                    pagecurl_hit *out);
/* The most points pagecurl_book_page_outline gives: a curled side's. */
#define PAGECURL_PAGE_OUTLINE_MAX 64
/* Where page `page` (1-based) lies as the last update showed the book (through the same camera,
 * zoom and curl as pagecurl_book_hit): its outline in target pixels, up to `max` points (`xy`:
 * x, y pairs, 2 * max floats) in order around its edge: 4 for a page lying flat,
 * PAGECURL_PAGE_OUTLINE_MAX along a turning leaf's curled edges; whole where another page lies
 * over part of it. 0 where the page is not shown (not in the spread, the page the
 * one-page view leaves out), before the first update, and for a page the book lacks. */
PAGECURL_API int pagecurl_book_page_outline(const pagecurl_book *book, int page, float *xy,
                                            int max);

/* Text. A page's text (a PDF's; a folder of images, the built-in book and a host's pages without
 * page_text have none) is read, as the search reads it, in the page helper: MuPDF's structured
 * text, its characters in reading order, a line's end '\n' (at most 65,536 characters a page); a
 * host's pages' is what its page_text gives. The page's text is read at the first call that needs
 * it and kept until another page's is needed: the call waits for it (milliseconds; a hostile page
 * or provider no longer than page_seconds). */

/* Page `page`'s (1-based) text, UTF-8, into `out` (`size` bytes, terminated, cut at a
 * character's boundary; NULL with 0 to measure): the bytes the whole text has, without the
 * terminator (0 for a page or a book without text: pagecurl_search_state.has_text says which);
 * -1 where it cannot be read (the reason queued as a PAGECURL_EVENT_ERROR) or no such page. */
PAGECURL_API long pagecurl_book_page_text(pagecurl_book *book, int page, char *out, size_t size);

/* The most rectangles a pagecurl_selection holds. */
#define PAGECURL_SELECTION_RECTS 64
/* The book's selection: characters of one page, in reading order, highlighted on the page (bent
 * with it, at every zoom) as search matches are, in blue. */
typedef struct pagecurl_selection {
    uint32_t size; /* sizeof(pagecurl_selection): set by the caller */
    int page;      /* 1-based; 0: nothing selected */
    int chars;     /* characters selected (a line's end counts one) */
    int rect_count;
    /* one a line, as fractions of the page's own box (x0, y0, x1, y1; y down), as
     * pagecurl_search_match's; the first PAGECURL_SELECTION_RECTS lines' */
    float rects[PAGECURL_SELECTION_RECTS][4];
} pagecurl_selection;
/* Selects the characters from the one nearest `from` to the one nearest `to` (NULL: `from`) in
 * reading order: points on one page, as pagecurl_book_hit gives them (a drag's press and where
 * the pointer is now); with `words` widened to the words at either end (a double-click's word:
 * `from` alone). NULL `from`: nothing selected. The selection (may be NULL) into `out`. False
 * where nothing is selected: `from` NULL, points on two pages, a page without text (the
 * selection then stays as it was). */
PAGECURL_API bool pagecurl_book_select(pagecurl_book *book, const pagecurl_hit *from,
                                       const pagecurl_hit *to, bool words, pagecurl_selection *out);
/* The selection as it is; false for none. */
PAGECURL_API bool pagecurl_book_selection(const pagecurl_book *book, pagecurl_selection *out);
/* The selected text (UTF-8, '\n' between lines) into `out` as pagecurl_book_page_text gives a
 * page's; 0 for none. For a clipboard. */
PAGECURL_API size_t pagecurl_book_selection_text(const pagecurl_book *book, char *out, size_t size);

/* Wipes the ink of the page side at target pixel (x, y), as the book is seen at `time`; false
 * where no page lies there. */
PAGECURL_API bool pagecurl_book_clear_at(pagecurl_book *book, double x, double y, double time);

/* Strokes on page `page` (1-based), all pages' together with 0; a page past a count made smaller
 * (pagecurl_book_set_page_count) still has its own. */
PAGECURL_API uint32_t pagecurl_book_stroke_count(const pagecurl_book *book, int page);

/* A point of a stroke, in its page's own coordinates as the page lies face up: u from the page's
 * left edge (0) to its right edge (1), v from its bottom edge (0) to its top (1); the stroke's
 * width there in page widths (0.001 .. 0.05; a pen at full pressure draws 0.012). */
typedef struct pagecurl_ink_point {
    float u, v, width;
} pagecurl_ink_point;

/* Stroke `stroke` (0-based, in the order the page's strokes were made) of page `page` (1-based):
 * copies up to `capacity` of its points into `out` (NULL with 0: none) and returns how many it
 * has; 0 for no such stroke. With pagecurl_book_add_stroke a host keeps the ink across runs (a
 * notebook): it saves on each PAGECURL_EVENT_INK_CHANGED, which comes only when no stroke is
 * being drawn, and once more before it destroys the book (a stroke being drawn then included). */
PAGECURL_API uint32_t pagecurl_book_get_stroke(const pagecurl_book *book, int page, uint32_t stroke,
                                               pagecurl_ink_point *out, uint32_t capacity);

/* Adds a whole stroke of `count` points to page `page` (1-based), after the page's others: ink
 * the host kept, put back. It shows from the next frame and undo takes it back as it would one
 * drawn; no PAGECURL_EVENT_INK_CHANGED is raised for it. Widths are kept within 0.001 .. 0.05.
 * False, with nothing added, for a page the book lacks, no points, a point off the page (u or v
 * outside 0 .. 1) or not finite, while a stroke is being drawn, beyond the bounds the book keeps
 * on ink (100,000 points a stroke, 500,000 in all) or out of memory. */
PAGECURL_API bool pagecurl_book_add_stroke(pagecurl_book *book, int page,
                                           const pagecurl_ink_point *points, uint32_t count);

/* A number that grows with every change of the book's ink (a stroke begun, extended or added, a
 * clear, an undo; a stroke's end changes no point and leaves it as it was: pagecurl_state.drawing
 * falls to 0 then): a host that keeps the ink saves where it differs from the one it saved last or
 * where a stroke has ended since, also at the end, when a stroke may still be being drawn. */
PAGECURL_API uint64_t pagecurl_book_ink_revision(const pagecurl_book *book);

/* ---------------------------------------------------------------------------------------------
 * Pages that change after the book is made. */

/* pagecurl_book_invalidate's page for every page. */
#define PAGECURL_ALL_PAGES 0

/* Page `page` (1-based; PAGECURL_ALL_PAGES: all) changed: it is drawn again from its source (a
 * host's provider is asked again, its page_size too; a PDF's or a folder's page is drawn again by
 * the page helper). What shows stays until the new drawing arrives, never a blank page between: a
 * PAGECURL_EVENT_PAGE_READY for the page tells the update from which it shows (a wait_for_pages
 * update or a render waits only for pages never drawn, not for these). A page no layer holds is
 * drawn afresh when it is next shown. False for a page the book lacks. */
PAGECURL_API bool pagecurl_book_invalidate(pagecurl_book *book, int page);

/* The book's pages come from `provider` from now on (a book made with a provider only: false with
 * USAGE otherwise, and for a provider of no pages or no draw_page), all of them drawn anew: what
 * shows stays until each is redrawn, a page past the new count goes. Its page count may differ:
 * the book stays open where it was (the reader's page and its spread), held to the new count (at
 * its last page where that is before it); a turn in flight lies down where it is, a leaf in the
 * hand falls, a search, a selection and the links followed are forgotten. The book keeps its
 * pages' shape: the provider's pages are fitted within it (draw_page); their text and links are
 * the description's page_text and page_links, called with this provider's `user`. The ink is
 * kept: a page past the new count keeps its strokes, which pagecurl_book_stroke_count and
 * pagecurl_book_get_stroke still read (by its page number, up to the largest count the book has
 * had) and which show again where the count grows back, so a host that saves its notebook from
 * them loses none. Waits for a page the old provider is drawing to return (at most page_seconds;
 * a call left running keeps the new provider waiting where it has the same draw_page, as one
 * draw_page call at a time is promised). */
PAGECURL_API bool pagecurl_book_set_provider(pagecurl_book *book,
                                             const pagecurl_page_provider *provider,
                                             pagecurl_error *err);
/* The same provider with `count` pages (pages added at the end, or taken from it), as
 * pagecurl_book_set_provider. */
PAGECURL_API bool pagecurl_book_set_page_count(pagecurl_book *book, int count, pagecurl_error *err);

/* A reflowable book (an EPUB's or FB2's text, opened by path) laid out again: its text at
 * `font_size` points (6 .. 48; 0: as now), on pages of `page_aspect`, height / width (held to a
 * book's, 1.2 .. 1.8, as pagecurl_book_desc.page_aspect; 0: as now): a view of another shape,
 * the leaf made again at it (its pages, their textures and the view are made again at the next
 * update, as for the first). The page helper lays it out in the caller's thread (about as long
 * as the book took to open), and the book opens at the page that now holds the text the page
 * read began with (the right-hand
 * page of a spread), whatever its number; every page is drawn anew, what shows staying until it is,
 * and a search, a selection and the links followed are forgotten, as pagecurl_book_set_provider
 * does. The outline, page count and identity (pagecurl_book_identity_of) are the new layout's. Ink
 * is kept by page number, as a notebook keeps it: a page's strokes stay on the page of that number
 * (now other text), and a page past a smaller count keeps its own (pagecurl_book_set_provider).
 * True where laid out, or already laid out so; false with USAGE for a book whose pages are their
 * own (a PDF, an XPS, a comic, a folder of images, the built-in book, a host's) or a size out of
 * range, RUNTIME where the book cannot be laid out again (its layout took more than a minute of the
 * processor, the helper failed; the line is queued as a PAGECURL_EVENT_ERROR too): the book then
 * stays as it was. */
PAGECURL_API bool pagecurl_book_relayout(pagecurl_book *book, float font_size, float page_aspect,
                                         pagecurl_error *err);
/* The text size a reflowable book is laid out at now, in points; 0 for a book whose pages are
 * their own. */
PAGECURL_API float pagecurl_book_font_size(const pagecurl_book *book);
/* The shapes a reflowable book's pages are laid out to, height / width: a page_aspect outside
 * them (pagecurl_book_desc, pagecurl_book_relayout) is held to them, as a book's pages are. */
#define PAGECURL_PAGE_ASPECT_MIN 1.2f
#define PAGECURL_PAGE_ASPECT_MAX 1.8f
/* The text size `steps` sizes larger (< 0: smaller) than `size` on the ladder a reader steps
 * through (6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 28, 32, 36, 42 and 48 points), held
 * to its ends; a size between two of them steps to the nearer one that way first. For a host's
 * larger and smaller keys, with pagecurl_book_relayout. */
PAGECURL_API float pagecurl_font_size_step(float size, int steps);

/* ---------------------------------------------------------------------------------------------
 * Zoom and pan. The fitted view (1x: the pages filling the viewport as they do at rest) enlarged up
 * to 8x about a point of the viewport, and moved. The pan keeps the pages covering the viewport,
 * or centred along an axis where they are smaller than it, so the book cannot be lost. Zoomed in, a
 * pointer press within 48 target pixels of a page's outer edge (inside or out) takes the page and
 * turns it at the zoom it has, which stays while the page is held; any other press pans, and a
 * flick coasts on, slowing as exp(-t / 0.3 s). At 1x every press takes the page. A turn that
 * starts zoomed in (an action, a page let go on its way over, a scroll past a page's foot) eases
 * the view back to fit over 0.35 s while the leaf flies, and once the book is at rest again back
 * in to the zoom it had (or the fit to a page's width) over as long, at the head of the spread's
 * first page in reading order (after a scroll back, at the foot of its last), its pan across the
 * same from that page's centre as it was from the page turned from. Positions are target pixels,
 * as the pointer's. */

/* How the view fits the pages (pagecurl_book_fit). */
typedef enum pagecurl_fit {
    PAGECURL_FIT_PAGE = 0, /* the fitted view: the pages whole, zoom 1 (or a zoom of its own) */
    PAGECURL_FIT_WIDTH,    /* a page's width fills the viewport's; the scroll goes down it */
} pagecurl_fit;

typedef struct pagecurl_zoom {
    uint32_t size; /* sizeof(pagecurl_zoom): set by the caller */
    float zoom;    /* 1 .. 8 */
    /* where the fitted view's centre shows, in target pixels from the viewport's centre */
    float x, y;
    bool moving; /* the view still changes with the clock (a flick coasting, an ease to fit) */
    /* Added after moving (a .size that ends before one of them leaves it and those after it
     * unwritten), both as the book is now, not as the last update showed it: */
    pagecurl_fit fit; /* PAGECURL_FIT_WIDTH while fitted to a page's width */
    bool returning;   /* a turn from a zoomed view: the zoom comes back once the book is at rest */
    /* Added after returning, as the book is now: fitted to a page's width, that page (1-based)
     * and how far down it the viewport's top lies (a fraction of its height, 0 at its head);
     * otherwise 0 and 0. */
    int page;
    float down;
} pagecurl_zoom;

/* Sets the zoom to `zoom` (kept to 1 .. 8) about target pixel (x, y): the point of the book shown
 * there stays there, unless the pan's limits move the picture. False (nothing changes) before the
 * first update, while a page is held, under the host's camera (pagecurl_book_set_camera: it
 * frames the book, so this and the other zoom and pan calls, ZOOM_FIT too, do nothing), or for
 * values that are not finite. */
PAGECURL_API bool pagecurl_book_set_zoom(pagecurl_book *book, float zoom, double x, double y,
                                         double time);
/* Enlarges the zoom `factor` times (a wheel's notch, a pinch's step; kept to 1 .. 8) about target
 * pixel (x, y), or with x and y both NAN (a key, the pointer off the viewport) about the centre of
 * the page in view (a spread at 1x: the right-hand page's); false as above. */
PAGECURL_API bool pagecurl_book_zoom_by(pagecurl_book *book, float factor, double x, double y,
                                        double time);
/* Fits the view: PAGECURL_FIT_PAGE is the fitted view at once (PAGECURL_ACTION_ZOOM_FIT);
 * PAGECURL_FIT_WIDTH, at once, the width of the page under target pixel (x, y) (of a spread's
 * right-hand page where x or y is NAN or on neither) fills the viewport's, up to 8x, its head at
 * the top. The fit to width follows the viewport's size and the spread shown, and stays across
 * turns and scrolls, until a zoom, a fit, or a pan that moves the picture across. False as
 * pagecurl_book_set_zoom, and for a `fit` that is neither. */
PAGECURL_API bool pagecurl_book_fit(pagecurl_book *book, pagecurl_fit fit, double x, double y,
                                    double time);
/* Scrolls a zoomed (or fitted to width) view `amount` viewport heights down the page (< 0: up),
 * no further than its foot (head). From the foot, the next scroll forward goes on to the next
 * page in reading order: a spread's other page, at its head, or a turn (as PAGECURL_ACTION_NEXT,
 * the reader's turn) whose zoom comes back at the head of the page turned to; from the head,
 * back to the previous page's foot. From the fitted view (the page all in view) a scroll goes on
 * to the next page (< 0: the one before) as PAGECURL_ACTION_NEXT (PREVIOUS) does, at most once in
 * a quarter of a second: a wheel's gesture or a touchpad's stream of small scrolls turns once or
 * twice, not once a notch. False where it does nothing: a turn under way, a page held, the book's
 * first or last page, a scroll from the fitted view within a quarter second of the last turn it
 * made, a value that is not finite, and before the first update. */
PAGECURL_API bool pagecurl_book_scroll(pagecurl_book *book, float amount, double time);
/* A double click or tap at target pixel (x, y): zoomed in, eases back to fit; at fit, eases in to
 * 2.5x about that point. False as above. */
PAGECURL_API bool pagecurl_book_zoom_toggle(pagecurl_book *book, double x, double y, double time);
/* Moves the picture by (dx, dy) target pixels, within the pan's limits; false as above. */
PAGECURL_API bool pagecurl_book_pan(pagecurl_book *book, double dx, double dy, double time);
/* The zoom and pan as the last update showed them. */
PAGECURL_API void pagecurl_book_get_zoom(const pagecurl_book *book, pagecurl_zoom *out);
/* The view `view` describes (pagecurl_book_get_zoom's, of this run or of one before: a host that
 * keeps the reader's place keeps this beside it), at once: fitted to the width of its `page`
 * (the spread's right-hand page where it shows no such page), `down` that page; or its `zoom`
 * with its pan `x`, `y` (target pixels, taken as they are: a host scales them to another
 * viewport); within the pan's limits, nothing to come back to after a turn. False as
 * pagecurl_book_set_zoom, and for a `view` whose size ends before `down` or whose values are not
 * finite. */
PAGECURL_API bool pagecurl_book_set_view(pagecurl_book *book, const pagecurl_zoom *view,
                                         double time);

/* ---------------------------------------------------------------------------------------------
 * One input event. Every input above as one value: a host that records its input and plays it
 * back (the program's traces, --record and --replay) keeps one list of these and hands each to
 * pagecurl_book_input, which calls what the event names. */

typedef enum pagecurl_input_device {
    PAGECURL_INPUT_MOUSE = 0,
    PAGECURL_INPUT_FINGER,
    PAGECURL_INPUT_KEY,
    PAGECURL_INPUT_INK,  /* a pen, or any pointer in ink mode: draws instead of turning */
    PAGECURL_INPUT_ZOOM, /* the view's zoom and pan */
} pagecurl_input_device;

typedef enum pagecurl_input_action {
    PAGECURL_INPUT_DOWN = 0, /* mouse, finger, ink: pagecurl_book_pointer's phases */
    PAGECURL_INPUT_MOVE,
    PAGECURL_INPUT_UP,
    PAGECURL_INPUT_NEXT,   /* key: PAGECURL_ACTION_NEXT */
    PAGECURL_INPUT_PREV,   /* key: PAGECURL_ACTION_PREVIOUS */
    PAGECURL_INPUT_UNDO,   /* key: PAGECURL_ACTION_UNDO */
    PAGECURL_INPUT_CLEAR,  /* ink: pagecurl_book_clear_at (x, y) */
    PAGECURL_INPUT_HOME,   /* key: PAGECURL_ACTION_FIRST */
    PAGECURL_INPUT_END,    /* key: PAGECURL_ACTION_LAST */
    PAGECURL_INPUT_BY,     /* zoom: pagecurl_book_zoom_by `amount` about (x, y) (both NAN: none) */
    PAGECURL_INPUT_PAN,    /* zoom: pagecurl_book_pan by (x, y) */
    PAGECURL_INPUT_FIT,    /* zoom: PAGECURL_ACTION_ZOOM_FIT */
    PAGECURL_INPUT_TOGGLE, /* zoom: pagecurl_book_zoom_toggle at (x, y) */
    PAGECURL_INPUT_GOTO,   /* key: pagecurl_book_go_to `page` */
    PAGECURL_INPUT_WIDTH,  /* zoom: pagecurl_book_fit to the width of the page at (x, y) */
    PAGECURL_INPUT_SCROLL, /* zoom: pagecurl_book_scroll by `amount` view heights */
    PAGECURL_INPUT_FONT,   /* key: pagecurl_book_relayout to text of `amount` points */
    PAGECURL_INPUT_CANCEL, /* mouse, finger, ink: PAGECURL_POINTER_CANCEL */
} pagecurl_input_action;

typedef struct pagecurl_input_event {
    uint32_t size; /* sizeof(pagecurl_input_event) */
    pagecurl_input_device device;
    pagecurl_input_action action;
    double x, y;    /* target pixels, as a pointer's; a pan's move */
    float pressure; /* ink: 0..1; 0 means 1 (a mouse) */
    float amount;   /* zoom by: the factor; scroll: view heights down (< 0: up); font: points */
    int page;       /* goto: 1-based */
    uint64_t id;    /* mouse, finger, ink: which pointer (0: one for each device) */
    double time;    /* seconds, the host's clock */
} pagecurl_input_event;

/* Does what `event` names, as the call it names does (each action above says which), and returns
 * what that call returns (true for a pointer's, which returns nothing). False, doing nothing, for
 * a NULL book or event, a .size less than sizeof(pagecurl_input_event) (a host's of a later header
 * may be larger), a device or action out of range or an action that is not the device's (a key
 * going down, a mouse going next). */
PAGECURL_API bool pagecurl_book_input(pagecurl_book *book, const pagecurl_input_event *event);

/* ---------------------------------------------------------------------------------------------
 * The host's camera. The book lies in a frame of its own: x across the spread (the spine on
 * x = 0, the right-hand page from 0 to 1, the left-hand one from -1 to 0: a page is 1 wide), y up
 * the page (its foot at 0, its head at the page's height, pagecurl_book_page_height), z towards
 * the reader (the top pages at 0, the blocks of pages below; a turning leaf rises to z = 1).
 * From the next update on the book is drawn through the host's `view_proj` (16 floats, a
 * column-major 4x4 matrix, as GLSL and cglm keep them: from that frame to Vulkan's clip space,
 * x right, y down, depth 0 near .. 1 far), in place of the library's framing, zoom and pan, and
 * pointer positions are read through it (the point of the book under the pointer); the shadow's
 * light stays the book's. NULL: the library frames the book again. False (nothing changes) for a
 * matrix with a value that is not finite, or one that cannot be inverted. */
PAGECURL_API bool pagecurl_book_set_camera(pagecurl_book *book, const float *view_proj);

/* A page's height in the book's frame (its width is 1): the shape its pages take. */
PAGECURL_API float pagecurl_book_page_height(const pagecurl_book *book);

/* ---------------------------------------------------------------------------------------------
 * State and events. */

typedef struct pagecurl_state {
    uint32_t size; /* sizeof(pagecurl_state): set by the caller */
    /* The pages lying open (0: none there), the settled spread; both 0: a book of an odd length
     * lies closed on its last leaf's blank back (spread page_count / 2 + 1). */
    int left, right;
    bool turning;                    /* a leaf is moving (held or settling) */
    bool held;                       /* a pointer holds it */
    int heading_left, heading_right; /* the spread the turn in flight is heading for (it may still
                                        fall back), and the turns queued behind it (thumbing
                                        through): left, right as above; the settled one idle */
    float progress;                  /* of the turn in flight, 0 flat .. 1 over */
    /* The picture changes with the clock alone: a leaf settles, after a turn the view eases
     * back to rest (face-on, the pages filling the viewport; up to half a second after
     * TURN_ENDED), a flick's pan coasts, the zoom eases to fit or the one-page view slides to
     * the spread's other page (`page`). A host that draws only when something changes keeps
     * drawing while it is set. */
    bool moving;
    /* The book binds on the right (pagecurl_book_desc.binding, or a PDF that reads right to left):
     * its pages move left to right, so a host's Left arrow is NEXT and its Right PREVIOUS. */
    bool bound_right;
    /* The page (1-based) a stroke is being drawn on now; 0: none. Added after bound_right: a .size
     * that ends before it leaves it unwritten. */
    int drawing;
    /* Added after drawing (a .size that ends before one of them leaves it and those after it
     * unwritten): */
    bool single;      /* one page is shown (the single layout, or auto in a portrait viewport) */
    bool streaming;   /* pages are being drawn: PAGE_READY events will follow */
    bool pages_ready; /* pages drawn and not shown yet: the next update takes them in */
    pagecurl_quality quality; /* the tier drawn with (AUTO resolved: LOW or HIGH, or REFERENCE) */
    /* Added after quality (a .size that ends before it leaves it unwritten): the page (1-based)
     * the reader is on, where the book heads. The one-page layout shows it at rest, and its
     * NEXT and PREVIOUS step one page: to the other side of the spread by a slide of the view,
     * to the next spread by a turn, whose leaf the view follows to the page it lands on (a
     * forward turn's left-hand page, the back of the leaf turned). A turn by hand, or a
     * spread's, puts the reader on the first page it uncovers (forward: the left-hand page;
     * back: the right-hand one); go to page, FIRST and LAST on theirs. 0: the book lies closed
     * on its last leaf's blank back. */
    int page;
    /* Added after page (a .size that ends before one of them leaves it and those after it
     * unwritten): a pose is held (pagecurl_book_hold; `turning` stays false, nothing moves), at
     * that progress (0 .. 1). */
    bool hold;
    float hold_progress;
} pagecurl_state;
PAGECURL_API void pagecurl_book_state(const pagecurl_book *book, pagecurl_state *out);

typedef enum pagecurl_event_type {
    /* A leaf lifts: pages `left`, `right` are the spread before. Each leaf has its own start and
     * end, those thumbed through in one flight too (one lands as the next lifts). */
    PAGECURL_EVENT_TURN_STARTED = 1,
    PAGECURL_EVENT_TURN_ENDED,     /* it lies down: `left`, `right` the spread it shows now */
    PAGECURL_EVENT_SPREAD_CHANGED, /* the settled spread is another: `left`, `right` */
    PAGECURL_EVENT_PAGE_READY,     /* page `page` is drawn (its draft, sharp, or in detail) and
                                      shows from the next frame */
    PAGECURL_EVENT_INK_CHANGED,    /* a stroke ended, a clear or an undo, on page `page` (0:
                                      too many pages to tell: any may have changed) */
    PAGECURL_EVENT_ERROR, /* `message` says what (a page that cannot be drawn: `page`; 0: the
                             built-in book's face is damaged, its pages set in a plainer one) */
} pagecurl_event_type;

typedef struct pagecurl_event {
    pagecurl_event_type type;
    bool forward;    /* TURN_*: the direction the turn started in (false: backward) */
    bool completed;  /* TURN_ENDED: turned over (false: fell back) */
    int left, right; /* pages, 0: none */
    int page;
    char message[256];
} pagecurl_event;

/* The oldest event not yet polled, false when there is none. Events are queued where they
 * happen (within pagecurl_book_pointer, pagecurl_book_action, pagecurl_book_go_to or the update
 * whose clock lands a leaf), so every leaf's start and end is told however seldom the host
 * updates: three quick turns between two updates are three pairs. INK_CHANGED comes for each page
 * whose ink changed since the last ones, at the update after the stroke ends (more than 32 pages:
 * the rest as one event of page 0, "any page may have"). Events the host does not poll are
 * dropped oldest first beyond 256. */
PAGECURL_API bool pagecurl_book_poll_event(pagecurl_book *book, pagecurl_event *out);

/* ---------------------------------------------------------------------------------------------
 * Frames. */

/* Where the book is drawn: a rectangle of the host's colour image. */
typedef struct pagecurl_target {
    uint32_t size;     /* sizeof(pagecurl_target) */
    VkImage image;     /* any colour format that takes blits; usage must include TRANSFER_DST
                          (drawn straight into with `keep`: COLOR_ATTACHMENT alone) */
    VkExtent2D extent; /* the whole image's */
    VkRect2D viewport; /* where the book goes; 0 x 0 means the whole image (one side 0: refused) */
    VkImageLayout layout;       /* the image's layout before the book's commands (UNDEFINED: its
                                   contents are discarded) ... */
    VkImageLayout final_layout; /* ... and after them (UNDEFINED: TRANSFER_DST_OPTIMAL) */
    /* the image's last use before the book's commands, which they wait for (0: all commands) */
    VkPipelineStageFlags2 src_stage;
    VkAccessFlags2 src_access;
    /* Added after src_access (a .size that ends before it means 0): the image's format; where it
     * is the book's (pagecurl_book_desc.target_format) the frame is copied in, not blitted. 0: not
     * said (blitted). */
    VkFormat format;
    /* Added after format (a .size that ends before it means VK_NULL_HANDLE and false): a view of
     * `image` (level 0, layer 0; usage COLOR_ATTACHMENT) in `format`, which must be the book's
     * target_format, with the book's target_samples a pixel. Given, the book draws straight into
     * the viewport with a depth buffer of its own (no image of the book's, no copy), cleared to
     * the book's backdrop first, or with `keep` drawn over what the host drew there: where no
     * paper lies its pixels stay, and the paper's edges blend over them. The image's final
     * layout is then COLOR_ATTACHMENT_OPTIMAL where final_layout says UNDEFINED. */
    VkImageView view;
    bool keep;
    /* Added after keep (a .size that ends before it means 0): a number the host changes whenever
     * it creates `image` or `view` anew (its swapchain remade: a count of remakes). The book keeps
     * the commands it records for a target drawn straight into (`view`) while image, view and
     * generation stay as they were; 0, the host not saying, records them afresh each frame: a
     * destroyed image's or view's handle may come back for the one made after it, and commands
     * kept for the old one would draw into freed memory. */
    uint64_t generation;
    /* Added after generation (a .size that ends before it means false and 0): where
     * `background_set`, the colour the book clears its viewport to around the pages, copied in or
     * drawn straight in without `keep` (refused with `keep` or `in_pass`): linear RGBA 0 .. 1, as a
     * VkClearColorValue for an sRGB image, alpha included (0: transparent; the paper's edges are
     * then blended over it premultiplied: colour times coverage, alpha the coverage). Else the
     * book's backdrop (60, 63, 72 in sRGB, opaque). */
    bool background_set;
    float background[4];
    /* Added after background (a .size that ends before it means false): the book draws into the
     * host's own dynamic rendering (the Dear ImGui model): pagecurl_book_record, outside any
     * render pass, records only what must come before it (the leaf's curl, the shadow map, the
     * ink), touching no image of the host's; then the host begins its rendering and
     * pagecurl_book_draw draws the pages into it. `image`, `view`, `layout`, `final_layout`,
     * `src_stage`, `src_access` and `format` are not read, `keep` is refused: where no paper
     * lies the host's pixels stay. The book needs target_depth_format. */
    bool in_pass;
} pagecurl_target;

/* Once a frame, before recording: advances the book to `time` (seconds on the host's clock,
 * never decreasing), takes in the pages drawn since, and readies what a frame of the target's
 * viewport size needs. Only the target's extent, viewport and whether it has a view are read here.
 * Submits uploads (the pages drawn, their ink) on the context's queue: the host must not be using
 * that queue from another thread meanwhile. The first updates, a new viewport size, a new tier
 * and the first update after the book's first stroke (its ink's layers made full: until then a
 * texel each) may create images and pipelines and wait for the queue; the steady state (turning
 * pages, zooming, pages streamed in) neither waits for the device nor allocates its memory. False
 * (with err) on a device failure, a viewport that is not within the image, or a view the book
 * cannot draw into (no target_samples, a format other than target_format). */
PAGECURL_API bool pagecurl_book_update(pagecurl_book *book, double time,
                                       const pagecurl_target *target, pagecurl_error *err);

/* Records the frame (the leaf's curl and normals, the shadow, the pages, then a copy into the
 * target's viewport, or the pages drawn straight into it: pagecurl_target.view; for a target
 * `in_pass`, only what comes before the host's pass, pagecurl_book_draw drawing in it) into
 * `cmd`, a primary command buffer the host has begun, outside any render pass: the book's own
 * commands as
 * a secondary command buffer of the slot's that `cmd` executes, recorded again only when what
 * they draw changes (a frame that only moves the leaf or the camera writes its values into the
 * slot's buffers; a target drawn straight into is part of what they draw), then the copy. Like any
 * vkCmdExecuteCommands, it leaves `cmd`'s bound pipeline, sets and dynamic state undefined.
 * `slot` (0 .. frames_in_flight - 1) picks the book's per-frame resources: the host records
 * a slot again only after the device has finished the command buffer it last recorded that slot
 * into (the host's fence for that frame). Nothing here waits, allocates or submits. The target
 * must be as the last pagecurl_book_update was given it (its viewport's size, its extent and
 * whether it has a view or is in_pass; drawn straight in, its viewport's place too: the book's
 * depth reaches the viewport's far corner).
 *
 * A second target in the same frame (a thumbnail, a minimap): recorded after the first, with the
 * same slot and no update between, a target whose viewport has another size gets the frame just
 * recorded, scaled to fill its viewport (filtered), as a copy from the book's own image: so the
 * first target is copied in (no view) and so is the second, and the second, executed after the
 * first, may be in the same command buffer or a later one. The book draws one picture a frame,
 * framed for the first viewport: a second viewport of another shape stretches it, so give it the
 * first's shape. (An update for the second viewport's size would make the book's images anew for
 * it, as for a resized window: between frames, never between a record and its submission.)
 *
 * False (with err, nothing recorded) for a target not as the update readied it, a second one that
 * cannot be copied, a slot out of range, no update yet, or a device failure. */
PAGECURL_API bool pagecurl_book_record(pagecurl_book *book, VkCommandBuffer cmd, uint32_t slot,
                                       const pagecurl_target *target, pagecurl_error *err);

/* Draws the frame pagecurl_book_record readied for an `in_pass` target into the host's dynamic
 * rendering begun in `cmd` (vkCmdBeginRendering with contents inline; `cmd` is the command buffer
 * record was given or one submitted after it, before the slot is recorded again): one colour
 * attachment in the book's target_format with target_samples a pixel (the host resolves), a
 * depth attachment in target_depth_format, no stencil attachment, a render area that holds the
 * viewport, no view mask. The target is the one given to record (its viewport the same).
 *
 * The book writes only within its viewport: it sets the viewport and scissor to it, clears the
 * depth there (vkCmdClearAttachments) and draws over the colour there, its paper's edges blended
 * over the host's pixels. It leaves `cmd` with its own graphics pipeline, descriptor set, push
 * constants and vertex and index buffers bound and the viewport, scissor and blend constants set
 * to its own: a host that draws after it in the same pass binds and sets its own again (as after
 * Dear ImGui's backend). It records no barrier and no layout transition. Once a record: a second
 * draw of the same frame is refused. Nothing here waits, allocates or submits. False (with err,
 * nothing recorded) for a target not in_pass, no frame of this slot readied by record since the
 * last draw and the last update, or another viewport. */
PAGECURL_API bool pagecurl_book_draw(pagecurl_book *book, VkCommandBuffer cmd, uint32_t slot,
                                     const pagecurl_target *target, pagecurl_error *err);

/* The stage times of the last frame the device finished, as far as the library knows it done: a
 * host's frame once its slot is recorded again (pagecurl_book_record), a frame of the book's
 * own once the next one waits for it. The book needs `timed`. */
#define PAGECURL_MAX_STAGES 16
typedef struct pagecurl_frame_times {
    uint32_t size;        /* sizeof(pagecurl_frame_times): set by the caller */
    uint64_t frame;       /* which: 0 for the book's first frame, recorded or rendered */
    uint32_t stage_count; /* the stages that ran, in their order */
    const char *names[PAGECURL_MAX_STAGES]; /* static strings: "fused_deform", "render", ... */
    double ms[PAGECURL_MAX_STAGES];         /* device time of each, in milliseconds */
    double total_ms;                        /* their sum: the frame's device time */
} pagecurl_frame_times;
/* False where no timed frame has finished yet (or the book is not timed). */
PAGECURL_API bool pagecurl_book_frame_times(const pagecurl_book *book, pagecurl_frame_times *out);

/* ---------------------------------------------------------------------------------------------
 * Frames the library draws itself, for a host with none of its own (a still, a thumbnail, a
 * program run without a window). A book draws either into the host's frames
 * (pagecurl_book_update and pagecurl_book_record) or by pagecurl_book_render: whichever it is
 * asked for first. */

typedef struct pagecurl_render_desc {
    uint32_t size;          /* sizeof(pagecurl_render_desc) */
    uint32_t width, height; /* the picture, in pixels; the same for every frame of a book */
    /* Also read the turning leaf's mesh back (pagecurl_book_leaf); the book needs
     * leaf_readback. */
    bool read_leaf;
} pagecurl_render_desc;

/* Draws a frame at `time` (pagecurl_book_update's work, then the frame) into an image of the
 * library's own and, with `rgba`, copies it there (width x height RGBA8 pixels, sRGB, rows top
 * to bottom, 4 * width bytes a row) once the device has drawn it. Without `rgba` the frame is
 * drawn without waiting for it (the frames before one that is kept). False (with err) for a
 * size out of range or another than the book's first, or on a device failure. */
PAGECURL_API bool pagecurl_book_render(pagecurl_book *book, double time,
                                       const pagecurl_render_desc *desc, uint8_t *rgba,
                                       pagecurl_error *err);

/* The turning leaf's mesh as the last pagecurl_book_render that read it drew it, in the leaf's
 * own frame (spine x = 0, the free edge at x = width; y up; z off the page towards the reader;
 * a backward turn mirrored). Valid until the next render or update. */
typedef struct pagecurl_leaf {
    uint32_t size;          /* sizeof(pagecurl_leaf): set by the caller */
    uint32_t columns, rows; /* vertices across and up the leaf, row by row */
    float width, height;    /* the leaf's size in the mesh's units */
    uint32_t vertex_count, triangle_count;
    /* vertex_count x 8 floats: position xyz, unit normal xyz (the front's), the page's uv */
    const float *vertices;
    const uint32_t *indices; /* triangle_count x 3 vertex indices, counter-clockwise in front */
} pagecurl_leaf;

/* False where no render has read the leaf. */
PAGECURL_API bool pagecurl_book_leaf(const pagecurl_book *book, pagecurl_leaf *out);

/* ---------------------------------------------------------------------------------------------
 * The book's files. */

/* What the book is: where it was read from and its own identity, for a host that keeps files
 * of its own about it (a notebook of its ink) and checks that it is given the same book again. */
typedef struct pagecurl_book_identity {
    uint32_t size;   /* sizeof(pagecurl_book_identity): set by the caller */
    char path[4096]; /* the book's absolute path; "" for the built-in book or a host's pages */
    char id[128];    /* the book's own identity (a PDF's /ID, else a digest of its pages' files);
                        "" where it has none */
    bool repaired;   /* the file was damaged and is read as far as it goes (a PDF cut short,
                        whose cross-reference was rebuilt): pages may be missing or blank */
    /* the identity of its text whatever its layout: a reflowable book's `id` without the page
       count of the layout it is laid out to (what a place kept by pagecurl_book_text_place is
       kept under); else `id` */
    char text_id[128];
} pagecurl_book_identity;
PAGECURL_API void pagecurl_book_identity_of(const pagecurl_book *book, pagecurl_book_identity *out);

/* Whether writing `path` would write into the book: it is the book's file, one of its pages, or
 * a new page of a folder the book is read from. A host checks its outputs with it. */
PAGECURL_API bool pagecurl_book_holds(const pagecurl_book *book, const char *path);

#ifdef __cplusplus
}
#endif

#endif
