#!/bin/sh
# SPDX-License-Identifier: MIT
# Window session and its replay, run under xvfb-run: turn pages with the keys (arrows, End, Home),
# save the window with P and with H's HUD shown, zoom in (+, Ctrl+wheel) and pan with a drag, quit
# with Escape; --record and --screenshot write
# the session's input and its last frame. Expect: P's numbered screenshots never replace a file
# and equal what the window shows; the HUD changes only its panel in the top-left corner; the
# trace holds the Home and End keys and the zoom; replayed headless, it ends on the same spread,
# zoomed and panned alike, with the same pixels as the exit screenshot, and without its Home it ends elsewhere; --export-obj writes the
# leaf's mesh; a window's replay without --frames ends with its trace; a zoomed pan's replay ends
# on the same pixels in a window and headless. F12 in a shell cd'd into
# a folder book saves into the pictures folder, not the book, or says why not.
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_replay
. "$(dirname "$0")/window_lib.sh"
rm -f "$out"/pagecurl-*.png "$out/exit.png" "$out/hud.png" "$out/exit.obj" "$out/session.trace"
printf 'precious' > "$out/pagecurl-0001.png" # a numbered screenshot never replaces a file
# one sample a pixel: the replays below play every frame of the session, on a loaded machine
window_start "$exe" --validation --size 640x400 --msaa 1 --record "$out/session.trace" \
    --screenshot "$out/exit.png" --export-obj "$out/exit.obj" > "$out/stdout.txt"
wait_drawn "$out/start.png" || { kill "$pid"; exit 1; }

# key KEY: presses it, then waits for the window to change (two spreads at rest differ only in
# their print) and then to settle.
key() {
    capture "$out/key-before.png"
    xdotool key --window "$win" "$1"
    wait_changed "$out/key-before.png" "$out/key-after.png" 50 ||
        { echo "$name: $1 changed nothing" >&2; kill "$pid"; exit 1; }
    wait_settled "$out/key-after.png" || { echo "$name: $1 never settled" >&2; kill "$pid"; exit 1; }
}
key End
key Left
key Home
key Right

fail() { echo "$name: $*" >&2; kill "$pid" 2>/dev/null; exit 1; }
capture "$out/shown.png"
xdotool key --window "$win" p
poll 60 test -e "$out/pagecurl-0002.png" || fail "P saved no pagecurl-0002.png within 60 s"
# a second P while the first one's note shows saves the book, not the note (compared below)
xdotool key --window "$win" p
poll 60 test -e "$out/pagecurl-0003.png" || fail "P saved no pagecurl-0003.png within 60 s"
# the window says so for a moment (its top-left corner), then shows the book as it was
wait_changed "$out/shown.png" "$out/toast.png" 100 || fail "P said nothing in the window"
poll 60 same_as "$out/shown.png" "$out/toast-gone.png" || fail "P's note in the window stayed"
xdotool key --window "$win" h
wait_changed "$out/shown.png" "$out/hud.png" 100 || fail "H showed no HUD within 60 s"
xdotool key --window "$win" F12
poll 60 test -e "$out/pagecurl-0004.png" || fail "F12 saved no pagecurl-0004.png within 60 s"
xdotool key --window "$win" h
poll 60 same_as "$out/shown.png" "$out/hidden.png" || fail "H did not hide the HUD within 60 s"
# zoom: + , then Ctrl+wheel about the pointer, then a drag mid-page pans (a flick's coast)
key plus
xdotool mousemove --window "$win" 400 150
capture "$out/key-before.png"
xdotool keydown ctrl click 4 click 4 keyup ctrl
wait_changed "$out/key-before.png" "$out/key-after.png" 50 || fail "Ctrl+wheel zoomed nothing"
wait_settled "$out/key-after.png" || fail "Ctrl+wheel never settled"
capture "$out/key-before.png"
xdotool mousemove --window "$win" 300 200 mousedown 1 mousemove --window "$win" 320 190 \
    mousemove --window "$win" 340 180 mousemove --window "$win" 360 170 mouseup 1
wait_changed "$out/key-before.png" "$out/key-after.png" 50 || fail "a drag zoomed in panned nothing"
wait_settled "$out/key-after.png" || fail "the pan never settled"
window_quit
echo "$name: pagecurl exited with $status"
[ "$status" -eq 0 ] || exit "$status"

[ "$(cat "$out/pagecurl-0001.png")" = precious ] || fail "P replaced pagecurl-0001.png"
grep -q "screenshot written to $out/pagecurl-0002.png" "$out/stdout.txt" ||
    fail "P did not say where it saved: $(cat "$out/stdout.txt")"
