# SPDX-License-Identifier: MIT
# Shared by the window tests (sourced; run under xvfb-run): start pagecurl and find its window,
# capture it, wait for it to change, quit it (Ctrl+Q). `name` labels messages.
#
# Every wait is bounded: a pagecurl that crashes, hangs or never maps its window fails the test
# within a minute instead of holding it until ctest's time limit.

# The reader's place (app/place.h) is kept in a state folder of this script's own, never the
# user's: no earlier run's place opens a book elsewhere than a test expects. Removed at the end (a
# script that sets a trap of its own on EXIT removes it there).
XDG_STATE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/pagecurl-state.XXXXXX") || exit 1
export XDG_STATE_HOME
# the same for the notebooks ink drawn without --notebook is kept in (app/kept_notebook.h): inside
# the state folder, removed with it
XDG_DATA_HOME=$XDG_STATE_HOME/data
export XDG_DATA_HOME
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
exec 9>&2 # the script's own stderr, for window_start's lines

# bounded CMD...: a command that waits on the X server (xdotool's --sync, import), given 60 s.
bounded() {
    timeout 60 "$@"
}

# poll SECONDS CMD...: runs CMD until it succeeds, for up to SECONDS of wall-clock time (not a
# count of tries: a try that captures the window takes longer on a loaded machine).
poll() {
    limit=$(($(date +%s) + $1))
    shift
    until "$@"; do
        [ "$(date +%s)" -lt "$limit" ] || return 1
        sleep 0.1
    done
}

# running: whether pagecurl ($pid) is still running.
running() {
    kill -0 "$pid" 2>/dev/null
}

# window_or_exit: sets $win once pagecurl's window is visible; also true once pagecurl has
# exited, which no later poll could change.
window_or_exit() {
    win=$(xdotool search --onlyvisible --name '^pagecurl(:|$)' 2>/dev/null | head -n 1)
    [ -n "$win" ] || ! running
}

# window_start EXE ARGS...: starts pagecurl, sets $pid and $win; exits 1 if no window appears
# within 60 s, or at once if pagecurl exits first.
window_start() {
    "$@" &
    pid=$!
    win=
    poll 60 window_or_exit
    if [ -z "$win" ]; then
        # on the script's own stderr (fd 9): a caller's 2>FILE around window_start takes
        # pagecurl's, and took this line with it (a failure that said nothing)
        if running; then
            echo "$name: no pagecurl window appeared within 60 s" >&9
            kill "$pid"
        else
            wait "$pid"
            echo "$name: pagecurl exited with $? before its window appeared" >&9
        fi
        exit 1
    fi
    bounded xdotool windowactivate --sync "$win" 2>/dev/null ||
        bounded xdotool windowfocus --sync "$win"
}

# capture FILE: the window as a PNG. A capture racing a window update can come back unreadable:
# take it again.
capture() {
    for attempt in 1 2 3; do
        timeout 10 import -window "$win" "$1" 2>/dev/null && identify "$1" >/dev/null 2>&1 &&
            return 0
        sleep 0.2
    done
    return 1
}

# differ A B: how many pixels of A and B differ by more than 5 % (0 when compare fails).
differ() {
    n=$(compare -metric AE -fuzz 5% "$1" "$2" null: 2>&1)
    case $n in '' | *[!0-9]*) echo 0 ;; *) echo "$n" ;; esac
}

# drawn FILE: captures the window into FILE; true when it shows a drawn frame (anything but the
# one colour of a window nothing was presented to yet: the backdrop's, or X's black).
drawn() {
    capture "$1" && is_drawn "$1"
}
is_drawn() {
    [ "$(convert "$1" -format '%[standard-deviation]' info: 2>/dev/null)" != "0" ]
}

# black FILE: FILE is all black (X's colour for a window of no background nothing was presented
# to).
black() {
    [ "$(convert "$1" -format '%[max]' info: 2>/dev/null)" = "0" ]
}

