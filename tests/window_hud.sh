#!/bin/sh
# The HUD keeps its size while a leaf turns, run under xvfb-run. It is enlarged (1x to 2x) as far
# as it stays above the book's far edge at rest; the view pulling back for a held leaf leaves room
# for more, and the panel grew to twice its size and shrank back with every turn. Its text's
# pixels, counted at rest and with a leaf held (the view pulled back): within 1.5 times (a panel
# enlarged twice has 4 times as many).
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_hud
. "$(dirname "$0")/window_lib.sh"
fail() { echo "$name: $*" >&2; kill "$pid" 2>/dev/null; exit 1; }
# text FILE: how many pixels of the window's top quarter in FILE are the HUD's text colour
# (255, 246, 195 as drawn; the paper is greyer, the backdrop and the print darker).
text() {
    convert "$1" -crop 1400x225+0+0 +repage -fx '(r > 0.97 && b < 0.85) ? 1 : 0' \
        -format '%[fx:round(mean * w * h)]' info:
}
# shows_hud FILE: captures the window into FILE; true when the HUD's text shows in it.
shows_hud() {
    capture "$1" && [ "$(text "$1")" -gt 300 ]
}
window_start "$exe" --validation --size 1400x900
wait_drawn "$out/start.png" || fail "nothing drawn"
xdotool key --window "$win" h
poll 30 shows_hud "$out/rest-hud.png" || fail "H showed no HUD"
rest=$(text "$out/rest-hud.png")
# Hold the closed book's page by its bottom corner (x 461 .. 939, y 22 .. 877 at rest) and pull
# it halfway to the spine: the leaf lifts and the view pulls back while it is held.
xdotool mousemove --window "$win" 930 865 mousedown 1
for x in 900 860 820 780; do
    xdotool mousemove --window "$win" "$x" 800
    sleep 0.05
done
wait_changed "$out/rest-hud.png" "$out/held-hud.png" || fail "the held page did not move"
sleep 1 # the view's pull-back settles
capture "$out/held-hud.png" || fail "cannot capture the window"
held=$(text "$out/held-hud.png")
xdotool mouseup 1
window_quit
echo "$name: the HUD's text covers $rest pixels at rest, $held with a leaf held"
[ "$status" -eq 0 ] || fail "pagecurl exited with $status"
[ "$rest" -gt 300 ] || fail "no HUD text at rest ($out/rest-hud.png)"
[ "$held" -le $((rest * 3 / 2)) ] ||
    fail "the HUD grew from $rest to $held pixels with a leaf held ($out/held-hud.png)"
