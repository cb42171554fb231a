/* SPDX-License-Identifier: MIT */
/* The public header on its own: compiled as C99 and as C++ by the header_c99 and header_cxx
 * tests, so a declaration only C11 or only C accepts fails them. */
#include <pagecurl/pagecurl.h>

#include <string.h>

int pagecurl_header_check(void);
int pagecurl_header_check(void)
{
    pagecurl_book_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.size = sizeof desc;
    desc.binding = PAGECURL_BINDING_RIGHT;
    return (int)desc.size + PAGECURL_VERSION_MAJOR;
}