# wait_drawn FILE: captures the window into FILE until it shows a drawn frame, for up to 60 s:
# start-up (the page content drawn and uploaded, validation) takes longer on a loaded machine
# than a fixed sleep allows.
wait_drawn() {
    poll 60 drawn "$1" && return 0
    echo "$name: the window drew nothing in 60 s" >&2
    return 1
}

# changed REF FILE MIN: captures the window into FILE; true when it differs from REF in more
# than MIN pixels.
changed() {
    capture "$2" && [ "$(differ "$1" "$2")" -gt "$3" ]
}

# wait_changed REF FILE [MIN]: captures the window into FILE until it differs from REF in more
# than MIN pixels (default 20000), for up to 60 s: a loaded machine (ASan, validation, other
# jobs) may draw the frames that follow the input late. Fails when it never changes.
wait_changed() {
    poll 60 changed "$1" "$2" "${3:-20000}"
}

# same_as REF FILE: captures the window into FILE; true when it equals REF (within 5 %).
same_as() {
    capture "$2" && [ "$(differ "$1" "$2")" -eq 0 ]
}

# cpu_ticks: the CPU time pagecurl ($pid) has used, all its threads, in clock ticks (empty once
# it has exited). /proc/PID/stat's 14th and 15th fields, counted after the name's closing
# parenthesis (a name may hold spaces).
cpu_ticks() {
    sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# wait_settled FILE: captures the window into FILE until it has come to rest (a turn or a settle
# is over), for up to 60 s: the same picture before and after half a second (and the capture) in
# which pagecurl used no CPU time (a tick at most: its idle loop wakes every 0.1 s), or, while it
# keeps drawing (a page held still is drawn every frame), the same picture for 2 s. pagecurl
# draws only while something moves, is held or a page drawn in the background is done, and
# drawing takes CPU time: a slow frame (the sanitizers, a loaded machine) that holds one picture
# across two captures while the next is still being drawn shows in its CPU time.
wait_settled() {
    capture "$1" || return 1
    limit=$(($(date +%s) + 60))
    next=${1%.png}-next.png
    same=0
    while [ "$same" -lt 4 ]; do
        before=$(cpu_ticks)
        sleep 0.5
        if same_as "$1" "$next"; then
            same=$((same + 1))
            after=$(cpu_ticks)
            [ -n "$before" ] && [ -n "$after" ] || return 1
            [ "$((after - before))" -gt 1 ] || break
        else
            same=0
            cp "$next" "$1"
        fi
        [ "$(date +%s)" -lt "$limit" ] || return 1
    done
    rm -f "$next"
}

# exited: pagecurl has exited.
exited() {
    ! running
}

# window_wait: pagecurl's exit status in $status, once it has exited; a hang past 120 s is a
# failure.
window_wait() {
    if ! poll 120 exited; then
        echo "$name: pagecurl did not exit within 120 s" >&2
        kill "$pid"
        exit 1
    fi
    wait "$pid"
    status=$?
}

# window_quit: Ctrl+Q (Escape leaves a zoom or closes the HUD first), then pagecurl's exit status
# in $status.
window_quit() {
    xdotool key --window "$win" ctrl+q
    window_wait
}

# title: the window's title; has_title TITLE: whether it is TITLE.
title() { xdotool getwindowname "$win" 2>/dev/null; }
has_title() { [ "$(title)" = "$1" ]; }

# Ink in a window (window_ink, window_lost): the notebook's strokes and a stroke drawn.
# strokes FILE: how many strokes the notebook holds (notebook.c writes one a line).
strokes() {
    grep -c '^  \[\[' "$1" 2>/dev/null || true
}

# holds FILE N: whether the notebook holds N strokes.
holds() {
    [ "$(strokes "$1")" = "$2" ]
}

# draw Y: a right-button stroke across the closed book's page (x 280 .. 520, y 101 .. 423 in
# 800x500) at height Y.
draw() {
    xdotool mousemove --window "$win" 320 "$1" mousedown 3
    for x in 350 380 410 440 470; do
        xdotool mousemove --window "$win" "$x" "$1"
        sleep 0.05
    done
    xdotool mouseup 3
}