[ -f "$out/pagecurl-0004.png" ] || fail "F12 saved no pagecurl-0004.png"
# P saved what the window showed: the same pixels as a capture of the window
shown=$(compare -metric AE "$out/shown.png" "$out/pagecurl-0002.png" null: 2>&1)
echo "$name: P's screenshot differs from the window in $shown pixels"
[ "$shown" = 0 ] || fail "P's screenshot is not what the window showed"
again=$(compare -metric AE "$out/pagecurl-0002.png" "$out/pagecurl-0003.png" null: 2>&1)
echo "$name: a second P's screenshot differs from the first in $again pixels"
[ "$again" = 0 ] || fail "a second P's screenshot holds the first one's note ($again pixels)"

# The HUD (F12's screenshot) changed only the pixels of its panel in the window's top-left
# corner, over the book (which fills the window at rest), at its smallest scale: none elsewhere.
box=$(convert "$out/pagecurl-0002.png" "$out/pagecurl-0004.png" -compose difference -composite \
    -colorspace gray -threshold 5% -format '%@' info:)
echo "$name: the HUD covers $box"
set -- $(echo "$box" | awk -F'[x+]' '{ print $1, $2, $3, $4 }')
[ $# -eq 4 ] || fail "cannot measure the HUD ($box)"
[ "$2" -gt 12 ] || fail "H showed no HUD"
[ "$3" -le 12 ] && [ "$4" -le 12 ] || fail "the HUD's panel is not at the top-left corner: $box"
[ "$1" -le 640 ] && [ "$2" -le 120 ] || fail "the HUD covers more than its panel: $box"

# --export-obj wrote the leaf's mesh of the last frame: the default 64x90 grid
head -n 1 "$out/exit.obj" | grep -q '^# pagecurl grid 64 90 ' || fail "exit.obj has no grid line"
[ "$(grep -c '^v ' "$out/exit.obj")" -eq 5760 ] || fail "exit.obj does not hold 64x90 vertices"

grep -q ' key home$' "$out/session.trace" || fail "Home was not recorded"
grep -q ' key end$' "$out/session.trace" || fail "End was not recorded"
grep -q ' zoom by ' "$out/session.trace" || fail "the zoom was not recorded"
timeout 300 "$exe" --headless --size 640x400 --msaa 1 --replay "$out/session.trace" \
    --screenshot "$out/replayed.png" > /dev/null || fail "the replay failed"
same=$(compare -metric AE "$out/exit.png" "$out/replayed.png" null: 2>&1)
echo "$name: the replay differs from the session's exit screenshot in $same pixels"
[ "$same" = 0 ] || fail "the replay did not end where the session did"
grep -v ' key home$' "$out/session.trace" > "$out/no-home.trace"
timeout 300 "$exe" --headless --size 640x400 --msaa 1 --replay "$out/no-home.trace" \
    --screenshot "$out/no-home.png" > /dev/null || fail "the replay without Home failed"
other=$(compare -metric AE "$out/exit.png" "$out/no-home.png" null: 2>&1)
case $other in '' | *[!0-9]*) fail "compare failed: $other" ;; esac
[ "$other" -gt 1000 ] || fail "without its Home the replay ends on the same spread"
grep -v ' zoom ' "$out/session.trace" > "$out/no-zoom.trace"
timeout 300 "$exe" --headless --size 640x400 --msaa 1 --replay "$out/no-zoom.trace" \
    --screenshot "$out/no-zoom.png" > /dev/null || fail "the replay without the zoom failed"
other=$(compare -metric AE "$out/exit.png" "$out/no-zoom.png" null: 2>&1)
case $other in '' | *[!0-9]*) fail "compare failed: $other" ;; esac
[ "$other" -gt 1000 ] || fail "without its zoom the replay ends as zoomed"
# in a window too a replay without --frames ends with its trace: it takes no input to go on with
printf '# a key\n0.100 key next\n' > "$out/short.trace"
timeout 120 "$exe" --size 320x200 --msaa 1 --replay "$out/short.trace" > /dev/null ||
    fail "a window's replay without --frames did not end with its trace (status $?)"

# A zoomed pan replayed in a window (issue 54): its frames drawn on whole pixels, the still pages
# moved rather than drawn again, ends on the same pixels as the same replay headless (it ended a
# few levels off where the detail was asked for by the pan's moving frames: 661 to 3,460 pixels of
# 1280x720, the 12-page photo book). Pages of noise, whose detail shows a texel off.
rm -rf "$out/noise-book" && mkdir -p "$out/noise-book"
for k in 1 2 3 4; do
    convert -seed "$k" -size 300x420 xc:white +noise Random -colorspace Gray \
        "$out/noise-book/$k.png" || fail "cannot make the noise book"
