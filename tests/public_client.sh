#!/bin/sh
# SPDX-License-Identifier: MIT
# The modes that are clients of libpagecurl reach the book only through its public header and the
# program's own entry points (book/pagecurl_program.h, exported, not installed): none of their
# files includes another header of the library's folders (book/, files/, gpu/, mesh/, pages/,
# shaders/) or calls one of the library's internal functions (a name its headers give). Prints
# each finding and fails; with no arguments checks headless mode and the window (its loop, input,
# HUD, title line, page field, swapchain, overlay and screenshots, and what both modes share of
# the book's use).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# with no arguments the check first checks itself: the program's header allowed, another refused
tmp=$(mktemp -d)
calls_of=$tmp/calls
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
    printf '#include "../book/pagecurl_program.h"\n' > "$tmp/ok.c"
    printf '#include "../book/pagecurl_program.h"\n#include "../book/pagecurl_internal.h"\n' > "$tmp/bad.c"
    sh "$0" "$tmp/ok.c" > /dev/null || { echo "public_client: the program's header refused"; exit 1; }
    if sh "$0" "$tmp/bad.c" > /dev/null; then
        echo "public_client: an internal header beside the program's allowed"
        exit 1
    fi
fi
# ... and the installed header declares none of the program's entry points
if [ $# -eq 0 ]; then
    for fn in $(sed -n 's/^PAGECURL_API[^(]*[ *]\(pagecurl_[a-z0-9_]*\)(.*/\1/p' book/pagecurl_program.h); do
        if grep -q "\b$fn\b" include/pagecurl/pagecurl.h; then
            echo "public_client: include/pagecurl/pagecurl.h names $fn, the program's (book/pagecurl_program.h)"
            exit 1
        fi
    done
fi
[ $# -gt 0 ] || set -- app/headless.c app/headless.h app/window.c app/window.h \
    app/window_input.c app/window_input.h app/hud.c app/hud.h app/where.c app/where.h \
    app/page_field.c app/page_field.h app/swapchain.c app/swapchain.h app/overlay.c \
    app/overlay.h app/screenshot.c app/screenshot.h app/vulkan.c app/vulkan.h \
    app/trace.h app/trace_apply.c app/trace_apply.h app/library_book.c app/library_book.h
# the one header of the library's a client may include besides the public one
allowed='^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./book/pagecurl_program\.h"'
# the library's internal functions: every name with a folder's prefix its headers declare or call
cat book/*.h files/*.h gpu/*.h mesh/*.h pages/*.h |
    grep -ohE '\b(gpu|mesh|book|files|pages|page)_[a-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:]]*($//' |
    sort -u | sed 's/.*/\\b&[[:space:]]*\\(/' > "$calls_of"
[ -s "$calls_of" ] || { echo "public_client: no function of the library's found"; exit 1; }
bad=0
for f in "$@"; do
    inc=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./(book|files|gpu|mesh|pages|shaders)/' "$f" |
        grep -vE "$allowed" || true)
    calls=$(grep -nEf "$calls_of" "$f" || true)
    if [ -n "$inc" ]; then
        printf '%s: includes an internal header:\n%s\n' "$f" "$inc"
        bad=1
    fi
    if [ -n "$calls" ]; then
        printf '%s: calls an internal function:\n%s\n' "$f" "$calls"
        bad=1
    fi
done
exit $bad
