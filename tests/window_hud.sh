#!/bin/sh
# SPDX-License-Identifier: MIT
# The HUD keeps its size while a leaf turns, run under xvfb-run. It is enlarged (1x to 2x) as far
# as it stays above the book's far edge at rest; the view pulling back for a held leaf leaves room
# for more, and the panel grew to twice its size and shrank back with every turn. Its text's
# pixels, counted at rest and with a leaf held (the view pulled back): within 1.5 times (a panel
# enlarged twice has 4 times as many). And its first line says where the reader is as the title
# does, after a resize too.
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
poll 60 shows_hud "$out/rest-hud.png" || fail "H showed no HUD"
rest=$(text "$out/rest-hud.png")
# Hold the closed book's page by its bottom corner (x 461 .. 939, y 22 .. 877 at rest) and pull
# it halfway to the spine: the leaf lifts and the view pulls back while it is held.
xdotool mousemove --window "$win" 930 865 mousedown 1
for x in 900 860 820 780; do
    xdotool mousemove --window "$win" "$x" 800
    sleep 0.05
done
wait_changed "$out/rest-hud.png" "$out/held-hud.png" || fail "the held page did not move"
# the view's pull-back settles: it runs on the window's clock, and a page held is drawn every
# frame (with the HUD's times changing: never the same picture twice), so a busy machine draws
# fewer frames of it, not a later end
sleep 2
capture "$out/held-hud.png" || fail "cannot capture the window"
held=$(text "$out/held-hud.png")
xdotool mouseup 1
# Its first line says where the reader is, as the title does. Turned to 2-3 and made portrait (one
# page shown), both say "2 / 16" (a turn puts the reader on the first page it uncovers, the
# left-hand one); the HUD said "2-3" until something else drew a frame: the line changed a frame
# after the one drawn for the new size. Its first line as shown, against the same
# line in a frame drawn anew (H twice).
xdotool key --window "$win" Right
poll 60 has_title "pagecurl: 2-3 / 16" || fail "Right: the title is '$(title)'"
# the leaf lands and the view comes back to rest: no frame drawn until the resize
wait_settled "$out/landed.png" || fail "the turn never settled"
xdotool windowsize "$win" 700 900
poll 60 has_title "pagecurl: 2 / 16" || fail "made portrait: the title is '$(title)'"
portrait() { capture "$1" && [ "$(identify -format %w "$1")" = 700 ]; }
poll 60 portrait "$out/portrait.png" || fail "the window never became portrait"
wait_settled "$out/portrait.png" || fail "the portrait window never settled"
xdotool key --window "$win" h
sleep 0.5
xdotool key --window "$win" h
poll 60 shows_hud "$out/portrait-again.png" || fail "H twice: no HUD"
convert "$out/portrait.png" -crop 200x16+8+8 +repage "$out/line.png"
convert "$out/portrait-again.png" -crop 200x16+8+8 +repage "$out/line-again.png"
lines=$(differ "$out/line.png" "$out/line-again.png")
window_quit
echo "$name: the HUD's text covers $rest pixels at rest, $held with a leaf held"
echo "$name: its first line after the resize differs from a frame's drawn anew in $lines pixels"
[ "$lines" -eq 0 ] || fail "the HUD's first line lags the title ($out/line.png, $out/line-again.png)"
[ "$status" -eq 0 ] || fail "pagecurl exited with $status"
[ "$rest" -gt 300 ] || fail "no HUD text at rest ($out/rest-hud.png)"
[ "$held" -le $((rest * 3 / 2)) ] ||
    fail "the HUD grew from $rest to $held pixels with a leaf held ($out/held-hud.png)"
