#!/bin/sh
# SPDX-License-Identifier: MIT
# The host's CPU time per frame, as BENCHMARKS.md reports it: ROUNDS rounds (default 6) of
# `--bench --grid 64x90 --frames 1000` at each tier (high, the default, and low), the builds given
# interleaved round by round (a host's own drift falls on all of them alike), then each build's
# and tier's round medians and their median.
#   tools/bench-cpu.sh PAGECURL [PAGECURL ...]     ROUNDS, FRAMES may be set in the environment
# Needs python3 for the summary.
set -eu
[ $# -gt 0 ] || { echo "usage: tools/bench-cpu.sh PAGECURL [PAGECURL ...]" >&2; exit 2; }
rounds=${ROUNDS:-6}
frames=${FRAMES:-1000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
r=1
while [ "$r" -le "$rounds" ]; do
    b=0
    for bin in "$@"; do
        for tier in high low; do
            "$bin" --bench --grid 64x90 --frames "$frames" --warmup 50 --quality "$tier" \
                --json "$out/$b-$tier-$r.json" >/dev/null
        done
        b=$((b + 1))
    done
    r=$((r + 1))
done
python3 - "$out" "$rounds" "$@" <<'EOF'
import json, os, statistics, sys
out, rounds, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
for b, name in enumerate(bins):
    for tier in ('high', 'low'):
        med, least, rec = [], [], []
        for r in range(1, rounds + 1):
            run = json.load(open(os.path.join(out, f'{b}-{tier}-{r}.json')))['runs'][0]
            med.append(run['cpu_per_frame']['median_ms'] * 1e3)
            least.append(run['cpu_per_frame']['min_ms'] * 1e3)
            rec.append(run.get('recorded_frames', -1))
        print(f"{name} {tier}: CPU per frame, median µs of each round: "
              f"{', '.join(f'{m:.1f}' for m in med)}; median of medians {statistics.median(med):.1f}; "
              f"least {min(least):.1f}; frames recorded {rec[0]} of {run['frames']}")
EOF
