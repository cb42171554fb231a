#!/bin/sh
# SPDX-License-Identifier: MIT
# Sharp pages in a window, run under xvfb-run, on a PDF page of fine bars (0.3 pt every 1 pt, as
# a small text's strokes): zoomed in 3x by a replayed Ctrl+wheel, the window shows the bars as
# sharp as a headless --zoom 3 (pages drawn for three times the width: at least 90 % of its fine
# detail; the layers the window's stream made for its own width hold about 70 %), and says how
# long after the zoom's last input they were sharp (printed, not bounded: how soon is the
# benchmark's to measure, and a busy machine takes seconds); then a window opened at 640x400 and enlarged to 1280x800 shows its page as sharp as
# a run opened at that size (its layers were made for 640), and a step of the zoom by `+` there is
# sharp in its first frame. Then W fits the page's width (its head at the top), the plain wheel and
# Space scroll down it and on to the next page, whose head shows at the same fit; Escape leaves the
# fit and the window stays, H then Escape shows and closes the HUD, Escape again quits; a headless
# --fit width, and a window opened with it, frame the page as W does.
# Validation on in the windows (the headless references only measure).
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_zoom
. "$(dirname "$0")/window_lib.sh"
fail() { echo "$name: $*" >&2; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; exit 1; }

# bars_pdf FILE: two pages (one page object twice) 200 x 280 pt, its cross-reference table at the
# offsets written
bars_pdf() {
    f=$1
    c="0 0 0 rg"
    i=0
    while [ $i -lt 190 ]; do c="$c $((i + 5)) 40 0.3 200 re"; i=$((i + 1)); done
    c="$c f"
    printf '%%PDF-1.4\n' > "$f"
    o1=$(wc -c < "$f")
    printf '1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' >> "$f"
    o2=$(wc -c < "$f")
    printf '2 0 obj\n<< /Type /Pages /Count 2 /Kids [3 0 R 3 0 R] >>\nendobj\n' >> "$f"
    o3=$(wc -c < "$f")
    printf '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 4 0 R >>\nendobj\n' >> "$f"
    o4=$(wc -c < "$f")
    printf '4 0 obj\n<< /Length %d >>\nstream\n%s\nendstream\nendobj\n' ${#c} "$c" >> "$f"
    x=$(wc -c < "$f")
    printf 'xref\n0 5\n0000000000 65535 f \n' >> "$f"
    for o in $o1 $o2 $o3 $o4; do printf '%010d 00000 n \n' "$o" >> "$f"; done
    printf 'trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n' "$x" >> "$f"
}

# detail FILE X Y W H: the mean step between horizontal neighbours (grey, 0..255) in that crop
detail() {
    convert "$1" -crop "$4x$5+$2+$3" +repage -colorspace gray \( +clone -roll +1+0 \) \
        -compose difference -composite -crop "$(($4 - 2))x$5+1+0" -format '%[fx:mean*255]' info:
}
# at_least A B F: A >= F x B
at_least() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a >= f * b) }'; }

pdf="$out/bars.pdf"
bars_pdf "$pdf"
printf '# TIME DEVICE ACTION [X Y [PRESSURE]]\n0.500 zoom by 3.0 0.5 0.5\n' > "$out/zoom.trace"
rm -f "$out"/*.png
bounded "$exe" --validation --book "$pdf" --size 1280x720 --replay "$out/zoom.trace" --frames 150 \
    --screenshot "$out/window.png" > "$out/window.txt" || fail "the zoomed window failed"
bounded "$exe" --headless --book "$pdf" --size 1280x720 --curl 0 --zoom 3 \
    --screenshot "$out/headless.png" > /dev/null || fail "the headless --zoom 3 failed"
w=$(detail "$out/window.png" 440 210 400 300)
h=$(detail "$out/headless.png" 440 210 400 300)
echo "$name: fine detail zoomed 3x in the window $w, headless at --zoom 3 $h"
at_least "$w" "$h" 0.9 || fail "zoomed in, the window's page holds $w of the detail $h"
ms=$(sed -n "s/.*drawn sharp \([0-9]*\) ms after the zoom's last input.*/\1/p" "$out/window.txt")
[ -n "$ms" ] || fail "the window never said when its pages were sharp"
echo "$name: sharp $ms ms after the zoom's last input"
# ...and counted from the zoom only until a key moves the view: a turn 180 frames after it draws
# the next pages sharp too, which is the turn's, not the zoom's (the pointer moving over the page
# every frame until then, so that the replay skips no stretch: the key comes 180 frames after)
awk 'BEGIN {
    print "# TIME DEVICE ACTION [X Y [PRESSURE]]"
    print "0.500 zoom by 3.0 0.5 0.5"
    for (i = 1; i < 180; i++) printf "%.4f mouse move %.3f 0.5\n", 0.5 + i / 60, 0.3 + i / 1000
    print "3.500 key next"
}' > "$out/turn.trace"
bounded "$exe" --book "$pdf" --size 640x400 --replay "$out/turn.trace" --frames 400 \
    > "$out/turned.txt" || fail "the zoomed window's turn failed"
