#!/bin/sh
# SPDX-License-Identifier: MIT
# The static library, as a host that links it meets it (docs/testing.md: embed_static):
#   1. a build of the library alone with -DBUILD_SHARED_LIBS=OFF installs, from its `library` and
#      `development` components, libpagecurl.a (and no shared library), the header, the CMake
#      package, pagecurl.pc, pagecurl.3 and the page helper (libexec/pagecurl/pagecurl-pages);
#      libpagecurl.a defines no global symbol but the pagecurl_* functions, so its parts never
#      meet a host's, and holds no MuPDF (the helper does);
#   2. the prefix moved, examples/embed built against it through find_package(pagecurl) draws,
#      headless under validation, the program's picture of the same pose byte for byte;
#   3. `pkg-config --static --cflags --libs pagecurl` links a C99 program that runs.
#
# sh tests/embed_static.sh SOURCE OUT CHECK PROGRAM GENERATOR CC CONFIG LIBDIR
#   SOURCE: the sources; OUT: a folder of its own (emptied first); CHECK: tests/embed_check;
#   PROGRAM: this build's pagecurl (the pictures' reference); GENERATOR, CC: CMake's generator and
#   the C compiler; CONFIG: the build type; LIBDIR: CMAKE_INSTALL_LIBDIR.
set -eu
source=$1 out=$2 check=$3 program=$4 generator=$5 cc=$6 config=$7 libdir=$8
fail() {
    echo "embed_static: $*" >&2
    exit 1
}
unset DESTDIR
rm -rf "$out"
mkdir -p "$out"
build=$out/build

# 1. The static build: only the library's target and what it is made of (the window, the program
# and the tests are not built), installed as a distribution would package it.
cmake -S "$source" -B "$build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE="$config" -DBUILD_SHARED_LIBS=OFF -DPAGECURL_SDL=OFF -DBUILD_TESTING=OFF \
    >"$out/configure.log" 2>&1 || {
    cat "$out/configure.log" >&2
    fail "the static build does not configure"
}
cmake --build "$build" --target pagecurl_lib >"$out/build.log" 2>&1 || {
    cat "$out/build.log" >&2
    fail "libpagecurl.a does not build"
}
prefix=$out/prefix
for component in library development; do
    cmake --install "$build" --prefix "$prefix" --component "$component" >>"$out/install.log" ||
        fail "cmake --install --component $component failed"
done
config=$(echo "${config:-noconfig}" | tr '[:upper:]' '[:lower:]')
{
    echo "include/pagecurl/pagecurl.h"
    for f in pagecurl-config.cmake pagecurl-config-version.cmake pagecurl-targets.cmake \
        "pagecurl-targets-$config.cmake"; do
        echo "$libdir/cmake/pagecurl/$f"
    done
    echo "$libdir/libpagecurl.a"
    echo "$libdir/pkgconfig/pagecurl.pc"
    echo "libexec/pagecurl/pagecurl-pages"
    echo "share/man/man3/pagecurl.3"
} | sort >"$out/expected.txt"
(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort) >"$out/installed.txt"
if ! diff -u "$out/expected.txt" "$out/installed.txt" >"$out/tree.diff"; then
    cat "$out/tree.diff" >&2
    fail "the installed tree is not what it should be (- expected, + installed)"
fi
archive=$prefix/$libdir/libpagecurl.a
others=$(nm -g --defined-only "$archive" | awk 'NF == 3 {print $3}' |
    grep -v -e '^pagecurl_' || true)
[ -z "$others" ] ||
    fail "libpagecurl.a defines more than pagecurl_*: $(echo "$others" | tr '\n' ' ' | head -c 200)"
nm -g --defined-only "$archive" | grep -q ' T pagecurl_book_create$' ||
    fail "libpagecurl.a does not define pagecurl_book_create"
! nm "$archive" | awk '{print $NF}' | grep -q -E '^(fz|pdf)_' ||
    fail "libpagecurl.a holds MuPDF's symbols"
mv "$prefix" "$out/moved"
prefix=$out/moved

# 2. The example through the CMake package: pagecurl::pagecurl brings what libpagecurl.a needs.
cmake -S "$source/examples/embed" -B "$out/embed-build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DEMBED_SDL=OFF -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
    >"$out/embed-configure.log" 2>&1 || {
    cat "$out/embed-configure.log" >&2
    fail "examples/embed does not configure against the static package"
}
found=$(sed -n 's/^pagecurl_DIR:PATH=//p' "$out/embed-build/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/pagecurl" ] || fail "find_package(pagecurl) found $found"
cmake --build "$out/embed-build" >"$out/embed-build.log" 2>&1 || {
    cat "$out/embed-build.log" >&2
    fail "examples/embed does not link against libpagecurl.a"
}
embed=$out/embed-build/embed
! readelf -d "$embed" | grep -q 'libpagecurl' || fail "the example needs a libpagecurl.so"
pose="--size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward"
# shellcheck disable=SC2086 # the pose is a list of arguments
"$embed" --headless --validation --screenshot "$out/embed.png" $pose >"$out/embed.log" 2>&1 || {
    cat "$out/embed.log" >&2
    fail "the example on libpagecurl.a failed"
}
# shellcheck disable=SC2086
"$program" --headless --validation --screenshot "$out/program.png" $pose \
    >"$out/program.log" 2>&1 || {
    cat "$out/program.log" >&2
    fail "the program failed"
}
"$check" frame "$out/embed.png" "$out/program.png" 48 16 2e3440 c88a3c ||
    fail "the example on libpagecurl.a does not draw the program's book"

# 3. pkg-config --static.
cat >"$out/version.c" <<'EOF'
#include <pagecurl/pagecurl.h>
#include <stdio.h>
int main(void)
{
    return puts(pagecurl_version()) < 0;
}
EOF
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror $(pkg-config --cflags pagecurl) "$out/version.c" \
    -o "$out/version" $(pkg-config --static --libs pagecurl) 2>"$out/version.log" || {
    cat "$out/version.log" >&2
    fail "pkg-config --static --libs pagecurl does not link a program:" \
        "$(pkg-config --static --libs pagecurl)"
}
said=$("$out/version") || fail "the pkg-config program fails"
[ "$said" = "$(pkg-config --modversion pagecurl)" ] || fail "pagecurl_version() says $said"
echo "embed_static: libpagecurl.a ($(du -k "$prefix/$libdir/libpagecurl.a" | cut -f1) KiB)" \
    "installed, moved, linked through CMake and pkg-config --static; the example's frame checked"
