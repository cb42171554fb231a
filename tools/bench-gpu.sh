#!/bin/sh
# SPDX-License-Identifier: MIT
# The comparison of BENCHMARKS.md, in one run on one card: pagecurl's three normal paths over the
# sweep 64..4096^2, the frame at the book's 64x90 grid, the hand-written CUDA peers when they are
# there, and the table BENCHMARKS.md shows, written as Markdown from the JSON of those runs.
#   tools/bench-gpu.sh [PAGECURL [OUTDIR [PEERS]]]
#   tools/bench-gpu.sh --table OUTDIR      (only the table again, from the results in OUTDIR)
# PAGECURL defaults to build-gpu/app/pagecurl, OUTDIR to bench-gpu (made if missing), PEERS to the
# first of .gpu/peers and ../shared/peers that holds cupy_normals.py ("none": no peers). FRAMES
# (default 300), GRIDS (default 64,256,1024,2048,4096) and REPEAT (default 20, as the peers' CUDA
# graphs launch each kernel 20 times) may be set in the environment. Each kernel is timed twice:
# one dispatch between two timestamps (its fixed costs and the timestamps' included), and the
# mean of REPEAT back-to-back dispatches (--repeat), measured as the peers measure. Needs python3
# for the table.
set -eu
table_only=0
if [ "${1:-}" = --table ]; then
    table_only=1
    shift
    set -- build-gpu/app/pagecurl "${1:?usage: bench-gpu.sh --table OUTDIR}"
fi
bin=${1:-build-gpu/app/pagecurl}
out=${2:-bench-gpu}
peers=${3:-}
frames=${FRAMES:-300}
grids=${GRIDS:-64,256,1024,2048,4096}
repeat=${REPEAT:-20}
command -v python3 >/dev/null || { echo "bench-gpu.sh: python3 is needed for the table" >&2; exit 1; }

run() { # name, then pagecurl's arguments
    name=$1
    shift
    echo "bench-gpu.sh: $name" >&2
    "$bin" --bench --frames "$frames" --warmup 20 --json "$out/$name.json" "$@" >"$out/$name.txt"
}
if [ "$table_only" = 0 ]; then
    [ -x "$bin" ] || { echo "bench-gpu.sh: no pagecurl at $bin (build with the gpu preset)" >&2; exit 1; }
    mkdir -p "$out"
    if [ -z "$peers" ]; then
        for d in .gpu/peers ../shared/peers; do
            [ -f "$d/cupy_normals.py" ] && { peers=$d; break; }
        done
    fi
    # the sweep's table shows the kernels apart: a timestamp after each
    for path in two-pass fused fused-deform; do
        run "sweep-$path" --grids "$grids" --normals "$path" --bench-stages
        run "sweep-$path-repeat" --grids "$grids" --normals "$path" --bench-stages --repeat "$repeat"
    done
    run frame-64x90 --grid 64x90
    run frame-64x90-repeat --grid 64x90 --repeat "$repeat"
    run frame-64x90-msaa1 --grid 64x90 --msaa 1
    if [ -f "$peers/cupy_normals.py" ]; then
        echo "bench-gpu.sh: CUDA peers ($peers/cupy_normals.py)" >&2
        python3 "$peers/cupy_normals.py" >"$out/cupy.txt" 2>&1 ||
            echo "bench-gpu.sh: the peers failed, see $out/cupy.txt" >&2
    else
        echo "bench-gpu.sh: no peers: the CUDA columns stay empty" >&2
    fi
fi

python3 - "$out" <<'EOF' | tee "$out/table.md"
import json, os, sys
out = sys.argv[1]
def load(name):
    with open(os.path.join(out, name + '.json')) as f:
        return json.load(f)
def stage(run, name):
    s = run['stages'].get(name)
    return s['median_ms'] * 1e3 if s else None
def runs(name):
    try:
        return {r['grid'][0]: r for r in load(name)['runs'] if 'stages' in r}
    except OSError:
        return {}
