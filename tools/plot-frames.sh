#!/bin/sh
# SPDX-License-Identifier: MIT
# Frame-time plot from a `pagecurl --bench --csv` file: one SVG per run, one line per stage
# (ms per frame against the frame number), so a user sees the curve instead of reading numbers.
#   tools/plot-frames.sh bench.csv [NXxNY] > frames.svg
# Without NXxNY the first grid in the file is drawn. Plain awk: no plotting package needed.
set -eu
csv=${1:?usage: plot-frames.sh bench.csv [NXxNY] > out.svg}
grid=${2:-}
[ -r "$csv" ] || { echo "plot-frames.sh: cannot read $csv" >&2; exit 1; }
awk -F, -v want="$grid" '
NR == 1 { for (c = 4; c <= NF; c++) name[c] = $c; cols = NF; next }
{
    g = $1 "x" $2
    if (want == "") want = g
    if (g != want) next
    n++
    for (c = 4; c <= cols; c++) { v[n, c] = $c + 0; if (v[n, c] > top) top = v[n, c] }
}
END {
    if (n == 0) { print "plot-frames.sh: no rows for grid " want > "/dev/stderr"; exit 1 }
    W = 900; H = 420; L = 70; R = 170; T = 40; B = 50
    pw = W - L - R; ph = H - T - B
    if (top <= 0) top = 1
    split("#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf", colour, " ")
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"%d\" y=\"24\" font-size=\"15\">pagecurl --bench, grid %s: ms per frame by stage</text>\n", L, want
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T + ph, L + pw, T + ph
    printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, T, L, T + ph
    for (k = 0; k <= 4; k++) {
        y = T + ph - k * ph / 4
        printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", L - 6, y + 4, top * k / 4
        printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + pw, y
    }
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">frame (of %d)</text>\n", L + pw / 2, H - 12, n
    line = 0
    for (c = 4; c <= cols; c++) {
        used = 0
        for (i = 1; i <= n; i++) if (v[i, c] > 0) used = 1
        if (!used) continue
        line++
        printf "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour[(line - 1) % 10 + 1]
        for (i = 1; i <= n; i++)
            printf "%.1f,%.1f ", L + (n > 1 ? (i - 1) * pw / (n - 1) : 0), T + ph - v[i, c] / top * ph
        printf "\"/>\n"
        label = name[c]; sub(/_ms$/, "", label)
        printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", L + pw + 10, T + 14 * line, colour[(line - 1) % 10 + 1], label
    }
    print "</svg>"
}' "$csv"
