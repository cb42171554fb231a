#!/bin/sh
# SPDX-License-Identifier: MIT
# The shipped library reads none of the program's switches: no name of an environment variable
# the program defines (an app/ *_ENV macro: the tests' PAGECURL_FAULT, PAGECURL_STEP_BUDGET_MS and
# the window's other hooks) is in the library's binary. The program reads them and hands what a
# test asks for to the library (book/pagecurl_program.h, docs/architecture.md). Prints each name
# found and fails.
# usage: library_hooks.sh LIBRARY (libpagecurl.so or libpagecurl.a)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$1
[ -f "$lib" ] || { echo "library_hooks: no library at $lib" >&2; exit 1; }
define='^[[:space:]]*#[[:space:]]*define[[:space:]][A-Z0-9_]*_ENV[[:space:]]*'
names=$(sed -n "s/$define\"\\(PAGECURL_[A-Z0-9_]*\\)\".*/\\1/p" "$root"/app/*.c "$root"/app/*.h | sort -u)
# the switch this test was written for must be among them, or the list is not read right
if ! echo "$names" | grep -qx PAGECURL_FAULT; then
    echo "library_hooks: PAGECURL_FAULT not found in app/" >&2
    exit 1
fi
bad=0
for n in $names; do
    if grep -aq "$n" "$lib"; then
        echo "library_hooks: $lib holds $n, a switch only the program reads" >&2
        bad=1
    fi
done
exit $bad
