#!/bin/sh
# SPDX-License-Identifier: MIT
# Window smoke test, run under xvfb-run: start pagecurl in a real window with validation on (it
# shows the book's backdrop, not black, until its first frame), drag
# the page's free edge to the left with the mouse, draw a stroke with the right button, quit with
# Escape; expect exit status 0, a window whose picture changed with the drag (captured with
# ImageMagick's import) and the stroke in the trace and the notebook; the trace replayed onto
# the notebook it drew into is refused (its stroke would be drawn twice), onto a new one not.
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_smoke
. "$(dirname "$0")/window_lib.sh"
rm -f "$out/ink.json"
window_start "$exe" --validation --size 800x500 --record "$out/drag.trace" --notebook "$out/ink.json"
# Until its first frame (the device and the book take a second or more) the window shows the
# book's backdrop, never X's black: no capture before the first frame is all black.
blacks=0
first_frame() {
    capture "$1" || return 1
    if black "$1"; then
        blacks=$((blacks + 1))
        return 1
    fi
    is_drawn "$1"
}
poll 60 first_frame "$out/before.png" || { echo "window_smoke: no frame in 60 s" >&2; kill "$pid"; exit 1; }
[ "$blacks" -eq 0 ] ||
    { echo "window_smoke: the window was black before its first frame ($blacks captures)" >&2; kill "$pid"; exit 1; }
# The window draws on every core: lavapipe's rasteriser threads (named llvmpipe-N; none on a
# machine of one core), whose fence race the program closes (app/mutex_guard.c), are not turned
# off.
rasterisers=$(cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -c '^llvmpipe-')
[ "$(nproc)" -eq 1 ] || [ "$rasterisers" -gt 0 ] ||
    { echo "window_smoke: the window runs no lavapipe rasteriser threads on $(nproc) cores" >&2; kill "$pid"; exit 1; }
# ...and its frames go to the X server through shared memory on a thread of their own
# (app/shm_present.h), not through lavapipe's presentation, which waits on the window's thread:
# what the captures above and below see is what that thread put.
cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -qx 'pagecurl-shm' ||
    { echo "window_smoke: no thread shows the window's frames (pagecurl-shm)" >&2; kill "$pid"; exit 1; }
# Press near the bottom-right corner of the closed book's page (x 280 .. 520, y 101 .. 423 at
# rest) and drag past the spine; the view widens to the spread as the leaf turns.
xdotool mousemove --window "$win" 490 400 mousedown 1
for x in 450 400 350 300 250 200 150; do
    xdotool mousemove --window "$win" "$x" 400
    sleep 0.05
done
wait_changed "$out/before.png" "$out/during.png" # still held past the spine
xdotool mouseup 1
wait_settled "$out/after.png" # the released page settles in well under a second
xdotool key --window "$win" h # the HUD: frame time and GPU stage times over the page
wait_changed "$out/after.png" "$out/hud.png" 300
# A stroke with the right button across the right page (leaf 1's front, page 3, after the turn;
# the spread's right page: x 400 .. 640).
xdotool mousemove --window "$win" 450 250 mousedown 3
for x in 480 510 540 570 600; do
    xdotool mousemove --window "$win" "$x" 260
    sleep 0.05
done
xdotool mouseup 3
poll 60 grep -q '"page": 3' "$out/ink.json" # ink is saved as it is made
window_quit
echo "window_smoke: pagecurl exited with $status"
[ "$status" -eq 0 ] || exit "$status"
# Pixels that differ by more than 5 %: the turned page must have changed a good part of the window.
changed=$(compare -metric AE -fuzz 5% "$out/before.png" "$out/after.png" null: 2>&1)
echo "window_smoke: $changed pixels changed by the drag ($out/before.png, $out/after.png)"
case $changed in
    '' | *[!0-9]*) echo "window_smoke: compare failed: $changed" >&2; exit 1 ;;
esac
[ "$changed" -gt 20000 ] || { echo "window_smoke: the drag did not turn the page" >&2; exit 1; }

# Mid-drag the page was neither flat nor yet turned; H drew the HUD over the turned page.
during=$(compare -metric AE -fuzz 5% "$out/before.png" "$out/during.png" null: 2>&1)
hud=$(compare -metric AE -fuzz 5% "$out/after.png" "$out/hud.png" null: 2>&1)
echo "window_smoke: $during pixels changed mid-drag, $hud by the HUD"
case $during$hud in '' | *[!0-9]*) echo "window_smoke: compare failed" >&2; exit 1 ;; esac
[ "$during" -gt 20000 ] || { echo "window_smoke: the page did not follow the drag" >&2; exit 1; }
[ "$hud" -gt 300 ] || { echo "window_smoke: H showed no HUD" >&2; exit 1; }

