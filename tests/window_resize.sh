#!/bin/sh
# SPDX-License-Identifier: MIT
# Resize storm, run under xvfb-run: while the page is held mid-drag, the window is resized 200
# times (down to a sliver and back); pagecurl must keep running, quit on Escape with exit 0, and
# the validation layer (on) must stay silent, which the exit status also says. Then past what
# can be drawn: 20000 wide (past lavapipe's 16384 a side, where no swapchain may be made),
# 16000x16000 and 65535x65535 (past 8K's pixels: gigabytes of images) show nothing, said in one
# line, and the session goes on; 16384x1500 (past the pixels the book is drawn with) is drawn
# smaller and scaled up, and a key turns the page there; the peak memory stays under 1.5 GB.
set -u
exe=$1
name=window_resize
. "$(dirname "$0")/window_lib.sh"
err="${TMPDIR:-/tmp}/window_resize_$$.err"
window_start "$exe" --validation --size 640x400 2>"$err"
first="${TMPDIR:-/tmp}/window_resize_$$.png" # the storm starts once the window draws
wait_drawn "$first" || { kill "$pid"; exit 1; }
rm -f "$first"
xdotool mousemove --window "$win" 395 318 mousedown 1
i=0
while [ $i -lt 200 ]; do
    w=$((200 + (i * 37) % 700))
    h=$((1 + (i * 53) % 500)) # down to one pixel high: an all but empty drawable
    xdotool windowsize "$win" "$w" "$h" 2>/dev/null
    xdotool mousemove --window "$win" $((w / 2)) $((h / 2)) 2>/dev/null
    i=$((i + 1))
done
xdotool mouseup 1
xdotool windowsize "$win" 640 400
sleep 0.5
if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    echo "window_resize: pagecurl died during the storm (exit $?)" >&2
    exit 1
fi

fail() {
    echo "$name: $*: $(cat "$err")" >&2
    kill "$pid" 2>/dev/null
    exit 1
}
# huge W H: the window made W x H, its centre on the screen's (1600x1000).
huge() {
    xdotool windowsize "$win" "$1" "$2"
    xdotool windowmove "$win" $((800 - $1 / 2)) $((500 - $2 / 2))
}
# said: pagecurl has said the window is too large to draw in.
said() {
    grep -q 'more than it can be drawn at' "$err"
}
# shown FILE: the middle of the screen (the window may be larger than the screen, which
# `import -window` cannot capture).
shown() {
    timeout 10 import -window root -crop 800x500+400+250 "$1" 2>/dev/null
}
# turned REF FILE: the middle of the screen differs from REF.
turned() {
    shown "$2" && [ "$(differ "$1" "$2")" -gt 2000 ]
}
tmp="${TMPDIR:-/tmp}/window_resize_$$"
huge 20000 900
poll 30 said || fail "20000 px wide: not said"
running || fail "20000 px wide: pagecurl died"
huge 16000 16000
huge 65535 65535
xdotool key --window "$win" Right # turned while nothing is drawn
sleep 1
running || fail "65535x65535: pagecurl died"
[ "$(grep -c 'more than it can be drawn at' "$err")" -eq 1 ] || fail "said more than once"
huge 16384 1500
# at_rest: drawn at its new size and at rest (the turn pressed at 65535x65535 included): the middle
# of the screen the same before and after half a second in which pagecurl used no CPU time (a tick
# at most: its idle loop wakes every 0.1 s), and not black. A starved lavapipe takes seconds to make
# the swapchain and the book's image for 16384x1500 and seconds a frame: two captures a second
# apart can show one picture mid-turn, but pagecurl is drawing then. 180 s catches a hang.
at_rest() {
    shown "$tmp-before.png" || return 1
    before=$(cpu_ticks)
    sleep 0.5
    shown "$tmp-again.png" || return 1
    after=$(cpu_ticks)
    [ -n "$before" ] && [ -n "$after" ] && [ "$((after - before))" -le 1 ] &&
        [ "$(differ "$tmp-before.png" "$tmp-again.png")" -eq 0 ] &&
        [ "$(convert "$tmp-before.png" -format '%[max]' info: 2>/dev/null)" != "0" ]
}
poll 180 at_rest || fail "16384x1500: never drawn at rest"
rm -f "$tmp-again.png"
xdotool key --window "$win" Right
poll 180 turned "$tmp-before.png" "$tmp-after.png" || fail "16384x1500: Right drew nothing"
peak=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
rm -f "$tmp-before.png" "$tmp-after.png"
[ "$peak" -lt $((1536 * 1024)) ] || fail "peak memory $((peak / 1024)) MiB"
huge 640 400
window_quit
[ "$status" -eq 0 ] || fail "exit $status"
[ "$(wc -l <"$err")" -eq 1 ] || fail "more than the one line"
rm -f "$err"
echo "window_resize: 200 resizes, then 20000 wide, 65535 x 65535 and 16384x1500; peak" \
    "$((peak / 1024)) MiB; pagecurl exited with $status"
exit "$status"
