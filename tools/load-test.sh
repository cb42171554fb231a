#!/bin/sh
# SPDX-License-Identifier: MIT
# The test suite on a busy machine: runs the whole suite (ctest, after a build) ROUNDS times in a
# row (default 3) beside two busy processes per core, as a newcomer's first `./dev.sh test` may
# meet on a shared 2-core machine; stops at the first round that fails. The tests wait for the
# events they need (a ceiling only catches a hang), so the suite passes whatever else runs.
#   tools/load-test.sh [ROUNDS]        PRESET picks the build (default: default)
# Each round's summary goes to build/$PRESET/load-test-N.log.
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-3}
preset=${PRESET:-default}
case $rounds in '' | *[!0-9]*) echo "load-test.sh: ROUNDS is a count: $rounds" >&2; exit 2 ;; esac

cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"

cores=$(nproc 2>/dev/null || echo 1)
busy=''
stop_busy() {
    # shellcheck disable=SC2086 # a list of PIDs
    [ -z "$busy" ] || kill $busy 2>/dev/null || true
}
trap stop_busy EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
n=0
while [ "$n" -lt $((2 * cores)) ]; do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
    n=$((n + 1))
done
echo "load-test.sh: $((2 * cores)) busy processes on $cores cores"

round=1
while [ "$round" -le "$rounds" ]; do
    log="build/$preset/load-test-$round.log"
    start=$(date +%s)
    if ctest --preset "$preset" >"$log" 2>&1; then
        echo "load-test.sh: round $round of $rounds passed in $(($(date +%s) - start)) s"
    else
        grep -E 'tests passed|\*\*\*|Failed' "$log" >&2 || true
        echo "load-test.sh: round $round of $rounds failed ($log)" >&2
        exit 1
    fi
    round=$((round + 1))
done
