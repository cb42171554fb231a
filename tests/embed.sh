#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed pagecurl, as a user meets it (docs/testing.md: embed):
#   1. `cmake --install` of this build holds exactly the program, the library and its links, the
#      header, the CMake package, pagecurl.pc, the man pages and (with the window) the desktop
#      entry, and each in its component: `library` alone the library, its SONAME link and the
#      page helper (libexec/pagecurl/pagecurl-pages),
#      `development` the rest of a host's build, `program` the program, pagecurl.1 and the
#      desktop entry; the library exports only pagecurl_* functions;
#   2. examples/embed, configured and built out of tree against a prefix of `library` and
#      `development` alone, moved after the install (the CMake package finds itself where it
#      is), draws its scene headless under validation, and the book in its viewport is the
#      installed program's --headless --screenshot at the same pose and size, byte for byte
#      (drawn straight into the host's image with --straight, or in the scene's own pass with
#      --in-pass: over the host's background where no paper lies); its frame and background are
#      its colours;
#   3. `pkg-config --cflags --libs pagecurl`, from the moved prefix, builds a C99 program that
#      calls pagecurl_version;
#   4. pagecurl.1 names every option of --help, pagecurl.3 every function of the installed
#      header, and both format without a warning.
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

# 1. What is installed, and in which component.
install_to() { # prefix, then the component (none: all of them)
    dir=$1
    shift
    cmake --install "$build" --prefix "$dir" ${1:+--component "$1"} >>"$out/install.log" ||
        fail "cmake --install ${1:+--component $1 }failed"
}
listed() { # the files and links under a prefix, one a line, sorted
    (cd "$1" && find . ! -type d | sed 's|^\./||' | sort | while read -r f; do
        if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f"; fi
    done)
}
same_tree() { # what, prefix, expected list's file
    listed "$2" >"$out/$1-installed.txt"
    if ! diff -u "$3" "$out/$1-installed.txt" >"$out/$1.diff"; then
        cat "$out/$1.diff" >&2
        fail "$1: the installed tree is not what it should be (- expected, + installed)"
    fi
}
program_prefix=$out/program
install_to "$program_prefix" program
version=$("$program_prefix/bin/pagecurl" --version) || fail "the installed program does not run"
version=${version#pagecurl }
config=$(echo "${config:-noconfig}" | tr '[:upper:]' '[:lower:]')
{
    echo "$libdir/libpagecurl.so.0 -> libpagecurl.so.$version"
    echo "$libdir/libpagecurl.so.$version"
    echo "libexec/pagecurl/pagecurl-pages"
} | sort >"$out/library.txt"
{
    echo "include/pagecurl/pagecurl.h"
    for f in pagecurl-config.cmake pagecurl-config-version.cmake pagecurl-targets.cmake \
        "pagecurl-targets-$config.cmake"; do
        echo "$libdir/cmake/pagecurl/$f"
    done
    echo "$libdir/libpagecurl.so -> libpagecurl.so.0"
    echo "$libdir/pkgconfig/pagecurl.pc"
    echo "share/man/man3/pagecurl.3"
} | sort >"$out/development.txt"
{
    echo "bin/pagecurl"
    [ "$sdl" = OFF ] || echo "share/applications/pagecurl.desktop"
    echo "share/man/man1/pagecurl.1"
} | sort >"$out/program.txt"
sort "$out/library.txt" "$out/development.txt" >"$out/host.txt"
sort "$out/host.txt" "$out/program.txt" >"$out/all.txt"
same_tree program "$program_prefix" "$out/program.txt"
# the program reads books through the page helper, which the library's component holds: a
# distribution's program package depends on the library's
install_to "$program_prefix" library
# everything, and nothing outside the three
install_to "$out/all"
same_tree all "$out/all" "$out/all.txt"
rm -rf "$out/all"
# a host's machine: the library's package, then the development package over it
prefix=$out/prefix
install_to "$prefix" library
same_tree library "$prefix" "$out/library.txt"
install_to "$prefix" development
same_tree host "$prefix" "$out/host.txt"
lib=$prefix/$libdir/libpagecurl.so.$version
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^pagecurl_' || true)
[ -z "$others" ] || fail "libpagecurl exports more than pagecurl_*: $(echo $others | head -c 200)"
if [ "$sdl" != OFF ]; then
    desktop=$program_prefix/share/applications/pagecurl.desktop
    grep -qx 'Exec=pagecurl --book %f' "$desktop" || fail "pagecurl.desktop: no Exec=pagecurl --book %f"
    grep -qx 'MimeType=application/pdf;inode/directory;' "$desktop" ||
        fail "pagecurl.desktop: MimeType is not application/pdf and inode/directory"
    if command -v desktop-file-validate >/dev/null 2>&1; then
        desktop-file-validate "$desktop" || fail "pagecurl.desktop does not validate"
    fi
fi
# A tree is moved after it is installed (a package's staging folder, a copied SDK): the host
# finds it where it lies now, and nothing where it was installed.
mv "$prefix" "$out/moved"
prefix=$out/moved

# 2. The example, out of tree, against the moved prefix and nothing else of this build.
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
pose() { # name, mode (frame: copied in; kept: --straight; passed: --in-pass), then the pose
    name=$1 mode=$2
    shift 2
    straight=
    [ "$mode" = kept ] && straight=--straight
    [ "$mode" = passed ] && straight=--in-pass mode=kept # over the scene, as drawn straight in
    "$embed" --headless --validation $straight --screenshot "$out/$name-embed.png" "$@" \
        >"$out/$name-embed.log" 2>&1 || {
        cat "$out/$name-embed.log" >&2
        fail "$name: the example failed: $*"
    }
    "$program_prefix/bin/pagecurl" --headless --validation --screenshot "$out/$name-program.png" \
        "$@" >"$out/$name-program.log" 2>&1 || {
        cat "$out/$name-program.log" >&2
        fail "$name: the installed program failed: $*"
    }
    "$check" "$mode" "$out/$name-embed.png" "$out/$name-program.png" 48 16 2e3440 c88a3c ||
        fail "$name: the example's picture is not the program's book in its scene: $*"
}
pose first frame --size 320x240 --curl 0.45 --grab 0.2
pose backward frame --size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward
pose straight kept --size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward
pose in_pass passed --size 320x240 --page 6 --curl 0.3 --grab 0.7 --backward
# A folder of pages is drawn for a view 1280 pixels wide by the library (book/open_frame.c) and
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

# 4. The man pages: every option of --help in pagecurl.1, every function of the installed header
# in pagecurl.3, and groff finds nothing to warn of in either.
man=$program_prefix/share/man/man1/pagecurl.1
man3=$prefix/share/man/man3/pagecurl.3
for page in "$man" "$man3"; do
    grep -q "pagecurl $version" "$page" || fail "$(basename "$page") does not name version $version"
done
for option in $("$program_prefix/bin/pagecurl" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "$(echo "$option" | sed 's/-/\\\\-/g')" "$man" || fail "pagecurl.1 lacks $option"
done
functions=$(grep -o 'pagecurl_[a-z_]*(' "$prefix/include/pagecurl/pagecurl.h" | sort -u)
[ -n "$functions" ] || fail "no function found in the installed header"
for f in $functions; do
    grep -q "^\.B $f)\$" "$man3" || fail "pagecurl.3 does not describe ${f%(}"
    grep -q "^\.BI \".*$f" "$man3" || fail "pagecurl.3's synopsis lacks ${f%(}"
done
if command -v groff >/dev/null 2>&1; then
    for page in "$man" "$man3"; do
        warnings=$(groff -man -ww -z "$page" 2>&1)
        [ -z "$warnings" ] || fail "$(basename "$page"): $warnings"
    done
fi
echo "embed: pagecurl $version installed by component; the example's frames, pkg-config (from a" \
    "moved prefix) and man pages checked"
