#!/bin/sh
# SPDX-License-Identifier: MIT
# A swapchain found out of date, run under xvfb-run (whose X server never reports it, where
# Wayland and Windows do at every resize): PAGECURL_FAULT=acquire:N makes the Nth image acquire,
# and every one after it until the swapchain is rebuilt, report VK_ERROR_OUT_OF_DATE_KHR. A
# session under validation turns pages and resizes the window through it: it must say the fault
# came, stay silent otherwise (0 validation messages, exit 0) and end on the same exit screenshot
# as the same session without the fault. Malformed values are refused: one line, exit 2.
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_acquire
. "$(dirname "$0")/window_lib.sh"
fail() { echo "$name: $*" >&2; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; exit 1; }

for bad in acquire acquire:0 acquire:3x acquire:4294967296; do
    PAGECURL_FAULT=$bad timeout 60 "$exe" --frames 1 > "$out/bad.txt" 2>&1
    rc=$?
    [ "$rc" -eq 2 ] || fail "PAGECURL_FAULT=$bad: exit $rc, want 2: $(cat "$out/bad.txt")"
    [ "$(wc -l < "$out/bad.txt")" -eq 1 ] || fail "PAGECURL_FAULT=$bad: not one line: $(cat "$out/bad.txt")"
    grep -q "^pagecurl: PAGECURL_FAULT=$bad: " "$out/bad.txt" ||
        fail "PAGECURL_FAULT=$bad: the line does not name it: $(cat "$out/bad.txt")"
done
pid=

# key KEY: presses it, then waits for the window to change and settle.
key() {
    capture "$out/key-before.png" || fail "no capture"
    xdotool key --window "$win" "$1"
    wait_changed "$out/key-before.png" "$out/key-after.png" 50 || fail "$1 changed nothing"
    wait_settled "$out/key-after.png" || fail "$1 never settled"
}

# resize W H: resizes the window and waits for it to settle at that size.
resize() {
    xdotool windowsize "$win" "$1" "$2"
    wait_settled "$out/resized.png" || fail "the window never settled at $1x$2"
}

# session FAULT SHOT: the session, PAGECURL_FAULT=FAULT (empty: none), its exit screenshot SHOT;
# its stderr in $out/stderr.txt. Through a swapchain (`--present-mode fifo`): on lavapipe the
# window otherwise shows its frames through X's shared memory, with no swapchain to be out of
# date, and this is the test that keeps the swapchain's way drawn under validation.
session() {
    window_start env PAGECURL_FAULT="$1" "$exe" --validation --size 640x400 --msaa 1 \
        --present-mode fifo --screenshot "$2" 2> "$out/stderr.txt"
    wait_drawn "$out/start.png" || fail "no frame: $(cat "$out/stderr.txt")"
    key Right
    resize 500 360
    key Right
    resize 820 300
    key Left
    resize 640 400
    window_quit
    [ "$status" -eq 0 ] || fail "PAGECURL_FAULT=$1: exit $status: $(cat "$out/stderr.txt")"
    ! grep -q validation "$out/stderr.txt" || fail "PAGECURL_FAULT=$1: $(cat "$out/stderr.txt")"
}

rm -f "$out/fault.png" "$out/clean.png"
# the 8th acquire: after the frames of the start (a handful), in the first turn or the resize
# after it (the session draws 16 frames where a busy machine starves it, 30 or more on an idle
# one: a turn's frames follow the clock)
session acquire:8 "$out/fault.png"
grep -q '^pagecurl: PAGECURL_FAULT: acquire 8 reports the swapchain out of date$' \
    "$out/stderr.txt" || fail "the fault never came: $(cat "$out/stderr.txt")"
session "" "$out/clean.png"
! grep -q PAGECURL_FAULT "$out/stderr.txt" || fail "a fault without PAGECURL_FAULT"
differ=$(compare -metric AE "$out/fault.png" "$out/clean.png" null: 2>&1)
echo "$name: the exit screenshots with and without the fault differ in $differ pixels"
[ "$differ" = 0 ] || fail "the session through the fault ended elsewhere"
echo "$name: ok"
