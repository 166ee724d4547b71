#!/bin/sh
# valgrind.sh: no leaks and no memory errors under valgrind on a small trace,
# for every registered policy. Skips when valgrind is not installed or when
# the build is instrumented with sanitizers (they do not mix).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind.sh: SKIP: valgrind not installed"; exit 77; }
if nm "$MLSCHED" 2>/dev/null | grep -q __asan_init; then
    echo "valgrind.sh: SKIP: sanitizer build"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$MLSCHED" trace generate --jobs 30 --rate 8/h --seed 2 --multi-gpu -o "$tmp/t.csv" || exit 1
fail=0
pass=0
for p in $("$MLSCHED" policies --names); do
    if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=2x4,k80=2x4 \
        --policy "$p" --quiet --db "$tmp/r.db" >/dev/null 2>"$tmp/vg.$p"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $p under valgrind:"
        cat "$tmp/vg.$p"
        fail=$((fail + 1))
    fi
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
