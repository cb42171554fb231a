#!/bin/sh
# SPDX-License-Identifier: MIT
# The page under the finger, run under xvfb-run: in a 1280x720 window open at pages 2 | 3 (a
# spread with pages on both sides), press the right page's bottom-right corner (found in a
# capture of the book at rest, seen face-on), drag it to (833, 564) and hold still; the leaf's
# tip in the captured window must lie within 3 px of the pointer, though the view has pulled back
# for the lifted leaf meanwhile. Then a key-press turn must show at least 10 distinct frames.
#
# The tip: the folded-over flap shows the leaf's back, blue graph paper (blue over red by more
# than 30/255, which the cream page's thin blue rules are not), and of its pixels within 80 px of
# the pointer the one furthest in the drag's direction: the corner leads the flap.
#
# The frames: a capture from outside (import) takes longer than a turn's frame, so the turn is
# recorded in a window (--record) and replayed headless with --frames-out, which writes every
# frame of the replay's fixed 60 Hz clock: at least 10 of them must differ from the one before
# (the turn lasts long enough and moves every frame, rather than popping). That count does not
# depend on how loaded the machine is; how many of those moments a live window shows does (the
# animation runs on real time, so a slow frame skips ahead): pagecurl's exit line says how many
# frames it presented while the turn animated, printed here for the record. Then a recorded drag
# replayed to a crease must show its flap whole
# (their descriptions below).
set -u
exe=$1
out=${2:-.}
mkdir -p "$out"
name=window_drag
. "$(dirname "$0")/window_lib.sh"
fail() { echo "$name: $*" >&2; kill "$pid" 2>/dev/null; exit 1; }

