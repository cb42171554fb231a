#!/bin/sh
# SPDX-License-Identifier: MIT
# A book opened to legible text, pagecurl beside mupdf, timed alike off the X screen
# (tools/open_bench.c: from the exec to the first reading of the root window that holds half of
# the print the viewer shows once at rest, then 90 % of it, sharp; the viewer's CPU time until
# then and until at rest).
# Each run starts its own Xvfb, the viewers in turn. Needs xvfb-run, the build, and mupdf for
# its line.
#   tools/open-bench.sh [-r RUNS] [-s WxH] BOOK [PAGECURL...]
# PAGECURL defaults to build/default/app/pagecurl (more than one: other builds, in turn); mupdf
# draws at the dpi that fits a letter page's height to the screen, as pagecurl's spread does.
set -eu
cd "$(dirname "$0")/.."
runs=3 size=1920x1080
while getopts r:s: opt; do
    case $opt in
    r) runs=$OPTARG ;;
    s) size=$OPTARG ;;
    *) sed -n '2,11p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,11p' "$0" >&2; exit 2; }
book=$1
shift
[ $# -ge 1 ] || set -- build/default/app/pagecurl
bench=build/default/tools/open_bench
for e in "$bench" "$@"; do
    [ -x "$e" ] || { echo "open-bench.sh: no $e: build first" >&2; exit 1; }
done
[ -r "$book" ] || { echo "open-bench.sh: cannot read $book" >&2; exit 1; }
height=${size#*x}
dpi=$((height * 96 / 100 / 11))
echo "load $(cut -d' ' -f1-3 /proc/loadavg); $size; $book"
i=0
while [ "$i" -lt "$runs" ]; do
    i=$((i + 1))
    for exe in "$@"; do
        printf '%s: ' "$exe"
        xvfb-run -a -s "-screen 0 ${size}x24" "$bench" "$exe" --size "$size" --no-remember \
            "$book" || echo "failed"
    done
    if command -v mupdf > /dev/null; then
        printf 'mupdf -r %s: ' "$dpi"
        xvfb-run -a -s "-screen 0 ${size}x24" "$bench" mupdf -r "$dpi" "$book" || echo "failed"
    fi
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