frame=$(sed -n "s/.*drawn sharp [0-9]* ms after the zoom's last input, in frame \([0-9]*\) after it.*/\1/p" \
    "$out/turned.txt")
echo "$name: a zoom then a turn: sharp in frame ${frame:-none} after the zoom"
[ -n "$frame" ] && [ "$frame" -lt 180 ] ||
    fail "a zoom then a turn: the pages sharp in frame ${frame:-none} after the zoom (the turn's at 180)"

# enlarged: the window drawn at 1280x800 from layers made for 640 until its pages are drawn again
# the step's wait at its longest (1 s, not 0.08): a busy machine draws the page slower than the
# program's wait, which would show the magnified frame first whatever the wait does
export PAGECURL_DETAIL_HOLD=1
window_start "$exe" --validation --book "$pdf" --size 640x400 > "$out/enlarged.txt"
unset PAGECURL_DETAIL_HOLD
wait_drawn "$out/start.png" || fail "the window drew nothing"
xdotool windowmove "$win" 0 0 windowsize "$win" 1280 800
grown() { capture "$1" && [ "$(identify -format %w "$1")" = 1280 ]; }
poll 60 grown "$out/big.png" || fail "the window never grew"
sleep 1
wait_settled "$out/enlarged.png" || fail "the enlarged window never settled"
# then a step of the zoom by a key: its first frame shows the pages drawn sharp for it (the frame
# waits a moment for them) where a frame magnified and then a sharp one would show two
xdotool key --window "$win" plus
sleep 1
wait_settled "$out/stepped.png" || fail "the window never settled after +"
window_quit
[ "$status" = 0 ] || fail "the enlarged window exited with $status"
bounded "$exe" --headless --book "$pdf" --size 1280x800 --curl 0 \
    --screenshot "$out/opened.png" > /dev/null || fail "the headless 1280x800 failed"
e=$(detail "$out/enlarged.png" 540 250 200 300)
o=$(detail "$out/opened.png" 540 250 200 300)
echo "$name: fine detail enlarged to 1280x800 $e, opened at that size $o"
at_least "$e" "$o" 0.9 || fail "enlarged, the window's page holds $e of the detail $o"
line=$(grep "drawn sharp" "$out/enlarged.txt")
echo "$name: after +, $line"
case $line in
*"in frame 1 after it") ;;
*) fail "after +, the first frame did not show the pages sharp: ${line:-no line}" ;;
esac