done
{
    echo '0.000 key next'
    echo '0.800 zoom by 3.000000 0.500 0.500'
    i=0
    while [ "$i" -lt 40 ]; do # 20 one way, 20 back
        d=$([ "$i" -lt 20 ] && echo 1 || echo -1)
        awk -v i="$i" -v d="$d" 'BEGIN { printf "%.3f zoom pan %.4f %.4f\n", 1 + i / 60, -0.0043 * d, 0.0021 * d }'
        i=$((i + 1))
    done
} > "$out/pan.trace"
# (each run's frame times written, PAGECURL_FRAME_LOG: a line a frame shown, every one a time)
PAGECURL_FRAME_LOG=$out/pan-window.log timeout 300 "$exe" --validation --size 640x400 --msaa 1 \
    --replay "$out/pan.trace" --screenshot "$out/pan-window.png" "$out/noise-book" \
    > "$out/pan-window.txt" || fail "the window's replay of a zoomed pan failed"
PAGECURL_FRAME_LOG=$out/pan-headless.log timeout 300 "$exe" --headless --size 640x400 --msaa 1 \
    --replay "$out/pan.trace" --screenshot "$out/pan-headless.png" "$out/noise-book" > /dev/null ||
    fail "the headless replay of a zoomed pan failed"
apart=$(compare -metric AE "$out/pan-window.png" "$out/pan-headless.png" null: 2>&1)
echo "$name: a zoomed pan replayed in a window against headless: $apart pixels differ"
[ "$apart" = 0 ] || fail "a zoomed pan replayed in a window ends $apart pixels off the headless one's"
shown=$(sed -n 's/.* \([0-9]*\) frames shown.*/\1/p' "$out/pan-window.txt")
[ -n "$shown" ] && [ "$(grep -c . "$out/pan-window.log")" -eq "$shown" ] ||
    fail "the window's frame times: $(grep -c . "$out/pan-window.log") lines for ${shown:-?} frames"
[ "$(grep -c . "$out/pan-headless.log")" -gt 40 ] &&
    ! grep -qv '^[0-9][0-9]*\.[0-9][0-9][0-9]$' "$out/pan-window.log" "$out/pan-headless.log" ||
    fail "the frame times are not a time a line"
PAGECURL_FRAME_LOG=$out timeout 120 "$exe" --headless --size 64x48 --frames 1 \
    > /dev/null 2> "$out/log-refused.txt"
refused=$?
[ "$refused" -eq 1 ] && [ "$(grep -c . "$out/log-refused.txt")" -eq 1 ] &&
    grep -q PAGECURL_FRAME_LOG "$out/log-refused.txt" ||
    fail "a frame log that cannot be written: exit $refused, $(cat "$out/log-refused.txt")"

# F12 in a shell cd'd into a folder book: no screenshot lands in the book (it would become a
# page): it goes to the pictures folder instead, and with none there it is refused, said in the
# terminal; either way the book holds only its pages.
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
base=$(cd "$out" && pwd)
rm -rf "$base/shot-book" "$base/shot-home"
mkdir -p "$base/shot-book" "$base/shot-home/Pictures"
convert -size 60x90 xc:white "$base/shot-book/a.png" && convert -size 60x90 xc:gray "$base/shot-book/b.png" ||
    fail "cannot make the folder book"
cd "$base/shot-book" || fail "cannot enter the folder book"
# (its stderr kept apart from window_start's own messages)
window_start sh -c 'exec 2> "$0" "$@"' "$base/book-stderr.txt" env -u XDG_PICTURES_DIR \
    HOME="$base/shot-home" XDG_CONFIG_HOME="$base/shot-home/.config" \
    XDG_CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}" "$exe" --validation --size 320x200 --msaa 1 \
    --book . > "$base/book-stdout.txt"
cd "$base" || fail "cannot leave the folder book"
wait_drawn "$base/book-start.png" || fail "the folder book drew nothing"
xdotool key --window "$win" F12
poll 30 grep -q 'screenshot written to' "$base/book-stdout.txt" ||
    fail "F12 in the book's folder said nothing within 30 s: $(cat "$base/book-stderr.txt")"
mv "$base/shot-home/Pictures" "$base/shot-home/Pictures-taken" # no pictures folder now
xdotool key --window "$win" F12
poll 30 grep -q 'no screenshot' "$base/book-stderr.txt" ||
    fail "F12 with no pictures folder said nothing within 30 s: $(cat "$base/book-stderr.txt")"
window_quit
[ "$status" -eq 0 ] || fail "the folder book's session exited with $status: $(cat "$base/book-stderr.txt")"
[ "$(ls "$base/shot-book")" = "$(printf 'a.png\nb.png')" ] ||
    fail "F12 wrote into the book: $(ls "$base/shot-book")"
[ -f "$base/shot-home/Pictures-taken/pagecurl-0001.png" ] ||
    fail "F12 in the book's folder saved nothing in ~/Pictures: $(cat "$base/book-stdout.txt")"
[ "$(grep -c . "$base/book-stderr.txt")" -eq 1 ] && grep -q 'is the book being read' "$base/book-stderr.txt" ||
    fail "F12 with no pictures folder did not say why in one line: $(cat "$base/book-stderr.txt")"
echo "$name: ok"
