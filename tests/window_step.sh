#!/bin/sh
# SPDX-License-Identifier: MIT
# The window's step down, run under xvfb-run with validation on. PAGECURL_STEP_BUDGET_MS, a test
# hook, makes --quality auto start at the high tier as on a GPU and sets the frame budget. A
# replayed session (ink on page 1 at rest, its corner dragged over the spine for 1.5 s, released,
# a key back) steps down once, in the middle of the drag (30 moving frames of 90), says so on
# stderr, and ends with the pixels of a headless replay drawn low throughout: the pages, the ink
# and the turn survive the switch. Frames at rest never step, nor does an explicit tier; the
# summary of 40 untouched frames counts 40 and no input.
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_step
fail() { echo "$name: $*" >&2; exit 1; }
# every moving frame misses a budget of a microsecond
budget=0.001

{
    echo "0.100 ink down 0.55 0.40"
    echo "0.116 ink move 0.58 0.45"
    echo "0.132 ink move 0.61 0.50"
    echo "0.148 ink up 0.62 0.52"
    echo "0.400 mouse down 0.630 0.820"
    awk 'BEGIN { for (i = 1; i <= 90; i++)
                     printf "%.3f mouse move %.3f 0.800\n", 0.4 + i / 60.0, 0.63 - 0.43 * i / 90.0 }'
    echo "2.000 mouse up 0.200 0.800"
    echo "3.000 key prev"
} > "$out/session.trace"
grep -v ' ink ' "$out/session.trace" > "$out/no-ink.trace"

# window QUALITY LABEL SIZE [ARGS...]: the session replayed in a window of SIZE at --quality
# QUALITY with the budget forced; stdout in LABEL.out, stderr in LABEL.err, the last frame in
# LABEL.png.
window() {
    quality=$1 label=$2 size=$3
    shift 3
    PAGECURL_STEP_BUDGET_MS=$budget timeout 300 "$exe" --validation --size "$size" \
        --quality "$quality" --screenshot "$out/$label.png" "$@" > "$out/$label.out" 2> "$out/$label.err"
    status=$?
    cat "$out/$label.err" >&2
    [ "$status" -eq 0 ] || fail "pagecurl --quality $quality ($label) exited with $status"
}
# headless QUALITY TRACE LABEL SIZE: the same replay headless (where nothing steps).
headless() {
    timeout 300 "$exe" --headless --size "$4" --quality "$1" --replay "$2" \
        --screenshot "$out/$3.png" > /dev/null || fail "the headless replay $3 failed"
}
pixels() {
    n=$(compare -metric AE "$1" "$2" null: 2>&1)
    case $n in '' | *[!0-9]*) fail "compare $1 $2 failed: $n" ;; esac
    echo "$n"
}
steps() {
    grep -c 'stepped down to low quality' "$out/$1.err"
}

rm -f "$out"/*.png "$out"/*.err "$out"/*.out
window auto stepped 640x400 --replay "$out/session.trace" --frames 250
[ "$(steps stepped)" -eq 1 ] || fail "auto stepped down $(steps stepped) times (once expected)"
grep -q 'over the 0.001 ms budget' "$out/stepped.err" || fail "the step did not give the budget"
headless low "$out/session.trace" low 640x400
headless low "$out/no-ink.trace" no-ink 640x400
same=$(pixels "$out/stepped.png" "$out/low.png")
ink=$(pixels "$out/low.png" "$out/no-ink.png")
echo "$name: stepped session against a low replay: $same pixels differ; the ink covers $ink"
[ "$same" -eq 0 ] || fail "the stepped window ends unlike a low replay ($same pixels)"
[ "$ink" -gt 100 ] || fail "the ink shows in $ink pixels: its loss would not be seen"

# an explicit tier never steps, however slow: the window ends as the high tier draws. At 320x200:
# neither depends on the size, and lavapipe draws the high tier's four samples a pixel at a
# quarter of the cost (the two runs took two thirds of the test at 640x400).
window high high 320x200 --replay "$out/session.trace" --frames 250
[ "$(steps high)" -eq 0 ] || fail "--quality high stepped down"
headless high "$out/session.trace" high-replay 320x200
same=$(pixels "$out/high.png" "$out/high-replay.png")
echo "$name: --quality high against a high replay: $same pixels differ"
[ "$same" -eq 0 ] || fail "--quality high ends unlike a high replay ($same pixels)"

# frames at rest do not count: 40 frames of a book nobody touches (drawn high, at any size)
window auto rest 320x200 --frames 40
[ "$(steps rest)" -eq 0 ] || fail "frames at rest stepped down"
# its summary counts the 40 frames, not the exit screenshot's, and no input (the pointer SDL
# finds over the window as it opens under Xvfb moves nothing)
grep -qx 'pagecurl: 40 frames shown, 0 while a turn animated' "$out/rest.out" ||
    fail "the summary of 40 untouched frames: $(grep 'frames shown' "$out/rest.out")"
echo "$name: ok"