# Fit and scroll, and Escape's order, on the bars (200 x 280 pt; the bars from 40 pt below the
# head to 40 pt above the foot, 5 pt in from each side) at 800x500: fitted to its width a page
# is 4 px a point, 1120 px tall, the bars from 160 px below its head.
# grey FILE X Y W H: the mean grey (0..255) of that crop
grey() { convert "$1" -crop "$4x$5+$2+$3" +repage -colorspace gray -format '%[fx:mean*255]' info:; }
# fitted FILE TOP: the page's width fills the window (paper in its four corners, shaded towards
# the spine on the left, where the fitted view shows the backdrop, 60) and its head shows TOP px
# above the window's top: no bars above 160 - TOP px, bars below
fitted() {
    for c in "0 0" "790 0" "0 490" "790 490"; do
        # shellcheck disable=SC2086
        g=$(grey "$1" $c 10 10)
        at_least "$g" 180 1 || fail "$1: a corner at $c is $g, not the page's paper"
    done
    edge=$((160 - $2))
    b=$(detail "$1" 24 $((edge + 16)) 752 $((470 - edge)))
    e=$(detail "$1" 24 0 752 $((edge - 12)))
    echo "$name: $1: the bars' detail $b below $edge px, $e above"
    at_least "$b" 20 1 || fail "$1: no bars below $edge px ($b)"
    at_least 2 "$e" 1 || fail "$1: bars above $edge px ($e): not the page's head at the top"
}
window_start "$exe" --validation --book "$pdf" --size 800x500 > "$out/fit.txt"
wait_drawn "$out/fit-start.png" || fail "the window drew nothing"
wait_settled "$out/fit-start.png" || fail "the window never settled"
start_title=$(title)
corner=$(grey "$out/fit-start.png" 0 0 10 10)
at_least 120 "$corner" 1 || fail "the fitted view's corner is $corner: not the backdrop"
xdotool mousemove --window "$win" 400 250
xdotool key --window "$win" w
wait_changed "$out/fit-start.png" "$out/fit-w.png" || fail "W changed nothing"
wait_settled "$out/fit-w.png" || fail "the window never settled after W"
fitted "$out/fit-w.png" 0
# two notches of the plain wheel: an eighth of the window each, 125 px
xdotool click 5
sleep 0.2
xdotool click 5
wait_changed "$out/fit-w.png" "$out/fit-wheel.png" || fail "the wheel scrolled nothing"
wait_settled "$out/fit-wheel.png" || fail "the window never settled after the wheel"
fitted "$out/fit-wheel.png" 125
# Space down the page (620 px to its foot), and at its foot on to the next page: a turn, then its
# head at the same fit
n=0
while [ "$(title)" = "$start_title" ]; do
    [ $n -lt 6 ] || fail "six Spaces never turned the page: the title is still '$(title)'"
    xdotool key --window "$win" space
    n=$((n + 1))
    wait_settled "$out/fit-space.png" || fail "the window never settled after Space"
done
echo "$name: $n Spaces to the next page ('$start_title' -> '$(title)')"
[ $n -ge 3 ] || fail "the page turned after $n Spaces, before its foot (3 from 125 px down)"
fitted "$out/fit-space.png" 0
# Escape leaves the fit for the fitted view, and the window stays; Escape again quits
xdotool key --window "$win" Escape
wait_changed "$out/fit-space.png" "$out/fit-escape.png" || fail "Escape changed nothing"
wait_settled "$out/fit-escape.png" || fail "the window never settled after Escape"
running || fail "Escape while fitted to width quit"
corner=$(grey "$out/fit-escape.png" 0 0 10 10)
at_least 120 "$corner" 1 || fail "after Escape the corner is $corner: not the fitted view"
# the HUD (H) is a panel Escape closes before it quits
xdotool key --window "$win" h
wait_changed "$out/fit-escape.png" "$out/fit-hud.png" 100 || fail "H showed no HUD"
xdotool key --window "$win" Escape
poll 60 same_as "$out/fit-escape.png" "$out/fit-nohud.png" || fail "Escape left the HUD shown"
running || fail "Escape with the HUD shown quit"
# the plain wheel at the fitted view turns a page a notch, notch after notch, sent to the window
# as well (xdotool's --window: events another client sends, with no X time of their own, which
# the window once took all for the first one's moment, each but the first refused as too soon)
turned() {
    [ "$(title)" != "$1" ]
}
for button in 4 5; do # up to page 1, down again to 2 (the book's two pages)
    before=$(title)
    xdotool click --window "$win" $button
    poll 60 turned "$before" || fail "the wheel's button $button at the fitted view: still '$before'"
    wait_settled "$out/fit-notch.png" || fail "the window never settled after button $button"
done
echo "$name: two notches at the fitted view: '$(title)'"
xdotool key --window "$win" Escape
window_wait
[ "$status" = 0 ] || fail "Escape from the fitted view exited with $status"
# headless --fit width: the same framing of the page
bounded "$exe" --headless --book "$pdf" --size 800x500 --curl 0 --fit width \
    --screenshot "$out/fit-headless.png" > /dev/null || fail "the headless --fit width failed"
fitted "$out/fit-headless.png" 0
# and a window opened with --fit width
window_start "$exe" --validation --book "$pdf" --size 800x500 --fit width > "$out/fit-flag.txt"
wait_drawn "$out/fit-flag.png" || fail "the --fit width window drew nothing"
wait_settled "$out/fit-flag.png" || fail "the --fit width window never settled"
fitted "$out/fit-flag.png" 0
window_quit
[ "$status" = 0 ] || fail "the --fit width window exited with $status"
exit 0
