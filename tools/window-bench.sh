#!/bin/sh
# SPDX-License-Identifier: MIT
# The window measured where the reader is: six replayed traces (a slow corner drag, key turns,
# thumbing into a held leaf, a zoomed pan at 3x, zoom steps, turns from a zoomed view) in a
# window under Xvfb and the same replay headless, alternating, at 1280x720 and 1920x1080: the
# mean, median and 95th percentile
# of each one's frame times (PAGECURL_FRAME_LOG, app/frame_log.h: the time from one frame's end
# to the next's, the first 5 of a run left out). Needs xvfb-run, python3 and the build.
#   tools/window-bench.sh [-r ROUNDS] [-s WxH[,...]] [-t TRACE[,...]] [-c OTHER] [PAGECURL [BOOK]]
# With -c, the pagecurl OTHER (another build: copy its app/pagecurl beside PAGECURL, whose page
# helper it finds there) runs each replay too, in turn with PAGECURL, on lines of its own.
# PAGECURL defaults to build/default/app/pagecurl; BOOK to the 12-page photo book that
# build/default/tools/make_book makes (the built-in book where there is none; "builtin" asks for
# it). ROUNDS (default 2) window and headless runs of each trace at each size, their frames pooled.
# Extra variables for the window's run only go in WINDOW_ENV (say WINDOW_ENV=LP_NUM_THREADS=2).
# Prints one line per trace and size; the load average before and after, since others' work on
# the same cores shows in every figure.
set -eu
cd "$(dirname "$0")/.."
rounds=2 sizes=1280x720,1920x1080 only= warm=5 other=
while getopts r:s:t:c: opt; do
    case $opt in
    r) rounds=$OPTARG ;;
    s) sizes=$OPTARG ;;
    t) only=$OPTARG ;;
    c) other=$OPTARG ;;
    *) sed -n '2,17p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
