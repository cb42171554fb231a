#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 50's "fast and lean" figures (BENCHMARKS.md): a book opened headless at 1920x1080 to its
# first page's print on screen, and at a page deep in it, as CPU time (user + sys of pagecurl and
# its page helper, which it reaps), and both processes' peak resident memory (VmHWM, /proc sampled
# every 20 ms). The builds named are run in turn, round after round, so that a loaded machine's
# changes fall on each alike; every figure is a median over the rounds.
#
# tools/bench-lean.sh BOOK DEEP_PAGE ROUNDS PAGECURL [PAGECURL...]
set -eu
book=$1 deep=$2 rounds=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# CPU seconds (user + sys, children reaped included) of one headless run at page $2 of build $1
# (the shell's `times`, whose second line is its children's: no /usr/bin/time needed, which the
# GPU machine lacks)
cpu() {
    (
        "$1" --headless --book "$book" --page "$2" --curl 0 --size 1920x1080 --frames 1 \
            --screenshot "$out/shot.png" >/dev/null 2>&1 || true
        times
    ) | tail -n 1 | awk '{ split($1, u, "m"); split($2, s, "m")
                          printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

# "host helper" peak resident KiB of one headless run of build $1 (30 frames at page 7)
peak() {
    "$1" --headless --book "$book" --page 7 --size 1920x1080 --frames 30 >/dev/null 2>&1 &
    pid=$!
    host=0 helper=0
    while kill -0 "$pid" 2>/dev/null; do
        h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0)
        [ "${h:-0}" -gt "$host" ] && host=$h
        for c in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
            k=$(awk '/^VmHWM:/ { print $2 }' "/proc/$c/status" 2>/dev/null || echo 0)
            [ "${k:-0}" -gt "$helper" ] && helper=$k
        done
        sleep 0.02
    done
    wait "$pid" || true
    echo "$host $helper"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

r=1
while [ "$r" -le "$rounds" ]; do
    i=0
    for pc in "$@"; do
        cpu "$pc" 1 >>"$out/open.$i"
        cpu "$pc" "$deep" >>"$out/deep.$i"
        peak "$pc" >>"$out/peak.$i"
        i=$((i + 1))
    done
    r=$((r + 1))
done
i=0
for pc in "$@"; do
    printf '%s: open to page 1 %s s CPU, to page %s %s s CPU; peak RSS host %s MB, helper %s MB (medians of %s; load %s)\n' \
        "$pc" "$(median <"$out/open.$i")" "$deep" "$(median <"$out/deep.$i")" \
        "$(cut -d' ' -f1 "$out/peak.$i" | median | awk '{ printf "%.1f", $1 / 1024 }')" \
        "$(cut -d' ' -f2 "$out/peak.$i" | median | awk '{ printf "%.1f", $1 / 1024 }')" \
        "$rounds" "$(cut -d' ' -f1 /proc/loadavg)"
    i=$((i + 1))
done
