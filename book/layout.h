/* How a book lies open, as plain data (no Vulkan): the command line and the library's description
 * pick it, the book frames its pages by it. */
#ifndef PAGECURL_BOOK_LAYOUT_H
#define PAGECURL_BOOK_LAYOUT_H

typedef enum AppLayout {
    APP_LAYOUT_AUTO = 0, /* the spread, or one page where the view is taller than wide */
    APP_LAYOUT_SPREAD,
    APP_LAYOUT_SINGLE, /* one page: the spread's side the reader is on */
} AppLayout;

#endif