paths = ('two-pass', 'fused', 'fused-deform')
sweep = {p: runs('sweep-' + p) for p in paths}
repeated = {p: runs('sweep-' + p + '-repeat') for p in paths}
rep = next((r.get('repeat', 1) for p in paths for r in repeated[p].values()), None)
ctx = load('sweep-fused')['context']
cuda, copy_cuda = {}, None
try:
    lines = open(os.path.join(out, 'cupy.txt')).read().splitlines()
    for line in lines:
        if line.startswith('copyTBs'):
            copy_cuda = float(line.split()[1])
        f = line.split(',')
        if len(f) >= 6 and f[0].isdigit():
            cuda[int(f[0])] = {'two-pass': float(f[1]), 'fused': min(float(f[4]), float(f[5]))}
except OSError:
    pass
fmt = lambda v, d=1: '—' if v is None else f'{v:.{d}f}'
ratio = lambda ours, theirs: '—' if ours is None or theirs is None else f'{theirs / ours:.2f}'
copy = ctx['copy_gbps']
def floor_share(us, bytes_per_vertex, n):
    return '' if us is None else f' ({bytes_per_vertex * n * n / (us * 1e-6) / 1e9 / copy * 100:.0f} %)'
print(f"{ctx['device']}, {ctx['driver']}, Vulkan {ctx['api_version']}, {ctx['date'][:10]}; "
      f"copy {copy / 1e3:.2f} TB/s (pagecurl)" +
      (f", {copy_cuda:.2f} TB/s (CuPy)" if copy_cuda else '') + '. Median µs of ' +
      f"{sweep['fused'][max(sweep['fused'])]['frames']} frames; in brackets, the share of copy "
      'bandwidth on the bytes the kernel must move.\n')
def kernels(table, p, n):
    r = table[p].get(n)
    if r is None:
        return None
    if p == 'two-pass':
        return stage(r, 'tri_normals') + stage(r, 'vertex_normals')
    return stage(r, p.replace('-', '_'))
if rep:
    print(f'Each pagecurl cell: one dispatch between two timestamps / the mean of {rep} back-to-back '
          'dispatches with a compute barrier between (`--repeat`), as the peers time '
          'theirs (a CUDA graph of 20 launches). Ratios from the second figure.\n')
print('| grid | two-pass normals + pack | CUDA two-pass | ratio | fused | CUDA fused (best) | ratio '
      '| fused-deform (curl included, the default) |')
print('|---|---|---|---|---|---|---|---|')
def cell(p, n, bytes_per_vertex):
    one, many = kernels(sweep, p, n), kernels(repeated, p, n)
    text = fmt(one) + floor_share(one, bytes_per_vertex, n)
    return (text + ' / ' + fmt(many) + floor_share(many, bytes_per_vertex, n) if rep else text,
            many if rep else one)
for n in sorted(sweep['fused']):
    c = cuda.get(n, {})
    two, two_best = cell('two-pass', n, 104)
    fu, fu_best = cell('fused', n, 44)
    fd, _ = cell('fused-deform', n, 32)
    print(f"| {n}² | {two} | {fmt(c.get('two-pass'))} | {ratio(two_best, c.get('two-pass'))} | "
          f"{fu} | {fmt(c.get('fused'))} | {ratio(fu_best, c.get('fused'))} | {fd} |")
frames = [('frame-64x90', '4× MSAA'), ('frame-64x90-msaa1', '--msaa 1')]
if os.path.exists(os.path.join(out, 'frame-64x90-repeat.json')):
    frames.append(('frame-64x90-repeat', f'4× MSAA, each kernel the mean of {rep} dispatches'))
for name, label in frames:
    r = load(name)['runs'][0]
    print(f"\nFrame at 64×90 ({label}, {r['normals']}, 1280×720): compute chain "
          f"{r['compute_ms'] * 1e3:.1f} µs, render {stage(r, 'render'):.0f} µs, frame (wall) "
          f"{r['frame']['median_ms'] * 1e3:.0f} µs, CPU per frame {r['cpu_per_frame']['median_ms'] * 1e3:.0f} µs.",
          end='')
print()
EOF
