#!/bin/sh
# SPDX-License-Identifier: MIT
# Where you are, run under xvfb-run: the window's title names the pages shown and the book's
# length. The built-in book opens at "pagecurl: 1 / 16" (page 1 alone, on the right); Right
# turns a leaf: "2-3 / 16"; Right three times more in quick succession (the turns queue) heads
# for "8-9 / 16"; I adds the mode; G, 13, Enter opens at "12-13 / 16" and G, 3, Escape goes
# nowhere (the window stays open). Bound on the right (--rtl) the arrows go the way the pages
# move: Left turns forward, Right back. A portrait window shows one page: Right visits 1, 2, 3,
# 4, 5 of a five-page book, "1 / 5" .. "5 / 5", and Left comes back. A notebook keeps the reader's place: turned to 4-5 and
# closed, it reopens there. A book of an odd length turned to its end reads "end / 3". Read
# with xdotool getwindowname. The page field's Enter counts as an input in the exit's summary.
# A PDF's place is kept without a notebook, in the state folder (window_lib.sh makes one of this
# script's own), and G with nothing typed lists its contents: Down, Enter goes to the second
# entry. Search: in a PDF with "zephyr" on pages 2 and 5, / opens the search field; typed and
# Enter goes to the first match after the spread open (2-3), Enter again to the next (4-5),
# Shift+Enter back (2-3); Escape closes the field (the title stays) and n goes on to the next;
# n steps match by match, the next on the same page too (page 5 has two).
# Links: a click on one follows it, Backspace and Alt+Left go back, Alt+Right forward, and a drag
# from one still turns the page.
# There Shift+drag selects page 4's text and Ctrl+C copies it (read back with xclip); Escape
# clears the selection before it quits. A match too small to read is enlarged (a smaller window).
set -u
exe=$1
name=window_where
. "$(dirname "$0")/window_lib.sh"
fail() { echo "$name: $*" >&2; kill "$pid" 2>/dev/null; exit 1; }
has_title_like() { case $(title) in "$1"*) return 0 ;; esac; return 1; }
# expect TITLE: the title becomes TITLE within 60 s (a loaded machine draws late)
expect() {
    poll 60 has_title "$1" || fail "the title is '$(title)', want '$1'"
    echo "$name: $1"
}
window_start "$exe" --validation --size 640x400
expect "pagecurl: 1 / 16"
xdotool key --window "$win" Right
expect "pagecurl: 2-3 / 16"
xdotool key --window "$win" --delay 60 Right Right Right
expect "pagecurl: 8-9 / 16"
xdotool key --window "$win" i
expect "pagecurl: 8-9 / 16, ink (I: turn pages)"
xdotool key --window "$win" i
expect "pagecurl: 8-9 / 16"
# G opens the page field: 13, Enter goes there; 3 then Escape closes it and goes nowhere
xdotool key --window "$win" g
xdotool type --window "$win" --delay 60 13
xdotool key --window "$win" Return
expect "pagecurl: 12-13 / 16"
xdotool key --window "$win" g 3 Escape
sleep 1
has_title "pagecurl: 12-13 / 16" || fail "Escape in the page field: the title is '$(title)'"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl exited with $status"
window_start "$exe" --validation --size 640x400 --rtl
expect "pagecurl: 1 / 16"
xdotool key --window "$win" Left
expect "pagecurl: 2-3 / 16"
xdotool key --window "$win" Right
expect "pagecurl: 1 / 16"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --rtl exited with $status"
nb=$(mktemp -d)/where.json
printf '{"format": "pagecurl-notebook", "version": 1, "pages": []}\n' > "$nb"
window_start "$exe" --validation --size 640x400 --notebook "$nb"
expect "pagecurl: 1 / 16"
xdotool key --window "$win" --delay 60 Right Right
expect "pagecurl: 4-5 / 16"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --notebook exited with $status"
grep -q '"at": 4,' "$nb" || fail "the notebook does not keep the place: $(cat "$nb")"
window_start "$exe" --validation --size 640x400 --notebook "$nb"
expect "pagecurl: 4-5 / 16"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --notebook (reopened) exited with $status"
rm -rf "$(dirname "$nb")"
# A book of an odd length turned to its end lies closed on its last leaf's blank back: no page
# shows, "end / 3" (it read "1 / 3", the first spread's, and the notebook kept page 1 as the
# reader's place). Its three pages are the program's own pictures.
book=$(mktemp -d)
for i in 1 2 3; do
    "$exe" --headless --size 96x128 --curl 0 --screenshot "$book/p$i.png" >/dev/null 2>&1 ||
        fail "cannot make page $i"
