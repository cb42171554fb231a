#!/bin/sh
# SPDX-License-Identifier: MIT
# lavapipe's fence race (docs/testing.md, Soak) on the window's own frame, and what running
# without rasteriser threads costs the window. Needs xvfb-run and python3; run it at nice -n 10 on
# a shared machine.
#   tools/window-race.sh race PAGECURL FENCE_RACE_SO RUNS FRAMES [WxH]
#       RUNS window replays of FRAMES frames (key turns and drags) with the race widened and
#       caught (tests/fence_race.c, the build's libfence_race.so): one line each with the exit
#       status (0: clean; 70: a fence destroyed under its signal, counted by the shim; 137: a
#       hang, the process killed once its CPU time stood still for 60 s) and the seconds taken.
#       Put LP_NUM_THREADS=2 in the environment on a machine of more cores, LP_NUM_THREADS=0 to
#       run the same frames without rasteriser threads.
#   tools/window-race.sh soak PAGECURL FENCE_RACE_SO SECONDS [WxH]
#       one window for SECONDS (an hour: 3600) replaying key turns, drags and a held leaf with the
#       race widened and caught as above (default 640x400), ended by SIGINT: its exit status (130:
#       stopped by the signal, as asked; 70: the race met; 137: a hang, killed) and CPU seconds.
#   tools/window-race.sh fps PAGECURL [VAR=VALUE...]
#       frames a second of a held drag in a 1280x800 window: the time of 400 frames less that of
#       100, under the environment given (say LP_NUM_THREADS=0).
set -u
traces=$(mktemp -d)
trap 'rm -rf "$traces"' EXIT
python3 - "$traces" <<'EOF'
import math, sys
out = sys.argv[1]
def turn(ev, t, gap):
    """A key turn and a dragged one from t, and back: their events appended, the end's time."""
    ev.append(f"{t:.3f} key next"); t += gap
    ev.append(f"{t:.3f} mouse down 0.10 0.80"); t += 0.016
    for k in range(30):
        ev.append(f"{t:.3f} mouse move {0.10 + 0.02 * k:.3f} 0.78"); t += 0.016
    ev.append(f"{t:.3f} mouse up 0.70 0.78"); t += gap
    ev.append(f"{t:.3f} key prev")
    return t + gap
def held(ev, t, frames):
    """A page held at t and dragged to and fro for frames 60ths of a second."""
    ev.append(f"{t:.3f} mouse down 0.90 0.80")
    for i in range(1, frames):
        ev.append(f"{t + i / 60:.3f} mouse move {0.55 + 0.3 * math.cos(i * 2 * math.pi / 240):.4f} 0.75")
    ev.append(f"{t + frames / 60:.3f} mouse up 0.80 0.75")
    return t + frames / 60
turns, t = ["# key turns and drags"], 0.0
for i in range(60):
    t = turn(turns, t, 0.6)
open(f"{out}/turns.trace", "w").write("\n".join(turns) + "\n")
drag = ["# a page held and dragged to and fro"]
held(drag, 0.0, 1800)
open(f"{out}/drag.trace", "w").write("\n".join(drag) + "\n")
ev, t = ["# an hour of key turns, drags and a held leaf"], 0.0
while t < 3700:
    for i in range(20):
        t = turn(ev, t, 0.5)
    t = held(ev, t, 600) + 0.5
open(f"{out}/hour.trace", "w").write("\n".join(ev) + "\n")
EOF
xvfb() {
    xvfb-run -a -s "-screen 0 1600x1000x24" "$@"
}
case ${1:-} in
race)
    exe=$2 shim=$3 runs=$4 frames=$5 size=${6:-1280x720}
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s.%N)
        # A hang is a deadlock: the process stops using the CPU. On a busy machine a run may be
        # slow but its CPU time still grows, so a run is taken for a hung one only when its CPU
        # time has not moved for 60 s (then KILLed: a hang ignores SIGTERM).
        xvfb sh -c '
            env LD_PRELOAD="$1" MALLOC_PERTURB_=165 "$2" --replay "$3" --frames "$4" \
                --size "$5" > /dev/null 2>&1 &
            pid=$!
            last= still=0
            while kill -0 "$pid" 2>/dev/null; do
                sleep 5
                now=$(awk "{print \$14 + \$15}" "/proc/$pid/stat" 2>/dev/null) || break
                if [ "$now" = "$last" ]; then still=$((still + 5)); else still=0; fi
                last=$now
                if [ "$still" -ge 60 ]; then kill -9 "$pid"; wait "$pid"; exit 137; fi
            done
            wait "$pid"' race "$shim" "$exe" "$traces/turns.trace" "$frames" "$size"
        rc=$?
        echo "run $i: exit $rc, $(echo "$(date +%s.%N) - $start" | bc) s"
        i=$((i + 1))
    done
    ;;
soak)
    exe=$2 shim=$3 seconds=$4 size=${5:-640x400}
    xvfb sh -c '
        env LD_PRELOAD="$1" MALLOC_PERTURB_=165 "$2" --replay "$3" --size "$5" > /dev/null 2>&1 &
        pid=$!
        last= still=0 cpu=0 waited=0
        while kill -0 "$pid" 2>/dev/null; do
            sleep 5
            waited=$((waited + 5))
            now=$(awk "{print \$14 + \$15}" "/proc/$pid/stat" 2>/dev/null) || break
            cpu=${now:-$cpu}
            if [ "$now" = "$last" ]; then still=$((still + 5)); else still=0; fi
            last=$now
            if [ "$still" -ge 60 ]; then kill -9 "$pid"; wait "$pid"; exit 137; fi
            [ "$waited" -lt "$4" ] || kill -INT "$pid"
        done
        wait "$pid"
        rc=$?
        echo "soak: exit $rc after $waited s, $((cpu / $(getconf CLK_TCK))) s of CPU"
        exit $rc' soak "$shim" "$exe" "$traces/hour.trace" "$seconds" "$size"
    ;;
fps)
    exe=$2
    shift 2
    for n in 100 400; do
        start=$(date +%s.%N)
        xvfb env "$@" "$exe" --replay "$traces/drag.trace" --frames $n --size 1280x800 > /dev/null 2>&1
        eval "t$n=$(echo "$(date +%s.%N) - $start" | bc)"
    done
    echo "$* fps $(echo "300 / ($t400 - $t100)" | bc -l | cut -c1-5)"
    ;;
*)
    sed -n '2,21p' "$0" >&2
    exit 2
    ;;
esac
