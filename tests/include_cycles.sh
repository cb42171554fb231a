#!/bin/sh
# SPDX-License-Identifier: MIT
# No two parts of the code depend on each other (and no library folder names a thing with the
# program's app_ prefix, and libpagecurl's public functions hold no book logic): a module (a .c/.h pair, named by its path
# without the extension) that includes another's header, directly or through others, must not be
# included back by it. Prints each cycle found and fails; with no arguments checks the source
# folders of the repository it lives in.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# The folders' layers (docs/architecture.md), checked on the repository's own sources: files/ is
# the bottom (inputs read, outputs written safely: nothing of another folder's, no Vulkan), mesh/
# is geometry (no Vulkan, nothing above it), pages/ is where pages come from (no Vulkan: the
# renderer of a book's pages is book/'s), gpu/ knows no book, pages or program, and no folder of
# the library's includes bench/ (the benchmark's own, built into the program alone) or the
# program. A FOLDER: PATTERN line is an include that folder must not have.
if [ $# -eq 0 ]; then
    bad=0
    while read -r folder pattern; do
        hits=$(grep -En "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" \
            "${folder%:}"/*.c "${folder%:}"/*.h || true)
        if [ -n "$hits" ]; then
            printf 'layering: %s includes what it must not (%s):\n%s\n' "${folder%:}" "$pattern" "$hits"
            bad=1
        fi
    done <<'RULES'
files: vulkan/|volk|SDL|\.\./
mesh: vulkan/|volk|\.\./(gpu|book|pages|app|bench)/
pages: vulkan/|volk|\.\./(gpu|book|app|bench)/
gpu: \.\./(book|pages|app|bench)/
book: \.\./(app|bench)/
bench: \.\./app/
RULES
    # Each concern in the folder named for it (issue 53 item 13): the file utilities are files/'s,
    # not pages/'s
    for f in pages/file.c pages/file.h pages/safe_write.c pages/safe_write.h; do
        if [ -e "$f" ]; then
            printf 'layering: %s is back; files/ holds the file utilities (input, safe_write)\n' "$f"
            bad=1
        fi
    done
    hits=$(grep -nE '\b(pages_file_|pages_safe_write|Pages(FileRead|SafeWrite|WriteFn)\b|PAGES_FILE_(OK|TOO_LARGE|NO_MEMORY|ERROR)\b)' \
        app/*.[ch] bench/*.[ch] book/*.[ch] files/*.[ch] gpu/*.[ch] helper/*.[ch] mesh/*.[ch] \
        pages/*.[ch] tests/*.c || true)
    if [ -n "$hits" ]; then
        printf 'naming: the file utilities'"'"' old pages_ names (files_ now):\n%s\n' "$hits"
        bad=1
    fi
    # Names say what things are (issue 53): the program's app_/App/APP_ prefix, and its
    # PAGECURL_APP_ header guards, only in app/ (the library's folders name theirs after themselves)
    hits=$(grep -nE '\b(app_|App[A-Z]|APP_|PAGECURL_APP_)[A-Za-z0-9_]*' book/*.[ch] gpu/*.[ch] bench/*.[ch] \
        files/*.[ch] mesh/*.[ch] pages/*.[ch] helper/*.[ch] shaders/*.h || true)
    if [ -n "$hits" ]; then
        printf 'naming: the program'"'"'s app_ prefix outside app/:\n%s\n' "$hits"
        bad=1
    fi
    # "page" is a page number, from 1 (issue 53 item 11): a 0-based index of a page side is a
    # side (MeshInkSide, MESH_INK_MAX_SIDES, BookHit.side), the leaf's grid a MeshGrid
    hits=$( (grep -nE '\b(MeshInkPage|MESH_INK_MAX_PAGES|PageGrid[A-Za-z]*|BookLinksPage|BOOK_EVENTS_INK_PAGES|ink_pages)\b' \
        mesh/*.[ch] book/*.[ch] pages/*.[ch] gpu/*.[ch] app/*.[ch] bench/*.[ch] tests/*.c
        grep -nwE 'page|pages' mesh/*.[ch] book/*.[ch] pages/*.[ch] gpu/*.[ch] app/*.[ch] |
            grep -i '0-based') || true)
    if [ -n "$hits" ]; then
        printf 'naming: "page" for a 0-based side (side = page - 1):\n%s\n' "$hits"
        bad=1
    fi
    # A frame in flight's objects in one struct per owner (issue 53): an array with an element
    # per frame in flight is a `slots` array of slot structs (BookFrameSlot, GpuLeafSlot,
    # GpuInkSlot, AppFrameSlot), never a member array of its own beside others
    hits=$(grep -nE '\[ *(GPU_FRAMES_IN_FLIGHT|PC_FRAMES_IN_FLIGHT|APP_VK_FRAMES)\b' book/*.h \
        gpu/*.h app/*.h | grep -vE '\bslots\[ *(GPU_FRAMES_IN_FLIGHT|APP_VK_FRAMES) *\];' || true)
    if [ -n "$hits" ]; then
        printf 'frame slots: a per-frame-in-flight array outside a slots[] of slot structs:\n%s\n' \
            "$hits"
        bad=1
    fi
    # The facade only checks a host's arguments and converts its types (issue 53 item 10): the
    # files of the public functions call none of the parts that move a book (the flip, reader,
    # zoom, pose, picking, view, stream, leaf, ink, or Vulkan commands); book/open_book.c does
    hits=$(grep -nE '\b(mesh_(flip|ink_(undo|stroke_(add|end)|grow|init))|book_(apply_input|camera|fit_rect|leaf|one_page|outline|pick|pose|reader|settle_zoom|spread|stream|turn_pose|view|zoom)|gpu_(barriers|buffer|label|offscreen|queue))[a-z0-9_]*[[:space:]]*\(' \
        book/pagecurl.c book/pagecurl_text.c book/context.c || true)
    if [ -n "$hits" ]; then
        printf 'facade: book logic in the public functions (book/open_book.c is its place):\n%s\n' "$hits"
        bad=1
    fi
    # ... nor sets the book's state itself: a setting goes through book/open_book.h's setters
    hits=$(grep -nE '\bb->open->[a-z_.]+[[:space:]]*(=[^=]|\+=|-=|\+\+|--)' book/pagecurl.c \
        book/pagecurl_text.c book/context.c || true)
    if [ -n "$hits" ]; then
        printf 'facade: the book open'"'"'s state set in the public functions:\n%s\n' "$hits"
        bad=1
    fi
    [ "$bad" -eq 0 ] || exit 1
fi
[ $# -gt 0 ] || set -- app bench book files gpu helper mesh pages include/pagecurl
# "from to" lines: module from includes module to (paths made relative to the root)
find "$@" -maxdepth 1 \( -name '*.c' -o -name '*.h' \) | sort | while read -r f; do
    dir=$(dirname "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r inc; do
            printf '%s %s/%s\n' "${f%.*}" "$dir" "${inc%.*}"
        done
done | awk '
function norm(p,   n, i, parts, out, k) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = parts[i]
    }
    p = out[1]; for (i = 2; i <= k; i++) p = p "/" out[i]
    return p
}
function visit(m,   i, t) {
    state[m] = 1; stack[++depth] = m
    for (i = 1; i <= deg[m]; i++) {
        t = adj[m, i]
        if (state[t] == 1) {
            path = t; for (j = depth; j >= 1 && stack[j] != t; j--) path = stack[j] " -> " path
            print "include cycle: " t " -> " path; bad = 1
        } else if (state[t] == 0) visit(t)
    }
    depth--; state[m] = 2
}
{
    from = norm($1); to = norm($2)
    if (from == to || seen[from, to]++) next
    adj[from, ++deg[from]] = to; mods[from] = 1; mods[to] = 1
}
END {
    for (m in mods) if (state[m] == 0) visit(m)
    exit bad
}'