done
nb=$book/odd.json
window_start "$exe" --validation --size 640x400 --book "$book" --page 3 --notebook "$nb"
expect "pagecurl: 2-3 / 3"
# a stroke on page 3, so that the notebook is written (with the place)
xdotool mousemove --window "$win" 420 200 mousedown 3
for x in 440 460 480 500; do
    xdotool mousemove --window "$win" "$x" 200
    sleep 0.05
done
xdotool mouseup 3
xdotool key --window "$win" Right
expect "pagecurl: end / 3"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl on a 3-page book exited with $status"
grep -q '"at": 3,' "$nb" || fail "the notebook keeps another place than the end: $(cat "$nb")"
rm -rf "$book"
# The one-page view (a portrait window) visits every page in order, one at a time: Right steps
# 1, 2, 3, 4, 5 (to a spread's right-hand page by a slide of the view, to the next spread's
# left-hand page by a turn that carries the view with its leaf), Left back to 1 (it went 1, 3, 5:
# the even pages showed only on the back of the turning leaf); bound on the right, Left goes
# forward. Its five pages are the program's own pictures of the built-in book's spreads.
book=$(mktemp -d)
for i in 1 2 3 4 5; do
    "$exe" --headless --size 96x128 --page $((2 * i - 1)) --curl 0 --screenshot "$book/p$i.png" \
        >/dev/null 2>&1 || fail "cannot make page $i"
done
window_start "$exe" --validation --size 300x480 --book "$book"
expect "pagecurl: 1 / 5"
for p in 2 3 4 5; do
    xdotool key --window "$win" Right
    expect "pagecurl: $p / 5"
done
xdotool key --window "$win" Right
sleep 1
has_title "pagecurl: 5 / 5" || fail "Right past the last page: the title is '$(title)'"
for p in 4 3 2 1; do
    xdotool key --window "$win" Left
    expect "pagecurl: $p / 5"
