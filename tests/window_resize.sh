#!/bin/sh
# SPDX-License-Identifier: MIT
# Resize storm, run under xvfb-run: while the page is held mid-drag, the window is resized 200
# times (down to a sliver and back); pagecurl must keep running, quit on Escape with exit 0, and
# the validation layer (on) must stay silent, which the exit status also says.
set -u
exe=$1
name=window_resize
. "$(dirname "$0")/window_lib.sh"
window_start "$exe" --validation --size 640x400
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
window_quit
echo "window_resize: 200 resizes, pagecurl exited with $status"
exit "$status"
