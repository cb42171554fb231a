#!/bin/sh
# The modes that are clients of libpagecurl reach the book only through its public header: none of
# their files includes a header of the library's folders (book/, gpu/, mesh/, pages/, shaders/)
# or calls one of the library's internal functions by its prefix. Prints each finding and fails;
# with no arguments checks headless mode.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ $# -gt 0 ] || set -- app/headless.c app/headless.h
bad=0
for f in "$@"; do
    inc=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./(book|gpu|mesh|pages|shaders)/' "$f" || true)
    calls=$(grep -nE '\b(gpu|mesh|app_book|app_view|app_page|app_ink_texture|app_zoom|app_camera|app_pool)_[a-z0-9_]+[[:space:]]*\(' "$f" || true)
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