done
window_quit
[ "$status" -eq 0 ] || fail "pagecurl in a portrait window exited with $status"
window_start "$exe" --validation --size 300x480 --book "$book" --rtl --page 2
expect "pagecurl: 2 / 5"
xdotool key --window "$win" Left
expect "pagecurl: 3 / 5"
xdotool key --window "$win" Right
expect "pagecurl: 2 / 5"
xdotool key --window "$win" Right
expect "pagecurl: 1 / 5"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --rtl in a portrait window exited with $status"
rm -rf "$book"
# The page field's Enter is an input whose latency the exit's summary measures, as a key that
# turns a page is: a session of G, 5, Enter alone says it (it said none).
log=$(mktemp)
window_start "$exe" --validation --size 640x400 >"$log"
expect "pagecurl: 1 / 16"
xdotool key --window "$win" g
xdotool type --window "$win" --delay 60 5
xdotool key --window "$win" Return
expect "pagecurl: 4-5 / 16"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl (the page field's session) exited with $status"
grep -q "input to display .*(1 inputs)" "$log" || fail "the summary measured no input: $(cat "$log")"
rm -f "$log"
# The place kept (app/place.h) and the contents. A PDF of nine pages whose outline is
# Introduction (page 1), Part Two (5), Section 2.1 (6), Loop (2): tests/fuzz/pdf/outline.pdf.
# Opened afresh it shows page 1; G with nothing typed lists the contents, the reader's section
# (Introduction) chosen: Down chooses the second entry, Enter goes to its page. Closed, moved and
# reopened, it opens there again (its place follows its identity, not its path). --page says
# otherwise; --no-remember neither reads the place nor keeps it; another PDF put at its path
# opens at its start.
books=$(mktemp -d)
places=$XDG_STATE_HOME/pagecurl/places
cp "$(dirname "$0")/fuzz/pdf/outline.pdf" "$books/book.pdf"
window_start "$exe" --validation --size 640x400 "$books/book.pdf"
expect "pagecurl: 1 / 9"
xdotool key --window "$win" g
xdotool key --window "$win" --delay 60 Down Return
expect "pagecurl: 4-5 / 9"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl on a PDF with an outline exited with $status"
# its identity: "pdf-", the page count and a digest of its bytes (it has no /ID)
place=$(ls "$places"/pdf-9-* 2>/dev/null)
[ -f "$place" ] && grep -qx 'page 4' "$place" ||
    fail "the place kept is not page 4: $(ls -l "$places"; cat "$places"/*)"
mv "$books/book.pdf" "$books/moved.pdf"
window_start "$exe" --validation --size 640x400 "$books/moved.pdf"
expect "pagecurl: 4-5 / 9"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl on the PDF reopened exited with $status"
# The view comes back with the place: fitted to page 5's width (W over it) and scrolled down it
# (Space), closed and reopened, the window shows the same picture; the place's file says the view.
shots=$(mktemp -d)
window_start "$exe" --validation --size 640x400 "$books/moved.pdf"
expect "pagecurl: 4-5 / 9"
xdotool mousemove --window "$win" 480 200
xdotool key --window "$win" --delay 100 w space
wait_settled "$shots/kept.png" || fail "the view fitted to width did not come to rest in 60 s"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl fitted to width exited with $status"
grep -qx 'view width 5 0\.[0-9]*' "$place" || fail "the place keeps no view: $(cat "$place")"
window_start "$exe" --validation --size 640x400 "$books/moved.pdf"
expect "pagecurl: 4-5 / 9"
wait_settled "$shots/back.png" || fail "the view reopened did not come to rest in 60 s"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl reopened fitted to width exited with $status"
n=$(differ "$shots/kept.png" "$shots/back.png")
[ "$n" -lt 100 ] || fail "reopened, the view is not the one left: $n pixels differ ($shots)"
# ... and it is the first frame's, no fitted spread shown before it: frames 1 s apart (a test
# hook), the first picture captured while it stands is the view left (before, the whole spread
# on the backdrop: 156,964 pixels unlike it)
export PAGECURL_FRAME_SLEEP_MS=1000
window_start "$exe" --validation --size 640x400 "$books/moved.pdf"
unset PAGECURL_FRAME_SLEEP_MS
wait_drawn "$shots/first.png" || fail "the reopened window drew nothing"
n=$(differ "$shots/kept.png" "$shots/first.png")
window_quit
[ "$status" -eq 0 ] || fail "pagecurl reopened slowly exited with $status"
[ "$n" -lt 1000 ] || fail "reopened, the first frame is not the view left: $n pixels differ ($shots)"
echo "$name: the first frame reopened is the view left ($n pixels differ)"
rm -rf "$shots"
window_start "$exe" --validation --size 640x400 --page 2 "$books/moved.pdf"
expect "pagecurl: 2-3 / 9"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --page 2 on the PDF exited with $status"
window_start "$exe" --validation --size 640x400 --no-remember "$books/moved.pdf"
expect "pagecurl: 1 / 9"
xdotool key --window "$win" --delay 60 Right Right
expect "pagecurl: 4-5 / 9"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl --no-remember exited with $status"
grep -qx 'page 2' "$place" || fail "--no-remember kept the place: $(cat "$place")"
# T opens the same field on the contents, a tree: Left folds the entry chosen (Part Two: its
# Section 2.1 goes from the list, so Down goes on to Loop, page 2), or on an entry without children
# chooses the one it lies under (Section 2.1 -> Part Two, page 5); Right unfolds, and on an open
# entry chooses its first child (Part Two -> Section 2.1, page 6). A click on a row opens it.
window_start "$exe" --validation --size 640x400 --no-remember "$books/moved.pdf"
expect "pagecurl: 1 / 9"
xdotool key --window "$win" --delay 100 t Down Left Down Return
expect "pagecurl: 2-3 / 9"
xdotool key --window "$win" --delay 100 t Up Left Return
expect "pagecurl: 4-5 / 9"
xdotool key --window "$win" --delay 100 t Up Up Left Right Right Return
expect "pagecurl: 6-7 / 9"
# A click on a row of the contents opens its page: the panel at 640x400 is drawn at 1x from (8,
# 8), its lines 12 pixels apart from y 10: the fifth row below the field's two lines, Loop, at y 76.
# A click on the field's own line (y 16) opens nothing (the field stays open: Escape closes it).
xdotool key --window "$win" t
xdotool mousemove --window "$win" 60 16 click 1
sleep 0.5
xdotool mousemove --window "$win" 60 76 click 1
expect "pagecurl: 2-3 / 9"
# The HUD (H) says that T, or a click on its line of where the reader is, opens the contents: a
# click there (y 16: its first line at any of the HUD's scales) opens them on Loop's section, Up
# and Enter go to Section 2.1.
xdotool key --window "$win" h
xdotool mousemove --window "$win" 60 16 click 1
xdotool key --window "$win" --delay 100 Up Return
expect "pagecurl: 6-7 / 9"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl folding the contents exited with $status"
cp "$(dirname "$0")/fuzz/pdf/two.pdf" "$books/moved.pdf"
window_start "$exe" --validation --size 640x400 "$books/moved.pdf"
expect "pagecurl: 1 / 2"
# A book without contents: the HUD's line offers none, and a click on it opens nothing, so the
# first Escape after it closes the HUD and the second quits (a field the click opened would take
# the first).
xdotool key --window "$win" h
sleep 0.5
xdotool mousemove --window "$win" 60 16 click 1
sleep 0.5
xdotool key --window "$win" Escape
sleep 0.5
running || fail "the first Escape after a click on a book's HUD without contents quit"
xdotool key --window "$win" Escape
window_wait
[ "$status" -eq 0 ] || fail "pagecurl on another PDF at the path exited with $status"
rm -rf "$books"
# Search (app/search_field.h): tests/fuzz/pdf/search.pdf has "zephyr" on pages 2 and 5
traces=$(mktemp -d)
# frames 250 ms apart (a test hook): a slow frame reads the whole Shift+drag below, the Shift's
# release included, before it handles the press (the Shift must be the press's own)
export PAGECURL_FRAME_SLEEP_MS=250
window_start "$exe" --validation --size 640x400 --no-remember --record "$traces/big.trace" \
    "$(dirname "$0")/fuzz/pdf/search.pdf"
unset PAGECURL_FRAME_SLEEP_MS
expect "pagecurl: 1 / 6"
xdotool key --window "$win" slash
xdotool type --window "$win" --delay 60 zephyr
xdotool key --window "$win" Return
expect "pagecurl: 2-3 / 6"
xdotool key --window "$win" Return
expect "pagecurl: 4-5 / 6"
xdotool key --window "$win" shift+Return
expect "pagecurl: 2-3 / 6"
xdotool key --window "$win" Escape n
expect "pagecurl: 4-5 / 6"
# reopened, the field holds "zephyr" selected: typed again it replaces it (appended, "zephyrzephyr"
# was found nowhere), and Enter goes round the book to the first match
xdotool key --window "$win" slash
xdotool type --window "$win" --delay 60 zephyr
xdotool key --window "$win" Return
expect "pagecurl: 2-3 / 6"
xdotool key --window "$win" Escape n
expect "pagecurl: 4-5 / 6"
# n steps match by match: from the second (page 5's "Zephyr") to the third on the same page
# ("zeph-yr": the view stays), then round to the first (2-3); N back to the third (4-5). Stepping
# by spreads, the two n went 4-5 -> 2-3 -> 4-5 and passed the third over.
settled=$(mktemp -d)
wait_settled "$settled/second.png" || fail "the second match's spread did not come to rest"
xdotool key --window "$win" n n
expect "pagecurl: 2-3 / 6"
wait_settled "$settled/first.png" || fail "the first match's spread did not come to rest"
has_title "pagecurl: 2-3 / 6" || fail "n, n from the second of three matches: '$(title)'"
xdotool key --window "$win" N
expect "pagecurl: 4-5 / 6"
rm -rf "$settled"
# Text (app/text_select.h): Shift+drag over the left-hand page (page 4, "zeph alone": from left of
# its line's start, x 76 of the page's 48 .. 320, to below its end) selects its text, Ctrl+C
# copies it to the clipboard; the first Escape clears the selection (the window stays open), the
# next quits; Shift+double-click selects a word. At rest first: a Shift+press while a leaf flies
# selects nothing.
settled=$(mktemp -d)
wait_settled "$settled/rest.png" || fail "the turn to 4-5 did not come to rest within 60 s"
rm -rf "$settled"
xdotool mousemove --window "$win" 55 120 keydown shift mousedown 1
xdotool mousemove --window "$win" 200 200
xdotool mousemove --window "$win" 300 300 mouseup 1 keyup shift
xdotool key --window "$win" ctrl+c
copied() { [ "$(timeout 10 xclip -o -selection clipboard 2>/dev/null)" = "zeph alone" ]; }
poll 60 copied || fail "the clipboard holds '$(timeout 10 xclip -o -selection clipboard)'"
echo "$name: Shift+drag, Ctrl+C: 'zeph alone' copied"
# Shift+double-click on "alone" (x 110 .. 155 on its line, y 45) selects that word
xdotool mousemove --window "$win" 135 45 keydown shift click --repeat 2 --delay 80 1 keyup shift
xdotool key --window "$win" ctrl+c
word() { [ "$(timeout 10 xclip -o -selection clipboard 2>/dev/null)" = "alone" ]; }
poll 60 word || fail "Shift+double-click: the clipboard holds '$(timeout 10 xclip -o -selection clipboard)'"
echo "$name: Shift+double-click, Ctrl+C: 'alone' copied"
xdotool key --window "$win" Escape
sleep 1
running || fail "the Escape that should have cleared the selection quit"
xdotool key --window "$win" Escape
window_wait
[ "$status" -eq 0 ] || fail "pagecurl searching a PDF exited with $status"
# Links (app/link_click.h): tests/fuzz/pdf/links.pdf's page 1 links its middle to page 4, page 4
# its middle to page 6. A click on page 1's link goes to 4-5 (a cut), one on page 4's to 6 (a
# turn); Backspace goes back to 4-5, Alt+Left to 1, Alt+Right forward to 4-5. A drag from a link
# turns the page as a drag anywhere does.
window_start "$exe" --validation --size 640x400 --no-remember "$(dirname "$0")/fuzz/pdf/links.pdf"
expect "pagecurl: 1 / 6"
xdotool mousemove --window "$win" 320 200 click 1
expect "pagecurl: 4-5 / 6"
xdotool mousemove --window "$win" 190 200 click 1
expect "pagecurl: 6 / 6"
xdotool key --window "$win" BackSpace
expect "pagecurl: 4-5 / 6"
xdotool key --window "$win" alt+Left
expect "pagecurl: 1 / 6"
xdotool key --window "$win" alt+Right
expect "pagecurl: 4-5 / 6"
xdotool key --window "$win" Home
expect "pagecurl: 1 / 6"
xdotool mousemove --window "$win" 320 200 mousedown 1
for x in 290 260 230 200 170 140 110 80; do
    xdotool mousemove --window "$win" "$x" 200
    sleep 0.05
done
xdotool mouseup 1
expect "pagecurl: 2-3 / 6"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl following links exited with $status"
! grep -q "zoom by" "$traces/big.trace" || fail "a readable match was enlarged: $(cat "$traces/big.trace")"
# A match too small to read (a 320x200 window: 12 pt type about 9 px tall) is enlarged once its
# spread is shown: the recorded trace holds the zoom.
window_start "$exe" --validation --size 320x200 --no-remember --record "$traces/small.trace" \
    "$(dirname "$0")/fuzz/pdf/search.pdf"
expect "pagecurl: 1 / 6"
xdotool key --window "$win" slash
xdotool type --window "$win" --delay 60 zephyr
xdotool key --window "$win" Return
expect "pagecurl: 2-3 / 6"
poll 60 grep -q "zoom by" "$traces/small.trace" || fail "the small match was not enlarged"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl enlarging a small match exited with $status"
rm -rf "$traces"
# Ctrl+= lays a reflowable book's text out a size larger (an FB2 book: its XML written here): the
# title's page count grows and the recorded trace holds "key font 12"; Ctrl+- lays it out back
# (11 pt, the count it had); the window made portrait lays it out again to one tall page, fewer
# pages; one place is kept for the book, whatever its layout, and it says where in the text: the
# book reopened at a type size no session used finds the page holding the portrait page's words
# (about as far into the book). A PDF's text cannot be laid out again: Ctrl+=
# says so in a line over the book and changes nothing (neither its count nor the picture: no zoom
# either).
fb2=$(mktemp -d)
{
    printf '<?xml version="1.0" encoding="utf-8"?>\n<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0"><body><section><title><p>A Tale</p></title>'
    for i in $(seq 1 200); do
        printf '<p>Paper turns slowly under the reader'"'"'s thumb while the lamp burns low, page %d of the tale.</p>' "$i"
    done
    printf '</section></body></FictionBook>\n'
} >"$fb2/tale.fb2"
window_start "$exe" --validation --size 640x400 --record "$fb2/font.trace" "$fb2/tale.fb2"
poll 60 has_title_like 'pagecurl: 1 / ' || fail "the FB2 book's title is '$(title)'"
count=$(title | sed 's|.* / ||')
xdotool key --window "$win" Right
expect "pagecurl: 2-3 / $count"
xdotool key --window "$win" Right
expect "pagecurl: 4-5 / $count"
xdotool key --window "$win" ctrl+equal
larger() { n=$(title | sed 's|.* / ||'); [ "$n" -gt "$count" ] 2>/dev/null; }
poll 60 larger || fail "Ctrl+= laid the text out no larger: the title is '$(title)', $count pages before"
echo "$name: Ctrl+=: $(title) (from $count pages)"
grep -q "key font 12$" "$fb2/font.trace" || fail "the trace holds no key font 12: $(cat "$fb2/font.trace")"
xdotool key --window "$win" ctrl+minus
back() { [ "$(title | sed 's|.* / ||')" = "$count" ]; }
poll 60 back || fail "Ctrl+- did not lay the text out back: the title is '$(title)', want $count pages"
# a portrait window shows one page, 1.6 times as tall as wide: laid out again to it once the
# resize has settled, fewer pages (each longer)
xdotool windowsize "$win" 400 640
fewer() { n=$(title | sed 's|.* / ||'); [ "$n" -lt "$count" ] 2>/dev/null; }
poll 60 fewer || fail "a portrait window did not lay the text out again: the title is '$(title)', $count pages before"
echo "$name: resized to 400x640: $(title) (from $count pages)"
portrait=$(title | sed 's|pagecurl: ||')
window_quit
[ "$status" -eq 0 ] || fail "pagecurl laying an FB2 book out again exited with $status"
places=$(ls "$XDG_STATE_HOME/pagecurl/places" | grep -c '^fb2-')
[ "$places" -eq 1 ] || fail "$places places kept for the FB2 book's layouts: $(ls "$XDG_STATE_HOME/pagecurl/places")"
grep -q '^text t1 ' "$XDG_STATE_HOME"/pagecurl/places/fb2-* ||
    fail "the place says nowhere in the text: $(cat "$XDG_STATE_HOME"/pagecurl/places/fb2-*)"
window_start "$exe" --validation --size 640x400 --font-size 14 "$fb2/tale.fb2"
poll 60 has_title_like 'pagecurl: ' || fail "the FB2 book at 14 pt: the title is '$(title)'"
sleep 1
reopened=$(title | sed 's|pagecurl: ||')
window_quit
# as far into the book (a page's share of it) as the portrait page was, within a spread's
echo "$portrait $reopened" | awk '{ split($1, a, "-"); split($4, b, "-")
    d = a[1] / $3 - b[1] / $6; exit !(d < 0.15 && d > -0.15 && b[1] > 1) }' ||
    fail "reopened at 14 pt at '$reopened', the portrait page was '$portrait'"