# At the default tier (low on lavapipe): its anti-aliased outline lies where the high tier's
# samples put it (docs/rendering.md, Quality tiers), so the corner found at rest and the tip
# found held are the paper's own.
window_start "$exe" --validation --size 1280x720 --page 3 > "$out/drag-stdout.txt"
# The book at rest once it stays the same: the first frame drawn can show blank paper while the
# pages' print still streams in (slow frames: sanitizers, a loaded machine), and every ruled line
# that appears later would count as changed by the drag.
wait_drawn "$out/rest.png" || { kill "$pid"; exit 1; }
wait_settled "$out/rest.png" || fail "the book at rest never came to rest"
# the paper's bottom-right-most pixel: the right page's free corner
corner=$(convert "$out/rest.png" -fuzz 3% -fill white -opaque '#E3DED3' -fill black \
    +opaque white txt:- |
    awk -F'[,: ]+' 'NR > 1 && /#FFFFFF/ { if ($1 + $2 > best) { best = $1 + $2; c = $1 " " $2 } }
        END { print c }')
set -- $corner
[ $# -eq 2 ] || fail "no page found in $out/rest.png"
cx=$1 cy=$2 tx=833 ty=564
echo "$name: the page's corner at ($cx, $cy), dragged to ($tx, $ty)"
xdotool mousemove --window "$win" "$cx" "$cy" mousedown 1
for i in 1 2 3 4 5 6 7 8 9 10; do
    xdotool mousemove --window "$win" $((cx + (tx - cx) * i / 10)) $((cy + (ty - cy) * i / 10))
    sleep 0.05
done
wait_changed "$out/rest.png" "$out/held.png" || fail "the drag changed nothing"
wait_settled "$out/held.png" || fail "the held page never came to rest"
ox=$((tx - 80)) oy=$((ty - 80))
tip=$(convert "$out/held.png" -crop "161x161+$ox+$oy" +repage -fx '(b - r) > 0.118 ? 1 : 0' \
    txt:- |
    awk -F'[,: ]+' -v cx="$cx" -v cy="$cy" -v tx="$tx" -v ty="$ty" -v ox="$ox" -v oy="$oy" '
        BEGIN { ux = tx - cx; uy = ty - cy; l = sqrt(ux * ux + uy * uy); ux /= l; uy /= l; best = -1e9 }
        NR > 1 && /#FFFFFF|gray\(255\)|white/ {
            x = $1 + ox; y = $2 + oy
            if ((x - tx) ^ 2 + (y - ty) ^ 2 < 80 ^ 2) {
                d = (x - cx) * ux + (y - cy) * uy
                if (d > best) { best = d; tip = x " " y }
            }
        }
        END { print tip }')
set -- $tip
[ $# -eq 2 ] || fail "no leaf tip near the pointer in $out/held.png"
off=$(awk -v x="$1" -v y="$2" -v tx="$tx" -v ty="$ty" \
    'BEGIN { printf "%.1f", sqrt((x - tx) ^ 2 + (y - ty) ^ 2) }')
echo "$name: the leaf's tip at ($1, $2), $off px from the pointer"
xdotool mouseup 1
window_quit
[ "$status" -eq 0 ] || fail "pagecurl exited with $status"
awk -v o="$off" 'BEGIN { exit !(o <= 3.0) }' ||
    fail "the grabbed corner shows $off px from the pointer (at most 3)"

# A key-press turn, recorded in a window and replayed headless frame by frame.
window_start "$exe" --validation --size 320x200 --msaa 1 --record "$out/key.trace" \
    > "$out/key-stdout.txt"
wait_drawn "$out/key-rest.png" || { kill "$pid"; exit 1; }
xdotool key --window "$win" Right
wait_changed "$out/key-rest.png" "$out/key-after.png" 50 || fail "Right changed nothing"
wait_settled "$out/key-after.png" || fail "the turn never settled"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl exited with $status"
cat "$out/key-stdout.txt"
grep -q ' key next$' "$out/key.trace" || fail "Right was not recorded"
# the key at 0.1 s instead of seconds into the session: the frames before it are all alike
awk '/ key next$/ { $1 = "0.10"; print }' "$out/key.trace" > "$out/key-early.trace"
rm -rf "$out/frames"
mkdir -p "$out/frames"
timeout 300 "$exe" --headless --validation --size 320x200 --msaa 1 --replay "$out/key-early.trace" \
    --frames-out "$out/frames" > /dev/null || fail "the replay failed"
distinct=0
prev=
for f in "$out"/frames/frame-*.png; do
    if [ -n "$prev" ] && [ "$(compare -metric AE "$prev" "$f" null: 2>&1)" != 0 ]; then
        distinct=$((distinct + 1))
    fi
    prev=$f
done
echo "$name: the replayed key-press turn shows $distinct distinct frames"
[ "$distinct" -ge 10 ] || fail "the key-press turn shows $distinct distinct frames (at least 10)"
# The fold seen whole: tests/fold.trace is a drag recorded in a 1920x1080 window on a PDF (Right
# to pages 2 | 3, the right page taken near its bottom-right corner and pulled left and up; the
# moves' times evened to 0.1 s). The view pulls back under the held pointer, which then lies
# beyond the leaf's reach: the pose is a crease (roll radius 0) along a diagonal from the spine's
# head, its flap folded flat onto the leaf's own face-up part. Both lay at one depth and fought
# in jagged blocks ("torn paper"). Replayed headless on a book of plain colours, the leaf's front
# blue and its back yellow, the crease's last frame must show no blue between yellow on a row
# (the flat part showing through the flap): 17,419 such pixels before, 2 now.
mkdir -p "$out/fold-book"
i=1
for c in '#c03030' '#30a030' '#3030c0' '#d0c020' '#c030c0' '#30c0c0'; do
    convert -size 306x396 "xc:$c" "$out/fold-book/p$i.png"
    i=$((i + 1))
done
timeout 300 "$exe" "$out/fold-book" --headless --validation --size 960x540 \
    --replay "$(dirname "$0")/fold.trace" --frames 72 --screenshot "$out/fold.png" > /dev/null ||
    fail "the fold's replay failed"
torn=$(convert "$out/fold.png" txt:- | awk -F'[,: ()]+' 'NR > 1 {
        y = $2; r = $3; g = $4; b = $5
        if (y != row) { row = y; seen = 0; run = 0 }
        if (b > r + 60 && b > g + 60) { if (seen) run++ }
        else if (r > b + 60 && g > b + 60) { torn += run; run = 0; seen = 1; flap++ }
    } END { print torn + 0, flap + 0 }')
set -- $torn
echo "$name: the crease shows $1 px of the leaf's front through its flap ($2 px of flap)"
[ "$2" -ge 20000 ] || fail "no flap in $out/fold.png ($2 px)"
[ "$1" -le 50 ] || fail "the crease shows $1 px of the leaf's front through its flap (at most 50)"

echo "$name: ok"
