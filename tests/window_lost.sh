#!/bin/sh
# SPDX-License-Identifier: MIT
# The window lost from outside, run under xvfb-run: its X connection killed (xdotool windowkill,
# as an ssh -X link that drops), the window destroyed (xdotool windowclose: the server then
# refuses requests for it) and, last, the X server itself killed. Each time pagecurl exits 1 with
# one line saying so, the --record trace holds every event made and replays headless, the
# notebook holds every stroke, the one being drawn included, and a notebook the session made and
# drew nothing into is not left behind.
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_lost
. "$(dirname "$0")/window_lib.sh"

fail() {
    echo "$name: $*" >&2
    kill "$pid" 2>/dev/null
    exit 1
}

# ended HOW: pagecurl's exit once the window was lost: status 1, and one line on stderr
# ($out/$HOW.err) that says the window is gone.
ended() {
    window_wait
    [ "$status" -eq 1 ] || fail "$1: exit $status, want 1: $(cat "$out/$1.err")"
    [ "$(wc -l <"$out/$1.err")" -eq 1 ] || fail "$1: not one line: $(cat "$out/$1.err")"
    grep -q '^pagecurl: the window is gone (' "$out/$1.err" ||
        fail "$1: the line does not say the window is gone: $(cat "$out/$1.err")"
}

# replays TRACE: the trace is whole, as --replay reads it (headless: no display needed).
replays() {
    timeout 300 "$exe" --headless --size 160x100 --replay "$1" >/dev/null 2>"$out/replay.err" ||
        fail "$1 does not replay: $(cat "$out/replay.err")"
}

rm -f "$out"/*.json "$out"/*.trace "$out"/*.err "$out"/*.png

# 1. The connection killed in the middle of a stroke, after a stroke and a turn.
window_start "$exe" --validation --size 800x500 --notebook "$out/kill.json" \
    --record "$out/kill.trace" 2>"$out/kill.err"
wait_drawn "$out/before.png" || fail "no frame"
draw 200
poll 60 holds "$out/kill.json" 1 || fail "the stroke did not reach the notebook within 60 s"
capture "$out/before.png" || fail "no capture"
xdotool key --window "$win" Right
wait_changed "$out/before.png" "$out/after.png" 50 || fail "Right changed nothing"
wait_settled "$out/after.png" || fail "the turn never settled"
xdotool mousemove --window "$win" 300 260 mousedown 3
xdotool mousemove --window "$win" 360 270
xdotool mousemove --window "$win" 420 280
wait_changed "$out/after.png" "$out/inked.png" 50 || fail "the second stroke drew nothing"
xdotool windowkill "$win"
ended kill
xdotool mouseup 3 2>/dev/null
holds "$out/kill.json" 2 ||
    fail "windowkill: the notebook holds $(strokes "$out/kill.json") strokes, want 2 (one being drawn)"
for event in ' ink down ' ' ink up ' ' key next$'; do
    grep -q "$event" "$out/kill.trace" || fail "windowkill: the trace lacks '$event'"
done
[ "$(tail -n 1 "$out/kill.trace" | cut -d' ' -f2-3)" = "ink move" ] ||
    fail "windowkill: the trace does not end in the stroke being drawn: $(tail -n 1 "$out/kill.trace")"
replays "$out/kill.trace"

# 2. The window destroyed, with a new notebook nothing was drawn into: no file is left.
window_start "$exe" --validation --size 800x500 --notebook "$out/new.json" \
    --record "$out/close.trace" 2>"$out/close.err"
wait_drawn "$out/before.png" || fail "no frame"
[ -e "$out/new.json" ] || fail "the new notebook is not held while the session runs"
xdotool key --window "$win" Right
xdotool windowclose "$win"
ended close
[ ! -e "$out/new.json" ] || fail "windowclose: an empty notebook was left: $(cat "$out/new.json")"
replays "$out/close.trace"

# 3. The X server killed: a server of this test's own (xvfb-run's must outlive the script), its
#    display's number written once it takes connections.
rm -f "$out/display.txt"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$out/display.txt" 2>"$out/xvfb.err" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$XDG_STATE_HOME"' EXIT
poll 30 test -s "$out/display.txt" || fail "no X server of the test's own: $(cat "$out/xvfb.err")"
DISPLAY=:$(cat "$out/display.txt")
export DISPLAY
window_start "$exe" --validation --size 800x500 --notebook "$out/server.json" \
    --record "$out/server.trace" 2>"$out/server.err"
wait_drawn "$out/before.png" || fail "no frame"
draw 200
poll 60 holds "$out/server.json" 1 || fail "the stroke did not reach the notebook within 60 s"
kill "$server"
ended server
holds "$out/server.json" 1 || fail "server killed: the notebook lost its stroke"
grep -q ' ink up ' "$out/server.trace" || fail "server killed: the trace lacks the stroke"
replays "$out/server.trace"
echo "$name: the window killed, destroyed and its server killed: one line each, every stroke" \
    "and event kept, no empty notebook left"