echo "$name: the portrait place $portrait reopened at 14 pt as $reopened"
window_start "$exe" --validation --size 640x400 --no-remember "$(dirname "$0")/fuzz/pdf/search.pdf"
expect "pagecurl: 1 / 6"
wait_settled "$fb2/pdf.png" || fail "the PDF never came to rest"
convert "$fb2/pdf.png" -crop 640x32+0+0 +repage "$fb2/pdf-head.png"
convert "$fb2/pdf.png" -crop 640x360+0+40 +repage "$fb2/pdf-body.png"
# toast: the line over the book's head (the HUD's toast, for a few seconds) differs from the
# picture at rest. Polled, not waited to settle: on a loaded machine four equal captures take
# longer than the toast lasts.
toast() {
    capture "$fb2/pdf-after.png" &&
        convert "$fb2/pdf-after.png" -crop 640x32+0+0 +repage "$fb2/pdf-after-head.png" &&
        [ "$(differ "$fb2/pdf-head.png" "$fb2/pdf-after-head.png")" -gt 500 ]
}
xdotool key --window "$win" ctrl+equal
poll 60 toast || fail "Ctrl+= on a PDF said nothing over the book"
has_title "pagecurl: 1 / 6" || fail "Ctrl+= on a PDF: the title is '$(title)'"
# below the toast the picture is as it was
convert "$fb2/pdf-after.png" -crop 640x360+0+40 +repage "$fb2/pdf-after-body.png"
[ "$(differ "$fb2/pdf-body.png" "$fb2/pdf-after-body.png")" -lt 50 ] ||
    fail "Ctrl+= on a PDF changed the picture (zoomed?): $(differ "$fb2/pdf-body.png" "$fb2/pdf-after-body.png") pixels"
window_quit
[ "$status" -eq 0 ] || fail "pagecurl refusing Ctrl+= on a PDF exited with $status"
rm -rf "$fb2"