# The stroke was recorded as ink and saved in the notebook on page 3.
grep -q ' ink down ' "$out/drag.trace" || { echo "window_smoke: no ink recorded" >&2; exit 1; }
grep -q '"page": 3' "$out/ink.json" || { echo "window_smoke: no stroke on page 3" >&2; exit 1; }

# The recorded trace, replayed headless, turns the page too: it differs from an untouched book.
grep -q ' mouse down ' "$out/drag.trace" || { echo "window_smoke: no drag recorded" >&2; exit 1; }
timeout 300 "$exe" --headless --size 800x500 --replay "$out/drag.trace" --screenshot "$out/replayed.png" \
    >/dev/null || exit 1
printf '' > "$out/empty.trace"
timeout 300 "$exe" --headless --size 800x500 --replay "$out/empty.trace" --screenshot "$out/untouched.png" \
    >/dev/null || exit 1
replayed=$(compare -metric AE -fuzz 5% "$out/untouched.png" "$out/replayed.png" null: 2>&1)
echo "window_smoke: the replayed trace changed $replayed pixels ($out/replayed.png)"
case $replayed in '' | *[!0-9]*) exit 1 ;; esac
[ "$replayed" -gt 20000 ] || { echo "window_smoke: the replay did not turn the page" >&2; exit 1; }

# The trace names the ink its session found (none: ink.json was new). Replayed onto ink.json,
# which holds the session's stroke now, it would draw it a second time: refused (exit 2, one
# line), the notebook and the screenshot untouched. Onto a new notebook, the ink as the session
# found it, it draws the stroke once.
grep -q '^0 notebook start [0-9a-f]\{16\}$' "$out/drag.trace" ||
    { echo "window_smoke: the trace does not name the notebook's ink" >&2; exit 1; }
cp "$out/ink.json" "$out/ink-kept.json"
rm -f "$out/again.png" "$out/fresh.json"
timeout 300 "$exe" --headless --size 800x500 --replay "$out/drag.trace" --notebook "$out/ink.json" \
    --screenshot "$out/again.png" > /dev/null 2> "$out/again.err"
again=$?
echo "window_smoke: replayed onto its own notebook: exit $again: $(cat "$out/again.err")"
[ "$again" -eq 2 ] && [ "$(wc -l < "$out/again.err")" -eq 1 ] &&
    grep -q 'recorded on a new notebook, and .* holds ink' "$out/again.err" ||
    { echo "window_smoke: a replay onto its own notebook was not refused" >&2; exit 1; }
cmp -s "$out/ink.json" "$out/ink-kept.json" && [ ! -e "$out/again.png" ] ||
    { echo "window_smoke: the refused replay changed the notebook or wrote its screenshot" >&2; exit 1; }
timeout 300 "$exe" --headless --size 800x500 --replay "$out/drag.trace" --notebook "$out/fresh.json" \
    > /dev/null || { echo "window_smoke: the replay onto a new notebook failed" >&2; exit 1; }
strokes() { grep -c '^  \[\[' "$1"; }
echo "window_smoke: $(strokes "$out/ink.json") stroke(s) recorded, $(strokes "$out/fresh.json") replayed onto a new notebook"
[ "$(strokes "$out/fresh.json")" -eq "$(strokes "$out/ink.json")" ] ||
    { echo "window_smoke: the replay onto a new notebook drew other strokes" >&2; exit 1; }

# What the window shows at rest is the frame drawn, pixel for pixel: the capture of the X window
# (what app/shm_present.c put through shared memory) against the session's exit screenshot (a copy
# of the same image drawn again at exit, read back through Vulkan), 0 pixels apart.
window_start "$exe" --size 320x200 --screenshot "$out/exit.png"
wait_drawn "$out/rest.png" || { echo "window_smoke: no frame at 320x200" >&2; kill "$pid"; exit 1; }
wait_settled "$out/rest.png" || { echo "window_smoke: never at rest at 320x200" >&2; kill "$pid"; exit 1; }
window_quit
[ "$status" -eq 0 ] || { echo "window_smoke: the 320x200 session exited $status" >&2; exit 1; }
apart=$(compare -metric AE "$out/rest.png" "$out/exit.png" null: 2>&1)
echo "window_smoke: the window at rest against its exit screenshot: $apart pixels apart"
[ "$apart" = 0 ] || { echo "window_smoke: the window does not show the frame drawn" >&2; exit 1; }
