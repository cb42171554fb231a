#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's first command on a machine with only the build packages: copies this checkout to
# a temporary folder and, in a private mount namespace, hides every tool that only the tests use
# (xvfb-run, Xvfb, xauth, xdotool, ImageMagick, the Khronos validation layer) behind bind mounts,
# then runs `./dev.sh run` there with no display. It must exit 0, write out/pagecurl.png and
# out/pagecurl.obj, and have configured the tests that need those tools as disabled. The tools
# are hidden by mounts rather than by a shorter PATH because CMake's find_program also searches
# the system folders. CI runs this first (.ci/run).
#   sh tests/bare_run.sh          (as root; otherwise it tries an unprivileged user namespace)
set -eu

say() { printf 'bare_run: %s\n' "$*" >&2; }

TOOLS="xvfb-run Xvfb xauth xdotool xclip import convert compare identify"
LAYER_DIRS="/usr/local/share/vulkan/explicit_layer.d /usr/share/vulkan/explicit_layer.d
/etc/vulkan/explicit_layer.d"

# Inside the namespace: hide the tools, check they are hidden, run the command.
if [ "${1:-}" = --inside ]; then
    tmp=$2
    absent=$tmp/absent # an empty file without execute permission: find_program skips it
    : >"$absent"
    chmod 644 "$absent"
    mkdir "$tmp/no-layers"
    dirs="$(printf '%s' "$PATH" | tr ':' ' ') /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin"
    for tool in $TOOLS; do
        for dir in $dirs; do
            if [ -x "$dir/$tool" ]; then mount --bind "$absent" "$dir/$tool"; fi
        done
    done
    for dir in $LAYER_DIRS; do
        if [ -d "$dir" ]; then mount --bind "$tmp/no-layers" "$dir"; fi
    done
    for lib in /usr/lib/*/libVkLayer_khronos_validation.so /usr/lib/libVkLayer_khronos_validation.so \
        /usr/local/lib/libVkLayer_khronos_validation.so; do
        if [ -f "$lib" ]; then mount --bind "$absent" "$lib"; fi
    done
    for tool in $TOOLS; do
        for dir in $dirs; do
            if [ -x "$dir/$tool" ]; then
                say "$dir/$tool is still visible after masking"
                exit 1
            fi
        done
    done
    cd "$tmp/pagecurl"
    # A newcomer's shell: no display (the demo falls back to headless), no CI preset.
    env -u DISPLAY -u WAYLAND_DISPLAY -u CI -u PRESET ./dev.sh run
    exit 0
fi

src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagecurl-bare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pagecurl"
# The working tree as it is (tracked files and new ones git does not ignore), without build/.
git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && tar --null --files-from=- --ignore-failed-read -cf -) |
    tar -xf - -C "$tmp/pagecurl"

if [ "$(id -u)" = 0 ]; then ns="unshare -m"; else ns="unshare -rm"; fi
start=$(date +%s)
if ! $ns sh "$src/tests/bare_run.sh" --inside "$tmp"; then
    say "./dev.sh run failed with the test tools hidden"
    exit 1
fi
out=$tmp/pagecurl/out
# The PNG's signature and the OBJ's header line: the files are whole, not just present.
if [ "$(head -c 8 "$out/pagecurl.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
    say "out/pagecurl.png is missing or not a PNG"
    exit 1
fi
if ! head -n 1 "$out/pagecurl.obj" 2>/dev/null | grep -q '^# pagecurl grid '; then
    say "out/pagecurl.obj is missing or not pagecurl's OBJ"
    exit 1
fi
# CMake must have seen the tools as missing (and disabled the tests that need them), or the
# masking proved nothing.
if ! ctest --test-dir "$tmp/pagecurl/build/default" --show-only=json-v1 |
    grep -q '"name" : "DISABLED"'; then
    say "no test was disabled: CMake still found the test tools"
    exit 1
fi
say "./dev.sh run passed with the test tools hidden in $(($(date +%s) - start)) s"
