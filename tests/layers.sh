#!/bin/sh
# layers.sh: the folders are layers (DESIGN.md "Layout: folders are layers").
#
# Every project include names its folder (`#include "model/perf.h"`, never a bare
# "perf.h"), names a file that exists, and goes to the including file's own folder
# or to a lower floor. The floors, lowest first; folders on one floor are
# independent of each other. policies/ stands on the ground floor beside model/:
# a policy sees only the view, so policies/ includes nothing but policies/.
LAYERS='model policies
traces profiler
sim
live
cli
tests bench'
# config.h (written by configure) is the one include without a folder. Before the
# tree is checked, the checker is run on a small tree with planted violations
# (an upward include, two same-floor includes, a bare one, a missing file) and
# must find exactly those five.
set -u
: "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check ROOT: prints one line per violation, "file:line: what", to stdout.
check() {
    root=$1
    for d in $(echo "$LAYERS" | tr '\n' ' '); do
        [ -d "$root/$d" ] && find "$root/$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \)
    done | sort | while read -r f; do
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" /dev/null | sed "s|^$root/||"
    done | awk -v layers="$LAYERS" -v root="$root" '
        BEGIN {
            n = split(layers, rows, "\n")
            for (i = 1; i <= n; i++) {
                m = split(rows[i], ds, " ")
                for (j = 1; j <= m; j++) floor[ds[j]] = i
            }
        }
        {
            split($0, p, ":")
            file = p[1]; line = p[2]
            inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
            from = file; sub(/\/.*$/, "", from)
            if (inc == "config.h") next
            if (index(inc, "/") == 0) {
                print file ":" line ": bare include \"" inc "\" (name its folder)"; next
            }
            to = inc; sub(/\/.*$/, "", to)
            if (!(to in floor)) {
                print file ":" line ": \"" inc "\" is in no layer (" to "/)"; next
            }
            if ((getline junk < (root "/" inc)) < 0) {
                print file ":" line ": \"" inc "\": no such file"; next
            }
            close(root "/" inc)
            if (to != from && floor[to] >= floor[from])
                print file ":" line ": " from "/ (floor " floor[from] ") includes \"" inc \
                    "\" (floor " floor[to] "): " (floor[to] == floor[from] ? "same floor" : "higher layer")
        }'
}

fail=0
# the checker finds planted violations
mkdir -p "$tmp/t/model" "$tmp/t/policies" "$tmp/t/traces" "$tmp/t/profiler" "$tmp/t/sim"
printf '#include "policies/g.h"\n#include "model/a.h"\n' >"$tmp/t/policies/g.h"
printf '#include "sim/b.h"\n' >"$tmp/t/model/a.h"
printf '#include "a.h"\n#include "config.h"\n' >"$tmp/t/model/c.c"
printf '#include "profiler/e.h"\n#include "model/missing.h"\n#include "model/a.h"\n' \
    >"$tmp/t/traces/d.c"
: >"$tmp/t/profiler/e.h"
printf '#include "model/a.h"\n#include "sim/b.h"\n' >"$tmp/t/sim/b.h"
check "$tmp/t" >"$tmp/planted"
for want in 'model/a.h:1: model/ (floor 1) includes "sim/b.h" (floor 3): higher layer' \
    'model/c.c:1: bare include "a.h"' \
    'traces/d.c:1: traces/ (floor 2) includes "profiler/e.h" (floor 2): same floor' \
    'traces/d.c:2: "model/missing.h": no such file' \
    'policies/g.h:2: policies/ (floor 1) includes "model/a.h" (floor 1): same floor'; do
    if ! grep -qF "$want" "$tmp/planted"; then
        echo "FAIL: the checker missed: $want"
        fail=1
    fi
done
if [ "$(wc -l <"$tmp/planted")" -ne 5 ]; then
    echo "FAIL: the checker found $(wc -l <"$tmp/planted") violations in the planted tree, not 5:"
    cat "$tmp/planted"
    fail=1
fi

# the tree itself
[ -d "$SRCDIR/model" ] || { echo "FAIL: $SRCDIR/model not found (set SRCDIR)"; exit 1; }
check "$SRCDIR" >"$tmp/found"
if [ -s "$tmp/found" ]; then
    echo "FAIL: includes that break the layers:"
    cat "$tmp/found"
    fail=1
fi
files=$(for d in $(echo "$LAYERS" | tr '\n' ' '); do
    [ -d "$SRCDIR/$d" ] && find "$SRCDIR/$d" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \)
done | wc -l)
[ $fail -eq 0 ] && echo "layers.sh: $files files keep the layers"
exit $fail
