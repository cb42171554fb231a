#!/bin/sh
# SPDX-License-Identifier: MIT
# The page helper, apart from the library (docs/page-helper.md):
#   1. libpagecurl.so and the pagecurl program hold no MuPDF: `nm -D` and `nm` show no fz_ or pdf_
#      symbol, defined or wanted; the helper, built with MuPDF, does hold it; libpagecurl.so
#      stripped is at most 6 MB;
#   2. a folder book opens with the helper found beside the program, and a page is drawn;
#   3. PAGECURL_PAGES_HELPER naming a file that is not there, or a program that is no helper,
#      refuses the book in one line that names it, exit 1 (no crash, no screenshot written);
#   4. the helper run by hand says what it is in one line, exit 2.
#
# sh tests/page_helper.sh LIBRARY PROGRAM HELPER PICTURE OUT MUPDF
#   LIBRARY: libpagecurl.so ("none" for a static build); PROGRAM: pagecurl; HELPER: pagecurl-pages;
#   PICTURE: a PNG to make a book of; OUT: a folder of its own (emptied first); MUPDF: ON or OFF.
set -u
lib=${1#none} program=$2 helper=$3 picture=$4 out=$5 mupdf=$6
failed=0
fail() {
    echo "page_helper: $*" >&2
    failed=1
}
rm -rf "$out"
mkdir -p "$out/book"
cp "$picture" "$out/book/page1.png" || exit 1

# 1. No MuPDF outside the helper.
mupdf_symbols() { # file, then nm's flags
    f=$1
    shift
    nm "$@" "$f" 2>/dev/null | awk '{print $NF}' | grep -E '^(fz|pdf)_' | head -n 3
}
for f in $lib $program; do
    for flags in -D ""; do
        found=$(mupdf_symbols "$f" $flags)
        [ -z "$found" ] || fail "$f: nm $flags shows MuPDF's symbols: $(echo $found)"
    done
done
if [ "$mupdf" = ON ] && [ -z "$(mupdf_symbols "$helper")" ]; then
    fail "$helper: no MuPDF symbol in the helper built with MuPDF (the check sees nothing)"
fi
if [ -n "$lib" ]; then
    strip -o "$out/stripped.so" "$lib" || fail "cannot strip $lib"
    size=$(wc -c <"$out/stripped.so")
    echo "libpagecurl.so stripped: $size bytes"
    [ "$size" -le 6000000 ] || fail "libpagecurl.so stripped is $size bytes, more than 6 MB"
fi

# 2. A book of one page, drawn through the helper the program finds beside itself.
run() { # what, then the environment's helper ("" for none), then the expected status
    what=$1 named=$2 want=$3
    rm -f "$out/shot.png"
    if [ -n "$named" ]; then
        PAGECURL_PAGES_HELPER=$named "$program" --headless --book "$out/book" --frames 1 \
            --screenshot "$out/shot.png" >"$out/stdout" 2>"$out/stderr"
    else
        "$program" --headless --book "$out/book" --frames 1 --screenshot "$out/shot.png" \
            >"$out/stdout" 2>"$out/stderr"
    fi
    status=$?
    [ "$status" -eq "$want" ] || fail "$what: exit $status, want $want ($(cat "$out/stderr"))"
}
run "the helper found beside the program" "" 0
[ -s "$out/shot.png" ] || fail "no screenshot of the folder book"
[ ! -s "$out/stderr" ] || fail "the folder book said: $(cat "$out/stderr")"

# 3. A helper named that cannot be one: one line naming it.
refused() { # what, the path named, a phrase the line must hold
    run "$1" "$2" 1
    lines=$(wc -l <"$out/stderr")
    [ "$lines" -eq 1 ] || fail "$1: $lines lines, want one: $(cat "$out/stderr")"
    grep -q -- "$2" "$out/stderr" || fail "$1: the line does not name $2: $(cat "$out/stderr")"
    grep -q -- "$3" "$out/stderr" || fail "$1: the line does not say \"$3\": $(cat "$out/stderr")"
    [ ! -e "$out/shot.png" ] || fail "$1: a screenshot was written"
    echo "$1: $(cat "$out/stderr")"
}
refused "a helper that is not there" "$out/no-such-helper" "cannot be started"
refused "a program that is no helper" /bin/true "not a page helper"

# 4. By hand.
"$helper" >"$out/stdout" 2>"$out/stderr" </dev/null
status=$?
[ "$status" -eq 2 ] || fail "the helper run by hand: exit $status, want 2"
[ "$(wc -l <"$out/stderr")" -eq 1 ] || fail "the helper run by hand: $(cat "$out/stderr")"

[ "$failed" -eq 0 ] && echo "page_helper: no MuPDF in the library or the program; the helper found, and one line where it is not"
exit "$failed"