exe=${1:-build/default/app/pagecurl}
for e in "$exe" $other; do
    [ -x "$e" ] || { echo "window-bench.sh: no $e: build first" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
book=${2:-}
if [ -z "$book" ] && [ -x build/default/tools/make_book ]; then
    build/default/tools/make_book "$work/book" > /dev/null
    book=$work/book
fi
[ "$book" = builtin ] && book=
name=built-in
[ -n "$book" ] && name=$(basename "$book")
python3 - "$work" <<'PY'
import sys
out = sys.argv[1]
def write(name, lines):
    open(f"{out}/{name}.trace", "w").write("\n".join([f"# {name}"] + lines) + "\n")
hz = 1 / 60
# a slow corner drag: the right page's corner taken and carried across in 3 s, let go
drag, t = ["0.000 mouse down 0.950 0.900"], 0.0
for i in range(1, 181):
    t = i * hz
    drag.append(f"{t:.3f} mouse move {0.95 - 0.85 * i / 180:.4f} {0.90 - 0.05 * i / 180:.4f}")
drag.append(f"{t + hz:.3f} mouse up 0.100 0.850")
write("drag", drag)
# key turns: five, 0.6 s apart (each lands before the next)
write("keys", [f"{0.2 + 0.6 * i:.3f} key next" for i in range(5)])
# thumbing: four flicks of the right page 150 ms apart, the last press held through the landing
# and carried slowly (a drag of the next leaf)
thumb, t = [], 0.2
for i in range(4):
    thumb += [f"{t:.3f} mouse down 0.900 0.800", f"{t + 0.033:.3f} mouse move 0.700 0.790",
              f"{t + 0.050:.3f} mouse up 0.600 0.790"]
    t += 0.15
thumb.append(f"{t:.3f} mouse down 0.900 0.800")
for i in range(1, 121):
    thumb.append(f"{t + i * hz:.3f} mouse move {0.90 - 0.5 * i / 120:.4f} 0.790")
thumb.append(f"{t + 121 * hz:.3f} mouse up 0.400 0.790")
write("thumb", thumb)
# The zoomed replays open the book where they start (a goto draws no turn, whose frames would
# be counted with theirs).
# a zoomed pan: the book open, 3x about the spine, then 150 small pans at 60 Hz (a pinch's
# centre moving), half one way and half back, within the pan's limits
pan = ["0.000 key goto 2", "0.800 zoom by 3.000000 0.500 0.500"]
for i in range(150):
    d = 1 if i < 75 else -1
    pan.append(f"{1.0 + i * hz:.3f} zoom pan {-0.004 * d:.4f} {0.002 * d:.4f}")
write("pan", pan)
# zoom steps on the open book: eight in, eight out, 0.4 s apart (a step is one frame, which
# waits up to 0.08 s for its pages drawn sharp, and the frames its sharper drawings bring)
write("zoom", ["0.000 key goto 2"] + [f"{0.8 + 0.4 * i:.3f} zoom by {1.25 if i < 8 else 0.8:.6f} "
                                      "0.400 0.450" for i in range(16)])
# turns from a zoomed view: 3x, then four key turns 1.2 s apart, each easing back to fit for its
# leaf and, once landed, back in to 3x (the ease's frames: the picture scaled)
write("zturn", ["0.000 key goto 2", "0.800 zoom by 3.000000 0.400 0.450"] +
      [f"{1.6 + 1.2 * i:.3f} key next" for i in range(4)])
PY
# mean, median and 95th percentile (nearest rank) of the numbers in the files named, each one's
# first $warm lines left out. The mean is the rate: a headless run's frames are not waited for one
# by one (a few in flight, every few a wait for the oldest), so its median alone says little.
stats() {
    for f in "$@"; do tail -n +"$((warm + 1))" "$f"; done | sort -g | awk '
        { v[NR] = $1; sum += $1 }
        END {
            if (!NR) { printf "%7s %7s %7s %5d", "-", "-", "-", 0; exit }
            m = v[int((NR + 1) / 2)]; p = v[int(0.95 * NR + 0.999)]
            printf "%7.1f %7.1f %7.1f %5d", sum / NR, m, p, NR
        }'
}
run() { # EXE MODE SIZE TRACE LOG
    x=$1
    shift
    if [ "$1" = window ]; then
        # shellcheck disable=SC2086 # WINDOW_ENV is a list of VAR=VALUE words
        PAGECURL_FRAME_LOG=$4 xvfb-run -a -s "-screen 0 2000x1200x24" env ${WINDOW_ENV:-} \
            "$x" --replay "$work/$3.trace" --size "$2" ${book:+"$book"} > /dev/null 2>&1
    else
        PAGECURL_FRAME_LOG=$4 "$x" --headless --replay "$work/$3.trace" --size "$2" \
            ${book:+"$book"} > /dev/null 2>&1
    fi || echo "window-bench.sh: $1 $3 at $2 failed" >&2
}
echo "pagecurl window-bench: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), book $name," \
    "$rounds round(s), ms a frame (first $warm of each run left out)"
printf '%-10s %-6s %7s %7s %7s %5s   %7s %7s %7s %5s   %s\n' size trace mean median p95 n \
    mean median p95 n "window/headless (means)"
printf '%-10s %-6s %29s   %29s\n' "" "" "window" "headless"
for size in $(echo "$sizes" | tr , ' '); do
    for trace in $(echo "${only:-drag,keys,thumb,pan,zoom,zturn}" | tr , " "); do
        i=0
        while [ "$i" -lt "$rounds" ]; do
            b=0
            for e in "$exe" $other; do
                run "$e" window "$size" "$trace" "$work/w$b-$size-$trace-$i.log"
                run "$e" headless "$size" "$trace" "$work/h$b-$size-$trace-$i.log"
                b=$((b + 1))
            done
            i=$((i + 1))
        done
        b=0
        for e in "$exe" $other; do
            w=$(stats "$work"/w$b-"$size"-"$trace"-*.log) h=$(stats "$work"/h$b-"$size"-"$trace"-*.log)
            ratio=$(echo "$w $h" | awk '{ printf "%.2f", ($5 > 0 ? $1 / $5 : 0) }')
            label=$trace
            [ -n "$other" ] && label="$trace ($(basename "$e"))"
            printf '%-10s %-6s %s   %s   %s\n' "$size" "$label" "$w" "$h" "$ratio"
            b=$((b + 1))
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
