#!/bin/sh
# SPDX-License-Identifier: MIT
# The front door. On a fresh Debian 12 machine:
#   ./dev.sh run    build the program, then run the demo (a window where there is a display,
#                   headless otherwise)
#   ./dev.sh test   build everything, then run the whole test suite (what CI runs)
#   ./dev.sh fuzz   build the input parsers' libFuzzer targets with clang and run each for 20 s
# Each installs the Debian packages it misses first (apt-get as root, sudo otherwise); only
# `test` installs the test tools. fonts-dejavu-core is the built-in book's face, read at run time
# (without it the pages fall back to stb_easy_font; the goldens are drawn in it). `run` and `test`
# share one build folder, build/$PRESET.
# PRESET picks the CMake preset (default: "ci" when CI is set, else "default").
set -eu
cd "$(dirname "$0")"

BUILD_PKGS="gcc libc6-dev cmake ninja-build pkg-config glslc libvulkan-dev libvulkan1
libvulkan-volk-dev libcglm-dev libstb-dev libsdl2-dev libcjson-dev mesa-vulkan-drivers
libmupdf-dev libmujs-dev libgumbo-dev libopenjp2-7-dev libjbig2dec0-dev libjpeg-dev zlib1g-dev
libfreetype-dev libharfbuzz-dev fonts-dejavu-core libxcb-shm0-dev"
TEST_PKGS="vulkan-validationlayers xvfb xauth xdotool xclip imagemagick clang-format-14 g++ butteraugli"
FUZZ_PKGS="clang libclang-rt-14-dev"

say() { printf 'dev.sh: %s\n' "$*" >&2; }

missing_packages() {
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
            printf '%s\n' "$p"
    done
}

install_packages() {
    # shellcheck disable=SC2086 # the lists are word lists on purpose
    need=$(missing_packages "$@" | tr '\n' ' ')
    [ -n "$need" ] || return 0
    if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
        say "missing packages: $need; this script installs them with apt-get on Debian 12 only"
        exit 1
    fi
    if [ "$(id -u)" = 0 ]; then
        as_root=""
    elif command -v sudo >/dev/null 2>&1; then
        as_root="sudo"
    else
        say "missing packages: $need; run as root or install sudo, or install them yourself"
        exit 1
    fi
    say "installing: $need"
    # A fresh machine may have no package lists yet: update once and try again.
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y --no-install-recommends $need; then
        $as_root apt-get update
        DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y --no-install-recommends $need
    fi
}

preset=${PRESET:-}
if [ -z "$preset" ]; then
    if [ -n "${CI:-}" ]; then preset=ci; else preset=default; fi
fi

# build [--target T]: configure (quietly: CMake's own lines go to stdout) and build.
build() {
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" "$@"
}

case ${1:-} in
run)
    # shellcheck disable=SC2086
    install_packages $BUILD_PKGS
    # Only the program: the tests are built by `test`, in the same folder.
    build --target pagecurl
    mkdir -p out
    # A window where there is a display (drag the page with the left button, Escape quits; what
    # it shows last is written to out/); without one, a curled pose rendered headless.
    pose=
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        pose="--headless --curl 0.45 --grab 0.2"
        say "no display (DISPLAY and WAYLAND_DISPLAY unset): a curled page rendered headless"
    fi
    # shellcheck disable=SC2086
    exec "build/$preset/app/pagecurl" $pose \
        --screenshot out/pagecurl.png --export-obj out/pagecurl.obj
    ;;
test)
    # shellcheck disable=SC2086
    install_packages $BUILD_PKGS $TEST_PKGS
    build
    # The test packages are installed: a test disabled for want of one of their tools (CMake
    # could not find it) would let the suite pass without running it.
    if ctest --preset "$preset" --show-only=json-v1 | grep -q '"name" : "DISABLED"'; then
        cmake --preset "$preset" | grep 'pagecurl: tests disabled' >&2 || true
        say "tests are disabled although the test packages are installed"
        exit 1
    fi
    ctest --preset "$preset"
    ;;
fuzz)
    # shellcheck disable=SC2086
    install_packages $BUILD_PKGS $FUZZ_PKGS
    cmake --preset fuzz >/dev/null
    cmake --build --preset fuzz
    # The text parsers start from tests/fuzz/seed.*, the page decoders (page: an image, pdf: a
    # PDF) from their folders of tiny files, the face (font) from the DejaVu Serif files the
    # program reads (fonts-dejavu-core: no font is kept in the checkout). libFuzzer runs a target
    # on one core, so as many targets run at once as there are cores, each still for the whole of
    # its time: six targets at 20 s take a minute on two cores (2 minutes on one).
    cores=$(nproc 2>/dev/null || echo 1)
    set -- trace cli notebook page pdf font
    while [ $# -gt 0 ]; do
        batch='' n=0
        while [ $# -gt 0 ] && [ "$n" -lt "$cores" ]; do
            batch="$batch $1" n=$((n + 1))
            shift
        done
        for target in $batch; do
            corpus=build/fuzz/corpus-$target
            mkdir -p "$corpus"
            if [ "$target" = font ]; then
                cp /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf \
                    /usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf "$corpus/"
            elif [ -d "tests/fuzz/$target" ]; then
                cp "tests/fuzz/$target"/* "$corpus/"
            else
                cp tests/fuzz/seed.* "$corpus/"
            fi
            say "fuzzing the $target parser for ${FUZZ_SECONDS:-20} s"
            # -close_fd_mask=1: the command line's --help would flood stdout; what libFuzzer
            # keeps of a run (a crash's input, a slow or leaking one) goes to the build folder,
            # never into the checkout
            mkdir -p "build/fuzz/artifacts-$target"
            rm -f "build/fuzz/$target.failed"
            { "build/fuzz/tests/fuzz_$target" -max_total_time="${FUZZ_SECONDS:-20}" \
                -close_fd_mask=1 -print_final_stats=1 \
                -artifact_prefix="build/fuzz/artifacts-$target/" "$corpus" \
                >"build/fuzz/$target.log" 2>&1 || : >"build/fuzz/$target.failed"; } &
        done
        wait
        # in the order started, once the batch is done: a failure stops the step here
        for target in $batch; do
            if [ -e "build/fuzz/$target.failed" ]; then
                tail -n 40 "build/fuzz/$target.log" >&2
                say "the $target fuzzer found a failure (build/fuzz/$target.log)"
                exit 1
            fi
            grep -E 'stat::number_of_executed_units|stat::new_units_added' "build/fuzz/$target.log" |
                sed "s/^/$target /"
        done
    done
    ;;
*)
    say "usage: ./dev.sh run | test | fuzz"
    exit 2
    ;;
esac
