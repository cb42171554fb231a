#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed pagecurl, as a user meets it (docs/testing.md: embed):
#   1. `cmake --install` of this build into a temporary prefix holds exactly the program, the
#      library and its links, the header, the CMake package, pagecurl.pc, the man page and
#      (with the window) the desktop entry; the library exports only pagecurl_* functions;
#   2. examples/embed, configured and built out of tree against that prefix alone, draws its
#      scene headless under validation, and the book in its viewport is the installed program's
#      --headless --screenshot at the same pose and size, byte for byte (drawn straight into
#      the host's image with --straight: over the host's background where no paper lies); its
#      frame and background are its colours;
#   3. `pkg-config --cflags --libs pagecurl` builds a C99 program that calls pagecurl_version;
#   4. the man page names every option of --help and formats without a warning.
#
# sh tests/embed.sh BUILD SOURCE OUT CHECK GENERATOR CC SDL CONFIG LIBDIR [CFLAGS]
#   BUILD, SOURCE: this build and its sources; OUT: a folder of its own (emptied first); CHECK:
#   tests/embed_check; GENERATOR, CC: CMake's generator and the C compiler; SDL: ON or OFF
#   (PAGECURL_SDL); CONFIG: the build type; LIBDIR: CMAKE_INSTALL_LIBDIR; CFLAGS: added to every
#   compile and link (the sanitizers').
set -eu
build=$1 source=$2 out=$3 check=$4 generator=$5 cc=$6 sdl=$7 config=$8 libdir=$9
flags=${10:-}
fail() {
    echo "embed: $*" >&2
    exit 1
}
unset DESTDIR # the prefix, and nowhere else
rm -rf "$out"
mkdir -p "$out"
prefix=$out/prefix

