#!/bin/sh
# SPDX-License-Identifier: MIT
# Every source file of pagecurl's says its licence in its first lines (an SPDX-License-Identifier
# line, under the shebang of a script): C, GLSL, shell and CMake files in the source folders and
# at the root. Prints the files that do not and fails.
set -u
cd "${1:-.}" || exit 1
missing=$(
    {
        find app bench book files gpu helper mesh pages shaders include tests tools examples \
            \( -path tests/fuzz -o -path tests/golden \) -prune -o -type f \
            \( -name '*.[ch]' -o -name '*.glsl' -o -name '*.comp' -o -name '*.frag' \
            -o -name '*.vert' -o -name '*.geom' -o -name '*.sh' -o -name CMakeLists.txt \
            -o -name '*.in' \) -print
        printf '%s\n' CMakeLists.txt dev.sh .ci/run
    } | while read -r f; do
        head -n 3 "$f" | grep -q 'SPDX-License-Identifier: ' || printf '%s\n' "$f"
    done
)
if [ -n "$missing" ]; then
    printf 'licence: no SPDX-License-Identifier line in:\n%s\n' "$missing" >&2
    exit 1
fi
echo "licence: every source file names its licence"
