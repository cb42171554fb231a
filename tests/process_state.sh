#!/bin/sh
# SPDX-License-Identifier: MIT
# libpagecurl has no state of the process's (issue 51, any number of contexts): every object in
# its writable data (.data, .bss) is one the toolchain or a packaged header puts there, each
# named below with why it is harmless; anything else (volk's function pointers were 600 of
# them, a context count under a lock another) fails, naming it. Read-only-after-relocation data
# (.data.rel.ro: tables of pointers to constants) is not writable once loaded.
#
# sh tests/process_state.sh LIBRARY
#   LIBRARY: libpagecurl.so
set -u
lib=$1
# completed.0, __dso_handle, __TMC_END__: crtstuff's, the shared object's own start and end;
# stb_easy_font_hseg, _vseg: stb_easy_font.h's glyph segment tables, declared without const in
# the package's header and only read (the built-in book's fallback font).
allowed='^(completed\.0|__dso_handle|__TMC_END__|stb_easy_font_hseg|stb_easy_font_vseg)$'
objects=$(objdump -t "$lib" | awk '$4 == ".data" || $4 == ".bss" {print $NF}')
[ -n "$objects" ] || { echo "process_state: no objects read from $lib" >&2; exit 1; }
others=$(echo "$objects" | grep -v -E "$allowed" | sort)
if [ -n "$others" ]; then
    count=$(echo "$others" | wc -l)
    echo "process_state: $lib has $count writable objects of the process's:" \
        "$(echo "$others" | head -n 8 | tr '\n' ' ')" >&2
    exit 1
fi
echo "process_state: $(echo "$objects" | wc -l) writable objects, each allowed: $(echo $objects)"
