#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's pictures of a real-looking book: makes a 12-page photo book (tools/make_book:
# procedural photos, text in DejaVu Serif; nothing downloaded) in a temporary folder, then renders
# it headless into docs/: a spread mid-turn and the hard cover opening.
#   tools/make-book.sh [BUILD_DIR]    (default build/default, relative to the repository; build
#                                     it first)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build/default}
for exe in "$build/tools/make_book" "$build/app/pagecurl"; do
    [ -x "$exe" ] || {
        echo "make-book.sh: no $exe: build first (cmake --build --preset default)" >&2
        exit 1
    }
done
book=$(mktemp -d)
trap 'rm -rf "$book"' EXIT
"$build/tools/make_book" "$book/lakes-and-hills"
render() {
    "$build/app/pagecurl" --headless --quality high --size 960x540 \
        --book "$book/lakes-and-hills" "$@"
}
render --page 5 --curl 0.45 --grab 0.2 --screenshot docs/book-turn.png
render --cover hard --curl 0.3 --grab 0.3 --screenshot docs/book-cover.png