# 1. What is installed.
cmake --install "$build" --prefix "$prefix" >"$out/install.log" || fail "cmake --install failed"
version=$("$prefix/bin/pagecurl" --version) || fail "the installed program does not run"
version=${version#pagecurl }
config=$(echo "${config:-noconfig}" | tr '[:upper:]' '[:lower:]')
{
    echo "bin/pagecurl"
    echo "include/pagecurl/pagecurl.h"
    for f in pagecurl-config.cmake pagecurl-config-version.cmake pagecurl-targets.cmake \
        "pagecurl-targets-$config.cmake"; do
        echo "$libdir/cmake/pagecurl/$f"
    done
    echo "$libdir/libpagecurl.so -> libpagecurl.so.0"
    echo "$libdir/libpagecurl.so.0 -> libpagecurl.so.$version"
    echo "$libdir/libpagecurl.so.$version"
    echo "$libdir/pkgconfig/pagecurl.pc"
    [ "$sdl" = OFF ] || echo "share/applications/pagecurl.desktop"
    echo "share/man/man1/pagecurl.1"
} | sort >"$out/expected.txt"
(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort | while read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f"; fi
done) >"$out/installed.txt"
if ! diff -u "$out/expected.txt" "$out/installed.txt" >"$out/tree.diff"; then
    cat "$out/tree.diff" >&2
    fail "the installed tree is not what it should be (- expected, + installed)"
fi
lib=$prefix/$libdir/libpagecurl.so.$version
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^pagecurl_' || true)
[ -z "$others" ] || fail "libpagecurl exports more than pagecurl_*: $(echo $others | head -c 200)"
if [ "$sdl" != OFF ]; then
    desktop=$prefix/share/applications/pagecurl.desktop
    grep -qx 'Exec=pagecurl --book %f' "$desktop" || fail "pagecurl.desktop: no Exec=pagecurl --book %f"
    grep -qx 'MimeType=application/pdf;inode/directory;' "$desktop" ||
        fail "pagecurl.desktop: MimeType is not application/pdf and inode/directory"
    if command -v desktop-file-validate >/dev/null 2>&1; then
        desktop-file-validate "$desktop" || fail "pagecurl.desktop does not validate"
    fi
fi

# 2. The example, out of tree, against the prefix and nothing else of this build.
cmake -S "$source/examples/embed" -B "$out/embed-build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DEMBED_SDL="$sdl" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror $flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
    >"$out/embed-configure.log" 2>&1 || {
    cat "$out/embed-configure.log" >&2
    fail "examples/embed does not configure against the installed package"
}
found=$(sed -n 's/^pagecurl_DIR:PATH=//p' "$out/embed-build/CMakeCache.txt")
[ "$found" = "$prefix/$libdir/cmake/pagecurl" ] || fail "find_package(pagecurl) found $found"
cmake --build "$out/embed-build" >"$out/embed-build.log" 2>&1 || {
    cat "$out/embed-build.log" >&2
    fail "examples/embed does not build against the installed package"
}
embed=$out/embed-build/embed

# The example's scene (examples/embed/main.c): a 48-pixel margin around the viewport, its outer
# 32 the background, the 16 next to the viewport the frame.
pose() { # name, check mode (frame: copied in; kept: --straight), then the pose
    name=$1 mode=$2
    shift 2
    straight=
    [ "$mode" = kept ] && straight=--straight
    "$embed" --headless --validation $straight --screenshot "$out/$name-embed.png" "$@" \
        >"$out/$name-embed.log" 2>&1 || {
        cat "$out/$name-embed.log" >&2
        fail "$name: the example failed: $*"
    }
    "$prefix/bin/pagecurl" --headless --validation --screenshot "$out/$name-program.png" "$@" \
        >"$out/$name-program.log" 2>&1 || {
        cat "$out/$name-program.log" >&2
        fail "$name: the installed program failed: $*"
    }
    "$check" "$mode" "$out/$name-embed.png" "$out/$name-program.png" 48 16 2e3440 c88a3c ||
        fail "$name: the example's picture is not the program's book in its scene: $*"
}
pose first frame --size 320x240 --curl 0.45 --grab 0.2
pose backward frame --size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward
pose straight kept --size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward
# A folder of pages is drawn for a view 1280 pixels wide by the library (book/pagecurl.c) and
# for the program's --size by the program: at a width that gives both the same texels.
mkdir "$out/book"
"$check" book "$out/book" 5 || fail "the test book could not be written"
pose book frame --size 1200x360 --book "$out/book" --page 2 --curl 0.6 --grab 0.4

# 3. pkg-config.
cat >"$out/version.c" <<'EOF'
#include <pagecurl/pagecurl.h>
#include <stdio.h>
int main(void)
{
    return puts(pagecurl_version()) < 0;
}
EOF
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pc_version=$(pkg-config --modversion pagecurl) || fail "pkg-config does not find pagecurl.pc"
[ "$pc_version" = "$version" ] || fail "pagecurl.pc says $pc_version, the program $version"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror $flags $(pkg-config --cflags pagecurl) \
    "$out/version.c" -o "$out/version" $(pkg-config --libs pagecurl) ||
    fail "pkg-config --cflags --libs pagecurl does not build a program"
said=$(LD_LIBRARY_PATH="$prefix/$libdir" "$out/version") || fail "the pkg-config program fails"
[ "$said" = "$version" ] || fail "pagecurl_version() says $said, the program $version"

# 4. The man page: every option of --help in it, and groff finds nothing to warn of.
man=$prefix/share/man/man1/pagecurl.1
grep -q "pagecurl $version" "$man" || fail "pagecurl.1 does not name version $version"
for option in $("$prefix/bin/pagecurl" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$(echo "$option" | sed 's/-/\\\\-/g')" "$man" || fail "pagecurl.1 lacks $option"
done
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -ww -z "$man" 2>&1)
    [ -z "$warnings" ] || fail "pagecurl.1: $warnings"
fi
echo "embed: pagecurl $version installed; the example's frames, pkg-config and man page checked"
