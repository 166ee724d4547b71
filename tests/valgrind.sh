#!/bin/sh
# valgrind.sh: no leaks and no memory errors under valgrind on a small trace,
# for every registered policy. pollux runs a smaller genetic algorithm
# (population 20, 10 generations: every step of it still runs at each
# decision): at its defaults (100 x 100) this trace takes it 9.5 CPU s, some
# 330 CPU s under valgrind, most of make check's longest test. Skips when
# valgrind is not installed or when the build is instrumented with
# sanitizers (they do not mix).
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
    small=""
    [ "$p" = pollux ] && small="-P population=20 -P generations=10"
    # shellcheck disable=SC2086
    if valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=2x4,k80=2x4 \
        --policy "$p" $small --quiet --db "$tmp/r.db" >/dev/null 2>"$tmp/vg.$p"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $p under valgrind:"
        cat "$tmp/vg.$p"
        fail=$((fail + 1))
    fi
done
echo "valgrind: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
